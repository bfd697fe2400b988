import CCairo

/// An affine transform as Cairo stores it: a point (x, y) maps to
/// (xx·x + xy·y + x0, yx·x + yy·y + y0).
///
/// The corresponding C type is `cairo_matrix_t`, with the same field names.
public struct CairoMatrix: Hashable, Sendable {
  /// The x component of the mapped x axis.
  public var xx: Double
  /// The y component of the mapped x axis.
  public var yx: Double
  /// The x component of the mapped y axis.
  public var xy: Double
  /// The y component of the mapped y axis.
  public var yy: Double
  /// The x translation.
  public var x0: Double
  /// The y translation.
  public var y0: Double

  /// Creates a matrix from its six components.
  ///
  /// The corresponding Cairo function is `cairo_matrix_init`.
  ///
  /// - Parameters:
  ///   - xx: The x component of the mapped x axis.
  ///   - yx: The y component of the mapped x axis.
  ///   - xy: The x component of the mapped y axis.
  ///   - yy: The y component of the mapped y axis.
  ///   - x0: The x translation.
  ///   - y0: The y translation.
  public init(xx: Double, yx: Double, xy: Double, yy: Double, x0: Double, y0: Double) {
    self.xx = xx
    self.yx = yx
    self.xy = xy
    self.yy = yy
    self.x0 = x0
    self.y0 = y0
  }

  /// The identity: every point maps to itself.
  ///
  /// The corresponding Cairo function is `cairo_matrix_init_identity`.
  public static let identity = CairoMatrix(xx: 1, yx: 0, xy: 0, yy: 1, x0: 0, y0: 0)

  /// The determinant `xx·yy − yx·xy`; zero for a matrix that cannot be inverted.
  public var determinant: Double { xx * yy - yx * xy }

  /// True when the matrix can be inverted and all of it is finite, which is what Cairo needs
  /// of a transform: a non-zero finite determinant and a finite translation.
  public var isInvertible: Bool {
    let d = determinant
    return d != 0 && d.isFinite && x0.isFinite && y0.isFinite
  }

  /// Maps a point.
  ///
  /// The corresponding Cairo function is `cairo_matrix_transform_point`.
  ///
  /// - Parameters:
  ///   - x: The x coordinate.
  ///   - y: The y coordinate.
  /// - Returns: The mapped point.
  public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
    (xx * x + xy * y + x0, yx * x + yy * y + y0)
  }

  /// The C value.
  var cValue: cairo_matrix_t { cairo_matrix_t(xx: xx, yx: yx, xy: xy, yy: yy, x0: x0, y0: y0) }

  /// Wraps a C value.
  init(_ m: cairo_matrix_t) {
    self.init(xx: m.xx, yx: m.yx, xy: m.xy, yy: m.yy, x0: m.x0, y0: m.y0)
  }
}

/// A rectangle in user or device units, as Cairo's extents functions report it: the origin at
/// the top-left corner (smallest x and y) and a size that is never negative.
public struct CairoRect: Hashable, Sendable {
  /// The left edge.
  public var x: Double
  /// The top edge (y grows downward on image surfaces).
  public var y: Double
  /// The width.
  public var width: Double
  /// The height.
  public var height: Double

  /// Creates a rectangle.
  ///
  /// - Parameters:
  ///   - x: The left edge.
  ///   - y: The top edge.
  ///   - width: The width.
  ///   - height: The height.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// Creates the rectangle between two corners, as `cairo_path_extents` and
  /// `cairo_clip_extents` report it.
  ///
  /// - Parameters:
  ///   - x1: The left edge.
  ///   - y1: The top edge.
  ///   - x2: The right edge.
  ///   - y2: The bottom edge.
  init(x1: Double, y1: Double, x2: Double, y2: Double) {
    self.init(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
  }

  /// The left edge, `x`.
  public var minX: Double { x }
  /// The top edge, `y`.
  public var minY: Double { y }
  /// The right edge, `x + width`.
  public var maxX: Double { x + width }
  /// The bottom edge, `y + height`.
  public var maxY: Double { y + height }
}
