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
    console.out(json ? result.jsonText : result.text)
    return 0
  }
}
