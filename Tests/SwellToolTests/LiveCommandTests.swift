import Foundation
import SwellGeometry
import SwellLayers
import SwellLive
import SwellMotion
import SwellRecordings
import SwellRender
import SwellScenes
import Testing

@testable import SwellTool

/// Paths and a runner for the built `swell` binary.
enum LiveTool {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")
  static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static var binary: URL {
    get throws {
      let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      for candidate in [
        bundle.appendingPathComponent("swell"),
        bundle.deletingLastPathComponent().appendingPathComponent("swell"),
        package.appendingPathComponent(".build/debug/swell"),
      ]
      where FileManager.default.isExecutableFile(atPath: candidate.path) {
        return candidate
      }
      throw ToolError("the swell binary is not built (swift build)")
    }
  }

  /// A runtime folder of this user's, mode 0700, as `XDG_RUNTIME_DIR` requires.
  static func privateRuntimeDirectory() -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("swell-tests-runtime-\(getuid())").path
    mkdir(path, 0o700)
    chmod(path, 0o700)
    return path
  }

  struct Result: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs `swell` on a thread of its own (waiting for a live window takes seconds, which must
  /// not hold a thread of the test pool that other suites' async tests need).
  static func run(
    _ arguments: [String], environment: [String: String?] = [:], directory: URL? = nil,
    whileRunning: (@Sendable (Process) throws -> Void)? = nil
  ) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread {
        continuation.resume(
          with: Swift.Result {
            try runBlocking(
              arguments, environment: environment, directory: directory,
              whileRunning: whileRunning)
          })
      }
      thread.start()
    }
  }

  /// Runs `swell` with arguments; `environment` changes are applied to this process's.
  ///
  /// A program still running after `timeoutSeconds` (default 120) is killed, so a lost key or a
  /// window that never appears fails the test instead of hanging the run.
  static func runBlocking(
    _ arguments: [String], environment: [String: String?] = [:], directory: URL? = nil,
    timeoutSeconds: Double = 120, whileRunning: ((Process) throws -> Void)? = nil
  ) throws -> Result {
    let p = Process()
    p.executableURL = try binary
    p.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    // Without XDG_RUNTIME_DIR, SDL's libraries may print a warning to standard error at random,
    // which the tests that read every stderr line would take for swell's.
    if env["XDG_RUNTIME_DIR"] == nil { env["XDG_RUNTIME_DIR"] = privateRuntimeDirectory() }
    // Never the user's saved state (the gyroscope calibration), never another run's.
    env["XDG_STATE_HOME"] =
      FileManager.default.temporaryDirectory.appendingPathComponent(
        "swell-tool-state-\(UInt64.random(in: 0...UInt64.max))"
      ).path
    // Never the user's desktop settings (its Reduce Motion): a bus that is not there, unless
    // the test gives one.
    env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/swell-tests-no-bus"
    for (k, v) in environment { env[k] = v }
    p.environment = env
    if let directory { p.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    // A watchdog: a live window that never gets its quit key must not hang the test run.
    let pid = p.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds, execute: watchdog)
    defer { watchdog.cancel() }
    do {
      try whileRunning?(p)
    } catch {
      // End the program before giving up on it, so its pipes close and nothing is left behind:
      // SIGTERM, then SIGKILL if it has not gone within 5 s.
      p.terminate()
      let pid = p.processIdentifier
      DispatchQueue.global().asyncAfter(deadline: .now() + 5) { kill(pid, SIGKILL) }
      _ = out.fileHandleForReading.readDataToEndOfFile()
      _ = err.fileHandleForReading.readDataToEndOfFile()
      p.waitUntilExit()
      throw error
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return Result(
      status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
      stderr: String(decoding: e, as: UTF8.self))
  }

  /// The `--stats` line: the last line of standard output, as JSON.
  static func stats(_ stdout: String) throws -> [String: Double] {
    let last = try #require(stdout.split(separator: "\n").last)
    let object = try JSONSerialization.jsonObject(with: Data(last.utf8))
    let dict = try #require(object as? [String: Any])
    var out: [String: Double] = [:]
    for (k, v) in dict { out[k] = (v as? NSNumber)?.doubleValue }
    return out
  }
}

/// A scene that records what the live content feeds it and whose background shows the roll.
private final class ProbeScene: Scene {
  var name: String { "probe" }
  var size: Size { Size(width: 32, height: 16) }
  var scale: Double { 1 }
  var background = Color(red: 0, green: 0, blue: 0)
  let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 32, height: 16))
  var traceKeys: [String] { [] }
  var motions: [DeviceMotion] = []
  var frames: [DisplayLinkFrame] = []

  func receive(_ motion: DeviceMotion) { motions.append(motion) }
  func advance(to frame: DisplayLinkFrame) { frames.append(frame) }
  func traceValue(_ key: String, at time: Double) -> Double? { nil }
}

@Suite("swell live: motion feeds and scene content")
private struct LiveContentTests {
  @Test("keyboard arrows tilt the fed motion; samples never run ahead of the frame")
  func keyboardFeed() throws {
    let scene = ProbeScene()
    let feed = TiltMotionFeed(kind: .keyboard)
    let content = LiveSceneContent(scene: scene, motion: feed)
    let canvas = try LiveCanvas(width: 32, height: 16)
    var link = DisplayLink(preferredFramesPerSecond: 60)
    for i in 0..<60 {
      let step = link.step()
      let frame = try #require(step)
      if i == 10 {
        for _ in 0..<3 { content.handle(.key(.right), at: frame.timestamp) }
      }
      try content.render(frame, into: canvas)
    }
    #expect(scene.frames.count == 60)
    #expect(scene.motions.count == 60)
    for (m, f) in zip(scene.motions, scene.frames) { #expect(m.timestamp <= f.targetTimestamp) }
    let last = try #require(scene.motions.last)
    // Three 5° steps, settled within 0.8 s to within 1 %.
    #expect(abs(last.attitude.roll - 15 * .pi / 180) < 0.01 * 15 * .pi / 180)
    #expect(scene.motions[5].attitude.roll == 0)
    #expect(canvas.pixel(x: 3, y: 3) == 0xFF00_0000)
  }

  @Test("mouse: the pointer at the right edge rolls to the maximum angle")
  func mouseFeed() throws {
    let scene = ProbeScene()
    let content = LiveSceneContent(scene: scene, motion: TiltMotionFeed(kind: .mouse))
    let canvas = try LiveCanvas(width: 32, height: 16)
    content.handle(.pointer(x: 1, y: 0.5), at: 0)
    content.handle(.key(.left), at: 0)
    try content.render(DisplayLinkFrame(index: 0, timestamp: 1.9, targetTimestamp: 2), into: canvas)
    let m = try #require(scene.motions.last)
    #expect(abs(m.attitude.roll - .pi / 4) < 1e-6)
  }

  @Test("a recording is replayed on its own time line, every sample once and in time")
  func recordingFeed() throws {
    let made = try LiveCommand.makeFeed(
      LiveTool.fixtures.appendingPathComponent("live-roll.csv").path)
    let feed = try #require(made as? ReplayMotionFeed)
    #expect(feed.startTime == 10)
    let all = try DeviceMotionCSV.read(
      from: LiveTool.fixtures.appendingPathComponent("live-roll.csv"))
    #expect(all.motions.count == 400)
    var delivered: [DeviceMotion] = []
    for i in 0...250 {
      let t = 10 + Double(i) / 60
      let batch = try feed.motions(upTo: t)
      for m in batch { #expect(m.timestamp <= t + 1e-9) }
      delivered += batch
    }
    #expect(delivered.count == 400)
    #expect(delivered == all.motions)
  }

  static let header =
    "time,attitude.w,attitude.x,attitude.y,attitude.z,gravity.x,gravity.y,gravity.z,"
    + "userAcceleration.x,userAcceleration.y,userAcceleration.z,"
    + "rotationRate.x,rotationRate.y,rotationRate.z\n"
  static let badRecordings: [(String, String)] = [
    (header + "1,1,0,0,0,0,0,-1,0,0,0,0,0,x\n", ":2: column 'rotationRate.z'"),
    (header + "1,1,0,0,0,0,0,-1,0,0,0,0,0,0\n1,1,0,0,0,0,0,-1,0,0,0,0,0,0\n", ":3:"),
  ]

  @Test("bad recordings: one line naming the file and line", arguments: badRecordings)
  func badRecording(text: String, expected: String) throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swell-live-bad-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).csv")
    try Data(text.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    #expect {
      // A streamed recording fails where its bad row is read.
      let feed = try LiveCommand.makeFeed(url.path)
      _ = try feed.motions(upTo: 1e9)
    } throws: { error in
      let message = "\(error)"
      return message.contains(url.lastPathComponent) && message.contains(expected)
        && !message.contains("\n")
    }
  }

  @Test("script motion: samples from the script generator, starting at 0")
  func scriptFeed() throws {
    let feed = try #require(
      try LiveCommand.makeFeed("script:hold 0.5s; tilt 30deg right over 0.5s") as? ReplayMotionFeed)
    #expect(feed.startTime == 0)
    let motions = try feed.motions(upTo: 100)
    #expect(motions.count == 101)
    let last = try #require(motions.last)
    #expect(abs(last.timestamp - 1) < 0.02)
  }
}
