import SwellEffects
import SwellGeometry
import SwellLayers
import SwellTestSupport
import Testing

private func number(_ layer: Layer, _ keyPath: String, at t: Double = 0) -> Double? {
  layer.presentationValue(forKeyPath: keyPath, at: t)?.number
}

@Suite("Motion effects on layers")
private struct LayerMotionEffectTests {
  @Test("values are added to presentation values only; center maps to position")
  func additiveOnPresentation() throws {
    let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 400, height: 800))
    let card = Layer(name: "card", frame: Rect(x: 100, y: 200, width: 50, height: 50))
    root.addSublayer(card)
    card.opacity = 0.5
    card.addMotionEffect(interpolating("center.x", .tiltAlongHorizontalAxis, -40, 40))
    card.addMotionEffect(interpolating("layer.opacity", .tiltAlongVerticalAxis, -0.25, 0.25))
    card.addMotionEffect(SeedBounceEffect())
    #expect(card.motionEffects.count == 3)

    MotionEffectApplicator().apply(ViewerOffset(horizontal: 0.5, vertical: 1), to: root)
    // Model values are untouched.
    #expect(card.position == Point(x: 125, y: 225))
    #expect(card.opacity == 0.5)
    // Presentation = model + values.
    #expect(number(card, "position.x") == 145)
    #expect(number(card, "position.y") == 481)
    #expect(number(card, "opacity") == 0.75)
    let p = root.presentation(at: 0)
    #expect(p.layer(named: "card")?.position == Point(x: 145, y: 481))
  }

  @Test("additive with running animations: model + animation + effect")
  func withAnimations() {
    let l = Layer(name: "l", frame: Rect(x: 0, y: 0, width: 10, height: 10))
    l.addMotionEffect(interpolating("center.x", .tiltAlongHorizontalAxis, -40, 40))
    l.animate(keyPath: "position.x", to: .number(105), duration: 1, timingFunction: .linear, at: 0)
    MotionEffectApplicator().apply(ViewerOffset(horizontal: -1, vertical: 0), to: l)
    // Half way: 5 + (105 − 5)·0.5 = 55, minus 40.
    #expect(number(l, "position.x", at: 0.5) == 15)
    #expect(l.position.x == 105)
    #expect(number(l, "position.x", at: 2) == 65)
  }

  @Test("positions snap to whole pixels at the layer's scale", arguments: [1.0, 2, 3])
  func pixelSnapping(scale: Double) throws {
    let l = Layer(name: "l", frame: Rect(x: 0, y: 0, width: 10, height: 10))
    l.contentsScale = scale
    l.addMotionEffect(interpolating("center.x", .tiltAlongHorizontalAxis, -40, 40))
    l.addMotionEffect(interpolating("center.y", .tiltAlongVerticalAxis, -40, 40))
    var rng = SplitMix64(seed: 0x5EED_0001)
    for _ in 0..<200 {
      let o = ViewerOffset(
        horizontal: Double.random(in: -1...1, using: &rng),
        vertical: Double.random(in: -1...1, using: &rng))
      l.applyMotionEffects(for: o)
      let x = try #require(number(l, "position.x"))
      let y = try #require(number(l, "position.y"))
      let exactX = 5 + 40 * o.horizontal
      let exactY = 5 + 40 * o.vertical
      #expect(abs(x * scale - (x * scale).rounded()) < 1e-9, "seed 0x5EED0001")
      #expect(abs(x - exactX) <= 0.5 / scale + 1e-9, "seed 0x5EED0001: \(x) vs \(exactX)")
      #expect(abs(y - exactY) <= 0.5 / scale + 1e-9, "seed 0x5EED0001: \(y) vs \(exactY)")
    }
  }

  @Test("a new effect applies the neutral pose at once; removal restores the model value")
  func addRemove() {
    let l = Layer(name: "l", frame: Rect(x: 0, y: 0, width: 10, height: 10))
    let shift = interpolating("center.x", .tiltAlongHorizontalAxis, 0, 80)
    l.addMotionEffect(shift)
    #expect(number(l, "position.x") == 45, "midpoint at the neutral pose")
    l.applyMotionEffects(for: ViewerOffset(horizontal: 1, vertical: 0))
    #expect(number(l, "position.x") == 85)
    // Adding another effect re-applies the current pose.
    l.addMotionEffect(interpolating("center.x", .tiltAlongHorizontalAxis, -1, 1))
    #expect(number(l, "position.x") == 86)
    l.removeMotionEffect(shift)
    #expect(number(l, "position.x") == 6)
    #expect(l.motionEffects.count == 1)
    l.motionEffects = []
    #expect(number(l, "position.x") == 5)
    #expect(l.overlays.isEmpty)
  }

  @Test("the applicator rotates the offset for the interface orientation")
  func interfaceOrientation() {
    let o = ViewerOffset(horizontal: 0.2, vertical: -0.6)
    #expect(o.rotated(for: .portrait) == o)
    #expect(o.rotated(for: .portraitUpsideDown) == ViewerOffset(horizontal: -0.2, vertical: 0.6))
    #expect(o.rotated(for: .landscapeRight) == ViewerOffset(horizontal: -0.6, vertical: -0.2))
    #expect(o.rotated(for: .landscapeLeft) == ViewerOffset(horizontal: 0.6, vertical: 0.2))
    for orientation in InterfaceOrientation.allCases {
      let l = Layer(name: "l", frame: Rect(x: 0, y: 0, width: 2, height: 2))
      l.addMotionEffect(interpolating("center.x", .tiltAlongHorizontalAxis, -100, 100))
      l.addMotionEffect(interpolating("center.y", .tiltAlongVerticalAxis, -100, 100))
      let n = MotionEffectApplicator(interfaceOrientation: orientation).apply(o, to: l)
      #expect(n == 1)
      let r = o.rotated(for: orientation)
      #expect(number(l, "position.x") == 1 + 100 * r.horizontal)
      #expect(number(l, "position.y") == 1 + 100 * r.vertical)
    }
  }

  @Test("landscape: turning the screen to the viewer's right is a positive horizontal offset")
  func landscapePhysical() {
    // Interface landscapeRight: the device is turned so its +x points up and −y to the right.
    // Turning the screen toward the viewer's right turns it about the device x axis by +a.
    var analyzer = ViewerOffsetAnalyzer()
    analyzer.update(attitude: .identity, timestamp: 0)
    analyzer.update(attitude: Quaternion(axis: .unitX, angle: 0.3), timestamp: 1e-6)
    let ui = analyzer.rawOffset.rotated(for: .landscapeRight)
    #expect(abs(ui.horizontal - 0.3 / (.pi / 2)) < 1e-4)
    #expect(abs(ui.vertical) < 1e-9)
  }

  @Test("layers that are gone do not keep their effects")
  func weakLayers() {
    for _ in 0..<200 {
      let l = Layer()
      l.addMotionEffect(SeedBounceEffect())
    }
    let fresh = Layer()
    #expect(fresh.motionEffects.isEmpty)
  }
}
