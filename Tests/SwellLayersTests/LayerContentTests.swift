import SwellGeometry
import SwellLayers
import Testing

/// A shape layer written outside the package.
private final class StarLayer: ShapeLayer {}

/// A plain layer written outside the package that draws as a shape it keeps.
private final class BadgeLayer: Layer {
  let badge = ShapeLayer()
  override var drawnContent: LayerContent { .shape(badge) }
}

@Suite("What a layer draws of its own (Layer.drawnContent)")
private struct LayerContentTests {
  @Test("plain layers draw nothing of their own; shape and image layers are themselves")
  func kinds() {
    guard case .none = Layer().drawnContent else {
      Issue.record("a plain layer draws something")
      return
    }
    let shape = ShapeLayer()
    if case .shape(let s) = shape.drawnContent {
      #expect(s === shape)
    } else {
      Issue.record("shape")
    }
    let image = ImageLayer()
    if case .image(let i) = image.drawnContent {
      #expect(i === image)
    } else {
      Issue.record("image")
    }
  }

  @Test("subclasses written outside the package keep or choose their kind")
  func subclasses() {
    let star = StarLayer()
    if case .shape(let s) = star.drawnContent { #expect(s === star) } else { Issue.record("star") }
    let badge = BadgeLayer()
    if case .shape(let s) = badge.drawnContent {
      #expect(s === badge.badge)
    } else {
      Issue.record("badge")
    }
  }
}
