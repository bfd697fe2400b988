import SwellGeometry
import SwellLayers
import SwellTestSupport
import Testing

@Suite("BasicAnimation")
private struct BasicAnimationTests {
  /// One from/to/by combination and the start and end values expected with a model value of 100.
  struct Combination: Sendable, CustomTestStringConvertible {
    var from: Double?
    var to: Double?
    var by: Double?
    var start: Double
    var end: Double
    var testDescription: String {
      func text(_ v: Double?) -> String { v.map { "\($0)" } ?? "nil" }
      return "from \(text(from)) to \(text(to)) by \(text(by))"
    }
  }

  // Core Animation's rules (CABasicAnimation docs), model value 100:
  static let combinations: [Combination] = [
    Combination(from: 10, to: 30, by: nil, start: 10, end: 30),  // from → to
    Combination(from: 10, to: nil, by: 5, start: 10, end: 15),  // from → from + by
    Combination(from: nil, to: 30, by: 5, start: 25, end: 30),  // to − by → to
    Combination(from: 10, to: nil, by: nil, start: 10, end: 100),  // from → model
    Combination(from: nil, to: 30, by: nil, start: 100, end: 30),  // model → to
    Combination(from: nil, to: nil, by: 5, start: 100, end: 105),  // model → model + by
    Combination(from: 10, to: 30, by: 5, start: 10, end: 30),  // by ignored
    Combination(from: nil, to: nil, by: nil, start: 100, end: 100),  // model
  ]

  @Test("from/to/by combinations follow Core Animation", arguments: combinations)
  func combinationsFollowCoreAnimation(c: Combination) throws {
    let a = BasicAnimation(
      keyPath: "opacity", fromValue: c.from.map(LayerValue.number),
      toValue: c.to.map(LayerValue.number), byValue: c.by.map(LayerValue.number), beginTime: 2,
      duration: 4, fillMode: .both, isRemovedOnCompletion: false)
    let model = LayerValue.number(100)
    #expect(number(a.value(at: 2, model: model)) == c.start)
    #expect(number(a.value(at: 3, model: model)) == c.start + (c.end - c.start) * 0.25)
    #expect(number(a.value(at: 6, model: model)) == c.end)
  }

  @Test("The default timing is linear, as an explicit CABasicAnimation's")
  func defaultTimingIsLinear() {
    let a = BasicAnimation(
      keyPath: "position.x", fromValue: .number(0), toValue: .number(1), beginTime: 0, duration: 1)
    #expect(a.timingFunction == .linear)
    #expect(number(a.value(at: 0.3, model: .number(0))) == 0.3)
  }

  @Test("A timing function eases the progress")
  func eased() {
    let a = BasicAnimation(
      keyPath: "position.x", fromValue: .number(0), toValue: .number(10), beginTime: 0, duration: 2,
      timingFunction: .easeInEaseOut)
    for i in 0..<20 {
      let t = Double(i) / 10
      let expected = 10 * referenceEaseInOut(t / 2)
      #expect(abs(number(a.value(at: t, model: .number(0))) - expected) < 1e-9)
    }
  }

  @Test("Points, colours and transforms interpolate; by-values add with concatenation")
  func kinds() throws {
    let p = BasicAnimation(
      keyPath: "position", fromValue: .point(Point(x: 0, y: 10)),
      byValue: .point(Point(x: 4, y: -2)),
      beginTime: 0, duration: 1)
    #expect(p.value(at: 0.5, model: .point(.zero)) == .point(Point(x: 2, y: 9)))
    let c = BasicAnimation(
      keyPath: "backgroundColor", fromValue: .color(.black), toValue: .color(.white), beginTime: 0,
      duration: 1)
    #expect(
      c.value(at: 0.25, model: .color(.clear)) == .color(Color(red: 0.25, green: 0.25, blue: 0.25)))
    // by on a transform: the end is from, then by (a translation then a quarter turn).
    let from = Transform3D(translationX: 10, y: 0, z: 0)
    let by = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
    let t = BasicAnimation(
      keyPath: "transform", fromValue: .transform3D(from), byValue: .transform3D(by), beginTime: 0,
      duration: 1)
    let endValue = try #require(t.value(at: 1 - 1e-12, model: .transform3D(.identity)))
    let end = try #require(Transform3D(layerValue: endValue))
    #expect(maxDifference(end.apply(to: .zero), Point(x: 0, y: 10)) < 1e-9)
    // to − by: the start s satisfies s then by = to.
    let back = BasicAnimation(
      keyPath: "transform", toValue: .transform3D(from.concatenating(by)),
      byValue: .transform3D(by),
      beginTime: 0, duration: 1)
    let startValue = try #require(back.value(at: 0, model: .transform3D(.identity)))
    let start = try #require(Transform3D(layerValue: startValue))
    #expect(maxDifference(start, from) < 1e-12)
    // Mismatched kinds give no value rather than a crash.
    let bad = BasicAnimation(
      keyPath: "opacity", fromValue: .number(0), toValue: .color(.white), beginTime: 0, duration: 1)
    #expect(bad.value(at: 0.5, model: .number(1)) == nil)
  }

  @Test("Additive animations ignore the model value")
  func additive() {
    let a = BasicAnimation(
      keyPath: "position.x", fromValue: .number(-20), toValue: .number(0), beginTime: 0,
      duration: 1,
      isAdditive: true)
    #expect(number(a.value(at: 0, model: .number(500))) == -20)
    #expect(number(a.value(at: 0.5, model: .number(500))) == -10)
    let by = BasicAnimation(
      keyPath: "position.x", byValue: .number(8), beginTime: 0, duration: 1, isAdditive: true)
    #expect(number(by.value(at: 0.5, model: .number(500))) == 4)
  }

  struct FillCase: Sendable, CustomTestStringConvertible {
    var fill: FillMode
    var removed: Bool
    var before: Double?
    var after: Double?
    var testDescription: String { "\(fill), removed on completion: \(removed)" }
  }

  // An animation 10 → 20 over [1, 3], model 100. A removed-on-completion animation has no
  // effect after its end whatever its fill mode (Core Animation removes it).
  static let fillCases: [FillCase] = [
    FillCase(fill: .removed, removed: true, before: nil, after: nil),
    FillCase(fill: .removed, removed: false, before: nil, after: nil),
    FillCase(fill: .backwards, removed: true, before: 10, after: nil),
    FillCase(fill: .backwards, removed: false, before: 10, after: nil),
    FillCase(fill: .forwards, removed: true, before: nil, after: nil),
    FillCase(fill: .forwards, removed: false, before: nil, after: 20),
    FillCase(fill: .both, removed: true, before: 10, after: nil),
    FillCase(fill: .both, removed: false, before: 10, after: 20),
  ]

  @Test("Fill modes outside the active time", arguments: fillCases)
  func fillModes(c: FillCase) {
    let a = BasicAnimation(
      keyPath: "opacity", fromValue: .number(10), toValue: .number(20), beginTime: 1, duration: 2,
      fillMode: c.fill, isRemovedOnCompletion: c.removed)
    let model = LayerValue.number(100)
    #expect(a.value(at: 0.5, model: model)?.number == c.before)
    #expect(a.value(at: 3, model: model)?.number == c.after)
    #expect(a.value(at: 50, model: model)?.number == c.after)
    #expect(number(a.value(at: 2, model: model)) == 15)
    #expect(a.isFinished(at: 3) == c.removed)
    #expect(!a.isFinished(at: 2.999))
  }

  @Test("beginTime offsets the animation on the tree's clock")
  func beginTime() {
    let a = BasicAnimation(
      keyPath: "opacity", fromValue: .number(0), toValue: .number(1), beginTime: 10, duration: 4)
    #expect(a.value(at: 9.99, model: .number(7)) == nil)
    #expect(number(a.value(at: 10, model: .number(7))) == 0)
    #expect(number(a.value(at: 11, model: .number(7))) == 0.25)
    #expect(a.endTime == 14)
    #expect(a.value(at: 14, model: .number(7)) == nil)
  }

  @Test("repeatCount repeats, fractions included")
  func repeatCount() {
    let a = BasicAnimation(
      keyPath: "opacity", fromValue: .number(0), toValue: .number(1), beginTime: 0, duration: 2,
      fillMode: .forwards, repeatCount: 2.5, isRemovedOnCompletion: false)
    #expect(a.activeDuration == 5)
    #expect(number(a.value(at: 1, model: .number(9))) == 0.5)
    #expect(number(a.value(at: 2.5, model: .number(9))) == 0.25)
    #expect(number(a.value(at: 4.5, model: .number(9))) == 0.25)
    // Held at the point where the half repetition stops.
    #expect(number(a.value(at: 6, model: .number(9))) == 0.5)
    let whole = BasicAnimation(
      keyPath: "opacity", fromValue: .number(0), toValue: .number(1), beginTime: 0, duration: 2,
      fillMode: .forwards, repeatCount: 3, isRemovedOnCompletion: false)
    #expect(number(whole.value(at: 100, model: .number(9))) == 1)
  }

  @Test("repeatCount 0 plays once, as Core Animation ignores it", arguments: [0.0, -2, .nan])
  func repeatCountZero(count: Double) {
    let a = BasicAnimation(
      keyPath: "opacity", fromValue: .number(0), toValue: .number(1), beginTime: 0, duration: 2,
      repeatCount: count)
    #expect(a.activeDuration == 2)
    #expect(number(a.value(at: 1, model: .number(9))) == 0.5)
    #expect(a.value(at: 2, model: .number(9)) == nil)
  }

  @Test("An infinite repeatCount never finishes")
  func repeatForever() {
    let a = BasicAnimation(
      keyPath: "opacity", fromValue: .number(0), toValue: .number(1), beginTime: 0, duration: 2,
      repeatCount: .infinity)
    #expect(!a.isFinished(at: 1e9))
    #expect(number(a.value(at: 2001, model: .number(9))) == 0.5)
  }

  @Test("autoreverses plays forwards then backwards")
  func autoreverses() {
    let a = BasicAnimation(
      keyPath: "opacity", fromValue: .number(0), toValue: .number(1), beginTime: 0, duration: 2,
      fillMode: .forwards, autoreverses: true, isRemovedOnCompletion: false)
    #expect(a.activeDuration == 4)
    #expect(number(a.value(at: 1, model: .number(9))) == 0.5)
    #expect(number(a.value(at: 2, model: .number(9))) == 1)
    #expect(number(a.value(at: 3, model: .number(9))) == 0.5)
    #expect(number(a.value(at: 3.5, model: .number(9))) == 0.25)
    // It ends back at the start value.
    #expect(number(a.value(at: 10, model: .number(9))) == 0)
    // With 1.5 repetitions it ends after the forward half of the second cycle.
    var b = a
    b.repeatCount = 1.5
    #expect(b.activeDuration == 6)
    #expect(number(b.value(at: 5, model: .number(9))) == 0.5)
    #expect(number(b.value(at: 10, model: .number(9))) == 1)
  }
}

@Suite("LayerValue")
private struct LayerValueTests {
  @Test("Addition and subtraction are inverse, kind by kind")
  func addSubtract() throws {
    let values: [(LayerValue, LayerValue)] = [
      (.number(3), .number(-1.5)),
      (.point(Point(x: 1, y: 2)), .point(Point(x: -4, y: 8))),
      (.size(Size(width: 3, height: 4)), .size(Size(width: 1, height: -1))),
      (.rect(Rect(x: 1, y: 2, width: 3, height: 4)), .rect(Rect(x: 1, y: 1, width: 1, height: 1))),
      (
        .color(Color(red: 0.5, green: 0.5, blue: 0.5)),
        .color(Color(red: 0.25, green: 0, blue: 0.5, alpha: 0))
      ),
    ]
    for (a, b) in values {
      let sum = try #require(a.adding(b))
      #expect(sum.subtracting(b) == a, "\(a.kindName)")
      #expect(a.adding(a.zero) == a, "\(a.kindName)")
      #expect(a.adding(.number(1)) == nil || a.kindName == "number")
    }
    // Transforms: a − b is the d with b, then d = a.
    let a = Transform3D(rotationAngle: 0.7, x: 0, y: 0, z: 1).concatenating(
      Transform3D(translationX: 3, y: 4, z: 0))
    let b = Transform3D(scaleX: 2, y: 2, z: 1).concatenating(
      Transform3D(translationX: -1, y: 0, z: 0))
    let difference = try #require(LayerValue.transform3D(a).subtracting(.transform3D(b)))
    let d = try #require(Transform3D(layerValue: difference))
    #expect(maxDifference(b.concatenating(d), a) < 1e-12)
    // A singular subtrahend leaves the value as is rather than producing NaN.
    let singular = LayerValue.transform3D(Transform3D(scaleX: 0, y: 1, z: 1))
    #expect(LayerValue.transform3D(a).subtracting(singular) == .transform3D(a))
  }

  @Test("An affine transform mixes with a 3D one, embedded")
  func affineMixesWith3D() throws {
    let t3 = LayerValue.transform3D(Transform3D(translationX: 5, y: 0, z: 0))
    let aff = LayerValue.affineTransform(SwellGeometry.AffineTransform(rotationAngle: .pi / 2))
    let sum = try #require(t3.adding(aff))
    let t = try #require(Transform3D(layerValue: sum))
    #expect(maxDifference(t.apply(to: .zero), Point(x: 0, y: 5)) < 1e-12)
    #expect(aff.interpolated(to: t3, fraction: 0.5) != nil)
    #expect(t3.subtracting(aff) != nil)
  }

  @Test("Interpolation and scaling")
  func interpolation() {
    #expect(LayerValue.number(2).interpolated(to: .number(4), fraction: 0.5) == .number(3))
    #expect(LayerValue.number(2).interpolated(to: .number(4), fraction: 2) == .number(6))
    #expect(
      LayerValue.rect(Rect(x: 0, y: 0, width: 2, height: 2)).interpolated(
        to: .rect(Rect(x: 2, y: 4, width: 4, height: 6)), fraction: 0.5)
        == .rect(Rect(x: 1, y: 2, width: 3, height: 4)))
    #expect(LayerValue.number(2).interpolated(to: .point(.zero), fraction: 0.5) == nil)
    #expect(LayerValue.point(Point(x: 1, y: -2)).scaled(by: 3) == .point(Point(x: 3, y: -6)))
    #expect(LayerValue.transform3D(.identity).scaled(by: 3) == .transform3D(.identity))
    #expect(!LayerValue.number(.nan).isFinite)
    #expect(!LayerValue.point(Point(x: 0, y: .infinity)).isFinite)
    #expect(LayerValue.color(.white).isFinite)
  }

  @Test("Convertible types round trip through LayerValue")
  func convertible() {
    #expect(Double(layerValue: 2.5.layerValue) == 2.5)
    #expect(Point(layerValue: Point(x: 1, y: 2).layerValue) == Point(x: 1, y: 2))
    #expect(Size(layerValue: Size(width: 1, height: 2).layerValue) == Size(width: 1, height: 2))
    #expect(Rect(layerValue: Rect.zero.layerValue) == .zero)
    #expect(Color(layerValue: Color.white.layerValue) == .white)
    #expect(Transform3D(layerValue: Transform3D.identity.layerValue) == .identity)
    let aff = SwellGeometry.AffineTransform(translationX: 1, y: 2)
    #expect(SwellGeometry.AffineTransform(layerValue: aff.layerValue) == aff)
    #expect(Transform3D(layerValue: aff.layerValue) == Transform3D(aff))
    #expect(Double(layerValue: .point(.zero)) == nil)
    #expect(Point(layerValue: .number(1)) == nil)
  }
}
