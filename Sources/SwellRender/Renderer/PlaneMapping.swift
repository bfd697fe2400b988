import SwellGeometry

/// How a layer's bounds plane maps onto the canvas: the homography `(x, y, 1) → (X, Y, W)` taken
/// from a 4×4 layer-to-canvas transform for points with z = 0, followed by the division by W.
struct PlaneMapping {
  private let m11: Double
  private let m12: Double
  private let m14: Double
  private let m21: Double
  private let m22: Double
  private let m24: Double
  private let m41: Double
  private let m42: Double
  private let m44: Double

  /// The smallest W a visible point may have; points at or behind the eye plane are rejected.
  static let minimumW = 1e-6

  init(_ t: Transform3D) {
    m11 = t.m11
    m12 = t.m12
    m14 = t.m14
    m21 = t.m21
    m22 = t.m22
    m24 = t.m24
    m41 = t.m41
    m42 = t.m42
    m44 = t.m44
  }

  /// The mapping as a 2D affine transform, or `nil` when it has perspective.
  var affine: AffineTransform? {
    guard abs(m14) < 1e-12, abs(m24) < 1e-12, m44 > Self.minimumW else { return nil }
    return AffineTransform(
      a: m11 / m44, b: m12 / m44, c: m21 / m44, d: m22 / m44, tx: m41 / m44, ty: m42 / m44)
  }

  /// Maps a point of the layer plane to the canvas, or `nil` when it lies at or behind the eye.
  func map(_ p: Point) -> Point? {
    let w = p.x * m14 + p.y * m24 + m44
    guard w > Self.minimumW else { return nil }
    let x = (p.x * m11 + p.y * m21 + m41) / w
    let y = (p.x * m12 + p.y * m22 + m42) / w
    guard x.isFinite, y.isFinite else { return nil }
    return Point(x: x, y: y)
  }

  /// The canvas-space bounding box of a rectangle of the layer plane, or `nil` when a corner
  /// cannot be mapped.
  func boundingBox(of rect: Rect) -> Rect? {
    let corners = [
      Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
      Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY),
    ]
    var mapped: [Point] = []
    for c in corners {
      guard let m = map(c) else { return nil }
      mapped.append(m)
    }
    let xs = mapped.map(\.x)
    let ys = mapped.map(\.y)
    guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else {
      return nil
    }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The local linear scale at a point: the square root of the area ratio (for stroke widths
  /// under perspective).
  func localScale(at p: Point) -> Double {
    guard let o = map(p), let u = map(Point(x: p.x + 1, y: p.y)),
      let v = map(Point(x: p.x, y: p.y + 1))
    else { return 1 }
    let area = abs((u.x - o.x) * (v.y - o.y) - (u.y - o.y) * (v.x - o.x))
    return area.squareRoot()
  }

  /// The path mapped point by point, with curves first split into `segments` straight pieces
  /// (a homography maps lines to lines but not Bézier curves to Bézier curves); `nil` when any
  /// point cannot be mapped.
  func project(_ path: Path, segments: Int) -> Path? {
    var out = Path()
    var current = Point.zero
    var start = Point.zero
    for element in path.elements {
      switch element {
      case .move(let p):
        guard let q = map(p) else { return nil }
        out.move(to: q)
        current = p
        start = p
      case .line(let p):
        guard let q = map(p) else { return nil }
        out.line(to: q)
        current = p
      case .curve(let p, let c1, let c2):
        let points = Path.cubicPoints(
          from: current, control1: c1, control2: c2, to: p, segments: segments)
        for point in points {
          guard let q = map(point) else { return nil }
          out.line(to: q)
        }
        current = p
      case .close:
        out.close()
        current = start
      }
    }
    return out
  }
}
