import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import SwellWaves
import Testing

/// Linear sloshing theory, computed here independently of the model: ω² = g·k·tanh(k·H).
private func theoryOmega(lengthMetres l: Double, depthMetres h: Double, mode n: Int = 1) -> Double {
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
private struct WaterBodyTests {
  @Test("first mode after a push rings at the linear theory frequency", arguments: [0.5, 0.1])
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
    let theory = theoryOmega(
      lengthMetres: 390 * metresPerPoint, depthMetres: fill * 844 * metresPerPoint)
    print("fill \(fill): measured ω \(measured) rad/s, theory \(theory) rad/s")
    #expect(abs(measured / theory - 1) < 0.05, "measured \(measured) theory \(theory)")
  }

  @Test("thirty degree tilt settles level with the world within three seconds")
  func thirtyDegreeTiltSettlesLevelWithTheWorldWithinThreeSeconds() throws {
    var body = tank(width: 390, height: 844, fill: 0.5)
    let motion = try MotionScript(parsing: "hold 0.2s; tilt 30deg right over 0.5s; hold 3s")
      .samples(rate: 100)
    var last: FreeSurface?
    play(&body, motion, fps: 60, until: 3.7) { _, s in last = s }
    let angle = try #require(last).angle * 180 / .pi
    print("settle: \(angle)° (world level: −30°)")
    #expect(abs(angle + 30) < 1, "\(angle)°")
  }

  @Test("pulse crosses at the shallow water speed and comes back")
  func pulseCrossesAtTheShallowWaterSpeedAndComesBack() throws {
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

  @Test("any held tilt settles level with the world", arguments: [120.0, -150, 75])
  func anyHeldTiltSettlesLevelWithTheWorld(beta: Double) throws {
    var body = tank(width: 390, height: 844, fill: 0.5)
    let dir = beta >= 0 ? "right" : "left"
    let motion = try MotionScript(parsing: "tilt \(abs(beta))deg \(dir) over 0.6s; hold 4s")
      .samples(rate: 100)
    var last: FreeSurface?
    play(&body, motion, fps: 30, until: 4.6) { _, s in last = s }
    let angle = try #require(last).angle * 180 / .pi
    var expected = -beta
    if expected <= -180 { expected += 360 }
    if expected > 180 { expected -= 360 }
    #expect(abs(angle - expected) < 1, "\(angle)° for a \(beta)° turn")
  }

  @Test("volume is conserved over ten minutes of shaking in a round bottomed glass")
  func volumeIsConservedOverTenMinutesOfShakingInARoundBottomedGlass() throws {
    // The glass scene's inside: straight sides and a half-circle bottom.
    var outline = Path()
    outline.move(to: Point(x: 0, y: 0))
    outline.line(to: Point(x: 0, y: 240))
    outline.curve(
      to: Point(x: 90, y: 330), control1: Point(x: 0, y: 289.7), control2: Point(x: 40.3, y: 330))
    outline.curve(
      to: Point(x: 180, y: 240), control1: Point(x: 139.7, y: 330),
      control2: Point(x: 180, y: 289.7))
    outline.line(to: Point(x: 180, y: 0))
    outline.close()
    let glass = try #require(WaterContainer(outline: outline, widthCentimetres: 7))
    var p = WaterBody.Parameters(fillFraction: 0.5)
    p.dampingRatio = 0.03
    var body = WaterBody(container: glass, parameters: p)
    var worst = 0.0
    var rng = SplitMix64(seed: 0x0A7E_12)
    var t = 0.0
    var spike = 0.0
    while t < 600 {
      t += 0.01
      // Turning back and forth (±50°), pushed at several frequencies, a 3 g jolt now and then.
      let beta = 0.6 * sin(2 * .pi * 0.37 * t) + 0.3 * sin(2 * .pi * 1.3 * t)
      let rate =
        0.6 * 2 * .pi * 0.37 * cos(2 * .pi * 0.37 * t) + 0.3 * 2 * .pi * 1.3
        * cos(2 * .pi * 1.3 * t)
      if Double.random(in: 0...1, using: &rng) < 0.002 { spike = 3 }
      let user = Vector3(
        0.8 * sin(2 * .pi * 2.1 * t) + spike, 0.5 * sin(2 * .pi * 3.3 * t + 1), 0)
      spike *= 0.8
      body.receive(
        time: t, gravity: Vector3(sin(beta), -cos(beta), 0), userAcceleration: user,
        rotationRate: Vector3(0, 0, -rate))
      if Int((t * 100).rounded()) % 50 == 0 {
        let s = body.surface(at: t + 0.004)
        // The water drawn, measured independently: the fill polygon's area (shoelace).
        let drawn = shoelaceArea(s.fillPath().points) / glass.area
        worst = max(worst, abs(s.volumeFraction - 0.5), abs(drawn - 0.5))
        let finite = s.heights.allSatisfy { $0.isFinite }
        try #require(finite, "seed 0xA7E12, t = \(t)")
      }
    }
    print("volume: worst drift (reported or drawn) \(worst) of the container over 600 s")
    #expect(worst < 1e-6, "worst volume drift \(worst)")
  }

  @Test(
    "the same motion at 25 and 1000 hz gives the same surface", arguments: [(25.0, 0.5), (60, 2.5)])
  func theSameMotionAt25And1000HzGivesTheSameSurface(fps: Double, limitDegrees: Double) throws {
    // Motion that 25 Hz samples can carry (a step push cannot be: its edges alone would move by
    // half a sample, a tenth of the first mode's period).
    let script = try MotionScript(
      parsing: "hold 0.3s; tilt 40deg right over 0.8s; shake z 1.5Hz 2rad/s for 1s; hold 0.5s")
    var slow = tank(width: 390, height: 844, fill: 0.4)
    var fast = slow
    var a: [Double] = []
    var b: [Double] = []
    // At 25 fps the frames fall on the 25 Hz samples. Between samples a frame knows only the
    // motion so far (the model is causal): it carries the newest turn rate on for up to 40 ms,
    // which a shake's changing rate defeats by about a degree.
    play(&slow, script.samples(rate: 25), fps: fps, until: 3.6) { _, s in a.append(s.angle) }
    play(&fast, script.samples(rate: 1000), fps: fps, until: 3.6) { _, s in b.append(s.angle) }
    try #require(a.count == Int(3.6 * fps + 1e-9) + 1 && b.count == a.count)
    let worst = zip(a, b).map { abs($0 - $1) }.max() ?? .nan
    print(
      "25 Hz vs 1000 Hz motion at \(fps) fps: worst surface-angle difference \(worst * 180 / .pi)°")
    #expect(worst * 180 / .pi < limitDegrees, "\(worst * 180 / .pi)°")
  }

  @Test("violent input never gives na n and the surface stays bounded")
  func violentInputNeverGivesNaNAndTheSurfaceStaysBounded() {
    guard
      let circle = WaterContainer(
        outline: Path(ellipseIn: Rect(x: 0, y: 0, width: 300, height: 300)))
    else { return }
    var body = WaterBody(container: circle, parameters: .init(fillFraction: 0.45))
    var rng = SplitMix64(seed: 0x5_1054)
    var t = 0.0
    for i in 0..<6000 {
      // Steps from 1 ms to a 10 s gap; 5 g shakes, 20 rad/s spins, non-finite values.
      t += [0.001, 0.004, 0.01, 0.04, 0.3, 10].randomElement(using: &rng) ?? 0.01
      let g = rng.unitVector()
      let user = Vector3(
        5 * sin(Double(i)), Double.random(in: -5...5, using: &rng),
        Double.random(in: -5...5, using: &rng))
      let spin = Vector3(
        Double.random(in: -20...20, using: &rng), Double.random(in: -20...20, using: &rng),
        i % 97 == 0 ? .nan : 20 * cos(Double(i) * 0.1))
      body.receive(time: t, gravity: g, userAcceleration: user, rotationRate: spin)
      if i % 7 == 0 {
        let s = body.surface(at: t + Double.random(in: 0...0.05, using: &rng))
        let finite = s.angle.isFinite && s.heights.allSatisfy { $0.isFinite }
        #expect(finite, "seed 0x51054, step \(i)")
        #expect(abs(s.volumeFraction - 0.45) < 1e-6, "seed 0x51054, step \(i)")
        #expect(s.roughness <= 300, "seed 0x51054, step \(i)")
        #expect(s.heights.allSatisfy { abs($0) <= 300 }, "seed 0x51054, step \(i)")
        // Drawn water stays inside the circle (the fill is clipped to the outline, four cubics
        // that leave a true circle by at most 0.027 % of its radius).
        for p in s.fillPath().points {
          let r = ((p.x - 150) * (p.x - 150) + (p.y - 150) * (p.y - 150)).squareRoot()
          #expect(r <= 150 * 1.0003, "seed 0x51054, step \(i): \(p) outside")
        }
      }
    }
  }
}

/// The area of a polygon, points², by the shoelace formula.
private func shoelaceArea(_ p: [Point]) -> Double {
  var twice = 0.0
  for i in p.indices {
    let q = p[(i + 1) % p.count]
    twice += p[i].x * q.y - q.x * p[i].y
  }
  return abs(twice) / 2
}

extension Path {
  /// The end points of the path's elements.
  fileprivate var points: [Point] {
    elements.compactMap {
      switch $0 {
      case .move(let p), .line(let p): p
      case .curve(let p, _, _): p
      case .close: nil
      }
    }
  }
}
