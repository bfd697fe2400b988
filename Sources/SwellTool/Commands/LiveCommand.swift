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

    var session = LiveSession(scene: scene, feed: feed, label: "swell live")
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
    let statistics = try session.run(console: console)
    if stats { console.out(statistics.jsonLine + "\n") }
    return 0
  }

  /// The window size for a scene: its canvas × scale, pixels.
  static func pixelSize(of scene: any Scene) -> (width: Int, height: Int) {
    let w = max(1, Int((scene.size.width * scene.scale).rounded()))
    let h = max(1, Int((scene.size.height * scene.scale).rounded()))
    return (w, h)
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
    throws -> any LiveMotionFeed
  {
    switch spec {
    case "keyboard": return TiltFeed(kind: .keyboard)
    case "mouse": return TiltFeed(kind: .mouse)
    default:
      if spec.hasPrefix("script:") {
        let input = try MotionInput.load(
          motionPath: nil, script: String(spec.dropFirst("script:".count)), rate: 100)
        return RecordingFeed(name: "script", motions: input.samples, loops: loop)
      }
      if LiveSourceOptions.isSensor(spec) {
        let (source, stop) = try sources.open(spec)
        return SourceFeed(
          pump: SourcePump(source: source, referenceFrame: sources.referenceFrame, stop: stop))
      }
      let input = try MotionInput.load(motionPath: spec, script: nil, rate: 100)
      return RecordingFeed(
        name: "recording " + URL(fileURLWithPath: spec).lastPathComponent, motions: input.samples,
        loops: loop)
    }
  }

  static func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }
}

/// One live run of a scene: the window (or terminal), the loop, the HUD, keys, statistics and
/// the optional trace; shared by `swell live` and `swell demo`.
struct LiveSession {
  /// The scene shown.
  var scene: any Scene
  /// Its motion.
  var feed: any LiveMotionFeed
  /// The prefix of stderr lines (`swell live`, `swell demo`).
  var label: String
  /// Draw in the terminal instead of a window.
  var terminal = false
  /// The window title (default `LABEL SCENE`).
  var title: String?
  /// Where to write the per-frame presentation values (CSV, `swell trace`'s columns).
  var traceOut: String?
  /// Loop options; ``LiveLoopOptions/startTime`` is set from the feed.
  var options = LiveLoopOptions()
  /// Messages of the loop (screenshots, pause) go to standard error instead of standard output.
  var messagesToStandardError = false

  /// Opens the display, runs the loop until quit or the frame limit, closes the feed.
  ///
  /// - Parameter console: Where messages go.
  /// - Returns: The frame statistics.
  /// - Throws: Display, rendering, source and trace-writing failures.
  func run(console: Console) throws -> FrameStatistics {
    defer { feed.close() }
    let display: any LiveDisplay
    if terminal {
      display = try TerminalView()
    } else {
      let pixels = LiveCommand.pixelSize(of: scene)
      display = try LiveWindow(
        title: title ?? "\(label) \(scene.name)", width: pixels.width, height: pixels.height)
    }
    var options = self.options
    options.startTime = feed.startTime
    let content = LiveSceneContent(scene: scene, feed: feed)
    content.tracing = traceOut != nil
    let loop = LiveLoop(display: display, content: content, options: options)
    var messages: [String] = []
    var errors: [String] = []
    let label = self.label
    let toStandardError = messagesToStandardError
    loop.onMessage = { line in
      if terminal {
        messages.append(line)
      } else if toStandardError {
        console.err("\(label): \(line)\n")
      } else {
        console.out(line + "\n")
      }
    }
    feed.onMessage = { line in
      if terminal { errors.append(line) } else { console.err("\(label): \(line)\n") }
    }
    defer { (display as? TerminalView)?.close() }
    try loop.run()
    (display as? TerminalView)?.close()
    for m in messages {
      if toStandardError { console.err("\(label): \(m)\n") } else { console.out(m + "\n") }
    }
    for e in errors { console.err("\(label): \(e)\n") }
    if let traceOut {
      do {
        try AtomicWrite.write(Data(content.traceText().utf8), to: URL(fileURLWithPath: traceOut))
      } catch {
        throw ToolError(error.description)
      }
    }
    return loop.statistics
  }
}

/// Motion for a live scene: samples up to a scene time, and reactions to keys and the pointer.
protocol LiveMotionFeed: AnyObject {
  /// A short name for the HUD.
  var name: String { get }
  /// The scene time of the first frame, seconds.
  var startTime: Double { get }
  /// Receives one-line messages for standard error (a live source's transient errors).
  var onMessage: (String) -> Void { get set }
  /// The samples with timestamps up to `time` not delivered yet, in order.
  ///
  /// - Throws: ``ToolError`` when a live source failed for good.
  func samples(upTo time: Double) throws -> [DeviceMotion]
  /// Reacts to a key or pointer event at a scene time.
  func handle(_ event: LiveEvent, at time: Double)
  /// A HUD line about the motion.
  func hudLine(at time: Double) -> String
  /// Stops a live source (the view has closed).
  func close()
}

extension LiveMotionFeed {
  func close() {}
}

/// Keyboard (arrows) or mouse (pointer position) tilt of a simulated device.
final class TiltFeed: LiveMotionFeed {
  enum Kind { case keyboard, mouse }
  let kind: Kind
  private(set) var controller = TiltController()
  private var lastSample: Double?
  var onMessage: (String) -> Void = { _ in }

  init(kind: Kind) { self.kind = kind }

  var name: String { kind == .keyboard ? "keyboard" : "mouse" }
  var startTime: Double { 0 }

  func samples(upTo time: Double) -> [DeviceMotion] {
    if let last = lastSample, time <= last { return [] }
    lastSample = time
    return [controller.motion(at: time)]
  }

  func handle(_ event: LiveEvent, at time: Double) {
    switch (kind, event) {
    case (.keyboard, .key(.up)): controller.press(.up, at: time)
    case (.keyboard, .key(.down)): controller.press(.down, at: time)
    case (.keyboard, .key(.left)): controller.press(.left, at: time)
    case (.keyboard, .key(.right)): controller.press(.right, at: time)
    case (.mouse, .pointer(let x, let y)): controller.point(x: x, y: y, at: time)
    default: break
    }
  }

  func hudLine(at time: Double) -> String {
    let m = controller.currentMotion
    return name
      + String(
        format: ": pitch %.1f° roll %.1f°", m.attitude.pitch * 180 / .pi,
        m.attitude.roll * 180 / .pi)
  }
}

/// A device-motion recording replayed at recorded speed: scene time is the recording's time.
///
/// With ``loops``, the recording starts again when it ends: pass k is shifted by k × the
/// period (the recording's span plus its mean sample interval), so scene time keeps going.
final class RecordingFeed: LiveMotionFeed {
  let name: String
  let motions: [DeviceMotion]
  /// Whether the recording replays from the start when it ends.
  let loops: Bool
  /// The time one pass takes when looping, seconds.
  let period: Double
  private var next = 0
  private var pass = 0
  var onMessage: (String) -> Void = { _ in }

  init(name: String, motions: [DeviceMotion], loops: Bool = false) {
    self.name = name
    self.motions = motions
    self.loops = loops
    if let first = motions.first?.timestamp, let last = motions.last?.timestamp, last > first {
      period = (last - first) * Double(motions.count) / Double(motions.count - 1)
    } else {
      period = 0.01
    }
  }

  var startTime: Double { motions.first?.timestamp ?? 0 }

  func samples(upTo time: Double) -> [DeviceMotion] {
    var out: [DeviceMotion] = []
    while !motions.isEmpty {
      if next == motions.count {
        guard loops else { break }
        next = 0
        pass += 1
      }
      var m = motions[next]
      m.timestamp += Double(pass) * period
      guard m.timestamp <= time + 1e-9 else { break }
      out.append(m)
      next += 1
    }
    return out
  }

  func handle(_ event: LiveEvent, at time: Double) {}

  func hudLine(at time: Double) -> String {
    let elapsed = time - startTime
    guard loops else { return name + String(format: " %.1f s", elapsed) }
    let p = max(1, Int(elapsed / period) + 1)
    return name + String(format: " %.1f s, pass %d", elapsed - Double(p - 1) * period, p)
  }
}

/// A scene re-centres its viewer offset (the `r` key).
protocol LiveRecentering {
  /// Makes the current attitude the neutral pose.
  func recenterViewerOffset(at time: Double)
}

extension FileScene: LiveRecentering {}

/// Feeds a scene its motion and renders it for a ``LiveLoop``.
final class LiveSceneContent: LiveContent {
  let scene: any Scene
  let feed: any LiveMotionFeed
  let renderer = LayerRenderer()

  init(scene: any Scene, feed: any LiveMotionFeed) {
    self.scene = scene
    self.feed = feed
  }

  /// Whether each frame's presentation values are kept for ``traceText()``.
  var tracing = false
  private var traceRows: [[Double]] = []

  func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas) throws {
    for m in try feed.samples(upTo: frame.targetTimestamp) { scene.receive(m) }
    scene.advance(to: frame)
    if tracing {
      let t = frame.targetTimestamp
      traceRows.append([t] + scene.traceKeys.map { scene.traceValue($0, at: t) ?? 0 })
    }
    try draw(at: frame.targetTimestamp, into: canvas)
  }

  /// The traced frames as `swell trace` CSV: a `time` column (the frame's target time, scene
  /// seconds) and the scene's trace keys.
  ///
  /// - Returns: The CSV text.
  func traceText() -> String {
    var text = (["time"] + scene.traceKeys).joined(separator: ",") + "\n"
    for (i, row) in traceRows.enumerated() {
      TraceCommand.appendRow(row, keys: scene.traceKeys, json: false, first: i == 0, to: &text)
    }
    return text
  }

  func handle(_ event: LiveEvent, at time: Double) {
    if event == .key(.character("r")) {
      (scene as? any LiveRecentering)?.recenterViewerOffset(at: time)
    }
    feed.handle(event, at: time)
  }

  func hudLines(at time: Double) -> [String] {
    var lines = [feed.hudLine(at: time)]
    if let h = scene.traceValue("offset.horizontal", at: time),
      let v = scene.traceValue("offset.vertical", at: time)
    {
      lines.append(String(format: "viewer offset %+.3f %+.3f", h, v))
    }
    if let tilt = scene.traceValue("water.transform.rotation.z", at: time) {
      lines.append(String(format: "water tilt %+.1f°", tilt * 180 / .pi))
    }
    return lines
  }

  /// Draws the scene's presentation at `time`, fitted into the canvas (centred, aspect kept,
  /// the background around it). At the scene's own pixel size the pixels are those of an
  /// offline render (`swell render --time`): the same Cairo operations in the same order.
  func draw(at time: Double, into canvas: LiveCanvas) throws {
    let tree = scene.root.presentation(at: time)
    let size = scene.size
    let fit = min(Double(canvas.width) / size.width, Double(canvas.height) / size.height)
    let exact = LiveCommand.pixelSize(of: scene) == (canvas.width, canvas.height)
    let scale = exact ? scene.scale : fit
    try canvas.withUnsafeMutableBytes { bytes in
      guard let base = bytes.baseAddress else { return }
      let image = try ImageSurface(
        unownedBytes: base, pixelWidth: canvas.width, pixelHeight: canvas.height,
        bytesPerRow: canvas.bytesPerRow)
      let context = try CairoContext(surface: image)
      context.setSource(scene.background)
      context.paint()
      if !exact {
        context.translate(
          x: ((Double(canvas.width) - size.width * scale) / 2).rounded(),
          y: ((Double(canvas.height) - size.height * scale) / 2).rounded())
      }
      try context.scale(x: scale, y: scale)
      try renderer.draw(tree, in: context)
      image.flush()
    }
  }
}
