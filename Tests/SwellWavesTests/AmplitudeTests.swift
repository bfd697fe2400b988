import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import SwellWaves
import Testing

@Suite("Amplitude response")
private struct AmplitudeTests {
  @Test("shake raises amplitude by about forty and releases")
  func shakeRaisesAmplitudeByAboutFortyAndReleases() throws {
    let motion = try WaveHarness.script("hold 0.5s; shake x 3Hz 2rad/s for 1s; hold 3s")
    let rows = WaveHarness().run(motion, fps: 60, duration: 4.5)
    let base = 8.0
    let during = rows.filter { $0.time > 0.5 && $0.time <= 1.5 }.map { $0.amplitude - base }
    let peak = during.max() ?? 0
    #expect(peak > 38 && peak <= 40 + 1e-9, "peak extra \(peak)")
    // The peak hold makes the target follow the shake's envelope: steady near 40 once up.
    let steady = rows.filter { $0.time > 0.8 && $0.time <= 1.5 }.map { $0.amplitude - base }
    #expect((steady.min() ?? 0) > 37, "lowest extra while shaking \(steady.min() ?? 0)")
    // Within the first half second of the shake it is already most of the way up.
    let early = rows.filter { $0.time > 0.5 && $0.time <= 1.0 }.map { $0.amplitude - base }
    #expect((early.max() ?? 0) > 30)
    let before = rows.filter { $0.time <= 0.5 }
    #expect(before.allSatisfy { $0.amplitude == base })
    let last = try #require(rows.last)
    #expect(abs(last.amplitude - base) < 0.5, "after the shake: \(last.amplitude)")
    // Released smoothly: no frame-to-frame drop larger than a few points once the peak hold
    // (0.25 s after the last peak at 1.5 s) has let go.
    let after = rows.filter { $0.time > 1.77 }
    for (a, b) in zip(after, after.dropFirst()) {
      #expect(b.amplitude <= a.amplitude + 1e-12)
      #expect(a.amplitude - b.amplitude < 1.5)
    }
  }

  @Test("seed exact ignores negative pitch rates") func seedExactIgnoresNegativePitchRates() throws
  {
    let motion = try WaveHarness.script("rotate -90deg about x over 1s; hold 1s")
    var seed = WaterWaveOptions()
    seed.tiltRule = .seedExact
    let s = WaveHarness(options: seed).run(motion, fps: 60, duration: 2)
    let c = WaveHarness().run(motion, fps: 60, duration: 2)
    #expect(s.allSatisfy { $0.amplitude == 8 })
    #expect((c.map(\.amplitude).max() ?? 0) > 8 + 30)
  }

  @Test("smoother follows the exponential law") func smootherFollowsTheExponentialLaw() {
    var s = AmplitudeSmoother(riseTime: 0.1, releaseTime: 0.5)
    s.setTarget(0, at: 0)
    s.setTarget(40, at: 1)
    #expect(abs(s.value(at: 1.1) - 40 * (1 - exp(-1))) < 1e-9)
    #expect(abs(s.value(at: 1.3) - 40 * (1 - exp(-3))) < 1e-9)
    s.setTarget(0, at: 2)
    let v2: Double = 40 * (1 - exp(-10.0))
    #expect(abs(s.value(at: 2.5) - v2 * exp(-1)) < 1e-9)
    // Stepping in many small pieces or one large one gives the same value.
    var a = AmplitudeSmoother()
    var b = AmplitudeSmoother()
    a.setTarget(30, at: 0)
    b.setTarget(30, at: 0)
    for i in 1...100 { a.setTarget(30, at: Double(i) * 0.001) }
    #expect(abs(a.value(at: 0.1) - b.value(at: 0.1)) < 1e-9)
    #expect(s.value(at: .nan).isFinite)
  }
}
