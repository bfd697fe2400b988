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
struct DemoCommand: TypedToolCommand {
  static let about = CommandAbout(
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
    epilogue:
      "The canvas is 390x844@3 for the file and 390x844@1 for the window unless --size sets it.",
    examples: ["demo", "demo --file -o demo.mp4"])

  struct Options: ParsableOptions {
    var live: Bool
    var terminal: Bool
    var file: Bool
    var output: String
    var duration: Double
    var fps: Double
    var start: Double
    var preset: String
    var scene: SceneOptionGroup
    var desktopReduceMotion: DesktopReduceMotionOption

    init(_ p: inout OptionParser) throws(UsageError) {
      live = p.flag("--live", help: "open the live window (fails without a display)")
      terminal = p.flag("--terminal", help: "play in this terminal (true-colour half blocks)")
      file = p.flag("--file", help: "render the video even where a display exists")
      output = p.output(
        default: "swell-demo.mp4", help: "the video (the extension picks the format)")
      duration = try p.option(
        "--duration", value: "S", default: 10, in: .positive, help: "seconds to render")
      fps = try p.option(
        "--fps", default: 60, in: .positive(atMost: 1000), help: "frames per second")
      start = try p.option(
        "--start", value: "S", default: 0, in: 0...1e6,
        help: "seconds into the recording to start at")
      preset = p.option(
        "--preset", value: "NAME", default: "veryfast", help: "the libx264 preset for MP4")
      scene = try p.group(SceneOptionGroup.self)
      p.heading(SceneOptionGroup.title)
      desktopReduceMotion = DesktopReduceMotionOption(&p)
      p.heading(nil)
    }

    func validate() throws(UsageError) {
      guard [live, file, terminal].filter({ $0 }).count <= 1 else {
        throw UsageError("--live, --terminal and --file exclude each other")
      }
      try desktopReduceMotion.validate(scene)
    }
  }

  static func run(_ o: Options, console: Console) throws -> Int32 {
    let (terminal, output, fps, sizeSpec) = (o.terminal, o.output, o.fps, o.scene.size)
    var options = o.scene.scene
    let url = try BundledResources.recording()
    func motion(loops: Bool) throws -> any SceneMotionFeed {
      try SceneMotionInput.recording(url, loops: loops, skip: o.start).feed
    }
    _ = try motion(loops: false)  // fails now for a bad recording or --start

    let displayProblem = LiveWindow.displayProblem()
    let live = o.live || terminal || (!o.file && displayProblem == nil)
    if live {
      if sizeSpec == nil { options.scale = 1 }
      let scene = try SceneLoader.load("waterwave", options: options)
      // The same view as `swell live` (renderer, HUD, keys, statistics); the recording loops.
      var session = LiveSession(
        scene: scene, motion: try motion(loops: true), title: "swell demo: waterwave")
      session.terminal = terminal
      session.options.framesPerSecondCap = terminal ? min(fps, 30) : fps
      session.options.screenshotStem = "swell-demo"
      session.onMessage = { console.err("swell demo: \($0)\n") }
      session.onMotionMessage = session.onMessage
      let desktop = o.desktopReduceMotion.follow(&session, scene: o.scene, note: session.onMessage)
      defer { desktop?.stopObserving() }
      do {
        _ = try session.run()
        return 0
      } catch let e as LiveWindowError {
        guard !o.live && !terminal else { throw e }
        console.err(
          "swell demo: no live window (\(e.toolMessage)); rendering \(output) instead\n")
        if sizeSpec == nil { options.scale = nil }
      }
    }
    let scene = try SceneLoader.load("waterwave", options: options)
    var job = SceneExport(
      scene: scene, motion: try motion(loops: false), framesPerSecond: fps, duration: o.duration,
      output: output)
    job.ffmpeg = FFmpegOptions(x264Preset: o.preset)
    let (report, seconds) = try SceneExportRun.run(job, console: console, label: "swell demo")
    let absolute = URL(fileURLWithPath: output).standardizedFileURL.path
    console.out(report.summary(seconds: seconds) + "\nswell demo: the video is at \(absolute)\n")
    return 0
  }
}
