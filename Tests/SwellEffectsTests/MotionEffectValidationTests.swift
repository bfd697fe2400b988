import SwellEffects
import SwellGeometry
import SwellLayers
import Synchronization
import Testing

/// A custom effect that moves a key path no layer has.
private struct ShadowEffect: MotionEffect {
  func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset) -> [String:
    LayerValue]?
  {
    ["shadowOffset": .size(Size(width: 4 * viewerOffset.horizontal, height: 0))]
  }
}

/// Runs `body` with the motion-effect problems it reports collected.
private func collecting(_ body: () -> Void) -> [MotionEffectProblem] {
  let box = Mutex<[MotionEffectProblem]>([])
  let collect: @Sendable (MotionEffectProblem) -> Void = { p in box.withLock { $0.append(p) } }
  MotionEffectDiagnostics.withReporter(collect) { body() }
  return box.withLock { $0 }
}

@Suite("Motion effect validation")
private struct MotionEffectValidationTests {
  @Test("a layer lists its key paths and their kinds; subclasses add their own")
  func supportedKeyPaths() {
    let layer = Layer()
    #expect(layer.supportedKeyPaths["position.x"] == .number)
    #expect(layer.supportedKeyPaths["position"] == .point)
    #expect(layer.supportedKeyPaths["transform"] == .transform3D)
    #expect(layer.supportedKeyPaths["fillColor"] == nil)
    let shape = ShapeLayer()
    #expect(shape.supportedKeyPaths["fillColor"] == .color)
    #expect(shape.supportedKeyPaths["lineWidth"] == .number)
    // Every listed key path reads back with the listed kind.
    for (path, kind) in shape.supportedKeyPaths {
      #expect(shape.valueKind(forKeyPath: path) == kind, "\(path)")
    }
    #expect(layer.valueKind(forKeyPath: "center.x") == .number)
    #expect(layer.valueKind(forKeyPath: "centre.x") == nil)
  }

  @Test("keyPathProblem names unknown key paths (with a suggestion) and kind mismatches")
  func keyPathProblems() {
    let layer = Layer()
    #expect(layer.keyPathProblem("center.x", value: .number(3)) == nil)
    #expect(layer.keyPathProblem("layer.transform", value: .affineTransform(.identity)) == nil)
    #expect(
      layer.keyPathProblem("postion.x", value: .number(1))
        == .unknownKeyPath("postion.x", suggestion: "position.x"))
    #expect(
      layer.keyPathProblem("centre.x", value: .number(1))
        == .unknownKeyPath("centre.x", suggestion: "center.x"))
    #expect(
      layer.keyPathProblem("shadowOffset", value: .size(.zero))
        == .unknownKeyPath("shadowOffset", suggestion: nil))
    #expect(
      layer.keyPathProblem("position.x", value: .point(.zero))
        == .kindMismatch(keyPath: "position.x", expected: .number, found: .point))
    #expect(
      LayerKeyPathProblem.unknownKeyPath("postion.x", suggestion: "position.x").description
        == "unknown key path 'postion.x' (did you mean 'position.x'?)")
  }

  @Test("a misspelt key path is reported once, naming the effect and the layer")
  func misspeltReportedOnce() {
    let card = Layer(name: "card", frame: Rect(x: 0, y: 0, width: 10, height: 10))
    let effect = InterpolatingMotionEffect(
      keyPath: "postion.x", type: .tiltAlongHorizontalAxis, minimumRelativeValue: -10.0,
      maximumRelativeValue: 10.0)
    let reported = collecting {
      card.addMotionEffect(effect)
      let applicator = MotionEffectApplicator()
      for h in [-1.0, 0.5, 1.0] {
        applicator.apply(ViewerOffset(horizontal: h, vertical: 0), to: card)
      }
      card.motionEffects = card.motionEffects
    }
    #expect(reported.count == 1)
    #expect(
      reported.first?.description
        == "interpolating effect on 'postion.x' of layer 'card': unknown key path 'postion.x' "
        + "(did you mean 'position.x'?)")
    #expect(card.reportedMotionEffectProblems == reported)
    #expect(card.presentation(at: 0).position == card.position)
  }

  @Test("a custom effect returning shadowOffset is reported")
  func customEffect() {
    let layer = ShapeLayer()
    let reported = collecting { layer.addMotionEffect(ShadowEffect()) }
    #expect(reported.count == 1)
    #expect(reported.first?.reason == .keyPath(.unknownKeyPath("shadowOffset", suggestion: nil)))
    #expect(reported.first?.layer == "(unnamed ShapeLayer)")
    #expect(reported.first?.effect == "ShadowEffect effect")
  }

  @Test("minimum and maximum of different kinds are reported; a point onto a number too")
  func kinds() {
    let layer = Layer(name: "star", frame: .zero)
    var mixed = InterpolatingMotionEffect(keyPath: "center.x", type: .tiltAlongVerticalAxis)
    mixed.minimumRelativeValue = .point(Point(x: -1, y: 0))
    mixed.maximumRelativeValue = .number(1)
    let wrongKind = InterpolatingMotionEffect(
      keyPath: "center.x", type: .tiltAlongHorizontalAxis,
      minimumRelativeValue: Point(x: -5, y: 0), maximumRelativeValue: Point(x: 5, y: 0))
    let reported = collecting {
      layer.addMotionEffect(mixed)
      layer.addMotionEffect(MotionEffectGroup([wrongKind]))
    }
    #expect(
      reported.map(\.reason) == [
        .mixedKinds(keyPath: "center.x", minimum: .point, maximum: .number),
        .keyPath(.kindMismatch(keyPath: "center.x", expected: .number, found: .point)),
      ])
    #expect(reported.last?.effect == "group effect")
  }

  @Test("good effects report nothing; an unfinished one is found but not reported")
  func goodEffects() {
    let layer = ShapeLayer()
    let reported = collecting {
      layer.addMotionEffect(
        InterpolatingMotionEffect(
          keyPath: "center", type: .tiltAlongHorizontalAxis,
          minimumRelativeValue: Point(x: -5, y: 0), maximumRelativeValue: Point(x: 5, y: 0)))
      layer.addMotionEffect(
        InterpolatingMotionEffect(
          keyPath: "layer.transform", type: .tiltAlongVerticalAxis,
          minimumRelativeValue: AffineTransform(rotationAngle: -0.1),
          maximumRelativeValue: AffineTransform(rotationAngle: 0.1)))
      layer.addMotionEffect(
        InterpolatingMotionEffect(keyPath: "fillColor", type: .tiltAlongVerticalAxis))
    }
    #expect(reported.isEmpty)
    let unfinished = InterpolatingMotionEffect(keyPath: "fillColor", type: .tiltAlongVerticalAxis)
    #expect(
      layer.motionEffectProblems(unfinished).map(\.reason) == [
        .incomplete(
          keyPath: "fillColor", missing: ["minimumRelativeValue", "maximumRelativeValue"])
      ])
  }
}
