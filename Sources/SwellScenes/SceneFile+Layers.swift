import Foundation
import SwellGeometry
import SwellLayers

extension LayerSpec {
  /// Builds the model layer this description names (with its sublayers).
  ///
  /// - Parameters:
  ///   - baseDirectory: The folder relative image paths are resolved against.
  ///   - scale: Pixels per point, for pixel snapping.
  /// - Returns: The layer.
  public func makeLayer(baseDirectory: URL?, scale: Double) -> Layer {
    let layer: Layer
    switch type {
    case .layer:
      layer = Layer()
    case .shape:
      let s = ShapeLayer()
      let bounds = Rect(x: 0, y: 0, width: frame[2], height: frame[3])
      switch shape ?? .rect(cornerRadius: 0) {
      case .rect(let r): s.path = Path(roundedRect: bounds, cornerRadius: r)
      case .ellipse: s.path = Path(ellipseIn: bounds)
      case .polygon(let points, let closed):
        var p = Path()
        for (i, pt) in points.enumerated() {
          if i == 0 { p.move(to: pt) } else { p.line(to: pt) }
        }
        if closed && !points.isEmpty { p.close() }
        s.path = p
      }
      switch fill {
      case .color(let c): s.fillColor = c.color
      case .gradient(let g):
        s.fillGradient = g
      case nil: s.fillColor = nil
      }
      s.strokeColor = stroke?.color
      s.lineWidth = lineWidth ?? 1
      layer = s
    case .image:
      let i = ImageLayer()
      if let img = image {
        if img.hasPrefix("/") || baseDirectory == nil {
          i.imagePath = img
        } else if let base = baseDirectory {
          i.imagePath = base.appendingPathComponent(img).path
        }
      }
      layer = i
    }
    layer.name = name
    layer.frame = Rect(x: frame[0], y: frame[1], width: frame[2], height: frame[3])
    layer.backgroundColor = backgroundColor?.color
    layer.cornerRadius = cornerRadius ?? 0
    layer.opacity = opacity ?? 1
    layer.masksToBounds = masksToBounds ?? false
    layer.contentsScale = scale
    if let r = rotation { layer.transform = Transform3D(rotationAngle: r, x: 0, y: 0, z: 1) }
    for s in sublayers ?? [] {
      layer.addSublayer(s.makeLayer(baseDirectory: baseDirectory, scale: scale))
    }
    return layer
  }
}

extension SceneFile {
  /// Builds the model layer tree: a root layer the size of the canvas holding the layers.
  ///
  /// - Parameter baseDirectory: The folder relative image paths are resolved against.
  /// - Returns: The root layer.
  public func makeRootLayer(baseDirectory: URL?) -> Layer {
    let root = Layer(
      name: "root", frame: Rect(x: 0, y: 0, width: canvas.width, height: canvas.height))
    root.contentsScale = canvas.scale
    for s in layers {
      root.addSublayer(s.makeLayer(baseDirectory: baseDirectory, scale: canvas.scale))
    }
    return root
  }
}
