/// When a live loop starts, draws and waits, as a value: times and events go in (a frame begins,
/// was drawn, was presented, was unchanged; pause, resume, hide, show), decisions come out (when
/// to start the next frame, how long to wait, the scene time a frame is for). ``LiveLoop`` is
/// its driver: it reads the display's clock, waits, draws and presents, and asks this value
/// everything else, so the pacing rules are tested on times alone, without a display or a wait.
///
/// Three ways of pacing, fixed when the loop starts:
/// - **Presents pace the loop** (a vsynced display at the target rate): a frame starts right
///   after the previous present, which waited for the display's refresh.
/// - **A frame cap** (no vsync, or a target below 95 % of the refresh rate): frames are due on a
///   grid of the target interval; the loop waits until a frame is due (half a refresh early on a
///   vsynced display, so the present catches the refresh it is due at). A frame that starts late
///   moves the grid, so the loop never bursts to catch up.
/// - **Late latching** (live motion on a vsynced display at the refresh rate): after a present
///   the loop waits until the next refresh minus a lead, so the frame carries the newest samples.
///   The lead is 1.5 × the drawing time seen lately (a maximum that decays by 3 % a frame) plus a
///   margin that grows by 2 ms when a present is late (more than 1.5 intervals after the
///   previous one) and shrinks by 0.05 ms a frame on time, between 3 ms and one interval.
///
/// ```
///            beginFrame            presented (late latching)
///   ready ───────────────▶ drawing ─────────────────────────▶ latching(until:)
///     ▲                      │  presented / unchanged               │ beginFrame
///     └──────────────────────┘◀─────────────────────────────────────┘
///   pause ▶ paused(since:) ── resume ──▶ ready        hide ▶ hidden ── show ──▶ ready
/// ```
///
/// Scene time is the display's clock minus the time spent paused, starting one interval before
/// `startTime` (the first tick's frame is for `startTime`).
public struct LivePacing: Sendable, Equatable {
  /// Where the loop is.
  public enum Phase: Sendable, Equatable {
    /// Between frames: the next one may start at ``LivePacing/frameStart(now:)``.
    case ready
    /// Drawing a frame that began at a time on the display's clock.
    case drawing(since: Double)
    /// Presented; with late latching the next frame starts at `until`.
    case latching(until: Double)
    /// Paused (scene time stands still) since a time on the display's clock.
    case paused(since: Double)
    /// The window cannot be seen: nothing is drawn, scene time runs on.
    case hidden
  }

  /// How the loop is paced (see the type's discussion).
  public enum Mode: Sendable, Equatable {
    /// Presents wait for the refresh and pace the loop.
    case presents
    /// The loop waits for each frame's due time on a grid of the target interval.
    case frameCap
    /// Presents pace the loop, and each frame starts as late before its refresh as its drawing
    /// allows.
    case lateLatching
  }

  /// The target interval between frames, seconds.
  public let interval: Double
  /// How the loop is paced.
  public let mode: Mode
  /// With a frame cap, how early before its due time a frame may start, seconds (half a
  /// refresh on a vsynced display, else 0).
  public let slack: Double
  /// The scene time of the first frame, seconds.
  public let startTime: Double
  /// The display's time when the loop started, seconds.
  public let origin: Double

  private var framePhase = Phase.ready
  private var pausedSince: Double?
  private var visible = true
  private var pausedTotal = 0.0
  private var nextDue: Double
  /// The scene time the next frame's display-link tick is taken at, seconds.
  public private(set) var frameTime: Double
  /// Late latching: the decaying maximum of the drawing time, seconds.
  public private(set) var drawEstimate = 0.0
  /// Late latching: the margin added to the lead, seconds.
  public private(set) var latchMargin = 0.004
  /// Late latching: presents that came more than 1.5 intervals after the previous one.
  public private(set) var latePresents = 0
  private var previousPresent: Double?

  /// Creates the pacing of a loop.
  ///
  /// - Parameters:
  ///   - framesPerSecond: The target rate, frames per second (positive).
  ///   - refreshRate: The display's refresh rate, Hz.
  ///   - vsynced: Whether presents wait for the refresh.
  ///   - latchesLate: Whether the content shows live motion (late latching when the display is
  ///     vsynced at the target rate).
  ///   - startTime: The scene time of the first frame, seconds.
  ///   - origin: The display's clock when the loop starts, seconds.
  public init(
    framesPerSecond: Double, refreshRate: Double, vsynced: Bool, latchesLate: Bool,
    startTime: Double, origin: Double
  ) {
    let rate = framesPerSecond > 0 && framesPerSecond.isFinite ? framesPerSecond : 60
    interval = 1 / rate
    let capped = !vsynced || rate < 0.95 * refreshRate
    mode = capped ? .frameCap : (latchesLate ? .lateLatching : .presents)
    slack = capped && vsynced && refreshRate > 0 ? 0.5 / refreshRate : 0
    self.startTime = startTime
    self.origin = origin
    nextDue = origin
    frameTime = startTime - interval
  }

  /// The current phase: paused before hidden, hidden before the frame's own phase.
  public var phase: Phase {
    if let since = pausedSince { return .paused(since: since) }
    if !visible { return .hidden }
    return framePhase
  }

  /// The scene time at a time of the display's clock: the clock minus the time spent paused,
  /// one interval before ``startTime`` at ``origin``.
  ///
  /// - Parameter live: The display's clock, seconds.
  /// - Returns: Scene seconds.
  public func sceneTime(at live: Double) -> Double {
    startTime - interval + (live - origin - pausedTotal)
  }

  // MARK: Events

  /// Pauses (space): scene time stops.
  ///
  /// - Parameter now: The display's clock, seconds.
  public mutating func pause(at now: Double) {
    if pausedSince == nil { pausedSince = now }
  }

  /// Resumes: the time spent paused is taken out of scene time.
  ///
  /// - Parameter now: The display's clock, seconds.
  public mutating func resume(at now: Double) {
    guard let since = pausedSince else { return }
    pausedTotal += now - since
    pausedSince = nil
    framePhase = .ready
  }

  /// The window was hidden or shown.
  ///
  /// - Parameter isVisible: Whether it can be seen now.
  /// - Returns: True when it became visible again (the next frame must be drawn in full, and
  ///   the interval since the last present is not a dropped frame).
  public mutating func setVisible(_ isVisible: Bool) -> Bool {
    let shown = isVisible && !visible
    visible = isVisible
    if shown { framePhase = .ready }
    return shown
  }

  // MARK: Decisions

  /// While paused or hidden: the time to wait until before looking at events again (one
  /// interval on), else `nil`.
  ///
  /// - Parameter now: The display's clock, seconds.
  /// - Returns: The time on the display's clock, or `nil` when frames are being drawn.
  public func inactiveWait(now: Double) -> Double? {
    switch phase {
    case .paused, .hidden: now + interval
    default: nil
    }
  }

  /// A hidden frame time passed: the scene takes its motion up to the returned time without
  /// drawing.
  ///
  /// - Parameter now: The display's clock after the wait, seconds.
  /// - Returns: The scene time to move the content to.
  public mutating func hiddenFramePassed(at now: Double) -> Double {
    frameTime = sceneTime(at: now)
    return frameTime
  }

  /// When the next frame may start: its due time on the frame-cap grid (less the slack), or
  /// `now` when presents pace the loop.
  ///
  /// - Parameter now: The display's clock, seconds.
  /// - Returns: The time to wait until, on the display's clock.
  public func frameStart(now: Double) -> Double {
    mode == .frameCap ? nextDue - slack : now
  }

  /// A frame begins (after waiting for ``frameStart(now:)``): the frame-cap grid moves on one
  /// interval, or to one interval before `now` when the frame started that late; the drawing
  /// estimate decays.
  ///
  /// - Parameter now: The display's clock when drawing begins, seconds.
  public mutating func beginFrame(at now: Double) {
    if mode == .frameCap { nextDue = max(nextDue + interval, now - interval) }
    drawEstimate = max(drawEstimate * 0.97, 0)
    framePhase = .drawing(since: now)
  }

  /// The frame was drawn but nothing changed, so it is not presented: wait one interval (unless
  /// the frame cap already waits) and call ``frameSkipped(at:)``.
  ///
  /// - Parameter now: The display's clock, seconds.
  /// - Returns: The time to wait until, on the display's clock.
  public func unchangedWait(now: Double) -> Double {
    mode == .frameCap ? now : now + interval
  }

  /// An unchanged frame's time passed: the next frame ticks from the scene time at `now`.
  ///
  /// - Parameter now: The display's clock after the wait, seconds.
  public mutating func frameSkipped(at now: Double) {
    frameTime = sceneTime(at: now)
    framePhase = .ready
  }

  /// A frame was presented.
  ///
  /// - Parameters:
  ///   - time: When, on the display's clock, seconds.
  ///   - drawSeconds: How long drawing it took, seconds.
  /// - Returns: With late latching, the time the next frame starts (the next refresh minus the
  ///   lead); else `nil` (start at once, or at the frame cap's due time).
  public mutating func presented(at time: Double, drawSeconds: Double) -> Double? {
    frameTime = sceneTime(at: time)
    guard mode == .lateLatching else {
      framePhase = .ready
      return nil
    }
    drawEstimate = max(drawEstimate, drawSeconds)
    if let previous = previousPresent, time - previous > 1.5 * interval {
      latchMargin = min(latchMargin + 0.002, interval)
      latePresents += 1
    } else {
      latchMargin = max(latchMargin - 0.00005, 0.003)
    }
    previousPresent = time
    let start = time + interval - latchLead
    framePhase = .latching(until: start)
    return start
  }

  /// Late latching: how long before its refresh a frame starts, seconds (1.5 × the drawing
  /// estimate plus the margin, at most one interval).
  public var latchLead: Double { min(drawEstimate * 1.5 + latchMargin, interval) }
}
