import SwellGeometry
import SwellLayers
import SwellTestSupport
import Testing

@Suite("Layer key paths")
private struct LayerKeyPathTests {
  /// Every documented key path with a value to write (distinct from the defaults).
  static let documented: [(String, LayerValue)] = [
    ("position", .point(Point(x: 12, y: -7))),
    ("position.x", .number(33)),
    ("position.y", .number(-4)),
    ("bounds", .rect(Rect(x: 1, y: 2, width: 30, height: 40))),
    ("bounds.origin", .point(Point(x: 5, y: 6))),
    ("bounds.origin.x", .number(7)),
    ("bounds.origin.y", .number(8)),
    ("bounds.size", .size(Size(width: 70, height: 80))),
    ("bounds.size.width", .number(90)),
    ("bounds.size.height", .number(91)),
    ("anchorPoint", .point(Point(x: 0, y: 1))),
    ("anchorPoint.x", .number(0.25)),
    ("anchorPoint.y", .number(0.75)),
    ("transform", .transform3D(Transform3D(translationX: 1, y: 2, z: 3))),
    ("transform.rotation.x", .number(0.3)),
    ("transform.rotation.y", .number(-0.4)),
    ("transform.rotation.z", .number(1.2)),
    ("transform.scale.x", .number(2)),
    ("transform.scale.y", .number(3)),
    ("transform.scale.z", .number(4)),
    ("transform.scale.xy", .number(1.5)),
    ("transform.translation.x", .number(10)),
    ("transform.translation.y", .number(-20)),
    ("transform.translation.z", .number(30)),
    ("opacity", .number(0.4)),
    ("backgroundColor", .color(Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))),
    ("cornerRadius", .number(6)),
    ("borderWidth", .number(2)),
    ("borderColor", .color(Color(red: 1, green: 0, blue: 0))),
    ("zPosition", .number(5)),
  ]

  @Test("Every documented key path round trips", arguments: 0..<30)
  func roundTrip(index: Int) throws {
    let (path, value) = Self.documented[index]
    let layer = Layer()
    #expect(layer.value(forKeyPath: path) != nil, "\(path) is readable")
    #expect(
      layer.value(forKeyPath: path) != value, "\(path): the test value differs from the default")
    #expect(layer.setValue(value, forKeyPath: path), "\(path)")
    let back = try #require(layer.value(forKeyPath: path))
    switch (back, value) {
    case (.number(let a), .number(let b)): #expect(abs(a - b) < 1e-12, "\(path)")
    default: #expect(back == value, "\(path)")
    }
  }

  @Test("Key paths write the stored properties")
  func writesProperties() {
    let l = Layer()
    l.setValue(.number(3), forKeyPath: "position.x")
    l.setValue(.number(4), forKeyPath: "position.y")
    #expect(l.position == Point(x: 3, y: 4))
    l.setValue(.number(50), forKeyPath: "bounds.size.width")
    #expect(l.bounds.size.width == 50)
    l.setValue(.number(0.5), forKeyPath: "opacity")
    #expect(l.opacity == 0.5)
    l.setValue(
      .affineTransform(SwellGeometry.AffineTransform(scaleX: 2, y: 3)), forKeyPath: "transform")
    #expect(l.transform == Transform3D(scaleX: 2, y: 3, z: 1))
    l.setValue(.color(.white), forKeyPath: "backgroundColor")
    #expect(l.backgroundColor == .white)
    #expect(Layer().value(forKeyPath: "backgroundColor") == .color(.clear))
  }

  @Test(
    "UIKit spellings map onto Core Animation key paths",
    arguments: [
      ("center", "position"), ("center.x", "position.x"), ("center.y", "position.y"),
      ("alpha", "opacity"), ("layer.position", "position"), ("layer.opacity", "opacity"),
      ("transform.rotation", "transform.rotation.z"),
      ("layer.transform.rotation", "transform.rotation.z"),
      ("layer.transform.rotation.y", "transform.rotation.y"),
      ("transform.scale", "transform.scale.xy"),
      ("frame.size", "bounds.size"), ("frame.size.width", "bounds.size.width"),
      ("layer.shadowOffset", "shadowOffset"), ("bounds", "bounds"), ("centre", "centre"),
    ])
  func uikitSpellings(uikit: String, canonical: String) {
    #expect(LayerKeyPath.canonical(uikit) == canonical)
  }

  @Test("UIKit spellings read and write through a layer")
  func uikitOnLayer() {
    let l = Layer()
    #expect(l.setValue(.point(Point(x: 5, y: 6)), forKeyPath: "center"))
    #expect(l.position == Point(x: 5, y: 6))
    #expect(l.setValue(.number(0.25), forKeyPath: "alpha"))
    #expect(l.value(forKeyPath: "layer.opacity") == .number(0.25))
    #expect(l.setValue(.number(0.5), forKeyPath: "layer.transform.rotation"))
    #expect(abs(number(l.value(forKeyPath: "transform.rotation.z")) - 0.5) < 1e-15)
    #expect(l.setValue(.number(40), forKeyPath: "frame.size.height"))
    #expect(l.bounds.size.height == 40)
  }

  @Test("transform.rotation.z composes with scale and translation")
  func rotationComposes() {
    let l = Layer()
    l.setValue(.number(2), forKeyPath: "transform.scale")
    l.setValue(.number(10), forKeyPath: "transform.translation.x")
    l.setValue(.number(.pi / 2), forKeyPath: "transform.rotation.z")
    // Scale, then a quarter turn clockwise on screen, then translate: (1, 0) → (2, 0) → (0, 2)
    // → (10, 2).
    #expect(maxDifference(l.transform.apply(to: Point(x: 1, y: 0)), Point(x: 10, y: 2)) < 1e-12)
    #expect(abs(number(l.value(forKeyPath: "transform.scale.x")) - 2) < 1e-12)
    #expect(abs(number(l.value(forKeyPath: "transform.translation.x")) - 10) < 1e-12)
    // The other order of writes gives the same transform.
    let m = Layer()
    m.setValue(.number(.pi / 2), forKeyPath: "transform.rotation.z")
    m.setValue(.number(10), forKeyPath: "transform.translation.x")
    m.setValue(.number(2), forKeyPath: "transform.scale.xy")
    #expect(maxDifference(m.transform, l.transform) < 1e-12)
  }

  @Test("Sub-key paths decompose a transform set as a whole", arguments: propertySeeds)
  func decomposition(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<100 {
      let sx = Double.random(in: 0.2...3, using: &rng)
      let sy = Double.random(in: 0.2...3, using: &rng)
      let rx = Double.random(in: -3...3, using: &rng)
      let ry = Double.random(in: -1.5...1.5, using: &rng)
      let rz = Double.random(in: -3...3, using: &rng)
      // Built independently of the layer: scale, then rotations about x, y, z, then translation.
      let t = Transform3D(scaleX: sx, y: sy, z: 1)
        .concatenating(Transform3D(rotationAngle: rx, x: 1, y: 0, z: 0))
        .concatenating(Transform3D(rotationAngle: ry, x: 0, y: 1, z: 0))
        .concatenating(Transform3D(rotationAngle: rz, x: 0, y: 0, z: 1))
        .concatenating(Transform3D(translationX: 4, y: 5, z: 6))
      let l = Layer()
      l.transform = t
      let expected: [(String, Double)] = [
        ("transform.scale.x", sx), ("transform.scale.y", sy), ("transform.rotation.x", rx),
        ("transform.rotation.y", ry), ("transform.rotation.z", rz), ("transform.translation.z", 6),
      ]
      for (path, v) in expected {
        #expect(abs(number(l.value(forKeyPath: path)) - v) < 1e-9, "seed \(seed): \(path)")
      }
    }
  }

  @Test("Angles beyond ±π (and rotation.y beyond ±π/2) read back as written")
  func anglesBeyondPi() {
    let l = Layer()
    l.setValue(.number(3.5), forKeyPath: "transform.rotation.z")
    #expect(number(l.value(forKeyPath: "transform.rotation.z")) == 3.5)
    l.setValue(.number(-7), forKeyPath: "transform.rotation.z")
    #expect(number(l.value(forKeyPath: "transform.rotation.z")) == -7)
    // rotation.y past the decomposition's ±π/2 range, then rotation.x: composes as written.
    let m = Layer()
    m.setValue(.number(2), forKeyPath: "transform.rotation.y")
    m.setValue(.number(0.1), forKeyPath: "transform.rotation.x")
    #expect(number(m.value(forKeyPath: "transform.rotation.y")) == 2)
    let expected = Transform3D(rotationAngle: 0.1, x: 1, y: 0, z: 0)
      .concatenating(Transform3D(rotationAngle: 2, x: 0, y: 1, z: 0))
    #expect(maxDifference(m.transform, expected) < 1e-12)
    // Setting the whole transform drops the remembered components.
    m.transform = Transform3D(rotationAngle: 0.5, x: 0, y: 0, z: 1)
    #expect(abs(number(m.value(forKeyPath: "transform.rotation.z")) - 0.5) < 1e-12)
    #expect(abs(number(m.value(forKeyPath: "transform.rotation.y"))) < 1e-12)
  }

  @Test("A mirrored transform decomposes with a negative x scale and stays mirrored")
  func mirrored() {
    let l = Layer()
    l.transform = Transform3D(scaleX: -1, y: 1, z: 1)
      .concatenating(Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1))
    #expect(abs(number(l.value(forKeyPath: "transform.scale.x")) + 1) < 1e-12)
    #expect(abs(number(l.value(forKeyPath: "transform.rotation.z")) - 0.3) < 1e-12)
    l.setValue(.number(7), forKeyPath: "transform.translation.x")
    let expected = Transform3D(scaleX: -1, y: 1, z: 1)
      .concatenating(Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1))
      .concatenating(Transform3D(translationX: 7, y: 0, z: 0))
    #expect(maxDifference(l.transform, expected) < 1e-12)
    // The common flip idiom round trips too.
    let m = Layer()
    m.setValue(.number(-1), forKeyPath: "transform.scale.x")
    #expect(number(m.value(forKeyPath: "transform.scale.x")) == -1)
    let n = Layer()
    n.transform = Transform3D(scaleX: 1, y: -2, z: 1)
    // A y flip is the same matrix as an x flip turned by π.
    n.setValue(.number(0), forKeyPath: "transform.translation.y")
    #expect(maxDifference(n.transform, Transform3D(scaleX: 1, y: -2, z: 1)) < 1e-12)
  }

  @Test(
    "Unknown key paths and mismatched kinds change nothing",
    arguments: [
      "frame", "shadowOffset", "position.z", "transform.rotation.w", "", "transform.",
      "bounds.size.depth",
    ])
  func unknown(path: String) {
    let l = Layer()
    l.position = Point(x: 1, y: 2)
    #expect(l.value(forKeyPath: path) == nil)
    #expect(!l.setValue(.number(3), forKeyPath: path))
    #expect(!l.setValue(.point(.zero), forKeyPath: path))
    #expect(l.position == Point(x: 1, y: 2))
    #expect(l.transform == .identity)
  }

  @Test("A value of the wrong kind is refused")
  func wrongKind() {
    let l = Layer()
    #expect(!l.setValue(.number(3), forKeyPath: "position"))
    #expect(!l.setValue(.point(.zero), forKeyPath: "opacity"))
    #expect(!l.setValue(.color(.white), forKeyPath: "transform.rotation.z"))
    #expect(l.position == .zero && l.opacity == 1 && l.transform == .identity)
  }

  @Test("ShapeLayer adds fillColor, strokeColor and lineWidth")
  func shapeLayerKeyPaths() {
    let s = ShapeLayer()
    #expect(s.value(forKeyPath: "fillColor") == .color(.black))
    #expect(s.value(forKeyPath: "strokeColor") == .color(.clear))
    #expect(s.setValue(.color(.white), forKeyPath: "fillColor"))
    #expect(s.setValue(.color(Color(red: 1, green: 0, blue: 0)), forKeyPath: "layer.strokeColor"))
    #expect(s.setValue(.number(3), forKeyPath: "lineWidth"))
    #expect(s.fillColor == .white && s.strokeColor == Color(red: 1, green: 0, blue: 0))
    #expect(s.lineWidth == 3)
    #expect(s.setValue(.number(9), forKeyPath: "position.x"))
    #expect(s.position.x == 9)
    #expect(!s.setValue(.number(1), forKeyPath: "fillColor"))
    #expect(Layer().value(forKeyPath: "fillColor") == nil)
  }

  @Test("Swift key paths name their Core Animation key paths")
  func swiftKeyPaths() {
    #expect(Layer.keyPathString(for: \Layer.position) == "position")
    #expect(Layer.keyPathString(for: \Layer.position.x) == "position.x")
    #expect(Layer.keyPathString(for: \Layer.opacity) == "opacity")
    #expect(Layer.keyPathString(for: \Layer.transform) == "transform")
    #expect(Layer.keyPathString(for: \Layer.name) == nil)
  }

  @Test("frame derives from position, bounds size and anchor point")
  func frame() {
    let l = Layer(name: "a", frame: Rect(x: 10, y: 20, width: 100, height: 50))
    #expect(l.position == Point(x: 60, y: 45))
    #expect(l.bounds.size == Size(width: 100, height: 50))
    l.anchorPoint = Point(x: 0, y: 0)
    #expect(l.frame == Rect(x: 60, y: 45, width: 100, height: 50))
    l.frame = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(l.position == .zero)
  }

  @Test("transformToSuperlayer pivots about the anchor point")
  func transformToSuperlayer() {
    let l = Layer()
    l.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
    l.position = Point(x: 200, y: 300)
    l.setValue(.number(.pi / 2), forKeyPath: "transform.rotation.z")
    let m = l.transformToSuperlayer
    // The anchor lands on the position; the top-left corner (−50, −25 from the anchor) turns
    // clockwise to (25, −50).
    #expect(maxDifference(m.apply(to: Point(x: 50, y: 25)), Point(x: 200, y: 300)) < 1e-12)
    #expect(maxDifference(m.apply(to: .zero), Point(x: 225, y: 250)) < 1e-12)
  }
}
