import SwellCairo
import SwellGeometry
import SwellLayers

/// Draws a presentation layer tree with Cairo: the same code targets image, SVG and PDF surfaces.
///
/// What it draws, for each visible layer (back to front, siblings ordered by `zPosition`):
/// the background colour over the bounds (rounded by `cornerRadius`), the contents (a
/// `SwellLayers/ShapeLayer`'s path filled with its colour or gradient and stroked, or an
/// `SwellLayers/ImageLayer`'s PNG), the sublayers (clipped to the rounded bounds when
/// `masksToBounds`), then the border. A layer with `opacity < 1` is composited as a group, as
/// Core Animation does, so its overlapping parts do not show through each other.
///
/// **Transforms.** Each layer's bounds plane goes to the canvas through the full 4×4 chain of
/// `transformToSuperlayer`s, flattened into each superlayer's plane (z dropped), as `CALayer`
/// (not `CATransformLayer`) does. Without perspective this is an affine map and Cairo draws the
/// layer natively. With perspective, path points are mapped with the division by w (curves are
/// split into ``curveSegments`` lines first); gradients map their end points, images take the
/// affine map through three projected corners, clipped to the projected quadrilateral. Layers
/// reaching behind the eye (w ≤ 0) are not drawn.
///
/// **Gradient fast path.** A gradient with `space == .screenVertical` is laid out vertically on
/// the canvas across the layer's on-screen bounding box, whatever the layer's rotation, which
/// keeps pixman on its fast path (about 12–15 ms instead of 61 ms for three full-screen wave
/// layers at 1170×2532, per the platform measurements). A gradient whose axis stays slanted on
/// the canvas (the physical water's depth gradient, which turns with gravity) is drawn on an
/// image target through a device-aligned image of it (`rastersRotatedGradients`), which
/// pixman composites on its fast path instead of computing the gradient pixel by pixel.
///
/// Units: the context's user space when ``draw(_:in:)`` is called is the canvas, in points
/// (frame sinks set this up); layer geometry is in points.
public final class LayerRenderer {
  /// The number of straight pieces each Bézier curve is split into under perspective.
  public var curveSegments = 16
  /// Edge smoothing for everything drawn, or `nil` to keep the context's setting.
  public var antialias: Antialias?
  /// Whether a gradient whose axis is neither vertical nor horizontal on an image target is
  /// drawn through a device-aligned image of it (default `true`, `GradientRaster`: within one
  /// level of 255 of pixman's own gradient; the physical water's 1170×2532 frame fell from 211 M
  /// to 62 M instructions); `false` draws every gradient with pixman, as the tests compare.
  package var rastersRotatedGradients = true
  private var images: [String: ImageSurface] = [:]
  /// Rotated gradients on image targets, drawn through a device-aligned image.
  private let gradientRaster = GradientRaster()

  /// The flattening into the superlayer's plane between levels (z := 0).
  private static let flatten = Transform3D(scaleX: 1, y: 1, z: 0)

  /// Creates a renderer with an empty image cache.
  public init() {}

  /// Forgets the PNG images loaded so far (they are reloaded on next use).
  public func clearImageCache() { images.removeAll() }

  /// Draws a layer tree (normally a presentation tree from `Layer.presentation(at:)`).
  ///
  /// - Parameters:
  ///   - root: The root layer; its frame is placed in the context's current user space (points).
  ///   - context: The target; its state is restored afterwards.
  /// - Throws: ``RenderError`` naming a PNG file an image layer shows that cannot be loaded.
  public func draw(_ root: Layer, in context: CairoContext) throws(RenderError) {
    let base = context.transform
    context.save()
    defer { context.restore() }
    if let antialias { context.antialias = antialias }
    try drawLayer(root, parent: .identity, base: base, context)
  }

  /// Renders a layer tree into a new image.
  ///
  /// - Parameters:
  ///   - root: The root layer.
  ///   - size: The canvas size, points.
  ///   - scale: Pixels per point.
  ///   - background: A colour painted first, or `nil` for a transparent canvas.
  /// - Returns: The image, `size × scale` pixels.
  /// - Throws: ``RenderError`` for a bad size or an unloadable image.
  public func render(_ root: Layer, size: Size, scale: Double, background: Color? = nil)
    throws(RenderError) -> ImageSurface
  {
    let configuration = FrameConfiguration(size: size, scale: scale)
    try configuration.validate(for: "canvas")
    let image: ImageSurface
    do {
      image = try ImageSurface(
        pixelWidth: configuration.pixelWidth, pixelHeight: configuration.pixelHeight)
    } catch {
      throw RenderError(.invalidFrame, reason: "cannot make the canvas (\(error))")
    }
    try drawFrame(
      root, background: background, placement: FramePlacement(scale: scale), into: image)
    return image
  }

  // MARK: - Layers

  private func drawLayer(
    _ layer: Layer, parent: Transform3D, base: AffineTransform, _ cr: CairoContext
  ) throws(RenderError) {
    guard !layer.isHidden, layer.opacity.isFinite, layer.opacity > 0 else { return }
    let toCanvas = layer.transformToSuperlayer.concatenating(Self.flatten).concatenating(parent)
    guard toCanvas.rowMajor.allSatisfy(\.isFinite) else { return }
    let opacity = min(layer.opacity, 1)
    let children = Self.drawingOrder(layer.sublayers)
    let simple = children.isEmpty && Self.primitiveCount(layer) <= 1
    let place = Placement(mapping: PlaneMapping(toCanvas), base: base, layer: layer)
    if opacity < 1 && !simple {
      try cr.withGroup(opacity: opacity) { () throws(RenderError) in
        try drawBody(layer, children, place, toCanvas, alpha: 1, cr)
      }
    } else {
      try drawBody(layer, children, place, toCanvas, alpha: opacity, cr)
    }
  }

  private func drawBody(
    _ layer: Layer, _ children: [Layer], _ place: Placement, _ toCanvas: Transform3D,
    alpha: Double, _ cr: CairoContext
  ) throws(RenderError) {
    cr.save()
    defer { cr.restore() }
    let bounds = layer.bounds
    let hasArea = bounds.width > 0 && bounds.height > 0
    let outline =
      layer.cornerRadius > 0
      ? Path(roundedRect: bounds, cornerRadius: layer.cornerRadius) : Path(rect: bounds)
    if let color = layer.backgroundColor, color.alpha > 0, hasArea,
      place.setPath(outline, cr, segments: curveSegments)
    {
      cr.setSource(color.withAlpha(color.alpha * alpha))
      cr.fill()
    }
    if layer.masksToBounds {
      guard hasArea, place.setPath(outline, cr, segments: curveSegments) else { return }
      cr.clip()
    }
    switch layer.drawnContent {
    case .shape(let shape): drawShape(shape, place, alpha: alpha, cr)
    case .image(let imageLayer): try drawImage(imageLayer, place, alpha: alpha, cr)
    case .none: break
    }
    for child in children {
      try drawLayer(child, parent: toCanvas, base: place.base, cr)
    }
    if layer.borderWidth > 0, layer.borderColor.alpha > 0, hasArea {
      let w = min(layer.borderWidth, bounds.width / 2, bounds.height / 2)
      let inner = bounds.insetBy(dx: w / 2, dy: w / 2)
      let path =
        layer.cornerRadius > 0
        ? Path(roundedRect: inner, cornerRadius: max(layer.cornerRadius - w / 2, 0))
        : Path(rect: inner)
      if place.setPath(path, cr, segments: curveSegments) {
        cr.lineWidth = w * place.strokeScale
        cr.lineJoin = .miter
        cr.setSource(layer.borderColor.withAlpha(layer.borderColor.alpha * alpha))
        cr.stroke()
      }
    }
  }

  private func drawShape(_ shape: ShapeLayer, _ place: Placement, alpha: Double, _ cr: CairoContext)
  {
    guard let path = shape.path, !path.isEmpty else { return }
    if let gradient = shape.fillGradient {
      if place.setPath(path, cr, segments: curveSegments),
        let pattern = place.pattern(for: gradient, alpha: alpha, cr)
      {
        cr.fillRule = CairoFillRule(shape.fillRule)
        if !rastersRotatedGradients || !gradientRaster.setSource(pattern, cr) {
          cr.setSource(pattern)
        }
        cr.fill()
      }
    } else if let color = shape.fillColor, color.alpha > 0,
      place.setPath(path, cr, segments: curveSegments)
    {
      cr.fillRule = CairoFillRule(shape.fillRule)
      cr.setSource(color.withAlpha(color.alpha * alpha))
      cr.fill()
    }
    if let color = shape.strokeColor, color.alpha > 0, shape.lineWidth > 0,
      place.setPath(path, cr, segments: curveSegments)
    {
      cr.lineWidth = shape.lineWidth * place.strokeScale
      cr.setSource(color.withAlpha(color.alpha * alpha))
      cr.stroke()
    }
  }

  private func drawImage(
    _ layer: ImageLayer, _ place: Placement, alpha: Double, _ cr: CairoContext
  ) throws(RenderError) {
    guard let path = layer.imagePath, layer.bounds.width > 0, layer.bounds.height > 0 else {
      return
    }
    let image = try loadImage(path)
    let bounds = layer.bounds
    let iw = Double(image.pixelWidth)
    let ih = Double(image.pixelHeight)
    var rect = bounds
    switch layer.gravity {
    case .resize: break
    case .resizeAspect, .resizeAspectFill:
      let s =
        layer.gravity == .resizeAspect
        ? min(bounds.width / iw, bounds.height / ih) : max(bounds.width / iw, bounds.height / ih)
      rect = Rect(
        x: bounds.midX - iw * s / 2, y: bounds.midY - ih * s / 2, width: iw * s, height: ih * s)
    }
    cr.save()
    defer { cr.restore() }
    if layer.gravity == .resizeAspectFill {
      guard place.setPath(Path(rect: bounds), cr, segments: 1) else { return }
      cr.clip()
    }
    guard let transform = place.imageTransform(for: rect, cr) else { return }
    guard (try? cr.setTransform(transform)) != nil else { return }
    cr.drawImage(image, in: rect, alpha: alpha)
  }

  private func loadImage(_ path: String) throws(RenderError) -> ImageSurface {
    if let image = images[path] { return image }
    let image = try ImageSurface.load(contentsOfPNGFile: path)
    images[path] = image
    return image
  }

  // MARK: - Helpers

  /// Siblings sorted by `zPosition`, ties in array order.
  private static func drawingOrder(_ layers: [Layer]) -> [Layer] {
    guard layers.contains(where: { $0.zPosition != 0 }) else { return layers }
    return layers.enumerated().sorted { a, b in
      a.element.zPosition != b.element.zPosition
        ? a.element.zPosition < b.element.zPosition : a.offset < b.offset
    }.map(\.element)
  }

  /// How many separate paint operations a layer's own content makes; one or none can take the
  /// layer's opacity directly instead of through a group.
  private static func primitiveCount(_ layer: Layer) -> Int {
    var n = 0
    if let c = layer.backgroundColor, c.alpha > 0 { n += 1 }
    if layer.borderWidth > 0, layer.borderColor.alpha > 0 { n += 1 }
    switch layer.drawnContent {
    case .shape(let shape) where shape.path != nil:
      if shape.fillGradient != nil || (shape.fillColor?.alpha ?? 0) > 0 { n += 1 }
      if (shape.strokeColor?.alpha ?? 0) > 0, shape.lineWidth > 0 { n += 1 }
    case .image(let image) where image.imagePath != nil:
      n += image.gravity == .resizeAspectFill ? 2 : 1
    default: break
    }
    return n
  }
}

@available(*, unavailable)
extension LayerRenderer: Sendable {}

/// Where one layer's bounds plane lands on the canvas, and how to set up Cairo to draw there.
private struct Placement {
  let mapping: PlaneMapping
  /// The context's transform from canvas points to device space.
  let base: AffineTransform
  let layer: Layer
  /// The layer-to-device transform when there is no perspective.
  let affine: AffineTransform?

  init(mapping: PlaneMapping, base: AffineTransform, layer: Layer) {
    self.mapping = mapping
    self.base = base
    self.layer = layer
    affine = mapping.affine.map { $0.concatenating(base) }
  }

  /// The factor applied to stroke widths given in layer points (1 when Cairo's transform
  /// already scales them).
  var strokeScale: Double {
    guard affine == nil else { return 1 }
    return mapping.localScale(at: layer.bounds.center)
  }

  /// Replaces the current path with `path` placed on the canvas; `false` when it cannot be
  /// drawn (singular or behind the eye).
  func setPath(_ path: Path, _ cr: CairoContext, segments: Int) -> Bool {
    cr.newPath()
    if let affine {
      guard (try? cr.setTransform(affine)) != nil else { return false }
      cr.addPath(path)
      return true
    }
    guard let projected = mapping.project(path, segments: segments),
      (try? cr.setTransform(base)) != nil
    else { return false }
    cr.addPath(projected)
    return true
  }

  /// The Cairo gradient for a layer gradient, in the user space that is current after
  /// ``setPath(_:_:segments:)`` (switching it to canvas space for screen-vertical gradients).
  func pattern(for gradient: SwellLayers.LinearGradient, alpha: Double, _ cr: CairoContext)
    -> LinearGradientPattern?
  {
    let stops = gradient.stops.map {
      LinearGradientPattern.Stop(
        location: $0.location, color: $0.color.withAlpha($0.color.alpha * alpha))
    }
    let b = layer.bounds
    switch gradient.space {
    case .screenVertical:
      guard let box = mapping.boundingBox(of: b), (try? cr.setTransform(base)) != nil else {
        return nil
      }
      return LinearGradientPattern(
        start: Point(x: box.minX, y: box.minY + gradient.startPoint.y * box.height),
        end: Point(x: box.minX, y: box.minY + gradient.endPoint.y * box.height), stops: stops)
    case .layer:
      let start = Point(
        x: b.minX + gradient.startPoint.x * b.width, y: b.minY + gradient.startPoint.y * b.height)
      let end = Point(
        x: b.minX + gradient.endPoint.x * b.width, y: b.minY + gradient.endPoint.y * b.height)
      if affine != nil { return LinearGradientPattern(start: start, end: end, stops: stops) }
      guard let s = mapping.map(start), let e = mapping.map(end) else { return nil }
      return LinearGradientPattern(start: s, end: e, stops: stops)
    }
  }

  /// The transform to draw an image filling `rect` (layer points) with, clipping to its
  /// projected outline under perspective; `nil` when it cannot be drawn.
  func imageTransform(for rect: Rect, _ cr: CairoContext) -> AffineTransform? {
    if let affine { return affine }
    guard let p0 = mapping.map(Point(x: rect.minX, y: rect.minY)),
      let p1 = mapping.map(Point(x: rect.maxX, y: rect.minY)),
      let p2 = mapping.map(Point(x: rect.minX, y: rect.maxY)),
      setPath(Path(rect: rect), cr, segments: 1)
    else { return nil }
    cr.clip()
    let a = (p1.x - p0.x) / rect.width
    let b = (p1.y - p0.y) / rect.width
    let c = (p2.x - p0.x) / rect.height
    let d = (p2.y - p0.y) / rect.height
    let fit = AffineTransform(
      a: a, b: b, c: c, d: d, tx: p0.x - a * rect.minX - c * rect.minY,
      ty: p0.y - b * rect.minX - d * rect.minY)
    return fit.concatenating(base)
  }
}
