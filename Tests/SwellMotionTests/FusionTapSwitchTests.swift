import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@testable import SwellEvaluation
@testable import SwellMotion

@Suite("Fusion v4: each tap mechanism has its own switch, and the tap threshold")
private struct FusionTapSwitchTests {
  /// A still device (285.7 Hz, 20 s) with a jerk at 10 s: `size` m/s² added to x for three
  /// samples. Whatever the block boundaries (six samples a block), every block holding it has
  /// an accelerometer variance between 3.4 and 6.3 (m/s²)² for size 5 (one sample of a in six:
  /// a²/6 − (a/6)²; three in one block: a²/2 − (a/2)²): above v3's threshold 2, below v4's 10.
  static func jerked(size: Double) -> [IMUSample] {
    var o = SyntheticMotion.Options()
    o.rateHz = 285.714
    o.duration = 20
    o.restDuration = 100
    o.bias = Vector3(0.004, -0.003, 0.005)
    var samples = SyntheticMotion(seed: 61, options: o).samples
    let start = Int((10 * o.rateHz).rounded())
    for i in start..<(start + 3) {
      let s = samples[i]
      samples[i] = IMUSample(
        timestamp: s.timestamp, gyroscope: s.gyroscope,
        accelerometer: s.accelerometer + Vector3(size, 0, 0), magnetometer: s.magnetometer)
    }
    return samples
  }

  /// Whether the estimator is at rest 0.5 s after the jerk (it was before: 10 s still).
  static func restAfterJerk(_ settings: AttitudeEstimator.Settings) -> (before: Bool, after: Bool) {
    var e = AttitudeEstimator(mode: .sixD, settings: settings)
    var before = false
    var after = false
    for s in jerked(size: 5) {
      _ = e.update(s)
      if abs(s.timestamp - 9.9) < 0.002 { before = e.isAtRest }
      if abs(s.timestamp - 10.5) < 0.002 { after = e.isAtRest }
    }
    return (before, after)
  }

  @Test("a hand-sized jerk is no tap at the default threshold (it ends the rest), but is at v3's 2")
  func threshold() {
    let v4 = Self.restAfterJerk(AttitudeEstimator.Settings())
    #expect(AttitudeEstimator.Settings().tapVariance == 10)
    #expect(v4.before && !v4.after, "\(v4)")
    var v3 = AttitudeEstimator.Settings()
    v3.tapVariance = 2
    let r3 = Self.restAfterJerk(v3)
    #expect(r3.before && r3.after, "\(r3)")
    // With v3's threshold but the filter-period tap rule off, the jerk ends the rest again.
    v3.restIgnoresTaps = false
    let off = Self.restAfterJerk(v3)
    #expect(off.before && !off.after, "\(off)")
  }

  @Test(
    "with the filter-period tap rule off, a device tapped every second never rests (v2)",
    arguments: [true, false])
  func restRule(on: Bool) throws {
    var o = SyntheticMotion.Options()
    o.rateHz = 285.714
    o.duration = 30
    o.restDuration = 100
    let trial = try broadTrial(SyntheticMotion(seed: 62, options: o), name: "94_still")
      .injecting(BroadInjection(kind: .taps, strength: 3))
    var settings = AttitudeEstimator.Settings()
    settings.restIgnoresTaps = on
    var e = AttitudeEstimator(mode: .sixD, settings: settings)
    var rest = 0
    for (i, s) in trial.samples.enumerated() {
      _ = e.update(s)
      if i >= trial.count / 3 && e.isAtRest { rest += 1 }
    }
    let share = Double(rest) / Double(trial.count - trial.count / 3)
    if on {
      #expect(share > 0.8, "at rest \(share * 100) %")
    } else {
      #expect(share < 0.2, "at rest \(share * 100) %")
    }
  }

  @Test("the switches and the threshold are settable by name (swell evaluate --set)")
  func byName() {
    var s = AttitudeEstimator.Settings()
    #expect(s.restIgnoresTaps && s.inclinationDownWeightsTaps && s.leverArmDownWeightsTaps)
    for a in [
      "restIgnoresTaps=0", "inclinationDownWeightsTaps=0", "leverArmDownWeightsTaps=0",
      "tapVariance=20",
    ] {
      let known = s.apply(a)
      #expect(known, "\(a)")
    }
    #expect(!s.restIgnoresTaps && !s.inclinationDownWeightsTaps && !s.leverArmDownWeightsTaps)
    #expect(s.tapVariance == 20)
    let unknown = s.apply("tapVariances=3")
    #expect(!unknown)
  }
}
