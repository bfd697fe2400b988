import Foundation

extension BenchmarkFigure {
  /// The figures as one JSON object and a line break (`swell bench --json`):
  /// `{"NAME": {"median": X, "min": X, "max": X, "unit": "..."}, ...}`, `null` for a non-finite
  /// value.
  ///
  /// - Parameter figures: The figures, in order.
  /// - Returns: The JSON text.
  package static func jsonText(_ figures: [BenchmarkFigure]) -> String {
    let number = { (v: Double) in v.isFinite ? String(format: "%.6g", v) : "null" }
    let body = figures.map {
      "\"\($0.name)\": {\"median\": \(number($0.median)), \"min\": \(number($0.min)), "
        + "\"max\": \(number($0.max)), \"unit\": \"\($0.unit)\"}"
    }
    return "{" + body.joined(separator: ", ") + "}\n"
  }

  /// The figures as a text table: a header, then one line per figure (name, median, min, max,
  /// unit), lines ending in line breaks.
  ///
  /// - Parameter figures: The figures, in order.
  /// - Returns: The table.
  package static func tableText(_ figures: [BenchmarkFigure]) -> String {
    func column(_ v: Double) -> String {
      let s = v >= 1e5 ? String(format: "%.3e", v) : String(format: "%.3f", v)
      return String(repeating: " ", count: Swift.max(0, 12 - s.count)) + s
    }
    var text =
      "figure".padding(toLength: 48, withPad: " ", startingAt: 0)
      + "      median         min         max  unit\n"
    for f in figures {
      text +=
        f.name.padding(toLength: 48, withPad: " ", startingAt: 0) + column(f.median)
        + column(f.min) + column(f.max) + "  " + f.unit + "\n"
    }
    return text
  }
}
