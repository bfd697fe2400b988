import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

/// A raw IMU CSV of a device at rest with gravity `g` (g units, device frame): the
/// accelerometer reads the specific force `−g · 9.80665` m/s², plus seeded noise; the gyroscope
/// reads seeded noise around a small bias.
private func restingRawCSV(
  gravity g: Vector3, times: [Double], magnetometer: Vector3? = nil, lineEnding: String = "\n",
  rng: inout SplitMix64
) -> String {
  var s = rawIMUHeader + lineEnding
  for t in times {
    func noise(_ scale: Double) -> Double { Double.random(in: -scale...scale, using: &rng) }
    let f = g * -standardGravity
    var fields = [
      t, 0.002 + noise(0.003), -0.001 + noise(0.003), noise(0.003), f.x + noise(0.02),
      f.y + noise(0.02), f.z + noise(0.02),
    ].map { "\($0)" }
    if let m = magnetometer {
      fields += [m.x, m.y, m.z].map { "\($0 + noise(0.2))" }
    } else {
      fields += ["", "nan", ""]
    }
    s += fields.joined(separator: ",") + lineEnding
  }
  return s
}

/// The data rows of a device-motion CSV (comment lines and the header dropped).
private func deviceMotionTable(_ text: String) throws -> TraceTable {
  let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
  return try TraceTable(csv: lines.joined(separator: "\n"))
}

/// The angle between two vectors, degrees.
private func angleDegrees(_ a: Vector3, _ b: Vector3) -> Double {
  let c = (a.x * b.x + a.y * b.y + a.z * b.z) / (a.length * b.length)
  return acos(min(1, max(-1, c))) * 180 / .pi
}

/// `swell fuse` (and scene commands fed raw recordings) with rates, poses, start times and
/// spellings nobody tuned for.
@Suite("adversarial: swell fuse and raw recordings")
private struct AdversarialFuseTests {
  /// Resting poses at every rate with jittered timestamps and odd start times: every output row
  /// has a unit quaternion, |gravity| = 1, gravity along the accelerometer's up axis (within
  /// 0.5° after the first second), gravity consistent with the attitude, and the input's
  /// timestamps.
  @Test(
    "resting poses",
    arguments: [25.0, 50, 100, 200, 1000],
    [
      ("portrait", Vector3(0, -1, 0)), ("landscape left", Vector3(-1, 0, 0)),
      ("landscape right", Vector3(1, 0, 0)), ("face up", Vector3(0, 0, -1)),
      ("face down", Vector3(0, 0, 1)), ("upside down", Vector3(0, 1, 0)),
      ("45 right", Vector3(0.5.squareRoot(), -(0.5.squareRoot()), 0)),
      ("askew", Vector3(0.48, -0.6, 0.64)),
    ])
  func restingPoses(rate: Double, pose: (String, Vector3)) throws {
    let (name, gravity) = pose
    let seed = UInt64(rate) &* 1_000 &+ UInt64(name.count)
    var rng = SplitMix64(seed: seed)
    let start = [0, 1.7e9, -3][Int(rate) % 3]
    let folder = try scratchFolder("adversarial-fuse")
    defer { try? FileManager.default.removeItem(at: folder) }
    let times = jitteredTimes(start: start, rate: rate, duration: 3, jitter: 0.3, rng: &rng)
    let input = try writeFile(
      restingRawCSV(gravity: gravity, times: times, rng: &rng), named: "raw.csv", in: folder)
    let output = folder.appendingPathComponent("dm.csv").path
    let comment = "\(name) at \(rate) Hz from \(start), seed \(seed)"
    let r = try runSwell(["fuse", input, "-o", output])
    try #require(r.status == 0, "\(comment): \(r.err)")
    #expect(r.err.isEmpty, "\(comment): \(r.err)")
    let table = try deviceMotionTable(try String(contentsOfFile: output, encoding: .utf8))
    try #require(table.rows.count == times.count, "\(comment): \(table.rows.count) rows")
    let time = try table.column("time")
    #expect(time == times, "\(comment): timestamps changed")
    for (i, row) in table.rows.enumerated() {
      let q = Quaternion(w: row[1], x: row[2], y: row[3], z: row[4])
      let g = Vector3(row[5], row[6], row[7])
      let ok =
        row.allSatisfy(\.isFinite) && abs(q.norm - 1) < 1e-9 && abs(g.length - 1) < 1e-9
        && (q.inverseRotate(Vector3(0, 0, -1)) - g).length < 1e-9
        && (time[i] - start < 1 || angleDegrees(g, gravity) < 0.5)
      if !ok {
        Issue.record("\(comment): row \(i): \(row)")
        break
      }
    }
  }

  /// A raw recording fed to `swell trace` (fused on the fly): a device at rest tilted 30° right
  /// gives a water tilt of −30°, at 25 Hz and 1000 Hz, and a 9D recording at an epoch time too.
  @Test("raw recording drives the wave", arguments: [25.0, 1000])
  func rawRecordingDrivesTheWave(rate: Double) throws {
    var rng = SplitMix64(seed: UInt64(rate))
    let folder = try scratchFolder("adversarial-rawtrace")
    defer { try? FileManager.default.removeItem(at: folder) }
    let beta = 30 * Double.pi / 180
    let g = Vector3(sin(beta), -cos(beta), 0)
    let times = jitteredTimes(start: 1.7e9, rate: rate, duration: 3, jitter: 0.2, rng: &rng)
    for magnetometer in [nil, Vector3(20, 0, -40)] {
      let input = try writeFile(
        restingRawCSV(gravity: g, times: times, magnetometer: magnetometer, rng: &rng),
        named: "raw.csv", in: folder)
      let comment = "raw \(rate) Hz magnetometer \(magnetometer.debugDescription)"
      let table = try traceTable(["waterwave", "--motion", input], comment)
      let span = (times.last ?? 0) - (times.first ?? 0)
      try checkTraceInvariants(
        table, fps: 60, rows: documentedRowCount(duration: span, fps: 60), comment)
      let tilt = try table.column(Key.tilt)
      #expect(abs((tilt.last ?? .nan) + beta) < 0.01, "\(comment): settled at \(tilt.last ?? .nan)")
      let hs = try traceTable(["homescreen", "--motion", input], comment)
      try checkTraceInvariants(hs, fps: 60, comment)
    }
  }

  /// Ten minutes at 100 Hz of raw samples: fused in full, unit quaternions throughout.
  @Test("ten minutes raw") func tenMinutesRaw() throws {
    var rng = SplitMix64(seed: 600)
    let folder = try scratchFolder("adversarial-rawlong")
    defer { try? FileManager.default.removeItem(at: folder) }
    let times = (0...60_000).map { Double($0) / 100 }
    let input = try writeFile(
      restingRawCSV(gravity: Vector3(0, -1, 0), times: times, rng: &rng), named: "raw.csv",
      in: folder)
    let output = folder.appendingPathComponent("dm.csv").path
    let r = try runSwell(["fuse", input, "-o", output, "--rate", "30"])
    try #require(r.status == 0, "\(r.err)")
    let table = try deviceMotionTable(try String(contentsOfFile: output, encoding: .utf8))
    #expect(table.rows.count == 18_001)
    for row in table.rows {
      let q = Quaternion(w: row[1], x: row[2], y: row[3], z: row[4])
      if !(row.allSatisfy(\.isFinite) && abs(q.norm - 1) < 1e-9) {
        Issue.record("row \(row)")
        break
      }
    }
  }

  /// The same raw recording in accepted spellings (CRLF, BOM, comments, blank lines, extra
  /// columns, spaces, a row ending after `az`) fuses to the same output.
  @Test(
    "raw spellings",
    arguments: [
      "crlf", "bom", "comments", "blank lines", "extra columns", "spaces", "short rows",
    ])
  func rawSpellings(variant: String) throws {
    var rng = SplitMix64(seed: 77)
    let folder = try scratchFolder("adversarial-rawspell")
    defer { try? FileManager.default.removeItem(at: folder) }
    let times = (0...150).map { Double($0) / 50 }
    let clean = restingRawCSV(
      gravity: Vector3(0.5, -0.5, -0.5.squareRoot()), times: times, rng: &rng)
    var lines = clean.split(separator: "\n").map(String.init)
    switch variant {
    case "crlf": lines = lines.map { $0 + "\r" }
    case "bom": lines[0] = "\u{FEFF}" + lines[0]
    case "comments":
      lines.insert("# exported by hand", at: 0)
      lines.insert("# half way", at: 70)
    case "blank lines": lines += ["", "", ""]
    case "extra columns":
      lines[0] += ",qw,movement"
      for i in 1..<lines.count { lines[i] += ",1,0" }
    case "spaces":
      lines = lines.map {
        $0.split(separator: ",", omittingEmptySubsequences: false).map { " \($0) " }.joined(
          separator: ",")
      }
    default:
      for i in 1..<lines.count {
        lines[i] = lines[i].split(separator: ",", omittingEmptySubsequences: false).prefix(7)
          .joined(separator: ",")
      }
    }
    let a = try writeFile(clean, named: "clean.csv", in: folder)
    let b = try writeFile(lines.joined(separator: "\n") + "\n", named: "variant.csv", in: folder)
    let outA = folder.appendingPathComponent("a.csv").path
    let outB = folder.appendingPathComponent("b.csv").path
    let ra = try runSwell(["fuse", a, "-o", outA])
    let rb = try runSwell(["fuse", b, "-o", outB])
    try #require(ra.status == 0, "\(ra.err)")
    #expect(rb.status == 0 && rb.err.isEmpty, "\(variant): \(rb.err)")
    #expect(
      try String(contentsOfFile: outA, encoding: .utf8)
        == String(contentsOfFile: outB, encoding: .utf8), "\(variant): output differs")
  }

  /// Raw files that must be refused in one line naming the file, line and column, with no output.
  @Test(
    "refused raw",
    arguments: [
      ("nan gyro", "0,nan,0,0,0,0,9.8,,,", ["bad.csv", ":3", "gx"]),
      ("inf accel", "0,0,0,0,0,inf,9.8,,,", ["bad.csv", ":3", "ay"]),
      ("one magnetometer axis", "0,0,0,0,0,0,9.8,1,,", ["bad.csv", ":3"]),
      ("inf magnetometer", "0,0,0,0,0,0,9.8,1,inf,1", ["bad.csv", ":3", "my"]),
      ("word", "0,0,0,0,zero,0,9.8,,,", ["bad.csv", ":3", "ax"]),
      ("same time", "-1,0,0,0,0,0,9.8,,,", ["bad.csv", ":3", "t_s"]),
    ])
  func refusedRaw(name: String, row: String, mentioning: [String]) throws {
    let folder = try scratchFolder("adversarial-rawbad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = rawIMUHeader + "\n-1,0,0,0,0,0,9.8,,,\n" + row + "\n0.01,0,0,0,0,0,9.8,,,\n"
    let bad = try writeFile(text, named: "bad.csv", in: folder)
    let r = try runSwell(["fuse", bad, "-o", folder.appendingPathComponent("o.csv").path])
    expectOneLineFailure(r, command: "fuse", mentioning: mentioning, name)
    let t = try runSwell(["trace", "waterwave", "--motion", bad])
    expectOneLineFailure(t, command: "trace", mentioning: mentioning, "trace \(name)")
    #expect(try folderNames(folder) == ["bad.csv"])
  }

  /// Fuse options that must be refused in one line: absurd resampling rates (no crash, no
  /// out-of-memory), zero, negative, NaN; 9D without a magnetometer.
  @Test(
    "refused fuse words",
    arguments: [
      (["--rate", "1e9"], "--rate"), (["--rate", "1e300"], "--rate"), (["--rate", "0"], "--rate"),
      (["--rate", "-5"], "--rate"), (["--rate", "nan"], "--rate"), (["--9d"], "magnetometer"),
      (["--declination", "400"], "--declination"), (["--reference-frame", "up"], "up"),
    ])
  func refusedFuseWords(words: [String], mentioning: String) throws {
    var rng = SplitMix64(seed: 5)
    let folder = try scratchFolder("adversarial-fusewords")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try writeFile(
      restingRawCSV(
        gravity: Vector3(0, -1, 0), times: (0...100).map { Double($0) / 100 }, rng: &rng),
      named: "raw.csv", in: folder)
    let r = try runSwell(
      ["fuse", input, "-o", folder.appendingPathComponent("o.csv").path] + words)
    expectOneLineFailure(r, command: "fuse", mentioning: [mentioning], "\(words)")
    #expect(try folderNames(folder) == ["raw.csv"])
  }

  /// One and two raw samples fuse (one and two rows), and trace.
  @Test("tiny raw", arguments: [1, 2])
  func tinyRaw(count: Int) throws {
    var rng = SplitMix64(seed: UInt64(count))
    let folder = try scratchFolder("adversarial-rawtiny")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try writeFile(
      restingRawCSV(
        gravity: Vector3(0, 0, -1), times: (0..<count).map { 7 + Double($0) / 100 }, rng: &rng),
      named: "raw.csv", in: folder)
    let output = folder.appendingPathComponent("dm.csv").path
    let r = try runSwell(["fuse", input, "-o", output])
    try #require(r.status == 0, "\(r.err)")
    let table = try deviceMotionTable(try String(contentsOfFile: output, encoding: .utf8))
    #expect(table.rows.count == count)
    let traced = try traceTable(["waterwave", "--motion", input], "tiny raw \(count)")
    try checkTraceInvariants(traced, fps: 60, rows: 1, "tiny raw \(count)")
  }

  /// The real phone recording (a Sensor Logger export, as a zip and as a folder) drives both
  /// scenes: the invariants hold, zip and folder give the same trace, and the wave's values at
  /// shared times agree at 60 and 120 fps.
  @Test("real phone recording") func realPhoneRecording() throws {
    let fixtures = packageRoot.appendingPathComponent("Tests/SwellRecordingsTests/Fixtures")
    let zip = fixtures.appendingPathComponent("sensorlogger-ios-rotation.zip").path
    let folder = fixtures.appendingPathComponent("sensorlogger-ios-rotation").path
    let a = try traceTable(["waterwave", "--motion", zip], "zip")
    let b = try traceTable(["waterwave", "--motion", folder, "--fps", "120"], "folder")
    try checkTraceInvariants(a, fps: 60, "phone 60 fps")
    try checkTraceInvariants(b, fps: 120, "phone 120 fps")
    #expect((try a.column(Key.amplitude).max() ?? 0) > baseAmplitude + 20, "the shakes show")
    for (i, row) in a.rows.enumerated() where 2 * i < b.rows.count && row != b.rows[2 * i] {
      Issue.record("frame \(i): \(row) vs \(b.rows[2 * i])")
      break
    }
    let exact = try traceTable(["waterwave", "--motion", zip, "--seed-exact"], "seed-exact")
    try checkTraceInvariants(exact, fps: 60, rows: a.rows.count, seedExact: true, "phone exact")
    let hz = try traceTable(["homescreen", "--motion", zip], "homescreen zip")
    let hf = try traceTable(["homescreen", "--motion", folder], "homescreen folder")
    try checkTraceInvariants(hz, fps: 60, rows: a.rows.count, "phone homescreen")
    #expect(hz.rows == hf.rows, "zip and folder differ")
  }
}
