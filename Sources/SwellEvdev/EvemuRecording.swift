import SwellMotion

/// A recording in the evemu text format (`evemu-record`, freedesktop evemu, file format 1.3):
/// a device description followed by its events, decoded into samples by the same
/// ``EvdevMotionDecoder`` as the live source.
///
/// Lines (src/evemu.c, `evemu_read` and `evemu_read_event`): `# ...` comments (the first may be
/// `# EVEMU MAJOR.MINOR`); `N: NAME`; `I: BUS VENDOR PRODUCT VERSION` (hex); `P:` 8 hex bytes of
/// the `INPUT_PROP_*` bitmask, more lines continuing it; `B: TYPE` and 8 hex bytes of that type's
/// code bitmask, more lines continuing it; `A: CODE MIN MAX FUZZ FLAT RESOLUTION` (code hex, the
/// rest decimal; files older than format 1.2 have no resolution); `L:` and `S:` (LED and switch
/// states, skipped); `E: SEC.USEC TYPE CODE VALUE` (microseconds six digits, type and code hex,
/// value decimal, anything after a `#` a comment).
public struct EvemuRecording: Hashable, Sendable {
  /// The recorded device. evemu stores no current axis values, so every `absinfo.value` is 0.
  public var description: EvdevDeviceDescription
  /// The events, in file order.
  public var events: [EvdevEvent]

  /// The most events a recording may hold (16 777 216, about 2 hours of a DualSense's 250 Hz
  /// frames of 8 events).
  public static let maximumEvents = 1 << 24
  /// The longest line accepted, bytes.
  public static let maximumLineLength = 4096
  /// The most `P:` lines (their bits go far past `INPUT_PROP_MAX`).
  static let maximumPropertyLines = 4
  /// The most `B:` lines for one type (12 cover `KEY_MAX`).
  static let maximumMaskLines = 12

  /// Creates a recording.
  ///
  /// - Parameters:
  ///   - description: The recorded device.
  ///   - events: The events in order.
  public init(description: EvdevDeviceDescription, events: [EvdevEvent]) {
    self.description = description
    self.events = events
  }

  /// Whether a text looks like an evemu file: its first line is `# EVEMU` or an `N:` line.
  ///
  /// - Parameter prefix: The file's first bytes.
  /// - Returns: Whether to parse it as evemu.
  public static func matches<Bytes: Collection<UInt8>>(prefix: Bytes) -> Bool {
    let start = Array(prefix.prefix(8))
    return start.starts(with: Array("# EVEMU".utf8)) || start.starts(with: Array("N: ".utf8))
  }

  /// The whole file as text: ``EvemuWriter``'s header and one `E:` line per event, with times
  /// as stored.
  ///
  /// - Returns: The text.
  public func text() -> String {
    var writer = EvemuWriter(description: description, relativeTime: false)
    var s = writer.header
    s.reserveCapacity(s.utf8.count + events.count * 28)
    for e in events { writer.append(e, to: &s) }
    return s
  }

  /// Decodes the events into samples with ``EvdevMotionDecoder``.
  ///
  /// - Parameter family: The driver family, or `nil` to recognise it from the description.
  /// - Returns: The samples, in time order.
  /// - Throws: `EvdevDecodeError` when the description is not a decodable motion node.
  public func samples(family: EvdevDriverFamily? = nil) throws(EvdevDecodeError) -> [IMUSample] {
    try decode(family: family).samples
  }

  /// Decodes the events into samples, with the decoder's statistics.
  ///
  /// - Parameter family: The driver family, or `nil` to recognise it from the description.
  /// - Returns: The samples and what the decoder measured.
  /// - Throws: `EvdevDecodeError` when the description is not a decodable motion node.
  public func decode(family: EvdevDriverFamily? = nil) throws(EvdevDecodeError) -> (
    samples: [IMUSample], statistics: EvdevDecoderStatistics
  ) {
    var decoder = try EvdevMotionDecoder(description: description, family: family)
    var samples: [IMUSample] = []
    samples.reserveCapacity(events.count / 4)
    decoder.feed(contentsOf: events, into: &samples)
    return (samples, decoder.statistics)
  }

  /// Parses an evemu file.
  ///
  /// - Parameters:
  ///   - text: The file's contents.
  ///   - fileName: The file's name, for errors.
  /// - Returns: The recording.
  /// - Throws: `RecordingError` naming the file, the line and the field of the first problem.
  public static func parse(_ text: String, fileName: String) throws(RecordingError)
    -> EvemuRecording
  {
    var parser = EvemuParser(fileName: fileName)
    var text = text
    let result = text.withUTF8 { bytes in
      Result { () throws(RecordingError) in try parser.parse(bytes) }
    }
    return try result.get()
  }
}

/// The line-by-line evemu reader behind ``EvemuRecording/parse(_:fileName:)``.
struct EvemuParser {
  let fileName: String
  var lineNumber = 0
  var formatMinor = 0
  var formatMajor = 1
  var name: String?
  var id: (UInt16, UInt16, UInt16, UInt16)?
  var properties = Set<Int>()
  var propertyLines = 0
  var eventCodes: [EvdevEventType: Set<UInt16>] = [:]
  var maskLines: [UInt16: Int] = [:]
  var axes: [UInt16: EvdevAbsInfo] = [:]
  var uniq: String?
  var phys: String?
  var events: [EvdevEvent] = []
  var lastTime: Int64 = .min

  init(fileName: String) { self.fileName = fileName }

  func error(_ field: String?, _ message: String) -> RecordingError {
    RecordingError(file: fileName, line: lineNumber, column: field, message: message)
  }

  mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(RecordingError)
    -> EvemuRecording
  {
    var start = 0
    let n = bytes.count
    while start < n {
      var end = start
      while end < n && bytes[end] != 0x0A { end += 1 }
      lineNumber += 1
      var stop = end
      if stop > start && bytes[stop - 1] == 0x0D { stop -= 1 }
      guard stop - start <= EvemuRecording.maximumLineLength else {
        throw error(
          nil, "line longer than \(EvemuRecording.maximumLineLength) bytes")
      }
      try parseLine(UnsafeBufferPointer(rebasing: bytes[start..<stop]))
      start = end + 1
    }
    guard let name, let id else {
      lineNumber = max(lineNumber, 1)
      throw RecordingError(
        file: fileName,
        message: name == nil
          ? "not an evemu recording: no 'N:' (device name) line"
          : "not an evemu recording: no 'I:' (device id) line")
    }
    let description = EvdevDeviceDescription(
      name: name, bus: id.0, vendor: id.1, product: id.2, version: id.3,
      properties: properties, absoluteAxes: axes, eventCodes: eventCodes, uniq: uniq,
      phys: phys)
    return EvemuRecording(description: description, events: events)
  }

  mutating func parseLine(_ line: UnsafeBufferPointer<UInt8>) throws(RecordingError) {
    var i = 0
    while i < line.count && (line[i] == 0x20 || line[i] == 0x09) { i += 1 }
    if i == line.count { return }
    if line[i] == UInt8(ascii: "#") {
      parseComment(String(decoding: line[i...], as: UTF8.self))
      return
    }
    guard line.count >= 2, line[1] == UInt8(ascii: ":") else {
      throw error(nil, "not an evemu line (expected 'X: ...' or a '# comment')")
    }
    let kind = line[0]
    var fields = Fields(line: line, start: 2)
    if kind == UInt8(ascii: "E") {
      try parseEvent(&fields)
      return
    }
    guard events.isEmpty else {
      throw error(nil, "a description line after the first event")
    }
    switch kind {
    case UInt8(ascii: "N"):
      let text = String(decoding: line[2...], as: UTF8.self).trimmingSpaces
      guard !text.isEmpty else { throw error("name", "empty device name") }
      guard name == nil else { throw error("name", "a second 'N:' line") }
      name = String(text.prefix(256))
    case UInt8(ascii: "I"):
      var v: [UInt16] = []
      for field in ["bus", "vendor", "product", "version"] {
        v.append(try hex16(&fields, field))
      }
      try fields.expectEnd(self)
      id = (v[0], v[1], v[2], v[3])
    case UInt8(ascii: "P"):
      propertyLines += 1
      guard propertyLines <= EvemuRecording.maximumPropertyLines else {
        throw error("mask", "more than \(EvemuRecording.maximumPropertyLines) 'P:' lines")
      }
      let base = (propertyLines - 1) * 64
      for bit in try maskBits(&fields) { properties.insert(base + bit) }
    case UInt8(ascii: "B"):
      let type = try hex16(&fields, "type")
      guard type <= EvdevEventType.maximum else {
        throw error("type", "event type 0x\(String(type, radix: 16)) is above EV_MAX (0x1f)")
      }
      let count = (maskLines[type] ?? 0) + 1
      guard count <= EvemuRecording.maximumMaskLines else {
        throw error("mask", "more than \(EvemuRecording.maximumMaskLines) 'B:' lines for one type")
      }
      maskLines[type] = count
      let base = (count - 1) * 64
      var codes = eventCodes[EvdevEventType(rawValue: type)] ?? []
      for bit in try maskBits(&fields) { codes.insert(UInt16(base + bit)) }
      eventCodes[EvdevEventType(rawValue: type)] = codes
    case UInt8(ascii: "A"):
      let code = try hex16(&fields, "code")
      guard code <= EvdevCode.absMaximum else {
        throw error("code", "axis 0x\(String(code, radix: 16)) is above ABS_MAX (0x3f)")
      }
      let minimum = try int32(&fields, "minimum")
      let maximum = try int32(&fields, "maximum")
      let fuzz = try int32(&fields, "fuzz")
      let flat = try int32(&fields, "flat")
      // Format 1.2 added the resolution (evemu's parse_abs wants 6 numbers after 1.1).
      let needsResolution = formatMajor > 1 || formatMinor > 1
      var resolution: Int32 = 0
      if needsResolution || !fields.atEnd {
        resolution = try int32(&fields, "resolution")
      }
      try fields.expectEnd(self)
      guard minimum <= maximum else {
        throw error("maximum", "maximum \(maximum) is below minimum \(minimum)")
      }
      axes[code] = EvdevAbsInfo(
        value: 0, minimum: minimum, maximum: maximum, fuzz: fuzz, flat: flat,
        resolution: resolution)
    case UInt8(ascii: "L"), UInt8(ascii: "S"):
      _ = try hex16(&fields, "code")
      _ = try int32(&fields, "state")
    default:
      // Other one-letter lines (added by later evemu versions) are skipped, as evemu's
      // reader skips every line that is not the one it expects.
      break
    }
  }

  mutating func parseComment(_ text: String) {
    if lineNumber == 1, text.hasPrefix("# EVEMU ") {
      let version = text.dropFirst(8).split(separator: ".")
      if version.count == 2, let major = Int(version[0].trimmingSpaces),
        let minor = Int(version[1].trimmingSpaces)
      {
        formatMajor = major
        formatMinor = minor
      }
    }
    for (prefix, isUniq) in [("# Input device uniq: \"", true), ("# Input device phys: \"", false)]
    where text.hasPrefix(prefix) && text.hasSuffix("\"") && text.count > prefix.count {
      let value = String(text.dropFirst(prefix.count).dropLast().prefix(256))
      if isUniq { uniq = value } else { phys = value }
    }
  }

  mutating func parseEvent(_ fields: inout Fields) throws(RecordingError) {
    guard name != nil, id != nil else {
      throw error(nil, "an event before the 'N:' and 'I:' lines")
    }
    guard events.count < EvemuRecording.maximumEvents else {
      throw error(nil, "more than \(EvemuRecording.maximumEvents) events")
    }
    guard let time = fields.next() else { throw error("time", "missing") }
    let (seconds, micros) = try parseTime(time)
    let type = try hex16(&fields, "type")
    guard type <= EvdevEventType.maximum else {
      throw error("type", "event type 0x\(String(type, radix: 16)) is above EV_MAX (0x1f)")
    }
    let code = try hex16(&fields, "code")
    guard code <= EvdevCode.codeMaximum else {
      throw error("code", "code 0x\(String(code, radix: 16)) is above KEY_MAX (0x2ff)")
    }
    let value = try int32(&fields, "value")
    try fields.expectEnd(self, allowComment: true)
    let total = seconds * 1_000_000 + micros
    guard total >= lastTime else {
      throw error("time", "goes back in time (before the previous event's)")
    }
    lastTime = total
    events.append(
      EvdevEvent(
        seconds: seconds, microseconds: micros, type: EvdevEventType(rawValue: type), code: code,
        value: value))
  }

  func parseTime(_ field: UnsafeBufferPointer<UInt8>.SubSequence) throws(RecordingError) -> (
    Int64, Int64
  ) {
    let text = String(decoding: field, as: UTF8.self)
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[1].count == 6, parts[0].count <= 11,
      parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit),
      let seconds = Int64(parts[0]), let micros = Int64(parts[1])
    else {
      throw error(
        "time", "'\(UntrustedText.clipped(text))' is not SECONDS.MICROSECONDS (six digits)")
    }
    guard Double(seconds) <= RecordingLimits.maximumTimeMagnitude else {
      throw error("time", "\(seconds) s is beyond \(RecordingLimits.maximumTimeMagnitude) s")
    }
    return (seconds, micros)
  }

  func hex16(_ fields: inout Fields, _ name: String) throws(RecordingError) -> UInt16 {
    guard let f = fields.next() else { throw error(name, "missing") }
    let text = String(decoding: f, as: UTF8.self)
    guard text.count <= 4, let v = UInt16(text, radix: 16) else {
      throw error(name, "'\(UntrustedText.clipped(text))' is not a 16-bit hex number")
    }
    return v
  }

  func int32(_ fields: inout Fields, _ name: String) throws(RecordingError) -> Int32 {
    guard let f = fields.next() else { throw error(name, "missing") }
    let text = String(decoding: f, as: UTF8.self)
    guard let v = Int32(text) else {
      throw error(name, "'\(UntrustedText.clipped(text))' is not a 32-bit integer")
    }
    return v
  }

  func maskBits(_ fields: inout Fields) throws(RecordingError) -> [Int] {
    var bits: [Int] = []
    for byte in 0..<8 {
      guard let f = fields.next() else {
        throw error("mask byte \(byte + 1)", "missing (a mask line has 8 bytes)")
      }
      let text = String(decoding: f, as: UTF8.self)
      guard text.count <= 2, let v = UInt8(text, radix: 16) else {
        throw error("mask byte \(byte + 1)", "'\(UntrustedText.clipped(text))' is not a hex byte")
      }
      for bit in 0..<8 where v & (1 << bit) != 0 { bits.append(byte * 8 + bit) }
    }
    try fields.expectEnd(self)
    return bits
  }
}

/// The whitespace-separated fields of one line.
struct Fields {
  let line: UnsafeBufferPointer<UInt8>
  var index: Int

  init(line: UnsafeBufferPointer<UInt8>, start: Int) {
    self.line = line
    self.index = start
  }

  private mutating func skipSpaces() {
    while index < line.count && (line[index] == 0x20 || line[index] == 0x09) { index += 1 }
  }

  var atEnd: Bool {
    var copy = self
    copy.skipSpaces()
    return copy.index >= line.count
  }

  mutating func next() -> UnsafeBufferPointer<UInt8>.SubSequence? {
    skipSpaces()
    guard index < line.count else { return nil }
    let start = index
    while index < line.count && line[index] != 0x20 && line[index] != 0x09 { index += 1 }
    return line[start..<index]
  }

  mutating func expectEnd(_ parser: EvemuParser, allowComment: Bool = false) throws(RecordingError)
  {
    skipSpaces()
    guard index < line.count else { return }
    if allowComment && line[index] == UInt8(ascii: "#") { return }
    throw parser.error(nil, "unexpected text after the last field")
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  var trimmingSpaces: String {
    var s = Substring(self)
    while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
    while let c = s.last, c == " " || c == "\t" { s.removeLast() }
    return String(s)
  }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}
