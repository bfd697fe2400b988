import Foundation

extension DeviceReferenceEvaluation {
  /// The result as one JSON object with a line break (`swell evaluate --against-device --json`):
  /// `gravity` and `attitude_6d` (each `median_deg`, `p95_deg`, `max_deg`, `rms_deg`, `rows`, or
  /// `null` when not in the export), `heading_offset_deg` and `device_gravity_points_up`;
  /// degrees to 3 decimals, `null` for a non-finite value.
  public var jsonText: String {
    func object(_ s: Statistics?) -> String {
      guard let s else { return "null" }
      return "{\"median_deg\": \(Self.format(s.median)), \"p95_deg\": \(Self.format(s.p95)), "
        + "\"max_deg\": \(Self.format(s.maximum)), \"rms_deg\": \(Self.format(s.rms)), "
        + "\"rows\": \(s.count)}"
    }
    return "{\"gravity\": \(object(gravity)), \"attitude_6d\": \(object(attitude)), "
      + "\"heading_offset_deg\": \(Self.format(headingOffsetDegrees)), "
      + "\"device_gravity_points_up\": \(gravityPointsUp)}\n"
  }

  /// The result as text: the median, 95th percentile and maximum angle of gravity and of the 6D
  /// attitude (and the heading offset applied), degrees, lines ending in line breaks.
  public var text: String {
    func line(_ name: String, _ s: Statistics?) -> String {
      guard let s else { return name + "not in the export\n" }
      return name + "median \(Self.format(s.median)) deg, p95 \(Self.format(s.p95)) deg, "
        + "max \(Self.format(s.maximum)) deg (\(s.count) rows)\n"
    }
    var text = line("gravity      ", gravity) + line("attitude 6D  ", attitude)
    if attitude != nil {
      text += "(attitude after one heading offset of \(Self.format(headingOffsetDegrees)) deg)\n"
    }
    return text
  }

  private static func format(_ v: Double) -> String {
    v.isFinite ? String(format: "%.3f", v) : "null"
  }
}
