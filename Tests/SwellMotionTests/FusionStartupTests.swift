import Foundation
import SwellEvaluation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

/// RMS heading error (degrees) of a 9D run over the samples from `start` seconds on.
private func headingRMS(
  _ motion: SyntheticMotion, start: Double, settings: AttitudeEstimator.Settings = .init(),
  estimator: inout AttitudeEstimator
) -> Double {
  var est: [Quaternion] = []
  var truth: [Quaternion] = []
  for (s, q) in zip(motion.samples, motion.truth) {
    _ = estimator.update(s)
    if s.timestamp >= start {
      est.append(estimator.northQuaternion)
      truth.append(q)
    }
  }
  return OrientationEvaluation.score(estimates: est, truths: truth, alignHeading: false).rmse
    .headingDegrees
}

/// The magnet of the start-up test: (20, −20, 15) µT in the device frame for the first 25 s,
/// fading linearly to zero over the last `fade` seconds.
private func startMagnet(fade: Double) -> @Sendable (Double) -> Vector3 {
  { t in
    let scale = fade > 0 ? min(1, max(0, (25 - t) / fade)) : (t < 25 ? 1 : 0)
    return Vector3(20, -20, 15) * scale
  }
}

@Suite("Fusion: magnetic start-up")
private struct FusionStartupTests {
  /// 30 s at rest, then 50 s of motion, with a gyroscope bias.
  static func options(rate: Double) -> SyntheticMotion.Options {
    var o = SyntheticMotion.Options()
    o.rateHz = rate
    o.duration = 80
    o.restDuration = 30
    o.bias = Vector3(0.003, -0.002, 0.004)
    return o
  }

  @Test(
    "a magnet beside the still device for its first 25 s costs the heading nothing once it moves",
    arguments: [(100.0, 0.0), (100.0, 10.0), (285.7, 0.0), (285.7, 10.0)])
  func magnetAtStart(rate: Double, fade: Double) {
    for seed: UInt64 in [1, 2] {
      var o = Self.options(rate: rate)
      let clean = SyntheticMotion(seed: seed, options: o)
      o.extraField = startMagnet(fade: fade)
      let disturbed = SyntheticMotion(seed: seed, options: o)
      var a = AttitudeEstimator(mode: .nineD)
      let ra = headingRMS(clean, start: 30, estimator: &a)
      var b = AttitudeEstimator(mode: .nineD)
      let rb = headingRMS(disturbed, start: 30, estimator: &b)
      #expect(rb < ra + 1, "seed \(seed), \(rate) Hz, fade \(fade) s: \(rb)° vs clean \(ra)°")
      #expect(rb < 3, "seed \(seed), \(rate) Hz, fade \(fade) s: heading RMS \(rb)°")
      // The Earth's field (48.3 µT) was accepted, not the magnet's sum.
      let reference = b.magneticReference
      #expect(reference != nil, "seed \(seed): no field accepted")
      if let reference {
        #expect(abs(reference.norm - SyntheticMotion.earthField.length) < 2, "\(reference)")
      }
    }
  }

  @Test("a magnet attached to the still device 1.5 s before it moves does not steer the heading")
  func magnetAttachedAtRest() {
    for seed: UInt64 in [3, 4] {
      var o = Self.options(rate: 200)
      o.duration = 70
      let clean = SyntheticMotion(seed: seed, options: o)
      // Fixed to the device from 28.5 s on: it turns with the device. (A field that lasts 3 s
      // at rest is taken as the newer, true one; see MagneticReference.)
      o.extraField = { t in t > 28.5 ? Vector3(35, -25, 30) : .zero }
      let attached = SyntheticMotion(seed: seed, options: o)
      var a = AttitudeEstimator(mode: .nineD)
      let ra = headingRMS(clean, start: 30, estimator: &a)
      var b = AttitudeEstimator(mode: .nineD)
      let rb = headingRMS(attached, start: 30, estimator: &b)
      #expect(rb < ra + 1.5, "seed \(seed): attached \(rb)° vs clean \(ra)°")
      #expect(!b.hasMagneticReference, "seed \(seed): the carried magnet's field was accepted")
    }
  }

  @Test("a field is accepted only after it stayed steady while the device turned")
  func acceptance() {
    var o = Self.options(rate: 100)
    o.duration = 45
    let motion = SyntheticMotion(seed: 7, options: o)
    var est = AttitudeEstimator(mode: .nineD)
    var atRestAccuracy = MagneticFieldCalibrationAccuracy.uncalibrated
    var acceptedAt = Double.nan
    for s in motion.samples {
      let dm = est.update(s, referenceFrame: .xMagneticNorthZVertical)
      if s.timestamp < 29 {
        #expect(!est.hasMagneticReference && !est.isMagneticallyDisturbed)
        atRestAccuracy = dm.magneticField.accuracy
      }
      if est.hasMagneticReference && acceptedAt.isNaN { acceptedAt = s.timestamp }
    }
    #expect(atRestAccuracy == .medium)
    // 5 s of turning at 20 °/s or more after the rest ends at 30 s (with a 2 s ramp).
    #expect(acceptedAt > 35 && acceptedAt < 40, "accepted at \(acceptedAt) s")
  }

  @Test("corrections on 20 ms blocks and 0.1 s filter periods match corrections at every sample")
  func multiRate() {
    for seed: UInt64 in [5, 6] {
      var o = SyntheticMotion.Options()
      o.rateHz = 200
      o.duration = 60
      o.amplitude = 2
      o.bias = Vector3(0.004, -0.003, 0.002)
      let motion = SyntheticMotion(seed: seed, options: o)
      var every = AttitudeEstimator.Settings()
      every.correctionInterval = 0
      every.filterInterval = 0
      for mode in [AttitudeEstimator.Mode.sixD, .nineD] {
        var a = AttitudeEstimator(mode: mode, settings: every)
        var b = AttitudeEstimator(mode: mode)
        var largest = 0.0
        var sumA = 0.0
        var sumB = 0.0
        for (s, q) in zip(motion.samples, motion.truth) {
          _ = a.update(s)
          _ = b.update(s)
          guard s.timestamp > 10 else { continue }
          largest = max(largest, attitudeErrors(a.northQuaternion, b.northQuaternion).total)
          let ea = attitudeErrors(a.northQuaternion, q).inclination
          let eb = attitudeErrors(b.northQuaternion, q).inclination
          sumA += ea * ea
          sumB += eb * eb
        }
        let degrees = 180 / Double.pi
        #expect(largest * degrees < 0.5, "seed \(seed) \(mode): apart by \(largest * degrees)°")
        #expect(
          abs(sumA.squareRoot() - sumB.squareRoot()) / sumA.squareRoot() < 0.2,
          "seed \(seed) \(mode): inclination \(sumA) vs \(sumB)")
      }
    }
  }
}
