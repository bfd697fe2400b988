import Foundation
import SwellGeometry
import SwellRender
import SwellTestSupport
import Testing

/// A raw IMU CSV (rad/s, m/s², no magnetometer) of a script sampled at jittered times: the
/// gyroscope reads the script's rotation rate, the accelerometer the specific force
/// `(userAcceleration − gravity)·9.80665` m/s².
private func rawIMUCSV(_ script: String, times: [Double]) throws -> String {
  var s = rawIMUHeader + "\n"
  for r in try scriptRows(script, at: times) {
    let g = r.gravity ?? Vector3(0, -1, 0)
    let f = (r.userAcceleration - g) * standardGravity
    let w = r.rotationRate
    s += [r.time, w.x, w.y, w.z, f.x, f.y, f.z].map { "\($0)" }.joined(separator: ",") + ",,,\n"
  }
  return s
}

/// The bundled Sensor Logger test recording (a zip of a real iPhone turned by hand).
private let sensorLoggerZip = packageRoot.appendingPathComponent(
  "Tests/SwellRecordingsTests/Fixtures/sensorlogger-ios-rotation.zip")

@Suite("adversarial: swell render under every kind of motion input, and swell demo")
private struct AdversarialRenderMotionTests {
  @Test(
    "device-motion CSV (jittered, epoch times, CRLF) and raw IMU CSV: the frame count follows the motion's span, and the picture's surface matches the trace",
    arguments: ["device-motion", "raw"])
  func recordedMotion(kind: String) throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SplitMix64(seed: seed)
    let folder = try scratchFolder("adversarial-motion-\(kind)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let start = kind == "raw" ? Double.random(in: 0...50, using: &rng) : 1.7e9
    let times = jitteredTimes(start: start, rate: 100, duration: 2.5, jitter: 0.3, rng: &rng)
    let degrees = Int.random(in: 10...40, using: &rng)
    let script = "hold 0.5s; tilt \(degrees)deg right over 0.4s; hold 1.6s"
    let text =
      kind == "raw"
      ? try rawIMUCSV(script, times: times)
      : deviceMotionCSV(try scriptRows(script, at: times), lineEnding: "\r\n")
    let motion = try writeFile(text, named: "\(kind).csv", in: folder)
    let scene = try writeFile(
      flatBlueWaterScene(width: 120, height: 240), named: "f.json", in: folder)
    let span = try #require(times.last) - (try #require(times.first))
    let fps = 12.0
    let frames = documentedRowCount(duration: span, fps: fps)
    let gif = folder.appendingPathComponent("m.gif").path
    let r = try runSwell(["render", scene, "--motion", motion, "--fps", "12", "-o", gif])
    #expect(r.status == 0, "seed \(seed): \(r.err)")
    #expect(
      try probeVideo(gif) == VideoProbe(width: 120, height: 240, frames: frames), "seed \(seed)")
    let table = try traceTable([scene, "--motion", motion, "--fps", "12"], "seed \(seed)")
    try checkAnyTrace(table, fps: fps, rows: frames, "seed \(seed) \(kind)")
    let tilt = try table.column("water.transform.rotation.z")
    let last = try #require(tilt.last) * 180 / .pi
    // Swell's own fusion (raw) settles within a few degrees of the truth.
    #expect(abs(last + Double(degrees)) < (kind == "raw" ? 3 : 0.5), "seed \(seed): \(last)°")
    let png = folder.appendingPathComponent("last.png").path
    let p = try runSwell(["render", scene, "--motion", motion, "--fps", "12", "-o", png])
    #expect(p.status == 0, "\(p.err)")
    let fit = try #require(
      waterSurfaceFit(try ImageSurface.load(contentsOfPNGFile: png), columns: 4...115))
    #expect(abs(fit.degrees - last) < 1, "seed \(seed): pixels \(fit.degrees)°, trace \(last)°")
  }

  @Test("a Sensor Logger zip and its folder give the same video frame count")
  func sensorLogger() throws {
    let folder = try scratchFolder("adversarial-motion-zip")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("z.apng").path
    let r = try runSwell([
      "render", "waterwave", "--motion", sensorLoggerZip.path, "--duration", "0.75", "--fps", "8",
      "--size", "39x84@1", "-o", out,
    ])
    #expect(r.status == 0, "\(r.err)")
    #expect(try probeVideo(out) == VideoProbe(width: 39, height: 84, frames: 6))
    #expect(try folderNames(folder) == ["z.apng"])
  }

  @Test(
    "bad motion files: one line naming the file, exit 1, no output",
    arguments: [
      ("empty.csv", ""), ("header.csv", rawIMUHeader + "\n"), ("garbage.zip", "PK\u{3}\u{4}junk"),
      ("words.csv", "time,a\n1,2\n"),
      ("nan.csv", rawIMUHeader + "\n0,0,0,0,0,9.8,0,,,\n0.01,nan,0,0,0,9.8,0,,,\n"),
      ("backwards.csv", rawIMUHeader + "\n1,0,0,0,0,9.8,0,,,\n0.5,0,0,0,0,9.8,0,,,\n"),
      ("short.csv", deviceMotionHeader + "\n0,1,0,0\n"),
    ])
  func badMotion(name: String, text: String) throws {
    let folder = try scratchFolder("adversarial-motion-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let motion = try writeFile(text, named: name, in: folder)
    let out = folder.appendingPathComponent("x.mp4").path
    let r = try runSwell(["render", "waterwave", "--motion", motion, "-o", out])
    expectOneLineFailure(r, command: "render", mentioning: [name], name)
    #expect(r.status == 1, "\(name)")
    #expect(try folderNames(folder) == [name], "\(name)")
  }

  @Test("demo --file -o x.mp4 --duration 1 without a display: a playable full-size MP4")
  func demoFile() throws {
    let folder = try scratchFolder("adversarial-demo")
    defer { try? FileManager.default.removeItem(at: folder) }
    let noDisplay: [String: String?] = [
      "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil,
    ]
    let r = try runSwell(
      ["demo", "--file", "-o", "x.mp4", "--duration", "1"], environment: noDisplay,
      directory: folder)
    #expect(r.status == 0, "\(r.err)")
    #expect(
      try probeVideo(folder.appendingPathComponent("x.mp4").path)
        == VideoProbe(width: 1170, height: 2532, frames: 60))
    #expect(r.out.contains("the video is at "), "\(r.out)")
    #expect(try folderNames(folder) == ["x.mp4"])
    // Without --file and without a display it still writes the file.
    let g = try runSwell(
      ["demo", "-o", "d.gif", "--duration", "0.5", "--fps", "10", "--size", "39x84@1"],
      environment: noDisplay, directory: folder)
    #expect(g.status == 0, "\(g.err)")
    #expect(
      try probeVideo(folder.appendingPathComponent("d.gif").path)
        == VideoProbe(width: 39, height: 84, frames: 5))
  }

  @Test(
    "demo failures: one line, no file",
    arguments: [
      (["--start", "1e5"], "--start"), (["--live", "--file"], "--live"), (["--live"], "display"),
      (["-o", "no/such/x.mp4"], "no/such/x.mp4"), (["-o", "x.bmp"], "x.bmp"),
      (["--size", "0x0"], "--size"), (["--fps", "0"], "--fps"),
      (["--duration", "0"], "--duration"),
    ] as [([String], String)])
  func demoFailures(options: [String], word: String) throws {
    let folder = try scratchFolder("adversarial-demo-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    var base = options.contains("--duration") ? [] : ["--duration", "0.2"]
    base += options.contains("--size") ? [] : ["--size", "39x84@1"]
    let r = try runSwell(
      ["demo"] + base + options,
      environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil],
      directory: folder)
    expectOneLineFailure(r, command: "demo", mentioning: [word], "\(options)")
    #expect(try folderNames(folder).isEmpty, "\(options)")
  }
}
