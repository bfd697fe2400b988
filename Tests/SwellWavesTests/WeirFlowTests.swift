import Foundation
import SwellGeometry
import SwellTestSupport
import SwellWaves
import Testing

/// The flow per unit width over a sharp-crested rectangular weir, computed here from the
/// hydraulics formula `q = C_d·(2/3)·√(2g)·h^{3/2}` (m²/s; Rehbock's `C_d` = 0.602), with the
/// head in points and the result in points² per second.
private func weir(headPoints h: Double, gravity g: Double, metresPerPoint m: Double) -> Double {
  guard h > 0 else { return 0 }
  let metres = h * m
  return 0.602 * 2 / 3 * (2 * 9.806_65 * g).squareRoot() * pow(metres, 1.5) / (m * m)
}

/// Feeds a held gravity at 100 Hz from `start` to `end` and records the volume before and
/// after each sample.
private func hold(
  _ body: inout WaterBody, gravity: Vector3, from start: Double, to end: Double,
  _ each: (Double, Double, Double) -> Void = { _, _, _ in }
) {
  var i = 0
  while true {
    let t = start + Double(i) * 0.01
    if t > end + 1e-9 { break }
    let before = body.volume
    body.receive(time: t, gravity: gravity, userAcceleration: .zero, rotationRate: .zero)
    each(t, before, body.volume)
    i += 1
  }
}

@Suite("The glass pours over its lip at the weir flow")
private struct WeirFlowTests {
  /// An open square, 100 × 100 points, 10 cm wide (so the pour takes about a second).
  private func square() throws -> WaterContainer {
    var c = try #require(
      WaterContainer(
        outline: Path(rect: Rect(x: 0, y: 0, width: 100, height: 100)),
        widthCentimetres: 10))
    c.isOpen = true
    return c
  }

  @Test("on its side, the square loses per step what the weir passes for the head over its lip")
  func lossPerStepIsTheWeirFlow() throws {
    // Gravity to the screen's right: the opening (the top edge) stands vertical, its lower end
    // at the bottom right corner, so all the water stands above the lip and the head is the
    // water's depth over the 100-point floor: h = V / 100.
    let c = try square()
    let m = c.metresPerPoint
    var body = WaterBody(container: c, parameters: .init(fillFraction: 0.5))
    var steps = 0
    var worst = 0.0
    hold(&body, gravity: Vector3(1, 0, 0), from: 0, to: 1) { t, before, after in
      guard t > 0 else { return }
      let loss = before - after
      // The flow falls as the head falls: the step's loss lies between the flow at the end's
      // head and at the start's, over the 10 ms.
      let most = weir(headPoints: before / 100, gravity: 1, metresPerPoint: m) * 0.01
      let least = weir(headPoints: after / 100, gravity: 1, metresPerPoint: m) * 0.01
      #expect(loss <= most * (1 + 1e-9) + 1e-9, "t \(t): lost \(loss), weir allows \(most)")
      #expect(loss >= least * (1 - 1e-9) - 1e-9, "t \(t): lost \(loss), weir gives \(least)")
      #expect(after >= -1e-12)
      worst = max(worst, loss / most)
      steps += 1
    }
    #expect(steps == 100)
    // The closed form of dV/dt = −q(V/100): h^{-1/2}(t) = h₀^{-1/2} + (A/200)·t with
    // A = C_d·(2/3)·√(2g/m) (points^{1/2}/s).
    let a = 0.602 * 2 / 3 * (2 * 9.806_65 / m).squareRoot()
    let h = pow(1 / 50.0.squareRoot() + a / 200 * 1, -2)
    let measured = body.volume / 100
    print("weir: head after 1 s \(measured) points, closed form \(h); worst step \(worst)")
    #expect(abs(measured / h - 1) < 0.02, "head \(measured), closed form \(h)")
  }

  @Test(
    "never more than the water above the lip: tilted, the square pours down to its capacity",
    arguments: [20.0, 30, 40])
  func neverBelowTheLip(degrees: Double) throws {
    let b = degrees * .pi / 180
    var body = WaterBody(container: try square(), parameters: .init(fillFraction: 0.9))
    // Geometry of a square cut by the line through a corner: 1 − tan θ / 2 of its area.
    let area = body.container.area
    let capacity = (1 - tan(b) / 2) * area
    var previous = body.volume
    hold(&body, gravity: Vector3(sin(b), -cos(b), 0), from: 0, to: 10) { _, _, after in
      #expect(after >= capacity - 1e-6 * area, "volume \(after), below the lip")
      #expect(after <= previous + 1e-12)
      previous = after
    }
    #expect(abs(body.volume - capacity) < 3e-3 * body.container.area, "\(body.volume)")
    #expect(body.head < 0.5 && body.outflowRate >= 0)
  }

  @Test(
    "a device lying flat, or within a few degrees of it, keeps its water for 20 s",
    arguments: [(0.0, 0.0), (3, 0), (3, 90), (4.5, 0), (4.5, 180), (4.5, 270), (2, 45)])
  func flatKeepsItsVolume(degreesFromFlat: Double, towards: Double) throws {
    // Gravity into the screen, tilted by `degreesFromFlat` toward a screen direction
    // (`towards`: 0 the screen's top, so the glass would be upside down).
    let a = degreesFromFlat * .pi / 180
    let d = towards * .pi / 180
    let g = Vector3(sin(a) * sin(d), sin(a) * cos(d), -cos(a))
    var body = WaterBody(container: try square(), parameters: .init(fillFraction: 0.5))
    let full = body.volume
    hold(&body, gravity: Vector3(0, -1, 0), from: 0, to: 0.5)
    hold(&body, gravity: g, from: 0.51, to: 20)
    #expect(body.volume == full, "\(degreesFromFlat)° toward \(towards)°: \(body.volume / full)")
    #expect(body.inPlaneGravity == 0 && body.outflowRate == 0)
    #expect(abs(body.surface(at: 20).volumeFraction - 0.5) < 1e-6)
  }

  @Test("past the flat band the in-plane gravity scales the flow: √g", arguments: [0.15, 0.5, 1])
  func flowScalesWithInPlaneGravity(inPlane: Double) throws {
    // Upside down under an in-plane gravity of `inPlane` g (the rest into the screen).
    let g = Vector3(0, inPlane, -(1 - inPlane * inPlane).squareRoot())
    var body = WaterBody(container: try square(), parameters: .init(fillFraction: 0.5))
    let before = body.volume
    body.receive(time: 0, gravity: g, userAcceleration: .zero, rotationRate: .zero)
    body.receive(time: 0.002, gravity: g, userAcceleration: .zero, rotationRate: .zero)
    // One substep from rest: the head is the whole depth, 50 points.
    let expected = weir(headPoints: 50, gravity: inPlane, metresPerPoint: 1e-3) * 0.002
    #expect(abs((before - body.volume) / expected - 1) < 1e-9, "\(before - body.volume)")
    #expect(abs(body.inPlaneGravity - inPlane) < 1e-12)
  }

  @Test("the spill is drawn: a sheet from the lip, falling along gravity, only while it pours")
  func spillIsDrawn() throws {
    var body = WaterBody(container: try square(), parameters: .init(fillFraction: 0.5))
    let upright = body.surface()
    #expect(upright.spillRate == 0 && upright.spillPath(drop: 100).elements.isEmpty)
    hold(&body, gravity: Vector3(1, 0, 0), from: 0, to: 0.1)
    let s = body.surface(at: 0.1)
    #expect(s.spillRate > 0)
    let points = s.spillPath(drop: 100).elements.compactMap { e -> Point? in
      if case .line(let p) = e { return p }
      if case .move(let p) = e { return p }
      return nil
    }
    try #require(points.count >= 4)
    // It starts at the lip (the top right corner) and ends 100 points further along gravity
    // (to the screen's right), never inside the square beyond its opening.
    let lip = Point(x: 100, y: 0)
    #expect(points.contains { $0.distance(to: lip) < 1e-6 })
    let far = points.map(\.x).max() ?? 0
    #expect(abs(far - 200) < 1e-6, "the sheet ends at x = \(far)")
    // The sheet leaves upward on screen (away from the opening's other end, the top left) and
    // its thickness at the lip is the critical depth (q²/g)^{1/3}.
    #expect(points.allSatisfy { $0.y <= 1e-6 })
    let q = s.spillRate
    let yc = pow(q * q / s.spillGravity, 1.0 / 3)
    #expect(points.contains { $0.distance(to: Point(x: 100 - yc, y: 0)) < 1e-6 }, "yc \(yc)")
  }
}
