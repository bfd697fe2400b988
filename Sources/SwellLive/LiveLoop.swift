import Foundation
import SwellLayers

/// Something that shows live frames: an SDL window (``LiveWindow``) or a terminal
/// (``TerminalView``).
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
  /// `current` when its size is ``frameSize``, else a new canvas of that size.
  ///
  /// - Parameter current: The canvas of the previous frame, or `nil`.
  /// - Returns: The canvas.
  /// - Throws: ``LiveWindowError`` when the size cannot be allocated.
  public func canvas(reusing current: LiveCanvas?) throws -> LiveCanvas {
    try LiveCanvas.owned(reusing: current, size: frameSize)
  }
}

extension LiveWindow: LiveDisplay {
  /// The drawable size, pixels.
  public var frameSize: (width: Int, height: Int) { drawableSize }

  /// `sdl` with the video and render drivers.
  public var displayName: String { "sdl \(videoDriverName)/\(rendererName)" }
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
  /// each sample's arrival (`CLOCK_MONOTONIC`) to `presentedAt`. Default: none.
  ///
  /// - Parameter presentedAt: When the frame was presented, `monotonicSeconds()`.
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
/// renders the content, draws the HUD, presents, and counts frame statistics.
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

  /// Creates a loop.
  ///
  /// - Parameters:
  ///   - display: The window or terminal.
  ///   - content: What to render.
  ///   - options: Frame limits, caps and screenshots.
  public init(display: any LiveDisplay, content: any LiveContent, options: LiveLoopOptions) {
    self.display = display
    self.content = content
    self.options = options
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
  /// - Throws: Display or rendering failures, and screenshot write failures.
  public func run() throws {
    let rate = statistics.targetFramesPerSecond
    var link = DisplayLink(preferredFramesPerSecond: rate, startTime: options.startTime)
    let interval = 1 / rate
    // Sleep-based capping applies when presents are not paced by vsync at the target rate.
    let capSleeps = !display.isVsynced || rate < 0.95 * display.refreshRate
    let origin = display.now()
    var pausedTotal = 0.0
    var pauseStart = 0.0
    var showHUD = options.showHUD
    var canvas = try display.canvas(reusing: nil)
    var lastSceneTime = options.startTime - interval
    var nextDue = origin
    var screenshotPending = false
    var timedScreenshotDone = options.screenshotAt == nil
    var renderMilliseconds = 0.0
    var forceDraw = true
    // Late latching (live motion on a vsynced display): the lead is how long before the next
    // vsync a frame starts: the drawing time seen lately plus a margin that grows by 2 ms when
    // a frame misses its vsync and shrinks slowly while frames are on time.
    let latchLate = content.latchesLate && display.isVsynced && !capSleeps
    var drawEstimate = 0.0
    var latchMargin = 0.004
    var previousPresent: Double?
    func sceneTime(_ live: Double) -> Double {
      options.startTime - interval + (live - origin - pausedTotal)
    }

    while true {
      for event in display.pollEvents() {
        switch event {
        case .quit, .key(.escape), .key(.character("q")):
          return
        case .key(.space):
          isPaused.toggle()
          link.isPaused = isPaused
          if isPaused {
            pauseStart = display.now()
            onMessage("paused at \(LiveLoop.seconds(lastSceneTime - options.startTime + interval))")
          } else {
            pausedTotal += display.now() - pauseStart
            statistics.resetInterval()
            onMessage("resumed")
          }
        case .key(.character("s")):
          screenshotPending = true
        case .key(.character("h")):
          showHUD.toggle()
        case .resized:
          canvas = try display.canvas(reusing: canvas)
          statistics.resetInterval()
          forceDraw = true
          content.handle(event, at: lastSceneTime)
        case .visibility(let visible):
          if visible && !isVisible {
            statistics.resetInterval()
            forceDraw = true
          }
          isVisible = visible
        default:
          content.handle(event, at: lastSceneTime)
        }
      }
      if isPaused {
        if screenshotPending {
          screenshotPending = false
          try saveScreenshot(canvas, path: nextScreenshotPath())
        }
        display.wait(seconds: interval)
        continue
      }
      if !isVisible {
        // Hidden or minimised: the scene keeps taking its motion, nothing is drawn.
        display.wait(seconds: interval)
        statistics.hiddenFrames += 1
        if let frame = link.tick(presentedAt: sceneTime(display.now())) { try content.idle(frame) }
        lastSceneTime = sceneTime(display.now())
        continue
      }
      if capSleeps {
        let now = display.now()
        let slack = display.isVsynced ? 0.5 / display.refreshRate : 0
        display.wait(seconds: nextDue - slack - now)
        nextDue = max(nextDue + interval, display.now() - interval)
      }
      guard var frame = link.tick(presentedAt: lastSceneTime) else { continue }
      let next = try display.canvas(reusing: canvas)
      if next !== canvas {
        // A new buffer holds nothing of the last frame.
        canvas = next
        forceDraw = true
      }
      var timedShot = false
      if !timedScreenshotDone, let at = options.screenshotAt,
        frame.targetTimestamp >= options.startTime + at - 1e-9
      {
        // Snap this frame to the requested time so the screenshot matches an offline render.
        frame = DisplayLinkFrame(
          index: frame.index, timestamp: frame.timestamp,
          targetTimestamp: options.startTime + at)
        timedShot = true
        timedScreenshotDone = true
      }
      let renderStart = display.now()
      drawEstimate = max(drawEstimate * 0.97, 0)
      let mustShow = forceDraw || showHUD || timedShot || screenshotPending
      try content.render(frame, into: canvas, force: mustShow)
      forceDraw = false
      renderMilliseconds = (display.now() - renderStart) * 1000
      if !mustShow && !content.lastRenderChangedCanvas {
        // Nothing changed: keep the frame on screen, wait for the next one.
        unchangedFrames += 1
        statistics.unchangedFrames += 1
        if !capSleeps { display.wait(seconds: interval) }
        lastSceneTime = sceneTime(display.now())
        statistics.resetInterval()
        renderedFrames += 1
        if let limit = options.frameLimit, renderedFrames >= limit { return }
        continue
      }
      if showHUD {
        var lines = [
          String(
            format: "%.1f fps  frame %.1f ms  ", statistics.medianFramesPerSecond,
            renderMilliseconds) + display.displayName,
          String(format: "t %.2f s  frame %d", frame.targetTimestamp, frame.index),
        ]
        lines += content.hudLines(at: frame.targetTimestamp)
        canvas.drawHUD(lines: lines)
      }
      var shots: [String] = []
      if timedShot { shots.append(options.screenshotPath ?? nextScreenshotPath()) }
      if screenshotPending {
        screenshotPending = false
        shots.append(nextScreenshotPath())
      }
      let presentTime: Double
      if shots.isEmpty {
        presentTime = try display.present(canvas, readBack: nil)
      } else {
        presentTime = try display.present(canvas) { w, h, stride, bytes in
          for path in shots {
            try LiveCanvas.writePNG(
              pixels: bytes, width: w, height: h, bytesPerRow: stride, to: path)
            self.screenshots.append(path)
            self.onMessage("screenshot: \(path)")
          }
        }
      }
      statistics.recordPresent(at: presentTime)
      if latchLate {
        drawEstimate = max(drawEstimate, renderMilliseconds / 1000)
        if let previous = previousPresent, presentTime - previous > 1.5 * interval {
          latchMargin = min(latchMargin + 0.002, interval)
        } else {
          latchMargin = max(latchMargin - 0.00005, 0.003)
        }
        previousPresent = presentTime
      }
      // Samples that arrived before the first frame was on screen waited for the window to
      // open, not for the loop: latencies count from the second frame on.
      let latencies = content.motionLatencies(presentedAt: monotonicSeconds())
      if renderedFrames > 0 { statistics.recordLatencies(latencies) }
      lastSceneTime = sceneTime(presentTime)
      renderedFrames += 1
      if let limit = options.frameLimit, renderedFrames >= limit { return }
      if latchLate {
        // Start the next frame as late as its drawing allows (at most a frame interval on).
        let lead = min(drawEstimate * 1.5 + latchMargin, interval)
        display.wait(seconds: presentTime + interval - lead - display.now())
      }
    }
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

/// Seconds on the system's monotonic clock (`CLOCK_MONOTONIC`), the clock motion-sample arrival
/// times are taken on (`MotionSamples`), so latencies can be measured across threads.
///
/// - Returns: Seconds since an arbitrary origin.
public func monotonicSeconds() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}
