import Foundation
import SwellGeometry
import SwellMotion
import SwellScenes
import SwellTestSupport
import Testing

@testable import SwellTool

/// Runs `swell trace` and returns its exit status, standard output and standard error.
private func trace(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
  try runSwell(["trace"] + arguments)
}

/// Parsed CSV trace: header and numeric rows.
private struct Table {
  var header: [String]
  var rows: [[Double]]

  init(_ text: String) throws {
    var lines = text.split(separator: "\n").map(String.init)
    header = lines.isEmpty ? [] : lines.removeFirst().split(separator: ",").map(String.init)
    rows = try lines.map { line in
      try line.split(separator: ",").map { try #require(Double($0), "not a number: \(line)") }
    }
  }

  func column(_ name: String) throws -> [Double] {
    let i = try #require(header.firstIndex(of: name))
    return rows.map { $0[i] }
  }
}

/// A device-motion CSV (docs/formats.md) of a script sampled at a rate, starting at `start`.
private func deviceMotionCSV(_ script: String, rate: Double, start: Double = 100) throws -> String {
  var s =
    "# referenceFrame: xArbitraryZVertical\n"
    + "time,attitude.w,attitude.x,attitude.y,attitude.z,gravity.x,gravity.y,gravity.z,"
    + "userAcceleration.x,userAcceleration.y,userAcceleration.z,"
    + "rotationRate.x,rotationRate.y,rotationRate.z\n"
  for m in try MotionScript(parsing: script).samples(rate: rate, startTime: start) {
    let q = m.attitude.quaternion
    let v: [Double] = [
      m.timestamp, q.w, q.x, q.y, q.z, m.gravity.x, m.gravity.y, m.gravity.z,
      m.userAcceleration.x, m.userAcceleration.y, m.userAcceleration.z, m.rotationRate.x,
      m.rotationRate.y, m.rotationRate.z,
    ]
    s += v.map { "\($0)" }.joined(separator: ",") + "\n"
  }
  return s
}

private let tiltKey = "water.transform.rotation.z"

@Suite("swell trace")
private struct TraceCommandTests {
  @Test("CSV header and row count") func csvHeaderAndRowCount() throws {
    let r = try trace([
      "waterwave", "--script", "hold 1s; tilt 30deg right over 0.5s", "--fps", "60",
    ])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.err.isEmpty)
    let t = try Table(r.out)
    #expect(Array(t.header.prefix(4)) == ["time", tiltKey, "water.amplitude", "water.phase"])
    #expect(t.rows.count == 90)
    let times = try t.column("time")
    #expect(times.first == 0)
    // round(1.5·60) = 90 frames: the last at 89/60 s, the 1.5 s instant is the next loop's.
    let last: Double = times.last ?? 0
    #expect(abs(last - 89.0 / 60) < 1e-12)
    let d = try trace(["waterwave", "--duration", "0.5", "--fps", "30"])
    #expect(try Table(d.out).rows.count == 15)
  }

  @Test(
    "held tilt settles",
    arguments: [
      ("30deg right", false, -30.0), ("30deg left", false, 30), ("60deg right", false, -45),
      ("60deg left", false, 45), ("30deg right", true, -30), ("0.01deg left", false, 0.01),
      ("0.01deg left", true, 0.01),
    ])
  func heldTiltSettles(tilt: String, seedExact: Bool, expectedDegrees: Double) throws {
    let args =
      ["waterwave", "--script", "tilt \(tilt) over 0.5s; hold 2s"]
      + (seedExact ? ["--seed-exact"] : [])
    let r = try trace(args)
    #expect(r.status == 0, "\(r.err)")
    let last = try #require(try Table(r.out).column(tiltKey).last)
    #expect(abs(last * 180 / .pi - expectedDegrees) < 1e-6, "\(last * 180 / .pi)°")
  }

  @Test("seed exact holds before forty five") func seedExactHoldsBeforeFortyFive() throws {
    let r = try trace([
      "waterwave", "--script", "tilt 60deg right over 0.5s; hold 2s", "--seed-exact",
    ])
    let last = try #require(try Table(r.out).column(tiltKey).last) * 180 / .pi
    #expect(last > -45 && last < -44, "\(last)°")
  }

  @Test("shake raises amplitude and releases") func shakeRaisesAmplitudeAndReleases() throws {
    let r = try trace(["waterwave", "--script", "hold 0.5s; shake x 3Hz 2rad/s for 1s; hold 3s"])
    let t = try Table(r.out)
    let time = try t.column("time")
    let amp = try t.column("water.amplitude")
    let base = try #require(amp.first)
    let during = zip(time, amp).filter { $0.0 > 0.5 && $0.0 <= 1.5 }.map { $0.1 - base }
    #expect((during.max() ?? 0) > 32)
    #expect((during.max() ?? 0) <= 40 + 1e-9)
    #expect(abs((amp.last ?? 0) - base) < 0.5)
  }

  @Test("recording at 60 and 120 fps agrees at shared times")
  func recordingAt60And120FpsAgreesAtSharedTimes() throws {
    let folder = try scratchFolder("trace-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("motion.csv")
    try deviceMotionCSV(
      "tilt 25deg right over 0.4s; shake x 4Hz 2.5rad/s for 0.8s; tilt 70deg left over 0.6s;"
        + " hold 1s", rate: 100
    ).write(to: file, atomically: true, encoding: .utf8)
    let a = try Table(try trace(["waterwave", "--motion", file.path, "--fps", "60"]).out)
    let b = try Table(try trace(["waterwave", "--motion", file.path, "--fps", "120"]).out)
    #expect(a.rows.count == 168)
    #expect(b.rows.count == 2 * a.rows.count)
    #expect(a.rows.first?.first == 100)
    for (i, row) in a.rows.enumerated() {
      let other = b.rows[2 * i]
      for (x, y) in zip(row, other) { #expect(abs(x - y) < 1e-12, "row \(i): \(row) vs \(other)") }
    }
    // The recording drives the water: it tilts past 40° toward the end.
    #expect((try a.column(tiltKey).last ?? 0) > 0.7)
  }

  @Test(
    "physical water traces surface angle and volume alike at 60 and 120 fps",
    arguments: [["glass"], ["waterwave", "--response", "physical"]])
  func physicalWaterTracesSurfaceAngleAndVolumeAlikeAt60And120Fps(scene: [String]) throws {
    let folder = try scratchFolder("trace-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("motion.csv")
    try deviceMotionCSV(
      "tilt 25deg right over 0.4s; push x 0.5g for 0.1s; shake z 4Hz 2.5rad/s for 0.8s;"
        + " tilt 70deg left over 0.6s; hold 1s", rate: 100
    ).write(to: file, atomically: true, encoding: .utf8)
    let a = try Table(try trace(scene + ["--motion", file.path, "--fps", "60"]).out)
    let b = try Table(try trace(scene + ["--motion", file.path, "--fps", "120"]).out)
    #expect(a.header.suffix(2) == ["water.surface.angle", "water.volume"])
    #expect(b.rows.count == 2 * a.rows.count)
    var worst = 0.0
    for (i, row) in a.rows.enumerated() {
      for (x, y) in zip(row, b.rows[2 * i]) { worst = max(worst, abs(x - y)) }
    }
    #expect(worst < 1e-12, "60 vs 120 fps: \(worst)")
    // The volume holds, and the surface ends near level with the world: 45° counter-clockwise.
    #expect(try a.column("water.volume").allSatisfy { abs($0 - 0.5) < 1e-6 })
    let angle = try a.column("water.surface.angle")
    #expect(abs((angle.last ?? 0) - .pi / 4) < 0.2, "\(angle.last ?? 0)")
    #expect(Set(angle).count > 100)
  }

  @Test("JSON has the same keys") func jsonHasTheSameKeys() throws {
    let r = try trace(["waterwave", "--duration", "0.1", "--fps", "20", "--format", "json"])
    #expect(r.status == 0)
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Double]])
    #expect(array.count == 2)
    #expect(Set(array[0].keys) == ["time", tiltKey, "water.amplitude", "water.phase"])
    #expect(array[1]["time"] == 0.05)
  }

  @Test("response and reduce motion options") func responseAndReduceMotionOptions() throws {
    let script = "tilt 30deg right over 0.3s; hold 6s"
    let s = try Table(try trace(["waterwave", "--script", script, "--response", "sloshing"]).out)
    #expect(abs((try s.column(tiltKey).last ?? 0) * 180 / .pi + 30) < 0.5)
    let r = try Table(try trace(["waterwave", "--script", script, "--reduce-motion"]).out)
    #expect(try r.column(tiltKey).allSatisfy { $0 == 0 })
    #expect(Set(try r.column("water.phase")).count == 1)
  }

  @Test("writes output atomically") func writesOutputAtomically() throws {
    let folder = try scratchFolder("trace-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("trace.csv")
    let r = try trace(["waterwave", "--duration", "1", "-o", out.path])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.isEmpty)
    #expect(try Table(String(contentsOf: out, encoding: .utf8)).rows.count == 60)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["trace.csv"])
  }

  private static let header =
    "time,attitude.w,attitude.x,attitude.y,attitude.z,gravity.x,gravity.y,gravity.z,"
    + "userAcceleration.x,userAcceleration.y,userAcceleration.z,rotationRate.x,rotationRate.y,"
    + "rotationRate.z\n"
  private static let row = "0,1,0,0,0,0,-1,0,0,0,0,0,0,0\n"

  @Test(
    "bad input fails with one line and no output",
    arguments: [
      ("missing", nil, ["--motion", "FILE"], "no such file"),
      ("header", "a,b,c\n1,2,3\n", ["--motion", "FILE"], "bad.csv"),
      (
        "number", header + row + "0.01,1,0,0,0,0,-1,0,0,0,0,zero,0,0\n", ["--motion", "FILE"],
        "bad.csv:3: column 'rotationRate.x'"
      ),
      (
        "nan", header + row + "0.01,1,0,0,0,nan,-1,0,0,0,0,0,0,0\n", ["--motion", "FILE"], "bad.csv"
      ),
      ("time", header + row + row, ["--motion", "FILE"], "bad.csv:3: column 'time'"),
      ("script", nil, ["--script", "hold 1s; wobble"], "unknown script word 'wobble' at 1:10"),
      ("fps0", nil, ["--fps", "0"], "--fps"),
      ("fpsneg", nil, ["--fps", "-60"], "--fps"),
      ("duration0", nil, ["--duration", "0"], "--duration"),
      ("durationneg", nil, ["--duration", "-1"], "--duration"),
      ("format", nil, ["--format", "xml"], "--format"),
      ("scene", nil, ["--scene-that-is-not"], "unknown option"),
      ("frames", nil, ["--fps", "1e9", "--duration", "1e9"], "too many"),
      ("samples", nil, ["--script", "hold 100000000s", "--fps", "1"], "too many"),
    ] as [(String, String?, [String], String)])
  func badInputFailsWithOneLineAndNoOutput(
    name: String, file: String?, args: [String], mention: String
  ) throws {
    let folder = try scratchFolder("trace-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("bad.csv")
    if let file { try file.write(to: input, atomically: true, encoding: .utf8) }
    let out = folder.appendingPathComponent("out.csv")
    let r = try trace(
      ["waterwave"] + args.map { $0 == "FILE" ? input.path : $0 } + ["-o", out.path])
    #expect(r.status != 0, "\(name)")
    let lines = r.err.split(separator: "\n")
    #expect(lines.count == 1, "\(name): \(r.err)")
    #expect(r.err.hasPrefix("swell trace: "), "\(name): \(r.err)")
    #expect(r.err.contains(mention), "\(name): \(r.err)")
    #expect(!FileManager.default.fileExists(atPath: out.path), "\(name)")
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(left.filter { $0 != "bad.csv" }.isEmpty, "\(name): \(left)")
  }

  @Test("unknown scene is a usage error") func unknownSceneIsAUsageError() throws {
    let r = try trace(["lighthouse"])
    #expect(r.status == 64)
    #expect(r.err.contains("unknown scene 'lighthouse'"))
  }

  @Test("number formatting round trips") func numberFormattingRoundTrips() {
    for v in [0.1, -0.5235987755982988, 1e-20, 123_456.789, 8] {
      #expect(Double(SceneTraceFormat.number(v)) == v)
    }
    #expect(SceneTraceFormat.number(.nan) == "0")
    #expect(SceneTraceFormat.number(-0.0) == "0")
  }
}
