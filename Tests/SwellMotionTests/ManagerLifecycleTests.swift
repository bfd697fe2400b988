import Foundation
import SwellGeometry
import SwellMotion
import SwellRecordings
import SwellTestSupport
import SwellTime
import Synchronization
import Testing

/// Samples of a still device lying face up, at `rate` Hz from t = 10 s.
private func stillSamples(rate: Double, count: Int, magnetometer: Bool = false) -> [IMUSample] {
  (0..<count).map { i in
    IMUSample(
      timestamp: 10 + Double(i) / rate, gyroscope: Vector3(0.01, -0.02, 0.03),
      accelerometer: Vector3(0.1, -0.2, 9.80665),
      magnetometer: magnetometer ? Vector3(20, -5, -40) : nil)
  }
}

/// The same samples as a recording.
private func stillRecording(rate: Double, count: Int, magnetometer: Bool) -> MotionRecording {
  MotionRecording(
    name: "still", format: .rawIMU,
    content: .samples(stillSamples(rate: rate, count: count, magnetometer: magnetometer)))
}

/// Polls until the condition holds (bounded, so a broken manager fails instead of hanging).
private func eventually(_ condition: () -> Bool) async -> Bool {
  for _ in 0..<20_000 {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return condition()
}

/// The bundled Sensor Logger recording (2,704 raw samples), as the demo uses it.
private let bundledRecordingURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("../SwellRecordingsTests/Fixtures/sensorlogger-ios-rotation")

/// Counts the device-motion updates of one `deviceMotionUpdates` stream to its end.
private func countUpdates(_ manager: MotionManager) async throws -> Int {
  var n = 0
  for try await _ in manager.deviceMotionUpdates(using: .xArbitraryZVertical) { n += 1 }
  return n
}

/// A source that holds its first event until ``release()``: consumers started before it are
/// "started together".
private final class HeldSource: MotionSource {
  let inner: any MotionSource
  private let gate = Mutex<(open: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
  init(_ inner: any MotionSource) { self.inner = inner }
  var name: String { inner.name }
  var hasMagnetometer: Bool { inner.hasMagnetometer }
  var providesRawSamples: Bool { inner.providesRawSamples }
  func release() {
    let waiter = gate.withLock { g in
      g.open = true
      defer { g.waiter = nil }
      return g.waiter
    }
    waiter?.resume()
  }
  func next() async throws -> MotionEvent? {
    await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
      let open = gate.withLock { g in
        if !g.open { g.waiter = c }
        return g.open
      }
      if open { c.resume() }
    }
    return try await inner.next()
  }
  func stop() async { await inner.stop() }
  func restart() async throws { try await inner.restart() }
}

/// A live source that cannot deliver after a stop (like a socket closed for good), with the
/// default `restart()`.
private final class OneShotSource: MotionSource {
  let name = "oneshot"
  let hasMagnetometer = false
  private let state = Mutex((index: 0, stopped: false))
  let samples = stillSamples(rate: 100, count: 20)
  func next() async throws -> MotionEvent? {
    let s: IMUSample? = state.withLock { st in
      guard !st.stopped, st.index < samples.count else { return nil }
      defer { st.index += 1 }
      return samples[st.index]
    }
    return s.map(MotionEvent.sample)
  }
  func stop() async { state.withLock { $0.stopped = true } }
}

/// A source whose restart fails.
private final class NoRestartSource: MotionSource {
  let name = "norestart"
  let hasMagnetometer = false
  private let index = Mutex(0)
  let samples = stillSamples(rate: 100, count: 20)
  func next() async throws -> MotionEvent? {
    let i: Int? = index.withLock { i in
      guard i < samples.count else { return nil }
      defer { i += 1 }
      return i
    }
    return i.map { .sample(samples[$0]) }
  }
  func stop() async {}
  func restart() async throws { throw MotionSourceError("the device is gone") }
}

@Suite("MotionManager: start, stop, start again (CMMotionManager's lifecycle)")
private struct ManagerLifecycleTests {
  // MARK: The three sequences of issue 19, on the bundled recording replayed as fast as possible

  @Test("deviceMotionUpdates alone: every sample of the bundled recording")
  func updatesAlone() async throws {
    let recording = try MotionRecording.load(from: bundledRecordingURL)
    #expect(recording.count == 2704)
    let manager = MotionManager(source: RecordingSource(recording))
    #expect(try await countUpdates(manager) == 2704)
  }

  @Test("start and stop device motion, then deviceMotionUpdates: the whole recording again")
  func startStopThenUpdates() async throws {
    let recording = try MotionRecording.load(from: bundledRecordingURL)
    let manager = MotionManager(source: RecordingSource(recording))
    manager.startDeviceMotionUpdates(using: .xArbitraryZVertical)
    // (Not `isDeviceMotionActive` here: a replay as fast as possible may already have ended.)
    manager.stopDeviceMotionUpdates()
    #expect(!manager.isDeviceMotionActive)
    #expect(try await countUpdates(manager) == 2704)
    // And once more, after the recording had ended.
    #expect(try await countUpdates(manager) == 2704)
  }

  @Test("accelerometer updates started and stopped first do not drain the replay")
  func accelerometerThenDeviceMotion() async throws {
    let recording = try MotionRecording.load(from: bundledRecordingURL)
    let manager = MotionManager(source: RecordingSource(recording))
    manager.startAccelerometerUpdates()
    // (Not `isAccelerometerActive` here: a replay as fast as possible may already have ended.)
    manager.stopAccelerometerUpdates()
    #expect(try await countUpdates(manager) == 2704)
  }

  // MARK: The same on a paced source and a manual clock

  @Test("paced on a manual clock: start, stop, start again delivers the recording from its start")
  func pacedStartStopStart() async throws {
    let manual = ManualMonotonicClock()
    let recording = stillRecording(rate: 100, count: 100, magnetometer: false)
    let manager = MotionManager(source: RecordingSource(recording, pacedBy: manual.clock))
    manager.startDeviceMotionUpdates(using: .xArbitraryZVertical)
    // The first sample comes at once; the second waits for the clock.
    #expect(await eventually { manager.deviceMotion != nil && manual.sleeperCount == 1 })
    #expect(manager.deviceMotion?.timestamp == 10)
    manual.advance(by: 0.25)
    #expect(await eventually { manager.deviceMotion?.timestamp == 10.25 })
    manager.stopDeviceMotionUpdates()
    await manager.waitUntilUpdatesEnd()
    #expect(manual.sleeperCount == 0)
    // Again: a new run replays from the first sample, paced from now.
    let counted = Task { try await countUpdates(manager) }
    #expect(await eventually { manager.deviceMotion?.timestamp == 10 && manual.sleeperCount == 1 })
    manual.advance(by: 2)
    #expect(try await counted.value == 100)
  }

  @Test("paced on a manual clock: raw updates started and stopped, then device motion")
  func pacedAccelerometerThenDeviceMotion() async throws {
    let manual = ManualMonotonicClock()
    let recording = stillRecording(rate: 100, count: 100, magnetometer: false)
    let manager = MotionManager(source: RecordingSource(recording, pacedBy: manual.clock))
    manager.startAccelerometerUpdates()
    #expect(await eventually { manager.accelerometerData != nil && manual.sleeperCount == 1 })
    manual.advance(by: 0.5)
    #expect(await eventually { manager.accelerometerData?.timestamp == 10.5 })
    manager.stopAccelerometerUpdates()
    await manager.waitUntilUpdatesEnd()
    let counted = Task { try await countUpdates(manager) }
    #expect(await eventually { manual.sleeperCount == 1 })
    manual.advance(by: 2)
    #expect(try await counted.value == 100)
  }

  // MARK: Sharing one replay

  @Test("raw and device-motion consumers started together see the same samples")
  func startedTogetherShare() async throws {
    let manual = ManualMonotonicClock()
    let recording = stillRecording(rate: 100, count: 200, magnetometer: false)
    for paced in [false, true] {
      let replay =
        paced ? RecordingSource(recording, pacedBy: manual.clock) : RecordingSource(recording)
      let source = HeldSource(replay)
      let manager = MotionManager(source: source)
      manager.accelerometerUpdateInterval = 0.001
      manager.deviceMotionUpdateInterval = 0.001
      let raw = manager.accelerometerUpdates()
      let motion = manager.deviceMotionUpdates(using: .xArbitraryZVertical)
      let samples = manager.imuSamples()
      source.release()
      if paced {
        // The first sample is released at once; then the replay waits for the clock.
        #expect(await eventually { manual.sleeperCount == 1 })
        manual.advance(by: 3)
      }
      var rawTimes: [Double] = []
      for try await a in raw { rawTimes.append(a.timestamp) }
      var motionTimes: [Double] = []
      for try await m in motion { motionTimes.append(m.timestamp) }
      var sampleTimes: [Double] = []
      for try await s in samples { sampleTimes.append(s.timestamp) }
      let expected = recording.events.map(\.timestamp)
      #expect(rawTimes == expected)
      #expect(motionTimes == expected)
      #expect(sampleTimes == expected)
    }
  }

  @Test("device-motion updates in another frame replace the running ones in the same run")
  func replacingKeepsTheRun() async throws {
    let recording = stillRecording(rate: 100, count: 50, magnetometer: true)
    let source = HeldSource(RecordingSource(recording))
    let manager = MotionManager(source: source)
    manager.deviceMotionUpdateInterval = 0.001
    let first = manager.deviceMotionUpdates(using: .xArbitraryZVertical)
    let second = manager.deviceMotionUpdates(using: .xMagneticNorthZVertical)
    source.release()
    var firstCount = 0
    for try await _ in first { firstCount += 1 }
    var secondCount = 0
    for try await _ in second { secondCount += 1 }
    #expect(firstCount == 0)
    #expect(secondCount == 50)
  }

  // MARK: Sources that cannot start again

  @Test("a source that ends for good at stop: the next start fails with notAvailable")
  func cannotDeliverAfterStop() async throws {
    let manager = MotionManager(source: OneShotSource())
    #expect(try await manager.deviceMotionSamples().reduce(0) { n, _ in n + 1 } == 20)
    await #expect(throws: MotionManagerError.self) {
      _ = try await countUpdates(manager)
    }
    do {
      _ = try await countUpdates(manager)
      Issue.record("expected an error")
    } catch let error as MotionManagerError {
      #expect(error.code == .notAvailable)
      #expect(
        error.message == "oneshot ended at once when restarted: it cannot deliver after a stop")
    }
  }

  @Test("a source whose restart throws: the next start fails with its reason")
  func restartFails() async throws {
    let manager = MotionManager(source: NoRestartSource())
    #expect(try await countUpdates(manager) == 20)
    let queue = OperationQueue()
    let errors = Mutex<[MotionManagerError]>([])
    manager.startAccelerometerUpdates(to: queue) { _, e in
      if let e { errors.withLock { $0.append(e) } }
    }
    let reported = await eventually { errors.withLock { !$0.isEmpty } }
    #expect(reported)
    await manager.waitUntilUpdatesEnd()
    let got = errors.withLock { $0 }
    #expect(got.count == 1)
    #expect(got.first?.code == .notAvailable)
    #expect(got.first?.message == "norestart cannot restart after a stop: the device is gone")
    #expect(!manager.isAccelerometerActive)
  }

  @Test("a scripted source restarts from its start")
  func scriptRestarts() async throws {
    let script = try MotionScript(parsing: "hold 1s")
    let manager = MotionManager(source: MotionScriptSource(script, rate: 50))
    manager.deviceMotionUpdateInterval = 0.001
    #expect(try await countUpdates(manager) == 51)
    manager.startDeviceMotionUpdates()
    manager.stopDeviceMotionUpdates()
    #expect(try await countUpdates(manager) == 51)
  }
}
