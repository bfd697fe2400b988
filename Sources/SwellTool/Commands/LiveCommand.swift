import Foundation
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes

/// `swell live SCENE`: shows a scene live in an SDL window paced by vsync (or in the terminal),
/// driven by motion from the keyboard, the mouse, a recording or a sensor.
struct LiveCommand: ToolCommand {
  static let name = "live"
  static let summary = "show a scene live in a window or the terminal, driven by motion"
  static let help = """
    Usage: swell live SCENE [options]

    Shows SCENE (a built-in scene: \(BuiltInScenes.names.joined(separator: ", "))) live in an SDL
    window paced by the display's vertical sync, or in the terminal with --terminal.

    Options:
      --motion SOURCE     keyboard (default), mouse, or a device-motion CSV recording (FORMATS.md)
                          replayed at recorded speed
      --terminal          draw in this terminal with true-colour half blocks
      --size WxH[@S]      canvas size in points and pixels per point (default: the scene's)
      --fps N             frame-rate cap (default: the display's refresh rate; 30 in a terminal)
      --frames N          quit after N frames
      --stats             print the frame statistics as one JSON line, last on standard output:
                          {"frames", "dropped", "interval_ms_median", "interval_ms_p99",
                          "fps_target"}
      --screenshot-at T   save a PNG of the frame at T seconds after the first frame
      --screenshot PATH   where --screenshot-at writes (default swell-live-SCENE-T.png)
      --hud               start with the HUD shown

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
    guard let sceneName = arguments.positional() else {
      throw UsageError("missing SCENE (one of: \(BuiltInScenes.names.joined(separator: ", ")))")
    }
    try arguments.finish()
    if let frames, frames != frames.rounded() {
      throw UsageError("--frames must be a whole number, got \(frames)")
    }

    var sceneOptions = SceneOptions()
    if let sizeSpec { try LiveCommand.apply(size: sizeSpec, to: &sceneOptions) }
    let scene: any Scene
    if let builtIn = BuiltInScenes.make(sceneName, options: sceneOptions) {
      scene = builtIn
    } else if sceneName.hasSuffix(".json") {
      scene = try StaticFileScene(path: sceneName, options: sceneOptions)
    } else {
      throw UsageError(
        "unknown scene '\(sceneName)' (built-in: \(BuiltInScenes.names.joined(separator: ", ")); "
          + "or a scene file ending in .json)")
    }
    let feed = try LiveCommand.makeFeed(motionSpec)

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

  /// Parses `WxH[@S]` into scene options.
  static func apply(size spec: String, to options: inout SceneOptions) throws(UsageError) {
    var text = Substring(spec)
    var scale: Double?
    if let at = text.firstIndex(of: "@") {
      let s = text[text.index(after: at)...].trimmingCharacters(
        in: CharacterSet(charactersIn: "xX"))
      guard let v = Double(s), v.isFinite, v > 0, v <= 8 else {
        throw UsageError("--size scale must be a number in (0, 8], got '\(spec)'")
      }
      scale = v
      text = text[..<at]
    }
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w.isFinite,
      h.isFinite, w >= 1, h >= 1, w <= 10000, h <= 10000
    else {
      throw UsageError("--size must look like 390x844 or 390x844@2, got '\(spec)'")
    }
    options.width = w
    options.height = h
    options.scale = scale
  }

  /// Builds the motion feed named by `--motion`.
  static func makeFeed(_ spec: String) throws -> any LiveMotionFeed {
    switch spec {
    case "keyboard": return TiltFeed(kind: .keyboard)
    case "mouse": return TiltFeed(kind: .mouse)
    default:
      for prefix in ["iio", "udp:", "phone:", "script:"] where spec.hasPrefix(prefix) {
        throw ToolError("--motion \(spec): this source is not available in this build yet")
      }
      return try RecordingFeed(path: spec)
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

  init(path: String) throws {
    motions = try MinimalDeviceMotionCSV.read(path: path)
    name = "recording " + URL(fileURLWithPath: path).lastPathComponent
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

  init(scene: any Scene, feed: any LiveMotionFeed) {
    self.scene = scene
    self.feed = feed
  }

  func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas) throws {
    for m in feed.samples(upTo: frame.targetTimestamp) { scene.receive(m) }
    scene.advance(to: frame)
    LiveSceneContent.draw(scene, at: frame.targetTimestamp, into: canvas)
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

  /// Draws the scene's presentation at `time`, fitted into the canvas.
  static func draw(_ scene: any Scene, at time: Double, into canvas: LiveCanvas) {
    canvas.fill(scene.background)
  }
}

/// A scene file shown as it is (its layers' own animations only; no motion response): the
/// interim file scene until SwellScenes offers one.
final class StaticFileScene: Scene {
  let name: String
  let size: Size
  let scale: Double
  let background: Color
  let root: Layer
  var traceKeys: [String] { [] }

  init(path: String, options: SceneOptions) throws {
    let url = URL(fileURLWithPath: path)
    var file = try SceneFile.load(from: url)
    if let w = options.width { file.canvas.width = w }
    if let h = options.height { file.canvas.height = h }
    if let s = options.scale { file.canvas.scale = s }
    name = file.name
    size = Size(width: file.canvas.width, height: file.canvas.height)
    scale = file.canvas.scale
    background = file.canvas.background.color
    root = file.makeRootLayer(baseDirectory: url.deletingLastPathComponent())
  }

  func receive(_ motion: DeviceMotion) {}

  func advance(to frame: DisplayLinkFrame) {}

  func traceValue(_ key: String, at time: Double) -> Double? { layerTraceValue(key, at: time) }
}

/// Reads the device-motion CSV of FORMATS.md (interim reader until the recordings module's
/// loader is in main).
enum MinimalDeviceMotionCSV {
  static let columns = [
    "time", "attitude.w", "attitude.x", "attitude.y", "attitude.z", "gravity.x", "gravity.y",
    "gravity.z", "userAcceleration.x", "userAcceleration.y", "userAcceleration.z",
    "rotationRate.x", "rotationRate.y", "rotationRate.z",
  ]

  static func read(path: String) throws -> [DeviceMotion] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ToolError("\(path): cannot read the file")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ToolError("\(path): not UTF-8 text")
    }
    var frame = AttitudeReferenceFrame.xArbitraryZVertical
    var header: [String]?
    var out: [DeviceMotion] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      let lineNumber = index + 1
      if line.isEmpty { continue }
      if line.hasPrefix("#") {
        if let r = line.range(of: "referenceFrame:") {
          let name = line[r.upperBound...].trimmingCharacters(in: .whitespaces)
          guard let f = AttitudeReferenceFrame(name: name) else {
            throw ToolError("\(path):\(lineNumber): unknown reference frame '\(name)'")
          }
          frame = f
        }
        continue
      }
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard header != nil else {
        guard Array(fields.prefix(columns.count)) == columns else {
          throw ToolError(
            "\(path):\(lineNumber): not a device-motion recording (expected columns "
              + "\(columns.joined(separator: ",")))")
        }
        header = fields
        continue
      }
      guard fields.count >= columns.count else {
        throw ToolError(
          "\(path):\(lineNumber): \(columns[fields.count]): missing (\(fields.count) fields)")
      }
      var v = [Double](repeating: 0, count: columns.count)
      for i in 0..<columns.count {
        guard let x = Double(fields[i]), x.isFinite else {
          throw ToolError("\(path):\(lineNumber): \(columns[i]): not a number: '\(fields[i])'")
        }
        v[i] = x
      }
      if let last = out.last, v[0] <= last.timestamp {
        throw ToolError("\(path):\(lineNumber): time: not increasing (\(fields[0]))")
      }
      let q = Quaternion(w: v[1], x: v[2], y: v[3], z: v[4])
      guard q.norm > 1e-6 else {
        throw ToolError("\(path):\(lineNumber): attitude.w: zero quaternion")
      }
      out.append(
        DeviceMotion(
          timestamp: v[0], attitude: Attitude(quaternion: q),
          rotationRate: Vector3(v[11], v[12], v[13]), gravity: Vector3(v[5], v[6], v[7]),
          userAcceleration: Vector3(v[8], v[9], v[10]), referenceFrame: frame))
    }
    guard header != nil else { throw ToolError("\(path): empty recording (no header)") }
    guard !out.isEmpty else { throw ToolError("\(path): no samples") }
    return out
  }
}
