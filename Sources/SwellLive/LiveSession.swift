import Foundation
import SwellCairo
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes

/// A scene shown by a ``LiveLoop``: each frame, the `SceneDriver` feeds the scene the motion
/// due by the frame and advances its engines, and the frame is drawn by the one frame-drawing
/// function (`LayerRenderer.drawFrame`), so a live frame at the scene's own pixel size has the
/// pixels of an offline render of the same time.
///
/// Keys: `r` re-centres the viewer offset (scenes that support it); arrows tilt a keyboard
/// `TiltMotionFeed`; pointer moves tilt a mouse one.
public final class LiveSceneContent: LiveContent {
  /// The scene.
  public var scene: any Scene { driver.scene }
  /// The driver (its feed is the scene's motion).
  public let driver: SceneDriver
  /// The renderer: a full-size frame is drawn in horizontal bands on every core (at most 4),
  /// with the pixels of a single-threaded render.
  public let renderer = BandedFrameRenderer()
  /// Whether each frame's presentation values are kept for ``traceText()``.
  public var tracing = false
  /// The scene's canvas when the content was made, points:
  /// ``layoutSize(for:pixelWidth:pixelHeight:)`` keeps its shorter side when the scene is laid
  /// out for another shape.
  public let designSize: Size
  private var traceRows: [[Double]] = []
  private var lastDrawn: (digest: Int, width: Int, height: Int)?
  /// False when the last frame's presentation was the one already on the canvas.
  public private(set) var lastRenderChangedCanvas = true

  /// Creates the content.
  ///
  /// - Parameters:
  ///   - scene: The scene.
  ///   - motion: Its motion.
  public init(scene: any Scene, motion: any SceneMotionFeed) {
    if let tilt = motion as? TiltMotionFeed, let file = scene as? FileScene {
      tilt.orientation = file.orientation
    }
    driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: 60)
    designSize = scene.size
  }

  /// The canvas, in points, that a scene designed for `design` is laid out on to fill a frame
  /// buffer of another shape: the buffer's aspect ratio, with the design's shorter side kept
  /// (390 × 844 shown in an 80 × 24 terminal, 320 × 192 pixels, is laid out on 650 × 390
  /// points; in a 1600 × 1000-pixel window on 624 × 390).
  ///
  /// - Parameters:
  ///   - design: The scene's own canvas, points.
  ///   - pixelWidth: The frame buffer's width, pixels (positive).
  ///   - pixelHeight: The frame buffer's height, pixels (positive).
  /// - Returns: The canvas, points.
  public static func layoutSize(for design: Size, pixelWidth: Int, pixelHeight: Int) -> Size {
    let short = min(design.width, design.height)
    let aspect = Double(max(pixelWidth, 1)) / Double(max(pixelHeight, 1))
    return aspect >= 1
      ? Size(width: short * aspect, height: short) : Size(width: short, height: short / aspect)
  }

  /// Lays a resizable file scene out for the canvas when the canvas is not the scene's pixel
  /// size (a window resized by hand, a terminal grid): the scene fills it instead of being
  /// letterboxed (`SwellScenes/FileScene/layOut(size:scale:)`).
  ///
  /// - Parameter canvas: The frame buffer.
  /// - Returns: Whether the scene now fills the canvas exactly.
  @discardableResult
  public func layOut(for canvas: LiveCanvas) -> Bool {
    if pixelSize == (canvas.width, canvas.height) { return true }
    guard let file = scene as? FileScene, file.isResizable else { return false }
    let size = Self.layoutSize(
      for: designSize, pixelWidth: canvas.width, pixelHeight: canvas.height)
    file.layOut(size: size, scale: Double(canvas.width) / size.width)
    return true
  }

  /// The scene's pixel size: canvas × scale.
  public var pixelSize: (width: Int, height: Int) {
    let w = max(1, Int((scene.size.width * scene.scale).rounded()))
    let h = max(1, Int((scene.size.height * scene.scale).rounded()))
    return (w, h)
  }

  /// Feeds the motion due by the frame, advances the scene and draws it.
  ///
  /// - Parameters:
  ///   - frame: The display-link frame.
  ///   - canvas: The window's frame buffer.
  /// - Throws: `SceneMotionError` when the motion failed, `RenderError` when drawing did.
  public func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas) throws {
    try render(frame, into: canvas, force: true)
  }

  /// Feeds the motion due by the frame and advances the scene; draws only when the presentation
  /// changed since the frame on the canvas (its `appearanceDigest`), or when `force` is set.
  ///
  /// - Parameters:
  ///   - frame: The display-link frame.
  ///   - canvas: The window's frame buffer.
  ///   - force: Draw even when nothing changed.
  /// - Throws: `SceneMotionError` when the motion failed, `RenderError` when drawing did.
  public func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas, force: Bool) throws {
    layOut(for: canvas)
    try driver.advance(to: frame)
    if tracing { traceRows.append(driver.traceRow(at: frame.targetTimestamp)) }
    let tree = scene.root.presentation(at: frame.targetTimestamp)
    let digest = tree.appearanceDigest()
    if !force, let last = lastDrawn, last == (digest, canvas.width, canvas.height) {
      lastRenderChangedCanvas = false
      return
    }
    try draw(tree, into: canvas)
    lastDrawn = (digest, canvas.width, canvas.height)
    lastRenderChangedCanvas = true
  }

  /// Feeds the motion and advances the scene without drawing (a hidden window).
  ///
  /// - Parameter frame: The display-link frame.
  /// - Throws: `SceneMotionError` when the motion failed.
  public func idle(_ frame: DisplayLinkFrame) throws {
    try driver.advance(to: frame)
    if tracing { traceRows.append(driver.traceRow(at: frame.targetTimestamp)) }
    _ = (driver.motion as? LiveSourceFeed)?.takeArrivals()
  }

  /// True for live sources (udp, iio, phone): frames start late to carry the newest samples.
  public var latchesLate: Bool { driver.motion is LiveSourceFeed }

  /// The latencies of the live samples the presented frame used first, seconds.
  ///
  /// - Parameter presentedAt: When the frame was presented, `CLOCK_MONOTONIC` seconds.
  /// - Returns: `presentedAt` minus each sample's arrival (none for recordings and tilt).
  public func motionLatencies(presentedAt: Double) -> [Double] {
    guard let live = driver.motion as? LiveSourceFeed else { return [] }
    return live.takeArrivals().map { presentedAt - $0 }
  }

  /// The traced frames as `swell trace` CSV: a `time` column (the frame's target time, scene
  /// seconds) and the scene's trace keys.
  ///
  /// - Returns: The CSV text.
  public func traceText() -> String {
    let format = SceneTraceFormat(keys: scene.traceKeys)
    var text = format.header
    for (i, row) in traceRows.enumerated() { format.appendRow(row, first: i == 0, to: &text) }
    return text
  }

  /// Reacts to keys and pointer moves.
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - time: The scene time, seconds.
  public func handle(_ event: LiveEvent, at time: Double) {
    if event == .key(.character("r")), let file = scene as? FileScene {
      file.recenterViewerOffset(at: time)
    }
    guard let tilt = driver.motion as? TiltMotionFeed else { return }
    switch event {
    case .key(.up): tilt.press(.up, at: time)
    case .key(.down): tilt.press(.down, at: time)
    case .key(.left): tilt.press(.left, at: time)
    case .key(.right): tilt.press(.right, at: time)
    case .pointer(let x, let y): tilt.point(x: x, y: y, at: time)
    default: break
    }
  }

  /// The motion's status line, the viewer offset and the water's tilt.
  ///
  /// - Parameter time: The scene time, seconds.
  /// - Returns: The lines.
  public func hudLines(at time: Double) -> [String] {
    var lines = [driver.motion.statusLine(at: time)]
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

  /// Draws the scene's presentation at `time` into the canvas. A resizable file scene is first
  /// laid out for the canvas (``layOut(for:)``), so it fills it: a window of any shape, a
  /// terminal's whole grid. A scene at the canvas's pixel size is drawn with its scale; any other
  /// (a scene file with fixed frames) is fitted, centred with its aspect kept, the background
  /// around it, and clipped to its canvas so that nothing beyond it (the water's overscan) shows
  /// beside it.
  ///
  /// - Parameters:
  ///   - time: Scene seconds.
  ///   - canvas: The frame buffer.
  /// - Throws: `RenderError` when drawing fails.
  public func draw(at time: Double, into canvas: LiveCanvas) throws {
    layOut(for: canvas)
    try draw(scene.root.presentation(at: time), into: canvas)
  }

  private func draw(_ tree: Layer, into canvas: LiveCanvas) throws {
    let exact = pixelSize == (canvas.width, canvas.height)
    let placement: FramePlacement
    if exact {
      placement = FramePlacement(scale: scene.scale)
    } else {
      placement = FramePlacement.fitting(
        scene.size, pixelWidth: canvas.width, pixelHeight: canvas.height)
      tree.masksToBounds = true
    }
    try renderer.drawFrame(
      tree, background: scene.background, placement: placement, into: canvas.image)
  }
}

/// One live run of a scene: the window (or the terminal), the loop, the HUD, keys, statistics
/// and the optional trace. What `swell live` and `swell demo` run.
public struct LiveSession {
  /// The scene shown.
  public var scene: any Scene
  /// Its motion.
  public var motion: any SceneMotionFeed
  /// Draw in the terminal instead of a window.
  public var terminal = false
  /// How the window puts frames on the screen (default: automatic).
  public var presenter = LiveWindow.Presenter.automatic
  /// The window title.
  public var title: String
  /// Where to write the per-frame presentation values (CSV, `swell trace`'s columns), or `nil`.
  public var traceOut: String?
  /// Loop options; ``LiveLoopOptions/startTime`` is set from the motion.
  public var options = LiveLoopOptions()
  /// Receives the loop's one-line messages (screenshots, pause), after the terminal view has
  /// closed when drawing in the terminal.
  public var onMessage: (String) -> Void = { _ in }
  /// Receives the motion's one-line messages (a device unplugged), likewise.
  public var onMotionMessage: (String) -> Void = { _ in }

  /// Creates a session.
  ///
  /// - Parameters:
  ///   - scene: The scene.
  ///   - motion: Its motion.
  ///   - title: The window title.
  public init(scene: any Scene, motion: any SceneMotionFeed, title: String) {
    self.scene = scene
    self.motion = motion
    self.title = title
  }

  /// Opens the display, runs the loop until quit or the frame limit, closes the motion.
  ///
  /// - Returns: The frame statistics.
  /// - Throws: ``LiveWindowError`` (no display), `SceneMotionError`, `RenderError`, and trace
  ///   writing failures (`RecordingError`).
  public func run() throws -> FrameStatistics {
    defer { motion.close() }
    let content = LiveSceneContent(scene: scene, motion: motion)
    content.tracing = traceOut != nil
    let display: any LiveDisplay
    if terminal {
      display = try TerminalView()
    } else {
      let pixels = content.pixelSize
      display = try LiveWindow(
        title: title, width: pixels.width, height: pixels.height, presenter: presenter)
    }
    var options = self.options
    options.startTime = motion.startTime
    let loop = LiveLoop(display: display, content: content, options: options)
    let held = HeldLines()
    let terminal = self.terminal
    let onMessage = self.onMessage
    let onMotionMessage = self.onMotionMessage
    loop.onMessage = { line in if terminal { held.messages.append(line) } else { onMessage(line) } }
    if let live = motion as? LiveSourceFeed {
      live.onMessage = { line in
        if terminal { held.motion.append(line) } else { onMotionMessage(line) }
      }
    }
    defer { (display as? TerminalView)?.close() }
    try loop.run()
    (display as? TerminalView)?.close()
    for m in held.messages { onMessage(m) }
    for m in held.motion { onMotionMessage(m) }
    if let traceOut {
      try AtomicWrite.write(Data(content.traceText().utf8), to: URL(fileURLWithPath: traceOut))
    }
    return loop.statistics
  }
}

/// Lines held back while the terminal view owns the screen.
private final class HeldLines {
  var messages: [String] = []
  var motion: [String] = []
}
