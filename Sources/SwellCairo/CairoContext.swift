import CCairo

/// A Cairo drawing context on a ``Surface``.
///
/// Coordinates are user-space units: the surface's own units (pixels for an ``ImageSurface``,
/// points for SVG and PDF) mapped through the current ``matrix``. The context keeps its surface
/// alive. Drawing errors are sticky in Cairo; read them with ``checkStatus()`` or ``error``.
///
/// The corresponding C type is `cairo_t`; the context is created with `cairo_create` and
/// released with `cairo_destroy` when it goes away.
public final class CairoContext {
  /// The C context.
  let pointer: OpaquePointer
  /// The surface drawn into.
  public let surface: Surface

  /// Creates a context on a surface.
  ///
  /// The corresponding Cairo function is `cairo_create`.
  ///
  /// - Parameter surface: The target.
  /// - Throws: ``CairoError`` when the surface is in an error state or memory runs out.
  public init(surface: Surface) throws(CairoError) {
    guard let cr = cairo_create(surface.pointer) else { throw .noMemory }
    let status = cairo_status(cr)
    guard status == CAIRO_STATUS_SUCCESS else {
      cairo_destroy(cr)
      throw CairoError(status)
    }
    pointer = cr
    self.surface = surface
  }

  /// Wraps a context another library made and owns (the `cairo_t` a GTK draw function is
  /// given): the Swift object takes a reference to it and to its target surface, so drawing
  /// goes where that library expects; it releases both when it goes away.
  ///
  /// The corresponding Cairo functions are `cairo_reference` and `cairo_get_target`.
  ///
  /// - Parameter context: The C context, a `cairo_t *`.
  /// - Throws: ``CairoError`` when the context is in an error state.
  public init(referencing context: OpaquePointer) throws(CairoError) {
    let status = cairo_status(context)
    guard status == CAIRO_STATUS_SUCCESS else { throw CairoError(status) }
    surface = try Surface(referencing: cairo_get_target(context))
    pointer = cairo_reference(context)
  }

  deinit { cairo_destroy(pointer) }

  // MARK: - Status

  /// The context's sticky error, or `nil`.
  ///
  /// The corresponding Cairo function is `cairo_status`.
  public var error: CairoError? {
    let status = cairo_status(pointer)
    return status == CAIRO_STATUS_SUCCESS ? nil : CairoError(status)
  }

  /// Throws the context's sticky error, if any.
  ///
  /// The corresponding Cairo function is `cairo_status`.
  ///
  /// - Throws: ``CairoError``.
  public func checkStatus() throws(CairoError) { try CairoError.check(cairo_status(pointer)) }

  // MARK: - State

  /// Pushes a copy of the drawing state: transform, clip, source, line and font settings.
  ///
  /// The corresponding Cairo function is `cairo_save`.
  public func save() { cairo_save(pointer) }

  /// Pops the drawing state pushed by the matching ``save()``.
  ///
  /// The corresponding Cairo function is `cairo_restore`.
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

  /// Edge smoothing for fills and strokes.
  ///
  /// The corresponding Cairo functions are `cairo_set_antialias` and `cairo_get_antialias`.
  public var antialias: Antialias {
    get { Antialias(cairo_get_antialias(pointer)) }
    set { cairo_set_antialias(pointer, newValue.cValue) }
  }

  /// The compositing operator.
  ///
  /// The corresponding Cairo functions are `cairo_set_operator` and `cairo_get_operator`.
  public var compositingOperator: CompositingOperator {
    get { CompositingOperator(cairo_get_operator(pointer)) }
    set { cairo_set_operator(pointer, newValue.cValue) }
  }

  // MARK: - Transform

  /// The current transform from user space to device space.
  ///
  /// The corresponding Cairo function is `cairo_get_matrix`.
  public var matrix: CairoMatrix {
    var m = cairo_matrix_t()
    cairo_get_matrix(pointer, &m)
    return CairoMatrix(m)
  }

  /// Replaces the current transform.
  ///
  /// The corresponding Cairo function is `cairo_set_matrix`.
  ///
  /// - Parameter matrix: The new user-to-device transform.
  /// - Throws: ``CairoError/invalidMatrix`` when `matrix` is not invertible or not finite
  ///   (``CairoMatrix/isInvertible``); the context is left unchanged (Cairo itself would enter a
  ///   permanent error state).
  public func setMatrix(_ matrix: CairoMatrix) throws(CairoError) {
    guard matrix.isInvertible else { throw .invalidMatrix }
    var m = matrix.cValue
    cairo_set_matrix(pointer, &m)
  }

  /// Applies `matrix` to user space before the current transform, as
  /// `CGContext.concatenate` does.
  ///
  /// The corresponding Cairo function is `cairo_transform`.
  ///
  /// - Parameter matrix: The transform, in the current user space.
  /// - Throws: ``CairoError/invalidMatrix`` when `matrix` is not invertible or not finite; the
  ///   context is left unchanged.
  public func concatenate(_ matrix: CairoMatrix) throws(CairoError) {
    guard matrix.isInvertible else { throw .invalidMatrix }
    var m = matrix.cValue
    cairo_transform(pointer, &m)
  }

  /// Resets the transform to the identity: user space is device space.
  ///
  /// The corresponding Cairo function is `cairo_identity_matrix`.
  public func resetMatrix() { cairo_identity_matrix(pointer) }

  /// Moves the user-space origin; non-finite offsets are ignored.
  ///
  /// The corresponding Cairo function is `cairo_translate`.
  ///
  /// - Parameters:
  ///   - x: The horizontal offset, user units.
  ///   - y: The vertical offset, user units.
  public func translate(x: Double, y: Double) {
    guard x.isFinite, y.isFinite else { return }
    cairo_translate(pointer, x, y)
  }

  /// Scales user space.
  ///
  /// The corresponding Cairo function is `cairo_transform` with a scale matrix (as
  /// `cairo_scale`, but a bad factor is rejected before Cairo sees it).
  ///
  /// - Parameters:
  ///   - x: The horizontal factor.
  ///   - y: The vertical factor.
  /// - Throws: ``CairoError/invalidMatrix`` for a zero or non-finite factor; the context is left
  ///   unchanged.
  public func scale(x: Double, y: Double) throws(CairoError) {
    try concatenate(CairoMatrix(xx: x, yx: 0, xy: 0, yy: y, x0: 0, y0: 0))
  }

  /// Rotates user space; positive turns clockwise on a y-down surface. A non-finite angle is
  /// ignored.
  ///
  /// The corresponding Cairo function is `cairo_rotate`.
  ///
  /// - Parameter radians: The angle, radians.
  public func rotate(radians: Double) {
    guard radians.isFinite else { return }
    cairo_rotate(pointer, radians)
  }

  /// Maps a user-space point to device space.
  ///
  /// The corresponding Cairo function is `cairo_user_to_device`.
  ///
  /// - Parameters:
  ///   - x: The x coordinate, user units.
  ///   - y: The y coordinate, user units.
  /// - Returns: The point in device units (pixels for an image surface).
  public func userToDevice(x: Double, y: Double) -> (x: Double, y: Double) {
    var x = x
    var y = y
    cairo_user_to_device(pointer, &x, &y)
    return (x, y)
  }

  // MARK: - Paths

  /// Clears the current path.
  ///
  /// The corresponding Cairo function is `cairo_new_path`.
  public func newPath() { cairo_new_path(pointer) }

  /// Starts a new sub-path at a point.
  ///
  /// The corresponding Cairo function is `cairo_move_to`.
  ///
  /// - Parameters:
  ///   - x: The x coordinate, user units.
  ///   - y: The y coordinate, user units.
  public func moveTo(x: Double, y: Double) { cairo_move_to(pointer, x, y) }

  /// Adds a straight line from the current point.
  ///
  /// The corresponding Cairo function is `cairo_line_to`.
  ///
  /// - Parameters:
  ///   - x: The end's x coordinate, user units.
  ///   - y: The end's y coordinate, user units.
  public func lineTo(x: Double, y: Double) { cairo_line_to(pointer, x, y) }

  /// Adds a cubic Bézier curve from the current point.
  ///
  /// The corresponding Cairo function is `cairo_curve_to`.
  ///
  /// - Parameters:
  ///   - x1: The first control point's x coordinate, user units.
  ///   - y1: The first control point's y coordinate.
  ///   - x2: The second control point's x coordinate.
  ///   - y2: The second control point's y coordinate.
  ///   - x3: The end point's x coordinate.
  ///   - y3: The end point's y coordinate.
  public func curveTo(
    x1: Double, y1: Double, x2: Double, y2: Double, x3: Double, y3: Double
  ) {
    cairo_curve_to(pointer, x1, y1, x2, y2, x3, y3)
  }

  /// Closes the current sub-path with a line back to its start.
  ///
  /// The corresponding Cairo function is `cairo_close_path`.
  public func closePath() { cairo_close_path(pointer) }

  /// Adds a closed rectangle as a new sub-path.
  ///
  /// The corresponding Cairo function is `cairo_rectangle`.
  ///
  /// - Parameters:
  ///   - x: The left edge, user units.
  ///   - y: The top edge.
  ///   - width: The width.
  ///   - height: The height.
  public func rectangle(x: Double, y: Double, width: Double, height: Double) {
    cairo_rectangle(pointer, x, y, width, height)
  }

  /// The bounding box of the current path in user space; all zero when the path is empty.
  ///
  /// The corresponding Cairo function is `cairo_path_extents`.
  public var pathExtents: CairoRect {
    var x1 = 0.0
    var y1 = 0.0
    var x2 = 0.0
    var y2 = 0.0
    cairo_path_extents(pointer, &x1, &y1, &x2, &y2)
    return CairoRect(x1: x1, y1: y1, x2: x2, y2: y2)
  }

  // MARK: - Sources

  /// Paints with a solid colour.
  ///
  /// The corresponding Cairo function is `cairo_set_source_rgba`.
  ///
  /// - Parameters:
  ///   - red: Red, 0...1 (sRGB, not premultiplied; Cairo clamps it).
  ///   - green: Green, 0...1.
  ///   - blue: Blue, 0...1.
  ///   - alpha: Opacity, 0...1.
  public func setSourceRGBA(red: Double, green: Double, blue: Double, alpha: Double) {
    cairo_set_source_rgba(pointer, red, green, blue, alpha)
  }

  /// Paints with a linear gradient whose points are in the current user space; later transform
  /// changes do not move it.
  ///
  /// A gradient whose axis is vertical or horizontal in device space takes pixman's fast path
  /// (about 4× faster than a rotated one).
  ///
  /// The corresponding Cairo functions are `cairo_pattern_create_linear`,
  /// `cairo_pattern_add_color_stop_rgba`, `cairo_pattern_set_extend` and `cairo_set_source`.
  ///
  /// - Parameter gradient: The gradient.
  public func setSource(_ gradient: CairoLinearGradient) {
    guard
      let pattern = cairo_pattern_create_linear(
        gradient.x0, gradient.y0, gradient.x1, gradient.y1)
    else { return }
    defer { cairo_pattern_destroy(pattern) }
    for stop in gradient.stops {
      cairo_pattern_add_color_stop_rgba(
        pattern, stop.offset, stop.red, stop.green, stop.blue, stop.alpha)
    }
    cairo_pattern_set_extend(pattern, gradient.extend.cValue)
    cairo_set_source(pointer, pattern)
  }

  /// Paints with an image placed with its top-left corner at a point, one pixel per user unit.
  ///
  /// The corresponding Cairo functions are `cairo_set_source_surface`,
  /// `cairo_pattern_set_filter` and `cairo_pattern_set_extend`.
  ///
  /// - Parameters:
  ///   - image: The image.
  ///   - x: Where its left edge goes, user units.
  ///   - y: Where its top edge goes, user units.
  ///   - filter: How it is sampled when scaled or moved by fractions of a pixel.
  ///   - extend: What shows around it; `.pad` keeps a scaled image from fading into
  ///     transparency at its border.
  public func setSource(
    _ image: ImageSurface, x: Double, y: Double, filter: ImageFilter = .good,
    extend: CairoExtend = .none
  ) {
    cairo_set_source_surface(pointer, image.pointer, x, y)
    let source = cairo_get_source(pointer)
    cairo_pattern_set_filter(source, filter.cValue)
    if extend != .none { cairo_pattern_set_extend(source, extend.cValue) }
  }

  // MARK: - Painting

  /// The fill rule used by ``fill(preservingPath:)`` and ``clip(preservingPath:)``.
  ///
  /// The corresponding Cairo functions are `cairo_set_fill_rule` and `cairo_get_fill_rule`.
  public var fillRule: CairoFillRule {
    get { CairoFillRule(cairo_get_fill_rule(pointer)) }
    set { cairo_set_fill_rule(pointer, newValue.cValue) }
  }

  /// Fills the current path with the source.
  ///
  /// The corresponding Cairo functions are `cairo_fill` and `cairo_fill_preserve`.
  ///
  /// - Parameter preservingPath: Keep the path afterwards (default: clear it).
  public func fill(preservingPath: Bool = false) {
    if preservingPath { cairo_fill_preserve(pointer) } else { cairo_fill(pointer) }
  }

  /// Strokes the current path with the source and the line settings.
  ///
  /// The corresponding Cairo functions are `cairo_stroke` and `cairo_stroke_preserve`.
  ///
  /// - Parameter preservingPath: Keep the path afterwards (default: clear it).
  public func stroke(preservingPath: Bool = false) {
    if preservingPath { cairo_stroke_preserve(pointer) } else { cairo_stroke(pointer) }
  }

  /// Paints the source everywhere inside the clip.
  ///
  /// The corresponding Cairo function is `cairo_paint`.
  public func paint() { cairo_paint(pointer) }

  /// Paints the source everywhere inside the clip at a uniform opacity.
  ///
  /// The corresponding Cairo function is `cairo_paint_with_alpha`.
  ///
  /// - Parameter alpha: The opacity, 0...1 (clamped; not finite counts as 0).
  public func paint(alpha: Double) {
    cairo_paint_with_alpha(pointer, alpha.isFinite ? min(max(alpha, 0), 1) : 0)
  }

  /// Intersects the clip with the current path.
  ///
  /// The corresponding Cairo functions are `cairo_clip` and `cairo_clip_preserve`.
  ///
  /// - Parameter preservingPath: Keep the path afterwards (default: clear it).
  public func clip(preservingPath: Bool = false) {
    if preservingPath { cairo_clip_preserve(pointer) } else { cairo_clip(pointer) }
  }

  /// Removes the clip.
  ///
  /// The corresponding Cairo function is `cairo_reset_clip`.
  public func resetClip() { cairo_reset_clip(pointer) }

  /// The clip's bounding box in user space.
  ///
  /// The corresponding Cairo function is `cairo_clip_extents`.
  public var clipExtents: CairoRect {
    var x1 = 0.0
    var y1 = 0.0
    var x2 = 0.0
    var y2 = 0.0
    cairo_clip_extents(pointer, &x1, &y1, &x2, &y2)
    return CairoRect(x1: x1, y1: y1, x2: x2, y2: y2)
  }

  // MARK: - Line settings

  /// The stroke width, user units; negative or non-finite values set 0.
  ///
  /// The corresponding Cairo functions are `cairo_set_line_width` and `cairo_get_line_width`.
  public var lineWidth: Double {
    get { cairo_get_line_width(pointer) }
    set { cairo_set_line_width(pointer, newValue.isFinite ? max(newValue, 0) : 0) }
  }

  /// The shape of line ends.
  ///
  /// The corresponding Cairo functions are `cairo_set_line_cap` and `cairo_get_line_cap`.
  public var lineCap: LineCap {
    get { LineCap(cairo_get_line_cap(pointer)) }
    set { cairo_set_line_cap(pointer, newValue.cValue) }
  }

  /// The shape of corners.
  ///
  /// The corresponding Cairo functions are `cairo_set_line_join` and `cairo_get_line_join`.
  public var lineJoin: LineJoin {
    get { LineJoin(cairo_get_line_join(pointer)) }
    set { cairo_set_line_join(pointer, newValue.cValue) }
  }

  /// The ratio of miter length to line width beyond which miter joins are bevelled; Core
  /// Graphics and Cairo both default to 10. Values below 1 set 1, non-finite ones 10.
  ///
  /// The corresponding Cairo functions are `cairo_set_miter_limit` and `cairo_get_miter_limit`.
  public var miterLimit: Double {
    get { cairo_get_miter_limit(pointer) }
    set { cairo_set_miter_limit(pointer, newValue.isFinite ? max(newValue, 1) : 10) }
  }

  /// Sets the dash pattern; an empty pattern draws solid lines.
  ///
  /// The corresponding Cairo function is `cairo_set_dash`.
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

  /// Starts drawing into an offscreen group.
  ///
  /// The corresponding Cairo function is `cairo_push_group`.
  public func pushGroup() { cairo_push_group(pointer) }

  /// Ends the group started by ``pushGroup()`` and makes it the source, to paint, fill or mask
  /// with.
  ///
  /// The corresponding Cairo function is `cairo_pop_group_to_source`.
  public func popGroupToSource() { cairo_pop_group_to_source(pointer) }

  /// Ends the group started by ``pushGroup()`` and paints it at an opacity.
  ///
  /// The corresponding Cairo functions are `cairo_pop_group_to_source` and
  /// `cairo_paint_with_alpha`.
  ///
  /// - Parameter alpha: The group's opacity, 0...1.
  public func popGroup(paintingWithAlpha alpha: Double) {
    popGroupToSource()
    paint(alpha: alpha)
  }

  /// Draws `body` into a group and composites it at an opacity, so overlapping parts inside do
  /// not show through each other: Core Animation's layer `opacity`.
  ///
  /// When `body` throws, the group is discarded (`cairo_pop_group`) and the error rethrown.
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
}

@available(*, unavailable)
extension CairoContext: Sendable {}
