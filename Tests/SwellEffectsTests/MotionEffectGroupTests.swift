import Foundation
import SwellEffects
import SwellGeometry
import SwellLayers
import Testing

/// The UIMotionEffect seed's custom effect: horizontal offset moves center.y by 512·offset.
struct SeedBounceEffect: MotionEffect {
  func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset)
    -> [String: LayerValue]?
  {
    ["center.y": .number(512 * viewerOffset.horizontal)]
  }
}

/// A custom effect with a stored property, for coding tests.
struct ScaledOpacityEffect: MotionEffect {
  var gain: Double
  static var effectTypeName: String { "scaledOpacity" }
  func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset)
    -> [String: LayerValue]?
  {
    ["opacity": .number(gain * viewerOffset.vertical)]
  }
}

func interpolating(
  _ keyPath: String, _ type: InterpolatingMotionEffect.EffectType, _ lo: Double, _ hi: Double
) -> InterpolatingMotionEffect {
  InterpolatingMotionEffect(
    keyPath: keyPath, type: type, minimumRelativeValue: lo, maximumRelativeValue: hi)
}

@Suite("Custom effects and groups")
private struct MotionEffectGroupTests {
  @Test(
    "the seed's custom effect returns center.y = 512·horizontal",
    arguments: [-1.0, -0.25, 0, 0.5, 1])
  func seedCustomEffect(h: Double) {
    let e = SeedBounceEffect()
    #expect(
      e.keyPathsAndRelativeValues(forViewerOffset: ViewerOffset(horizontal: h, vertical: 0.7))
        == ["center.y": .number(512 * h)])
  }

  @Test("a group asks every child and sums values for the same key path")
  func groupSums() throws {
    let g = MotionEffectGroup([
      interpolating("center.x", .tiltAlongHorizontalAxis, -40, 40),
      interpolating("center.x", .tiltAlongVerticalAxis, 0, 10),
      interpolating("center.y", .tiltAlongVerticalAxis, -20, 20),
      SeedBounceEffect(),
    ])
    let o = ViewerOffset(horizontal: 0.5, vertical: -0.5)
    let v = try #require(g.keyPathsAndRelativeValues(forViewerOffset: o))
    #expect(v["center.x"] == .number(20 + 2.5))
    #expect(v["center.y"] == .number(-10 + 256))
    #expect(v.count == 2)
  }

  @Test("transforms in a group concatenate, points add component-wise")
  func groupKinds() throws {
    let a = Transform3D(rotationAngle: 0.2, x: 0, y: 0, z: 1)
    let b = Transform3D(translationX: 5, y: 0, z: 0)
    let g = MotionEffectGroup([
      InterpolatingMotionEffect(
        keyPath: "transform", type: .tiltAlongHorizontalAxis, minimumRelativeValue: a,
        maximumRelativeValue: a),
      InterpolatingMotionEffect(
        keyPath: "transform", type: .tiltAlongHorizontalAxis, minimumRelativeValue: b,
        maximumRelativeValue: b),
      InterpolatingMotionEffect(
        keyPath: "center", type: .tiltAlongHorizontalAxis,
        minimumRelativeValue: Point(x: -1, y: -1), maximumRelativeValue: Point(x: 1, y: 1)),
      InterpolatingMotionEffect(
        keyPath: "center", type: .tiltAlongVerticalAxis, minimumRelativeValue: Point(x: 0, y: 0),
        maximumRelativeValue: Point(x: 4, y: 8)),
    ])
    let v = try #require(
      g.keyPathsAndRelativeValues(forViewerOffset: ViewerOffset(horizontal: 1, vertical: 0)))
    let tv = try #require(v["transform"])
    let t = try #require(Transform3D(layerValue: tv))
    // Independent: the product a·b in the row-vector convention.
    let ra = a.rowMajor
    let rb = b.rowMajor
    for i in 0..<4 {
      for j in 0..<4 {
        let want = (0..<4).reduce(0.0) { $0 + ra[i * 4 + $1] * rb[$1 * 4 + j] }
        #expect(abs(t.rowMajor[i * 4 + j] - want) < 1e-12)
      }
    }
    #expect(v["center"] == .point(Point(x: 3, y: 5)))
  }

  @Test("children that return nothing give nil; mismatched kinds keep the first value")
  func groupNil() {
    #expect(MotionEffectGroup().keyPathsAndRelativeValues(forViewerOffset: .zero) == nil)
    #expect(
      MotionEffectGroup([InterpolatingMotionEffect(keyPath: "x", type: .tiltAlongHorizontalAxis)])
        .keyPathsAndRelativeValues(forViewerOffset: .zero) == nil)
    let g = MotionEffectGroup([
      interpolating("k", .tiltAlongHorizontalAxis, 1, 1),
      InterpolatingMotionEffect(
        keyPath: "k", type: .tiltAlongHorizontalAxis, minimumRelativeValue: Point(x: 1, y: 1),
        maximumRelativeValue: Point(x: 1, y: 1)),
    ])
    #expect(g.keyPathsAndRelativeValues(forViewerOffset: .zero) == ["k": .number(1)])
  }

  @Test("effects round-trip through JSON with their type tags")
  func codableRoundTrip() throws {
    AnyMotionEffect.register(ScaledOpacityEffect.self)
    AnyMotionEffect.register(SeedBounceEffect.self)
    var boosted = interpolating("center.x", .tiltAlongHorizontalAxis, -40, 40)
    boosted.horizontalAccelerationBoostFactor = 0.5
    var parallax = ParallaxEffect(depth: 0.6, elementSize: Size(width: 390, height: 844))
    parallax.limitX = 12
    parallax.invertY = false
    var tilt = TiltCardEffect()
    tilt.reverse = true
    tilt.axis = .horizontal
    let all: [any MotionEffect] = [
      boosted,
      InterpolatingMotionEffect(keyPath: "layer.transform", type: .tiltAlongVerticalAxis),
      InterpolatingMotionEffect(
        keyPath: "center", type: .tiltAlongVerticalAxis, minimumRelativeValue: Point(x: -1, y: 2),
        maximumRelativeValue: Point(x: 3, y: 4)),
      InterpolatingMotionEffect(
        keyPath: "bounds.size", type: .tiltAlongVerticalAxis,
        minimumRelativeValue: Size(width: 1, height: 2),
        maximumRelativeValue: Size(width: 3, height: 4)),
      InterpolatingMotionEffect(
        keyPath: "bounds", type: .tiltAlongVerticalAxis,
        minimumRelativeValue: Rect(x: 1, y: 2, width: 3, height: 4), maximumRelativeValue: Rect.zero
      ),
      InterpolatingMotionEffect(
        keyPath: "transform", type: .tiltAlongVerticalAxis,
        minimumRelativeValue: AffineTransform(rotationAngle: 1),
        maximumRelativeValue: AffineTransform.identity),
      InterpolatingMotionEffect(
        keyPath: "transform", type: .tiltAlongHorizontalAxis,
        minimumRelativeValue: Transform3D(perspectiveDistance: 500),
        maximumRelativeValue: Transform3D.identity),
      InterpolatingMotionEffect(
        keyPath: "backgroundColor", type: .tiltAlongHorizontalAxis,
        minimumRelativeValue: Color.black,
        maximumRelativeValue: Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)),
      MotionEffectGroup([SeedBounceEffect(), ScaledOpacityEffect(gain: 0.25)]),
      parallax, tilt, TiltGlareEffect(travel: Size(width: 30, height: 40), maxGlare: 0.6),
    ]
    let encoded = try JSONEncoder().encode(all.map(AnyMotionEffect.init))
    let decoded = try JSONDecoder().decode([AnyMotionEffect].self, from: encoded)
    #expect(decoded.count == all.count)
    for (d, e) in zip(decoded, all) {
      #expect(d.base.isEqual(to: e), "\(type(of: e)) did not round-trip")
      #expect(type(of: d.base) == type(of: e))
    }
    let text = String(decoding: encoded, as: UTF8.self)
    #expect(text.contains(#""effect":"interpolating""#))
    #expect(text.contains(#""minimumRelativeValue":-40"#))
    #expect(text.contains(#""effect":"group""#))
    #expect(text.contains(#""effect":"scaledOpacity""#))
  }

  @Test("a scene-file effect decodes from hand-written JSON; unknown types are named")
  func decodeHandWritten() throws {
    let json = #"""
      {"effect": "interpolating", "keyPath": "center.x", "type": "tiltAlongHorizontalAxis",
       "minimumRelativeValue": -40, "maximumRelativeValue": 40}
      """#
    let e = try JSONDecoder().decode(AnyMotionEffect.self, from: Data(json.utf8))
    #expect(e.base.isEqual(to: interpolating("center.x", .tiltAlongHorizontalAxis, -40, 40)))
    let bad = #"{"effect": "wobble", "keyPath": "x"}"#
    do {
      _ = try JSONDecoder().decode(AnyMotionEffect.self, from: Data(bad.utf8))
      Issue.record("an unknown effect type decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.contains("wobble"))
    }
    let badValue = #"""
      {"effect": "interpolating", "keyPath": "x", "type": "tiltAlongHorizontalAxis",
       "minimumRelativeValue": {"vector": 1}}
      """#
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(AnyMotionEffect.self, from: Data(badValue.utf8))
    }
  }
}
