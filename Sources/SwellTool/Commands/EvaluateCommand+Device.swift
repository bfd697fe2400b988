import Foundation
import SwellEvaluation
import SwellMotion

// `swell evaluate --against-device DIR`: Swell's gravity and 6D attitude against the phone's
// own fused output (Sensor Logger's Gravity.csv and Orientation.csv), issue 21.

extension EvaluateCommand {
  /// Prints the median, 95th percentile and maximum angle between Swell's gravity (and 6D
  /// attitude, after one heading offset) and the device's.
  static func runAgainstDevice(
    path: String, json: Bool, settings: AttitudeEstimator.Settings, console: Console
  ) throws -> Int32 {
    let result: DeviceReferenceEvaluation
    do {
      result = try DeviceReferenceEvaluation(folder: URL(fileURLWithPath: path), settings: settings)
    } catch let error as NumericTableError {
      throw UsageError(error.description)
    }
    let f = { (v: Double) in v.isFinite ? String(format: "%.3f", v) : "null" }
    func object(_ s: DeviceReferenceEvaluation.Statistics?) -> String {
      guard let s else { return "null" }
      return "{\"median_deg\": \(f(s.median)), \"p95_deg\": \(f(s.p95)), "
        + "\"max_deg\": \(f(s.maximum)), \"rms_deg\": \(f(s.rms)), \"rows\": \(s.count)}"
    }
    if json {
      console.out(
        "{\"gravity\": \(object(result.gravity)), \"attitude_6d\": \(object(result.attitude)), "
          + "\"heading_offset_deg\": \(f(result.headingOffsetDegrees)), "
          + "\"device_gravity_points_up\": \(result.gravityPointsUp)}\n")
      return 0
    }
    func line(_ name: String, _ s: DeviceReferenceEvaluation.Statistics?) -> String {
      guard let s else { return name + "not in the export\n" }
      return name + "median \(f(s.median)) deg, p95 \(f(s.p95)) deg, max \(f(s.maximum)) deg "
        + "(\(s.count) rows)\n"
    }
    console.out(line("gravity      ", result.gravity))
    console.out(line("attitude 6D  ", result.attitude))
    if result.attitude != nil {
      console.out("(attitude after one heading offset of \(f(result.headingOffsetDegrees)) deg)\n")
    }
    return 0
  }
}
