import Foundation
import SwellRender
import SwellTestSupport
import Testing

@testable import SwellTool

private func temporaryFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "swell-live-tool-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

@Suite("swell live: the binary in a window (needs DISPLAY, as CI's xvfb-run gives)")
private struct LiveWindowToolTests {
  let scene = LiveTool.fixtures.appendingPathComponent("live-plain.json").path
  let recording = LiveTool.fixtures.appendingPathComponent("live-roll.csv").path

  @Test("waterwave --frames 600 --stats: 600 frames at about 60 Hz, the stats line last")
  func stats() async throws {
    let r = try await LiveTool.run([
      "live", "waterwave", "--motion", recording, "--size", "390x844@1", "--frames", "600",
      "--stats",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let s = try LiveTool.stats(r.stdout)
    #expect(s["frames"] == 600)
    #expect(s["fps_target"] == 60)
    // Dropped frames are reported, not asserted to be zero: the machine is shared.
    let dropped = try #require(s["dropped"])
    #expect(dropped >= 0 && dropped < 600)
    let median = try #require(s["interval_ms_median"])
    #expect((14...20).contains(median), "\(r.stdout)")
    #expect(try #require(s["interval_ms_p99"]) >= median)
  }

  @Test("a live screenshot at T has the pixels of `swell render --time T`")
  func screenshotMatchesOfflineRender() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let live = folder.appendingPathComponent("live.png").path
    let offline = folder.appendingPathComponent("offline.png").path
    let r = try await LiveTool.run([
      "live", "waterwave", "--motion", recording, "--size", "195x422@1", "--screenshot-at", "1.5",
      "--screenshot", live, "--frames", "110",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("screenshot: \(live)"))
    let o = try await LiveTool.run([
      "render", "waterwave", "--motion", recording, "--size", "195x422@1", "--time", "1.5", "-o",
      offline,
    ])
    #expect(o.status == 0, "\(o.stderr)")
    let a = try ImageSurface.load(contentsOfPNGFile: live)
    let b = try ImageSurface.load(contentsOfPNGFile: offline)
    #expect(a.pixelWidth == 195 && a.pixelHeight == 422)
    #expect(b.pixelWidth == 195 && b.pixelHeight == 422)
    var differing = 0
    for y in 0..<422 {
      for x in 0..<195 where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { differing += 1 }
    }
    #expect(differing == 0)
    // The frame is not blank: water and sky differ.
    #expect(a.pixel(x: 97, y: 5) != a.pixel(x: 97, y: 415))
  }

  @Test("no display: a one-line error suggesting --terminal, exit status 1")
  func noDisplay() async throws {
    let r = try await LiveTool.run(
      ["live", scene, "--frames", "3"],
      environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil])
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("swell live: no display"))
    #expect(r.stderr.contains("--terminal"))
    #expect(r.stderr.split(separator: "\n").count == 1)
    #expect(r.stdout.isEmpty)
  }

  @Test(
    "usage errors exit 64",
    arguments: [
      ["live"], ["live", "nosuchscene"], ["live", "x.json", "--frames", "1.5"],
      ["live", "x.json", "--size", "3"], ["live", "x.json", "--fps", "0"],
    ])
  func usage(arguments: [String]) async throws {
    let r = try await LiveTool.run(arguments)
    #expect(r.status == 64, "\(r.stderr)")
    #expect(r.stderr.hasPrefix("swell live: "))
  }

  @Test("keys through xdotool: space pauses and resumes, s saves a screenshot, q quits")
  func keys() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let x = try PrivateXServer()
    let display = x.display
    // The first frame is saved as first.png: the keys go in only once it has been presented
    // (keys that arrive before any frame would pause, resume and quit with no frame drawn).
    let first = folder.appendingPathComponent("first.png").path
    let r = try await LiveTool.run(
      ["live", scene, "--stats", "--screenshot-at", "0", "--screenshot", "first.png"],
      environment: ["DISPLAY": display], directory: folder
    ) { process in
      let window = try focusedWindow(of: process.processIdentifier, display: display)
      guard waitFor(seconds: 60, { FileManager.default.fileExists(atPath: first) }) else {
        throw ToolError("the first frame was never presented")
      }
      // Pause and ask for a screenshot; once the paused loop has written it, resume and quit.
      // (Keys that arrive together are handled in order in one turn of the loop.)
      try spawnProgram("xdotool", ["key", "--window", window, "space", "s"], display: display)
      let shot = folder.appendingPathComponent("swell-live-plain-2.png").path
      guard waitFor(seconds: 60, { FileManager.default.fileExists(atPath: shot) }) else {
        throw ToolError("no screenshot while paused")
      }
      try spawnProgram("xdotool", ["key", "--window", window, "space", "q"], display: display)
    }
    withExtendedLifetime(x) {}
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "screenshot: first.png", "\(lines)")
    #expect(lines.dropFirst().first?.hasPrefix("paused at ") == true, "\(lines)")
    #expect(lines.contains("screenshot: ./swell-live-plain-2.png"), "\(lines)")
    #expect(lines.contains("resumed"))
    #expect(try LiveTool.stats(r.stdout)["frames"].map { $0 >= 1 } == true)
    let png = try Data(contentsOf: folder.appendingPathComponent("swell-live-plain-2.png"))
    // IHDR: width and height, big-endian, at bytes 16..<24.
    #expect(png.count > 24)
    #expect(Array(png[16..<24]) == [0, 0, 0, 64, 0, 0, 0, 48])
  }
}

extension LiveWindowToolTests {
  @Test("the r key through xdotool re-centres the homescreen's viewer offset to 0 at once")
  func recenterKey() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let trace = folder.appendingPathComponent("trace.csv").path
    let x = try PrivateXServer()
    let display = x.display
    let held = folder.appendingPathComponent("held.png").path
    let r = try await LiveTool.run(
      [
        "live", "homescreen", "--size", "195x422@1", "--trace-out", trace, "--motion",
        "script:hold 0.2s; turn 20deg right over 0.3s; hold 60s", "--screenshot-at", "0.8",
        "--screenshot", held,
      ], environment: ["DISPLAY": display], directory: folder
    ) { process in
      let window = try focusedWindow(of: process.processIdentifier, display: display)
      // The turn is done and held once the loop has shown scene time 0.8 s (its timed
      // screenshot exists); then re-centre, and quit once a frame after that is on screen (the
      // screenshot the s key asks for).
      guard waitFor(seconds: 60, { FileManager.default.fileExists(atPath: held) }) else {
        throw ToolError("the loop never reached 0.8 s")
      }
      try spawnProgram("xdotool", ["key", "--window", window, "r", "s"], display: display)
      // The s key's screenshot (named after the timed one: swell-live-homescreen-2.png).
      let saved = {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains {
          $0.hasPrefix("swell-live-") && $0.hasSuffix(".png")
        }
      }
      guard waitFor(seconds: 60, saved) else {
        throw ToolError("no frame after the r key")
      }
      try spawnProgram("xdotool", ["key", "--window", window, "q"], display: display)
    }
    withExtendedLifetime(x) {}
    #expect(r.status == 0, "\(r.stderr)")
    let text = try String(contentsOfFile: trace, encoding: .utf8)
    let lines = text.split(separator: "\n")
    let header = try #require(lines.first).split(separator: ",").map(String.init)
    let column = try #require(header.firstIndex(of: "offset.horizontal"))
    let offsets = lines.dropFirst().compactMap { Double($0.split(separator: ",")[column]) }
    // The turn gives about −20°/90°; the system's own re-centring takes it down slowly
    // (dead-band steps of 0.015), the r key in one frame.
    let jump = try #require(
      offsets.indices.dropLast().first { abs(offsets[$0]) > 0.1 && abs(offsets[$0 + 1]) < 1e-9 },
      "no jump to 0: \(offsets.map { ($0 * 1000).rounded() / 1000 })")
    #expect(offsets[(jump + 1)...].allSatisfy { abs($0) < 0.015 })
  }
}

extension LiveWindowToolTests {
  /// The resting wave's frames are drawn and sent to X as the band its crest moved through
  /// (`SDL_UpdateWindowSurfaceRects`; with OpenGL, the band of the texture is uploaded): after a
  /// second of them, paused, the window's pixels as X has them (read back with ffmpeg's
  /// x11grab) are the frame the loop drew, every pixel.
  @Test(
    "partial presents: what X shows after a second of crest bands is the whole frame drawn",
    arguments: ["software", "opengl"])
  func partialPresents(renderer: String) async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let x = try PrivateXServer()
    let display = x.display
    let first = folder.appendingPathComponent("first.png").path
    let grabbed = folder.appendingPathComponent("grabbed.bgra").path
    let r = try await LiveTool.run(
      [
        "live", "waterwave", "--size", "195x422@1", "--motion", "script:hold 120s",
        "--renderer", renderer, "--screenshot-at", "0", "--screenshot", first,
      ], environment: ["DISPLAY": display], directory: folder
    ) { process in
      let window = try focusedWindow(of: process.processIdentifier, display: display)
      guard waitFor(seconds: 60, { FileManager.default.fileExists(atPath: first) }) else {
        throw ToolError("the first frame was never presented")
      }
      usleep(1_000_000)
      try spawnProgram("xdotool", ["key", "--window", window, "space", "s"], display: display)
      let shot = folder.appendingPathComponent("swell-live-waterwave-2.png").path
      guard waitFor(seconds: 60, { FileManager.default.fileExists(atPath: shot) }) else {
        throw ToolError("no screenshot while paused")
      }
      let geometry = try spawnProgram(
        "xdotool", ["getwindowgeometry", "--shell", window], display: display)
      var values: [String: Int] = [:]
      for line in geometry.split(separator: "\n") {
        let parts = line.split(separator: "=")
        if parts.count == 2, let v = Int(parts[1]) { values[String(parts[0])] = v }
      }
      let (wx, wy) = (values["X"] ?? 0, values["Y"] ?? 0)
      try spawnProgram(
        "ffmpeg",
        [
          "-hide_banner", "-loglevel", "error", "-f", "x11grab", "-draw_mouse", "0",
          "-video_size", "195x422", "-i",
          "\(display)+\(wx),\(wy)", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "bgra",
          "-y", grabbed,
        ], display: display)
      try spawnProgram("xdotool", ["key", "--window", window, "q"], display: display)
    }
    withExtendedLifetime(x) {}
    #expect(r.status == 0, "\(r.stderr)")
    let drawn = try ImageSurface.load(
      contentsOfPNGFile: folder.appendingPathComponent("swell-live-waterwave-2.png").path)
    let onScreen = try Data(contentsOf: URL(fileURLWithPath: grabbed))
    try #require(onScreen.count == 195 * 422 * 4)
    #expect(drawn.pixelWidth == 195 && drawn.pixelHeight == 422)
    var differing = 0
    for y in 0..<422 {
      for x in 0..<195 {
        let i = 4 * (y * 195 + x)
        guard let p = drawn.pixel(x: x, y: y) else { continue }
        if (onScreen[i + 2], onScreen[i + 1], onScreen[i]) != (p.red, p.green, p.blue) {
          differing += 1
        }
      }
    }
    #expect(differing == 0, "\(differing) pixels on screen differ from the frame drawn")
    // Not a blank or stale window: water and sky differ, and the crest moved since frame 0.
    let firstFrame = try ImageSurface.load(contentsOfPNGFile: first)
    #expect(drawn.pixel(x: 97, y: 5) != drawn.pixel(x: 97, y: 415))
    var moved = 0
    for y in 0..<422 {
      for x in 0..<195 where firstFrame.pixel(x: x, y: y) != drawn.pixel(x: x, y: y) { moved += 1 }
    }
    #expect(moved > 0)
  }
}

/// Waits for a mapped window of the process `pid` on a private X server and gives it the input
/// focus, so that xdotool's keys reach it. Every try searches again and asks again: a window found
/// before it is mapped refuses the focus, and asking once for a window found too early failed a
/// clean CI run (the error now says what was visible and what had the focus).
private func focusedWindow(of pid: Int32, display: String) throws -> String {
  var window = ""
  var seen = ""
  let focused = try waitFor(seconds: 60) {
    let visible = try spawnProgram(
      "xdotool", ["search", "--onlyvisible", "--pid", "\(pid)"], display: display
    )
    .split(separator: "\n").map(String.init)
    guard let candidate = visible.first else { return false }
    window = candidate
    _ = try? spawnProgram("xdotool", ["windowfocus", candidate], display: display)
    let now = try spawnProgram("xdotool", ["getwindowfocus"], display: display)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    seen = "visible \(visible), focus \(now)"
    return now == candidate
  }
  guard focused else {
    throw ToolError(
      window.isEmpty ? "no window appeared" : "the window never got the focus (\(seen))")
  }
  return window
}

@Suite("swell live --terminal through tmux")
private struct LiveTerminalToolTests {
  let scene = LiveTool.fixtures.appendingPathComponent("live-plain.json").path

  /// Starts `swell live --terminal` in a detached tmux session; after it exits the pane records
  /// `stty -a` and a marker file.
  private func start(socket: String, folder: URL) throws {
    let binary = try LiveTool.binary.path
    let script =
      "trap 'true' INT; '\(binary)' live '\(scene)' --terminal --stats; echo \"exit=$?\"; "
      + "stty -a > '\(folder.path)/stty.txt'; touch '\(folder.path)/done'; i=0; "
      + "while [ ! -e '\(folder.path)/release' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done"
    try spawnProgram(
      "tmux", ["-L", socket, "new-session", "-d", "-x", "40", "-y", "12", "sh", "-c", script])
  }

  private func capture(_ socket: String, escapes: Bool) throws -> String {
    try spawnProgram("tmux", ["-L", socket, "capture-pane", "-p"] + (escapes ? ["-e"] : []))
  }

  @Test(
    "frames as 38;2 / 48;2 half blocks; q quits; main screen and sane modes restored",
    arguments: ["q", "C-c"])
  func terminal(quitKey: String) throws {
    let folder = try temporaryFolder()
    let socket = "swell-live-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer {
      // The pane's shell ends when `release` appears, and the tmux server with it.
      _ = FileManager.default.createFile(
        atPath: folder.appendingPathComponent("release").path, contents: nil)
      usleep(200_000)
      try? FileManager.default.removeItem(at: folder)
    }
    try start(socket: socket, folder: folder)
    var screen = ""
    let drawn = try waitFor(seconds: 20) {
      screen = try capture(socket, escapes: true)
      return screen.contains("▀") && screen.contains("38;2;32;64;128")
    }
    #expect(drawn, "\(screen)")
    #expect(screen.contains("48;2;32;64;128"))
    // Several arrows in one read are fine; then quit.
    try spawnProgram("tmux", ["-L", socket, "send-keys", "Right", "Right", "Left", quitKey])
    let done = waitFor(seconds: 20) {
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("done").path)
    }
    #expect(done)
    let after = try capture(socket, escapes: false)
    #expect(!after.contains("▀"), "alternate screen left: \(after)")
    #expect(after.contains("exit=0"), "\(after)")
    #expect(after.contains("\"frames\": "))
    let stty = try String(contentsOf: folder.appendingPathComponent("stty.txt"), encoding: .utf8)
    let words = Set(stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }))
    for mode in ["icanon", "echo", "isig", "icrnl", "ixon"] {
      #expect(words.contains(Substring(mode)), "\(mode) not restored: \(stty)")
    }
  }
}
