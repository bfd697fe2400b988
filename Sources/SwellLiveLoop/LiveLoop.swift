import Foundation
import SwellLayers
import SwellRender
import SwellTime

/// Something that shows live frames: an SDL window (`SwellLive/LiveWindow`) or a terminal
/// (`SwellLive/TerminalView`).
public protocol LiveDisplay: AnyObject {
  /// The size of the frame buffer to render, pixels.
  var frameSize: (width: Int, height: Int) { get }
  /// True when presents wait for the next refresh (the display's vertical sync, or a timer on
  /// the refresh grid): they pace the loop.
  var isVsynced: Bool { get }
  /// The display's refresh rate, Hz.
  var refreshRate: Double { get }
  /// A short description for the HUD, e.g. `sdl opengl` or `terminal 80×24`.
  var displayName: String { get }
  /// Seconds on the display's monotonic clock.
  ///
  /// - Returns: The current time, seconds.
  func now() -> Double
  /// The events since the last call, without waiting.
  ///
  /// - Returns: The events in order.
  func pollEvents() -> [LiveEvent]
  /// Shows a frame and returns when it was presented.
  ///
  /// - Parameters:
  ///   - canvas: The frame.
  ///   - readBack: When given, receives the displayed pixels (width, height, bytes per row,
  ///     bytes) before the present.
  /// - Returns: The present time, seconds on ``now()``'s clock.
  /// - Throws: When the display fails.
  func present(
    _ canvas: LiveCanvas, readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double
  /// Shows a frame of which only `region` changed since the frame presented before it (the
  /// rest of the canvas holds that frame's pixels): a display may show just the region.
  /// Default: ``present(_:readBack:)``, the whole canvas.
  ///
  /// - Parameters:
  ///   - canvas: The frame.
  ///   - region: The pixels that changed, or `nil` for all of them.
  ///   - readBack: When given, receives the displayed pixels (width, height, bytes per row,
  ///     bytes) before the present.
  /// - Returns: The present time, seconds on ``now()``'s clock.
  /// - Throws: When the display fails.
  func present(
    _ canvas: LiveCanvas, region: PixelRect?,
    readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double
  /// Sleeps, for frame-rate caps and pauses.
  ///
  /// - Parameter seconds: Seconds.
  func wait(seconds: Double)
  /// The canvas to draw the next frame on: `current` while it still fits the display, else a
  /// new one of ``frameSize`` (a window may hand out its own surface, so the frame is drawn in
  /// place). Default: `current` when its size is ``frameSize``, else a new canvas.
  ///
  /// - Parameter current: The canvas of the previous frame, or `nil` at the start.
  /// - Returns: The canvas.
  /// - Throws: ``LiveWindowError`` when no canvas of that size can be made.
  func canvas(reusing current: LiveCanvas?) throws -> LiveCanvas
}

extension LiveDisplay {
  /// Shows the whole canvas, whatever changed.
  ///
  /// - Parameters:
  ///   - canvas: The frame.
  ///   - region: The pixels that changed (not used).
  ///   - readBack: Receives the displayed pixels before the present.
  /// - Returns: The present time, seconds.
  /// - Throws: When the display fails.
  public func present(
    _ canvas: LiveCanvas, region: PixelRect?,
    readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double {
    try present(canvas, readBack: readBack)
  }

  /// `current` when its size is ``frameSize``, else a new canvas of that size.
  ///
  /// - Parameter current: The canvas of the previous frame, or `nil`.
  /// - Returns: The canvas.
  /// - Throws: ``LiveWindowError`` when the size cannot be allocated.
  public func canvas(reusing current: LiveCanvas?) throws -> LiveCanvas {
    try LiveCanvas.owned(reusing: current, size: frameSize)
  }
}

/// What a live loop shows: it renders a frame for a display-link frame and reacts to the
/// events the loop does not handle itself (arrows, `r`, pointer moves, other keys).
public protocol LiveContent: AnyObject {
  /// Renders the frame for `frame.targetTimestamp` into the canvas (which has the display's
  /// frame size, and may change size between calls after a resize).
  ///
  /// - Parameters:
  ///   - frame: The display-link frame; times are scene seconds.
  ///   - canvas: Where to draw.
  /// - Throws: When rendering fails (the loop stops and rethrows).
  func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas) throws
  /// Reacts to an event.
  ///
  /// - Parameters:
  ///   - event: A key (other than q, Escape, space, s, h), pointer move or resize.
  ///   - time: The scene time, seconds.
  func handle(_ event: LiveEvent, at time: Double)
  /// Extra HUD lines (viewer offset, motion source, ...).
  ///
  /// - Parameter time: The scene time, seconds.
  /// - Returns: The lines.
  func hudLines(at time: Double) -> [String]
  /// False when the last ``render(_:into:)`` left the canvas as it was (nothing changed since
  /// the frame before): the loop then does not present it. Default: true.
  var lastRenderChangedCanvas: Bool { get }
  /// The pixels the last ``render(_:into:force:)`` changed, when it drew only those over the
  /// frame before (the loop presents just them); `nil` for the whole canvas. Default: `nil`.
  var lastRenderRegion: PixelRect? { get }
  /// Renders, drawing even when nothing changed when `force` is set (after a resize, with the
  /// HUD drawn over the frame, for a screenshot). Default: ``render(_:into:)``.
  ///
  /// - Parameters:
  ///   - frame: The display-link frame.
  ///   - canvas: Where to draw.
  ///   - force: Draw even when nothing changed.
  /// - Throws: When rendering fails.
  func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas, force: Bool) throws
  /// Moves the content to a frame without drawing (the window is hidden). Default: nothing.
  ///
  /// - Parameter frame: The display-link frame.
  /// - Throws: When the content fails.
  func idle(_ frame: DisplayLinkFrame) throws
  /// The latencies of the motion samples the last presented frame used first: seconds from
  /// each sample's arrival (`CLOCK_MONOTONIC`, the loop's ``LiveLoop/clock``) to `presentedAt`.
  /// Default: none.
  ///
  /// - Parameter presentedAt: When the frame was presented, seconds on ``LiveLoop/clock``.
  /// - Returns: The latencies, seconds.
  func motionLatencies(presentedAt: Double) -> [Double]
  /// True when the content shows motion that arrives live (a sensor or a phone stream): the
  /// loop then latches late, starting each frame as close to its vsync as its measured drawing
  /// time allows, so the frame carries the newest samples. Default: false (a recording or the
  /// keyboard: nothing arrives between frames, and frames start right after the present).
  var latchesLate: Bool { get }
}

extension LiveContent {
  /// True: every frame is presented.
  public var lastRenderChangedCanvas: Bool { true }

  /// `nil`: every frame is drawn whole.
  public var lastRenderRegion: PixelRect? { nil }

  /// Renders, ignoring `force`: every frame is drawn.
  ///
  /// - Parameters:
  ///   - frame: The display-link frame.
  ///   - canvas: Where to draw.
  ///   - force: Draw even when nothing changed.
  /// - Throws: When rendering fails.
  public func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas, force: Bool) throws {
    try render(frame, into: canvas)
  }

  /// Does nothing.
  ///
  /// - Parameter frame: The display-link frame.
  /// - Throws: Nothing.
  public func idle(_ frame: DisplayLinkFrame) throws {}

  /// No latencies.
  ///
  /// - Parameter presentedAt: When the frame was presented.
  /// - Returns: An empty list.
  public func motionLatencies(presentedAt: Double) -> [Double] { [] }

  /// False: frames start right after the present.
  public var latchesLate: Bool { false }
}

/// Options of a ``LiveLoop``.
public struct LiveLoopOptions: Sendable {
  /// The frame-rate cap, frames per second (`--fps`); `nil` follows the display (vsync) or 60.
  public var framesPerSecondCap: Double?
  /// Stop after this many rendered frames (`--frames`); `nil` runs until quit.
  public var frameLimit: Int?
  /// The scene time of frame 0, seconds.
  public var startTime: Double = 0
  /// Take a screenshot of the frame at this many seconds after frame 0 (`--screenshot-at`).
  public var screenshotAt: Double?
  /// Where ``screenshotAt`` writes its PNG.
  public var screenshotPath: String?
  /// Where the `s` key saves PNGs: a folder (default: the current one).
  public var screenshotFolder = "."
  /// The file-name stem of `s` screenshots.
  public var screenshotStem = "swell-live"
  /// Show the HUD from the start.
  public var showHUD = false

  /// Creates default options.
  public init() {}
}

/// Runs a live view: polls events, ticks a `DisplayLink` from present timestamps (vsync),
/// renders the content, draws the HUD, presents, and counts frame statistics. It drives a
/// ``LivePacing``, which decides when frames start.
///
/// Standard keys: `q`/Escape quit, space pauses (scene time stops), `s` saves a PNG
/// screenshot, `h` toggles the HUD. Scene time runs with the display's clock minus paused
/// time, starting at ``LiveLoopOptions/startTime``.
public final class LiveLoop {
  /// The display frames go to.
  public let display: any LiveDisplay
  /// The content rendered each frame.
  public let content: any LiveContent
  /// The options.
  public let options: LiveLoopOptions
  /// The statistics so far.
  public private(set) var statistics: FrameStatistics
  /// The paths of the screenshots taken so far.
  public private(set) var screenshots: [String] = []
  /// Called with one-line messages for standard output (screenshot paths).
  public var onMessage: (String) -> Void = { _ in }
  /// The number of frames rendered so far.
  public private(set) var renderedFrames = 0
  /// Whether the loop is paused.
  public private(set) var isPaused = false
  /// Whether the window can be seen (not hidden or minimised); nothing is drawn while it cannot.
  public private(set) var isVisible = true
  /// Frames whose presentation did not change, and were not drawn or presented again.
  public private(set) var unchangedFrames = 0
  /// The pacing state when ``run()`` last returned (`nil` before it ran).
  public private(set) var pacing: LivePacing?
  /// The clock motion samples' arrival times are on (`MotionSamples` stamps them on
  /// `CLOCK_MONOTONIC`, `MonotonicClock.continuous`): motion-to-photon latencies are measured
  /// on it. Frame pacing runs on the display's own clock (``LiveDisplay/now()``), the clock its
  /// present times are on.
  public let clock: MonotonicClock

  /// Creates a loop.
  ///
  /// - Parameters:
  ///   - display: The window or terminal.
  ///   - content: What to render.
  ///   - options: Frame limits, caps and screenshots.
  ///   - clock: The clock of motion samples' arrival times, for latencies (default: the
  ///     system's monotonic clock, the one `MotionSamples` stamps arrivals on).
  public init(
    display: any LiveDisplay, content: any LiveContent, options: LiveLoopOptions,
    clock: MonotonicClock = .continuous
  ) {
    self.display = display
    self.content = content
    self.options = options
    self.clock = clock
    statistics = FrameStatistics(
      targetFramesPerSecond: LiveLoop.targetRate(
        cap: options.framesPerSecondCap, refresh: display.refreshRate,
        vsynced: display.isVsynced))
  }

  /// The frame rate a loop aims for: the cap, no higher than the refresh rate when vsynced;
  /// the cap or 60 otherwise.
  ///
  /// - Parameters:
  ///   - cap: The `--fps` cap, frames per second, or `nil`.
  ///   - refresh: The display's refresh rate, Hz.
  ///   - vsynced: Whether presents wait for vsync.
  /// - Returns: Frames per second.
  public static func targetRate(cap: Double?, refresh: Double, vsynced: Bool) -> Double {
    let r = refresh > 0 ? refresh : 60
    if vsynced { return min(cap ?? r, r) }
    return cap ?? 60
  }

  /// Runs until quit or the frame limit.
  ///
  /// The loop is the driver of a ``LivePacing``: it reads the display's clock, waits, draws
  /// and presents; the pacing decides when frames start and what scene time they are for.
  ///
  /// - Throws: Display or rendering failures, and screenshot write failures.
  public func run() throws {
    var pacing = LivePacing(
      framesPerSecond: statistics.targetFramesPerSecond, refreshRate: display.refreshRate,
      vsynced: display.isVsynced, latchesLate: content.latchesLate, startTime: options.startTime,
      origin: display.now())
    self.pacing = pacing
    defer { self.pacing = pacing }
    var link = DisplayLink(
      preferredFramesPerSecond: statistics.targetFramesPerSecond, startTime: options.startTime)
    var canvas = try display.canvas(reusing: nil)
    var ui = Interface(showHUD: options.showHUD, timedShotDone: options.screenshotAt == nil)

    while true {
      if try handleEvents(&pacing, &link, &canvas, &ui) == .quit { return }
      if let until = pacing.inactiveWait(now: display.now()) {
        if isPaused {
          if ui.screenshotPending {
            ui.screenshotPending = false
            try saveScreenshot(canvas, path: nextScreenshotPath())
          }
          wait(until: until)
        } else {
          // Hidden or minimised: the scene keeps taking its motion, nothing is drawn.
          wait(until: until)
          statistics.hiddenFrames += 1
          let time = pacing.hiddenFramePassed(at: display.now())
          if let frame = link.tick(presentedAt: time) { try content.idle(frame) }
        }
        continue
      }
      wait(until: pacing.frameStart(now: display.now()))
      pacing.beginFrame(at: display.now())
      guard var frame = link.tick(presentedAt: pacing.frameTime) else { continue }
      let next = try display.canvas(reusing: canvas)
      if next !== canvas {
        // A new buffer holds nothing of the last frame.
        canvas = next
        ui.forceDraw = true
      }
      var timedShot = false
      if !ui.timedShotDone, let at = options.screenshotAt,
        frame.targetTimestamp >= options.startTime + at - 1e-9
      {
        // Snap this frame to the requested time so the screenshot matches an offline render.
        frame = DisplayLinkFrame(
          index: frame.index, timestamp: frame.timestamp,
          targetTimestamp: options.startTime + at)
        timedShot = true
        ui.timedShotDone = true
      }
      let renderStart = display.now()
      let mustShow = ui.forceDraw || ui.showHUD || timedShot || ui.screenshotPending
      try content.render(frame, into: canvas, force: mustShow)
      ui.forceDraw = false
      let drawSeconds = display.now() - renderStart
      if !mustShow && !content.lastRenderChangedCanvas {
        // Nothing changed: keep the frame on screen, wait for the next one.
        unchangedFrames += 1
        statistics.unchangedFrames += 1
        wait(until: pacing.unchangedWait(now: display.now()))
        pacing.frameSkipped(at: display.now())
        statistics.resetInterval()
        renderedFrames += 1
        if let limit = options.frameLimit, renderedFrames >= limit { return }
        continue
      }
      // A frame drawn over the one before shows just what changed; the HUD is drawn over the
      // whole frame (a forced, whole render).
      let region = ui.showHUD ? nil : content.lastRenderRegion
      if ui.showHUD { drawHUD(on: canvas, frame: frame, drawSeconds: drawSeconds) }
      let presentTime = try present(canvas, region: region, timedShot: timedShot, ui: &ui)
      statistics.recordPresent(at: presentTime)
      let latchedStart = pacing.presented(at: presentTime, drawSeconds: drawSeconds)
      // Samples that arrived before the first frame was on screen waited for the window to
      // open, not for the loop: latencies count from the second frame on.
      let latencies = content.motionLatencies(presentedAt: clock.now())
      if renderedFrames > 0 { statistics.recordLatencies(latencies) }
      renderedFrames += 1
      if let limit = options.frameLimit, renderedFrames >= limit { return }
      // Late latching: start the next frame as late as its drawing allows.
      if let latchedStart { wait(until: latchedStart) }
    }
  }

  /// What the loop shows besides the scene, and what it owes the user.
  private struct Interface {
    var showHUD: Bool
    var timedShotDone: Bool
    var screenshotPending = false
    var forceDraw = true
  }

  private enum EventOutcome { case quit, carryOn }

  /// Handles the events since the last frame: the standard keys here, the rest in the content.
  private func handleEvents(
    _ pacing: inout LivePacing, _ link: inout DisplayLink, _ canvas: inout LiveCanvas,
    _ ui: inout Interface
  ) throws -> EventOutcome {
    for event in display.pollEvents() {
      switch event {
      case .quit, .key(.escape), .key(.character("q")):
        return .quit
      case .key(.space):
        isPaused.toggle()
        link.isPaused = isPaused
        if isPaused {
          pacing.pause(at: display.now())
          let shown = pacing.frameTime - options.startTime + pacing.interval
          onMessage("paused at \(LiveLoop.seconds(shown))")
        } else {
          pacing.resume(at: display.now())
          statistics.resetInterval()
          onMessage("resumed")
        }
      case .key(.character("s")):
        ui.screenshotPending = true
      case .key(.character("h")):
        ui.showHUD.toggle()
        // The HUD's pixels are on the canvas: the next frame is drawn whole.
        ui.forceDraw = true
      case .resized:
        canvas = try display.canvas(reusing: canvas)
        statistics.resetInterval()
        ui.forceDraw = true
        content.handle(event, at: pacing.frameTime)
      case .visibility(let visible):
        if pacing.setVisible(visible) {
          statistics.resetInterval()
          ui.forceDraw = true
        }
        isVisible = visible
      default:
        content.handle(event, at: pacing.frameTime)
      }
    }
    return .carryOn
  }

  private func drawHUD(on canvas: LiveCanvas, frame: DisplayLinkFrame, drawSeconds: Double) {
    let lines: [String]
    if canvas.hudStyle == .text {
      // One terminal row: the content's values first, then the loop's in short.
      lines =
        content.hudLines(at: frame.targetTimestamp) + [
          String(
            format: "%.0f fps %.1f ms t %.1f s", statistics.medianFramesPerSecond,
            drawSeconds * 1000, frame.targetTimestamp)
        ]
    } else {
      lines =
        [
          String(
            format: "%.1f fps  frame %.1f ms  ", statistics.medianFramesPerSecond,
            drawSeconds * 1000) + display.displayName,
          String(format: "t %.2f s  frame %d", frame.targetTimestamp, frame.index),
        ] + content.hudLines(at: frame.targetTimestamp)
    }
    canvas.drawHUD(lines: lines)
  }

  /// Presents, writing the screenshots this frame owes; returns the present time.
  private func present(
    _ canvas: LiveCanvas, region: PixelRect?, timedShot: Bool, ui: inout Interface
  ) throws -> Double {
    var shots: [String] = []
    if timedShot { shots.append(options.screenshotPath ?? nextScreenshotPath()) }
    if ui.screenshotPending {
      ui.screenshotPending = false
      shots.append(nextScreenshotPath())
    }
    if shots.isEmpty { return try display.present(canvas, region: region, readBack: nil) }
    return try display.present(canvas, region: region) { w, h, stride, bytes in
      for path in shots {
        try LiveCanvas.writePNG(
          pixels: bytes, width: w, height: h, bytesPerRow: stride, to: path)
        self.screenshots.append(path)
        self.onMessage("screenshot: \(path)")
      }
    }
  }

  /// Waits on the display until a time of its clock (at once when it has passed).
  private func wait(until time: Double) {
    display.wait(seconds: time - display.now())
  }

  private static func seconds(_ t: Double) -> String { String(format: "%.3f s", t) }

  private func saveScreenshot(_ canvas: LiveCanvas, path: String) throws {
    try canvas.writePNG(to: path)
    screenshots.append(path)
    onMessage("screenshot: \(path)")
  }

  private func nextScreenshotPath() -> String {
    var n = screenshots.count + 1
    while true {
      let path = "\(options.screenshotFolder)/\(options.screenshotStem)-\(n).png"
      if !FileManager.default.fileExists(atPath: path) { return path }
      n += 1
    }
  }
}
