import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

@Suite("Motion script generator")
private struct ScriptGeneratorTests {
  /// Body-frame angular velocity from a central difference of the attitude:
  /// ω ≈ rotationVector(q(t−h)⁻¹ ⊗ q(t+h)) / 2h.
  private func numericRate(_ s: MotionScript, at t: Double, h: Double = 1e-5) -> Vector3 {
    let a = s.motion(at: t - h).attitude.quaternion
    let b = s.motion(at: t + h).attitude.quaternion
    return (a.conjugate * b).rotationVector / (2 * h)
  }

  @Test("starts upright portrait") func startsUprightPortrait() throws {
    let s = try MotionScript(parsing: "hold 1s")
    let m = s.motion(at: 0.5)
    #expect(isApproximatelyEqual(m.gravity, Vector3(0, -1, 0), tolerance: 1e-12))
    #expect(m.rotationRate == .zero)
  }

  @Test("tilt right gives sin minus cos gravity", arguments: [10.0, 30.0, 45.0, 60.0, 89.0])
  func tiltRightGivesSinMinusCosGravity(degrees: Double) throws {
    let s = try MotionScript(parsing: "tilt \(degrees)deg right over 0.5s; hold 1s")
    let beta = degrees * .pi / 180
    let g = s.motion(at: 1).gravity
    #expect(isApproximatelyEqual(g, Vector3(sin(beta), -cos(beta), 0), tolerance: 1e-12))
    // The seed's atan2(g.x, g.y) − π equals −β: the water must tilt by −β.
    #expect(abs(atan2(g.x, g.y) - .pi - -beta) < 1e-9)
    let left = try MotionScript(parsing: "tilt \(degrees)deg left").motion(at: 0.5).gravity
    #expect(isApproximatelyEqual(left, Vector3(-sin(beta), -cos(beta), 0), tolerance: 1e-12))
  }

  @Test("poses have the documented gravity") func posesHaveTheDocumentedGravity() throws {
    let cases: [(String, Vector3)] = [
      ("flat", Vector3(0, 0, -1)), ("portrait", Vector3(0, -1, 0)),
      ("landscape left", Vector3(-1, 0, 0)), ("landscape right", Vector3(1, 0, 0)),
    ]
    for (word, g) in cases {
      let m = try MotionScript(parsing: "\(word); hold 1s").motion(at: 0.5)
      #expect(isApproximatelyEqual(m.gravity, g, tolerance: 1e-12), "\(word)")
    }
  }

  @Test("forward tips the top edge away from the user") func forwardTipsTheTopEdgeAwayFromTheUser()
    throws
  {
    // Tipping the top edge away turns the screen toward the sky: gravity gains a component
    // into the back of the device (−z), and the rate about x is negative.
    let g = try MotionScript(parsing: "tilt 30deg forward").motion(at: 0.5).gravity
    #expect(isApproximatelyEqual(g, Vector3(0, -cos(.pi / 6), -sin(.pi / 6)), tolerance: 1e-12))
    let rate = try MotionScript(parsing: "tilt 30deg forward over 1s").motion(at: 0.5)
      .rotationRate
    #expect(rate.x < 0)
  }

  @Test("turn is about the vertical") func turnIsAboutTheVertical() throws {
    let s = try MotionScript(parsing: "tilt 20deg back over 0.2s; turn 90deg left over 1s")
    let before = s.motion(at: 0.2).gravity
    let after = s.motion(at: 1.2).gravity
    // Turning about the vertical keeps gravity in the device frame.
    #expect(isApproximatelyEqual(before, after, tolerance: 1e-12))
    let mid = s.motion(at: 0.7)
    #expect(mid.rotationRate.length > 1)
    let world = mid.attitude.quaternion.rotate(mid.rotationRate)
    #expect(isApproximatelyEqual(world.normalized(), Vector3(0, 0, 1), tolerance: 1e-9))
  }

  @Test("rotation rate is the attitude derivative") func rotationRateIsTheAttitudeDerivative()
    throws
  {
    let s = try MotionScript(
      parsing:
        "tilt 30deg right over 0.5s; rotate 40deg about y over 0.7s; turn 50deg right over 0.3s;"
        + " shake x 3Hz 2rad/s for 1s; tilt 15deg forward over 0.4s")
    var rng = SplitMix64(seed: 0x5EED_0001)
    for _ in 0..<300 {
      let t = Double.random(in: 0.001...(s.duration - 0.001), using: &rng)
      // Skip step boundaries, where the rate may jump.
      var boundary = 0.0
      var near = false
      for step in s.steps {
        boundary += step.duration
        if abs(t - boundary) < 1e-3 { near = true }
      }
      if near { continue }
      let m = s.motion(at: t)
      let n = numericRate(s, at: t)
      #expect(
        isApproximatelyEqual(m.rotationRate, n, tolerance: 1e-5),
        "seed 0x5EED0001, t = \(t): \(m.rotationRate) vs \(n)")
      #expect(abs(m.gravity.length - 1) < 1e-12, "seed 0x5EED0001, t = \(t)")
      #expect(abs(m.attitude.quaternion.norm - 1) < 1e-12)
    }
  }

  @Test("gravity is the attitude inverse of down") func gravityIsTheAttitudeInverseOfDown() throws {
    let s = try MotionScript(parsing: "rotate 70deg about x over 1s; rotate 33deg about z over 1s")
    for m in s.samples(rate: 50) {
      let g = m.attitude.quaternion.inverseRotate(Vector3(0, 0, -1))
      #expect(isApproximatelyEqual(m.gravity, g, tolerance: 1e-12))
    }
  }

  @Test("shake has the peak rate and returns to the pose")
  func shakeHasThePeakRateAndReturnsToThePose() throws {
    let s = try MotionScript(parsing: "shake x 3Hz 2rad/s for 1s; hold 0.5s")
    let samples = s.samples(rate: 1000)
    let peak = samples.map { abs($0.rotationRate.x) }.max() ?? 0
    #expect(abs(peak - 2) < 1e-3)
    let end = s.motion(at: 1.2)
    #expect(isApproximatelyEqual(end.gravity, Vector3(0, -1, 0), tolerance: 1e-9))
    #expect(end.rotationRate == .zero)
  }

  @Test("push sets user acceleration only") func pushSetsUserAccelerationOnly() throws {
    let s = try MotionScript(parsing: "hold 0.1s; push x 0.5g for 0.2s; hold 0.1s")
    #expect(s.motion(at: 0.05).userAcceleration == .zero)
    #expect(s.motion(at: 0.2).userAcceleration == Vector3(0.5, 0, 0))
    #expect(isApproximatelyEqual(s.motion(at: 0.2).gravity, Vector3(0, -1, 0), tolerance: 1e-12))
    #expect(s.motion(at: 0.35).userAcceleration == .zero)
  }

  @Test("samples at a rate cover the whole script", arguments: [50.0, 100.0, 60.0])
  func samplesAtARateCoverTheWholeScript(rate: Double) throws {
    let s = try MotionScript(parsing: "hold 1s; tilt 30deg right over 0.5s")
    let samples = s.samples(rate: rate, startTime: 10)
    #expect(samples.count == Int((1.5 * rate + 1e-9).rounded(.down)) + 1)
    #expect(samples.first?.timestamp == 10)
    for (a, b) in zip(samples, samples.dropFirst()) { #expect(b.timestamp > a.timestamp) }
    let last = try #require(samples.last)
    #expect(abs(last.timestamp - 11.5) < 1e-9)
    let beta = Double.pi / 6
    #expect(isApproximatelyEqual(last.gravity, Vector3(sin(beta), -cos(beta), 0), tolerance: 1e-9))
  }
}
