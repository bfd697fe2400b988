import Foundation
import SwellTime
import Synchronization

/// A ``MotionSource`` replaying a recording: raw samples (to be fused) or device motion.
///
/// Three kinds of recording:
/// - one loaded in memory (``init(_:loops:)``, any ``MotionRecording``);
/// - a raw IMU or device-motion CSV file **streamed** from disk (`init(contentsOf:loops:)`, in
///   `SwellRecordings`): it holds about 1 MiB of the file whatever the recording's length, so a
///   day of 200 Hz samples replays in constant memory (other formats, Sensor Logger and phyphox
///   exports, are loaded whole);
/// - with ``loops``, the recording starts again when it ends: pass *k* is shifted by *k* times
///   the period (the recording's span plus its mean sample interval), so time keeps increasing.
///
/// Replayed either as fast as possible, or at recorded speed (`init(_:pacedBy:)`): event *i*
/// is returned when the injected clock has advanced `tᵢ − t₀` seconds past the first call to
/// ``next()`` (of the current pass), so tests pace it with a `ManualMonotonicClock` and live
/// views with `MonotonicClock/continuous`.
///
/// **Stop and restart.** ``stop()`` ends the replay; ``restart()`` (which ``MotionManager`` calls
/// when updates start again after a stop) replays the recording **from its first event**, with
/// the pacing started afresh: one rule, whether the replay had ended or was stopped halfway. A
/// replay has no time of its own to resume at, so each run of the manager gets the whole
/// recording.
public final class RecordingSource: MotionSource {
  /// A short name, `recording:NAME`.
  public let name: String
  /// True when the recording carries magnetometer readings.
  public let hasMagnetometer: Bool
  /// False when every raw sample's gyroscope is exactly zero (a device without one).
  public let hasGyroscope: Bool
  /// True for raw samples, false for device motion.
  public let providesRawSamples: Bool
  /// For a device-motion recording, the frame its attitudes are in; `nil` for raw samples.
  public let deviceMotionReferenceFrame: AttitudeReferenceFrame?
  /// The timestamps of the first and last events of one pass, seconds (`nil` when empty).
  public let timeSpan: ClosedRange<Double>?
  /// Whether the recording starts again when it ends.
  public let loops: Bool

  private enum Storage {
    case memory([MotionEvent])
    /// Events read by a reader opened afresh for every pass.
    case stream(@Sendable () throws(RecordingError) -> any RecordingEventReader)
  }

  private struct State {
    var index = 0
    var reader: (any RecordingEventReader)?
    var pass = 0
    /// Events in the current pass (to find the period after the first pass).
    var countInPass = 0
    var period: Double?
    var stopped = false
    /// For a paced replay, the clock's time at the pass's first ``next()``.
    var origin: Double?
  }

  private let storage: Storage
  private let state: Mutex<State>
  /// The clock that paces the replay (nil: as fast as possible).
  private let pacing: MonotonicClock?

  /// Creates a source replaying a recording as fast as possible.
  ///
  /// - Parameters:
  ///   - recording: The recording.
  ///   - loops: Start again when it ends (default false).
  public convenience init(_ recording: MotionRecording, loops: Bool = false) {
    self.init(recording, loops: loops, pacing: nil)
  }

  /// Creates a source replaying a recording at recorded speed on a clock.
  ///
  /// - Parameters:
  ///   - recording: The recording.
  ///   - clock: The clock that paces the replay (`MonotonicClock/continuous`, or a
  ///     `ManualMonotonicClock`'s in tests).
  public convenience init(_ recording: MotionRecording, pacedBy clock: MonotonicClock) {
    self.init(recording, loops: false, pacing: clock)
  }

  /// Creates a source replaying a recording in memory.
  ///
  /// - Parameters:
  ///   - recording: The recording.
  ///   - loops: Start again when it ends.
  ///   - pacing: The clock that paces the replay, or `nil` for as fast as possible.
  private init(_ recording: MotionRecording, loops: Bool, pacing: MonotonicClock?) {
    name = "recording:\(recording.name)"
    hasMagnetometer = recording.hasMagnetometer
    hasGyroscope = recording.hasGyroscope
    if case .deviceMotion(_, let frame) = recording.content {
      deviceMotionReferenceFrame = frame
      providesRawSamples = false
    } else {
      deviceMotionReferenceFrame = nil
      providesRawSamples = true
    }
    timeSpan = recording.timeSpan
    storage = .memory(recording.events)
    self.loops = loops
    state = Mutex(State())
    self.pacing = pacing
  }

  /// Creates a source replaying a recording at recorded speed on a Swift `Clock`.
  ///
  /// - Parameters:
  ///   - recording: The recording.
  ///   - clock: The clock that paces the replay (e.g. `ContinuousClock()`).
  public convenience init<C: Clock<Duration>>(_ recording: MotionRecording, pacedBy clock: C) {
    self.init(recording, pacedBy: MonotonicClock(clock))
  }

  /// Creates a source streaming events from a reader that is opened again for every pass (the
  /// file readers of `SwellRecordings`).
  ///
  /// - Parameters:
  ///   - name: The recording's name (the source is `recording:NAME`).
  ///   - hasMagnetometer: Whether the events carry magnetometer readings.
  ///   - hasGyroscope: False when every raw sample's gyroscope is exactly zero.
  ///   - deviceMotionReferenceFrame: The frame of fused device motion, or `nil` for raw samples.
  ///   - timeSpan: The first and last timestamps of one pass, seconds.
  ///   - loops: Start again when it ends.
  ///   - open: Opens a reader at the first event.
  /// - Throws: ``RecordingError`` when the first reader cannot be opened.
  package init(
    streaming name: String, hasMagnetometer: Bool, hasGyroscope: Bool = true,
    deviceMotionReferenceFrame: AttitudeReferenceFrame?, timeSpan: ClosedRange<Double>,
    loops: Bool,
    open: @escaping @Sendable () throws(RecordingError) -> any RecordingEventReader
  ) throws(RecordingError) {
    self.name = "recording:\(name)"
    self.hasMagnetometer = hasMagnetometer
    self.hasGyroscope = hasGyroscope
    self.deviceMotionReferenceFrame = deviceMotionReferenceFrame
    providesRawSamples = deviceMotionReferenceFrame == nil
    self.timeSpan = timeSpan
    self.loops = loops
    storage = .stream(open)
    state = Mutex(State(reader: try open()))
    pacing = nil
  }

  /// The number of events of one pass when the recording is in memory; `nil` when it is
  /// streamed from a file.
  public var count: Int? {
    if case .memory(let events) = storage { return events.count }
    return nil
  }

  /// Returns the next event, waiting for its time when paced; `nil` after the last one (or
  /// after ``stop()``).
  ///
  /// - Returns: The next sample or device motion.
  /// - Throws: ``MotionSourceError`` for a malformed row of a streamed file (naming the file,
  ///   line and column; not transient), or `CancellationError` when the waiting task is
  ///   cancelled.
  public func next() async throws -> MotionEvent? {
    let pacing = self.pacing
    let result: Result<(event: MotionEvent, due: Double?)?, RecordingError> = state.withLock {
      s in
      guard !s.stopped else { return .success(nil) }
      do throws(RecordingError) {
        guard let e = try nextEvent(&s) else { return .success(nil) }
        guard let pacing, let first = timeSpan?.lowerBound else { return .success((e.event, nil)) }
        let origin = s.origin ?? pacing.now()
        s.origin = origin
        return .success((e.event, origin + (e.offset - first)))
      } catch {
        return .failure(error)
      }
    }
    let next: (event: MotionEvent, due: Double?)?
    switch result {
    case .success(let n): next = n
    case .failure(let e): throw MotionSourceError(e.description)
    }
    guard let next else { return nil }
    if let pacing, let due = next.due {
      try await pacing.sleep(until: due)
    }
    return next.event
  }

  /// Ends the replay: later calls to ``next()`` return `nil` until ``restart()``.
  public func stop() async {
    state.withLock { $0.stopped = true }
  }

  /// Replays the recording again from its first event (pass 0, the pacing started afresh at
  /// the next ``next()``), whether it had ended or was stopped halfway.
  ///
  /// - Throws: ``MotionSourceError`` when a streamed file cannot be opened again.
  public func restart() async throws {
    let failure: RecordingError? = state.withLock { s in
      var fresh: (any RecordingEventReader)?
      if case .stream(let open) = storage {
        do throws(RecordingError) {
          fresh = try open()
        } catch {
          return error
        }
      }
      let period = s.period
      s = State(reader: fresh)
      s.period = period
      return nil
    }
    if let failure { throw MotionSourceError(failure.description) }
  }

  /// The next event of the current pass, starting a new pass at the end when looping; the
  /// event's time shifted by the passes so far.
  private func nextEvent(_ s: inout State) throws(RecordingError) -> (
    event: MotionEvent, offset: Double
  )? {
    for _ in 0..<2 {
      if let event = try rawNext(&s) {
        s.countInPass += 1
        let shift = Double(s.pass) * (s.period ?? 0)
        let shifted = shift == 0 ? event : event.shifted(by: shift)
        return (shifted, shifted.timestamp)
      }
      guard loops, s.countInPass > 0 else { return nil }
      if s.period == nil {
        let n = Double(s.countInPass)
        if let span = timeSpan, span.upperBound > span.lowerBound, n > 1 {
          s.period = (span.upperBound - span.lowerBound) * n / (n - 1)
        } else {
          s.period = 0.01
        }
      }
      s.pass += 1
      s.countInPass = 0
      s.index = 0
      if case .stream(let open) = storage {
        s.reader = try open()
      }
    }
    return nil
  }

  private func rawNext(_ s: inout State) throws(RecordingError) -> MotionEvent? {
    switch storage {
    case .memory(let events):
      guard s.index < events.count else { return nil }
      defer { s.index += 1 }
      return events[s.index]
    case .stream:
      return try s.reader?.next()
    }
  }
}

/// Reads a recording's events one by one (a file streamed block by block).
package protocol RecordingEventReader {
  /// The next event, or `nil` at the end.
  ///
  /// - Returns: The event.
  /// - Throws: ``RecordingError`` naming the file, line and column of a malformed row.
  mutating func next() throws(RecordingError) -> MotionEvent?
}

extension MotionEvent {
  /// The event's timestamp, seconds.
  public var timestamp: Double {
    switch self {
    case .sample(let s): s.timestamp
    case .deviceMotion(let m): m.timestamp
    }
  }

  /// The same event with its timestamp moved by `seconds`.
  ///
  /// - Parameter seconds: The shift, seconds.
  /// - Returns: The shifted event.
  public func shifted(by seconds: Double) -> MotionEvent {
    switch self {
    case .sample(var s):
      s.timestamp += seconds
      return .sample(s)
    case .deviceMotion(var m):
      m.timestamp += seconds
      return .deviceMotion(m)
    }
  }
}

/// A ``MotionSource`` generating scripted motion (``MotionScript``) sample by sample at a fixed
/// rate: sample *i* is the script's motion at `i / rate` (the same values as
/// ``MotionScript/samples(rate:startTime:)``, without holding them all).
public final class MotionScriptSource: MotionSource {
  /// `script`.
  public let name: String
  /// False: scripted motion has no magnetometer.
  public let hasMagnetometer = false
  /// False: the script gives fused device motion.
  public let providesRawSamples = false
  /// The script.
  public let script: MotionScript
  /// The sampling rate, Hz.
  public let rate: Double
  /// The number of samples: `⌊duration · rate⌋ + 1`.
  public let count: Int
  private let index = Mutex(0)

  /// Creates a source.
  ///
  /// - Parameters:
  ///   - script: The script.
  ///   - rate: The sampling rate, Hz (positive and finite).
  ///   - name: The source's name (default `script`).
  public init(_ script: MotionScript, rate: Double, name: String = "script") {
    precondition(rate > 0 && rate.isFinite, "rate must be positive and finite")
    self.script = script
    self.rate = rate
    self.name = name
    count = max(Int((script.duration * rate + 1e-9).rounded(.down)), 0) + 1
  }

  /// The next sample, or `nil` after the last (or after ``stop()``).
  ///
  /// - Returns: Device motion at `i / rate`.
  public func next() async throws -> MotionEvent? {
    let i: Int? = index.withLock { i in
      guard i < count else { return nil }
      defer { i += 1 }
      return i
    }
    guard let i else { return nil }
    let t = Double(i) / rate
    return .deviceMotion(script.motion(at: t, timestamp: t))
  }

  /// Ends the script: later calls to ``next()`` return `nil` until ``restart()``.
  public func stop() async {
    index.withLock { $0 = count }
  }

  /// Plays the script again from its start.
  public func restart() async throws {
    index.withLock { $0 = 0 }
  }
}
