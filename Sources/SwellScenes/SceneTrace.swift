/// The trace format of `swell trace` (FORMATS.md "Trace"): a `time` column, then one column per
/// traced value, as CSV with a header row or as a JSON array of objects with the same keys.
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
    isJSON ? "[\n" : (["time"] + keys).joined(separator: ",") + "\n"
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
      for (i, name) in (["time"] + keys).enumerated() {
        if i > 0 { text += ", " }
        text += "\"\(name)\": \(Self.number(i < row.count ? row[i] : 0))"
      }
      text += "}"
    } else {
      text += row.map(Self.number).joined(separator: ",")
      text += "\n"
    }
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
