import Foundation
import SwellMotion

/// Byte-level reading of delimited text, shared by every recording reader.
///
/// It walks the bytes once, hands out lines (with their 1-based numbers) and field ranges, and
/// parses numbers in place with `strtod`, so a 10 MB file costs no per-line `String`s.
/// Quoted fields (`"Time (s)"`) are unquoted; a doubled quote inside is kept as is.
struct CSVScanner {
  /// One physical line of the file.
  struct Line {
    /// The 1-based line number.
    var number: Int
    /// The byte range of the line, without its line break.
    var range: Range<Int>
  }

  /// The file's bytes followed by a NUL, so `strtod` always stops.
  private let bytes: [UInt8]
  /// The number of bytes of the file (without the NUL).
  private let count: Int
  /// The name used in errors.
  let fileName: String
  /// The field separator.
  var delimiter: UInt8 = UInt8(ascii: ",")
  private var position = 0
  private var lineNumber = 0

  /// Creates a scanner over a file's bytes.
  ///
  /// - Parameters:
  ///   - input: The bytes: a whole file, or (from ``CSVFileReader``) a block of whole lines.
  ///   - fileName: The name used in errors.
  ///   - linesBefore: The number of lines of the file before these bytes (line numbers in
  ///     errors continue from it); a UTF-8 byte-order mark is skipped only when it is 0.
  init(bytes input: some Collection<UInt8>, fileName: String, linesBefore: Int = 0) {
    var b = [UInt8]()
    b.reserveCapacity(input.count + 1)
    b.append(contentsOf: input)
    count = b.count
    // Skip a UTF-8 byte-order mark at the start of the file.
    if linesBefore == 0 && b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
      position = 3
    }
    b.append(0)
    bytes = b
    self.fileName = fileName
    lineNumber = linesBefore
  }

  /// The number of lines read so far (the last returned line's number).
  var linesRead: Int { lineNumber }

  /// Returns the next line, or `nil` at the end of the file.
  mutating func nextLine() -> Line? {
    guard position < count else { return nil }
    lineNumber += 1
    let start = position
    let end: Int = bytes.withUnsafeBufferPointer { p in
      var i = start
      while i < count && p[i] != 0x0A { i += 1 }
      return i
    }
    position = end + 1
    var stop = end
    if stop > start && bytes[stop - 1] == 0x0D { stop -= 1 }
    return Line(number: lineNumber, range: start..<stop)
  }

  /// Returns the next line that is neither blank nor a `#` comment; comment lines are passed to
  /// `comment` on the way.
  mutating func nextRecord(comment: (Int, String) -> Void = { _, _ in }) -> Line? {
    while let line = nextLine() {
      let r = trimmed(line.range)
      if r.isEmpty { continue }
      if bytes[r.lowerBound] == UInt8(ascii: "#") {
        comment(line.number, text(r.lowerBound + 1..<r.upperBound))
        continue
      }
      return line
    }
    return nil
  }

  /// Splits a line into field ranges (quotes removed), reusing `fields`' storage.
  func split(_ line: Line, into fields: inout [Range<Int>]) {
    fields.removeAll(keepingCapacity: true)
    let d = delimiter
    let quote = UInt8(ascii: "\"")
    bytes.withUnsafeBufferPointer { p in
      var i = line.range.lowerBound
      let end = line.range.upperBound
      while true {
        // Skip leading spaces of a field.
        var s = i
        while s < end && (p[s] == 0x20 || (p[s] == 0x09 && d != 0x09)) { s += 1 }
        if s < end && p[s] == quote {
          let inner = s + 1
          var j = inner
          while j < end {
            if p[j] == quote {
              if j + 1 < end && p[j + 1] == quote {
                j += 2
                continue
              }
              break
            }
            j += 1
          }
          fields.append(inner..<min(j, end))
          var k = min(j + 1, end)
          while k < end && p[k] != d { k += 1 }
          if k >= end { return }
          i = k + 1
        } else {
          var k = i
          while k < end && p[k] != d { k += 1 }
          fields.append(i..<k)
          if k >= end { return }
          i = k + 1
        }
      }
    }
  }

  /// Splits a header record into `fields` and returns its names after checking them.
  ///
  /// - Parameters:
  ///   - line: The header record.
  ///   - fields: Receives the header's field ranges.
  ///   - expected: The header the format wants, for the error message.
  ///   - matches: Whether the names are an acceptable header.
  /// - Returns: The field names.
  /// - Throws: `RecordingError` naming the file and line when `matches` says no.
  func header(
    _ line: Line, into fields: inout [Range<Int>], expected: String,
    matches: ([String]) -> Bool
  ) throws(RecordingError) -> [String] {
    split(line, into: &fields)
    let names = fields.map { text($0) }
    guard matches(names) else {
      throw error(
        line.number, nil, "header must start with '\(expected)', found '\(preview(line))'")
    }
    return names
  }

  /// The range without leading and trailing spaces, tabs and carriage returns.
  func trimmed(_ r: Range<Int>) -> Range<Int> {
    var lo = r.lowerBound
    var hi = r.upperBound
    while lo < hi && isSpace(bytes[lo]) { lo += 1 }
    while hi > lo && isSpace(bytes[hi - 1]) { hi -= 1 }
    return lo..<hi
  }

  private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }

  /// True when the field holds nothing but spaces.
  func isBlank(_ r: Range<Int>) -> Bool { trimmed(r).isEmpty }

  /// The field as text (trimmed, decoded as UTF-8).
  func text(_ r: Range<Int>) -> String {
    let t = trimmed(r)
    return String(decoding: bytes[t], as: UTF8.self)
  }

  /// The field as text for a message: at most `UntrustedText/defaultLimit` characters, control
  /// characters escaped (`UntrustedText/clipped(_:limit:)`); only the start of a huge field is
  /// decoded.
  func shown(_ r: Range<Int>) -> String {
    let t = trimmed(r)
    let head = t.lowerBound..<min(t.upperBound, t.lowerBound + 4 * UntrustedText.defaultLimit + 4)
    let s = String(decoding: bytes[head], as: UTF8.self)
    return head.count < t.count ? UntrustedText.clipped(s + "…") : UntrustedText.clipped(s)
  }

  /// The whole line as text, for messages (shortened to 60 characters, control characters
  /// escaped).
  func preview(_ line: Line) -> String {
    let t = trimmed(line.range)
    let s = String(
      decoding: bytes[t.lowerBound..<min(t.upperBound, t.lowerBound + 256)], as: UTF8.self)
    return UntrustedText.clipped(s.count > 60 || t.count > 256 ? String(s.prefix(57)) + "..." : s)
  }

  /// Parses a decimal number (integer, decimal or exponent form, `nan`, `inf`), or returns
  /// `nil` when the field is not exactly one number. Hexadecimal forms are refused.
  func double(_ r: Range<Int>) -> Double? {
    let t = trimmed(r)
    guard !t.isEmpty else { return nil }
    return bytes.withUnsafeBufferPointer { p -> Double? in
      guard let base = p.baseAddress else { return nil }
      for i in t where p[i] == UInt8(ascii: "x") || p[i] == UInt8(ascii: "X") { return nil }
      let first = p[t.lowerBound]
      // strtod would skip leading blanks; the trimmed field has none, but refuse other
      // leading characters strtod tolerates.
      guard first != 0x0B && first != 0x0C else { return nil }
      var endPointer: UnsafeMutablePointer<CChar>?
      let start = UnsafeRawPointer(base + t.lowerBound).assumingMemoryBound(to: CChar.self)
      let value = strtod(start, &endPointer)
      guard let endPointer else { return nil }
      let consumed = UnsafeRawPointer(endPointer) - UnsafeRawPointer(start)
      return consumed == t.count ? value : nil
    }
  }

  /// Parses a signed 64-bit decimal integer exactly, or returns `nil`.
  func int64(_ r: Range<Int>) -> Int64? {
    let t = trimmed(r)
    guard !t.isEmpty else { return nil }
    var i = t.lowerBound
    var negative = false
    if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
      negative = bytes[i] == UInt8(ascii: "-")
      i += 1
    }
    guard i < t.upperBound else { return nil }
    var v: Int64 = 0
    while i < t.upperBound {
      let c = bytes[i]
      guard c >= 0x30 && c <= 0x39 else { return nil }
      let (m, o1) = v.multipliedReportingOverflow(by: 10)
      let (a, o2) = m.addingReportingOverflow(Int64(c - 0x30))
      guard !o1 && !o2 else { return nil }
      v = a
      i += 1
    }
    return negative ? -v : v
  }

  /// Guesses the delimiter of a header line: tab, semicolon or comma, whichever is most common.
  func guessDelimiter(_ line: Line) -> UInt8 {
    var counts: [UInt8: Int] = [0x09: 0, UInt8(ascii: ";"): 0, UInt8(ascii: ","): 0]
    var inQuotes = false
    for i in line.range {
      let c = bytes[i]
      if c == UInt8(ascii: "\"") { inQuotes.toggle() }
      if !inQuotes, counts[c] != nil { counts[c, default: 0] += 1 }
    }
    let best = counts.max { a, b in a.value < b.value || (a.value == b.value && a.key < b.key) }
    guard let best, best.value > 0 else { return UInt8(ascii: ",") }
    return best.key
  }

  /// Replaces every comma by a point: for files whose delimiter is not a comma and whose
  /// numbers use a decimal comma.
  func withDecimalComma() -> CSVScanner {
    var copy = bytes
    for i in 0..<count where copy[i] == UInt8(ascii: ",") { copy[i] = UInt8(ascii: ".") }
    var s = CSVScanner(bytes: copy.dropLast(), fileName: fileName)
    s.delimiter = delimiter
    s.position = position
    s.lineNumber = lineNumber
    return s
  }

  /// An error at a line (and column).
  func error(_ line: Int?, _ column: String? = nil, _ message: String) -> RecordingError {
    RecordingError(file: fileName, line: line, column: column, message: message)
  }
}
