import Foundation
import SwellGeometry
import SwellLayers
import SwellLive
import SwellMotion
import SwellRender
import SwellScenes
import SwellWaves

/// `swell live SCENE`: shows a scene live in an SDL window paced by vsync (or in the terminal),
/// driven by motion from the keyboard, the mouse, a recording or a sensor.
struct LiveCommand: ToolCommand {
  static let name = "live"
  static let summary = "show a scene live in a window or the terminal, driven by motion"
  static let help = """
    Usage: swell live SCENE|FILE.json [options]

    Shows a scene (built-in: \(BuiltInScenes.names.joined(separator: ", ")); or a scene file,
    docs/scenes.md) live in an SDL window paced by the display's vertical sync, or in the
    terminal with --terminal. Frames are drawn by the same renderer as `swell render`.

    Options:
      --motion SOURCE     keyboard (default): arrows tilt a simulated phone;
                          mouse: the pointer's position over the window tilts it;
                          script:TEXT: scripted motion, e.g. "script:tilt 30deg right over 1s";
                          FILE: a device-motion CSV or raw recording, replayed at recorded speed;
                          iio[:NAME]: Linux IIO sensors (as `swell record`);
                          udp:PORT: a phone streaming JSON or CSV lines (docs/sensors.md);
                          phone:URL: phyphox remote access, e.g. phone:http://192.168.1.20:8080
      --loop              replay the recording (or script) from the start when it ends
      --terminal          draw in this terminal with true-colour half blocks
      --size WxH[@S]      canvas size in points and pixels per point (default: the scene's)
      --fps N             frame-rate cap (default: the display's refresh rate; 30 in a terminal)
      --frames N          quit after N frames
      --stats             print the frame statistics as one JSON line, last on standard output:
                          {"frames", "dropped", "interval_ms_median", "interval_ms_p99",
                          "fps_target"}
      --screenshot-at T   save a PNG of the frame at T seconds after the first frame (the same
                          pixels as `swell render --time T` when the window has the scene's size)
      --screenshot PATH   where --screenshot-at writes (default swell-live-SCENE-T.png)
      --hud               start with the HUD shown (fps, frame time, motion, viewer offset)
      --trace-out FILE    write each frame's presentation values as `swell trace` CSV
                          (time = the frame's target time, scene seconds) when the view ends
    Live sensor options (iio, udp, phone):
      --sysfs-root DIR    IIO sysfs root (default /sys/bus/iio/devices)
      --dev-root DIR      folder of the iio:deviceN character devices (default /dev)
      --mode MODE         IIO: auto (buffered, else polled; default), buffered or polled
      --rate HZ           IIO: set the sampling frequency (and poll at it)
      --listen ADDR       UDP: the IPv4 address to listen on (default 127.0.0.1)
      --reference-frame NAME
                          frame of the fused attitude: xArbitraryZVertical (default, 6D) or a
                          magnetometer frame (9D; the source must have a magnetometer)
      --response classic|sloshing, --seed-exact, --reduce-motion
                          scene options, as for `swell render`

    Keys: arrows tilt (keyboard motion), r re-centres the viewer offset, space pauses,
    s saves a PNG screenshot, h toggles the HUD, q or Escape quits. The window can be resized.
    Without a display, use --terminal (or run under xvfb-run).

    """

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    let motionSpec = try arguments.option("--motion") ?? "keyboard"
    let terminal = arguments.flag("--terminal")
    let stats = arguments.flag("--stats")
    let hud = arguments.flag("--hud")
    let loop = arguments.flag("--loop")
    let sizeSpec = try arguments.option("--size")
    let fps = try arguments.positiveNumber("--fps")
    let frames = try arguments.positiveNumber("--frames")
    let screenshotAt = try arguments.number("--screenshot-at", in: 0...1e9)
    let screenshotPath = try arguments.option("--screenshot")
    let traceOut = try arguments.option("--trace-out")
    let responseName = try arguments.option("--response")
    let seedExact = arguments.flag("--seed-exact")
    let reduceMotion = arguments.flag("--reduce-motion")
    var sources = LiveSourceOptions()
    sources.sysfsRoot = try arguments.option("--sysfs-root")
    sources.devRoot = try arguments.option("--dev-root")
    sources.mode = try arguments.option("--mode")
    sources.rate = try arguments.positiveNumber("--rate")
    sources.listen = try arguments.option("--listen")
    let frameName = try arguments.option("--reference-frame")
    guard let sceneName = arguments.positional() else {
      throw UsageError("missing SCENE (one of: \(BuiltInScenes.names.joined(separator: ", ")))")
    }
    try arguments.finish()
    if let frames, frames != frames.rounded() {
      throw UsageError("--frames must be a whole number, got \(frames)")
    }
    if let frameName {
      guard let f = AttitudeReferenceFrame(name: frameName) else {
        throw UsageError(
          "unknown --reference-frame '\(frameName)'; expected one of "
            + AttitudeReferenceFrame.allCases.map(\.name).joined(separator: ", "))
      }
      sources.referenceFrame = f
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

    var sceneOptions = SceneOptions()
    sceneOptions.seedExact = seedExact
    sceneOptions.reduceMotion = reduceMotion
    if let sizeSpec { try SceneLoader.apply(size: sizeSpec, to: &sceneOptions) }
    if let responseName {
      guard let r = WaterWaveResponse(rawValue: responseName) else {
        throw UsageError("--response must be classic or sloshing, got '\(responseName)'")
      }
      sceneOptions.waterResponse = r
    }
    let scene = try SceneLoader.load(sceneName, options: sceneOptions)
    let feed = try LiveCommand.makeFeed(motionSpec, loop: loop, sources: sources)

    var session = LiveSession(scene: scene, motion: feed, title: "swell live \(scene.name)")
    session.terminal = terminal
    session.traceOut = traceOut
    session.options.framesPerSecondCap = fps ?? (terminal ? 30 : nil)
    session.options.frameLimit = frames.map { Int($0) }
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
      throw ToolError(e.message)
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
        throw ToolError(e.message)
      }
    }
  }

  static func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }
}
