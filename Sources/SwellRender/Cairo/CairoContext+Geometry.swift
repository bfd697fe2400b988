import SwellCairo
import SwellGeometry
import SwellLayers

// SwellCairo speaks in plain numbers; these are the SwellGeometry and SwellLayers forms of its
// transforms, paths, colours, gradients and fill rules, as the renderer and the sinks use them.
extension CairoContext {
  // MARK: - Transform

  /// The current transform from user space to device space (`cairo_get_matrix`).
  public var transform: AffineTransform { AffineTransform(matrix) }

  /// Replaces the current transform (`cairo_set_matrix`).
  ///
  /// - Parameter t: The new user-to-device transform.
  /// - Throws: `CairoError.invalidMatrix` when `t` is not invertible or not finite; the context
  ///   is left unchanged (Cairo itself would enter a permanent error state).
  public func setTransform(_ t: AffineTransform) throws(CairoError) {
    try setMatrix(CairoMatrix(t))
  }

  /// Applies `t` to user space before the current transform, as `CGContext.concatenate` does
  /// (`cairo_transform`).
  ///
  /// - Parameter t: The transform, in the current user space.
  /// - Throws: `CairoError.invalidMatrix` when `t` is not invertible or not finite; the context
  ///   is left unchanged.
  public func concatenate(_ t: AffineTransform) throws(CairoError) {
    try concatenate(CairoMatrix(t))
  }

  /// Maps a user-space point to device space (`cairo_user_to_device`).
  ///
  /// - Parameter p: The point, user units.
  /// - Returns: The point in device units (pixels for an image surface).
  public func userToDevice(_ p: Point) -> Point {
    let d = userToDevice(x: p.x, y: p.y)
    return Point(x: d.x, y: d.y)
  }

  // MARK: - Paths

  /// Adds a path's elements to the current path (`cairo_move_to`, `cairo_line_to`,
  /// `cairo_curve_to`, `cairo_close_path`). Elements with non-finite coordinates are skipped.
  ///
  /// - Parameter path: The path, user units.
  public func addPath(_ path: Path) {
    for element in path.elements {
      switch element {
      case .move(let p):
        guard p.isFinite else { continue }
        moveTo(x: p.x, y: p.y)
      case .line(let p):
        guard p.isFinite else { continue }
        lineTo(x: p.x, y: p.y)
      case .curve(let p, let c1, let c2):
        guard p.isFinite, c1.isFinite, c2.isFinite else { continue }
        curveTo(x1: c1.x, y1: c1.y, x2: c2.x, y2: c2.y, x3: p.x, y3: p.y)
      case .close:
        closePath()
      }
    }
  }

  /// Adds a closed rectangle to the current path (`cairo_rectangle`); nothing for a rectangle
  /// that is not finite.
  ///
  /// - Parameter rect: The rectangle, user units.
  public func addRectangle(_ rect: Rect) {
    guard rect.origin.isFinite, rect.size.width.isFinite, rect.size.height.isFinite else { return }
    rectangle(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height)
  }

  // MARK: - Sources

  /// Paints with a solid colour (`cairo_set_source_rgba`).
  ///
  /// - Parameter color: The colour (sRGB, not premultiplied); components are clamped to 0...1,
  ///   non-finite ones count as 0.
  public func setSource(_ color: Color) {
    let c = color.finiteClamped
    setSourceRGBA(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
  }

  /// Paints with a linear gradient whose points are in the current user space
  /// (`cairo_pattern_create_linear`, `cairo_pattern_add_color_stop_rgba`, `cairo_set_source`).
  ///
  /// The gradient stays vertical or horizontal in device space only if its axis is so after
  /// the current transform; such gradients take pixman's fast path (about 4× faster than a
  /// rotated one).
  ///
  /// - Parameter gradient: The gradient. Without stops it paints transparent; with coinciding
  ///   end points it paints the last stop's colour; with non-finite end points it paints
  ///   transparent. Stops with a non-finite location are skipped, locations are clamped to
  ///   0...1 and made non-decreasing, colours are clamped.
  public func setSource(_ gradient: LinearGradientPattern) {
    guard gradient.start.isFinite, gradient.end.isFinite else {
      setSource(Color.clear)
      return
    }
    if gradient.start == gradient.end {
      setSource(gradient.stops.last?.color ?? .clear)
      return
    }
    var last = 0.0
    var stops: [CairoLinearGradient.Stop] = []
    for stop in gradient.stops {
      guard stop.location.isFinite else { continue }
      last = max(last, min(max(stop.location, 0), 1))
      let c = stop.color.finiteClamped
      stops.append(
        CairoLinearGradient.Stop(
          offset: last, red: c.red, green: c.green, blue: c.blue, alpha: c.alpha))
    }
    setSource(
      CairoLinearGradient(
        x0: gradient.start.x, y0: gradient.start.y, x1: gradient.end.x, y1: gradient.end.y,
        stops: stops, extend: .pad))
  }

  /// Paints with an image placed with its top-left corner at `origin`
  /// (`cairo_set_source_surface`, `cairo_pattern_set_filter`).
  ///
  /// - Parameters:
  ///   - image: The image, one pixel per user unit.
  ///   - origin: Where its top-left corner goes, user units.
  ///   - filter: How it is sampled when scaled or moved by fractions of a pixel.
  public func setSource(_ image: ImageSurface, at origin: Point, filter: ImageFilter = .good) {
    setSource(image, x: origin.x, y: origin.y, filter: filter)
  }

  // MARK: - Images

  /// Draws an image stretched to fill a rectangle (`cairo_scale`, `cairo_set_source_surface`,
  /// `cairo_fill` or `cairo_paint_with_alpha`).
  ///
  /// - Parameters:
  ///   - image: The image.
  ///   - rect: The destination, user units; nothing is drawn when it is empty or not finite.
  ///   - filter: How the image is sampled.
  ///   - alpha: The opacity, 0...1 (default 1).
  public func drawImage(
    _ image: ImageSurface, in rect: Rect, filter: ImageFilter = .good, alpha: Double = 1
  ) {
    guard rect.width > 0, rect.height > 0, rect.origin.isFinite, rect.width.isFinite,
      rect.height.isFinite, alpha > 0
    else { return }
    withSavedState {
      translate(x: rect.minX, y: rect.minY)
      let sx = rect.width / Double(image.pixelWidth)
      let sy = rect.height / Double(image.pixelHeight)
      guard (try? scale(x: sx, y: sy)) != nil else { return }
      // Pad the edges so a scaled image does not fade into transparency at its border.
      setSource(image, x: 0, y: 0, filter: filter, extend: .pad)
      newPath()
      rectangle(x: 0, y: 0, width: Double(image.pixelWidth), height: Double(image.pixelHeight))
      if alpha < 1 {
        clip()
        paint(alpha: alpha)
      } else {
        fill()
      }
    }
  }
}

extension CairoMatrix {
  /// The Cairo matrix of an affine transform: `a, b, c, d, tx, ty` are `xx, yx, xy, yy, x0, y0`.
  ///
  /// - Parameter t: The transform.
  public init(_ t: AffineTransform) {
    self.init(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
  }
}

extension AffineTransform {
  /// The affine transform of a Cairo matrix: `xx, yx, xy, yy, x0, y0` are `a, b, c, d, tx, ty`.
  ///
  /// - Parameter m: The matrix.
  public init(_ m: CairoMatrix) {
    self.init(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
  }
}

extension Rect {
  /// The rectangle of Cairo extents.
  ///
  /// - Parameter r: The extents.
  public init(_ r: CairoRect) {
    self.init(x: r.x, y: r.y, width: r.width, height: r.height)
  }
}

extension CairoFillRule {
  /// The Cairo fill rule of a layer's fill rule: `.nonZero` is `.winding`, `.evenOdd` is
  /// `.evenOdd`.
  ///
  /// - Parameter rule: The layer's rule.
  public init(_ rule: FillRule) {
    switch rule {
    case .nonZero: self = .winding
    case .evenOdd: self = .evenOdd
    }
  }
}

extension Point {
  /// True when both coordinates are finite.
  var isFinite: Bool { x.isFinite && y.isFinite }
}

extension Color {
  /// The colour clamped to 0...1 with non-finite components as 0.
  var finiteClamped: Color {
    func fix(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }
    return Color(red: fix(red), green: fix(green), blue: fix(blue), alpha: fix(alpha))
  }
}
