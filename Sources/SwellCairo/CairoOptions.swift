import CCairo

/// The shape at the open ends of stroked lines.
///
/// The corresponding C type is `cairo_line_cap_t`.
public enum LineCap: Sendable, Hashable {
  /// Ends exactly at the end point (`CAIRO_LINE_CAP_BUTT`), Cairo's default.
  case butt
  /// A half-circle around the end point (`CAIRO_LINE_CAP_ROUND`).
  case round
  /// A half-square around the end point (`CAIRO_LINE_CAP_SQUARE`).
  case square
}

/// The shape where stroked segments meet.
///
/// The corresponding C type is `cairo_line_join_t`.
public enum LineJoin: Sendable, Hashable {
  /// A sharp corner, cut off beyond the miter limit (`CAIRO_LINE_JOIN_MITER`), Cairo's default.
  case miter
  /// A rounded corner (`CAIRO_LINE_JOIN_ROUND`).
  case round
  /// A cut-off corner (`CAIRO_LINE_JOIN_BEVEL`).
  case bevel
}

/// Edge smoothing.
///
/// The corresponding C type is `cairo_antialias_t`.
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

/// How drawing combines with what is already there.
///
/// The corresponding C type is `cairo_operator_t`.
public enum CompositingOperator: Sendable, Hashable {
  /// Source over destination (`CAIRO_OPERATOR_OVER`), the default.
  case over
  /// Replace the destination (`CAIRO_OPERATOR_SOURCE`).
  case source
  /// Clear the destination to transparent (`CAIRO_OPERATOR_CLEAR`).
  case clear
}

/// How an image is sampled when scaled or moved by a fraction of a pixel.
///
/// The corresponding C type is `cairo_filter_t`.
public enum ImageFilter: Sendable, Hashable {
  /// Nearest pixel (`CAIRO_FILTER_NEAREST`).
  case nearest
  /// Bilinear (`CAIRO_FILTER_BILINEAR`).
  case bilinear
  /// Good quality (`CAIRO_FILTER_GOOD`), the default.
  case good
}

/// What a pattern shows outside its natural area: beyond a gradient's end points, or around an
/// image.
///
/// The corresponding C type is `cairo_extend_t`.
public enum CairoExtend: Sendable, Hashable {
  /// Transparent outside (`CAIRO_EXTEND_NONE`), the default for images.
  case none
  /// The pattern tiles (`CAIRO_EXTEND_REPEAT`).
  case repeating
  /// The pattern tiles, mirrored at each edge (`CAIRO_EXTEND_REFLECT`).
  case reflecting
  /// The edge colours continue (`CAIRO_EXTEND_PAD`), the default for gradients.
  case pad
}

/// Which parts of a self-intersecting or nested path are inside, for filling and clipping.
///
/// The corresponding C type is `cairo_fill_rule_t`.
public enum CairoFillRule: Sendable, Hashable {
  /// The non-zero winding rule (`CAIRO_FILL_RULE_WINDING`), Cairo's default: a point is inside
  /// when the path winds around it a non-zero number of times, counting direction.
  case winding
  /// The even-odd rule (`CAIRO_FILL_RULE_EVEN_ODD`): a point is inside when a ray from it crosses
  /// the path an odd number of times.
  case evenOdd
}

/// The slant of a font chosen with ``CairoContext/selectFont(family:slant:weight:)``.
///
/// The corresponding C type is `cairo_font_slant_t`.
public enum CairoFontSlant: Sendable, Hashable {
  /// Upright (`CAIRO_FONT_SLANT_NORMAL`).
  case normal
  /// Italic (`CAIRO_FONT_SLANT_ITALIC`).
  case italic
  /// Oblique (`CAIRO_FONT_SLANT_OBLIQUE`).
  case oblique
}

/// The weight of a font chosen with ``CairoContext/selectFont(family:slant:weight:)``.
///
/// The corresponding C type is `cairo_font_weight_t`.
public enum CairoFontWeight: Sendable, Hashable {
  /// Regular (`CAIRO_FONT_WEIGHT_NORMAL`).
  case normal
  /// Bold (`CAIRO_FONT_WEIGHT_BOLD`).
  case bold
}

/// The size of a piece of text as it would be drawn, in user units.
///
/// The corresponding C type is `cairo_text_extents_t`, with the fields in Swift case.
public struct CairoTextExtents: Hashable, Sendable {
  /// From the current point to the left edge of the ink.
  public var xBearing: Double
  /// From the current point (the baseline) to the top of the ink; negative for ink above it.
  public var yBearing: Double
  /// The width of the ink.
  public var width: Double
  /// The height of the ink.
  public var height: Double
  /// How far the current point moves across after drawing the text.
  public var xAdvance: Double
  /// How far the current point moves down after drawing the text (0 for horizontal text).
  public var yAdvance: Double

  /// Creates extents.
  ///
  /// - Parameters:
  ///   - xBearing: From the current point to the left edge of the ink.
  ///   - yBearing: From the current point to the top of the ink.
  ///   - width: The width of the ink.
  ///   - height: The height of the ink.
  ///   - xAdvance: The horizontal advance.
  ///   - yAdvance: The vertical advance.
  public init(
    xBearing: Double, yBearing: Double, width: Double, height: Double, xAdvance: Double,
    yAdvance: Double
  ) {
    self.xBearing = xBearing
    self.yBearing = yBearing
    self.width = width
    self.height = height
    self.xAdvance = xAdvance
    self.yAdvance = yAdvance
  }
}

/// A linear gradient between two points with colour stops, in the user space that is current
/// when it becomes the source (``CairoContext/setSource(_:)``).
///
/// The corresponding Cairo functions are `cairo_pattern_create_linear`,
/// `cairo_pattern_add_color_stop_rgba` and `cairo_pattern_set_extend`. Colours are sRGB
/// components in 0...1, not premultiplied; Cairo clamps them and sorts the stops by offset.
public struct CairoLinearGradient: Hashable, Sendable {
  /// One colour stop.
  public struct Stop: Hashable, Sendable {
    /// Where the colour sits: 0 at the start point, 1 at the end point.
    public var offset: Double
    /// Red, 0...1.
    public var red: Double
    /// Green, 0...1.
    public var green: Double
    /// Blue, 0...1.
    public var blue: Double
    /// Opacity, 0...1.
    public var alpha: Double

    /// Creates a stop.
    ///
    /// - Parameters:
    ///   - offset: The position along the gradient, 0...1.
    ///   - red: Red, 0...1.
    ///   - green: Green, 0...1.
    ///   - blue: Blue, 0...1.
    ///   - alpha: Opacity, 0...1.
    public init(offset: Double, red: Double, green: Double, blue: Double, alpha: Double) {
      self.offset = offset
      self.red = red
      self.green = green
      self.blue = blue
      self.alpha = alpha
    }
  }

  /// The x coordinate of the start point (offset 0).
  public var x0: Double
  /// The y coordinate of the start point (offset 0).
  public var y0: Double
  /// The x coordinate of the end point (offset 1).
  public var x1: Double
  /// The y coordinate of the end point (offset 1).
  public var y1: Double
  /// The colour stops, added in this order.
  public var stops: [Stop]
  /// What shows beyond the end points; `.pad` (the end colours continue) by default.
  public var extend: CairoExtend

  /// Creates a gradient.
  ///
  /// - Parameters:
  ///   - x0: The x coordinate of the start point.
  ///   - y0: The y coordinate of the start point.
  ///   - x1: The x coordinate of the end point.
  ///   - y1: The y coordinate of the end point.
  ///   - stops: The colour stops.
  ///   - extend: What shows beyond the end points.
  public init(
    x0: Double, y0: Double, x1: Double, y1: Double, stops: [Stop], extend: CairoExtend = .pad
  ) {
    self.x0 = x0
    self.y0 = y0
    self.x1 = x1
    self.y1 = y1
    self.stops = stops
    self.extend = extend
  }
}

// MARK: - C values

extension LineCap {
  init(_ value: cairo_line_cap_t) {
    switch value {
    case CAIRO_LINE_CAP_ROUND: self = .round
    case CAIRO_LINE_CAP_SQUARE: self = .square
    default: self = .butt
    }
  }

  var cValue: cairo_line_cap_t {
    switch self {
    case .butt: CAIRO_LINE_CAP_BUTT
    case .round: CAIRO_LINE_CAP_ROUND
    case .square: CAIRO_LINE_CAP_SQUARE
    }
  }
}

extension LineJoin {
  init(_ value: cairo_line_join_t) {
    switch value {
    case CAIRO_LINE_JOIN_ROUND: self = .round
    case CAIRO_LINE_JOIN_BEVEL: self = .bevel
    default: self = .miter
    }
  }

  var cValue: cairo_line_join_t {
    switch self {
    case .miter: CAIRO_LINE_JOIN_MITER
    case .round: CAIRO_LINE_JOIN_ROUND
    case .bevel: CAIRO_LINE_JOIN_BEVEL
    }
  }
}

extension Antialias {
  init(_ value: cairo_antialias_t) {
    switch value {
    case CAIRO_ANTIALIAS_NONE: self = .none
    case CAIRO_ANTIALIAS_FAST: self = .fast
    case CAIRO_ANTIALIAS_GOOD: self = .good
    case CAIRO_ANTIALIAS_BEST: self = .best
    default: self = .automatic
    }
  }

  var cValue: cairo_antialias_t {
    switch self {
    case .automatic: CAIRO_ANTIALIAS_DEFAULT
    case .none: CAIRO_ANTIALIAS_NONE
    case .fast: CAIRO_ANTIALIAS_FAST
    case .good: CAIRO_ANTIALIAS_GOOD
    case .best: CAIRO_ANTIALIAS_BEST
    }
  }
}

extension CompositingOperator {
  init(_ value: cairo_operator_t) {
    switch value {
    case CAIRO_OPERATOR_SOURCE: self = .source
    case CAIRO_OPERATOR_CLEAR: self = .clear
    default: self = .over
    }
  }

  var cValue: cairo_operator_t {
    switch self {
    case .over: CAIRO_OPERATOR_OVER
    case .source: CAIRO_OPERATOR_SOURCE
    case .clear: CAIRO_OPERATOR_CLEAR
    }
  }
}

extension ImageFilter {
  var cValue: cairo_filter_t {
    switch self {
    case .nearest: CAIRO_FILTER_NEAREST
    case .bilinear: CAIRO_FILTER_BILINEAR
    case .good: CAIRO_FILTER_GOOD
    }
  }
}

extension CairoExtend {
  var cValue: cairo_extend_t {
    switch self {
    case .none: CAIRO_EXTEND_NONE
    case .repeating: CAIRO_EXTEND_REPEAT
    case .reflecting: CAIRO_EXTEND_REFLECT
    case .pad: CAIRO_EXTEND_PAD
    }
  }
}

extension CairoFillRule {
  init(_ value: cairo_fill_rule_t) {
    self = value == CAIRO_FILL_RULE_EVEN_ODD ? .evenOdd : .winding
  }

  var cValue: cairo_fill_rule_t {
    switch self {
    case .winding: CAIRO_FILL_RULE_WINDING
    case .evenOdd: CAIRO_FILL_RULE_EVEN_ODD
    }
  }
}

extension CairoFontSlant {
  var cValue: cairo_font_slant_t {
    switch self {
    case .normal: CAIRO_FONT_SLANT_NORMAL
    case .italic: CAIRO_FONT_SLANT_ITALIC
    case .oblique: CAIRO_FONT_SLANT_OBLIQUE
    }
  }
}

extension CairoFontWeight {
  var cValue: cairo_font_weight_t {
    switch self {
    case .normal: CAIRO_FONT_WEIGHT_NORMAL
    case .bold: CAIRO_FONT_WEIGHT_BOLD
    }
  }
}
