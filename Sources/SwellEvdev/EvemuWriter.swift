/// Writes the evemu text format (`evemu-record`, `evemu-describe` from the freedesktop evemu
/// project, file format 1.3) a piece at a time, so a recorder can write a file as events arrive.
///
/// The header is `# EVEMU 1.3` and comment lines, then `N:` (name), `I:` (bus, vendor, product,
/// version in hex), `P:` (the property bitmask, 8 bytes a line), `B:` (per event type, the code
/// bitmask, 8 bytes a line) and `A:` (per absolute axis: code in hex, then minimum, maximum,
/// fuzz, flat and resolution in decimal). Each event is `E: SEC.USEC TYPE CODE VALUE`, type and
/// code in 4-digit hex and value in decimal, as `evemu_write_event` writes it (src/evemu.c).
/// The format has no field for `uniq`, `phys` or an axis's current value; the writer puts
/// `uniq` and `phys` in comments, which readers skip.
public struct EvemuWriter: Sendable {
  /// The file-format version written in the first line.
  public static let formatVersion = "1.3"

  /// The description the header was made from.
  public let description: EvdevDeviceDescription
  /// Whether event times are written relative to the first event (which gets 0.000001 s, as
  /// `evemu-record` does), rather than as read.
  public let relativeTime: Bool
  private var originMicroseconds: Int64?

  /// Creates a writer.
  ///
  /// - Parameters:
  ///   - description: The device the events come from.
  ///   - relativeTime: Write times relative to the first event, as `evemu-record` does.
  public init(description: EvdevDeviceDescription, relativeTime: Bool = true) {
    self.description = description
    self.relativeTime = relativeTime
  }

  /// The header: comments, then the `N:`, `I:`, `P:`, `B:` and `A:` lines, each ending in a
  /// newline.
  public var header: String {
    let d = description
    var s = "# EVEMU \(Self.formatVersion)\n"
    s += "# Input device name: \"\(Self.oneLine(d.name))\"\n"
    s += "# Input device ID: bus 0x\(Self.hex(d.bus, 2)) vendor 0x\(Self.hex(d.vendor, 2))"
    s += " product 0x\(Self.hex(d.product, 2)) version 0x\(Self.hex(d.version, 2))\n"
    if let uniq = d.uniq { s += "# Input device uniq: \"\(Self.oneLine(uniq))\"\n" }
    if let phys = d.phys { s += "# Input device phys: \"\(Self.oneLine(phys))\"\n" }
    s += "N: \(Self.oneLine(d.name))\n"
    s += "I: \(Self.hex(d.bus, 4)) \(Self.hex(d.vendor, 4)) \(Self.hex(d.product, 4))"
    s += " \(Self.hex(d.version, 4))\n"
    for line in Self.maskLines(d.properties.filter { $0 >= 0 }) {
      s += "P: " + line + "\n"
    }
    for type in d.eventCodes.keys.sorted() {
      let codes = d.eventCodes[type] ?? []
      for line in Self.maskLines(Set(codes.map(Int.init))) {
        s += "B: \(Self.hex(type.rawValue, 2)) " + line + "\n"
      }
    }
    for code in d.absoluteAxes.keys.sorted() {
      guard let a = d.absoluteAxes[code] else { continue }
      s += "A: \(Self.hex(code, 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
    }
    return s
  }

  /// The `E:` line of one event, ending in a newline; the first call fixes the time origin
  /// when ``relativeTime`` is set.
  ///
  /// - Parameter event: The event.
  /// - Returns: The line.
  public mutating func line(for event: EvdevEvent) -> String {
    var s = ""
    append(event, to: &s)
    return s
  }

  /// Appends the `E:` line of one event to a text.
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - text: The text to append to.
  public mutating func append(_ event: EvdevEvent, to text: inout String) {
    var micros = event.timeMicroseconds
    if relativeTime {
      let origin = originMicroseconds ?? (micros - 1)
      originMicroseconds = origin
      micros -= origin
    }
    let negative = micros < 0
    let magnitude = micros.magnitude
    text += "E: "
    if negative { text += "-" }
    text += String(magnitude / 1_000_000)
    text += "."
    text += Self.padded(String(magnitude % 1_000_000), 6)
    text += " "
    text += Self.hex(event.type.rawValue, 4)
    text += " "
    text += Self.hex(event.code, 4)
    text += " "
    // printf's %04d: width 4 including the sign.
    let v = String(event.value.magnitude)
    text += event.value < 0 ? "-" + Self.padded(v, 3) : Self.padded(v, 4)
    text += "\n"
  }

  /// Lower-case hex with at least `width` digits.
  static func hex(_ value: UInt16, _ width: Int) -> String {
    padded(String(value, radix: 16), width)
  }

  static func padded(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
  }

  /// A name with line breaks replaced, so it stays on its line.
  static func oneLine(_ s: String) -> String {
    String(s.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
  }

  /// A bitmask as lines of 8 hex bytes, least significant byte first (at least one line).
  static func maskLines(_ bits: Set<Int>) -> [String] {
    let top = bits.max() ?? 0
    let lines = top / 64 + 1
    var bytes = [UInt8](repeating: 0, count: lines * 8)
    for bit in bits { bytes[bit / 8] |= UInt8(1) << UInt8(bit % 8) }
    return (0..<lines).map { line in
      bytes[(line * 8)..<(line * 8 + 8)].map { padded(String($0, radix: 16), 2) }
        .joined(separator: " ")
    }
  }
}
