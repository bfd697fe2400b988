import SwellCairo
import SwellGeometry
import SwellLayers

/// Where a frame's canvas goes in a target: a scale from points to the target's units and an
/// offset, in the target's units.
public struct FramePlacement: Hashable, Sendable {
  /// Target units per point (pixels per point for an image; 1 for SVG and PDF).
  public var scale: Double
  /// The canvas's top-left corner in the target, target units.
  public var offset: Point

  /// Creates a placement.
  ///
  /// - Parameters:
  ///   - scale: Target units per point.
  ///   - offset: The canvas's top-left corner, target units (default the origin).
  public init(scale: Double, offset: Point = .zero) {
    self.scale = scale
    self.offset = offset
  }

  /// The canvas drawn in points, as vector sinks take it.
  public static let points = FramePlacement(scale: 1)

  /// A canvas fitted into a target of another size: as large as fits, aspect kept, centred on
  /// whole pixels (a live window resized by hand).
  ///
  /// - Parameters:
  ///   - size: The canvas, points.
  ///   - pixelWidth: The target's width, pixels.
  ///   - pixelHeight: The target's height, pixels.
  /// - Returns: The placement.
  public static func fitting(_ size: Size, pixelWidth: Int, pixelHeight: Int) -> FramePlacement {
    let scale = min(Double(pixelWidth) / size.width, Double(pixelHeight) / size.height)
    return FramePlacement(
      scale: scale,
      offset: Point(
        x: ((Double(pixelWidth) - size.width * scale) / 2).rounded(),
        y: ((Double(pixelHeight) - size.height * scale) / 2).rounded()))
  }
}

extension LayerRenderer {
  /// Draws one frame: the background over the whole target, then the (presentation) tree placed
  /// by `placement`. **The** frame-drawing function: offline export (raster and vector), the live
  /// window and terminal, screenshots and `swell bench` all draw through it, so a live frame has
  /// the pixels of an offline render of the same time.
  ///
  /// - Parameters:
  ///   - tree: The root of the presentation tree (`Layer.presentation(at:)`).
  ///   - background: Painted first over the whole target, or `nil` for none.
  ///   - placement: Points to target units (default: in points, unmoved).
  ///   - context: The target; its state is restored afterwards.
  /// - Throws: ``RenderError`` for an unusable scale or an image layer whose file cannot be
  ///   loaded.
  public func drawFrame(
    _ tree: Layer, background: Color?, placement: FramePlacement = .points,
    in context: CairoContext
  ) throws(RenderError) {
    context.save()
    defer { context.restore() }
    if let background {
      context.setSource(background)
      context.paint()
    }
    if placement.offset != .zero {
      context.translate(x: placement.offset.x, y: placement.offset.y)
    }
    if placement.scale != 1 {
      do {
        try context.scale(x: placement.scale, y: placement.scale)
      } catch {
        throw RenderError(.invalidFrame, reason: "cannot scale the frame by \(placement.scale)")
      }
    }
    try draw(tree, in: context)
  }

  /// Draws one frame into an image (reused across frames): cleared first when the background is
  /// not opaque, flushed after, so the pixels equal a fresh image's.
  ///
  /// - Parameters:
  ///   - tree: The root of the presentation tree.
  ///   - background: The background colour.
  ///   - placement: Points to pixels.
  ///   - image: The target image.
  /// - Throws: ``RenderError`` as ``drawFrame(_:background:placement:in:)``.
  public func drawFrame(
    _ tree: Layer, background: Color?, placement: FramePlacement, into image: ImageSurface
  ) throws(RenderError) {
    if (background?.alpha ?? 0) < 1 { image.clear() }
    let context: CairoContext
    do {
      context = try CairoContext(surface: image)
    } catch {
      throw RenderError(.invalidFrame, reason: "cannot draw into the frame (\(error))")
    }
    try drawFrame(tree, background: background, placement: placement, in: context)
    image.flush()
  }
}
