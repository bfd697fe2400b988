import Foundation
import SwellTime
import Synchronization

/// A ``MotionSource`` replaying a recording: raw samples (to be fused) or device motion.
///
/// Three kinds of recording:
/// - one loaded in memory (``init(_:loops:)``, any ``MotionRecording``);
/// - a raw IMU or device-motion CSV file **streamed** from disk (``init(contentsOf:loops:)``):
///   it holds about 1 MiB of the file whatever the recording's length, so a day of 200 Hz
///   samples replays in constant memory (other formats, Sensor Logger and phyphox exports, are
///   loaded whole);
/// - with ``loops``, the recording starts again when it ends: pass *k* is shifted by *k* times
///   the period (the recording's span plus its mean sample interval), so time keeps increasing.
///
/// Replayed either as fast as possible, or at recorded speed (``init(_:pacedBy:)``): event *i*
/// is returned when the injected clock has advanced `tᵢ − t₀` seconds past the first call to
/// ``next()`` (of the current pass), so tests pace it with a ``ManualMonotonicClock`` and live
/// views with ``MonotonicClock/continuous``.
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
    case file(URL, isRaw: Bool)
  }

  private enum Reader {
    case raw(RawIMUCSV.Reader)
    case deviceMotion(DeviceMotionCSV.Reader)

    mutating func next() throws(RecordingError) -> MotionEvent? {
      switch self {
      case .raw(var r):
        defer { self = .raw(r) }
        return try r.next().map(MotionEvent.sample)
      case .deviceMotion(var r):
        defer { self = .deviceMotion(r) }
        return try r.next().map(MotionEvent.deviceMotion)
      }
    }
  }

  private struct State {
    var index = 0
    var reader: Reader?
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
  public init(_ recording: MotionRecording, loops: Bool = false) {
    name = "recording:\(recording.name)"
    hasMagnetometer = recording.hasMagnetometer
    let events = recording.events
    if case .deviceMotion(_, let frame) = recording.content {
      deviceMotionReferenceFrame = frame
      providesRawSamples = false
    } else {
      deviceMotionReferenceFrame = nil
      providesRawSamples = true
    }
    timeSpan = recording.timeSpan
    storage = .memory(events)
    self.loops = loops
    state = Mutex(State())
    pacing = nil
  }

  /// Creates a source replaying a recording at recorded speed on a clock.
  ///
  /// - Parameters:
  ///   - recording: The recording.
  ///   - clock: The clock that paces the replay (``MonotonicClock/continuous``, or a
  ///     ``ManualMonotonicClock``'s in tests).
  public init(_ recording: MotionRecording, pacedBy clock: MonotonicClock) {
    name = "recording:\(recording.name)"
    hasMagnetometer = recording.hasMagnetometer
    if case .deviceMotion(_, let frame) = recording.content {
      deviceMotionReferenceFrame = frame
      providesRawSamples = false
    } else {
      deviceMotionReferenceFrame = nil
      providesRawSamples = true
    }
    timeSpan = recording.timeSpan
    storage = .memory(recording.events)
    loops = false
    state = Mutex(State())
    pacing = clock
  }

  /// Creates a source replaying a recording at recorded speed on a Swift `Clock`.
  ///
  /// - Parameters:
  ///   - recording: The recording.
  ///   - clock: The clock that paces the replay (e.g. `ContinuousClock()`).
  public convenience init<C: Clock<Duration>>(_ recording: MotionRecording, pacedBy clock: C) {
    self.init(recording, pacedBy: MonotonicClock(clock))
  }

  /// Opens a recording file, folder or zip: a raw IMU or device-motion CSV is streamed from
  /// disk; any other format (``MotionRecording/load(from:)``) is loaded whole.
  ///
  /// The first sample is read here, so a file without samples, or with a bad first row, fails
  /// now with the file, line and column. The span (``timeSpan``) is read from the file's last
  /// row.
  ///
  /// - Parameters:
  ///   - url: The recording.
  ///   - loops: Start again when it ends (default false).
  /// - Throws: ``RecordingError`` naming the file (and line and column) of the problem.
  public convenience init(contentsOf url: URL, loops: Bool = false) throws(RecordingError) {
    let name = url.lastPathComponent
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw RecordingError(file: url.path, message: "no such file or folder")
    }
    if !isDirectory.boolValue, let kind = try Self.streamableKind(url) {
      try self.init(streaming: url, isRaw: kind, loops: loops)
      return
    }
    let recording = try MotionRecording.load(from: url)
    guard recording.count > 0 else {
      throw RecordingError(file: name, message: "the recording has no samples")
    }
    self.init(recording, loops: loops)
  }

  private init(streaming url: URL, isRaw: Bool, loops: Bool) throws(RecordingError) {
    name = "recording:\(url.lastPathComponent)"
    var reader: Reader
    if isRaw {
      reader = .raw(try RawIMUCSV.Reader(url: url))
      deviceMotionReferenceFrame = nil
    } else {
      let r = try DeviceMotionCSV.Reader(url: url)
      deviceMotionReferenceFrame = r.referenceFrame
      reader = .deviceMotion(r)
    }
    providesRawSamples = isRaw
    guard let first = try reader.next() else {
      throw RecordingError(file: url.lastPathComponent, message: "the recording has no samples")
    }
    switch first {
    case .sample(let s): hasMagnetometer = s.magnetometer != nil
    case .deviceMotion(let m): hasMagnetometer = m.magneticField.accuracy != .uncalibrated
    }
    let t0 = first.timestamp
    let last = try Self.lastTimestamp(url, isRaw: isRaw) ?? t0
    timeSpan = t0...max(t0, last)
    storage = .file(url, isRaw: isRaw)
    self.loops = loops
    // Reopen so that the first event is delivered by next().
    let fresh: Reader =
      isRaw
      ? .raw(try RawIMUCSV.Reader(url: url)) : .deviceMotion(try DeviceMotionCSV.Reader(url: url))
    state = Mutex(State(reader: fresh))
    pacing = nil
  }

  /// Whether a file is a raw IMU CSV (true), a device-motion CSV (false), or neither (`nil`),
  /// from its first record.
  private static func streamableKind(_ url: URL) throws(RecordingError) -> Bool? {
    var file = try CSVFileReader(url: url, fileName: url.lastPathComponent)
    guard let line = try file.nextRecord() else { return nil }
    var fields: [Range<Int>] = []
    file.scanner.split(line, into: &fields)
    let names = fields.map { file.scanner.text($0) }
    if RawIMUCSV.matches(header: names) { return true }
    if DeviceMotionCSV.matches(header: names) { return false }
    return nil
  }

  /// The time of the last row of a CSV recording, read from the end of the file (the last 64
  /// KiB); `nil` when it cannot be read there.
  private static func lastTimestamp(_ url: URL, isRaw: Bool) throws(RecordingError) -> Double? {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    defer { try? handle.close() }
    guard let size = try? handle.seekToEnd() else { return nil }
    let start = size > 65_536 ? size - 65_536 : 0
    guard (try? handle.seek(toOffset: start)) != nil,
      let data = try? handle.readToEnd()
    else { return nil }
    // Bytes, not Characters: in a String "\r\n" is one Character.
    let lines = data.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D })
    for line in lines.reversed() {
      let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
      if text.isEmpty || text.hasPrefix("#") { continue }
      let first =
        text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        .first.map(String.init) ?? ""
      return Double(first.trimmingCharacters(in: .whitespaces))
    }
    return nil
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
      var fresh: Reader?
      if case .file(let url, let isRaw) = storage {
        do throws(RecordingError) {
          fresh =
            isRaw
            ? .raw(try RawIMUCSV.Reader(url: url))
            : .deviceMotion(try DeviceMotionCSV.Reader(url: url))
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
      if case .file(let url, let isRaw) = storage {
        s.reader =
          isRaw
          ? .raw(try RawIMUCSV.Reader(url: url))
          : .deviceMotion(try DeviceMotionCSV.Reader(url: url))
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
    case .file:
      return try s.reader?.next()
    }
  }
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
