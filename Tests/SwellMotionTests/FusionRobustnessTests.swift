import Foundation
import SwellGeometry
import Testing

@testable import SwellEvaluation
@testable import SwellMotion
@testable import SwellRecordings

@Suite("Fusion robustness tooling: resampling, sensitivity, scale estimate")
private struct FusionRobustnessTests {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../SwellRecordingsTests/Fixtures/broad_24_excerpt.csv")

  @Test("resampling averages each bin and keeps the bin's last timestamp and truth")
  func resampled() throws {
    let trial = try BroadTrial(contentsOf: Self.fixture)
    let r = trial.resampled(rate: 100)
    // 1300 samples at 285.714 Hz span 4.55 s: 455 or 456 bins of 10 ms.
    #expect(r.count >= 455 && r.count <= 456, "count \(r.count)")
    let t0 = trial.timestamps[0]
    let first = (0..<trial.count).filter { trial.timestamps[$0] - t0 < 0.01 - 1e-9 }
    let last = try #require(first.last)
    #expect(r.timestamps[0] == trial.timestamps[last])
    #expect(r.truth[0] == trial.truth[last])
    for k in 0..<3 {
      let mean = first.map { trial.gyroscope[3 * $0 + k] }.reduce(0, +) / Double(first.count)
      #expect(abs(r.gyroscope[k] - mean) < 1e-12)
      let accMean =
        first.map { trial.accelerometer[3 * $0 + k] }.reduce(0, +) / Double(first.count)
      #expect(abs(r.accelerometer[k] - accMean) < 1e-12)
    }
    for i in 1..<r.count {
      #expect(r.timestamps[i] > r.timestamps[i - 1])
      #expect(r.timestamps[i] - r.timestamps[i - 1] < 0.0105 + 0.0036)
    }
    #expect(trial.resampled(rate: 1000).count == trial.count)
    #expect(trial.resampled(rate: .nan).count == trial.count)
    // The fusion still works at 100 Hz on the resampled excerpt.
    let e = r.evaluate(mode: .sixD)
    #expect(e.totalDegrees.isFinite && e.totalDegrees < 4, "6D at 100 Hz \(e)")
  }

  @Test("sensitivity runs scale one setting down and up and report the spread")
  func sensitivity() throws {
    let trial = try BroadTrial(contentsOf: Self.fixture)
    let p = BroadSensitivity.Parameter("accelerometerTimeConstant", \.accelerometerTimeConstant)
    let s = BroadSensitivity(trials: [trial], parameters: [p], step: 0.5)
    #expect(s.variants.count == 2)
    #expect(s.variants.map(\.factor) == [0.5, 1.5])
    var settings = AttitudeEstimator.Settings()
    settings.accelerometerTimeConstant = 4.5
    let direct = trial.evaluate(mode: .nineD, settings: settings)
    #expect(s.variants[1].evaluation.trials[0].nineD == direct)
    let spread = s.spread(trial: 0, mode: .nineD)
    #expect(spread.base == trial.evaluate(mode: .nineD).totalDegrees)
    #expect(spread.minimum <= spread.base && spread.base <= spread.maximum)
    #expect(spread.range > 0)
    if spread.maximum > spread.base {
      #expect(spread.worstVariant.hasPrefix("accelerometerTimeConstant"))
    }
    let category = try #require(s.spread(category: .tapping, mode: .sixD))
    #expect(category.maximum == s.spread(trial: 0, mode: .sixD).maximum)
    #expect(s.spread(category: .vibration, mode: .sixD) == nil)
    #expect(BroadSensitivity.defaultParameters.count >= 10)
  }

  @Test("the reported scale error is the one the corrected rate uses", arguments: [false, true])
  func scaleError(estimating: Bool) throws {
    let trial = try BroadTrial(contentsOf: Self.fixture)
    var settings = AttitudeEstimator.Settings()
    settings.estimatesGyroscopeScale = estimating
    var est = AttitudeEstimator(mode: .sixD, settings: settings)
    var motion: DeviceMotion?
    let samples = trial.samples
    for s in samples { motion = est.update(s) }
    let m = try #require(motion)
    let raw = try #require(samples.last).gyroscope
    let b = est.gyroscopeBias
    let e = est.gyroscopeScaleError
    #expect(abs(m.rotationRate.x - (raw.x - b.x) * (1 + e.x)) < 1e-12)
    #expect(abs(m.rotationRate.y - (raw.y - b.y) * (1 + e.y)) < 1e-12)
    #expect(abs(m.rotationRate.z - (raw.z - b.z) * (1 + e.z)) < 1e-12)
    if estimating {
      #expect(e.length > 0 && e.length <= settings.scaleLimit * Double(3).squareRoot())
    } else {
      #expect(e == .zero)
    }
  }

  @Test("the start-up disturbance adds the magnet in full, then fading, then not at all")
  func startDisturbance() throws {
    let trial = try BroadTrial(contentsOf: Self.fixture)
    let field = Vector3(20, -20, 15)
    let d = trial.withStartDisturbance(field: field, duration: 3, fade: 1)
    let t0 = trial.timestamps[0]
    for i in 0..<trial.count {
      let t = trial.timestamps[i] - t0
      let expected = t < 2 ? 1 : (t < 3 ? (3 - t) : 0)
      for k in 0..<3 {
        let added = d.magnetometer[3 * i + k] - trial.magnetometer[3 * i + k]
        let want = expected * [field.x, field.y, field.z][k]
        #expect(abs(added - want) < 1e-9, "t = \(t): added \(added), expected \(want)")
      }
    }
    #expect(d.gyroscope == trial.gyroscope && d.accelerometer == trial.accelerometer)
    #expect(d.truth == trial.truth && d.movement == trial.movement)
    // The defaults: 25 s (longer than this excerpt), the field, no fade.
    let all = trial.withStartDisturbance()
    let last = 3 * (trial.count - 1)
    #expect(abs(all.magnetometer[0] - trial.magnetometer[0] - 20) < 1e-9)
    #expect(abs(all.magnetometer[last + 2] - trial.magnetometer[last + 2] - 15) < 1e-9)
  }
}
