import Foundation
import SwellCairo
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellPlayback
import SwellRender
import SwellScenes

/// A scene shown by a `SwellLiveLoop/LiveLoop`: the live loop's adapter over SwellPlayback's
/// `ScenePlayer`, which feeds the scene the motion due by each frame, advances it and draws it
/// with the one frame-drawing function, so a live frame at the scene's own pixel size has the
/// pixels of an offline render of the same time.
///
/// Keys: `r` re-centres the viewer offset (scenes that support it); arrows tilt a keyboard
/// `TiltMotionFeed`; pointer moves tilt a mouse one.
public final class LiveSceneContent: LiveContent {
  /// The player doing the work.
  public let player: ScenePlayer
  /// The scene.
  public var scene: any Scene { player.scene }
  /// The driver (its feed is the scene's motion).
  public var driver: SceneDriver { player.driver }
  /// The renderer (banded on several cores).
  public var renderer: BandedFrameRenderer { player.renderer }
  /// Whether each frame's presentation values are kept for ``traceText()``.
  public var tracing: Bool {
    get { player.tracing }
    set { player.tracing = newValue }
  }
  /// False when the last frame's presentation was the one already on the canvas.
  public var lastRenderChangedCanvas: Bool { player.lastRenderChangedPixels }
  /// The pixels the last frame changed, when it was drawn over the one before
  /// (`ScenePlayer.lastRenderRegion`); `nil` for the whole canvas.
  public var lastRenderRegion: PixelRect? { player.lastRenderRegion }

  /// Creates the content. Frames are drawn over the frame before where only part of it changed
  /// (`ScenePlayer.drawsOnlyDamage`): a live loop's canvas keeps its pixels between frames, and
  /// the loop forces a whole frame after anything else drew on it.
  ///
  /// - Parameters:
  ///   - scene: The scene.
  ///   - motion: Its motion.
  public init(scene: any Scene, motion: any SceneMotionFeed) {
    player = ScenePlayer(scene: scene, motion: motion)
    player.drawsOnlyDamage = true
  }

  /// The scene's pixel size: canvas × scale.
  public var pixelSize: (width: Int, height: Int) { player.pixelSize }

  /// Feeds the motion due by the frame, advances the scene and draws it.
  ///
  /// - Parameters:
  ///   - frame: The display-link frame.
  ///   - canvas: The window's frame buffer.
  /// - Throws: `SceneMotionError` when the motion failed, `RenderError` when drawing did.
  public func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas) throws {
    try player.render(frame, into: canvas.image, force: true)
  }

  /// Feeds the motion due by the frame and advances the scene; draws only when the presentation
  /// changed since the frame on the canvas, or when `force` is set.
  ///
  /// - Parameters:
  ///   - frame: The display-link frame.
  ///   - canvas: The window's frame buffer.
  ///   - force: Draw even when nothing changed.
  /// - Throws: `SceneMotionError` when the motion failed, `RenderError` when drawing did.
  public func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas, force: Bool) throws {
    try player.render(frame, into: canvas.image, force: force)
  }

  /// Feeds the motion and advances the scene without drawing (a hidden window).
  ///
  /// - Parameter frame: The display-link frame.
  /// - Throws: `SceneMotionError` when the motion failed.
  public func idle(_ frame: DisplayLinkFrame) throws { try player.idle(frame) }

  /// True for live sources (udp, iio, phone): frames start late to carry the newest samples.
  public var latchesLate: Bool { player.latchesLate }

  /// The latencies of the live samples the presented frame used first, seconds.
  ///
  /// - Parameter presentedAt: When the frame was presented, `CLOCK_MONOTONIC` seconds.
  /// - Returns: `presentedAt` minus each sample's arrival (none for recordings and tilt).
  public func motionLatencies(presentedAt: Double) -> [Double] {
    player.motionLatencies(presentedAt: presentedAt)
  }

  /// The traced frames as `swell trace` CSV (`ScenePlayer.traceText()`).
  ///
  /// - Returns: The CSV text.
  public func traceText() -> String { player.traceText() }

  /// Reacts to keys and pointer moves.
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - time: The scene time, seconds.
  public func handle(_ event: LiveEvent, at time: Double) {
    switch event {
    case .key(.character("r")): player.recenterViewerOffset(at: time)
    case .key(.up): player.tilt(.up, at: time)
    case .key(.down): player.tilt(.down, at: time)
    case .key(.left): player.tilt(.left, at: time)
    case .key(.right): player.tilt(.right, at: time)
    case .pointer(let x, let y): player.point(x: x, y: y, at: time)
    default: break
    }
  }

  /// The motion's status line, the viewer offset and the water's tilt.
  ///
  /// - Parameter time: The scene time, seconds.
  /// - Returns: The lines.
  public func hudLines(at time: Double) -> [String] { player.hudLines(at: time) }

  /// Draws the scene's presentation at `time` into the canvas (`ScenePlayer.draw(at:into:)`:
  /// laid out to fill it when the scene is resizable, else fitted and centred).
  ///
  /// - Parameters:
  ///   - time: Scene seconds.
  ///   - canvas: The frame buffer.
  /// - Throws: `RenderError` when drawing fails.
  public func draw(at time: Double, into canvas: LiveCanvas) throws {
    try player.draw(at: time, into: canvas.image)
  }
}

/// One live run of a scene: the window (or the terminal), the loop, the HUD, keys, statistics
/// and the optional trace. What `swell live` and `swell demo` run.
public struct LiveSession {
  /// The scene shown.
  public var scene: any Scene
  /// Its motion.
  public var motion: any SceneMotionFeed
  /// Draw in the terminal instead of a window. There a scene fitted into the grid has its edge
  /// colours continued into the margins beside it (`ScenePlayer.Margins.edgeColors`).
  public var terminal = false
  /// How the window puts frames on the screen (default: automatic).
  public var presenter = LiveWindow.Presenter.automatic
  /// Draw and show every frame whole, instead of only the region that changed since the frame
  /// before (`ScenePlayer.drawsOnlyDamage`, on by default): for a display that shows partial
  /// updates wrongly, and to measure what drawing only the changes saves.
  public var drawsWholeFrames = false
  /// The window title.
  public var title: String
  /// Where to write the per-frame presentation values (CSV, `swell trace`'s columns), or `nil`.
  public var traceOut: String?
  /// Loop options; `SwellLiveLoop/LiveLoopOptions/startTime` is set from the motion.
  public var options = LiveLoopOptions()
  /// Receives the loop's one-line messages (screenshots, pause), after the terminal view has
  /// closed when drawing in the terminal.
  public var onMessage: (String) -> Void = { _ in }
  /// Receives the motion's one-line messages (a device unplugged), likewise.
  public var onMotionMessage: (String) -> Void = { _ in }
  /// The system's Reduce Motion setting, read before each frame (`ScenePlayer.systemReduceMotion`):
  /// what `swell live` gives from the desktop's setting. `nil` leaves the scene as it was made.
  public var systemReduceMotion: (@Sendable () -> Bool)?

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

  /// The content ``run()`` shows: tracing when there is a trace to write; in the terminal, a
  /// fitted scene's margins continue its edge colours (the grid's cells are wide, so a portrait
  /// scene gets wide bars beside it, and water reaching the canvas edge would look cut off);
  /// in a window they are the background.
  func makeContent() -> LiveSceneContent {
    let content = LiveSceneContent(scene: scene, motion: motion)
    content.tracing = traceOut != nil
    content.player.margins = terminal ? .edgeColors : .background
    content.player.systemReduceMotion = systemReduceMotion
    content.player.drawsOnlyDamage = !drawsWholeFrames
    return content
  }

  /// Opens the display, runs the loop until quit or the frame limit, closes the motion.
  ///
  /// - Returns: The frame statistics.
  /// - Throws: `SwellLiveLoop/LiveWindowError` (no display), `SceneMotionError`, `RenderError`, and trace
  ///   writing failures (`RecordingError`).
  public func run() throws -> FrameStatistics {
    defer { motion.close() }
    let content = makeContent()
    let display: any LiveDisplay
    if terminal {
      display = try TerminalView(clock: motion.clock)
    } else {
      let pixels = content.pixelSize
      display = try LiveWindow(
        title: title, width: pixels.width, height: pixels.height, presenter: presenter)
    }
    var options = self.options
    options.startTime = motion.startTime
    // One clock for the session: the feed's samples arrive on it, the loop measures
    // motion-to-photon latency on it, and the terminal view paces on it.
    let loop = LiveLoop(display: display, content: content, options: options, clock: motion.clock)
    let held = HeldLines()
    let terminal = self.terminal
    let onMessage = self.onMessage
    let onMotionMessage = self.onMotionMessage
    loop.onMessage = { line in if terminal { held.messages.append(line) } else { onMessage(line) } }
    motion.setMessageHandler { line in
      if terminal { held.motion.append(line) } else { onMotionMessage(line) }
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
