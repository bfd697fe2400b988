import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@testable import SwellScenes

/// The point of a cubic Bézier at parameter t.
private func bezier(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> Point {
  let u = 1 - t
  let a = u * u * u
  let b = 3 * u * u * t
  let c = 3 * u * t * t
  let d = t * t * t
  return Point(
    x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
}

/// Points along a path's curves (the start, then 8 samples per cubic), in drawing order.
private func samples(_ path: Path) -> [Point] {
  var out: [Point] = []
  var current = Point(x: 0, y: 0)
  for e in path.elements {
    switch e {
    case .move(let to):
      current = to
      out.append(to)
    case .line(let to):
      current = to
      out.append(to)
    case .curve(let to, let c1, let c2):
      for i in 1...8 { out.append(bezier(current, c1, c2, to, Double(i) / 8)) }
      current = to
    case .close:
      break
    }
  }
  return out
}

private func distance(_ a: Point, _ b: Point) -> Double {
  ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
}

private func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-12) -> Bool {
  distance(a, b) <= tolerance
}

@Suite("SVG path data: elliptical arcs")
private struct SVGArcTests {
  /// The control distance of a 90° cubic arc of a unit circle, 4/3·tan(π/8) (the well-known
  /// circle constant ≈ 0.5523).
  let kappa = 4.0 / 3 * tan(Double.pi / 8)

  @Test("a half circle clockwise on screen is two 90° cubics through the bottom")
  func halfCircleClockwise() throws {
    let p = try SVGPathData.parse("M 10 0 A 5 5 0 0 1 0 0")
    let k = 5 * kappa
    let want: [(Point, Point, Point)] = [
      (Point(x: 10, y: k), Point(x: 5 + k, y: 5), Point(x: 5, y: 5)),
      (Point(x: 5 - k, y: 5), Point(x: 0, y: k), Point(x: 0, y: 0)),
    ]
    #expect(p.elements.count == 3)
    #expect(p.elements.first == .move(to: Point(x: 10, y: 0)))
    for (i, (c1, c2, end)) in want.enumerated() {
      guard case .curve(let to, let a, let b) = p.elements[i + 1] else {
        Issue.record("element \(i + 1) is not a curve: \(p.elements[i + 1])")
        continue
      }
      #expect(close(a, c1) && close(b, c2) && close(to, end), "piece \(i): \(a) \(b) \(to)")
    }
    // The end point is exact, not computed by trigonometry.
    guard case .curve(let end, _, _) = p.elements[2] else { return }
    #expect(end == Point(x: 0, y: 0))
  }

  @Test("sweep 0 goes the other way, through the top; lower case is relative")
  func sweepAndRelative() throws {
    let absolute = try SVGPathData.parse("M 10 0 A 5 5 0 0 0 0 0")
    let relative = try SVGPathData.parse("m10 0a5 5 0 0 0-10 0")
    #expect(absolute == relative)
    guard case .curve(let mid, _, _) = absolute.elements[1] else {
      Issue.record("not a curve")
      return
    }
    #expect(close(mid, Point(x: 5, y: -5)), "\(mid)")
  }

  @Test("a circle as two arcs matches Path(ellipseIn:) to the circle constant's precision")
  func circleMatchesEllipse() throws {
    let arcs = try SVGPathData.parse("M 13 7 a 3 3 0 1 1 -6 0 a 3 3 0 1 1 6 0 z")
    let ellipse = Path(ellipseIn: Rect(x: 7, y: 4, width: 6, height: 6))
    #expect(arcs.elements.count == ellipse.elements.count)
    for (a, b) in zip(arcs.elements, ellipse.elements) {
      switch (a, b) {
      case (.move(let p), .move(let q)): #expect(p == q)
      case (.curve(let p, let p1, let p2), .curve(let q, let q1, let q2)):
        #expect(close(p, q, 1e-9) && close(p1, q1, 1e-9) && close(p2, q2, 1e-9), "\(a) vs \(b)")
      case (.close, .close): break
      default: Issue.record("\(a) vs \(b)")
      }
    }
  }

  @Test("flags may be written without separators, and arguments may repeat")
  func compactFlags() throws {
    let spaced = try SVGPathData.parse("M 0 0 a 5 5 0 1 1 10 0 a 5 5 0 1 1 -10 0 z")
    #expect(try SVGPathData.parse("M0 0a5 5 0 1110 0 5 5 0 11-10 0z") == spaced)
    #expect(try SVGPathData.parse("M0,0 A5,5,0,1,1,10,0 5,5,0,1,1,0,0 Z") == spaced)
  }

  @Test("radii too small are scaled up to reach the end point")
  func smallRadii() throws {
    let p = try SVGPathData.parse("M 0 0 A 1 1 0 0 1 10 0")
    guard case .curve(let mid, _, _) = p.elements[1], case .curve(let end, _, _) = p.elements[2]
    else {
      Issue.record("expected two curves: \(p.elements)")
      return
    }
    #expect(close(mid, Point(x: 5, y: -5), 1e-12), "a half circle of radius 5: \(mid)")
    #expect(end == Point(x: 10, y: 0))
  }

  @Test("a zero radius is a line; equal end points draw nothing")
  func degenerate() throws {
    #expect(
      try SVGPathData.parse("M 1 2 A 0 5 0 0 1 7 8").elements == [
        .move(to: Point(x: 1, y: 2)), .line(to: Point(x: 7, y: 8)),
      ])
    #expect(
      try SVGPathData.parse("M 1 2 A 5 5 0 0 1 1 2").elements == [.move(to: Point(x: 1, y: 2))])
  }

  @Test("a rotated ellipse: every sample lies on the ellipse")
  func rotatedEllipse() throws {
    // rx 10 along the rotated x axis (90°: vertical), ry 5 horizontal, centre (0, 0).
    let p = try SVGPathData.parse("M 0 -10 A 10 5 90 0 1 0 10")
    let points = samples(p)
    #expect(points.count == 17)
    for q in points {
      let e = (q.x / 5) * (q.x / 5) + (q.y / 10) * (q.y / 10)
      #expect(abs(e - 1) < 1e-3, "\(q) is off the ellipse (\(e))")
    }
    // Sweep 1 from the top turns clockwise on screen (y down): through the right side.
    #expect(points.contains { $0.x > 4.9 })
  }

  @Test("bad flags and missing arguments are errors naming the character")
  func errors() {
    #expect(throws: SVGPathDataError.self) { try SVGPathData.parse("M 0 0 A 5 5 0 2 1 10 0") }
    #expect(throws: SVGPathDataError.self) { try SVGPathData.parse("M 0 0 A 5 5 0 1") }
    do {
      _ = try SVGPathData.parse("M 0 0 A 5 5 0 1 x 10 0")
      Issue.record("no error")
    } catch {
      #expect(error.description == "expected an arc flag (0 or 1) at character 17 of the path data")
    }
  }

  @Test("random circular arcs: on the circle, the right centre and direction (seeded)")
  func randomArcs() throws {
    let seed: UInt64 = 0xA4C5
    var rng = SplitMix64(seed: seed)
    for _ in 0..<300 {
      let p1 = Point(
        x: Double.random(in: -100...100, using: &rng), y: Double.random(in: -100...100, using: &rng)
      )
      let p2 = Point(
        x: Double.random(in: -100...100, using: &rng), y: Double.random(in: -100...100, using: &rng)
      )
      let d = distance(p1, p2)
      guard d > 1e-3 else { continue }
      let r = d / 2 * Double.random(in: 1...4, using: &rng)
      let large = Bool.random(using: &rng)
      let sweep = Bool.random(using: &rng)
      let text = "M \(p1.x) \(p1.y) A \(r) \(r) 0 \(large ? 1 : 0) \(sweep ? 1 : 0) \(p2.x) \(p2.y)"
      let path = try SVGPathData.parse(text)
      let points = samples(path)
      // The two circles of radius r through both points; the arc lies on one of them.
      let m = Point(x: (p1.x + p2.x) / 2, y: (p1.y + p2.y) / 2)
      let h = max(0, r * r - d * d / 4).squareRoot()
      let n = Point(x: -(p2.y - p1.y) / d, y: (p2.x - p1.x) / d)
      let centres = [
        Point(x: m.x + h * n.x, y: m.y + h * n.y), Point(x: m.x - h * n.x, y: m.y - h * n.y),
      ]
      let fits = centres.filter { c in
        points.allSatisfy { abs(distance($0, c) - r) <= 3e-4 * r + 1e-9 }
      }
      let centre = try #require(fits.first, "seed \(seed): \(text) is on neither circle")
      // The swept angle: its sign is the sweep flag (positive turns clockwise on screen), more
      // than half a turn exactly for the large arc.
      var swept = 0.0
      for (a, b) in zip(points, points.dropFirst()) {
        let ua = atan2(a.y - centre.y, a.x - centre.x)
        var step = atan2(b.y - centre.y, b.x - centre.x) - ua
        if step > .pi { step -= 2 * .pi }
        if step < -.pi { step += 2 * .pi }
        swept += step
      }
      #expect((swept > 0) == sweep, "seed \(seed): \(text) swept \(swept)")
      if h > 1e-6 * r {
        #expect((abs(swept) > .pi) == large, "seed \(seed): \(text) swept \(swept)")
      }
      #expect(
        path.elements.last.map { e in
          if case .curve(let to, _, _) = e { return to == p2 } else { return false }
        } == true, "seed \(seed): ends exactly at the end point")
    }
  }

  @Test("a decoded path keeps its text: arcs are written back as read")
  func shapeKeepsText() throws {
    let json = Data(
      #"""
      {"swellScene": 1, "name": "arcs", "canvas": {"width": 100, "height": 100, "scale": 1,
       "background": "#000"},
       "layers": [{"type": "shape", "shape": {"kind": "path", "d": "M10 5a5 5 0 1 1-10 0z"},
                   "fill": "#FFF"}]}
      """#.utf8)
    let f = try SceneFile.decode(json, source: "arcs.json")
    guard case .pathData(let p) = try #require(f.layers[0].shape) else {
      Issue.record("expected path data")
      return
    }
    #expect(p.data == "M10 5a5 5 0 1 1-10 0z")
    #expect(p.path == (try SVGPathData.parse("M 10 5 A 5 5 0 1 1 0 5 Z")))
    let text = String(decoding: try f.encoded(), as: UTF8.self)
    #expect(text.contains(#""d" : "M10 5a5 5 0 1 1-10 0z""#))
    #expect(try SceneFile.decode(try f.encoded(), source: "again.json") == f)
  }
}
