import SwellGeometry
import SwellLayers
import SwellTestSupport
import Testing

/// A time-dependent layer, like a wave: its presentation computes `phase` from the time.
private final class PhaseLayer: ShapeLayer {
  var speed = 0.0
  var phase = 0.0

  override func copyLayer() -> Layer {
    let l = PhaseLayer()
    copyShapeProperties(to: l)
    l.speed = speed
    l.phase = phase
    return l
  }

  override func prepareForPresentation(at time: Double) {
    phase = speed * time
  }
}

@Suite("Presentation and overlays")
private struct PresentationTests {
  @Test("Overlays add numbers, from several keys and spellings")
  func overlaysAddNumbers() {
    let l = Layer()
    l.position = Point(x: 100, y: 50)
    l.setOverlay(["center.x": .number(5), "position.x": .number(3)], forKey: "a")
    l.setOverlay(["layer.position.y": .number(-10), "alpha": .number(-0.25)], forKey: "b")
    let p = l.presentation(at: 0)
    #expect(p.position == Point(x: 108, y: 40))
    #expect(p.opacity == 0.75)
    // Replacing an overlay by key, then removing it.
    l.setOverlay(["position.x": .number(1)], forKey: "a")
    #expect(l.presentation(at: 0).position.x == 101)
    l.removeOverlay(forKey: "a")
    l.removeOverlay(forKey: "b")
    #expect(l.presentation(at: 0).position == Point(x: 100, y: 50))
    #expect(l.overlays.isEmpty)
  }

  @Test("Overlays add points and on top of running animations")
  func overlaysAddPointsAndAnimations() {
    let l = Layer()
    l.position = Point(x: 10, y: 10)
    l.animate(keyPath: "position", to: .point(Point(x: 30, y: 10)), duration: 2, at: 0)
    l.setOverlay(["center": .point(Point(x: 1, y: 2))], forKey: "parallax")
    #expect(l.presentation(at: 1).position == Point(x: 21, y: 12))
    #expect(l.presentation(at: 5).position == Point(x: 31, y: 12))
  }

  @Test("Transform overlays concatenate after the model transform")
  func overlaysConcatenateTransforms() throws {
    let l = Layer()
    l.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
    l.setOverlay(
      ["transform": .transform3D(Transform3D(translationX: 10, y: 0, z: 0))], forKey: "t")
    let t = l.presentation(at: 0).transform
    // Rotate (1, 0) to (0, 1), then translate: (10, 1). The other order would give (0, 11).
    #expect(maxDifference(t.apply(to: Point(x: 1, y: 0)), Point(x: 10, y: 1)) < 1e-12)
    // An affine overlay (UIKit's CGAffineTransform) is embedded.
    l.setOverlay(
      ["transform": .affineTransform(SwellGeometry.AffineTransform(scaleX: 2, y: 2))], forKey: "t")
    let s = l.presentation(at: 0).transform
    #expect(maxDifference(s.apply(to: Point(x: 1, y: 0)), Point(x: 0, y: 2)) < 1e-12)
    // Sub-key overlays like the tilt effect's rotation.y add to the angle.
    l.setOverlay(["layer.transform.rotation.y": .number(0.2)], forKey: "t")
    let y = try #require(l.presentationValue(forKeyPath: "transform.rotation.y", at: 0))
    #expect(abs(number(y) - 0.2) < 1e-12)
  }

  @Test("Unknown, mismatched and non-finite overlay values are skipped")
  func badOverlays() {
    let l = Layer()
    l.position = Point(x: 3, y: 4)
    l.setOverlay(
      [
        "nonsense": .number(1), "position": .number(2), "position.x": .number(.nan),
        "opacity": .number(.infinity),
      ],
      forKey: "bad")
    let p = l.presentation(at: 0)
    #expect(p.position == Point(x: 3, y: 4))
    #expect(p.opacity == 1)
  }

  @Test(
    "Positions moved by overlays snap to whole pixels",
    arguments: [(3.0, 10.4, 31.0 / 3), (3.0, 10.5, 32.0 / 3), (2.0, 10.3, 10.5), (1.0, 10.4, 10.0)]
      as [(Double, Double, Double)])
  func pixelSnapping(scale: Double, x: Double, snapped: Double) {
    let l = Layer()
    l.contentsScale = scale
    l.position = Point(x: 10, y: 20)
    l.setOverlay(["position.x": .number(x - 10)], forKey: "e")
    let p = l.presentation(at: 0).position
    #expect(abs(p.x - snapped) < 1e-12)
    #expect(p.y == 20)
  }

  @Test("Positions moved only by animations are not snapped")
  func animationsNotSnapped() {
    let l = Layer()
    l.contentsScale = 3
    l.animate(keyPath: "position.x", to: .number(1), duration: 1, at: 0)
    let x = l.presentation(at: 0.5).position.x
    #expect(abs(x - 0.5) < 1e-12)
  }

  @Test("Non-additive animations replace the model value, additive ones add to it")
  func nonAdditiveThenAdditive() {
    let l = Layer()
    l.opacity = 0.9
    l.add(
      BasicAnimation(
        keyPath: "opacity", fromValue: .number(0), toValue: .number(0.5), beginTime: 0, duration: 1),
      forKey: "fade")
    l.add(
      BasicAnimation(
        keyPath: "opacity", byValue: .number(0.2), beginTime: 0, duration: 1, isAdditive: true),
      forKey: "bump")
    #expect(abs(l.presentation(at: 0.5).opacity - (0.25 + 0.1)) < 1e-12)
    // Once both are over, the model value shows again.
    #expect(l.presentation(at: 1).opacity == 0.9)
  }

  @Test("A whole-transform animation applies before transform.* sub-key animations")
  func transformOrder() {
    let l = Layer()
    l.add(
      BasicAnimation(
        keyPath: "transform.rotation.z", byValue: .number(0.5), beginTime: 0, duration: 1,
        isAdditive: true),
      forKey: "spin")
    l.add(
      BasicAnimation(
        keyPath: "transform", toValue: .transform3D(Transform3D(scaleX: 2, y: 2, z: 1)),
        beginTime: 0,
        duration: 1, fillMode: .forwards, isRemovedOnCompletion: false),
      forKey: "grow")
    let p = l.presentation(at: 0.5)
    // Scale 1.5 from the whole-transform animation, then the rotation added on top of it.
    #expect(abs(number(p.value(forKeyPath: "transform.scale.x")) - 1.5) < 1e-12)
    #expect(abs(number(p.value(forKeyPath: "transform.rotation.z")) - 0.25) < 1e-12)
  }

  @Test("presentation(at:) copies the tree, detached from the model")
  func copiesTree() throws {
    let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100))
    let a = Layer(name: "a", frame: Rect(x: 10, y: 10, width: 20, height: 20))
    let b = Layer(name: "b", frame: Rect(x: 0, y: 0, width: 5, height: 5))
    root.addSublayer(a)
    a.addSublayer(b)
    root.addSublayer(Layer(name: "c", frame: .zero))
    b.animate(keyPath: "opacity", to: .number(0), duration: 1, at: 0)
    let p = root.presentation(at: 0.5)
    #expect(p !== root)
    #expect(p.allLayers.compactMap(\.name) == ["root", "a", "b", "c"])
    let pb = try #require(p.layer(named: "b"))
    #expect(pb !== b)
    #expect(pb.superlayer === p.layer(named: "a"))
    #expect(p.superlayer == nil)
    #expect(abs(pb.opacity - 0.5) < 1e-12)
    #expect(pb.animations.isEmpty && pb.overlays.isEmpty)
    // Changing the copy leaves the model alone.
    pb.opacity = 0.1
    pb.position = Point(x: 99, y: 99)
    #expect(b.opacity == 0 && b.position == Point(x: 2.5, y: 2.5))
    #expect(a.sublayers.count == 1 && root.sublayers.count == 2)
  }

  @Test("Every base property is copied")
  func copiesBaseProperties() {
    let l = Layer()
    l.name = "n"
    l.position = Point(x: 1, y: 2)
    l.bounds = Rect(x: 3, y: 4, width: 5, height: 6)
    l.anchorPoint = Point(x: 0.1, y: 0.2)
    l.transform = Transform3D(perspectiveDistance: 300)
    l.opacity = 0.3
    l.backgroundColor = .white
    l.cornerRadius = 7
    l.borderWidth = 8
    l.borderColor = Color(red: 0, green: 1, blue: 0)
    l.masksToBounds = true
    l.isHidden = true
    l.zPosition = 9
    l.contentsScale = 3
    let c = l.presentation(at: 0)
    #expect(c.name == "n" && c.position == l.position && c.bounds == l.bounds)
    #expect(c.anchorPoint == l.anchorPoint && c.transform == l.transform && c.opacity == 0.3)
    #expect(c.backgroundColor == .white && c.cornerRadius == 7 && c.borderWidth == 8)
    #expect(c.borderColor == l.borderColor && c.masksToBounds && c.isHidden)
    #expect(c.zPosition == 9 && c.contentsScale == 3)
  }

  @Test("Shape and image layers keep their class and properties in the presentation")
  func copiesSubclasses() throws {
    let root = Layer()
    let shape = ShapeLayer()
    shape.name = "shape"
    shape.path = Path(ellipseIn: Rect(x: 0, y: 0, width: 10, height: 20))
    shape.fillColor = nil
    shape.fillGradient = .vertical(from: .white, to: .black, space: .screenVertical)
    shape.fillRule = .evenOdd
    shape.strokeColor = Color(red: 1, green: 0, blue: 0)
    shape.lineWidth = 4
    let image = ImageLayer()
    image.name = "image"
    image.imagePath = "wallpaper.png"
    image.gravity = .resizeAspectFill
    root.addSublayer(shape)
    root.addSublayer(image)
    shape.animate(keyPath: "lineWidth", to: .number(8), duration: 1, at: 0)
    let p = root.presentation(at: 0.5)
    let s = try #require(p.layer(named: "shape") as? ShapeLayer)
    #expect(s.path == shape.path && s.fillColor == nil && s.fillGradient == shape.fillGradient)
    #expect(s.fillRule == .evenOdd && s.strokeColor == shape.strokeColor)
    #expect(abs(s.lineWidth - 6) < 1e-12)
    let i = try #require(p.layer(named: "image") as? ImageLayer)
    #expect(i.imagePath == "wallpaper.png" && i.gravity == .resizeAspectFill)
  }

  @Test("Subclasses compute time-dependent content on the presentation copy")
  func prepareForPresentation() throws {
    let wave = PhaseLayer()
    wave.speed = 2
    let p = try #require(wave.presentation(at: 3) as? PhaseLayer)
    #expect(p.phase == 6)
    #expect(wave.phase == 0)
    #expect(p.speed == 2)
  }

  @Test("Gradients pick colours along their stops")
  func gradientColors() {
    let g = LinearGradient(stops: [
      GradientStop(location: 0.2, color: .black), GradientStop(location: 0.6, color: .white),
      GradientStop(location: 0.6, color: Color(red: 1, green: 0, blue: 0)),
    ])
    #expect(g.color(at: 0) == .black)
    let mid = g.color(at: 0.4)
    #expect(abs(mid.red - 0.5) < 1e-12 && abs(mid.blue - 0.5) < 1e-12 && mid.alpha == 1)
    #expect(g.color(at: 0.9) == Color(red: 1, green: 0, blue: 0))
    #expect(LinearGradient(stops: []).color(at: 0.5) == .clear)
  }

  @Test("The tree: sublayer order, reparenting and lookup by name")
  func tree() {
    let root = Layer()
    let a = Layer(name: "a", frame: .zero)
    let b = Layer(name: "b", frame: .zero)
    root.addSublayer(a)
    root.insertSublayer(b, at: 0)
    #expect(root.sublayers.map(\.name) == ["b", "a"])
    a.addSublayer(b)
    #expect(root.sublayers.map(\.name) == ["a"])
    #expect(b.superlayer === a)
    #expect(root.layer(named: "b") === b)
    #expect(root.layer(named: "z") == nil)
    b.removeFromSuperlayer()
    #expect(a.sublayers.isEmpty && b.superlayer == nil)
    root.insertSublayer(b, at: 99)
    #expect(root.sublayers.last === b)
  }
}
