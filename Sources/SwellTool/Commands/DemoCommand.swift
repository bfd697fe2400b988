import Foundation
import SwellGeometry
import SwellLayers
import SwellLive
import SwellMotion
import SwellPlayback
import SwellRender
import SwellScenes

/// `swell demo`: the WaterWave demo driven by the bundled real phone recording (fused by Swell's
/// own sensor fusion): a live window where a display exists, else `swell-demo.mp4`.
struct DemoCommand: ToolCommand {
  static let spec = CommandSpec(
    "demo",
    summary: "the WaterWave demo driven by a real phone recording (window, terminal or MP4)",
    discussion: """
      Plays the built-in 'waterwave' scene under a real iPhone recording that ships with Swell \
      (Sensor Logger, 27 s of a phone turned by hand, MIT licence), fused into device motion by \
      Swell's own sensor fusion. Where a display exists it opens a live window, the same view as \
      `swell live` (the recording loops; q or Escape quits, space pauses, h shows the HUD, s \
      saves a screenshot, r re-centres); with --terminal it plays in this terminal; otherwise, \
      or with --file, it renders the video and prints where.
      """,
    groups: [
      OptionGroup(
        nil,
        [
          OptionSpec("--live", help: "open the live window (fails without a display)"),
          OptionSpec("--terminal", help: "play in this terminal (true-colour half blocks)"),
          OptionSpec("--file", help: "render the video even where a display exists"),
          SharedOptions.output(
            "the video (default swell-demo.mp4; the extension picks the format)"),
          OptionSpec("--duration", kind: .value("S"), help: "seconds to render (default 10)"),
          OptionSpec("--fps", kind: .value("N"), help: "frames per second (default 60)"),
          OptionSpec(
            "--start", kind: .value("S"),
            help: "seconds into the recording to start at (default 0)"),
          OptionSpec(
            "--preset", kind: .value("NAME"), help: "the libx264 preset for MP4 (default veryfast)"),
        ]),
      SharedOptions.scene,
    ],
    epilogue:
      "The canvas is 390x844@3 for the file and 390x844@1 for the window unless --size sets it.")

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    let forceLive = arguments.flag("--live")
    let terminal = arguments.flag("--terminal")
    let forceFile = arguments.flag("--file")
    let output = arguments.option("--output") ?? "swell-demo.mp4"
    let duration = try arguments.positiveNumber("--duration") ?? 10
    let fps = try arguments.positiveNumber("--fps") ?? 60
    let sizeSpec = arguments.option("--size")
    let start = try arguments.number("--start", in: 0...1e6) ?? 0
    let preset = arguments.option("--preset") ?? "veryfast"
    var options = try SceneLoader.options(arguments)
    try arguments.finish()
    guard [forceLive, forceFile, terminal].filter({ $0 }).count <= 1 else {
      throw UsageError("--live, --terminal and --file exclude each other")
    }
    guard fps <= 1000 else {
      throw UsageError("--fps must be at most 1000, got \(displayNumber(fps))")
    }

    let url = try BundledResources.recording()
    func motion(loops: Bool) throws -> any SceneMotionFeed {
      do {
        return try SceneMotionInput.recording(url, loops: loops, skip: start).feed
      } catch {
        throw ToolError(error.toolMessage)
      }
    }
    _ = try motion(loops: false)  // fails now for a bad recording or --start

    let displayProblem = LiveWindow.displayProblem()
    let live = forceLive || terminal || (!forceFile && displayProblem == nil)
    if live {
      if sizeSpec == nil { options.scale = 1 }
      let scene = try SceneLoader.load("waterwave", options: options)
      do {
        try runLive(
          scene: scene, motion: motion(loops: true), fps: terminal ? min(fps, 30) : fps,
          terminal: terminal, console: console)
        return 0
      } catch let e as LiveWindowError {
        guard !forceLive && !terminal else { throw ToolError(e.toolMessage) }
        console.err(
          "swell demo: no live window (\(e.toolMessage)); rendering \(output) instead\n")
        if sizeSpec == nil { options.scale = nil }
      }
    }
    let scene = try SceneLoader.load("waterwave", options: options)
    var job = SceneExport(
      scene: scene, motion: try motion(loops: false), framesPerSecond: fps, duration: duration,
      output: output)
    job.ffmpeg = FFmpegOptions(x264Preset: preset)
    let report = try SceneExportRun.run(job, console: console, label: "swell demo")
    let absolute = URL(fileURLWithPath: output).standardizedFileURL.path
    console.out("\(report.summary)\nswell demo: the video is at \(absolute)\n")
    return 0
  }

  /// Shows the scene in a window through `swell live`'s path (same renderer, HUD, keys and
  /// statistics), the recording replayed at recorded speed from the start again when it ends.
  static func runLive(
    scene: any Scene, motion: any SceneMotionFeed, fps: Double, terminal: Bool, console: Console
  ) throws {
    var session = LiveSession(scene: scene, motion: motion, title: "swell demo: waterwave")
    session.terminal = terminal
    session.options.framesPerSecondCap = fps
    session.options.screenshotStem = "swell-demo"
    session.onMessage = { console.err("swell demo: \($0)\n") }
    session.onMotionMessage = { console.err("swell demo: \($0)\n") }
    _ = try LiveCommand.run(session, label: "swell demo")
  }
}
