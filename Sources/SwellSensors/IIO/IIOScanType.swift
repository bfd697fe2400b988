/// The storage format of one channel in an IIO buffer scan, as the `scan_elements/*_type` file
/// spells it: `[be|le]:[s|u|f]bits/storagebits[Xrepeat][>>shift]`, e.g. `le:s16/16>>0`,
/// `le:s12/16>>4`, `be:u32/32`, `le:s16/16X3>>0`.
///
/// Decoding one element (kernel `Documentation/driver-api/iio/buffers.rst`): read `storageBits`
/// bits in the given byte order, shift right by `shift`, keep the low `bits` bits, and
/// sign-extend when the type is signed. `f` (IEEE 754 float, a 2026 kernel addition) is read
/// as a 32- or 64-bit float.
public struct IIOScanType: Hashable, Sendable, CustomStringConvertible {
  /// How the bits are interpreted.
  public enum Kind: Hashable, Sendable {
    /// Two's-complement signed integer (`s`).
    case signed
    /// Unsigned integer (`u`).
    case unsigned
    /// IEEE 754 floating point (`f`), 32 or 64 bits.
    case float
  }

  /// True for big-endian storage (`be`), false for little-endian (`le`).
  public var isBigEndian: Bool
  /// The interpretation of the bits.
  public var kind: Kind
  /// The number of significant bits (1...64).
  public var bits: Int
  /// The number of bits each element occupies in the scan (8, 16, 32 or 64).
  public var storageBits: Int
  /// How many elements the channel holds (1 unless the type has `Xrepeat`).
  public var repeatCount: Int
  /// The right shift applied before masking, in bits.
  public var shift: Int

  /// Creates a scan type.
  ///
  /// - Parameters:
  ///   - isBigEndian: Byte order.
  ///   - kind: Signed, unsigned or float.
  ///   - bits: Significant bits.
  ///   - storageBits: Bits of storage per element.
  ///   - repeatCount: Elements per channel.
  ///   - shift: Right shift in bits.
  public init(
    isBigEndian: Bool, kind: Kind, bits: Int, storageBits: Int, repeatCount: Int = 1,
    shift: Int = 0
  ) {
    self.isBigEndian = isBigEndian
    self.kind = kind
    self.bits = bits
    self.storageBits = storageBits
    self.repeatCount = repeatCount
    self.shift = shift
  }

  /// Parses a `_type` string.
  ///
  /// - Parameter text: The file's content, e.g. `le:s12/16>>4` (surrounding white space is
  ///   ignored).
  /// - Throws: ``IIOError`` naming the text when it does not follow the format or describes an
  ///   impossible layout (storage not 8/16/32/64 bits, more bits than storage, float not 32/64).
  public init(parsing text: String) throws(IIOError) {
    let s = text.trimmingWhitespace()
    func fail(_ why: String) -> IIOError {
      IIOError("bad scan type '\(s)': \(why)", path: "")
    }
    let parts = s.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else { throw fail("expected [be|le]:..") }
    switch parts[0] {
    case "be": isBigEndian = true
    case "le": isBigEndian = false
    default: throw fail("byte order must be 'be' or 'le'")
    }
    var rest = Substring(parts[1])
    guard let k = rest.first else { throw fail("missing s, u or f") }
    switch k {
    case "s", "S": kind = .signed
    case "u", "U": kind = .unsigned
    case "f", "F": kind = .float
    default: throw fail("sign must be s, u or f")
    }
    rest = rest.dropFirst()
    var shiftValue = 0
    if let r = rest.range(of: ">>") {
      guard let v = Int(rest[r.upperBound...]), v >= 0, v < 64 else {
        throw fail("bad shift")
      }
      shiftValue = v
      rest = rest[..<r.lowerBound]
    }
    var repeatValue = 1
    if let x = rest.firstIndex(of: "X") {
      guard let v = Int(rest[rest.index(after: x)...]), v >= 1, v <= 1024 else {
        throw fail("bad repeat")
      }
      repeatValue = v
      rest = rest[..<x]
    }
    let sizes = rest.split(separator: "/", omittingEmptySubsequences: false)
    guard sizes.count == 2, let b = Int(sizes[0]), let sb = Int(sizes[1]) else {
      throw fail("expected bits/storagebits")
    }
    guard [8, 16, 32, 64].contains(sb) else { throw fail("storage bits must be 8, 16, 32 or 64") }
    guard b >= 1, b <= sb else { throw fail("bits must be 1...storagebits") }
    guard b + shiftValue <= sb else { throw fail("bits + shift exceed storage bits") }
    if kind == .float {
      guard (b == 32 && sb == 32) || (b == 64 && sb == 64), shiftValue == 0 else {
        throw fail("float must be f32/32 or f64/64 without shift")
      }
    }
    bits = b
    storageBits = sb
    repeatCount = repeatValue
    shift = shiftValue
  }

  /// Bytes of one element (`storageBits / 8`).
  public var storageBytes: Int { storageBits / 8 }

  /// Bytes of the whole channel in a scan (`storageBytes × repeatCount`); the channel is aligned
  /// to this size.
  public var byteCount: Int { storageBytes * repeatCount }

  /// The `_type` spelling of this scan type.
  public var description: String {
    let k = kind == .signed ? "s" : (kind == .unsigned ? "u" : "f")
    let r = repeatCount > 1 ? "X\(repeatCount)" : ""
    return "\(isBigEndian ? "be" : "le"):\(k)\(bits)/\(storageBits)\(r)>>\(shift)"
  }

  /// Reads the raw storage word of one element, in host order.
  private func word(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
    var w: UInt64 = 0
    let n = storageBytes
    for i in 0..<n {
      let byte = UInt64(bytes[offset + (isBigEndian ? i : n - 1 - i)])
      w = (w << 8) | byte
    }
    return w
  }

  /// Decodes one element as an integer: the storage word shifted, masked to ``bits`` and
  /// sign-extended for signed types. For float types this returns the value truncated toward zero
  /// (use ``decode(_:at:element:)`` for floats).
  ///
  /// - Parameters:
  ///   - bytes: The scan bytes.
  ///   - offset: The channel's byte offset in the scan.
  ///   - element: Which of the ``repeatCount`` elements (0 for ordinary channels).
  /// - Returns: The raw integer value.
  public func decodeInteger(_ bytes: UnsafeRawBufferPointer, at offset: Int, element: Int = 0)
    -> Int64
  {
    if kind == .float {
      let v = decode(bytes, at: offset, element: element)
      return v.isFinite && abs(v) < 9.2e18 ? Int64(v) : 0
    }
    let w = word(bytes, at: offset + element * storageBytes) >> UInt64(shift)
    let masked = bits == 64 ? w : w & ((UInt64(1) << UInt64(bits)) - 1)
    if kind == .signed && bits < 64 && masked & (UInt64(1) << UInt64(bits - 1)) != 0 {
      return Int64(bitPattern: masked | ~((UInt64(1) << UInt64(bits)) - 1))
    }
    if kind == .unsigned && bits == 64 {
      return masked > UInt64(Int64.max) ? Int64.max : Int64(masked)
    }
    return Int64(bitPattern: masked)
  }

  /// Decodes one element as a number (raw units, before offset and scale).
  ///
  /// - Parameters:
  ///   - bytes: The scan bytes.
  ///   - offset: The channel's byte offset in the scan.
  ///   - element: Which of the ``repeatCount`` elements (0 for ordinary channels).
  /// - Returns: The raw value.
  public func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int, element: Int = 0) -> Double {
    switch kind {
    case .float:
      let w = word(bytes, at: offset + element * storageBytes)
      return storageBits == 32
        ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: w)))
        : Double(bitPattern: w)
    case .unsigned where bits == 64:
      return Double(word(bytes, at: offset + element * storageBytes) >> UInt64(shift))
    default:
      return Double(decodeInteger(bytes, at: offset, element: element))
    }
  }
}

extension StringProtocol {
  /// The string without leading and trailing spaces, tabs and newlines.
  func trimmingWhitespace() -> String {
    guard let first = firstIndex(where: { !$0.isWhitespace }),
      let last = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[first...last])
  }
}
