import Foundation
import SwellEffects
import SwellGeometry
import SwellLayers
import SwellWaves

/// The layer tree built from a ``SceneFile``, with the parts motion drives.
public struct SceneLayerTree {
  /// The root layer: the canvas, holding the top-level layers.
  public var root: Layer
  /// Every `waterWave` layer with its motion-response options, in file order.
  public var waters: [(layer: WaterWaveLayer, options: WaterWaveOptions)]
  /// Every layer with motion effects, in file order.
  public var effectLayers: [Layer]
  /// Every `waterWave` layer with the `physical` response, with its options, in file order.
  public var waterBodies: [(layer: WaterBodyLayer, options: PhysicalWaterOptions)] = []
}

extension SceneFile {
  /// The description with command-line options applied: the canvas size and scale overrides,
  /// the interface orientation, the seed-exact tilt rule, the water response model and Reduce
  /// Motion (for the water and the viewer offset).
  ///
  /// - Parameter options: The options; fields left at their defaults change nothing.
  /// - Returns: The adjusted description.
  public func applying(_ options: SceneOptions) -> SceneFile {
    var f = self
    if let w = options.width { f.canvas.width = w }
    if let h = options.height { f.canvas.height = h }
    if let s = options.scale { f.canvas.scale = s }
    if let o = options.orientation { f.orientation = o == .portrait ? nil : o }
    func adjust(_ specs: inout [LayerSpec]) {
      for i in specs.indices {
        if var water = specs[i].water {
          var r = water.response ?? WaterResponseSpec()
          if options.seedExact { r.tiltRule = .seedExact }
          if let m = options.waterResponse { r.model = m }
          if options.reduceMotion { r.reduceMotion = true }
          water.response = r
          specs[i].water = water
        }
        if var subs = specs[i].sublayers {
          adjust(&subs)
          specs[i].sublayers = subs
        }
      }
    }
    adjust(&f.layers)
    if options.reduceMotion {
      var v = f.viewerOffset ?? ViewerOffsetSpec()
      v.configuration.reduceMotion = true
      f.viewerOffset = v
    }
    return f
  }

  /// Builds the model layer tree: a root layer the size of the interface's canvas
  /// (``interfaceSize``) holding the layers.
  ///
  /// - Parameter baseDirectory: The folder relative image paths are resolved against.
  /// - Returns: The root layer.
  public func makeRootLayer(baseDirectory: URL?) -> Layer {
    makeLayerTree(baseDirectory: baseDirectory).root
  }

  /// Builds the model layer tree and collects the water layers and the layers with motion
  /// effects (call on a validated description).
  ///
  /// - Parameter baseDirectory: The folder relative image paths are resolved against.
  /// - Returns: The tree.
  public func makeLayerTree(baseDirectory: URL?) -> SceneLayerTree {
    let size = interfaceSize
    let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
    root.contentsScale = canvas.scale
    var tree = SceneLayerTree(root: root, waters: [], effectLayers: [])
    for s in layers {
      root.addSublayer(
        s.makeLayer(
          parentSize: root.bounds.size, baseDirectory: baseDirectory, scale: canvas.scale,
          tree: &tree))
    }
    return tree
  }
}

extension LayerSpec {
  /// Builds the model layer this description names, with its sublayers.
  func makeLayer(
    parentSize: Size, baseDirectory: URL?, scale: Double, tree: inout SceneLayerTree
  ) -> Layer {
    let f = frame ?? [0, 0, parentSize.width, parentSize.height]
    let rect = Rect(x: f[0], y: f[1], width: f[2], height: f[3])
    let layer: Layer
    switch type {
    case .layer:
      layer = Layer()
      layer.frame = rect
    case .shape:
      let s = ShapeLayer()
      s.frame = rect
      s.path = (shape ?? .rect(cornerRadius: 0)).path(in: rect.size)
      switch fill {
      case .color(let c): s.fillColor = c.color
      case .gradient(let g):
        s.fillColor = nil
        s.fillGradient = g
      case nil: s.fillColor = nil
      }
      s.fillRule = fillRule ?? .nonZero
      s.strokeColor = stroke?.color
      s.lineWidth = lineWidth ?? 1
      layer = s
    case .image:
      let i = ImageLayer()
      i.frame = rect
      if let img = image {
        if img.hasPrefix("/") || baseDirectory == nil {
          i.imagePath = img
        } else if let base = baseDirectory {
          i.imagePath = base.appendingPathComponent(img).path
        }
      }
      if let gravity { i.gravity = gravity }
      layer = i
    case .waterWave:
      let spec = water ?? WaterSpec(fillLevel: 0.5, waves: [])
      let response = spec.response ?? WaterResponseSpec()
      if response.options.response == .physical {
        let body = spec.makeWaterBodyLayer(name: name ?? "water", size: rect.size)
        body.frame = rect
        for l in body.surfaceLayers { l.contentsScale = scale }
        tree.waterBodies.append((body, response.physicalOptions))
        layer = body
        break
      }
      let w = WaterWaveLayer(name: name ?? "water", model: spec.model, visibleSize: rect.size)
      // The water's bounds are its visible space grown by the overscan; its position is the
      // visible centre in the parent.
      w.position = Point(x: rect.midX, y: rect.midY)
      for wave in w.waveLayers { wave.contentsScale = scale }
      tree.waters.append((w, (spec.response ?? WaterResponseSpec()).options))
      layer = w
    }
    if let name { layer.name = name }
    if let c = backgroundColor { layer.backgroundColor = c.color }
    if let r = cornerRadius { layer.cornerRadius = r }
    if let w = borderWidth { layer.borderWidth = w }
    if let c = borderColor { layer.borderColor = c.color }
    if let o = opacity { layer.opacity = o }
    if let z = zPosition { layer.zPosition = z }
    if let h = isHidden { layer.isHidden = h }
    if let m = masksToBounds { layer.masksToBounds = m }
    layer.contentsScale = scale
    if let r = rotation { layer.transform = Transform3D(rotationAngle: r, x: 0, y: 0, z: 1) }
    for s in sublayers ?? [] {
      layer.addSublayer(
        s.makeLayer(
          parentSize: layer.bounds.size, baseDirectory: baseDirectory, scale: scale, tree: &tree))
    }
    if let effects = motionEffects, !effects.isEmpty {
      for e in effects { layer.addMotionEffect(e) }
      tree.effectLayers.append(layer)
    }
    return layer
  }
}
