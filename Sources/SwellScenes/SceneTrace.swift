/// The trace format of `swell trace` (docs/formats.md "Trace"): a `time` column, then one column per
/// traced value, as CSV with a header row or as a JSON array of objects with the same keys.
///
/// Keys are layer names and key paths, so they may hold any character: CSV header fields are
/// quoted per RFC 4180 when they contain a comma, a quote, a line break or surrounding spaces,
/// and JSON object keys are escaped per RFC 8259, so a layer named `wa"ter,1` still gives CSV
/// whose rows have as many fields as its header and JSON that a parser reads.
public struct SceneTraceFormat: Hashable, Sendable {
  /// CSV (`true`: JSON).
  public var isJSON: Bool
  /// The traced keys after `time`.
  public var keys: [String]

  /// Creates a format.
  ///
  /// - Parameters:
  ///   - keys: The traced keys after `time` (a scene's `traceKeys`).
  ///   - json: JSON instead of CSV.
  public init(keys: [String], json: Bool = false) {
    self.keys = keys
    isJSON = json
  }

  /// The text before the first row: the CSV header line, or `[` and a line break.
  public var header: String {
    isJSON ? "[\n" : (["time"] + keys).map(Self.csvField).joined(separator: ",") + "\n"
  }

  /// The text after the last row: nothing for CSV, a line break and the closing bracket for
  /// JSON.
  public var footer: String { isJSON ? "\n]\n" : "" }

  /// Appends one row (`[time] + values`).
  ///
  /// - Parameters:
  ///   - row: The time and the values.
  ///   - first: Whether it is the first row (JSON separates objects by commas).
  ///   - text: The text to append to.
  public func appendRow(_ row: [Double], first: Bool, to text: inout String) {
    if isJSON {
      if !first { text += ",\n" }
      text += "  {"
      for (i, name) in jsonKeys.enumerated() {
        if i > 0 { text += ", " }
        text += name + ": " + Self.number(i < row.count ? row[i] : 0)
      }
      text += "}"
    } else {
      text += row.map(Self.number).joined(separator: ",")
      text += "\n"
    }
  }

  /// The JSON object keys, quoted and escaped once (`time` first).
  private var jsonKeys: [String] { (["time"] + keys).map(Self.jsonString) }

  /// A CSV field per RFC 4180: the text itself when it needs no quoting, else in double quotes
  /// with each quote doubled. A field is quoted when it contains a comma, a double quote, a
  /// carriage return or a line feed, or starts or ends with a space or tab (which many readers
  /// trim).
  ///
  /// - Parameter text: The field's text.
  /// - Returns: The field as written in a CSV line.
  public static func csvField(_ text: String) -> String {
    let needsQuotes =
      text.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
      || text.first.map { $0 == " " || $0 == "\t" } == true
      || text.last.map { $0 == " " || $0 == "\t" } == true
    guard needsQuotes else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// A JSON string per RFC 8259 §7, with its quotes: the quotation mark and the reverse solidus
  /// are escaped with a reverse solidus, the control characters U+0000…U+001F are written as the
  /// short escapes (b, f, n, r, t) or as u00XX, and every other character (non-ASCII included)
  /// as itself in UTF-8.
  ///
  /// - Parameter text: The string's text.
  /// - Returns: The JSON string literal.
  public static func jsonString(_ text: String) -> String {
    var out = "\""
    out.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case let c where c.value < 0x20:
        let hex = String(c.value, radix: 16, uppercase: true)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// The shortest text that reads back as the same `Double`; non-finite values as 0.
  ///
  /// - Parameter v: The value.
  /// - Returns: The text.
  public static func number(_ v: Double) -> String {
    guard v.isFinite else { return "0" }
    if v == 0 { return "0" }
    return "\(v)"
  }
}
