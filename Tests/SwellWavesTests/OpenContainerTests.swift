import Foundation
import SwellGeometry
import SwellTestSupport
import SwellWaves
import Testing

/// Device motion at 100 Hz for a device turned in its screen plane: `angle(t)` radians
/// clockwise from upright (gravity `(sin β, −cos β, 0)`, rotation rate `−β'` about z).
private func turning(from start: Double, to end: Double, _ angle: (Double) -> Double)
  -> [(time: Double, gravity: Vector3, rotation: Vector3)]
{
  var out: [(Double, Vector3, Vector3)] = []
  var t = start
  while t <= end + 1e-9 {
    let b = angle(t)
    let rate = (angle(t + 1e-4) - angle(t - 1e-4)) / 2e-4
    out.append((t, Vector3(sin(b), -cos(b), 0), Vector3(0, 0, -rate)))
    t += 0.01
  }
  return out
}

/// A smooth turn from `a` to `b` (radians) between `t0` and `t1`, held before and after.
private func ramp(_ a: Double, _ b: Double, _ t0: Double, _ t1: Double) -> (Double) -> Double {
  { t in
    let u = min(max((t - t0) / (t1 - t0), 0), 1)
    return a + (b - a) * (0.5 - 0.5 * cos(.pi * u))
  }
}

/// The area below the line through the lower end of a square's open top, turned by θ, as a
/// fraction of the square: `1 − tan θ / 2` up to 45°, `cot θ / 2` from 45° to 90°, 0 beyond
/// (geometry of a square cut by a line through a corner, independent of the model).
private func squareCapacity(_ theta: Double) -> Double {
  let t = abs(theta)
  if t >= .pi / 2 { return 0 }
  return t <= .pi / 4 ? 1 - tan(t) / 2 : 1 / (2 * tan(t))
}

private func feed(
  _ body: inout WaterBody, _ motion: [(time: Double, gravity: Vector3, rotation: Vector3)]
) {
  for m in motion {
    body.receive(
      time: m.time, gravity: m.gravity, userAcceleration: .zero, rotationRate: m.rotation)
  }
}

@Suite("Open and closed containers turned over")
private struct OpenContainerTests {
  private func square(open: Bool) throws -> WaterContainer {
    var c = try #require(WaterContainer(rect: Rect(x: 0, y: 0, width: 100, height: 100)))
    c.isOpen = open
    return c
  }

  @Test(
    "an open square holds what lies below its rim's lower corner",
    arguments: [30.0, 60, 75, 100, 180])
  func capacity(degrees: Double) throws {
    let theta = degrees * .pi / 180
    var body = WaterBody(container: try square(open: true), parameters: .init(fillFraction: 0.5))
    // The water above the lip leaves as weir flow (WeirFlowTests): held 9 s past the turn, what
    // is left above the lip is below 10⁻³ of the square.
    feed(&body, turning(from: 0, to: 10, ramp(0, theta, 0.2, 1.2)))
    let expected = squareCapacity(theta)
    #expect(
      abs(body.capacity / body.container.area - expected) < 2e-3, "\(degrees)°: \(body.capacity)")
    #expect(abs(body.volume / body.container.area - min(0.5, expected)) < 2e-3)
    let drawn = body.surface(at: 10).volumeFraction
    #expect(abs(drawn - min(0.5, expected)) < 2e-3, "drawn \(drawn)")
  }

  @Test("turned over, the open square empties; upright again, it refills to its fill level")
  func spillsAndRefills() throws {
    var body = WaterBody(container: try square(open: true), parameters: .init(fillFraction: 0.5))
    // It pours out over the lip (weir flow: the last film drains ever slower).
    feed(&body, turning(from: 0, to: 10, ramp(0, .pi, 0.2, 1.2)))
    #expect(body.volume / body.container.area < 1e-3)
    let empty = body.surface(at: 10)
    #expect(empty.volumeFraction < 1e-3 && empty.heights.allSatisfy(\.isFinite))
    // Upright: refills at half the full volume a second, so within 2 s of standing upright.
    var fractions: [(Double, Double)] = []
    var previous = body.volume
    var start: Double?
    for m in turning(from: 10.01, to: 14, ramp(.pi, 2 * .pi, 10.2, 11.2)) {
      body.receive(
        time: m.time, gravity: m.gravity, userAcceleration: .zero, rotationRate: m.rotation)
      fractions.append((m.time, body.volume / body.container.area))
      if start == nil, body.volume > previous { start = m.time }
      previous = body.volume
    }
    #expect(abs(body.volume / body.container.area - 0.5) < 1e-12)
    #expect(abs(body.surface(at: 14).volumeFraction - 0.5) < 1e-6)
    // Not before the glass stands within 20° of upright; then at 0.25 of the square a second.
    let began = try #require(start)
    let angleThen = ramp(.pi, 2 * .pi, 10.2, 11.2)(began)
    #expect(abs(2 * .pi - angleThen) <= 0.36, "refill began at \(began) s, \(angleThen) rad")
    let full = try #require(fractions.first { $0.1 >= 0.5 - 1e-12 }?.0)
    #expect(abs((full - began) - 2) < 0.1, "full after \(full - began) s")
  }

  @Test("a closed square turned over keeps its water, which falls to the side that is down")
  func closedFallsDown() throws {
    var body = WaterBody(container: try square(open: false), parameters: .init(fillFraction: 0.3))
    feed(&body, turning(from: 0, to: 6, ramp(0, .pi, 0.2, 1.2)))
    #expect(abs(body.volume / body.container.area - 0.3) < 1e-12)
    let s = body.surface(at: 6)
    #expect(abs(s.volumeFraction - 0.3) < 1e-6)
    // Gravity points to the top of the screen: the water lies in the top 30 % of the square,
    // under the surface line in the direction of gravity.
    #expect(abs(s.down.x) < 1e-3 && s.down.y < -0.999, "\(s.down)")
    for p in s.surfacePoints { #expect(abs(p.y - 30) < 1, "\(p)") }
    // The drawn water: its area is the volume and its centroid half way down the 30 % band.
    let points = s.fillPath().endPoints
    var area = 0.0
    var cy = 0.0
    for (a, b) in zip(points, points.dropFirst() + points.prefix(1)) {
      let cross = a.x * b.y - b.x * a.y
      area += cross / 2
      cy += (a.y + b.y) * cross / 6
    }
    #expect(abs(abs(area) - 3000) < 5, "area \(area)")
    #expect(abs(cy / area - 15) < 0.5, "centroid y \(cy / area)")
  }
}

extension Path {
  /// The end points of the path's elements.
  fileprivate var endPoints: [Point] {
    elements.compactMap {
      switch $0 {
      case .move(let p), .line(let p): p
      case .curve(let p, _, _): p
      case .close: nil
      }
    }
  }
}
