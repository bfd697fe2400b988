import Foundation
import SwellGeometry
import SwellLayers
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
                          FILE: a device-motion CSV or raw recording, replayed at recorded speed
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
    let sizeSpec = try arguments.option("--size")
    let fps = try arguments.positiveNumber("--fps")
    let frames = try arguments.positiveNumber("--frames")
    let screenshotAt = try arguments.number("--screenshot-at", in: 0...1e9)
    let screenshotPath = try arguments.option("--screenshot")
    let responseName = try arguments.option("--response")
    let seedExact = arguments.flag("--seed-exact")
    let reduceMotion = arguments.flag("--reduce-motion")
    guard let sceneName = arguments.positional() else {
      throw UsageError("missing SCENE (one of: \(BuiltInScenes.names.joined(separator: ", ")))")
    }
    try arguments.finish()
    if let frames, frames != frames.rounded() {
      throw UsageError("--frames must be a whole number, got \(frames)")
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
    let feed = try LiveCommand.makeFeed(motionSpec)
    let scene = try SceneLoader.load(sceneName, options: sceneOptions)

    let display: any LiveDisplay
    if terminal {
      display = try TerminalView()
    } else {
      let pixels = LiveCommand.pixelSize(of: scene)
      display = try LiveWindow(
        title: "swell live \(scene.name)", width: pixels.width, height: pixels.height)
    }
    var options = LiveLoopOptions()
    options.framesPerSecondCap = fps ?? (terminal ? 30 : nil)
    options.frameLimit = frames.map { Int($0) }
    options.startTime = feed.startTime
    options.screenshotAt = screenshotAt
    if let screenshotAt {
      options.screenshotPath =
        screenshotPath ?? "swell-live-\(scene.name)-\(LiveCommand.format(screenshotAt)).png"
    }
    options.screenshotStem = "swell-live-\(scene.name)"
    options.showHUD = hud
    let content = LiveSceneContent(scene: scene, feed: feed)
    let loop = LiveLoop(display: display, content: content, options: options)
    var messages: [String] = []
    loop.onMessage = { line in
      if terminal { messages.append(line) } else { console.out(line + "\n") }
    }
    defer { (display as? TerminalView)?.close() }
    try loop.run()
    (display as? TerminalView)?.close()
    for m in messages { console.out(m + "\n") }
    if stats { console.out(loop.statistics.jsonLine + "\n") }
    return 0
  }

  /// The window size for a scene: its canvas × scale, pixels.
  static func pixelSize(of scene: any Scene) -> (width: Int, height: Int) {
    let w = max(1, Int((scene.size.width * scene.scale).rounded()))
    let h = max(1, Int((scene.size.height * scene.scale).rounded()))
    return (w, h)
  }

  /// Builds the motion feed named by `--motion`.
  static func makeFeed(_ spec: String) throws -> any LiveMotionFeed {
    switch spec {
    case "keyboard": return TiltFeed(kind: .keyboard)
    case "mouse": return TiltFeed(kind: .mouse)
    default:
      if spec.hasPrefix("script:") {
        let input = try MotionInput.load(
          motionPath: nil, script: String(spec.dropFirst("script:".count)), rate: 100)
        return RecordingFeed(name: "script", motions: input.samples)
      }
      for prefix in ["iio", "udp:", "phone:"] where spec.hasPrefix(prefix) {
        throw ToolError("--motion \(spec): live sensor sources are not wired into swell live yet")
      }
      let input = try MotionInput.load(motionPath: spec, script: nil, rate: 100)
      return RecordingFeed(
        name: "recording " + URL(fileURLWithPath: spec).lastPathComponent, motions: input.samples)
    }
  }

  static func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
  }
}

/// Motion for a live scene: samples up to a scene time, and reactions to keys and the pointer.
protocol LiveMotionFeed: AnyObject {
  /// A short name for the HUD.
  var name: String { get }
  /// The scene time of the first frame, seconds.
  var startTime: Double { get }
  /// The samples with timestamps up to `time` not delivered yet, in order.
  func samples(upTo time: Double) -> [DeviceMotion]
  /// Reacts to a key or pointer event at a scene time.
  func handle(_ event: LiveEvent, at time: Double)
  /// A HUD line about the motion.
  func hudLine(at time: Double) -> String
}

/// Keyboard (arrows) or mouse (pointer position) tilt of a simulated device.
final class TiltFeed: LiveMotionFeed {
  enum Kind { case keyboard, mouse }
  let kind: Kind
  private(set) var controller = TiltController()
  private var lastSample: Double?

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
final class RecordingFeed: LiveMotionFeed {
  let name: String
  let motions: [DeviceMotion]
  private var next = 0

  init(name: String, motions: [DeviceMotion]) {
    self.name = name
    self.motions = motions
  }

  var startTime: Double { motions.first?.timestamp ?? 0 }

  func samples(upTo time: Double) -> [DeviceMotion] {
    var out: [DeviceMotion] = []
    while next < motions.count && motions[next].timestamp <= time + 1e-9 {
      out.append(motions[next])
      next += 1
    }
    return out
  }

  func handle(_ event: LiveEvent, at time: Double) {}

  func hudLine(at time: Double) -> String {
    name + String(format: " %.1f s", time - startTime)
  }
}

/// A scene re-centres its viewer offset (the `r` key).
protocol LiveRecentering {
  /// Makes the current attitude the neutral pose.
  func recenterViewerOffset(at time: Double)
}

/// Feeds a scene its motion and renders it for a ``LiveLoop``.
final class LiveSceneContent: LiveContent {
  let scene: any Scene
  let feed: any LiveMotionFeed
  let renderer = LayerRenderer()

  init(scene: any Scene, feed: any LiveMotionFeed) {
    self.scene = scene
    self.feed = feed
  }

  func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas) throws {
    for m in feed.samples(upTo: frame.targetTimestamp) { scene.receive(m) }
    scene.advance(to: frame)
    try draw(at: frame.targetTimestamp, into: canvas)
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
