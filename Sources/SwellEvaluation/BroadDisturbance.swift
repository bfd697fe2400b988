import Foundation
import SwellGeometry
import SwellMotion

extension BroadTrial {
  /// The field of the start-up disturbance test, µT, sensor frame: a magnet beside the IMU (a
  /// phone that starts next to a laptop or a speaker), (20, −20, 15) µT.
  public static let startDisturbanceField = Vector3(20, -20, 15)

  /// How long the start-up disturbance lasts from the trial's first sample, seconds. Every BROAD
  /// trial rests for 30-40 s at its start, so the magnet is gone before the motion is scored.
  public static let startDisturbanceSeconds = 25.0

  /// The trial with an extra magnetic field added to the magnetometer during its first
  /// seconds, as a magnet beside the device at start-up would add it.
  ///
  /// The field is added in full up to `duration − fade` seconds after the first sample and
  /// falls linearly to zero at `duration` (with `fade` 0 it stops at once). Gyroscope,
  /// accelerometer, truth and the scored phase are unchanged, so the score measures how well a
  /// filter recovers from a heading reference poisoned at start-up.
  ///
  /// - Parameters:
  ///   - field: The added field, µT, sensor frame.
  ///   - duration: Seconds from the first sample after which nothing is added (> 0).
  ///   - fade: Seconds over which the field fades out before `duration` (0 ... `duration`).
  /// - Returns: The disturbed trial.
  public func withStartDisturbance(
    field: Vector3 = BroadTrial.startDisturbanceField,
    duration: Double = BroadTrial.startDisturbanceSeconds, fade: Double = 0
  ) -> BroadTrial {
    precondition(duration > 0, "the disturbance must last a positive time")
    precondition(fade >= 0 && fade <= duration, "the fade must lie within the disturbance")
    guard let t0 = timestamps.first else { return self }
    var r = self
    for i in 0..<count {
      let t = timestamps[i] - t0
      let scale: Double
      if t >= duration {
        break
      } else if fade > 0 {
        scale = min(1, (duration - t) / fade)
      } else {
        scale = 1
      }
      r.magnetometer[3 * i] += scale * field.x
      r.magnetometer[3 * i + 1] += scale * field.y
      r.magnetometer[3 * i + 2] += scale * field.z
    }
    return r
  }
}
