import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import SwellWaves
import Testing

@Suite("Sloshing response")
private struct SloshingTests {
  private var options: WaterWaveOptions {
    var o = WaterWaveOptions()
    o.response = .sloshing
    return o
  }

  @Test("first mode frequency matches linear theory") func firstModeFrequencyMatchesLinearTheory() {
    // ω² = g·k·tanh(k·H), k = π/L; L = 0.07 m, H = 0.05 m.
    let k = Double.pi / 0.07
    let expected = (9.806_65 * k * tanh(k * 0.05)).squareRoot()
    #expect(abs(SloshingResponse.firstModeFrequency(length: 0.07, depth: 0.05) - expected) < 1e-12)
    // Deep water: tanh → 1, ω → √(g·k).
    let deep = SloshingResponse.firstModeFrequency(length: 0.07, depth: 10)
    #expect(abs(deep - (9.806_65 * k).squareRoot()) < 1e-9)
  }

  @Test("held tilt settles level with the world", arguments: [30.0, -30, 60, 120])
  func heldTiltSettlesLevelWithTheWorld(beta: Double) throws {
    let dir = beta >= 0 ? "right" : "left"
    let motion = try WaveHarness.script("tilt \(abs(beta))deg \(dir) over 0.3s; hold 6s")
    let rows = WaveHarness(options: options).run(motion, fps: 60, duration: 6.3)
    let last = try #require(rows.last)
    #expect(abs(degrees(last.tilt) - wrappedDegrees(-beta)) < 0.5, "\(degrees(last.tilt))°")
  }

  @Test("sudden push oscillates and decays") func suddenPushOscillatesAndDecays() throws {
    let motion = try WaveHarness.script("hold 0.5s; push x 0.5g for 0.05s; hold 4s")
    let rows = WaveHarness(options: options).run(motion, fps: 120, duration: 4.5)
    let after = rows.filter { $0.time > 0.55 }
    var crossings = 0
    for (a, b) in zip(after, after.dropFirst()) where (a.tilt > 0) != (b.tilt > 0) {
      crossings += 1
    }
    #expect(crossings >= 4, "zero crossings: \(crossings)")
    let early = after.filter { $0.time < 1.5 }.map { abs($0.tilt) }.max() ?? 0
    let late = after.filter { $0.time > 3.5 }.map { abs($0.tilt) }.max() ?? 0
    #expect(degrees(early) > 1, "peak \(degrees(early))°")
    #expect(late < early * 0.3, "early \(early) late \(late)")
    #expect(rows.allSatisfy { $0.tilt.isFinite })
  }

  @Test("stable for any step and never na n") func stableForAnyStepAndNeverNaN() {
    var s = SloshingResponse(widthPoints: 390, depthPoints: 422)
    var rng = SplitMix64(seed: 0x5105_4ED)
    var t = 0.0
    for _ in 0..<2000 {
      t += [1e-6, 1e-3, 0.016, 0.5, 30, 1e4].randomElement(using: &rng) ?? 0.01
      let g = rng.unitVector()
      let u = Vector3(
        Double.random(in: -3...3, using: &rng), Double.random(in: -3...3, using: &rng),
        Double.random(in: -3...3, using: &rng))
      s.receive(time: t, gravity: g, userAcceleration: u)
      let a = s.angle(at: t + Double.random(in: 0...10, using: &rng))
      #expect(a.isFinite, "seed 0x51054ED at t = \(t)")
      #expect(abs(a - s.equilibriumAngle) <= .pi + 10, "seed 0x51054ED")
    }
    s.receive(time: t + 1, gravity: Vector3(.nan, 0, 0), userAcceleration: .zero)
    #expect(s.angle(at: t + 2).isFinite)
  }
}

private func wrappedDegrees(_ d: Double) -> Double { degrees(wrappedAngle(radians(d))) }
