import SwellGeometry
import SwellMotion

// What an accepted input must give besides not crashing: parsers refuse non-finite values with
// an error (docs/limits.md), so a NaN or an infinity that gets through is a finding too.

/// Stops the process (a finding, with its input saved by libFuzzer) when `condition` is false.
func expect(_ condition: Bool, _ parser: FuzzParser, _ message: @autoclosure () -> String) {
  if !condition { fatalError("\(parser.rawValue): \(message())") }
}

extension Vector3 {
  var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

extension IMUSample {
  var isFinite: Bool {
    timestamp.isFinite && gyroscope.isFinite && accelerometer.isFinite
      && (magnetometer?.isFinite ?? true)
  }
}

extension DeviceMotion {
  var isFinite: Bool {
    let q = attitude.quaternion
    return timestamp.isFinite && q.w.isFinite && q.x.isFinite && q.y.isFinite && q.z.isFinite
      && rotationRate.isFinite && gravity.isFinite && userAcceleration.isFinite
      && magneticField.field.isFinite && heading.isFinite
  }
}

extension MotionRecording {
  /// Whether every sample or motion holds finite numbers.
  var isFinite: Bool {
    switch content {
    case .samples(let samples): samples.allSatisfy(\.isFinite)
    case .deviceMotion(let motions, _): motions.allSatisfy(\.isFinite)
    }
  }
}
