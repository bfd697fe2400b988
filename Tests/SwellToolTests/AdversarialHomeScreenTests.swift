import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

/// `swell trace homescreen` under motion nobody tuned for: the viewer offset stays in −1...1 and
/// the wallpaper sits at its model position plus 40 points times the offset (at most ±40).
@Suite("adversarial: swell trace homescreen")
private struct AdversarialHomeScreenTests {
  /// Scripted motion of every kind, at 60 and 120 fps.
  @Test(
    "scripted",
    arguments: [
      "tilt 30deg forward over 0.5s; hold 3s",
      "tilt 170deg forward over 1s; hold 2s",
      "tilt 140deg back over 0.3s; hold 2s; tilt 140deg forward over 0.3s; hold 1s",
      "rotate 720deg about x over 6s",
      "rotate 720deg about y over 6s",
      "rotate 360deg about z over 4s",
      "flat; tilt 90deg back over 1s; hold 1s",
      "landscape left; tilt 20deg forward over 1s; hold 1s",
      "landscape right; turn 400deg left over 3s",
      "shake x 10Hz 10rad/s for 2s; hold 1s",
      "shake y 0.5Hz 10rad/s for 4s",
      "flat; shake z 2Hz 5rad/s for 2s",
      "hold 0s",
    ], [60.0, 120])
  func scripted(script: String, fps: Double) throws {
    let table = try traceTable(
      ["homescreen", "--script", script, "--fps", "\(fps)"], "\(script) @\(fps)")
    try checkTraceInvariants(table, fps: fps, "\(script) @\(fps)")
  }

  /// A turn about the screen normal only never moves the offset (it changes no axis's
  /// elevation out of the screen plane).
  @Test("rotation in the screen plane keeps the offset")
  func rotationInTheScreenPlaneKeepsTheOffset() throws {
    let table = try traceTable(["homescreen", "--script", "rotate 360deg about z over 4s"])
    #expect(try table.column(Key.horizontal).allSatisfy { abs($0) < 1e-9 })
    #expect(try table.column(Key.vertical).allSatisfy { abs($0) < 1e-9 })
  }

  /// Reduce Motion pins the offset at zero and the wallpaper at its model position under any
  /// motion.
  @Test("reduce motion") func reduceMotion() throws {
    let table = try traceTable(
      [
        "homescreen", "--script", "tilt 60deg forward over 0.5s; shake y 3Hz 4rad/s for 1s",
        "--reduce-motion",
      ])
    try checkTraceInvariants(table, fps: 60, rows: 90, "reduce motion")
    #expect(try table.column(Key.wallpaperX).allSatisfy { $0 == wallpaperModel.x })
    #expect(try table.column(Key.wallpaperY).allSatisfy { $0 == wallpaperModel.y })
  }

  /// Random attitudes (seeded) with jitter, gaps of seconds and epoch or negative start times,
  /// through device-motion files: the invariants hold and the row count follows the rule.
  @Test("random attitudes", arguments: [(11 as UInt64, 1.7e9), (12, 0), (13, -40)])
  func randomAttitudes(seed: UInt64, start: Double) throws {
    var rng = SplitMix64(seed: seed)
    let folder = try scratchFolder("adversarial-hsrandom")
    defer { try? FileManager.default.removeItem(at: folder) }
    var times = jitteredTimes(start: start, rate: 100, duration: 2, jitter: 0.4, rng: &rng)
    times += jitteredTimes(
      start: (times.last ?? 0) + 2.5, rate: 25, duration: 2, jitter: 0.4, rng: &rng)
    var q = uprightAttitude(turnedClockwiseBy: 0)
    let rows = times.map { t -> MotionRow in
      let axis = Vector3(
        Double.random(in: -1...1, using: &rng), Double.random(in: -1...1, using: &rng),
        Double.random(in: -1...1, using: &rng))
      if axis.length > 0.1 {
        q =
          (q * Quaternion(axis: axis.normalized(), angle: Double.random(in: 0...0.3, using: &rng)))
          .normalized()
      }
      return MotionRow(time: t, attitude: q)
    }
    let path = try writeFile(deviceMotionCSV(rows), named: "m.csv", in: folder)
    let span = (times.last ?? 0) - (times.first ?? 0)
    let comment = "seed \(seed) start \(start)"
    let table = try traceTable(["homescreen", "--motion", path], comment)
    try checkTraceInvariants(
      table, fps: 60, rows: documentedRowCount(duration: span, fps: 60), comment)
    // The motion really moved the wallpaper (the test is not vacuous).
    let h = try table.column(Key.horizontal)
    let v = try table.column(Key.vertical)
    #expect(zip(h, v).contains { abs($0) + abs($1) > 0.05 }, "\(comment): offset never moved")
  }
}
