import Foundation
import SwellGeometry
import SwellLayers
import SwellTestSupport
import Testing

/// Additive `UIView.animate` retargeting (iOS 8+, WWDC 2014 session 236: each new animation
/// animates the delta and is blended in), computed independently: after retargets (tᵢ, targetᵢ) from `initial`,
/// `presentation(t) = target_final − Σ Δᵢ·(1 − E((t − tᵢ)/duration))`, Δᵢ = targetᵢ − targetᵢ₋₁,
/// each term present from tᵢ on and E clamped to [0, 1].
private func formula(
  initial: Double, retargets: [(time: Double, target: Double)], duration: Double, at t: Double
) -> Double {
  var previous = initial
  var value = retargets.last?.target ?? initial
  for r in retargets {
    let delta = r.target - previous
    previous = r.target
    guard t >= r.time else { continue }
    let x = min(max((t - r.time) / duration, 0), 1)
    value -= delta * (1 - referenceEaseInOut(x))
  }
  return value
}

@Suite("Additive retargeting (UIView.animate)")
private struct RetargetingTests {
  @Test("One call: the model jumps, the presentation eases from the old value")
  func single() {
    let l = Layer()
    l.position = Point(x: 10, y: 0)
    #expect(l.animate(keyPath: "position.x", to: .number(30), duration: 2, at: 5))
    #expect(l.position.x == 30)
    #expect(number(l.presentationValue(forKeyPath: "position.x", at: 5)) == 10)
    #expect(abs(number(l.presentationValue(forKeyPath: "position.x", at: 6)) - 20) < 1e-12)
    let quarter = 10 + 20 * referenceEaseInOut(0.25)
    #expect(abs(number(l.presentationValue(forKeyPath: "position.x", at: 5.5)) - quarter) < 1e-9)
    #expect(number(l.presentationValue(forKeyPath: "position.x", at: 7)) == 30)
    #expect(number(l.presentationValue(forKeyPath: "position.x", at: 100)) == 30)
    // The animation UIKit adds: additive, from old − new to zero, ease-in-out.
    let a = l.animations.first?.animation
    #expect(a?.isAdditive == true)
    #expect(a?.fromValue == .number(-20))
    #expect(a?.toValue == .number(0))
    #expect(a?.timingFunction == .easeInEaseOut)
  }

  @Test(
    "A random sequence of retargets follows the additive-retargeting formula",
    arguments: propertySeeds, ["position.x", "center.y", "transform.rotation.z", "opacity"])
  func randomRetargets(seed: UInt64, keyPath: String) {
    var rng = SplitMix64(seed: seed)
    let l = Layer()
    let initial = Double.random(in: -3...3, using: &rng)
    l.setValue(.number(initial), forKeyPath: keyPath)
    let duration = Double.random(in: 0.3...1.5, using: &rng)
    var retargets: [(time: Double, target: Double)] = []
    var time = Double.random(in: 0...10, using: &rng)
    // A random walk that wanders past ±π, where a rotation read back from the matrix would wrap.
    var target = initial
    for _ in 0..<40 {
      target += Double.random(in: -1...1, using: &rng)
      #expect(l.animate(keyPath: keyPath, to: .number(target), duration: duration, at: time))
      retargets.append((time, target))
      let next = time + Double.random(in: 0.005...0.6, using: &rng)
      // Sample the presentation as a display link would: at times between this retarget and the
      // next one.
      for _ in 0..<5 {
        let t = Double.random(in: time..<next, using: &rng)
        let expected = formula(initial: initial, retargets: retargets, duration: duration, at: t)
        let actual = number(l.presentationValue(forKeyPath: keyPath, at: t))
        #expect(abs(actual - expected) < 1e-9, "seed \(seed), \(keyPath), t = \(t)")
      }
      time = next
    }
    // Long after the last call, the presentation rests on the model value.
    let rest = number(l.presentationValue(forKeyPath: keyPath, at: time + duration + 1))
    #expect(abs(rest - target) < 1e-12, "seed \(seed)")
  }

  @Test("Retargeting a point property blends each component", arguments: propertySeeds)
  func pointRetargets(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let l = Layer()
    var xs: [(time: Double, target: Double)] = []
    var ys: [(time: Double, target: Double)] = []
    var time = 0.0
    for _ in 0..<20 {
      let p = Point(
        x: Double.random(in: -100...100, using: &rng), y: Double.random(in: -100...100, using: &rng)
      )
      #expect(l.animate(keyPath: "center", to: .point(p), duration: 1, at: time))
      xs.append((time, p.x))
      ys.append((time, p.y))
      let t = time + Double.random(in: 0...0.3, using: &rng)
      let value = try #require(l.presentationValue(forKeyPath: "position", at: t))
      let v = try #require(Point(layerValue: value))
      #expect(
        abs(v.x - formula(initial: 0, retargets: xs, duration: 1, at: t)) < 1e-9, "seed \(seed)")
      #expect(
        abs(v.y - formula(initial: 0, retargets: ys, duration: 1, at: t)) < 1e-9, "seed \(seed)")
      time = t
    }
  }

  @Test("Retargeting a rotation across ±π does not spin through a full turn")
  func noSpinAcrossPi() {
    let l = Layer()
    var time = 0.0
    for target in stride(from: 2.9, through: 3.8, by: 0.1) {
      l.animate(keyPath: "transform.rotation.z", to: .number(target), duration: 1, at: time)
      for k in 0..<10 {
        let v = number(
          l.presentationValue(forKeyPath: "transform.rotation.z", at: time + Double(k) * 0.01))
        #expect(v > -0.01 && v < 3.81, "t = \(time): \(v)")
      }
      time += 0.1
    }
  }

  @Test("Model values are unchanged by animations and overlays")
  func modelUnchanged() {
    let l = Layer()
    l.position = Point(x: 1, y: 2)
    l.animate(keyPath: "position", to: .point(Point(x: 50, y: 60)), duration: 1, at: 0)
    l.setOverlay(["position.x": .number(7), "opacity": .number(-0.5)], forKey: "effect")
    l.add(
      BasicAnimation(
        keyPath: "cornerRadius", fromValue: .number(0), toValue: .number(10), beginTime: 0,
        duration: 1),
      forKey: "corner")
    let count = l.animations.count
    for t in stride(from: 0.0, through: 2, by: 0.25) {
      _ = l.presentation(at: t)
      _ = l.presentationValue(forKeyPath: "position", at: t)
    }
    #expect(l.position == Point(x: 50, y: 60))
    #expect(l.opacity == 1)
    #expect(l.cornerRadius == 0)
    #expect(l.animations.count == count)
    #expect(l.overlays.count == 1)
  }

  @Test("1000 calls at 100 Hz keep the animation list bounded")
  func pruning() {
    let l = Layer()
    var most = 0
    for i in 0..<1000 {
      let t = Double(i) / 100
      l.animate(keyPath: "transform.rotation.z", to: .number(sin(t) * 0.5), duration: 1, at: t)
      most = max(most, l.animations.count)
    }
    // A 1 s animation started every 10 ms overlaps at most 100 others.
    #expect(most <= 101)
    #expect(l.animations.count >= 99)
    l.removeFinishedAnimations(at: 1000)
    #expect(l.animations.isEmpty)
  }

  @Test("removeFinishedAnimations walks the subtree and keeps held animations")
  func removeFinishedSubtree() {
    let root = Layer()
    let child = Layer()
    root.addSublayer(child)
    child.add(
      BasicAnimation(keyPath: "opacity", toValue: .number(0), beginTime: 0, duration: 1),
      forKey: "fade")
    child.add(
      BasicAnimation(
        keyPath: "position.x", toValue: .number(9), beginTime: 0, duration: 1, fillMode: .forwards,
        isRemovedOnCompletion: false), forKey: "hold")
    root.removeFinishedAnimations(at: 0.5)
    #expect(child.animations.count == 2)
    root.removeFinishedAnimations(at: 1)
    #expect(child.animations.map(\.key) == ["hold"])
    #expect(child.animation(forKey: "hold") != nil)
    child.removeAnimation(forKey: "hold")
    #expect(child.animations.isEmpty)
  }

  @Test("Edge cases: same value, zero duration, unknown key path, wrong kind, affine transform")
  func edgeCases() throws {
    let l = Layer()
    l.position = Point(x: 5, y: 5)
    #expect(l.animate(keyPath: "position.x", to: .number(5), duration: 1, at: 0))
    #expect(l.animations.isEmpty)
    #expect(l.animate(keyPath: "position.x", to: .number(9), duration: 0, at: 0))
    #expect(l.position.x == 9 && l.animations.isEmpty)
    #expect(l.animate(keyPath: "opacity", to: .number(0.5), duration: .infinity, at: 0))
    #expect(l.opacity == 0.5 && l.animations.isEmpty)
    #expect(!l.animate(keyPath: "nonsense", to: .number(1), duration: 1, at: 0))
    #expect(!l.animate(keyPath: "position", to: .number(1), duration: 1, at: 0))
    #expect(l.position == Point(x: 9, y: 5) && l.animations.isEmpty)
    // UIKit's transform is affine: it is embedded.
    let aff = SwellGeometry.AffineTransform(rotationAngle: 0.5)
    #expect(l.animate(keyPath: "transform", to: .affineTransform(aff), duration: 1, at: 0))
    #expect(l.transform == Transform3D(aff))
    let start = try #require(l.presentationValue(forKeyPath: "transform", at: 0))
    #expect(maxDifference(try #require(Transform3D(layerValue: start)), .identity) < 1e-12)
  }

  @Test("The typed animate(_:to:) uses the Swift key path's name")
  func typedAnimate() {
    let l = Layer()
    #expect(l.animate(\.position, to: Point(x: 10, y: 0), duration: 1, at: 0))
    #expect(l.position == Point(x: 10, y: 0))
    #expect(abs(number(l.presentationValue(forKeyPath: "position.x", at: 0.5)) - 5) < 1e-12)
    #expect(!l.animate(\.contentsScale, to: 2.0, duration: 1, at: 0))
  }

  @Test("add(_:forKey:) replaces an animation with the same key and names unnamed ones uniquely")
  func addReplaces() {
    let l = Layer()
    l.add(
      BasicAnimation(keyPath: "opacity", toValue: .number(0), beginTime: 0, duration: 1),
      forKey: "k")
    l.add(
      BasicAnimation(keyPath: "opacity", toValue: .number(0.5), beginTime: 0, duration: 1),
      forKey: "k")
    #expect(l.animations.count == 1)
    #expect(l.animation(forKey: "k")?.toValue == .number(0.5))
    l.add(BasicAnimation(keyPath: "opacity", toValue: .number(0), beginTime: 0, duration: 1))
    l.add(BasicAnimation(keyPath: "opacity", toValue: .number(0), beginTime: 0, duration: 1))
    #expect(Set(l.animations.map(\.key)).count == 3)
    l.removeAllAnimations()
    #expect(l.animations.isEmpty)
  }
}
