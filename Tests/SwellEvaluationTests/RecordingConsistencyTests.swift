import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@testable import SwellEvaluation
@testable import SwellMotion

@Suite("Fusion v4: 6D against 9D gravity and stillness at rest on a recording without truth")
private struct RecordingConsistencyTests {
  /// A device tilted by 30° about x, still for `rest` seconds, then turned by hand.
  static func motion(seed: UInt64, rest: Double, bias: Vector3 = .zero) -> SyntheticMotion {
    var o = SyntheticMotion.Options()
    o.duration = 20
    o.restDuration = rest
    o.bias = bias
    let half = 15 * Double.pi / 180
    o.initial = Quaternion(w: cos(half), x: sin(half), y: 0, z: 0)
    return SyntheticMotion(seed: seed, options: o)
  }

  @Test(
    "the rest run is found where the synthetic device is still, and the fusion agrees there",
    arguments: [(51, 4.0), (52, 6.0)] as [(UInt64, Double)])
  func restAndAgreement(seed: UInt64, rest: Double) throws {
    let m = Self.motion(seed: seed, rest: rest)
    let c = RecordingConsistency(samples: m.samples)
    #expect(c.sampleCount == m.samples.count)
    // The body rate is zero up to `rest` and then ramps up (full size, about 1-2 rad/s, after
    // 2 s), so the gyroscope passes 3 °/s (0.052 rad/s) within a few tenths of a second of
    // it; the run starts at the first sample.
    #expect(c.restRuns.count == 1, "\(c.restRuns)")
    let run = try #require(c.restRuns.first)
    #expect(run.start == 0)
    #expect(run.end > rest - 0.02 && run.end < rest + 0.3, "\(run)")
    let g6 = try #require(c.restGravity6D)
    let g9 = try #require(c.restGravity9D)
    #expect(g6.median < 0.2 && g6.maximum < 1, "\(g6)")
    #expect(g9.median < 0.2 && g9.maximum < 1, "\(g9)")
    let agree = try #require(c.gravityAgreement)
    #expect(agree.count == m.samples.count)
    #expect(agree.median < 0.2 && agree.p95 < 0.5, "\(agree)")
    // Gyroscope noise (0.002 rad/s per sample) integrated over the rest, and the bias
    // estimate settling from 0: a few tenths of a degree.
    let wander = try #require(c.restWanderDegrees)
    #expect(wander < 1, "wander \(wander)")
  }

  @Test("an uncorrected gyroscope bias shows as wander at rest")
  func wanderFromBias() throws {
    // 1.5 °/s about device z (below the 3 °/s rest limit, so the run is still found) with the
    // bias estimate off: the 6D attitude turns by 1.5 °/s × 6 s = 9° during the rest, of
    // which the accelerometer takes back only the part that tilts (device z is 30° from the
    // vertical, so at least cos 30° × 9° = 7.8° stays).
    let bias = Vector3(0, 0, 1.5 * Double.pi / 180)
    let m = Self.motion(seed: 53, rest: 6, bias: bias)
    var off = AttitudeEstimator.Settings()
    off.estimatesGyroscopeBias = false
    let c = RecordingConsistency(samples: m.samples, settings: off)
    #expect(c.restRuns.count == 1)
    let wander = try #require(c.restWanderDegrees)
    #expect(wander > 7 && wander < 10, "wander \(wander)")
    // With the bias measured at rest (after 1.5 s still) the wander is much smaller.
    let on = RecordingConsistency(samples: m.samples)
    let onWander = try #require(on.restWanderDegrees)
    #expect(onWander < wander / 2, "wander \(onWander) with the bias estimated")
  }

  @Test("without a magnetometer there is no 9D figure; without rest no rest figure")
  func missingParts() throws {
    let m = Self.motion(seed: 54, rest: 3)
    let noMag = m.samples.map {
      IMUSample(timestamp: $0.timestamp, gyroscope: $0.gyroscope, accelerometer: $0.accelerometer)
    }
    let c = RecordingConsistency(samples: noMag)
    #expect(c.gravityAgreement == nil && c.restGravity9D == nil)
    #expect(c.restGravity6D != nil)
    #expect(c.text.contains("gravity, 6D against 9D: n/a"))
    // Moving from the start (rest 0): the gyroscope passes 3 °/s within a few tenths of a
    // second, shorter than a rest run.
    let moving = RecordingConsistency(samples: Self.motion(seed: 55, rest: 0).samples)
    #expect(moving.restRuns.isEmpty && moving.restGravity6D == nil)
    #expect(moving.restWanderDegrees == nil)
  }
}
