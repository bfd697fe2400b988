import Foundation
import Synchronization

/// A ``MotionSource`` replaying a loaded recording: raw samples (to be fused) or device motion.
///
/// Replayed either as fast as possible, or at recorded speed: event *i* is returned when the
/// injected clock has advanced `tᵢ − t₀` seconds past the first call to ``next()``, so tests pace
/// it with a manual clock and live views with `ContinuousClock`.
public final class RecordingSource: MotionSource {
  /// A short name, `recording:NAME`.
  public let name: String
  /// True when the recording carries magnetometer readings.
  public let hasMagnetometer: Bool
  private let events: [MotionEvent]
  private let times: [Double]
  private let index = Mutex(0)
  /// Sleeps until a given offset after the first event's release (nil: as fast as possible).
  private let sleeper: (@Sendable (Duration) async throws -> Void)?

  /// Creates a source replaying a recording as fast as possible.
  ///
  /// - Parameter recording: The recording.
  public init(_ recording: MotionRecording) {
    name = "recording:\(recording.name)"
    hasMagnetometer = recording.hasMagnetometer
    events = recording.events
    times = events.map(Self.timestamp)
    sleeper = nil
  }

  /// Creates a source replaying a recording at recorded speed on a clock.
  ///
  /// - Parameters:
  ///   - recording: The recording.
  ///   - clock: The clock that paces the replay (e.g. `ContinuousClock()`, or a manual clock in
  ///     tests).
  public init<C: Clock<Duration>>(_ recording: MotionRecording, pacedBy clock: C) {
    name = "recording:\(recording.name)"
    hasMagnetometer = recording.hasMagnetometer
    events = recording.events
    times = events.map(Self.timestamp)
    let start = Mutex<C.Instant?>(nil)
    sleeper = { offset in
      let origin = start.withLock { s -> C.Instant in
        if let s { return s }
        let now = clock.now
        s = now
        return now
      }
      try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil)
    }
  }

  private static func timestamp(_ e: MotionEvent) -> Double {
    switch e {
    case .sample(let s): s.timestamp
    case .deviceMotion(let m): m.timestamp
    }
  }

  /// The number of events in the recording.
  public var count: Int { events.count }

  /// Returns the next event, waiting for its time when paced; `nil` after the last one.
  ///
  /// - Returns: The next sample or device motion.
  /// - Throws: `CancellationError` when the waiting task is cancelled.
  public func next() async throws -> MotionEvent? {
    let i: Int? = index.withLock { i in
      guard i < events.count else { return nil }
      defer { i += 1 }
      return i
    }
    guard let i else { return nil }
    if let sleeper, let first = times.first {
      try await sleeper(.seconds(times[i] - first))
    }
    return events[i]
  }
}
