import SwellEffects
import SwellGeometry
import SwellLayers
import Testing

/// Independent linear interpolation: a + (b − a)·t, per component.
private func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

/// One value kind: its minimum and maximum, and the expected value at a fraction, computed
/// component by component here (not through LayerValue).
struct InterpolationCase: Sendable, CustomTestStringConvertible {
  let name: String
  let lo: LayerValue
  let hi: LayerValue
  let expected: @Sendable (Double) -> [Double]
  var testDescription: String { name }
}

private func components(_ v: LayerValue) -> [Double] {
  switch v {
  case .number(let a): [a]
  case .point(let p): [p.x, p.y]
  case .size(let s): [s.width, s.height]
  case .rect(let r): [r.origin.x, r.origin.y, r.size.width, r.size.height]
  case .affineTransform(let t): [t.a, t.b, t.c, t.d, t.tx, t.ty]
  case .transform3D(let t): t.rowMajor
  case .color(let c): [c.red, c.green, c.blue, c.alpha]
  }
}

private let rotA = Transform3D(rotationAngle: -0.4, x: 0, y: 1, z: 0)
private let rotB = Transform3D(rotationAngle: 0.4, x: 0, y: 1, z: 0)

private let cases: [InterpolationCase] = [
  InterpolationCase(name: "number", lo: .number(-40), hi: .number(40)) { [lerp(-40, 40, $0)] },
  InterpolationCase(
    name: "point", lo: .point(Point(x: -10, y: 4)), hi: .point(Point(x: 30, y: -8))
  ) { [lerp(-10, 30, $0), lerp(4, -8, $0)] },
  InterpolationCase(
    name: "size", lo: .size(Size(width: 0, height: 2)), hi: .size(Size(width: 6, height: -2))
  ) { [lerp(0, 6, $0), lerp(2, -2, $0)] },
  InterpolationCase(
    name: "rect", lo: .rect(Rect(x: 1, y: 2, width: 3, height: 4)),
    hi: .rect(Rect(x: -1, y: 0, width: 7, height: 0))
  ) { [lerp(1, -1, $0), lerp(2, 0, $0), lerp(3, 7, $0), lerp(4, 0, $0)] },
  InterpolationCase(
    name: "affineTransform", lo: .affineTransform(AffineTransform(translationX: -5, y: 0)),
    hi: .affineTransform(AffineTransform(scaleX: 2, y: 3))
  ) { t in [lerp(1, 2, t), 0, 0, lerp(1, 3, t), lerp(-5, 0, t), 0] },
  InterpolationCase(name: "transform3D", lo: .transform3D(rotA), hi: .transform3D(rotB)) { t in
    zip(rotA.rowMajor, rotB.rowMajor).map { lerp($0, $1, t) }
  },
  InterpolationCase(
    name: "color", lo: .color(Color(red: 1, green: 0, blue: 0.2, alpha: 1)),
    hi: .color(Color(red: 0, green: 0.5, blue: 1, alpha: 0.5))
  ) { t in [lerp(1, 0, t), lerp(0, 0.5, t), lerp(0.2, 1, t), lerp(1, 0.5, t)] },
]

@Suite("InterpolatingMotionEffect")
private struct InterpolatingMotionEffectTests {
  @Test("value = lerp(min, max, offset·0.5 + 0.5) for every value kind", arguments: cases)
  func everyKind(_ c: InterpolationCase) throws {
    for type in InterpolatingMotionEffect.EffectType.allCases {
      var e = InterpolatingMotionEffect(keyPath: "layer.k", type: type)
      e.minimumRelativeValue = c.lo
      e.maximumRelativeValue = c.hi
      for o in [-1.0, -0.5, 0, 0.3, 1] {
        let offset =
          type == .tiltAlongHorizontalAxis
          ? ViewerOffset(horizontal: o, vertical: 0.9)
          : ViewerOffset(horizontal: -0.7, vertical: o)
        let values = try #require(e.keyPathsAndRelativeValues(forViewerOffset: offset))
        #expect(Array(values.keys) == ["layer.k"])
        let value = try #require(values["layer.k"])
        let got = components(value)
        let want = c.expected(o * 0.5 + 0.5)
        #expect(got.count == want.count)
        for (g, w) in zip(got, want) {
          #expect(abs(g - w) < 1e-12, "\(c.name) \(type) offset \(o): \(got) vs \(want)")
        }
      }
    }
  }

  @Test("typed initializer stores the values for each convertible type")
  func typedInit() throws {
    let e = InterpolatingMotionEffect(
      keyPath: "center", type: .tiltAlongVerticalAxis,
      minimumRelativeValue: Point(x: -3, y: -4), maximumRelativeValue: Point(x: 3, y: 4))
    let v = try #require(
      e.keyPathsAndRelativeValues(forViewerOffset: ViewerOffset(horizontal: 1, vertical: 0.5)))
    #expect(v["center"] == .point(Point(x: 1.5, y: 2)))
    let c = InterpolatingMotionEffect(
      keyPath: "backgroundColor", type: .tiltAlongHorizontalAxis,
      minimumRelativeValue: Color.black, maximumRelativeValue: Color.white)
    #expect(
      c.keyPathsAndRelativeValues(forViewerOffset: .zero)?["backgroundColor"]
        == .color(Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)))
  }

  @Test("nothing until the key path, minimum and maximum are all set")
  func nothingUntilSet() {
    var e = InterpolatingMotionEffect(keyPath: "center.x", type: .tiltAlongHorizontalAxis)
    #expect(e.keyPathsAndRelativeValues(forViewerOffset: .zero) == nil)
    e.minimumRelativeValue = .number(-40)
    #expect(e.keyPathsAndRelativeValues(forViewerOffset: .zero) == nil)
    e.maximumRelativeValue = .number(40)
    #expect(e.keyPathsAndRelativeValues(forViewerOffset: .zero) == ["center.x": .number(0)])
    e.keyPath = ""
    #expect(e.keyPathsAndRelativeValues(forViewerOffset: .zero) == nil)
    e.keyPath = "center.x"
    e.maximumRelativeValue = .point(.zero)
    #expect(e.keyPathsAndRelativeValues(forViewerOffset: .zero) == nil, "mismatched kinds")
  }

  @Test("offsets are clamped to ±(1 + boost) (accelerated output range)")
  func boostClamp() {
    var e = InterpolatingMotionEffect(keyPath: "center.x", type: .tiltAlongHorizontalAxis)
    e.minimumRelativeValue = .number(-40)
    e.maximumRelativeValue = .number(40)
    let far = ViewerOffset(horizontal: 3, vertical: 0)
    #expect(e.keyPathsAndRelativeValues(forViewerOffset: far) == ["center.x": .number(40)])
    #expect(
      e.keyPathsAndRelativeValues(forViewerOffset: ViewerOffset(horizontal: -3, vertical: 0))
        == ["center.x": .number(-40)])
    e.horizontalAccelerationBoostFactor = 1
    #expect(e.keyPathsAndRelativeValues(forViewerOffset: far) == ["center.x": .number(80)])
    e.verticalAccelerationBoostFactor = 5
    #expect(
      e.keyPathsAndRelativeValues(forViewerOffset: ViewerOffset(horizontal: 1.5, vertical: 9))
        == ["center.x": .number(60)])
    #expect(
      e.keyPathsAndRelativeValues(forViewerOffset: ViewerOffset(horizontal: .nan, vertical: 0))
        == ["center.x": .number(0)])
  }
}
