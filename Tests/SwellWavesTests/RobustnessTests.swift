import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import SwellWaves
import Testing

@Suite("Robustness under unseen motion")
private struct RobustnessTests {
  /// Irregular motion: random rates (5 Hz to 1 kHz), gaps up to 3 s, random gravity directions,
  /// rotation rates and user acceleration, occasional non-finite values.
  private func randomMotion(seed: UInt64, count: Int) -> [DeviceMotion] {
    var rng = SplitMix64(seed: seed)
    var t = Double.random(in: 0...1e5, using: &rng)
    var out: [DeviceMotion] = []
    var g = rng.unitVector()
    for i in 0..<count {
      t +=
        Bool.random(using: &rng)
        ? 1 / Double.random(in: 5...1000, using: &rng)
        : (i % 97 == 0 ? Double.random(in: 0.3...3, using: &rng) : 0.01)
      if Double.random(in: 0...1, using: &rng) < 0.05 { g = rng.unitVector() }
      g = (g + rng.unitVector() * 0.05).normalized()
      let rate = rng.unitVector() * Double.random(in: 0...6, using: &rng)
      var gravity = g
      if i % 211 == 5 { gravity = Vector3(.nan, 0, 0) }
      out.append(
        DeviceMotion(
          timestamp: t, attitude: .identity, rotationRate: rate, gravity: gravity,
          userAcceleration: rng.unitVector() * Double.random(in: 0...2, using: &rng)))
    }
    return out
  }

  @Test(
    "values stay finite and in range",
    arguments: [
      (TiltRule.corrected, WaterWaveResponse.classic), (.seedExact, .classic),
      (.corrected, .sloshing),
    ])
  func valuesStayFiniteAndInRange(rule: TiltRule, response: WaterWaveResponse) throws {
    for seed: UInt64 in [1, 2, 3] {
      let motion = randomMotion(seed: seed, count: 3000)
      var o = WaterWaveOptions()
      o.tiltRule = rule
      o.response = response
      let span = (motion.last?.timestamp ?? 0) - (motion.first?.timestamp ?? 0)
      let rows = WaveHarness(options: o).run(motion, fps: 37, duration: span + 2)
      for r in rows {
        #expect(r.tilt.isFinite && r.amplitude.isFinite && r.phase.isFinite, "seed \(seed)")
        if response == .classic {
          #expect(abs(r.tilt) <= .pi / 4 + 1e-9, "seed \(seed) t \(r.time): \(r.tilt)")
        } else {
          #expect(abs(r.tilt) <= .pi + 1e-9, "seed \(seed)")
        }
        #expect(r.amplitude >= 8 - 1e-9 && r.amplitude <= 8 + 20 * 6 + 1e-9, "seed \(seed)")
        #expect(r.phase > -.pi - 1e-12 && r.phase <= .pi + 1e-12, "seed \(seed)")
      }
    }
  }
}
