import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import SwellWaves
import Testing

/// Gravity of a device held upright and turned clockwise by β (as seen by the user).
private func gravity(turnedClockwise degrees: Double) -> Vector3 {
  let b = radians(degrees)
  return Vector3(sin(b), -cos(b), 0)
}

@Suite("Tilt rules")
private struct TiltRuleTests {
  @Test(
    "corrected is the clamped level angle",
    arguments: [-89.0, -60, -46, -44, -30, -10, 0, 10, 30, 44, 46, 60, 89])
  func correctedIsTheClampedLevelAngle(beta: Double) {
    let d = TiltRule.corrected.decision(gravity: gravity(turnedClockwise: beta))
    let expected = radians(-min(max(beta, -45), 45))
    guard case .animate(let a) = d else {
      Issue.record("corrected held at \(beta)°")
      return
    }
    #expect(abs(a - expected) < 1e-12, "β = \(beta)°: \(degrees(a))°")
  }

  @Test(
    "seed exact accepts only inside the window",
    arguments: [-89.0, -60, -46, -44, -30, -10, 0, 10, 30, 44, 46, 60, 89])
  func seedExactAcceptsOnlyInsideTheWindow(beta: Double) {
    let d = TiltRule.seedExact.decision(gravity: gravity(turnedClockwise: beta))
    if abs(beta) < 45 {
      guard case .animate(let a) = d else {
        Issue.record("seed-exact held at \(beta)°")
        return
      }
      #expect(abs(a - radians(-beta)) < 1e-12)
    } else {
      #expect(d == .hold, "β = \(beta)°")
    }
  }

  @Test("seed formula value is minus beta for a turned device")
  func seedFormulaValueIsMinusBetaForATurnedDevice() {
    for beta in stride(from: 1.0, to: 179, by: 7) {
      let r = TiltRule.seedRotation(gravity: gravity(turnedClockwise: beta))
      #expect(abs(r - radians(-beta)) < 1e-12)
    }
  }

  @Test("upright wrap hazard", arguments: [1e-3, 1e-6, 0.02])
  func uprightWrapHazard(epsilon: Double) {
    // g ≈ (−ε, −1): the device turned slightly counter-clockwise from upright.
    let g = Vector3(-epsilon, -1, 0)
    let raw = TiltRule.seedRotation(gravity: g)
    #expect(raw < -(2 * .pi - .pi / 4), "the seed's literal value is near −2π: \(raw)")
    let expected = atan(epsilon)
    // Corrected: continuous, ≈ +ε, not a snap to −45° nor a full turn.
    guard case .animate(let c) = TiltRule.corrected.decision(gravity: g) else {
      Issue.record("corrected held")
      return
    }
    #expect(abs(c - expected) < 1e-12)
    // Seed-exact: the window's second part accepts −2π + ε, drawn as the matrix of +ε.
    guard case .animate(let s) = TiltRule.seedExact.decision(gravity: g) else {
      Issue.record("seed-exact held")
      return
    }
    #expect(abs(s - expected) < 1e-9)
  }

  @Test("upside down goes back to zero in both rules") func upsideDownGoesBackToZeroInBothRules() {
    for g in [Vector3(0.3, 0.5, -0.8), Vector3(-0.9, 0.1, 0), Vector3(0, 1, 0)] {
      #expect(TiltRule.corrected.decision(gravity: g) == .animate(to: 0))
      #expect(TiltRule.seedExact.decision(gravity: g) == .animate(to: 0))
    }
  }

  @Test("flat device holds in the corrected rule") func flatDeviceHoldsInTheCorrectedRule() {
    #expect(TiltRule.corrected.decision(gravity: Vector3(0.01, -0.02, -0.999)) == .hold)
    #expect(TiltRule.corrected.decision(gravity: Vector3(0, -0.0, -1)) == .hold)
    #expect(TiltRule.corrected.decision(gravity: Vector3(.nan, 0, -1)) == .hold)
  }

  @Test(
    "amplitude targets",
    arguments: [
      (0.0, 0.0, 0.0), (0.69, 0, 0), (0.71, 14.2, 14.2), (2, 40, 40), (-2, 40, 0), (-0.8, 16, 0),
    ])
  func amplitudeTargets(rate: Double, corrected: Double, seed: Double) {
    let r = Vector3(rate, 0.3, -5)
    #expect(abs(TiltRule.corrected.amplitudeTarget(rotationRate: r) - corrected) < 1e-12)
    #expect(abs(TiltRule.seedExact.amplitudeTarget(rotationRate: r) - seed) < 1e-12)
  }
}

@Suite("Water tilt response")
private struct TiltResponseTests {
  private func finalTilt(_ script: String, rule: TiltRule, rate: Double = 100) throws -> Double {
    var o = WaterWaveOptions()
    o.tiltRule = rule
    let motion = try WaveHarness.script(script + "; hold 2s", rate: rate)
    let rows = WaveHarness(options: o).run(motion, fps: 60, duration: motion.last?.timestamp ?? 0)
    return try #require(rows.last).tilt
  }

  @Test(
    "held tilt settles",
    arguments: [
      (30.0, -30.0, -30.0), (-30, 30, 30), (10, -10, -10), (44, -44, -44), (60, -45, -45),
      (-60, 45, 45), (89, -45, -45),
    ])
  func heldTiltSettles(beta: Double, corrected: Double, seedLimit: Double) throws {
    let dir = beta >= 0 ? "right" : "left"
    let script = "tilt \(abs(beta))deg \(dir) over 0.5s"
    let c = try finalTilt(script, rule: .corrected)
    #expect(abs(degrees(c) - corrected) < 1e-6, "corrected \(beta)°: \(degrees(c))°")
    let s = try finalTilt(script, rule: .seedExact)
    if abs(beta) < 45 {
      #expect(abs(degrees(s) - corrected) < 1e-6, "seed-exact \(beta)°: \(degrees(s))°")
    } else {
      // The seed holds the last value inside its window: just short of ±45°.
      #expect(abs(degrees(s)) < 45 && abs(degrees(s)) > 44, "seed-exact \(beta)°: \(degrees(s))°")
      #expect(degrees(s) * seedLimit > 0)
    }
  }

  @Test("seed exact holds past the limit while corrected follows")
  func seedExactHoldsPastTheLimitWhileCorrectedFollows() throws {
    // Turn to 30°, then jump straight to 70° in one sample: the seed keeps −30°.
    let motion = (0...200).map { i -> DeviceMotion in
      let t = Double(i) / 100
      let beta = radians(t < 1 ? 30 : 70)
      return DeviceMotion(
        timestamp: t, attitude: .identity, rotationRate: .zero,
        gravity: Vector3(sin(beta), -cos(beta), 0), userAcceleration: .zero)
    }
    var seed = WaterWaveOptions()
    seed.tiltRule = .seedExact
    let s = WaveHarness(options: seed).run(motion, fps: 60, duration: 2)
    let c = WaveHarness().run(motion, fps: 60, duration: 2)
    let sLast = try #require(s.last)
    let cLast = try #require(c.last)
    #expect(abs(degrees(sLast.tilt) + 30) < 1e-6)
    #expect(degrees(cLast.tilt) < -44.9)
  }

  @Test("tilt eases over one second with UI kit curve") func tiltEasesOverOneSecondWithUIKitCurve()
    throws
  {
    // A single step of the target (one sample at t = 0, then none): the presentation follows
    // −30°·E(t / 1 s) with E the ease-in-out curve (0.42, 0, 0.58, 1).
    let beta = radians(30)
    let m = DeviceMotion(
      timestamp: 0, attitude: .identity, rotationRate: .zero,
      gravity: Vector3(sin(beta), -cos(beta), 0), userAcceleration: .zero)
    let rows = WaveHarness().run([m], fps: 10, duration: 1.5)
    for r in rows {
      let e = TimingFunctionReference.easeInEaseOut(min(r.time, 1))
      #expect(abs(r.tilt - -beta * e) < 1e-9, "t = \(r.time)")
    }
  }

  @Test("motion rate does not change the tilt trace") func motionRateDoesNotChangeTheTiltTrace()
    throws
  {
    let script =
      "tilt 20deg right over 0.4s; hold 0.3s; tilt 35deg left over 0.7s; hold 0.5s;"
      + " tilt 10deg right over 0.2s; hold 1.5s"
    let a = WaveHarness().run(try WaveHarness.script(script, rate: 100), fps: 60, duration: 3.6)
    let b = WaveHarness().run(try WaveHarness.script(script, rate: 50), fps: 60, duration: 3.6)
    let worst = zip(a, b).map { abs($0.tilt - $1.tilt) }.max() ?? .infinity
    #expect(degrees(worst) < 0.05, "largest difference \(degrees(worst))°")
    // The water did move, so the comparison is not between two still traces.
    #expect(abs(degrees(a[60].tilt)) > 1)
  }

  @Test("display rate does not change values at shared times")
  func displayRateDoesNotChangeValuesAtSharedTimes() throws {
    let motion = try WaveHarness.script(
      "tilt 30deg right over 0.5s; shake x 3Hz 2rad/s for 1s; tilt 50deg left over 0.3s; hold 1s")
    let a = WaveHarness().run(motion, fps: 60, duration: 2.8)
    let b = WaveHarness().run(motion, fps: 120, duration: 2.8)
    #expect(b.count == 2 * (a.count - 1) + 1)
    for (i, r) in a.enumerated() {
      let s = b[2 * i]
      #expect(r.time == s.time)
      #expect(abs(r.tilt - s.tilt) < 1e-12, "t = \(r.time)")
      #expect(abs(r.amplitude - s.amplitude) < 1e-12, "t = \(r.time)")
      #expect(abs(r.phase - s.phase) < 1e-12, "t = \(r.time)")
    }
  }

  @Test("reduce motion keeps the water still") func reduceMotionKeepsTheWaterStill() throws {
    var o = WaterWaveOptions()
    o.reduceMotion = true
    let motion = try WaveHarness.script("tilt 30deg right over 0.5s; shake x 3Hz 2rad/s for 1s")
    let rows = WaveHarness(options: o).run(motion, fps: 30, duration: 1.5)
    for r in rows {
      #expect(r.tilt == 0)
      #expect(r.amplitude == 8)
      #expect(r.phase == 0.5)
    }
  }
}

/// An independent evaluation of the cubic Bézier (0.42, 0), (0.58, 1) by bisection.
enum TimingFunctionReference {
  static func easeInEaseOut(_ x: Double) -> Double {
    func bez(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
      3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
    }
    var lo = 0.0
    var hi = 1.0
    for _ in 0..<200 {
      let mid = (lo + hi) / 2
      if bez(mid, 0.42, 0.58) < x { lo = mid } else { hi = mid }
    }
    return bez((lo + hi) / 2, 0, 1)
  }
}
