import SwellGeometry
import SwellMotion

/// The viewer offset from device attitude, as the system computes it for motion effects
/// (UIKit's `_UIMotionEffectEngine` with its `_UIMotionAttitudeAnalyzer`; the constants and
/// control flow below were measured from the iOS 26.1 UIKit binary, build 23B85).
///
/// Feed it attitude samples with their timestamps (``receive(_:)``), and call
/// ``advance(to:)`` on every display-link frame; when the engine's own cadence says an
/// application is due and the offset moved past the dead-band, it returns the offset to apply
/// (give it to ``MotionEffectApplicator/apply(_:to:)``).
///
/// - **Offset** (`_UIMotionAttitudeAnalyzer _currentRawOffset:`): the elevation of the device's x and y axes out of the neutral screen
///   plane over 90°: linear in angle, ±1 at 90°.
/// - **Neutral pose** (`_updateReferenceAttitude:timestamp:`): the first sample; the reference then turns toward the device at
///   ω(θ) = 0.03 + 0.15·θ/π rad/s (a 20° tilt held still re-centres in about 9 s). An idle
///   analyzer flips its reference past 135°.
/// - **Smoothing and directional lock** (`_updateSmoothedOffsetForRawOffset:`): no smoothing by default; the lock holds
///   the vertical output while the motion is mostly horizontal, and the reverse.
/// - **Stale-stream guard** (`_UIMotionEffectEngine`): after ≥ 0.25 s without samples, a movement ≥ 0.02 shifts the
///   reference instead of jumping the view.
/// - **Cadence** (`_UIMotionEffectEngine`'s display link; `UIMotionEffectAccumulationThreshold`): 30 applications per second on a phone (32 above 60 Hz, 45/48 on pad
///   and Mac), 5 (8) when centered in slow mode; an application is skipped while the offset is
///   within 0.015 of the last applied one (dead-band).
/// - **Reduce Motion** (`+_motionEffectsEnabled`, false while `_AXSReduceMotionEnabled()`): no updates; the applied offset is (0, 0).
///
/// Time comes only from the samples and frames it is given; it never reads a clock.
public struct ViewerOffsetEngine: Hashable, Sendable {
  /// The constants; changing them takes effect at the next sample or frame, except that turning
  /// `reduceMotion` on sets ``appliedOffset`` to (0, 0) at once: a view whose Reduce Motion is
  /// turned on shows what it shows when it was on from the start (UIKit's engine stops
  /// generating updates and applies the pose (0, 0) to effects it begins applying; what it
  /// shows for effects already applied is not documented, so this is Swell's choice).
  public var configuration: Configuration {
    didSet {
      analyzer.configuration = configuration
      if configuration.reduceMotion && !oldValue.reduceMotion { appliedOffset = .zero }
    }
  }
  /// The attitude analyzer (neutral pose, raw and smoothed offsets, lock).
  public private(set) var analyzer: ViewerOffsetAnalyzer
  /// The offset last applied (device axes), (0, 0) before the first application.
  public private(set) var appliedOffset = ViewerOffset.zero
  /// The number of applications so far.
  public private(set) var applicationCount = 0
  /// The time of the last cadence tick, seconds.
  public private(set) var lastTickTime: Double?
  /// Whether slow mode is on (the engine's low-rate mode after 0.5 s of slow motion).
  public private(set) var isSlowMode = false
  private var lastEventTime: Double?
  private var nextTickTime: Double?
  private var slowCandidateSince: Double?

  /// Creates an engine.
  ///
  /// - Parameter configuration: The constants (default the system's).
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    analyzer = ViewerOffsetAnalyzer(configuration: configuration)
  }

  /// Forgets the neutral pose and the cadence state; the next sample becomes neutral.
  public mutating func reset() {
    self = ViewerOffsetEngine(configuration: configuration)
  }

  /// The analyzer's current offset (device axes), or (0, 0) under Reduce Motion.
  public var offset: ViewerOffset { configuration.reduceMotion ? .zero : analyzer.offset }

  /// Whether an offset counts as centered: |h| and |v| below
  /// ``Configuration/centeredThreshold``.
  ///
  /// - Parameter o: The offset.
  /// - Returns: Whether it is centered.
  public func isCentered(_ o: ViewerOffset) -> Bool {
    abs(o.horizontal) < configuration.centeredThreshold
      && abs(o.vertical) < configuration.centeredThreshold
  }

  /// The current application rate, per second (the display link's preferred rate).
  public var applicationRate: Double {
    configuration.applicationRate(
      centeredSlow: configuration.isSlowModeEnabled && isSlowMode && isCentered(offset))
  }

  /// Takes a device-motion sample (only its timestamp and attitude are used, like the system's
  /// event provider, `_UIMotionEffectCoreMotionEventProvider`, whose events carry only the
  /// timestamp and the attitude quaternion).
  ///
  /// - Parameter motion: The sample.
  public mutating func receive(_ motion: DeviceMotion) {
    receive(attitude: motion.attitude, timestamp: motion.timestamp)
  }

  /// Takes an attitude sample.
  ///
  /// - Parameters:
  ///   - attitude: Device → reference attitude.
  ///   - timestamp: Seconds; samples that are not later than the previous one, or not finite,
  ///     are ignored.
  public mutating func receive(attitude: Attitude, timestamp: Double) {
    guard !configuration.reduceMotion, timestamp.isFinite else { return }
    if let last = lastEventTime, timestamp <= last { return }
    let q = attitude.quaternion
    guard q.isFinite, q.norm > 1e-9 else { return }
    let before = analyzer.offset
    if let last = lastEventTime, timestamp - last >= configuration.staleStreamInterval,
      let previous = analyzer.attitude, let ref = analyzer.referenceAttitude
    {
      let moved = ViewerOffsetAnalyzer.rawOffset(of: q, relativeTo: ref)
        .distance(to: analyzer.rawOffset)
      if moved >= configuration.staleStreamMovement {
        analyzer.holdPose(at: q, previousAttitude: previous)
      }
    }
    guard analyzer.update(attitude: q, timestamp: timestamp) else { return }
    if let last = lastEventTime {
      updateSlowMode(
        speed: analyzer.offset.distance(to: before) / (timestamp - last), at: timestamp)
    }
    lastEventTime = timestamp
  }

  private mutating func updateSlowMode(speed: Double, at time: Double) {
    let s2 = speed * speed
    if s2 > configuration.slowModeExitSquaredSpeed {
      isSlowMode = false
      slowCandidateSince = nil
    } else if s2 < configuration.slowModeEntrySquaredSpeed {
      let since = slowCandidateSince ?? time
      slowCandidateSince = since
      if time - since >= configuration.slowModeDelay { isSlowMode = true }
    } else {
      slowCandidateSince = nil
    }
  }

  /// Runs the engine at a display-link frame: when a cadence tick is due and the offset moved at
  /// least the dead-band from the last applied value (or nothing was applied yet), the offset
  /// becomes the applied one.
  ///
  /// - Parameter time: The frame's time (target timestamp), seconds, increasing.
  /// - Returns: The offset to apply (device axes), or `nil` when nothing changes this frame.
  public mutating func advance(to time: Double) -> ViewerOffset? {
    guard time.isFinite else { return nil }
    let interval = 1 / applicationRate
    if let last = lastTickTime {
      // A rate change moves the next tick no later than one new interval after the last.
      let due = min(nextTickTime ?? last + interval, last + interval)
      guard time >= due - 1e-9 else { return nil }
      // Keep the link's phase; re-anchor when more than one interval behind.
      nextTickTime = due + interval <= time ? time + interval : due + interval
    } else {
      nextTickTime = time + interval
    }
    lastTickTime = time
    let candidate = offset
    guard candidate.isFinite else { return nil }
    if applicationCount > 0 {
      if configuration.reduceMotion {
        guard candidate != appliedOffset else { return nil }
      } else {
        guard candidate.distance(to: appliedOffset) >= configuration.deadBand else { return nil }
      }
    }
    appliedOffset = candidate
    applicationCount += 1
    return candidate
  }
}
