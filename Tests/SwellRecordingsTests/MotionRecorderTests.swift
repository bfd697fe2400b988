import Foundation
import SwellGeometry
import SwellTestSupport
import SwellTime
import Synchronization
import Testing

@testable import SwellMotion
@testable import SwellRecordings

/// A live-like source: gives its samples, then blocks until stopped (or ends, when asked).
private final class HeldSource: MotionSource {
  let name = "held"
  let hasMagnetometer: Bool
  private let samples: [IMUSample]
  private let endsAfterSamples: Bool
  private struct State {
    var next = 0
    var waiter: CheckedContinuation<Void, Never>?
    var stopped = false
  }
  private let state = Mutex(State())

  init(_ samples: [IMUSample], endsAfterSamples: Bool = false) {
    self.samples = samples
    self.endsAfterSamples = endsAfterSamples
    hasMagnetometer = samples.contains { $0.magnetometer != nil }
  }

  func next() async throws -> MotionEvent? {
    let sample: IMUSample? = state.withLock { s in
      guard s.next < samples.count else { return nil }
      defer { s.next += 1 }
      return samples[s.next]
    }
    if let sample { return .sample(sample) }
    if endsAfterSamples { return nil }
    await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
      let resume = state.withLock { s -> Bool in
        if s.stopped { return true }
        s.waiter = c
        return false
      }
      if resume { c.resume() }
    }
    return nil
  }

  /// True once every sample was given and the source waits for its stop.
  var isWaiting: Bool { state.withLock { $0.waiter != nil } }

  func stop() async {
    let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
      s.stopped = true
      defer { s.waiter = nil }
      return s.waiter
    }
    waiter?.resume()
  }
}

private func samples(_ count: Int, from t0: Double, magnetometer: Bool) -> [IMUSample] {
  (0..<count).map { i in
    IMUSample(
      timestamp: t0 + Double(i) * 0.01, gyroscope: Vector3(0.1 * Double(i), 0, 0),
      accelerometer: Vector3(0, 0, 9.8), magnetometer: magnetometer ? Vector3(20, 0, -40) : nil)
  }
}

/// Runs a blocking recording on a thread of its own.
private func recordOnThread(
  _ recorder: MotionRecorder, to url: URL, duration: Double, limit: Int? = nil
) async throws -> MotionRecorder.Result {
  let writer = try RawIMUCSV.StreamWriter(url: url)
  let result = try await withCheckedThrowingContinuation {
    (c: CheckedContinuation<MotionRecorder.Result, any Error>) in
    nonisolated(unsafe) let w = writer
    Thread {
      do {
        c.resume(returning: try recorder.record(to: w, duration: duration, sampleLimit: limit))
      } catch {
        c.resume(throwing: error)
      }
    }.start()
  }
  try writer.commit()
  return result
}

@Suite("MotionRecorder: raw samples to a CSV, timed by an injected clock")
private struct MotionRecorderTests {
  @Test("a source that ends: every sample written, times shifted to start at 0")
  func sourceEnds() async throws {
    let folder = try scratchFolder("recorder")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("raw.csv")
    let recorder = MotionRecorder(
      source: HeldSource(samples(25, from: 100, magnetometer: true), endsAfterSamples: true),
      clock: ManualMonotonicClock().clock)
    let r = try await recordOnThread(recorder, to: url, duration: 60)
    #expect(r.count == 25 && r.ending == .sourceEnded && r.allMagnetic && r.failure == nil)
    #expect(isApproximatelyEqual(r.span, 0.24, absolute: 1e-9))
    let read = try RawIMUCSV.read(from: url)
    #expect(read.count == 25)
    #expect(read.first?.timestamp == 0)
    #expect(isApproximatelyEqual(read.last?.timestamp ?? 0, 0.24, absolute: 1e-9))
  }

  @Test("the sample limit ends the recording at exactly that many rows; absolute time is kept")
  func sampleLimit() async throws {
    let folder = try scratchFolder("recorder")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("raw.csv")
    let recorder = MotionRecorder(
      source: HeldSource(samples(40, from: 7, magnetometer: false)), absoluteTime: true,
      clock: ManualMonotonicClock().clock)
    let r = try await recordOnThread(recorder, to: url, duration: 60, limit: 10)
    #expect(r.count == 10 && r.ending == .sampleLimit && !r.allMagnetic)
    let read = try RawIMUCSV.read(from: url)
    #expect(read.count == 10 && read.first?.timestamp == 7)
  }

  @Test("the duration passes on the recorder's clock while the source is silent")
  func durationOnTheClock() async throws {
    let folder = try scratchFolder("recorder")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("raw.csv")
    let manual = ManualMonotonicClock()
    let source = HeldSource(samples(3, from: 0, magnetometer: false))
    let recorder = MotionRecorder(source: source, clock: manual.clock)
    async let result = recordOnThread(recorder, to: url, duration: 5)
    // The timer and the progress ticker sleep on the clock; nothing ends before it moves.
    while manual.sleeperCount < 2 || !source.isWaiting { await Task.yield() }
    manual.advance(by: 4.9)
    #expect(manual.sleeperCount >= 1)
    manual.advance(by: 0.1)
    let r = try await result
    #expect(r.count == 3 && r.ending == .duration)
  }

  @Test("stop() ends the recording and keeps what was recorded")
  func stopped() async throws {
    let folder = try scratchFolder("recorder")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("raw.csv")
    let manual = ManualMonotonicClock()
    let recorder = MotionRecorder(
      source: HeldSource(samples(4, from: 0, magnetometer: false)), clock: manual.clock)
    async let result = recordOnThread(recorder, to: url, duration: 5)
    while manual.sleeperCount < 2 { await Task.yield() }
    recorder.stop()
    let r = try await result
    #expect(r.ending == .stopped)
    #expect(try RawIMUCSV.read(from: url).count == r.count)
  }
}

@Suite("MotionRecorder.Result.keep: what a recording leaves behind")
private struct MotionRecorderKeepTests {
  /// A writer holding `count` samples, and where it writes.
  private func writer(_ count: Int, in folder: URL) throws -> (RawIMUCSV.StreamWriter, URL) {
    let url = folder.appendingPathComponent("raw.csv")
    let w = try RawIMUCSV.StreamWriter(url: url)
    for s in samples(count, from: 0, magnetometer: true) { try w.append(s) }
    return (w, url)
  }

  @Test("samples and no failure: the file is renamed into place and the summary names them")
  func kept() throws {
    let folder = try scratchFolder("keep")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (w, url) = try writer(5, in: folder)
    #expect(!FileManager.default.fileExists(atPath: url.path))
    var r = MotionRecorder.Result()
    (r.count, r.span, r.allMagnetic) = (5, 0.04, true)
    let text = try r.keep(in: w, output: "raw.csv", sourceName: "held", duration: 9)
    #expect(text == "5 samples (9D) from held over 0.040 s")
    #expect(try RawIMUCSV.read(from: url).count == 5)
    r.allMagnetic = false
    let (w2, _) = try writer(5, in: folder)
    #expect(try r.keep(in: w2, output: "x", sourceName: "s", duration: 1).contains("(6D)"))
  }

  @Test(
    "nothing recorded: nothing is written, and the message is the source's failure or the wait",
    arguments: [
      (String?.none, "no samples from held within 2.5 s; nothing written"),
      ("udp: port 5555 is in use", "udp: port 5555 is in use"),
    ])
  func nothing(failure: String?, message: String) throws {
    let folder = try scratchFolder("keep")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (w, url) = try writer(0, in: folder)
    var r = MotionRecorder.Result()
    r.failure = failure
    #expect(throws: MotionRecorder.Failure(message: message)) {
      try r.keep(in: w, output: "raw.csv", sourceName: "held", duration: 2.5)
    }
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }

  @Test("a source that failed after some samples: they are kept, and the error names the file")
  func failedAfterSamples() throws {
    let folder = try scratchFolder("keep")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (w, url) = try writer(3, in: folder)
    var r = MotionRecorder.Result()
    (r.count, r.failure) = (3, "the device went away")
    #expect(
      throws: MotionRecorder.Failure(
        message: "the device went away; kept the 3 samples recorded before: raw.csv")
    ) { try r.keep(in: w, output: "raw.csv", sourceName: "held", duration: 2.5) }
    #expect(try RawIMUCSV.read(from: url).count == 3)
  }
}
