import CCairo
import SwellGeometry
import SwellLayers

/// The shape at the open ends of stroked lines (`cairo_line_cap_t`).
public enum LineCap: Sendable, Hashable {
  /// Ends exactly at the end point (`CAIRO_LINE_CAP_BUTT`).
  case butt
  /// A half-circle around the end point (`CAIRO_LINE_CAP_ROUND`).
  case round
  /// A half-square around the end point (`CAIRO_LINE_CAP_SQUARE`).
  case square
}

/// The shape where stroked segments meet (`cairo_line_join_t`).
public enum LineJoin: Sendable, Hashable {
  /// A sharp corner, cut off beyond the miter limit (`CAIRO_LINE_JOIN_MITER`).
  case miter
  /// A rounded corner (`CAIRO_LINE_JOIN_ROUND`).
  case round
  /// A cut-off corner (`CAIRO_LINE_JOIN_BEVEL`).
  case bevel
}

/// Edge smoothing (`cairo_antialias_t`).
public enum Antialias: Sendable, Hashable {
  /// Cairo's default for the target (`CAIRO_ANTIALIAS_DEFAULT`).
  case automatic
  /// Hard edges (`CAIRO_ANTIALIAS_NONE`).
  case none
  /// Fast smoothing (`CAIRO_ANTIALIAS_FAST`).
  case fast
  /// Good smoothing (`CAIRO_ANTIALIAS_GOOD`).
  case good
  /// Best smoothing (`CAIRO_ANTIALIAS_BEST`).
  case best
}

/// How drawing combines with what is already there (`cairo_operator_t`).
public enum CompositingOperator: Sendable, Hashable {
  /// Source over destination (`CAIRO_OPERATOR_OVER`), the default.
  case over
  /// Replace the destination (`CAIRO_OPERATOR_SOURCE`).
  case source
  /// Clear the destination to transparent (`CAIRO_OPERATOR_CLEAR`).
  case clear
}

/// How an image is sampled when scaled or moved by a fraction of a pixel (`cairo_filter_t`).
public enum ImageFilter: Sendable, Hashable {
  /// Nearest pixel (`CAIRO_FILTER_NEAREST`).
  case nearest
  /// Bilinear (`CAIRO_FILTER_BILINEAR`).
  case bilinear
  /// Good quality (`CAIRO_FILTER_GOOD`), the default.
  case good
}

/// A Cairo drawing context (`cairo_t`) on a ``Surface``.
///
/// Fill rules are SwellLayers' `FillRule` (`.nonZero` is `CAIRO_FILL_RULE_WINDING`).
///
/// Coordinates are user-space units: the surface's own units (pixels for an ``ImageSurface``,
/// points for SVG and PDF) mapped through the current ``transform``. The context keeps its
/// surface alive. Drawing errors are sticky in Cairo; read them with ``checkStatus()``.
public final class CairoContext {
  /// The C context.
  let pointer: OpaquePointer
  /// The surface drawn into.
  public let surface: Surface

  /// Creates a context on a surface (`cairo_create`).
  ///
  /// - Parameter surface: The target.
  /// - Throws: ``CairoError`` when the surface is in an error state or memory runs out.
  public init(surface: Surface) throws(CairoError) {
    guard let cr = cairo_create(surface.pointer) else { throw .noMemory }
    let status = cairo_status(cr)
    guard status == CAIRO_STATUS_SUCCESS else {
      cairo_destroy(cr)
      throw CairoError(rawValue: status)
    }
    pointer = cr
    self.surface = surface
  }

  deinit { cairo_destroy(pointer) }

  // MARK: - Status

  /// The context's sticky error, or `nil` (`cairo_status`).
  public var error: CairoError? {
    let status = cairo_status(pointer)
    return status == CAIRO_STATUS_SUCCESS ? nil : CairoError(rawValue: status)
  }

  /// Throws the context's sticky error, if any (`cairo_status`).
  ///
  /// - Throws: ``CairoError``.
  public func checkStatus() throws(CairoError) { try CairoError.check(cairo_status(pointer)) }

  // MARK: - State

  /// Pushes a copy of the drawing state: transform, clip, source, line settings (`cairo_save`).
  public func save() { cairo_save(pointer) }

  /// Pops the drawing state pushed by the matching ``save()`` (`cairo_restore`).
  public func restore() { cairo_restore(pointer) }

  /// Runs `body` between ``save()`` and ``restore()``, even when it throws.
  ///
  /// - Parameter body: The drawing to isolate.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withSavedState<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    save()
    defer { restore() }
    return try body()
  }

  /// Edge smoothing for fills and strokes (`cairo_set_antialias`).
  public var antialias: Antialias {
    get {
      switch cairo_get_antialias(pointer) {
      case CAIRO_ANTIALIAS_NONE: .none
      case CAIRO_ANTIALIAS_FAST: .fast
      case CAIRO_ANTIALIAS_GOOD: .good
      case CAIRO_ANTIALIAS_BEST: .best
      default: .automatic
      }
    }
    set {
      let value: cairo_antialias_t =
        switch newValue {
        case .automatic: CAIRO_ANTIALIAS_DEFAULT
        case .none: CAIRO_ANTIALIAS_NONE
        case .fast: CAIRO_ANTIALIAS_FAST
        case .good: CAIRO_ANTIALIAS_GOOD
        case .best: CAIRO_ANTIALIAS_BEST
        }
      cairo_set_antialias(pointer, value)
    }
  }

  /// The compositing operator (`cairo_set_operator`).
  public var compositingOperator: CompositingOperator {
    get {
      switch cairo_get_operator(pointer) {
      case CAIRO_OPERATOR_SOURCE: .source
      case CAIRO_OPERATOR_CLEAR: .clear
      default: .over
      }
    }
    set {
      let value: cairo_operator_t =
        switch newValue {
        case .over: CAIRO_OPERATOR_OVER
        case .source: CAIRO_OPERATOR_SOURCE
        case .clear: CAIRO_OPERATOR_CLEAR
        }
      cairo_set_operator(pointer, value)
    }
  }

  // MARK: - Transform

  /// The current transform from user space to device space (`cairo_get_matrix`).
  public var transform: AffineTransform {
    var m = cairo_matrix_t()
    cairo_get_matrix(pointer, &m)
    return AffineTransform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
  }

  /// Replaces the current transform (`cairo_set_matrix`).
  ///
  /// - Parameter t: The new user-to-device transform.
  /// - Throws: ``CairoError/invalidMatrix`` when `t` is not invertible or not finite; the
  ///   context is left unchanged (Cairo itself would enter a permanent error state).
  public func setTransform(_ t: AffineTransform) throws(CairoError) {
    var m = try Self.matrix(t)
    cairo_set_matrix(pointer, &m)
  }

  /// Applies `t` to user space before the current transform, as
  /// `CGContext.concatenate` does (`cairo_transform`).
  ///
  /// - Parameter t: The transform, in the current user space.
  /// - Throws: ``CairoError/invalidMatrix`` when `t` is not invertible or not finite; the
  ///   context is left unchanged.
  public func concatenate(_ t: AffineTransform) throws(CairoError) {
    var m = try Self.matrix(t)
    cairo_transform(pointer, &m)
  }

  /// Moves the user-space origin (`cairo_translate`).
  ///
  /// - Parameters:
  ///   - x: The horizontal offset, user units.
  ///   - y: The vertical offset, user units.
  public func translate(x: Double, y: Double) {
    guard x.isFinite, y.isFinite else { return }
    cairo_translate(pointer, x, y)
  }

  /// Scales user space (`cairo_scale`).
  ///
  /// - Parameters:
  ///   - x: The horizontal factor.
  ///   - y: The vertical factor.
  /// - Throws: ``CairoError/invalidMatrix`` for a zero or non-finite factor.
  public func scale(x: Double, y: Double) throws(CairoError) {
    try concatenate(AffineTransform(scaleX: x, y: y))
  }

  /// Rotates user space; positive turns clockwise on a y-down surface (`cairo_rotate`).
  ///
  /// - Parameter radians: The angle, radians.
  public func rotate(radians: Double) {
    guard radians.isFinite else { return }
    cairo_rotate(pointer, radians)
  }

  /// Maps a user-space point to device space (`cairo_user_to_device`).
  ///
  /// - Parameter p: The point, user units.
  /// - Returns: The point in device units (pixels for an image surface).
  public func userToDevice(_ p: Point) -> Point {
    var x = p.x
    var y = p.y
    cairo_user_to_device(pointer, &x, &y)
    return Point(x: x, y: y)
  }

  private static func matrix(_ t: AffineTransform) throws(CairoError) -> cairo_matrix_t {
    let d = t.determinant
    guard d != 0, d.isFinite, t.tx.isFinite, t.ty.isFinite else { throw .invalidMatrix }
    return cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
  }

  // MARK: - Paths

  /// Clears the current path (`cairo_new_path`).
  public func newPath() { cairo_new_path(pointer) }

  /// Adds a path's elements to the current path (`cairo_move_to`, `cairo_line_to`,
  /// `cairo_curve_to`, `cairo_close_path`). Elements with non-finite coordinates are skipped.
  ///
  /// - Parameter path: The path, user units.
  public func addPath(_ path: Path) {
    for element in path.elements {
      switch element {
      case .move(let p):
        guard p.isFinite else { continue }
        cairo_move_to(pointer, p.x, p.y)
      case .line(let p):
        guard p.isFinite else { continue }
        cairo_line_to(pointer, p.x, p.y)
      case .curve(let p, let c1, let c2):
        guard p.isFinite, c1.isFinite, c2.isFinite else { continue }
        cairo_curve_to(pointer, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
      case .close:
        cairo_close_path(pointer)
      }
    }
  }

  /// Adds a closed rectangle to the current path (`cairo_rectangle`).
  ///
  /// - Parameter rect: The rectangle, user units.
  public func addRectangle(_ rect: Rect) {
    guard rect.origin.isFinite, rect.size.width.isFinite, rect.size.height.isFinite else { return }
    cairo_rectangle(pointer, rect.minX, rect.minY, rect.width, rect.height)
  }

  /// The bounding box of the current path in user space, `.zero` when empty
  /// (`cairo_path_extents`).
  public var pathExtents: Rect {
    var x0 = 0.0
    var y0 = 0.0
    var x1 = 0.0
    var y1 = 0.0
    cairo_path_extents(pointer, &x0, &y0, &x1, &y1)
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  // MARK: - Sources

  /// Paints with a solid colour (`cairo_set_source_rgba`).
  ///
  /// - Parameter color: The colour (sRGB, not premultiplied); components are clamped to 0...1.
  public func setSource(_ color: Color) {
    let c = color.finiteClamped
    cairo_set_source_rgba(pointer, c.red, c.green, c.blue, c.alpha)
  }

  /// Paints with a linear gradient whose points are in the current user space
  /// (`cairo_pattern_create_linear`, `cairo_pattern_add_color_stop_rgba`, `cairo_set_source`).
  ///
  /// The gradient stays vertical or horizontal in device space only if its axis is so after
  /// the current transform; such gradients take pixman's fast path (about 4× faster than a
  /// rotated one).
  ///
  /// - Parameter gradient: The gradient. Without stops it paints transparent; with coinciding
  ///   end points it paints the last stop's colour.
  public func setSource(_ gradient: LinearGradientPattern) {
    guard gradient.start.isFinite, gradient.end.isFinite else {
      setSource(Color.clear)
      return
    }
    if gradient.start == gradient.end {
      setSource(gradient.stops.last?.color ?? .clear)
      return
    }
    guard
      let pattern = cairo_pattern_create_linear(
        gradient.start.x, gradient.start.y, gradient.end.x, gradient.end.y)
    else { return }
    defer { cairo_pattern_destroy(pattern) }
    var last = 0.0
    for stop in gradient.stops {
      guard stop.location.isFinite else { continue }
      last = max(last, min(max(stop.location, 0), 1))
      let c = stop.color.finiteClamped
      cairo_pattern_add_color_stop_rgba(pattern, last, c.red, c.green, c.blue, c.alpha)
    }
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    cairo_set_source(pointer, pattern)
  }

  /// Paints with an image placed with its top-left corner at `origin`
  /// (`cairo_set_source_surface`, `cairo_pattern_set_filter`).
  ///
  /// - Parameters:
  ///   - image: The image, one pixel per user unit.
  ///   - origin: Where its top-left corner goes, user units.
  ///   - filter: How it is sampled when scaled or moved by fractions of a pixel.
  public func setSource(_ image: ImageSurface, at origin: Point, filter: ImageFilter = .good) {
    cairo_set_source_surface(pointer, image.pointer, origin.x, origin.y)
    let value: cairo_filter_t =
      switch filter {
      case .nearest: CAIRO_FILTER_NEAREST
      case .bilinear: CAIRO_FILTER_BILINEAR
      case .good: CAIRO_FILTER_GOOD
      }
    cairo_pattern_set_filter(cairo_get_source(pointer), value)
  }

  // MARK: - Painting

  /// The fill rule used by ``fill(preservingPath:)`` and ``clip(preservingPath:)``
  /// (`cairo_set_fill_rule`).
  public var fillRule: FillRule {
    get { cairo_get_fill_rule(pointer) == CAIRO_FILL_RULE_EVEN_ODD ? .evenOdd : .nonZero }
    set {
      cairo_set_fill_rule(
        pointer, newValue == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    }
  }

  /// Fills the current path with the source (`cairo_fill`, `cairo_fill_preserve`).
  ///
  /// - Parameter preservingPath: Keep the path afterwards (default: clear it).
  public func fill(preservingPath: Bool = false) {
    if preservingPath { cairo_fill_preserve(pointer) } else { cairo_fill(pointer) }
  }

  /// Strokes the current path with the source and the line settings
  /// (`cairo_stroke`, `cairo_stroke_preserve`).
  ///
  /// - Parameter preservingPath: Keep the path afterwards (default: clear it).
  public func stroke(preservingPath: Bool = false) {
    if preservingPath { cairo_stroke_preserve(pointer) } else { cairo_stroke(pointer) }
  }

  /// Paints the source everywhere inside the clip (`cairo_paint`).
  public func paint() { cairo_paint(pointer) }

  /// Paints the source everywhere inside the clip at a uniform opacity
  /// (`cairo_paint_with_alpha`).
  ///
  /// - Parameter alpha: The opacity, 0...1 (clamped).
  public func paint(alpha: Double) {
    cairo_paint_with_alpha(pointer, alpha.isFinite ? min(max(alpha, 0), 1) : 0)
  }

  /// Intersects the clip with the current path (`cairo_clip`, `cairo_clip_preserve`).
  ///
  /// - Parameter preservingPath: Keep the path afterwards (default: clear it).
  public func clip(preservingPath: Bool = false) {
    if preservingPath { cairo_clip_preserve(pointer) } else { cairo_clip(pointer) }
  }

  /// Removes the clip (`cairo_reset_clip`).
  public func resetClip() { cairo_reset_clip(pointer) }

  /// The clip's bounding box in user space (`cairo_clip_extents`).
  public var clipExtents: Rect {
    var x0 = 0.0
    var y0 = 0.0
    var x1 = 0.0
    var y1 = 0.0
    cairo_clip_extents(pointer, &x0, &y0, &x1, &y1)
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  // MARK: - Line settings

  /// The stroke width, user units (`cairo_set_line_width`).
  public var lineWidth: Double {
    get { cairo_get_line_width(pointer) }
    set { cairo_set_line_width(pointer, newValue.isFinite ? max(newValue, 0) : 0) }
  }

  /// The shape of line ends (`cairo_set_line_cap`).
  public var lineCap: LineCap {
    get {
      switch cairo_get_line_cap(pointer) {
      case CAIRO_LINE_CAP_ROUND: .round
      case CAIRO_LINE_CAP_SQUARE: .square
      default: .butt
      }
    }
    set {
      let value: cairo_line_cap_t =
        switch newValue {
        case .butt: CAIRO_LINE_CAP_BUTT
        case .round: CAIRO_LINE_CAP_ROUND
        case .square: CAIRO_LINE_CAP_SQUARE
        }
      cairo_set_line_cap(pointer, value)
    }
  }

  /// The shape of corners (`cairo_set_line_join`).
  public var lineJoin: LineJoin {
    get {
      switch cairo_get_line_join(pointer) {
      case CAIRO_LINE_JOIN_ROUND: .round
      case CAIRO_LINE_JOIN_BEVEL: .bevel
      default: .miter
      }
    }
    set {
      let value: cairo_line_join_t =
        switch newValue {
        case .miter: CAIRO_LINE_JOIN_MITER
        case .round: CAIRO_LINE_JOIN_ROUND
        case .bevel: CAIRO_LINE_JOIN_BEVEL
        }
      cairo_set_line_join(pointer, value)
    }
  }

  /// The ratio of miter length to line width beyond which miter joins are bevelled
  /// (`cairo_set_miter_limit`); Core Graphics and Cairo both default to 10.
  public var miterLimit: Double {
    get { cairo_get_miter_limit(pointer) }
    set { cairo_set_miter_limit(pointer, newValue.isFinite ? max(newValue, 1) : 10) }
  }

  /// Sets the dash pattern (`cairo_set_dash`); an empty pattern draws solid lines.
  ///
  /// - Parameters:
  ///   - pattern: Alternating on and off lengths, user units; negative or all-zero patterns
  ///     are rejected.
  ///   - phase: The offset into the pattern where lines start, user units.
  /// - Throws: ``CairoError/invalidDash`` for a bad pattern (the context is left unchanged).
  public func setDash(_ pattern: [Double], phase: Double = 0) throws(CairoError) {
    guard pattern.allSatisfy({ $0 >= 0 && $0.isFinite }), phase.isFinite,
      pattern.isEmpty || pattern.contains(where: { $0 > 0 })
    else { throw .invalidDash }
    pattern.withUnsafeBufferPointer { buffer in
      cairo_set_dash(pointer, buffer.baseAddress, Int32(buffer.count), phase)
    }
  }

  // MARK: - Groups

  /// Starts drawing into an offscreen group (`cairo_push_group`).
  public func pushGroup() { cairo_push_group(pointer) }

  /// Ends the group started by ``pushGroup()`` and paints it at an opacity
  /// (`cairo_pop_group_to_source`, `cairo_paint_with_alpha`).
  ///
  /// - Parameter alpha: The group's opacity, 0...1.
  public func popGroup(paintingWithAlpha alpha: Double) {
    cairo_pop_group_to_source(pointer)
    paint(alpha: alpha)
  }

  /// Draws `body` into a group and composites it at an opacity, so overlapping parts inside do
  /// not show through each other: Core Animation's layer `opacity`.
  ///
  /// When `body` throws, the group is discarded and the error rethrown.
  ///
  /// - Parameters:
  ///   - opacity: The group's opacity, 0...1.
  ///   - body: The drawing.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withGroup<R, E: Error>(opacity: Double, _ body: () throws(E) -> R) throws(E) -> R {
    pushGroup()
    let result: R
    do {
      result = try body()
    } catch {
      cairo_pattern_destroy(cairo_pop_group(pointer))
      throw error
    }
    popGroup(paintingWithAlpha: opacity)
    return result
  }

  // MARK: - Images

  /// Draws an image stretched to fill a rectangle (`cairo_scale`, `cairo_set_source_surface`,
  /// `cairo_fill` or `cairo_paint_with_alpha`).
  ///
  /// - Parameters:
  ///   - image: The image.
  ///   - rect: The destination, user units; nothing is drawn when it is empty.
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
      setSource(image, at: .zero, filter: filter)
      // Pad the edges so a scaled image does not fade into transparency at its border.
      cairo_pattern_set_extend(cairo_get_source(pointer), CAIRO_EXTEND_PAD)
      newPath()
      cairo_rectangle(pointer, 0, 0, Double(image.pixelWidth), Double(image.pixelHeight))
      if alpha < 1 {
        clip()
        paint(alpha: alpha)
      } else {
        fill()
      }
    }
  }
}

@available(*, unavailable)
extension CairoContext: Sendable {}

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
