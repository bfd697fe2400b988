import SwellGeometry

/// A linear colour gradient between two points, with colour stops
/// (`cairo_pattern_create_linear` + `cairo_pattern_add_color_stop_rgba`).
///
/// The points are in the user space that is current when the gradient is set as the source
/// (`CairoContext.setSource(_:)`); later transform changes do not move it.
/// Outside the start–end span the end colours continue (`CAIRO_EXTEND_PAD`), as in Core
/// Animation's `CAGradientLayer`.
public struct LinearGradientPattern: Hashable, Sendable {
  /// One colour stop.
  public struct Stop: Hashable, Sendable {
    /// Where the colour sits: 0 at ``start``, 1 at ``end``.
    public var location: Double
    /// The colour at that location (not premultiplied).
    public var color: Color

    /// Creates a stop.
    ///
    /// - Parameters:
    ///   - location: The position along the gradient, 0...1.
    ///   - color: The colour.
    public init(location: Double, color: Color) {
      self.location = location
      self.color = color
    }
  }

  /// The point where location 0 lies, user-space units.
  public var start: Point
  /// The point where location 1 lies, user-space units.
  public var end: Point
  /// The colour stops, in increasing location.
  public var stops: [Stop]

  /// Creates a gradient from explicit stops.
  ///
  /// - Parameters:
  ///   - start: The point of location 0.
  ///   - end: The point of location 1.
  ///   - stops: The stops, in increasing location.
  public init(start: Point, end: Point, stops: [Stop]) {
    self.start = start
    self.end = end
    self.stops = stops
  }

  /// Creates a gradient with colours spread evenly from start to end.
  ///
  /// - Parameters:
  ///   - start: The point of location 0.
  ///   - end: The point of location 1.
  ///   - colors: The colours; one colour gives a solid fill.
  public init(start: Point, end: Point, colors: [Color]) {
    let last = Double(max(colors.count - 1, 1))
    self.init(
      start: start, end: end,
      stops: colors.enumerated().map { Stop(location: Double($0.offset) / last, color: $0.element) }
    )
  }

  /// The gradient with both end points mapped by a transform (stops unchanged).
  ///
  /// - Parameter t: The transform.
  /// - Returns: The moved gradient.
  public func applying(_ t: AffineTransform) -> LinearGradientPattern {
    LinearGradientPattern(start: t.apply(to: start), end: t.apply(to: end), stops: stops)
  }
}
