import Foundation
import SwellGeometry
import SwellLayers
import SwellLive
import SwellMotion
import SwellRender
import SwellScenes
import SwellWaves

/// `swell live SCENE`: shows a scene live in an SDL window paced at the display's refresh rate
/// (or in the terminal), driven by motion from the keyboard, the mouse, a recording or a sensor.
struct LiveCommand: ToolCommand {
  static let spec = CommandSpec(
    "live", summary: "show a scene live in a window or the terminal, driven by motion",
    arguments: [ArgumentSpec("SCENE|FILE.json")],
    discussion: """
      Shows a scene (built-in: \(SharedOptions.sceneNames); or a scene file, docs/scenes.md) \
      live in an SDL window paced at the display's refresh rate, or in the terminal with \
      --terminal. Frames are drawn by the same renderer as `swell render`.
      """,
    groups: [
      OptionGroup(
        nil,
        [
          OptionSpec(
            "--motion", kind: .value("SOURCE"),
            help: """
              keyboard (default): arrows tilt a simulated phone; mouse: the pointer's position \
              over the window tilts it; script:TEXT: scripted motion, e.g. "script:tilt 30deg \
              right over 1s"; FILE: a device-motion CSV or raw recording, replayed at recorded \
              speed; iio[:NAME]: Linux IIO sensors (as `swell record`); udp:PORT: a phone \
              streaming JSON or CSV lines (docs/sensors.md); phone:URL: phyphox remote access, \
              e.g. phone:http://192.168.1.20:8080
              """),
          OptionSpec(
            "--loop", help: "replay the recording (or script) from the start when it ends"),
          OptionSpec("--terminal", help: "draw in this terminal with true-colour half blocks"),
          OptionSpec(
            "--renderer", kind: .value("KIND"),
            help: """
              how frames reach the window: auto (default): OpenGL on a GPU, the window's own \
              surface when OpenGL is a software rasterizer (Xvfb, a VM); opengl; software
              """),
          OptionSpec(
            "--fps", kind: .value("N"),
            help: "frame-rate cap (default: the display's refresh rate; 30 in a terminal)"),
          OptionSpec("--frames", kind: .value("N"), help: "quit after N frames"),
          OptionSpec(
            "--stats",
            help:
              "print the frame statistics as one JSON line, last on standard output "
              + "(docs/formats.md)"),
          OptionSpec(
            "--screenshot-at", kind: .value("T"),
            help:
              "save a PNG of the frame at T seconds after the first frame (the pixels of "
              + "`swell render --time T` when the window has the scene's size)"),
          OptionSpec(
            "--screenshot", kind: .value("PATH"),
            help: "where --screenshot-at writes (default swell-live-SCENE-T.png)"),
          OptionSpec(
            "--hud", help: "start with the HUD shown (fps, frame time, motion, viewer offset)"),
          OptionSpec(
            "--trace-out", kind: .value("FILE"),
            help:
              "write each frame's presentation values as `swell trace` CSV (time = the frame's "
              + "target time, scene seconds) when the view ends"),
        ]),
      SharedOptions.liveSensors,
      SharedOptions.scene,
    ],
    epilogue: """
      Keys: arrows tilt (keyboard motion), r re-centres the viewer offset, space pauses, s saves \
      a PNG screenshot, h toggles the HUD, q or Escape quits. The window can be resized. Without \
      a display, use --terminal (or run under xvfb-run).
      """)

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    let motionSpec = arguments.option("--motion") ?? "keyboard"
    let terminal = arguments.flag("--terminal")
    let stats = arguments.flag("--stats")
    let hud = arguments.flag("--hud")
    let loop = arguments.flag("--loop")
    let fps = try arguments.positiveNumber("--fps")
    let rendererName = arguments.option("--renderer")
    let frames = try arguments.wholeNumber("--frames", in: 1...Int(Int32.max))
    let screenshotAt = try arguments.number("--screenshot-at", in: 0...1e9)
    let screenshotPath = arguments.option("--screenshot")
    let traceOut = arguments.option("--trace-out")
    let sceneOptions = try SceneLoader.options(arguments)
    var sources = LiveSourceOptions()
    sources.sysfsRoot = arguments.option("--sysfs-root")
    sources.devRoot = arguments.option("--dev-root")
    sources.mode = arguments.option("--mode")
    sources.rate = try arguments.positiveNumber("--rate")
    sources.listen = arguments.option("--listen")
    let frameName = arguments.option("--reference-frame")
    guard let sceneName = arguments.positional() else {
      throw UsageError("missing SCENE (one of: \(SharedOptions.sceneNames))")
    }
    try arguments.finish()
    if let frameName {
      guard let f = AttitudeReferenceFrame(name: frameName) else {
        throw UsageError(
          "unknown --reference-frame '\(frameName)'; expected one of "
            + AttitudeReferenceFrame.allCases.map(\.name).joined(separator: ", "))
      }
      sources.referenceFrame = f
    }
    var presenter = LiveWindow.Presenter.automatic
    if let rendererName {
      guard let p = LiveWindow.Presenter(rawValue: rendererName) else {
        throw UsageError(
          "unknown --renderer '\(rendererName)'; expected one of "
            + LiveWindow.Presenter.allCases.map(\.rawValue).joined(separator: ", "))
      }
      guard !terminal else { throw UsageError("--renderer applies to a window, not --terminal") }
      presenter = p
    }
    let sensor = LiveSourceOptions.isSensor(motionSpec)
    let sensorOptions =
      sources.sysfsRoot != nil || sources.devRoot != nil || sources.mode != nil
      || sources.rate != nil || sources.listen != nil || frameName != nil
    if sensorOptions && !sensor {
      throw UsageError(
        "--sysfs-root, --dev-root, --mode, --rate, --listen and --reference-frame apply to "
          + "--motion iio, udp:PORT or phone:URL")
    }
    let isRecording =
      !sensor && motionSpec != "keyboard" && motionSpec != "mouse"
      && !motionSpec.hasPrefix("script:")
    if loop && !isRecording && !motionSpec.hasPrefix("script:") {
      throw UsageError("--loop applies to a recording or script:TEXT motion")
    }

    let scene = try SceneLoader.load(sceneName, options: sceneOptions)
    let feed = try LiveCommand.makeFeed(motionSpec, loop: loop, sources: sources)

    var session = LiveSession(scene: scene, motion: feed, title: "swell live \(scene.name)")
    session.terminal = terminal
    session.presenter = presenter
    session.traceOut = traceOut
    session.options.framesPerSecondCap = fps ?? (terminal ? 30 : nil)
    session.options.frameLimit = frames
    session.options.screenshotAt = screenshotAt
    if let screenshotAt {
      session.options.screenshotPath =
        screenshotPath ?? "swell-live-\(scene.name)-\(LiveCommand.format(screenshotAt)).png"
    }
    session.options.screenshotStem = "swell-live-\(scene.name)"
    session.options.showHUD = hud
    session.onMessage = { console.out($0 + "\n") }
    session.onMotionMessage = { console.err("swell live: \($0)\n") }
    let statistics = try LiveCommand.run(session, label: "swell live")
    if stats { console.out(statistics.jsonLine + "\n") }
    return 0
  }

  /// Runs a live session, turning its failures into one-line tool errors.
  static func run(_ session: LiveSession, label: String) throws -> FrameStatistics {
    do {
      return try session.run()
    } catch let e as SceneMotionError {
      throw ToolError(e.toolMessage)
    } catch let e as RecordingError {
      throw ToolError(e.description)
    }
  }

  /// Builds the motion feed named by `--motion`.
  ///
  /// - Parameters:
  ///   - spec: `keyboard`, `mouse`, `script:TEXT`, `iio[:NAME]`, `udp:PORT`, `phone:URL` or a
  ///     recording file.
  ///   - loop: Replay a recording or script from the start when it ends.
  ///   - sources: Options of live sensor sources.
  /// - Returns: The feed (a live source's pull has started).
  /// - Throws: ``UsageError`` or ``ToolError`` for a bad spec, file or source.
  static func makeFeed(_ spec: String, loop: Bool = false, sources: LiveSourceOptions = .init())
    throws -> any SceneMotionFeed
  {
    switch spec {
    case "keyboard": return TiltMotionFeed(kind: .keyboard)
    case "mouse": return TiltMotionFeed(kind: .mouse)
    default:
      do {
        if spec.hasPrefix("script:") {
          return try SceneMotionInput.script(
            String(spec.dropFirst("script:".count)), rate: 100, loops: loop
          ).feed
        }
        if LiveSourceOptions.isSensor(spec) {
          let source = try sources.open(spec)
          return LiveSourceFeed(
            manager: MotionManager(source: source), referenceFrame: sources.referenceFrame)
        }
        let input = try SceneMotionInput.recording(URL(fileURLWithPath: spec), loops: loop)
        return input.feed
      } catch let e as SceneMotionError {
        throw ToolError(e.toolMessage)
      }
    }
  }

  static func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }
}
