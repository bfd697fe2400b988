/// A point in a 2D layer coordinate space, in points, origin top left, y down (UIKit's).
public struct Point: Hashable, Sendable, Codable {
  /// The horizontal coordinate, points.
  public var x: Double
  /// The vertical coordinate, points (down is positive).
  public var y: Double

  /// Creates a point.
  ///
  /// - Parameters:
  ///   - x: The horizontal coordinate, points.
  ///   - y: The vertical coordinate, points.
  @inlinable
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin `(0, 0)`.
  public static let zero = Point(x: 0, y: 0)

  /// The component-wise sum (also used as point + offset).
  @inlinable
  public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }

  /// The component-wise difference.
  @inlinable
  public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }

  /// The point scaled about the origin.
  @inlinable
  public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }

  /// The distance to another point, points.
  ///
  /// - Parameter other: The other point.
  /// - Returns: The Euclidean distance.
  @inlinable
  public func distance(to other: Point) -> Double {
    let dx = x - other.x
    let dy = y - other.y
    return (dx * dx + dy * dy).squareRoot()
  }
}

/// A width and height, in points.
public struct Size: Hashable, Sendable, Codable {
  /// The width, points.
  public var width: Double
  /// The height, points.
  public var height: Double

  /// Creates a size.
  ///
  /// - Parameters:
  ///   - width: The width, points.
  ///   - height: The height, points.
  @inlinable
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The empty size.
  public static let zero = Size(width: 0, height: 0)

  /// The component-wise sum.
  @inlinable
  public static func + (a: Size, b: Size) -> Size {
    Size(width: a.width + b.width, height: a.height + b.height)
  }

  /// The component-wise difference.
  @inlinable
  public static func - (a: Size, b: Size) -> Size {
    Size(width: a.width - b.width, height: a.height - b.height)
  }

  /// The size scaled by a factor.
  @inlinable
  public static func * (a: Size, s: Double) -> Size {
    Size(width: a.width * s, height: a.height * s)
  }
}

/// An axis-aligned rectangle, in points: an origin (top-left corner) and a size.
public struct Rect: Hashable, Sendable, Codable {
  /// The top-left corner.
  public var origin: Point
  /// The width and height.
  public var size: Size

  /// Creates a rectangle from origin and size.
  ///
  /// - Parameters:
  ///   - origin: The top-left corner.
  ///   - size: The width and height.
  @inlinable
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from its four numbers, points.
  ///
  /// - Parameters:
  ///   - x: The left edge.
  ///   - y: The top edge.
  ///   - width: The width.
  ///   - height: The height.
  @inlinable
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// The empty rectangle at the origin.
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  /// The smallest x.
  @inlinable public var minX: Double { min(origin.x, origin.x + size.width) }
  /// The largest x.
  @inlinable public var maxX: Double { max(origin.x, origin.x + size.width) }
  /// The smallest y.
  @inlinable public var minY: Double { min(origin.y, origin.y + size.height) }
  /// The largest y.
  @inlinable public var maxY: Double { max(origin.y, origin.y + size.height) }
  /// The horizontal centre.
  @inlinable public var midX: Double { origin.x + size.width / 2 }
  /// The vertical centre.
  @inlinable public var midY: Double { origin.y + size.height / 2 }
  /// The width (absolute).
  @inlinable public var width: Double { abs(size.width) }
  /// The height (absolute).
  @inlinable public var height: Double { abs(size.height) }
  /// The centre point.
  @inlinable public var center: Point { Point(x: midX, y: midY) }
  /// True when the width or height is zero.
  @inlinable public var isEmpty: Bool { size.width == 0 || size.height == 0 }

  /// True when the point lies inside (edges on the min side included).
  ///
  /// - Parameter p: The point.
  /// - Returns: Whether `p` is within the rectangle.
  @inlinable
  public func contains(_ p: Point) -> Bool {
    p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
  }

  /// The smallest rectangle containing both.
  ///
  /// - Parameter other: The other rectangle.
  /// - Returns: The union. An operand equal to ``zero`` is ignored (it plays the part of
  ///   `CGRect.null`); any other zero-size rectangle counts as its origin point.
  public func union(_ other: Rect) -> Rect {
    if isEmpty && origin == .zero { return other }
    if other.isEmpty && other.origin == .zero { return self }
    let x0 = min(minX, other.minX)
    let y0 = min(minY, other.minY)
    return Rect(
      x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
  }

  /// The rectangle grown by `dx` on the left and right and `dy` on the top and bottom.
  ///
  /// - Parameters:
  ///   - dx: The inset on each horizontal side (negative grows).
  ///   - dy: The inset on each vertical side (negative grows).
  /// - Returns: The inset rectangle.
  public func insetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
  }
}
