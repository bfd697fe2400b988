import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import SwellWaves
import Testing

/// Linear sloshing theory, computed here independently of the model: ω² = g·k·tanh(k·H).
private func theoryOmega(lengthMetres l: Double, depthMetres h: Double, mode n: Int = 1) -> Double
{
  let k = Double(n) * .pi / l
  return (9.806_65 * k * tanh(k * h)).squareRoot()
}

private let metresPerPoint = 0.0254 / 160

/// Plays script motion into a water body and samples the surface at frame times.
private func play(
  _ body: inout WaterBody, _ motion: [DeviceMotion], fps: Double, until end: Double,
  sample: (Double, FreeSurface) -> Void
) {
  var next = 0
  let start = motion.first?.timestamp ?? 0
  let frames = Int(((end - start) * fps + 1e-9).rounded(.down))
  for i in 0...frames {
    let t = start + Double(i) / fps
    while next < motion.count, motion[next].timestamp <= t + 1e-12 {
      let m = motion[next]
      body.receive(
        time: m.timestamp, gravity: m.gravity, userAcceleration: m.userAcceleration,
        rotationRate: m.rotationRate)
      next += 1
    }
    sample(t, body.surface(at: t))
  }
}

/// Times where a signal crosses zero (linear interpolation), after `from`.
private func zeroCrossings(_ rows: [(Double, Double)], from: Double) -> [Double] {
  var out: [Double] = []
  let after = rows.filter { $0.0 >= from }
  for (a, b) in zip(after, after.dropFirst()) where (a.1 > 0) != (b.1 > 0) {
    out.append(a.0 + (b.0 - a.0) * a.1 / (a.1 - b.1))
  }
  return out
}

private func tank(width: Double, height: Double, fill: Double, damping: Double = 0.06)
  -> WaterBody
{
  guard let c = WaterContainer(rect: Rect(x: 0, y: 0, width: width, height: height)) else {
    preconditionFailure("a rectangle has an area")
  }
  var p = WaterBody.Parameters(fillFraction: fill)
  p.dampingRatio = damping
  return WaterBody(container: c, parameters: p)
}

@Suite("Physical water")
struct WaterBodyTests {
  @Test(arguments: [0.5, 0.1])
  func firstModeAfterAPushRingsAtTheLinearTheoryFrequency(fill: Double) throws {
    // The waterwave canvas: 390 × 844 points at 1/160 inch, half full (deep: kH ≈ 3.4) and a
    // tenth full (kH ≈ 0.68).
    var body = tank(width: 390, height: 844, fill: fill)
    let motion = try MotionScript(parsing: "hold 0.5s; push x 0.3g for 0.03s; hold 3s")
      .samples(rate: 100)
    var rows: [(Double, Double)] = []
    play(&body, motion, fps: 240, until: 3.5) { t, s in rows.append((t, s.angle)) }
    let crossings = zeroCrossings(rows, from: 0.6)
    try #require(crossings.count >= 8, "crossings: \(crossings.count)")
    let span = crossings[7] - crossings[1]
    let measured = .pi * 6 / span
    let theory = theoryOmega(lengthMetres: 390 * metresPerPoint, depthMetres: fill * 844 * metresPerPoint)
    print("fill \(fill): measured ω \(measured) rad/s, theory \(theory) rad/s")
    #expect(abs(measured / theory - 1) < 0.05, "measured \(measured) theory \(theory)")
  }

  @Test func thirtyDegreeTiltSettlesLevelWithTheWorldWithinThreeSeconds() throws {
    var body = tank(width: 390, height: 844, fill: 0.5)
    let motion = try MotionScript(parsing: "hold 0.2s; tilt 30deg right over 0.5s; hold 3s")
      .samples(rate: 100)
    var last: FreeSurface?
    play(&body, motion, fps: 60, until: 3.7) { _, s in last = s }
    let angle = try #require(last).angle * 180 / .pi
    print("settle: \(angle)° (world level: −30°)")
    #expect(abs(angle + 30) < 1, "\(angle)°")
  }

  @Test func pulseCrossesAtTheShallowWaterSpeedAndComesBack() throws {
    // A long shallow tank: 2000 × 200 points, 10 % full: H = 20 points = 3.2 mm, L = 31.75 cm.
    var body = tank(width: 2000, height: 200, fill: 0.1, damping: 0.005)
    let upright = Vector3(0, -1, 0)
    body.receive(time: 0, gravity: upright, userAcceleration: .zero, rotationRate: .zero)
    let sigma = 0.04
    body.displace { u in 4 * exp(-u * u / (2 * sigma * sigma)) }
    let length = body.surfaceLength * metresPerPoint
    let speed = (9.806_65 * body.meanDepth * metresPerPoint).squareRoot()
    let crossing = length / speed
    var right: [(Double, Double)] = []
    var left: [(Double, Double)] = []
    var t = 0.0
    while t < 2.6 * crossing {
      t += 0.002
      body.receive(time: t, gravity: upright, userAcceleration: .zero, rotationRate: .zero)
      right.append((t, body.displacement(at: 1)))
      left.append((t, body.displacement(at: 0)))
    }
    let arrival = try #require(right.max { $0.1 < $1.1 }).0
    let back = try #require(left.filter { $0.0 > 1.5 * crossing }.max { $0.1 < $1.1 }).0
    print("pulse: arrival \(arrival) s, back \(back) s, √(gH) crossing \(crossing) s")
    #expect(abs(arrival / crossing - 1) < 0.1, "arrival \(arrival) s, theory \(crossing) s")
    #expect(abs(back / (2 * crossing) - 1) < 0.1, "back \(back) s, theory \(2 * crossing) s")
  }
}
