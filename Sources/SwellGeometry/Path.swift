/// A 2D path of move, line, cubic Bézier and close elements, in points.
///
/// Paths are value types; `ShapeLayer` fills them with its fill rule (non-zero by default).
public struct Path: Hashable, Sendable, Codable {
  /// One element of a path.
  public enum Element: Hashable, Sendable, Codable {
    /// Starts a new subpath at a point.
    case move(to: Point)
    /// A straight line to a point.
    case line(to: Point)
    /// A cubic Bézier curve to a point with two control points.
    case curve(to: Point, control1: Point, control2: Point)
    /// Closes the current subpath with a line back to its start.
    case close
  }

  /// The elements in order.
  public private(set) var elements: [Element] = []

  /// Creates an empty path.
  public init() {}

  /// Creates a path from its elements.
  ///
  /// - Parameter elements: The elements in order.
  public init(elements: [Element]) { self.elements = elements }

  /// A closed rectangle.
  ///
  /// - Parameter rect: The rectangle, points.
  public init(rect: Rect) {
    self.init()
    move(to: Point(x: rect.minX, y: rect.minY))
    line(to: Point(x: rect.maxX, y: rect.minY))
    line(to: Point(x: rect.maxX, y: rect.maxY))
    line(to: Point(x: rect.minX, y: rect.maxY))
    close()
  }

  /// A closed rectangle with circular corners (cubic approximation, κ = 0.5523).
  ///
  /// - Parameters:
  ///   - rect: The rectangle, points.
  ///   - cornerRadius: The corner radius, points; clamped to half the shorter side.
  public init(roundedRect rect: Rect, cornerRadius: Double) {
    let r = max(0, min(cornerRadius, min(rect.width, rect.height) / 2))
    if r == 0 {
      self.init(rect: rect)
      return
    }
    self.init()
    let k = 0.552_284_749_831 * r
    let (x0, y0, x1, y1) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
    move(to: Point(x: x0 + r, y: y0))
    line(to: Point(x: x1 - r, y: y0))
    curve(
      to: Point(x: x1, y: y0 + r), control1: Point(x: x1 - r + k, y: y0),
      control2: Point(x: x1, y: y0 + r - k))
    line(to: Point(x: x1, y: y1 - r))
    curve(
      to: Point(x: x1 - r, y: y1), control1: Point(x: x1, y: y1 - r + k),
      control2: Point(x: x1 - r + k, y: y1))
    line(to: Point(x: x0 + r, y: y1))
    curve(
      to: Point(x: x0, y: y1 - r), control1: Point(x: x0 + r - k, y: y1),
      control2: Point(x: x0, y: y1 - r + k))
    line(to: Point(x: x0, y: y0 + r))
    curve(
      to: Point(x: x0 + r, y: y0), control1: Point(x: x0, y: y0 + r - k),
      control2: Point(x: x0 + r - k, y: y0))
    close()
  }

  /// An ellipse inscribed in a rectangle (four cubic arcs).
  ///
  /// - Parameter rect: The bounding rectangle, points.
  public init(ellipseIn rect: Rect) {
    self.init()
    let rx = rect.width / 2
    let ry = rect.height / 2
    let cx = rect.midX
    let cy = rect.midY
    let kx = 0.552_284_749_831 * rx
    let ky = 0.552_284_749_831 * ry
    move(to: Point(x: cx + rx, y: cy))
    curve(
      to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + ky),
      control2: Point(x: cx + kx, y: cy + ry))
    curve(
      to: Point(x: cx - rx, y: cy), control1: Point(x: cx - kx, y: cy + ry),
      control2: Point(x: cx - rx, y: cy + ky))
    curve(
      to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - ky),
      control2: Point(x: cx - kx, y: cy - ry))
    curve(
      to: Point(x: cx + rx, y: cy), control1: Point(x: cx + kx, y: cy - ry),
      control2: Point(x: cx + rx, y: cy - ky))
    close()
  }

  /// True when the path has no elements.
  public var isEmpty: Bool { elements.isEmpty }

  /// Starts a new subpath.
  ///
  /// - Parameter p: The start point.
  public mutating func move(to p: Point) { elements.append(.move(to: p)) }

  /// Adds a straight line.
  ///
  /// - Parameter p: The end point.
  public mutating func line(to p: Point) { elements.append(.line(to: p)) }

  /// Adds a cubic Bézier curve.
  ///
  /// - Parameters:
  ///   - p: The end point.
  ///   - c1: The first control point.
  ///   - c2: The second control point.
  public mutating func curve(to p: Point, control1 c1: Point, control2 c2: Point) {
    elements.append(.curve(to: p, control1: c1, control2: c2))
  }

  /// Closes the current subpath.
  public mutating func close() { elements.append(.close) }

  /// Appends all elements of another path.
  ///
  /// - Parameter other: The path to append.
  public mutating func append(_ other: Path) { elements += other.elements }

  /// The bounding box of all points, control points included (`CGPath.boundingBox` is tighter;
  /// this is the cheap `CGPath.boundingBoxOfPath`-style control-point box); `.zero` when empty.
  public var bounds: Rect {
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    func add(_ p: Point) {
      minX = min(minX, p.x)
      minY = min(minY, p.y)
      maxX = max(maxX, p.x)
      maxY = max(maxY, p.y)
    }
    for e in elements {
      switch e {
      case .move(let p), .line(let p): add(p)
      case .curve(let p, let c1, let c2):
        add(p)
        add(c1)
        add(c2)
      case .close: break
      }
    }
    guard minX.isFinite else { return .zero }
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }

  /// The path with every point mapped by an affine transform.
  ///
  /// - Parameter t: The transform.
  /// - Returns: The transformed path.
  public func applying(_ t: AffineTransform) -> Path {
    Path(
      elements: elements.map { e in
        switch e {
        case .move(let p): return .move(to: t.apply(to: p))
        case .line(let p): return .line(to: t.apply(to: p))
        case .curve(let p, let c1, let c2):
          return .curve(to: t.apply(to: p), control1: t.apply(to: c1), control2: t.apply(to: c2))
        case .close: return .close
        }
      })
  }

  /// The number of on-curve points (move, line and curve end points).
  public var pointCount: Int {
    elements.reduce(0) { n, e in
      if case .close = e { return n }
      return n + 1
    }
  }
}
