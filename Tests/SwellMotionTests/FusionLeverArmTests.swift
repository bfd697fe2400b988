import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

/// The accelerometer lever arm: a device turning about a point `r` away from its accelerometer
/// reads the centripetal and tangential accelerations `ω × (ω × r) + α × r` on top of gravity.
@Suite("Fusion lever arm")
private struct FusionLeverArmTests {
  /// Synthetic motion whose accelerometer sits `arm` metres (device frame) from the centre of
  /// rotation. ω is the gyroscope's exact step rate (no noise or bias), α its central difference.
  static func motion(seed: UInt64, arm: Vector3) -> SyntheticMotion {
    var o = SyntheticMotion.Options()
    o.rateHz = 200
    o.duration = 120
    o.gyroNoise = 0
    o.amplitude = 2
    var m = SyntheticMotion(seed: seed, options: o)
    let s = m.samples
    for i in s.indices {
      let w = s[i].gyroscope
      let previous = s[max(i - 1, 0)]
      let next = s[min(i + 1, s.count - 1)]
      let span = next.timestamp - previous.timestamp
      let alpha = span > 0 ? (next.gyroscope - previous.gyroscope) * (1 / span) : Vector3.zero
      let extra = w.cross(w.cross(arm)) + alpha.cross(arm)
      m.samples[i] = IMUSample(
        timestamp: s[i].timestamp, gyroscope: w, accelerometer: s[i].accelerometer + extra,
        magnetometer: s[i].magnetometer)
    }
    return m
  }

  /// RMS inclination error, degrees, over the samples from `start` seconds on.
  static func inclinationRMS(
    _ m: SyntheticMotion, settings: AttitudeEstimator.Settings, start: Double
  ) -> (rms: Double, arm: Vector3) {
    var est = AttitudeEstimator(mode: .sixD, settings: settings)
    var sum = 0.0
    var n = 0.0
    for (s, q) in zip(m.samples, m.truth) {
      _ = est.update(s)
      if s.timestamp >= start {
        let e = attitudeErrors(est.quaternion, q).inclination
        sum += e * e
        n += 1
      }
    }
    return ((sum / max(n, 1)).squareRoot() * 180 / Double.pi, est.accelerometerLeverArm)
  }

  @Test(
    "the lever arm is found and removing its accelerations lowers the inclination error",
    arguments: [UInt64(11), 12, 13])
  func leverArm(seed: UInt64) {
    let arm = Vector3(0.15, -0.05, 0.08)
    let m = Self.motion(seed: seed, arm: arm)
    var on = AttitudeEstimator.Settings()
    on.estimatesLeverArm = true
    var off = on
    off.estimatesLeverArm = false
    let withArm = Self.inclinationRMS(m, settings: on, start: 60)
    let without = Self.inclinationRMS(m, settings: off, start: 60)
    let miss = (withArm.arm - arm).length
    #expect(miss < 0.02, "seed \(seed): estimated \(withArm.arm), true \(arm)")
    #expect(without.arm == .zero, "seed \(seed)")
    #expect(
      withArm.rms < 0.7 * without.rms,
      "seed \(seed): inclination RMS \(withArm.rms)° with, \(without.rms)° without")
  }

  @Test("without a lever arm the estimate stays near zero and the attitude is unharmed")
  func noLeverArm() {
    let m = Self.motion(seed: 21, arm: .zero)
    var on = AttitudeEstimator.Settings()
    on.estimatesLeverArm = true
    let withArm = Self.inclinationRMS(m, settings: on, start: 60)
    let without = Self.inclinationRMS(m, settings: AttitudeEstimator.Settings(), start: 60)
    #expect(withArm.arm.length < 0.01, "estimated \(withArm.arm)")
    #expect(withArm.rms < without.rms + 0.05, "\(withArm.rms)° with, \(without.rms)° without")
  }
}
