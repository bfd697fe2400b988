import SwellTime

/// One display-link callback's timing, as `CADisplayLink` reports it.
public struct DisplayLinkFrame: Hashable, Sendable {
  /// The index of the frame since the link started (0 first).
  public var index: Int
  /// When the last frame was displayed, seconds.
  public var timestamp: Double
  /// When the frame being prepared will be displayed, seconds; animate to this time.
  public var targetTimestamp: Double

  /// Creates a frame.
  ///
  /// - Parameters:
  ///   - index: The frame index.
  ///   - timestamp: Seconds.
  ///   - targetTimestamp: Seconds.
  public init(index: Int, timestamp: Double, targetTimestamp: Double) {
    self.index = index
    self.timestamp = timestamp
    self.targetTimestamp = targetTimestamp
  }

  /// The time between refreshes, seconds: `targetTimestamp − timestamp`.
  public var duration: Double { targetTimestamp - timestamp }
}

/// A frame clock like `CADisplayLink`: it calls back once per display refresh with the time of
/// the last frame (`timestamp`) and of the frame being prepared (`targetTimestamp`).
///
/// Three ways to drive it:
/// - **offline**: ``offlineFrames(count:)`` steps exact timestamps `start + i / rate`, for
///   rendering to files and for tests (the same values at 60 and 120 fps at shared times);
/// - **external vsync**: ``tick(presentedAt:)`` with the time a frame was presented (SDL's
///   vsync), for a live window;
/// - **clock**: ``run(clock:frames:handler:)-(MonotonicClock,_,_)`` sleeps on an injected clock between frames.
///
/// Logic never reads the wall clock: times come from the caller or the injected clock.
public struct DisplayLink: Sendable {
  /// The state of a display link.
  public enum State: Hashable, Sendable {
    /// Created, no frame yet.
    case idle
    /// Delivering frames.
    case running
    /// Suspended by ``isPaused``; frames are skipped but time goes on.
    case paused
    /// Stopped for good by ``invalidate()``.
    case invalidated
  }

  /// The preferred frame rate, frames per second (`preferredFramesPerSecond`); positive.
  public var preferredFramesPerSecond: Double {
    didSet {
      precondition(preferredFramesPerSecond > 0, "preferredFramesPerSecond must be positive")
    }
  }
  /// The time of the first frame, seconds.
  public let startTime: Double
  /// The current state.
  public private(set) var state: State = .idle
  /// The last frame delivered, or `nil` before the first.
  public private(set) var lastFrame: DisplayLinkFrame?
  private var nextIndex = 0
  private var lastPresent: Double?

  /// Creates a display link.
  ///
  /// - Parameters:
  ///   - preferredFramesPerSecond: Frames per second, positive (default 60).
  ///   - startTime: The time of frame 0, seconds (default 0).
  public init(preferredFramesPerSecond: Double = 60, startTime: Double = 0) {
    precondition(
      preferredFramesPerSecond > 0 && preferredFramesPerSecond.isFinite,
      "preferredFramesPerSecond must be positive")
    self.preferredFramesPerSecond = preferredFramesPerSecond
    self.startTime = startTime
  }

  /// The time between refreshes, seconds, at the preferred rate (`duration`).
  public var duration: Double { 1 / preferredFramesPerSecond }

  /// The last frame's `timestamp`, or `startTime` before the first frame.
  public var timestamp: Double { lastFrame?.timestamp ?? startTime }

  /// The last frame's `targetTimestamp`, or `startTime` before the first frame.
  public var targetTimestamp: Double { lastFrame?.targetTimestamp ?? startTime }

  /// Whether callbacks are suspended (`isPaused`); setting it moves between running and paused.
  public var isPaused: Bool {
    get { state == .paused }
    set {
      guard state != .invalidated else { return }
      state = newValue ? .paused : (lastFrame == nil ? .idle : .running)
    }
  }

  /// Stops the link for good.
  public mutating func invalidate() { state = .invalidated }

  /// The frame with an exact index: `timestamp = start + (i − 1)/rate`,
  /// `targetTimestamp = start + i/rate`, so frame 0 targets `startTime`.
  ///
  /// - Parameter index: The frame index.
  /// - Returns: The frame.
  public func frame(at index: Int) -> DisplayLinkFrame {
    let target = startTime + Double(index) / preferredFramesPerSecond
    return DisplayLinkFrame(index: index, timestamp: target - duration, targetTimestamp: target)
  }

  /// Steps offline: returns the next exact frame (see ``frame(at:)``), or `nil` when paused or
  /// invalidated.
  ///
  /// - Returns: The frame to render.
  public mutating func step() -> DisplayLinkFrame? {
    guard state == .idle || state == .running else { return nil }
    let f = frame(at: nextIndex)
    nextIndex += 1
    state = .running
    lastFrame = f
    return f
  }

  /// The first `count` offline frames (exact timestamps) from the current position.
  ///
  /// - Parameter count: How many frames.
  /// - Returns: The frames, in order.
  public mutating func offlineFrames(count: Int) -> [DisplayLinkFrame] {
    var out: [DisplayLinkFrame] = []
    out.reserveCapacity(max(count, 0))
    for _ in 0..<max(count, 0) {
      guard let f = step() else { break }
      out.append(f)
    }
    return out
  }

  /// Advances on an externally presented frame (vsync): the last frame was shown at
  /// `presentTime`; the next one targets `presentTime + interval`, where the interval is the
  /// measured present interval when it is plausible (between ¼ and 4 preferred durations),
  /// else the preferred duration.
  ///
  /// **Targets strictly increase.** After a late frame the measured interval is long, so that
  /// frame targets far ahead; when the next present then comes on time, `presentTime +
  /// interval` can fall at or before the previous target. The target is then the previous
  /// target plus a quarter of the preferred duration: animation time never stands still or
  /// runs backward, and it meets the display's times again within a few frames.
  ///
  /// - Parameter presentTime: When the last frame was presented, seconds on the caller's clock.
  /// - Returns: The frame to prepare, or `nil` when paused or invalidated.
  public mutating func tick(presentedAt presentTime: Double) -> DisplayLinkFrame? {
    defer { lastPresent = presentTime }
    guard state == .idle || state == .running else { return nil }
    var interval = duration
    if let last = lastPresent {
      let measured = presentTime - last
      if measured > 0.25 * duration && measured < 4 * duration { interval = measured }
    }
    var target = presentTime + interval
    if let previous = lastFrame?.targetTimestamp, !(target > previous) {
      target = previous + 0.25 * duration
    }
    let f = DisplayLinkFrame(
      index: nextIndex, timestamp: presentTime, targetTimestamp: target)
    nextIndex += 1
    state = .running
    lastFrame = f
    return f
  }

  /// Drives the link from a clock: sleeps until each frame's target time and calls `handler`
  /// with it, for `frames` frames or until the task is cancelled or the handler returns `false`.
  ///
  /// Frame 0 is due at once (the clock's time when the run starts); frame n is due
  /// `targetTimestamp(n) − startTime` seconds later.
  ///
  /// - Parameters:
  ///   - clock: The clock to sleep on (a `ManualMonotonicClock`'s in tests).
  ///   - frames: The largest number of frames to deliver (`nil` for no limit).
  ///   - handler: Called with each frame; return `false` to stop.
  /// - Throws: `CancellationError` when the task is cancelled while sleeping.
  public mutating func run(
    clock: MonotonicClock, frames: Int? = nil, handler: (DisplayLinkFrame) async -> Bool
  ) async throws {
    let origin = clock.now()
    var delivered = 0
    while state != .invalidated {
      if let limit = frames, delivered >= limit { return }
      let next = frame(at: nextIndex)
      try await clock.sleep(until: origin + (next.targetTimestamp - startTime))
      nextIndex += 1
      if state == .paused { continue }
      state = .running
      lastFrame = next
      delivered += 1
      if await !handler(next) { return }
    }
  }

  /// The same run on a Swift `Clock` (a `MonotonicClock` wrapping it), whose instant at
  /// the call is time zero.
  ///
  /// - Parameters:
  ///   - clock: The clock to sleep on.
  ///   - frames: The largest number of frames to deliver (`nil` for no limit).
  ///   - handler: Called with each frame; return `false` to stop.
  /// - Throws: `CancellationError` when the task is cancelled while sleeping.
  public mutating func run<C: Clock>(
    clock: C, frames: Int? = nil, handler: (DisplayLinkFrame) async -> Bool
  ) async throws where C.Duration == Duration {
    try await run(clock: MonotonicClock(clock), frames: frames, handler: handler)
  }
}
