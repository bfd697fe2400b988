import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@Suite("Color")
private struct ColorTests {
  @Test(
    "Hex parsing of every accepted form",
    arguments: [
      ("#FF8000", 255, 128, 0, 255), ("ff8000", 255, 128, 0, 255), ("#f80", 255, 136, 0, 255),
      ("#11223344", 0x11, 0x22, 0x33, 0x44), ("#000000", 0, 0, 0, 255),
      ("#FFFFFF00", 255, 255, 255, 0), ("aBc", 0xAA, 0xBB, 0xCC, 255),
    ])
  func parse(hex: String, r: Int, g: Int, b: Int, a: Int) throws {
    let c = try #require(Color(hex: hex))
    #expect(c.red == Double(r) / 255)
    #expect(c.green == Double(g) / 255)
    #expect(c.blue == Double(b) / 255)
    #expect(c.alpha == Double(a) / 255)
  }

  @Test(
    "Malformed hex strings are rejected",
    arguments: [
      "", "#", "#12", "#1234", "#12345", "#1234567", "#123456789", "#GGHHII", "##123",
      "#12 456", "+12345", "#１２３", "0x123456",
    ])
  func reject(hex: String) {
    #expect(Color(hex: hex) == nil)
  }

  @Test("Printing and parsing round trip for every 8-bit colour sampled", arguments: propertySeeds)
  func roundTrip(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<500 {
      let bytes = (0..<4).map { _ in Int.random(in: 0...255, using: &rng) }
      let expected = "#" + bytes.map { String(format: "%02X", $0) }.joined()
      let c = try #require(Color(hex: expected), "seed \(seed)")
      #expect(c.hexString == expected, "seed \(seed)")
      #expect(c == Color(hex: c.hexString), "seed \(seed)")
    }
  }

  @Test("hexString rounds to the nearest byte and clamps")
  func hexStringRounding() {
    #expect(Color(red: 0.5, green: 0, blue: 1).hexString == "#8000FFFF")
    #expect(Color(red: 1.5, green: -0.2, blue: 0.2, alpha: 0.5).hexString == "#FF003380")
    #expect(Color.clear.hexString == "#00000000")
    #expect(Color.white.hexString == "#FFFFFFFF")
  }

  @Test("Interpolation is linear per component")
  func interpolation() {
    let a = Color(red: 0, green: 0.2, blue: 1, alpha: 1)
    let b = Color(red: 1, green: 0.6, blue: 0, alpha: 0.5)
    #expect(a.interpolated(to: b, fraction: 0) == a)
    #expect(a.interpolated(to: b, fraction: 1) == b)
    let mid = a.interpolated(to: b, fraction: 0.25)
    #expect(abs(mid.red - 0.25) < 1e-15)
    #expect(abs(mid.green - 0.3) < 1e-15)
    #expect(abs(mid.blue - 0.75) < 1e-15)
    #expect(abs(mid.alpha - 0.875) < 1e-15)
    // Extrapolation is allowed; clamped brings it back into range.
    let beyond = a.interpolated(to: b, fraction: 2).clamped
    #expect(beyond == Color(red: 1, green: 1, blue: 0, alpha: 0))
    #expect(a.withAlpha(0.3) == Color(red: 0, green: 0.2, blue: 1, alpha: 0.3))
  }
}

@Suite("Rect")
private struct RectTests {
  @Test("Edges, centre and size, including negative sizes")
  func frameMath() {
    let r = Rect(x: 10, y: 20, width: 30, height: 40)
    #expect(r.minX == 10 && r.maxX == 40 && r.minY == 20 && r.maxY == 60)
    #expect(r.midX == 25 && r.midY == 40)
    #expect(r.center == Point(x: 25, y: 40))
    #expect(r.width == 30 && r.height == 40)
    let flipped = Rect(x: 40, y: 60, width: -30, height: -40)
    #expect(flipped.minX == 10 && flipped.maxX == 40 && flipped.minY == 20 && flipped.maxY == 60)
    #expect(flipped.width == 30 && flipped.height == 40)
    #expect(flipped.center == r.center)
    #expect(Rect(x: 5, y: 5, width: 0, height: 3).isEmpty)
    #expect(!r.isEmpty)
  }

  @Test("contains includes the min edges and excludes the max edges")
  func contains() {
    let r = Rect(x: 0, y: 0, width: 10, height: 5)
    #expect(r.contains(Point(x: 0, y: 0)))
    #expect(r.contains(Point(x: 9.999, y: 4.999)))
    #expect(!r.contains(Point(x: 10, y: 2)))
    #expect(!r.contains(Point(x: 2, y: 5)))
    #expect(!r.contains(Point(x: -0.001, y: 2)))
    #expect(Rect(x: 10, y: 5, width: -10, height: -5).contains(Point(x: 1, y: 1)))
  }

  @Test("union is the smallest rectangle containing both; .zero is ignored")
  func union() {
    let a = Rect(x: 0, y: 0, width: 10, height: 10)
    let b = Rect(x: 5, y: -5, width: 20, height: 5)
    #expect(a.union(b) == Rect(x: 0, y: -5, width: 25, height: 15))
    #expect(b.union(a) == a.union(b))
    #expect(Rect.zero.union(b) == b)
    #expect(b.union(.zero) == b)
    // A zero-size rectangle elsewhere still counts as a point (as CGRect.union does).
    #expect(
      a.union(Rect(x: 20, y: 20, width: 0, height: 0)) == Rect(x: 0, y: 0, width: 20, height: 20))
  }

  @Test("insetBy shrinks or grows each side")
  func inset() {
    let r = Rect(x: 10, y: 10, width: 100, height: 50)
    #expect(r.insetBy(dx: 10, dy: 5) == Rect(x: 20, y: 15, width: 80, height: 40))
    #expect(r.insetBy(dx: -2, dy: -3) == Rect(x: 8, y: 7, width: 104, height: 56))
  }

  @Test("Point and Size arithmetic")
  func pointSize() {
    #expect(Point(x: 1, y: 2) + Point(x: 3, y: 4) == Point(x: 4, y: 6))
    #expect(Point(x: 1, y: 2) - Point(x: 3, y: 4) == Point(x: -2, y: -2))
    #expect(Point(x: 1, y: 2) * 3 == Point(x: 3, y: 6))
    #expect(Point(x: 0, y: 0).distance(to: Point(x: 3, y: 4)) == 5)
    #expect(Size(width: 1, height: 2) + Size(width: 3, height: 4) == Size(width: 4, height: 6))
    #expect(Size(width: 1, height: 2) - Size(width: 3, height: 4) == Size(width: -2, height: -2))
    #expect(Size(width: 1, height: 2) * 2 == Size(width: 2, height: 4))
  }
}

@Suite("Path")
private struct PathTests {
  /// A point on a cubic Bézier, by de Casteljau's construction (independent of the module).
  private func bezier(_ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, _ t: Double) -> Point {
    func lerp(_ a: Point, _ b: Point) -> Point {
      Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }
    let a = lerp(p0, c1)
    let b = lerp(c1, c2)
    let c = lerp(c2, p1)
    return lerp(lerp(a, b), lerp(b, c))
  }

  @Test("A rectangle path: four corners, clockwise on screen, closed")
  func rect() {
    let r = Rect(x: 10, y: 20, width: 30, height: 40)
    let p = Path(rect: r)
    #expect(
      p.elements == [
        .move(to: Point(x: 10, y: 20)), .line(to: Point(x: 40, y: 20)),
        .line(to: Point(x: 40, y: 60)), .line(to: Point(x: 10, y: 60)), .close,
      ])
    #expect(p.pointCount == 4)
    #expect(p.bounds == r)
    // A negative-size rectangle gives the same path.
    #expect(Path(rect: Rect(x: 40, y: 60, width: -30, height: -40)) == p)
  }

  @Test("A rounded rectangle keeps its bounds and has 9 on-curve points")
  func roundedRect() {
    let r = Rect(x: 0, y: 0, width: 100, height: 60)
    let p = Path(roundedRect: r, cornerRadius: 10)
    #expect(p.pointCount == 9)
    #expect(p.bounds == r)
    // The corner arcs: each curve's midpoint lies on its circle of radius 10.
    var current = Point.zero
    var corners = 0
    for e in p.elements {
      switch e {
      case .move(let to), .line(let to): current = to
      case .curve(let to, let c1, let c2):
        let mid = bezier(current, c1, c2, to, 0.5)
        let centre = Point(
          x: to.x == 0 || current.x == 0 ? 10 : 90, y: to.y == 0 || current.y == 0 ? 10 : 50)
        #expect(abs(mid.distance(to: centre) - 10) < 10 * 3e-4)
        corners += 1
        current = to
      case .close: break
      }
    }
    #expect(corners == 4)
    // The radius is clamped to half the shorter side; zero radius is a plain rectangle.
    #expect(Path(roundedRect: r, cornerRadius: 500).bounds == r)
    #expect(Path(roundedRect: r, cornerRadius: 500) == Path(roundedRect: r, cornerRadius: 30))
    #expect(Path(roundedRect: r, cornerRadius: 0) == Path(rect: r))
    #expect(Path(roundedRect: r, cornerRadius: -4) == Path(rect: r))
  }

  @Test("An ellipse fits its rectangle and stays within 0.03 % of the true curve")
  func ellipse() throws {
    let r = Rect(x: -50, y: 10, width: 100, height: 40)
    let p = Path(ellipseIn: r)
    #expect(p.pointCount == 5)
    #expect(p.bounds == r)
    var current = Point.zero
    var arcs = 0
    for e in p.elements {
      switch e {
      case .move(let to), .line(let to): current = to
      case .curve(let to, let c1, let c2):
        for i in 0...8 {
          let q = bezier(current, c1, c2, to, Double(i) / 8)
          let u = (q.x - r.midX) / 50
          let v = (q.y - r.midY) / 20
          // The standard 4-arc approximation errs by at most about 0.027 % of the radius.
          #expect(abs((u * u + v * v).squareRoot() - 1) < 3e-4, "arc \(arcs), t = \(i)/8")
        }
        arcs += 1
        current = to
      case .close: break
      }
    }
    #expect(arcs == 4)
    let last = try #require(p.elements.last)
    #expect(last == .close)
  }

  @Test("applying maps every point, control points included", arguments: propertySeeds)
  func applying(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<50 {
      let r = Rect(
        x: Double.random(in: -100...100, using: &rng),
        y: Double.random(in: -100...100, using: &rng),
        width: Double.random(in: 1...100, using: &rng),
        height: Double.random(in: 1...100, using: &rng))
      let dx = Double.random(in: -50...50, using: &rng)
      let dy = Double.random(in: -50...50, using: &rng)
      let moved = Path(ellipseIn: r).applying(
        SwellGeometry.AffineTransform(translationX: dx, y: dy))
      let expected = Path(
        ellipseIn: Rect(x: r.minX + dx, y: r.minY + dy, width: r.width, height: r.height))
      #expect(moved.pointCount == 5)
      #expect(abs(moved.bounds.minX - expected.bounds.minX) < 1e-9, "seed \(seed)")
      #expect(abs(moved.bounds.maxY - expected.bounds.maxY) < 1e-9, "seed \(seed)")
    }
    // A quarter turn about the origin swaps the bounds' axes (clockwise on screen).
    let turned = Path(rect: Rect(x: 0, y: 0, width: 20, height: 10))
      .applying(SwellGeometry.AffineTransform(rotationAngle: .pi / 2))
    let b = turned.bounds
    #expect(abs(b.minX + 10) < 1e-12 && abs(b.maxX) < 1e-12)
    #expect(abs(b.minY) < 1e-12 && abs(b.maxY - 20) < 1e-12)
  }

  @Test("Building, appending, counting and empty bounds")
  func building() {
    var p = Path()
    #expect(p.isEmpty)
    #expect(p.bounds == .zero)
    #expect(p.pointCount == 0)
    p.move(to: Point(x: 1, y: 1))
    p.line(to: Point(x: 4, y: 5))
    p.curve(to: Point(x: 6, y: 1), control1: Point(x: 5, y: 10), control2: Point(x: 6, y: -3))
    p.close()
    #expect(p.pointCount == 3)
    // The control-point box: the control points stretch it.
    #expect(p.bounds == Rect(x: 1, y: -3, width: 5, height: 13))
    var q = Path(rect: Rect(x: 10, y: 10, width: 1, height: 1))
    q.append(p)
    #expect(q.pointCount == 7)
    #expect(q.elements.count == 9)
  }
}
