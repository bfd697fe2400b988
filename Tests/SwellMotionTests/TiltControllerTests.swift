import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@testable import SwellMotion

@Suite("Keyboard and mouse tilt")
private struct TiltControllerTests {
  @Test("at rest in the neutral pose: Euler angles, gravity from the attitude, no rotation")
  func neutral() {
    var c = TiltController(neutralPitch: 0.6)
    let m = c.motion(at: 3)
    #expect(m.timestamp == 3)
    #expect(isApproximatelyEqual(m.attitude.pitch, 0.6))
    #expect(isApproximatelyEqual(m.attitude.roll, 0, absolute: 1e-12))
    #expect(isApproximatelyEqual(m.attitude.yaw, 0, absolute: 1e-12))
    #expect(isApproximatelyEqual(m.gravity, Vector3(0, -sin(0.6), -cos(0.6))))
    #expect(m.rotationRate == .zero)
  }

  static let keyCases: [([TiltDirection], Double, Double)] = [
    ([.right, .right, .up], 5, 10),
    ([.left, .down, .down, .down], -15, -5),
  ]

  @Test(
    "arrows step the target; the tilt settles on it; Euler angles read back",
    arguments: keyCases)
  func steps(keys: [TiltDirection], pitchDegrees: Double, rollDegrees: Double) {
    let pitch = pitchDegrees * .pi / 180
    let roll = rollDegrees * .pi / 180
    var c = TiltController(neutralPitch: .pi / 4)
    _ = c.motion(at: 0)
    for k in keys { c.press(k, at: 0.01) }
    #expect(isApproximatelyEqual(c.targetPitch, pitch))
    #expect(isApproximatelyEqual(c.targetRoll, roll))
    let m = c.motion(at: 5)
    #expect(isApproximatelyEqual(m.attitude.pitch, .pi / 4 + pitch, absolute: 1e-9))
    #expect(isApproximatelyEqual(m.attitude.roll, roll, absolute: 1e-9))
    #expect(abs(m.rotationRate.x) < 1e-9 && abs(m.rotationRate.y) < 1e-9)
  }

  @Test("gravity is the attitude's down direction and the rotation rate its derivative")
  func consistency() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SplitMix64(seed: seed)
    var c = TiltController()
    var t = 0.0
    _ = c.motion(at: t)
    for _ in 0..<200 {
      t += Double.random(in: 0.001...0.08, using: &rng)
      if Double.random(in: 0...1, using: &rng) < 0.3 {
        c.press(TiltDirection.allCases[Int.random(in: 0..<4, using: &rng)], at: t)
      }
      if Double.random(in: 0...1, using: &rng) < 0.05 {
        c.point(x: Double.random(in: 0...1, using: &rng), y: .random(in: 0...1, using: &rng), at: t)
      }
      var probe = c
      let m = c.motion(at: t)
      let down = m.attitude.quaternion.inverseRotate(Vector3(0, 0, -1))
      #expect(isApproximatelyEqual(m.gravity, down, tolerance: 1e-12), "seed \(seed)")
      // Numerical body rate: 2·vec(q(t)* ⊗ q(t + h)) / h.
      let h = 1e-7
      let later = probe.motion(at: t + h)
      let dq = m.attitude.quaternion.conjugate * later.attitude.quaternion
      let numeric = Vector3(dq.x, dq.y, dq.z) * (2 / h)
      #expect(
        isApproximatelyEqual(m.rotationRate, numeric, tolerance: 5e-5),
        "seed \(seed): \(m.rotationRate) vs \(numeric)")
    }
  }

  @Test("the state at a time does not depend on how often it is sampled")
  func samplingIndependent() {
    var coarse = TiltController()
    var fine = TiltController()
    _ = coarse.motion(at: 0)
    _ = fine.motion(at: 0)
    coarse.press(.up, at: 0.05)
    fine.press(.up, at: 0.05)
    coarse.press(.right, at: 0.2)
    for i in 1...150 { _ = fine.motion(at: 0.05 + Double(i) * 0.001) }
    fine.press(.right, at: 0.2)
    let a = coarse.motion(at: 0.5)
    for i in 1...300 { _ = fine.motion(at: 0.2 + Double(i) * 0.001) }
    let b = fine.motion(at: 0.5)
    #expect(isSameRotation(a.attitude.quaternion, b.attitude.quaternion, tolerance: 1e-12))
    #expect(isApproximatelyEqual(a.rotationRate, b.rotationRate, tolerance: 1e-12))
  }

  @Test("the spring is critically damped: a step never overshoots and is 90 % there at 0.32 s")
  func easing() {
    var c = TiltController(responseRate: 12)
    _ = c.motion(at: 0)
    c.press(.right, at: 0)
    var previous = 0.0
    for i in 1...100 {
      _ = c.motion(at: Double(i) * 0.01)
      #expect(c.roll >= previous && c.roll <= c.targetRoll + 1e-15)
      previous = c.roll
    }
    var d = TiltController(responseRate: 12)
    _ = d.motion(at: 0)
    d.press(.right, at: 0)
    _ = d.motion(at: 0.32)
    // 1 − (1 + ωt)e^(−ωt) at ωt = 3.84 is 0.896.
    #expect(
      isApproximatelyEqual(d.roll / d.targetRoll, 1 - (1 + 3.84) * exp(-3.84), absolute: 1e-12))
  }

  @Test("targets are clamped to the maximum angle")
  func clamping() {
    var c = TiltController(neutralPitch: 0.3, stepAngle: 0.2, maximumAngle: 0.5)
    for _ in 0..<10 { c.press(.left, at: 0) }
    for _ in 0..<10 { c.press(.up, at: 0) }
    #expect(c.targetRoll == -0.5)
    #expect(c.targetPitch == 0.5)
    c.recenter(at: 1)
    #expect(c.targetRoll == 0 && c.targetPitch == 0)
  }

  static let pointerCases: [(Double, Double, Double, Double)] = [
    (0.5, 0.5, 0, 0), (1, 0.5, 0, 0.4), (0, 0.5, 0, -0.4), (0.5, 0, 0.4, 0),
    (0.5, 1, -0.4, 0), (2, -1, 0.4, 0.4), (0.75, 0.25, 0.2, 0.2),
  ]

  @Test("pointer: centre is neutral, edges are ± the maximum angle", arguments: pointerCases)
  func pointer(x: Double, y: Double, pitch: Double, roll: Double) {
    let t = TiltController.pointerTilt(x: x, y: y, maximumAngle: 0.4)
    #expect(isApproximatelyEqual(t.pitch, pitch) && isApproximatelyEqual(t.roll, roll))
  }
}
