import Foundation
import SwellGeometry

/// The vessel that holds a ``WaterBody``: an outline in the water layer's bounds space
/// (points, origin at the top left, y down) and the real size of a point.
///
/// The outline is any closed path (a rectangle, a rounded rectangle, an ellipse, SVG path data),
/// flattened to a polygon (each Bézier curve split into ``curveSegments`` lines). Only the
/// largest closed subpath is used. The water's physics sees the outline through vertical
/// sections in the frame of gravity: for convex outlines (every built-in shape, a glass) this is
/// exact; a concave outline is treated by its lower and upper envelope (a pocket in a side wall
/// is filled as if the wall went straight up), which the documentation states. A container is
/// closed unless ``isOpen`` is set (a glass, open at the top of its outline).
public struct WaterContainer: Hashable, Sendable {
  /// Metres per point on an iPhone: 1/160 inch (the size of a point on its screen).
  public static let iPhoneMetresPerPoint = 0.0254 / 160
  /// The number of straight pieces each Bézier curve of an outline is split into.
  public static let curveSegments = 24

  /// The outline polygon, points in the layer's bounds space, in path order (no repeated end).
  public let outline: [Point]
  /// The enclosed area, points².
  public let area: Double
  /// The centroid of the enclosed area, points in the layer's bounds space.
  public let centroid: Point
  /// The largest distance from the centroid to the outline, points.
  public let radius: Double
  /// The real length of one point, metres (sets the physics' scale: frequencies, wave speeds).
  public let metresPerPoint: Double
  /// Whether the container is open at its top, like a glass (default `false`: closed, like a
  /// phone-shaped tank). The opening is the outline's straight top edge in the layer's bounds
  /// space (``rim``): water in an open container (``WaterBody``) that stands above the rim's
  /// lower end in the frame of gravity pours over it as weir flow, so a glass turned over
  /// empties over its rim, and it refills when it stands upright again
  /// (``WaterBody/Parameters/refillRate``).
  public var isOpen = false

  /// The ends of the opening of an open container (``isOpen``): the leftmost and rightmost
  /// outline points at the outline's smallest y (to 10⁻⁶ of its size), points in the layer's
  /// bounds space; one point when the top is a single vertex (a round top has no opening).
  public var rim: [Point] {
    guard let top = outline.map(\.y).min() else { return [] }
    let edge = outline.filter { $0.y <= top + 1e-6 * max(radius, 1) }
    guard let left = edge.min(by: { $0.x < $1.x }), let right = edge.max(by: { $0.x < $1.x })
    else { return [] }
    return left == right ? [left] : [left, right]
  }

  /// Creates a container from a closed outline, or fails (`nil`) when the outline encloses no
  /// area or its points are not finite, or when `metresPerPoint` is not a positive finite number.
  ///
  /// - Parameters:
  ///   - path: The outline, points in the layer's bounds space; its largest closed subpath is
  ///     used (an open subpath is closed by a straight line).
  ///   - metresPerPoint: The real size of a point, metres (default 1/160 inch: an iPhone's).
  public init?(outline path: Path, metresPerPoint: Double = WaterContainer.iPhoneMetresPerPoint) {
    guard metresPerPoint.isFinite, metresPerPoint > 0 else { return nil }
    var best: [Point] = []
    var bestArea = 0.0
    for polygon in Self.flatten(path) {
      let a = abs(Self.signedArea(polygon))
      if a > bestArea {
        bestArea = a
        best = polygon
      }
    }
    guard best.count >= 3, bestArea.isFinite, bestArea > 1e-9,
      best.allSatisfy({ $0.x.isFinite && $0.y.isFinite })
    else { return nil }
    outline = best
    area = bestArea
    let signed = Self.signedArea(best)
    var cx = 0.0
    var cy = 0.0
    for i in best.indices {
      let p = best[i]
      let q = best[(i + 1) % best.count]
      let cross = p.x * q.y - q.x * p.y
      cx += (p.x + q.x) * cross
      cy += (p.y + q.y) * cross
    }
    let c = Point(x: cx / (6 * signed), y: cy / (6 * signed))
    centroid = c
    radius = best.map { $0.distance(to: c) }.max() ?? 0
    self.metresPerPoint = metresPerPoint
  }

  /// A container whose real width is given: the outline's bounding-box width is `width`
  /// centimetres; `nil` for an outline without area or a width that is not positive.
  ///
  /// - Parameters:
  ///   - path: The outline, points in the layer's bounds space.
  ///   - centimetres: The real width of the outline's bounding box, centimetres (positive).
  public init?(outline path: Path, widthCentimetres centimetres: Double) {
    let w = path.bounds.width
    guard centimetres.isFinite, centimetres > 0, w > 0 else { return nil }
    self.init(outline: path, metresPerPoint: centimetres / 100 / w)
  }

  /// A rectangular container (the whole layer, say); `nil` for an empty rectangle.
  ///
  /// - Parameters:
  ///   - rect: The rectangle, points in the layer's bounds space.
  ///   - cornerRadius: The corner radius, points (default 0).
  ///   - metresPerPoint: The real size of a point, metres.
  public init?(
    rect: Rect, cornerRadius: Double = 0,
    metresPerPoint: Double = WaterContainer.iPhoneMetresPerPoint
  ) {
    let path =
      cornerRadius > 0 ? Path(roundedRect: rect, cornerRadius: cornerRadius) : Path(rect: rect)
    self.init(outline: path, metresPerPoint: metresPerPoint)
  }

  /// The outline as a closed path, points in the layer's bounds space.
  public var path: Path {
    var p = Path()
    for (i, q) in outline.enumerated() {
      if i == 0 { p.move(to: q) } else { p.line(to: q) }
    }
    p.close()
    return p
  }

  // MARK: - Flattening

  static func flatten(_ path: Path) -> [[Point]] {
    var polygons: [[Point]] = []
    var current: [Point] = []
    var last = Point.zero
    func finish() {
      if let first = current.first, let end = current.last, current.count > 1,
        first.distance(to: end) < 1e-12
      {
        current.removeLast()
      }
      if current.count >= 3 { polygons.append(current) }
      current = []
    }
    for element in path.elements {
      switch element {
      case .move(let p):
        finish()
        current = [p]
        last = p
      case .line(let p):
        if current.isEmpty { current = [last] }
        current.append(p)
        last = p
      case .curve(let p, let c1, let c2):
        if current.isEmpty { current = [last] }
        current += Path.cubicPoints(
          from: last, control1: c1, control2: c2, to: p, segments: curveSegments)
        last = p
      case .close:
        let start = current.first ?? last
        finish()
        last = start
      }
    }
    finish()
    return polygons
  }

  static func signedArea(_ polygon: [Point]) -> Double {
    var s = 0.0
    for i in polygon.indices {
      let p = polygon[i]
      let q = polygon[(i + 1) % polygon.count]
      s += p.x * q.y - q.x * p.y
    }
    return s / 2
  }
}

/// The container seen in the frame of gravity: its outline's vertices as horizontal position
/// `s` (points, along the world's right, from the container's centroid) and height `z` (points,
/// up, from the centroid), given the unit vector `down` in the layer's bounds space.
struct ContainerSection {
  /// Vertex positions along the horizontal axis, points.
  var s: [Double]
  /// Vertex heights, points (up).
  var z: [Double]
  var minS: Double
  var maxS: Double
  var minZ: Double
  var maxZ: Double

  init(_ container: WaterContainer, down: Point) {
    let c = container.centroid
    // The world's right on screen: `down` turned a quarter turn (t = (d.y, −d.x)).
    let tx = down.y
    let ty = -down.x
    s = []
    z = []
    s.reserveCapacity(container.outline.count)
    z.reserveCapacity(container.outline.count)
    for p in container.outline {
      let dx = p.x - c.x
      let dy = p.y - c.y
      s.append(dx * tx + dy * ty)
      z.append(-(dx * down.x + dy * down.y))
    }
    minS = s.min() ?? 0
    maxS = s.max() ?? 0
    minZ = z.min() ?? 0
    maxZ = z.max() ?? 0
  }

  /// The area below a level (points²), and the leftmost and rightmost points where the level
  /// line meets the outline (the free surface's ends at rest), points.
  func below(_ level: Double) -> (area: Double, left: Double, right: Double) {
    let n = s.count
    var area = 0.0
    var left = Double.infinity
    var right = -Double.infinity
    // Sutherland–Hodgman against z ≤ level, accumulating the shoelace sum on the fly.
    var firstS = 0.0
    var firstZ = 0.0
    var prevS = 0.0
    var prevZ = 0.0
    var started = false
    func emit(_ ps: Double, _ pz: Double) {
      if started {
        area += prevS * pz - ps * prevZ
      } else {
        firstS = ps
        firstZ = pz
        started = true
      }
      prevS = ps
      prevZ = pz
    }
    for i in 0..<n {
      let j = (i + 1) % n
      let aIn = z[i] <= level
      let bIn = z[j] <= level
      if aIn { emit(s[i], z[i]) }
      if aIn != bIn {
        let f = (level - z[i]) / (z[j] - z[i])
        let cs = s[i] + f * (s[j] - s[i])
        emit(cs, level)
        left = min(left, cs)
        right = max(right, cs)
      }
    }
    if started { area += prevS * firstZ - firstS * prevZ }
    if !left.isFinite {
      // The level misses the outline: empty below it, or the whole container.
      return level >= maxZ ? (abs(area) / 2, minS, maxS) : (0, 0, 0)
    }
    return (abs(area) / 2, left, right)
  }

  /// The level whose area below is `target` (points²), to a relative 1e-13 of the container's
  /// area (safeguarded Newton: the derivative is the level line's length inside).
  func level(forArea target: Double, total: Double) -> Double {
    if target <= 0 { return minZ }
    if target >= total { return maxZ }
    var lo = minZ
    var hi = maxZ
    var x = minZ + (maxZ - minZ) * target / total
    for _ in 0..<80 {
      let b = below(x)
      let f = b.area - target
      if abs(f) <= 1e-13 * total { return x }
      if f < 0 { lo = x } else { hi = x }
      let width = b.right - b.left
      var next = width > 1e-12 ? x - f / width : (lo + hi) / 2
      if !(next > lo && next < hi) { next = (lo + hi) / 2 }
      x = next
      if hi - lo <= 1e-12 * max(1, abs(x)) { break }
    }
    return x
  }

  /// The lower and upper edge of the outline on the vertical line at `position` (points), or
  /// `nil` when the line misses it.
  func verticalExtent(at position: Double) -> (bottom: Double, top: Double)? {
    var bottom = Double.infinity
    var top = -Double.infinity
    let n = s.count
    for i in 0..<n {
      let j = (i + 1) % n
      let a = s[i]
      let b = s[j]
      guard (a <= position && position < b) || (b <= position && position < a) else { continue }
      let zz = z[i] + (position - a) / (b - a) * (z[j] - z[i])
      bottom = min(bottom, zz)
      top = max(top, zz)
    }
    return bottom.isFinite ? (bottom, top) : nil
  }
}
