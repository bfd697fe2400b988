/// Where each enabled channel sits in one IIO buffer scan.
///
/// Follows the kernel's `iio_compute_scan_bytes`: channels in ascending scan index, each aligned
/// to its own size (`storagebits / 8 × repeat`), and the whole scan padded to a multiple of its
/// largest element. Example: accel x/y/z as `le:s16/16>>0` plus a `le:s64/64>>0` timestamp sit
/// at offsets 0, 2, 4 and 8, and a scan is 16 bytes.
public struct IIOScanLayout: Hashable, Sendable {
  /// One channel's place in the scan.
  public struct Element: Hashable, Sendable {
    /// The channel's scan-elements name without the suffix, e.g. `in_accel_x`.
    public var name: String
    /// The channel's scan index.
    public var index: Int
    /// The channel's storage format.
    public var type: IIOScanType
    /// The byte offset of the channel in the scan.
    public var offset: Int
  }

  /// The enabled channels in scan order, with their offsets.
  public var elements: [Element]
  /// The size of one scan in bytes.
  public var scanBytes: Int

  /// Computes the layout of a set of enabled channels.
  ///
  /// - Parameter channels: Name, scan index and type of each enabled channel, in any order.
  public init(channels: [(name: String, index: Int, type: IIOScanType)]) {
    var offset = 0
    var largest = 1
    var out: [Element] = []
    for c in channels.sorted(by: { $0.index < $1.index }) {
      let size = c.type.byteCount
      offset = IIOScanLayout.roundUp(offset, to: size)
      out.append(Element(name: c.name, index: c.index, type: c.type, offset: offset))
      offset += size
      largest = max(largest, size)
    }
    elements = out
    scanBytes = out.isEmpty ? 0 : IIOScanLayout.roundUp(offset, to: largest)
  }

  /// The element named `name`, if it is in the scan.
  ///
  /// - Parameter name: The channel name, e.g. `in_accel_x`.
  /// - Returns: The element, or `nil`.
  public func element(named name: String) -> Element? {
    elements.first { $0.name == name }
  }

  private static func roundUp(_ value: Int, to alignment: Int) -> Int {
    guard alignment > 1 else { return value }
    return (value + alignment - 1) / alignment * alignment
  }
}
