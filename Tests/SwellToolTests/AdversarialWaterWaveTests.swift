import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

/// Degrees to radians.
private func rad(_ degrees: Double) -> Double { degrees * .pi / 180 }

/// A held pose as device-motion rows: gravity given directly (not derived), so that poses the
/// attitude cannot express in a script (exact 45°, face down, upside down) are exact.
private func heldRows(gravity: Vector3, times: [Double]) -> [MotionRow] {
  times.map { MotionRow(time: $0, attitude: .identity, gravity: gravity) }
}

/// Upright, turned clockwise by `degrees`: gravity `(sin β, −cos β, 0)`.
private func turned(_ degrees: Double) -> Vector3 {
  Vector3(sin(rad(degrees)), -cos(rad(degrees)), 0)
}

/// `swell trace waterwave` under motion nobody tuned for: sample rates, jitter, start times,
/// poses, continuous rotation, shakes, gaps, tiny and huge files.
@Suite("adversarial: swell trace waterwave")
private struct AdversarialWaterWaveTests {
  /// A 30° clockwise tilt at every rate, with jittered timestamps, starting at 0, at an epoch
  /// time and at a negative time: invariants hold, the row count follows the rule, and the water
  /// settles level with the world (−30°).
  @Test("rates and start times", arguments: [25.0, 50, 100, 200, 1000], [0.0, 1.7e9, -12.5])
  func ratesAndStartTimes(rate: Double, start: Double) throws {
    let seed = UInt64(rate) &* 31 &+ UInt64(bitPattern: Int64(start))
    var rng = SplitMix64(seed: seed)
    let folder = try scratchFolder("adversarial-rates")
    defer { try? FileManager.default.removeItem(at: folder) }
    let times = jitteredTimes(start: start, rate: rate, duration: 3, jitter: 0.3, rng: &rng)
    let rows = try scriptRows("tilt 30deg right over 0.5s; hold 2.5s", at: times)
    let path = try writeFile(deviceMotionCSV(rows), named: "m.csv", in: folder)
    let comment = "rate \(rate) start \(start) seed \(seed)"
    let span = (times.last ?? 0) - (times.first ?? 0)
    let table = try traceTable(["waterwave", "--motion", path], comment)
    try checkTraceInvariants(
      table, fps: 60, rows: documentedRowCount(duration: span, fps: 60), comment)
    let t0 = try #require(table.rows.first?[0])
    #expect(abs(t0 - (times.first ?? .nan)) <= abs(t0) * 1e-15, "\(comment): frame 0 time")
    let tilt = try table.column(Key.tilt)
    #expect(
      abs((tilt.last ?? .nan) - rad(-30)) < 1e-3, "\(comment): settled at \(tilt.last ?? .nan)")
  }

  /// Held poses, corrected and seed-exact (docs/waterwave.md table): landscape, face up/down
  /// (direction undefined: held at 0), upside down (back to 0), and tilts right at and around 45°.
  @Test(
    "held pose",
    arguments: [
      ("portrait", Vector3(0, -1, 0), 0.0, 0.0),
      ("landscape left", Vector3(-1, 0, 0), 45, 0),
      ("landscape right", Vector3(1, 0, 0), -45, 0),
      ("face up", Vector3(0, 0, -1), 0, 0),
      ("face down", Vector3(0, 0, 1), 0, 0),
      ("upside down", Vector3(0, 1, 0), 0, 0),
      ("upside down tilted", Vector3(0.3, 0.954, 0), 0, 0),
      ("30 right", turned(30), -30, -30),
      ("30 left", turned(-30), 30, 30),
      ("44.9 right", turned(44.9), -44.9, -44.9),
      ("45 right", turned(45), -45, 0),
      ("45.1 right", turned(45.1), -45, 0),
      ("60 right", turned(60), -45, 0),
      ("90 right", turned(90), -45, 0),
      ("60 left", turned(-60), 45, 0),
      ("almost flat", Vector3(0.01, -0.02, -0.9997), 0, -26.565_051),
    ])
  func heldPose(name: String, gravity: Vector3, corrected: Double, seedExact: Double) throws {
    let folder = try scratchFolder("adversarial-pose")
    defer { try? FileManager.default.removeItem(at: folder) }
    let times = (0...300).map { Double($0) / 100 }
    let path = try writeFile(
      deviceMotionCSV(heldRows(gravity: gravity, times: times)), named: "m.csv", in: folder)
    for (exact, expected) in [(false, corrected), (true, seedExact)] {
      let args = ["waterwave", "--motion", path] + (exact ? ["--seed-exact"] : [])
      let table = try traceTable(args, name)
      try checkTraceInvariants(table, fps: 60, rows: 180, seedExact: exact, "\(name) \(exact)")
      let settled = try #require(try table.column(Key.tilt).last)
      #expect(
        abs(settled - rad(expected)) < 1e-4,
        "\(name) seedExact \(exact): settled at \(settled * 180 / .pi)°, expected \(expected)°")
      // A held pose never moves the amplitude.
      #expect(try table.column(Key.amplitude).allSatisfy { $0 == baseAmplitude }, "\(name)")
    }
  }

  /// A continuous turn through 360° (and 720°) about z, both ways, slow and fast: no 2π spin
  /// or jump anywhere in the trace (the seed's atan2 wrap hazard), for both rules.
  @Test(
    "continuous rotation", arguments: [("right", 20.0), ("left", 20), ("right", 2), ("left", 3)])
  func continuousRotation(direction: String, seconds: Double) throws {
    let folder = try scratchFolder("adversarial-spin")
    defer { try? FileManager.default.removeItem(at: folder) }
    let times = (0...Int(seconds * 100 + 300)).map { Double($0) / 100 }
    let script = "tilt 720deg \(direction) over \(seconds)s; hold 3s"
    let path = try writeFile(
      deviceMotionCSV(try scriptRows(script, at: times)), named: "m.csv", in: folder)
    for exact in [false, true] {
      let comment = "\(script) seedExact \(exact)"
      let table = try traceTable(
        ["waterwave", "--motion", path, "--fps", "120"] + (exact ? ["--seed-exact"] : []), comment)
      try checkTraceInvariants(table, fps: 120, seedExact: exact, comment)
      let tilt = try table.column(Key.tilt)
      // The 1 s ease-in-out moves at most ~1.5 rad/s even for a 90° step; a wrap would jump by
      // about 2π in a frame.
      let step = zip(tilt, tilt.dropFirst()).map { abs($1 - $0) }.max() ?? 0
      #expect(step < 0.05, "\(comment): largest frame-to-frame step \(step) rad")
      // Back upright at the end: the water is level again.
      #expect(abs(tilt.last ?? .nan) < 1e-3, "\(comment): ends at \(tilt.last ?? .nan)")
    }
  }

  /// Rapid alternation between ±80° (square wave, several periods): the corrected tilt stays
  /// within ±45° (the eased, additive retargeting never overshoots the targets) and is smooth.
  @Test("rapid alternation", arguments: [0.7, 1, 2, 5, 12])
  func rapidAlternation(frequency: Double) throws {
    let folder = try scratchFolder("adversarial-alternate")
    defer { try? FileManager.default.removeItem(at: folder) }
    let rows = (0...400).map { i -> MotionRow in
      let t = Double(i) / 100
      let up = Int((t * 2 * frequency).rounded(.down)) % 2 == 0
      return MotionRow(time: t, attitude: .identity, gravity: turned(up ? 80 : -80))
    }
    let path = try writeFile(deviceMotionCSV(rows), named: "m.csv", in: folder)
    let table = try traceTable(["waterwave", "--motion", path, "--fps", "240"], "\(frequency) Hz")
    try checkTraceInvariants(table, fps: 240, rows: 960, "alternation \(frequency) Hz")
  }

  /// Shakes about x at 0.5–10 Hz with peak rates around the 0.7 rad/s threshold and far above:
  /// the amplitude rises only above the threshold, to at most 20·peak above the base (and close
  /// to it), and comes back to the base after the shake.
  @Test("shake about x", arguments: [0.5, 2, 5, 10], [0.5, 0.7, 0.71, 2, 10])
  func shakeAboutX(frequency: Double, peak: Double) throws {
    let comment = "shake x \(frequency) Hz \(peak) rad/s"
    let table = try traceTable(
      [
        "waterwave", "--script", "shake x \(frequency)Hz \(peak)rad/s for 2s; hold 5s",
        "--motion-rate", "200",
      ], comment)
    try checkTraceInvariants(table, fps: 60, rows: 420, comment)
    let amplitude = try table.column(Key.amplitude)
    let during = amplitude.prefix(150).max() ?? 0
    if peak > 0.7 {
      #expect(during > baseAmplitude + 0.9 * 20 * peak, "\(comment): peak \(during)")
      #expect(during <= baseAmplitude + 20 * peak + 1e-9, "\(comment): peak \(during)")
    } else {
      #expect(amplitude.allSatisfy { $0 == baseAmplitude }, "\(comment): moved at or below 0.7")
    }
    #expect(
      abs((amplitude.last ?? .nan) - baseAmplitude) < 0.5,
      "\(comment): end \(amplitude.last ?? .nan)")
  }

  /// Shakes about y and z never raise the amplitude (the response reads the pitch rate only),
  /// however fast.
  @Test("shake about other axes", arguments: ["y", "z", "-y"], [2.0, 10])
  func shakeAboutOtherAxes(axis: String, peak: Double) throws {
    let comment = "shake \(axis) \(peak) rad/s"
    let table = try traceTable(
      ["waterwave", "--script", "shake \(axis) 3Hz \(peak)rad/s for 2s; hold 1s"], comment)
    try checkTraceInvariants(table, fps: 60, rows: 180, comment)
    #expect(try table.column(Key.amplitude).allSatisfy { $0 == baseAmplitude }, "\(comment)")
  }

  /// Negative-only pitch rates: the seed reacts to positive rates only (`--seed-exact`: no
  /// amplitude), the corrected rule to |ω_x|.
  @Test("negative only pitch rate") func negativeOnlyPitchRate() throws {
    let folder = try scratchFolder("adversarial-negative")
    defer { try? FileManager.default.removeItem(at: folder) }
    let rows = (0...200).map { i -> MotionRow in
      let t = Double(i) / 100
      let rate = t < 1 ? -2 * abs(cos(2 * .pi * 3 * t)) - 0.1 : 0
      return MotionRow(
        time: t, attitude: uprightAttitude(turnedClockwiseBy: 0), rotationRate: Vector3(rate, 0, 0))
    }
    let path = try writeFile(deviceMotionCSV(rows), named: "m.csv", in: folder)
    let exact = try traceTable(["waterwave", "--motion", path, "--seed-exact"], "seed-exact")
    try checkTraceInvariants(exact, fps: 60, rows: 120, seedExact: true, "seed-exact")
    #expect(try exact.column(Key.amplitude).allSatisfy { $0 == baseAmplitude })
    let corrected = try traceTable(["waterwave", "--motion", path], "corrected")
    #expect((try corrected.column(Key.amplitude).max() ?? 0) > baseAmplitude + 36)
  }

  /// Random motion (seeded) with jitter, gaps of seconds and an epoch start: the values at the
  /// shared frame times are identical at 60 and 120 fps, and JSON carries the same numbers as CSV.
  @Test(
    "random motion frame rate independence", arguments: [1 as UInt64, 2, 3],
    ["classic", "sloshing"])
  func randomMotionFrameRateIndependence(seed: UInt64, response: String) throws {
    var rng = SplitMix64(seed: seed)
    let folder = try scratchFolder("adversarial-random")
    defer { try? FileManager.default.removeItem(at: folder) }
    var times = jitteredTimes(start: 1.7e9, rate: 100, duration: 2, jitter: 0.45, rng: &rng)
    // A gap of a few seconds, then more samples.
    let resume = (times.last ?? 0) + Double.random(in: 1...4, using: &rng)
    times += jitteredTimes(start: resume, rate: 50, duration: 2, jitter: 0.45, rng: &rng)
    var angle = 0.0
    let rows = times.map { t -> MotionRow in
      angle += Double.random(in: -0.2...0.2, using: &rng)
      let pitch = Double.random(in: -3...3, using: &rng)
      return MotionRow(
        time: t, attitude: uprightAttitude(turnedClockwiseBy: angle),
        rotationRate: Vector3(pitch, 0, 0))
    }
    let path = try writeFile(deviceMotionCSV(rows), named: "m.csv", in: folder)
    let comment = "seed \(seed) \(response)"
    let common = ["waterwave", "--motion", path, "--response", response]
    let a = try traceTable(common + ["--fps", "60"], comment)
    let b = try traceTable(common + ["--fps", "120"], comment)
    let sloshing = response == "sloshing"
    try checkTraceInvariants(a, fps: 60, sloshing: sloshing, comment)
    try checkTraceInvariants(b, fps: 120, sloshing: sloshing, comment)
    for (i, row) in a.rows.enumerated() where 2 * i < b.rows.count {
      let other = b.rows[2 * i]
      #expect(row == other, "\(comment): frame \(i): \(row) vs \(other)")
      if row != other { break }
    }
    let json = try runSwell(["trace"] + common + ["--format", "json"])
    try #require(json.status == 0, "\(comment): \(json.err)")
    let parsed = try TraceTable(json: json.out, header: a.header)
    try #require(parsed.rows.count == a.rows.count, "\(comment): JSON row count")
    // JSONSerialization may round the last bit of a long decimal: compare to 1e-15 relative.
    for (x, y) in zip(parsed.rows, a.rows)
    where zip(x, y).contains(where: {
      abs($0 - $1) > 1e-15 * max(1, abs($1))
    }) {
      Issue.record("\(comment): JSON row \(x) differs from CSV row \(y)")
      break
    }
  }

  /// One sample, two samples, and a single sample traced for a while: the row rule and the
  /// settle still hold.
  @Test("tiny recordings") func tinyRecordings() throws {
    let folder = try scratchFolder("adversarial-tiny")
    defer { try? FileManager.default.removeItem(at: folder) }
    let one = try writeFile(
      deviceMotionCSV(heldRows(gravity: turned(30), times: [5])), named: "one.csv", in: folder)
    let two = try writeFile(
      deviceMotionCSV(heldRows(gravity: turned(30), times: [5, 5.01])), named: "two.csv",
      in: folder)
    for path in [one, two] {
      let table = try traceTable(["waterwave", "--motion", path], path)
      try checkTraceInvariants(table, fps: 60, rows: 1, path)
      let long = try traceTable(["waterwave", "--motion", path, "--duration", "2.5"], path)
      try checkTraceInvariants(long, fps: 60, rows: 150, path)
      #expect(abs((try long.column(Key.tilt).last ?? .nan) - rad(-30)) < 1e-6, "\(path)")
    }
  }

  /// Ten minutes at 100 Hz of slow swaying: the whole file is traced (36 001 rows) with the
  /// invariants holding throughout.
  @Test("ten minutes at 100 hz") func tenMinutesAt100Hz() throws {
    let folder = try scratchFolder("adversarial-long")
    defer { try? FileManager.default.removeItem(at: folder) }
    let rows = (0...60_000).map { i -> MotionRow in
      let t = Double(i) / 100
      return MotionRow(
        time: t, attitude: uprightAttitude(turnedClockwiseBy: 0.6 * sin(t / 3)),
        rotationRate: Vector3(i % 1000 < 100 ? 1.5 : 0, 0, 0))
    }
    let path = try writeFile(deviceMotionCSV(rows), named: "m.csv", in: folder)
    let table = try traceTable(["waterwave", "--motion", path], "10 min")
    try checkTraceInvariants(table, fps: 60, rows: 36_000, "10 min")
  }

  /// The same scripted turns sampled at 25, 37, 50, 200 Hz give the water tilt of 1000 Hz
  /// sampling within 0.03° (the 60 Hz tilt grid makes the response independent of the rate).
  @Test("motion rate independence", arguments: [25.0, 37, 50, 200])
  func motionRateIndependence(rate: Double) throws {
    let script = "tilt 40deg right over 0.5s; hold 0.5s; tilt 70deg left over 1s; hold 1.5s"
    let reference = try traceTable(["waterwave", "--script", script, "--motion-rate", "1000"])
    let table = try traceTable(["waterwave", "--script", script, "--motion-rate", "\(rate)"])
    try checkTraceInvariants(table, fps: 60, rows: 210, "motion rate \(rate)")
    let a = try table.column(Key.tilt)
    let b = try reference.column(Key.tilt)
    let worst = zip(a, b).map { abs($0 - $1) }.max() ?? .infinity
    #expect(worst * 180 / .pi < 0.03, "\(rate) Hz: \(worst * 180 / .pi)° from 1000 Hz")
  }
}
