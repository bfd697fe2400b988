import Dispatch
import Foundation
import SwellGeometry
import SwellMotion
import SwellTime
import Synchronization

/// Records a live source's raw samples to a raw IMU CSV (`swell record`): every sample of the
/// source, taken through a `MotionManager` (`MotionManager/imuSamples(capacity:)`, with
/// back-pressure), written as it comes until a duration passes, a sample count is reached, the
/// source ends or ``stop()`` is called.
///
/// The duration is measured on the recorder's clock (injected; the system's monotonic clock by
/// default),
/// so it bounds the recording even when the source blocks or is slow: a timer on that clock ends
/// the sample stream, and the recorder wakes at once. Rows are flushed whenever the recorder has
/// caught up with the source, so a FIFO or standard output sees them as they come. Nothing here
/// polls or sleeps to wait for samples.
public final class MotionRecorder: Sendable {
  /// Why a recording ended.
  public enum Ending: Hashable, Sendable {
    /// The duration passed.
    case duration
    /// The sample count was reached.
    case sampleLimit
    /// The source ended.
    case sourceEnded
    /// The source failed for good (``Result/failure`` says why).
    case sourceFailed
    /// ``stop()`` was called.
    case stopped
  }

  /// What was recorded.
  public struct Result: Hashable, Sendable {
    /// Samples written.
    public var count = 0
    /// Seconds from the first sample's timestamp to the last's.
    public var span = 0.0
    /// True when every sample had a magnetometer reading (a 9D recording).
    public var allMagnetic = true
    /// Why the recording ended.
    public var ending = Ending.sourceEnded
    /// The source's final error, when it failed (the samples before it are kept).
    public var failure: String?
  }

  /// The source.
  public let source: any MotionSource
  /// Keep the source's timestamps instead of starting at 0 at the first sample.
  public let absoluteTime: Bool
  /// The clock the recording's duration is measured on, and its manager's: sample arrivals and
  /// the retries after transient source errors run on it.
  public let clock: MonotonicClock
  private let sleep: @Sendable (Double) async throws -> Void

  private struct Control {
    var samples: MotionSamples<IMUSample>?
    var ending: Ending?
  }

  private let control = Mutex(Control())

  /// Creates a recorder.
  ///
  /// - Parameters:
  ///   - source: The live source.
  ///   - absoluteTime: Keep the source's timestamps (default: shift them to start at 0).
  ///   - clock: The clock durations and progress reports are measured on (default: the
  ///     system's monotonic clock; tests pass a manual one).
  public init(
    source: any MotionSource, absoluteTime: Bool = false, clock: MonotonicClock = .continuous
  ) {
    self.source = source
    self.absoluteTime = absoluteTime
    self.clock = clock
    sleep = { seconds in try await clock.sleep(until: clock.now() + min(max(seconds, 0), 1e9)) }
  }

  /// Ends the recording (from any thread, e.g. a signal handler's watcher): samples already
  /// taken are written and ``record(to:duration:sampleLimit:progressInterval:progress:sourceErrors:)``
  /// returns with ``Ending/stopped``.
  public func stop() {
    end(.stopped)
  }

  private func end(_ ending: Ending) {
    let samples = control.withLock { c -> MotionSamples<IMUSample>? in
      if c.ending == nil { c.ending = ending }
      return c.samples
    }
    samples?.cancel()
  }

  /// Records. Blocks the calling thread: call it from a thread of your own, never from a Swift
  /// concurrency task.
  ///
  /// - Parameters:
  ///   - writer: Where the rows go; committing it is the caller's part.
  ///   - duration: The longest recording, seconds on the recorder's clock.
  ///   - sampleLimit: Stop after this many samples, if set.
  ///   - progressInterval: Seconds between progress reports (default 0.25).
  ///   - progress: Called every `progressInterval` with the samples written so far (on another
  ///     thread).
  ///   - sourceErrors: Called with each transient source error's message (on another thread).
  /// - Returns: What was recorded.
  /// - Throws: `RecordingError` when the file cannot be written (the recording stops).
  public func record(
    to writer: any RecordingSink, duration: Double, sampleLimit: Int? = nil,
    progressInterval: Double = 0.25, progress: @escaping @Sendable (Int) -> Void = { _ in },
    sourceErrors: @escaping @Sendable (String) -> Void = { _ in }
  ) throws(RecordingError) -> Result {
    let manager = MotionManager(source: source, clock: clock)
    manager.sourceErrorHandler = { e in sourceErrors(e.sourceMessage ?? e.message) }
    let samples = manager.imuSamples(capacity: 65_536)
    let alreadyStopped = control.withLock { c in
      c.samples = samples
      return c.ending != nil
    }
    if alreadyStopped { samples.cancel() }
    let written = Atomic<Int>(0)
    let sleep = self.sleep
    let timer = Task { [weak self] in
      do { try await sleep(duration) } catch { return }
      self?.end(.duration)
    }
    let ticker = Task {
      while !Task.isCancelled {
        do { try await sleep(max(progressInterval, 0.001)) } catch { return }
        progress(written.load(ordering: .relaxed))
      }
    }
    defer {
      timer.cancel()
      ticker.cancel()
    }

    var result = Result()
    var origin: Double?
    var first = 0.0
    var last = 0.0
    while true {
      let next: IMUSample?
      do {
        next = try samples.waitForNext()
      } catch {
        result.failure =
          (error as? MotionManagerError).map { $0.sourceMessage ?? $0.message } ?? "\(error)"
        break
      }
      guard let sample = next else { break }
      if origin == nil {
        origin = absoluteTime ? 0 : sample.timestamp
        first = sample.timestamp
      }
      var shifted = sample
      shifted.timestamp -= origin ?? 0
      do {
        try writer.append(shifted)
        if samples.queuedCount == 0 { try writer.flush() }
      } catch {
        samples.cancel()
        stopSource()
        throw error
      }
      last = sample.timestamp
      if sample.magnetometer == nil { result.allMagnetic = false }
      result.count += 1
      written.store(result.count, ordering: .relaxed)
      if let sampleLimit, result.count >= sampleLimit {
        end(.sampleLimit)
        break
      }
    }
    samples.cancel()
    stopSource()
    let ending = control.withLock { c in
      defer { c.samples = nil }
      return c.ending
    }
    result.ending = result.failure != nil ? .sourceFailed : (ending ?? .sourceEnded)
    result.span = last - first
    return result
  }

  /// Stops the source (IIO disables its buffers), waiting at most 2 s of the recorder's clock
  /// for a stuck one.
  private func stopSource() {
    let stopped = DispatchSemaphore(value: 0)
    let source = self.source
    let sleep = self.sleep
    let stopper = Task {
      await source.stop()
      stopped.signal()
    }
    let limit = Task {
      try? await sleep(2)
      stopped.signal()
    }
    stopped.wait()
    stopper.cancel()
    limit.cancel()
  }
}

extension MotionRecorder {
  /// A recording that kept nothing, or whose source failed after some samples: one line.
  public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The one-line reason.
    public var message: String

    /// Creates a failure.
    ///
    /// - Parameter message: The one-line reason.
    public init(message: String) { self.message = message }

    /// The message.
    public var description: String { message }
  }
}

extension MotionRecorder.Result {
  /// Keeps what was recorded: commits the writer (renaming its file into place) when any
  /// sample was recorded, and describes the recording.
  ///
  /// - Parameters:
  ///   - writer: The writer the recording went to.
  ///   - output: The output's name, for the messages.
  ///   - sourceName: The source's name, for the messages.
  ///   - duration: The longest the recording could run, seconds, for the message when nothing
  ///     came.
  /// - Returns: `N samples (9D) from NAME over S s` (the span to milliseconds; 6D when any
  ///   sample lacked a magnetometer reading).
  /// - Throws: ``MotionRecorder/Failure`` when nothing was recorded (nothing is written: the
  ///   source's failure, or no sample within `duration`) or when the source failed after some
  ///   samples (they are kept, and the message names `output`); the writer's `RecordingError`
  ///   when the file cannot be committed.
  public func keep(
    in writer: any RecordingSink, output: String, sourceName: String, duration: Double
  ) throws -> String {
    guard count > 0 else {
      throw MotionRecorder.Failure(
        message: failure ?? "no samples from \(sourceName) within \(duration) s; nothing written")
    }
    try writer.commit()
    if let failure {
      throw MotionRecorder.Failure(
        message: "\(failure); kept the \(count) samples recorded before: \(output)")
    }
    return "\(count) samples (\(allMagnetic ? "9D" : "6D")) from \(sourceName) over "
      + "\(String(format: "%.3f", span)) s"
  }
}

/// Where a ``MotionRecorder`` writes what it records: samples one at a time, flushed when the
/// queue is empty, committed (moved into place) by the caller at the end.
///
/// `RawIMUCSV.StreamWriter` writes the raw IMU CSV; ``EvemuStreamWriter`` keeps an evdev
/// source's events as an evemu recording.
public protocol RecordingSink: AnyObject {
  /// Takes one sample (seconds, rad/s, m/s², µT; in the device frame).
  ///
  /// - Parameter sample: The sample, shifted to start at 0 unless the recorder keeps absolute
  ///   times.
  /// - Throws: `RecordingError` when the file cannot be written.
  func append(_ sample: IMUSample) throws(RecordingError)
  /// Writes what was taken so far (a special destination sees it at once).
  ///
  /// - Throws: `RecordingError` when the file cannot be written.
  func flush() throws(RecordingError)
  /// Writes the rest and moves the file into place.
  ///
  /// - Throws: `RecordingError` when the file cannot be written or renamed.
  func commit() throws(RecordingError)
}

extension RawIMUCSV.StreamWriter: RecordingSink {}
