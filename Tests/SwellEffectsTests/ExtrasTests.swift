import Foundation
import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion
import Testing

@Suite("parallax.js layers and tilt cards")
private struct ExtrasTests {
  @Test("parallax layer: input · size · scalar/100, clamped to the limit, times depth, inverted")
  func parallaxEffect() {
    var e = ParallaxEffect(depth: 0.5, elementSize: Size(width: 400, height: 800))
    let input = ViewerOffset(horizontal: 0.5, vertical: -0.25)
    // 0.5·400·10/100 = 20 → ·0.5 depth → 10, inverted → −10; y: −0.25·800·0.1 = −20 → 10.
    #expect(
      e.keyPathsAndRelativeValues(forViewerOffset: input) == [
        "position": .point(Point(x: -10, y: 10))
      ])
    e.invertX = false
    e.limitY = 8
    e.depthY = 2
    #expect(
      e.keyPathsAndRelativeValues(forViewerOffset: input) == [
        "position": .point(Point(x: 10, y: 16))
      ])
    e.depthX = 0
    #expect(e.motion(for: ViewerOffset(horizontal: .nan, vertical: 0)) == Point(x: 0, y: 0))
  }

  @Test("W3C β/γ of an attitude: upright portrait β = 90°, right edge down γ > 0")
  func betaGamma() {
    let upright = Attitude(quaternion: Quaternion(axis: .unitX, angle: .pi / 2))
    let bg = ParallaxInput.betaGamma(of: upright)
    #expect(abs(bg.beta - 90) < 1e-9 && abs(bg.gamma) < 1e-9)
    let rolled = Attitude(quaternion: Quaternion(axis: .unitY, angle: 20 * .pi / 180))
    let r = ParallaxInput.betaGamma(of: rolled)
    #expect(abs(r.gamma - 20) < 1e-9 && abs(r.beta) < 1e-9)
    // Both: Rx(β)·Ry(γ) recovers (β, γ).
    let q = Quaternion(axis: .unitX, angle: 0.7) * Quaternion(axis: .unitY, angle: -0.4)
    let both = ParallaxInput.betaGamma(of: Attitude(quaternion: q))
    #expect(abs(both.beta - 0.7 * 180 / .pi) < 1e-9 && abs(both.gamma + 0.4 * 180 / .pi) < 1e-9)
  }

  @Test("friction is time-based: the same curve at 30, 60 and 144 updates per second")
  func frictionTimeBased() {
    var results: [Double] = []
    for rate in [30.0, 60, 144] {
      var p = ParallaxInput()
      // γ = 15° (input 0.5 on x, uncalibrated by default), held from t = 0.
      let a = Attitude(quaternion: Quaternion(axis: .unitY, angle: 15 * .pi / 180))
      let n = Int(rate * 0.5)
      for i in 0...n { p.receive(a, timestamp: Double(i) / rate) }
      results.append(p.input.horizontal)
    }
    // velocity(t) = 0.5·(1 − 0.9^(60·t)) after the first sample at t = 0.
    let want = 0.5 * (1 - pow(0.9, 60 * 0.5))
    for r in results { #expect(abs(r - want) < 1e-9, "\(results) vs \(want)") }
  }

  @Test("calibration: the calibrated y axis reads 0 until the delay, then relative motion")
  func calibration() {
    var p = ParallaxInput()
    var o = ParallaxInput.Options()
    o.frictionY = 1
    o.frictionX = 1
    p.options = o
    let start = Quaternion(axis: .unitX, angle: 60 * .pi / 180)
    for i in 0...60 {
      p.receive(Attitude(quaternion: start), timestamp: Double(i) / 100)
    }
    #expect(abs(p.calibration.vertical - 2) < 1e-9, "60° / 30°")
    #expect(p.input.vertical == 0)
    let more = Quaternion(axis: .unitX, angle: 75 * .pi / 180)
    p.receive(Attitude(quaternion: more), timestamp: 0.61)
    #expect(abs(p.input.vertical - 0.5) < 1e-9, "15° past the calibration")
  }

  @Test("tilt card: right edge recedes for +h, top edge comes forward for +v; reverse flips")
  func tiltCard() throws {
    let e = TiltCardEffect()
    let t = e.transform(for: ViewerOffset(horizontal: 1, vertical: 0))
    // In layer space (x right, y down, z toward the viewer): the right edge point (100, 0, 0).
    let right = t.project(Vector3(100, 0, 0))
    let left = t.project(Vector3(-100, 0, 0))
    #expect(right.point.z < 0 && left.point.z > 0)
    // Perspective: the receding edge looks nearer the centre than the approaching one.
    #expect(abs(right.point.x) < abs(left.point.x))
    let angles = e.angles(for: ViewerOffset(horizontal: 1, vertical: 1))
    #expect(abs(angles.y - 15 * .pi / 180) < 1e-12)
    #expect(abs(angles.x + 15 * .pi / 180) < 1e-12)
    let down = e.transform(for: ViewerOffset(horizontal: 0, vertical: 1))
    #expect(down.project(Vector3(0, -100, 0)).point.z > 0, "top edge toward the viewer")
    var r = e
    r.reverse = true
    #expect(
      r.transform(for: ViewerOffset(horizontal: 1, vertical: 0)).project(Vector3(100, 0, 0)).point.z
        > 0)
    r.axis = .vertical
    #expect(r.angles(for: ViewerOffset(horizontal: 1, vertical: 0.5)).y == 0)
    // Applied to a layer, the transform is added to the model transform.
    let card = Layer(name: "card", frame: Rect(x: 0, y: 0, width: 200, height: 120))
    card.addMotionEffect(e)
    card.applyMotionEffects(for: ViewerOffset(horizontal: 0.5, vertical: 0))
    let presented = try #require(card.presentationValue(forKeyPath: "transform", at: 0))
    #expect(presented == .transform3D(e.transform(for: ViewerOffset(horizontal: 0.5, vertical: 0))))
    #expect(card.transform == .identity)
  }

  @Test("glare slides against the tilt and brightens with it")
  func glare() {
    let g = TiltGlareEffect(travel: Size(width: 100, height: 50), maxGlare: 0.5)
    let v = g.keyPathsAndRelativeValues(
      forViewerOffset: ViewerOffset(horizontal: 0.6, vertical: 0.8))
    #expect(v?["position"] == .point(Point(x: -60, y: -40)))
    #expect(v?["opacity"] == .number(0.5))
    let still = g.keyPathsAndRelativeValues(forViewerOffset: .zero)
    #expect(still?["opacity"] == .number(0))
  }
}
