import Foundation
import SwellEvaluation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

/// Runs an estimator over synthetic motion and returns the RMS errors (degrees) after `skip`
/// seconds, with the 6D heading offset removed when `align` is set.
private func run(
  _ motion: SyntheticMotion, mode: AttitudeEstimator.Mode, skip: Double = 10,
  settings: AttitudeEstimator.Settings = .init(), estimator: inout AttitudeEstimator
) -> OrientationRMSE {
  let frame: AttitudeReferenceFrame =
    mode == .nineD ? .xMagneticNorthZVertical : .xArbitraryZVertical
  var est: [Quaternion] = []
  var truth: [Quaternion] = []
  for (s, q) in zip(motion.samples, motion.truth) {
    let dm = estimator.update(s, referenceFrame: frame)
    if s.timestamp >= skip {
      est.append(dm.attitude.quaternion)
      truth.append(q)
    }
  }
  return OrientationEvaluation.score(estimates: est, truths: truth, alignHeading: mode == .sixD)
    .rmse
}

@Suite("Fusion: attitude estimator on synthetic motion")
private struct FusionEstimatorTests {
  @Test(
    "attitude error stays bounded at 25, 100 and 1000 Hz, with jitter, 6D and 9D",
    arguments: [(25.0, 0.0), (100.0, 0.3), (1000.0, 0.0), (285.7, 0.5)])
  func boundedError(rate: Double, jitter: Double) {
    for seed: UInt64 in [1, 2] {
      var o = SyntheticMotion.Options()
      o.rateHz = rate
      o.jitter = jitter
      o.duration = rate > 500 ? 40 : 70
      o.bias = Vector3(0.006, -0.004, 0.008)
      var rng = SplitMix64(seed: seed &* 977)
      o.initial = rng.rotation()
      let motion = SyntheticMotion(seed: seed, options: o)
      var e9 = AttitudeEstimator(mode: .nineD)
      let r9 = run(motion, mode: .nineD, estimator: &e9)
      var e6 = AttitudeEstimator(mode: .sixD)
      let r6 = run(motion, mode: .sixD, estimator: &e6)
      #expect(r9.inclinationDegrees < 1.0, "seed \(seed) rate \(rate): 9D \(r9)")
      #expect(r9.totalDegrees < 2.5, "seed \(seed) rate \(rate): 9D \(r9)")
      #expect(r6.inclinationDegrees < 1.0, "seed \(seed) rate \(rate): 6D \(r6)")
      #expect(r6.totalDegrees < 2.5, "seed \(seed) rate \(rate): 6D \(r6)")
      let q = e9.northQuaternion
      #expect(abs(q.norm - 1) < 1e-9, "seed \(seed): |q| = \(q.norm)")
    }
  }

  @Test("the gyroscope bias converges at rest and in motion")
  func biasConverges() throws {
    for seed: UInt64 in [11, 12, 13] {
      var rng = SplitMix64(seed: seed)
      let bias = Vector3(
        Double.random(in: -0.02...0.02, using: &rng), Double.random(in: -0.02...0.02, using: &rng),
        Double.random(in: -0.02...0.02, using: &rng))
      // At rest: 10 s still.
      var o = SyntheticMotion.Options()
      o.bias = bias
      o.duration = 10
      o.restDuration = 100
      o.initial = rng.rotation()
      var est = AttitudeEstimator(mode: .sixD)
      for s in SyntheticMotion(seed: seed, options: o).samples { _ = est.update(s) }
      #expect(est.isAtRest, "seed \(seed): rest not detected")
      let errRest = (est.gyroscopeBias - bias).length * 180 / .pi
      #expect(errRest < 0.05, "seed \(seed): bias error at rest \(errRest) deg/s")

      // In motion only (no rest phase): the bias is found from the inclination corrections.
      o.duration = 150
      o.restDuration = 0
      var moving = AttitudeEstimator(mode: .sixD)
      for s in SyntheticMotion(seed: seed, options: o).samples { _ = moving.update(s) }
      #expect(!moving.isAtRest)
      let errMotion = (moving.gyroscopeBias - bias).length * 180 / .pi
      #expect(errMotion < 0.2, "seed \(seed): bias error in motion \(errMotion) deg/s")
    }
  }

  @Test("a magnet brought near for 20 s changes the 9D error only a little")
  func magneticDisturbance() {
    for seed: UInt64 in [21, 22] {
      var o = SyntheticMotion.Options()
      o.duration = 90
      o.bias = Vector3(0.003, 0.002, -0.004)
      let clean = SyntheticMotion(seed: seed, options: o)
      o.extraField = { t in t > 40 && t < 60 ? Vector3(35, -25, 30) : .zero }
      let disturbed = SyntheticMotion(seed: seed, options: o)
      var a = AttitudeEstimator(mode: .nineD)
      let ra = run(clean, mode: .nineD, skip: 35, estimator: &a)
      var b = AttitudeEstimator(mode: .nineD)
      var sawDisturbance = false
      var est: [Quaternion] = []
      var truth: [Quaternion] = []
      for (s, q) in zip(disturbed.samples, disturbed.truth) {
        let dm = b.update(s, referenceFrame: .xMagneticNorthZVertical)
        if s.timestamp > 45 && s.timestamp < 55 && b.isMagneticallyDisturbed {
          sawDisturbance = true
        }
        if s.timestamp >= 35 {
          est.append(dm.attitude.quaternion)
          truth.append(q)
        }
      }
      let rb = OrientationEvaluation.score(estimates: est, truths: truth, alignHeading: false).rmse
      #expect(sawDisturbance, "seed \(seed): disturbance not detected")
      #expect(
        rb.headingDegrees < ra.headingDegrees + 2.0,
        "seed \(seed): clean \(ra), disturbed \(rb)")
      // Without rejection the same magnet costs much more: the test can tell.
      var s = AttitudeEstimator.Settings()
      s.rejectsMagneticDisturbances = false
      var c = AttitudeEstimator(mode: .nineD, settings: s)
      let rc = run(disturbed, mode: .nineD, skip: 35, settings: s, estimator: &c)
      #expect(rc.headingDegrees > rb.headingDegrees + 2, "seed \(seed): \(rc) vs \(rb)")
    }
  }

  @Test("a lagging magnetometer's delay is estimated and compensated")
  func magnetometerDelay() {
    for seed: UInt64 in [41, 42] {
      var o = SyntheticMotion.Options()
      o.rateHz = 200
      o.duration = 150
      o.amplitude = 2.5
      o.magnetometerDelay = 0.02
      let lagging = SyntheticMotion(seed: seed, options: o)
      var a = AttitudeEstimator(mode: .nineD)
      let ra = run(lagging, mode: .nineD, skip: 60, estimator: &a)
      #expect(
        a.magnetometerDelay > 0.012 && a.magnetometerDelay < 0.021,
        "seed \(seed): delay \(a.magnetometerDelay) s, true 0.02 s")
      var s = AttitudeEstimator.Settings()
      s.estimatesMagnetometerDelay = false
      var b = AttitudeEstimator(mode: .nineD, settings: s)
      let rb = run(lagging, mode: .nineD, skip: 60, settings: s, estimator: &b)
      #expect(b.magnetometerDelay == 0)
      #expect(
        ra.headingDegrees < 0.8 * rb.headingDegrees,
        "seed \(seed): with estimation \(ra), without \(rb)")
      // A magnetometer in step with the gyroscope gives (almost) no delay.
      o.magnetometerDelay = 0
      var c = AttitudeEstimator(mode: .nineD)
      _ = run(SyntheticMotion(seed: seed, options: o), mode: .nineD, estimator: &c)
      #expect(c.magnetometerDelay < 0.002, "seed \(seed): delay \(c.magnetometerDelay) s")
    }
  }

  @Test("a 5 s vibration burst and taps change the inclination error only a little")
  func accelerationDisturbance() {
    for seed: UInt64 in [31, 32] {
      var o = SyntheticMotion.Options()
      o.rateHz = 400
      o.duration = 60
      let clean = SyntheticMotion(seed: seed, options: o)
      o.extraAcceleration = { t in
        if t > 30 && t < 35 {
          // 40 Hz vibration of ±15 m/s² plus a tap every second.
          let v = 15 * sin(2 * Double.pi * 40 * t)
          let tap = (t - t.rounded(.down)) < 0.01 ? 80.0 : 0
          return Vector3(v, -0.7 * v, 0.5 * v + tap)
        }
        return .zero
      }
      let shaken = SyntheticMotion(seed: seed, options: o)
      var a = AttitudeEstimator(mode: .sixD)
      let ra = run(clean, mode: .sixD, skip: 25, estimator: &a)
      var b = AttitudeEstimator(mode: .sixD)
      let rb = run(shaken, mode: .sixD, skip: 25, estimator: &b)
      #expect(
        rb.inclinationDegrees < ra.inclinationDegrees + 0.5, "seed \(seed): \(ra) vs \(rb)")
    }
  }

  @Test("garbage input never gives NaN and keeps the quaternion unit")
  func garbageInput() {
    for seed: UInt64 in 100..<108 {
      var rng = SplitMix64(seed: seed)
      var est = AttitudeEstimator(mode: seed % 2 == 0 ? .nineD : .sixD)
      var t = 0.0
      let specials: [Double] = [.nan, .infinity, -.infinity, 0, 1e300, -1e300, 1e-300]
      func value() -> Double {
        Int.random(in: 0..<6, using: &rng) == 0
          ? specials.randomElement(using: &rng) ?? 0 : Double.random(in: -50...50, using: &rng)
      }
      for _ in 0..<3000 {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: t += 0  // dt = 0
        case 1: t -= 0.05  // backwards
        case 2: t += 30  // huge gap
        case 3: t = .nan
        default: t = (t.isFinite ? t : 0) + 0.01
        }
        let s = IMUSample(
          timestamp: t, gyroscope: Vector3(value(), value(), value()),
          accelerometer: Vector3(value(), value(), value()),
          magnetometer: Bool.random(using: &rng) ? Vector3(value(), value(), value()) : nil)
        for frame in AttitudeReferenceFrame.allCases {
          var copy = est
          let dm = copy.update(s, referenceFrame: frame)
          let q = dm.attitude.quaternion
          #expect(q.isFinite && abs(q.norm - 1) < 1e-6, "seed \(seed): \(q)")
          #expect(dm.gravity.x.isFinite && dm.gravity.y.isFinite && dm.gravity.z.isFinite)
          #expect(dm.heading.isFinite)
        }
        _ = est.update(s)
        let q = est.northQuaternion
        #expect(q.isFinite && abs(q.norm - 1) < 1e-6, "seed \(seed): \(q)")
        #expect(est.gyroscopeBias.x.isFinite && est.gyroscopeBias.z.isFinite, "seed \(seed)")
      }
    }
  }

  @Test("device motion: gravity, user acceleration, heading and true north")
  func deviceMotionFields() throws {
    // Lying still face up, top (+y) pointing north-east... here: device x toward north.
    var est = AttitudeEstimator(mode: .nineD)
    var s = AttitudeEstimator.Settings()
    s.declinationDegrees = 10
    var tn = AttitudeEstimator(mode: .nineD, settings: s)
    // Device turned 30° clockwise seen from above: yaw −30°, top points 30° east of west → ...
    let q = Quaternion(axis: .unitZ, angle: -30 * Double.pi / 180)
    var dm = DeviceMotion.resting(timestamp: 0, attitude: .identity)
    var dt = dm
    for i in 0..<2000 {
      let sample = IMUSample(
        timestamp: Double(i) * 0.01, gyroscope: .zero,
        accelerometer: q.inverseRotate(Vector3(0, 0, standardGravity)),
        magnetometer: q.inverseRotate(SyntheticMotion.earthField))
      dm = est.update(sample, referenceFrame: .xMagneticNorthZVertical)
      dt = tn.update(sample, referenceFrame: .xTrueNorthZVertical)
    }
    #expect(isApproximatelyEqual(dm.gravity, Vector3(0, 0, -1), tolerance: 1e-6))
    #expect(isApproximatelyEqual(dm.userAcceleration, .zero, tolerance: 1e-6))
    #expect(abs(dm.attitude.yaw * 180 / .pi + 30) < 0.01, "yaw \(dm.attitude.yaw)")
    // The top (+y) points 30° clockwise from west: compass 270 + 30 = 300.
    #expect(abs(dm.heading - 300) < 0.01, "heading \(dm.heading)")
    // True north is 10° west of magnetic north: the compass heading grows by 10°.
    #expect(abs(dt.heading - 310) < 0.01, "true heading \(dt.heading)")
    // A still device has not shown that its field is the Earth's: medium, no reference yet.
    #expect(dm.magneticField.accuracy == .medium)
    #expect(!est.hasMagneticReference && est.magneticReference == nil)
    let arbitrary = est.update(
      IMUSample(
        timestamp: 20.01, gyroscope: .zero,
        accelerometer: q.inverseRotate(Vector3(0, 0, standardGravity))),
      referenceFrame: .xArbitraryZVertical)
    #expect(arbitrary.heading == -1)
    #expect(est.supports(.xMagneticNorthZVertical))
    #expect(!est.supports(.xTrueNorthZVertical))
    #expect(tn.supports(.xTrueNorthZVertical))
    #expect(!AttitudeEstimator(mode: .sixD).supports(.xArbitraryCorrectedZVertical))
  }

  @Test("the batch entry points agree with update(_:)")
  func batchAgrees() {
    var o = SyntheticMotion.Options()
    o.duration = 20
    let motion = SyntheticMotion(seed: 5, options: o)
    var a = AttitudeEstimator(mode: .nineD)
    var single: [Quaternion] = []
    for s in motion.samples {
      _ = a.update(s)
      single.append(a.northQuaternion)
    }
    var b = AttitudeEstimator(mode: .nineD)
    let batch = b.attitudes(for: motion.samples)
    #expect(batch.count == single.count)
    for (x, y) in zip(batch, single) { #expect(x == y) }
    var c = AttitudeEstimator(mode: .nineD)
    c.reset()
    let again = c.attitudes(for: motion.samples)
    #expect(again == batch)
  }
}
