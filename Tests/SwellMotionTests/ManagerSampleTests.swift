import Foundation
import SwellGeometry
import SwellTestSupport
import SwellTime
import Synchronization
import Testing

@testable import SwellMotion

/// Samples of a still device lying face up with a gyroscope bias, at `rate` Hz from t = 10 s.
private func stillSamples(rate: Double, count: Int, magnetometer: Bool = false) -> [IMUSample] {
  (0..<count).map { i in
    IMUSample(
      timestamp: 10 + Double(i) / rate, gyroscope: Vector3(0.01, -0.02, 0.03),
      accelerometer: Vector3(0.1, -0.2, 9.80665),
      magnetometer: magnetometer ? Vector3(20, -5, -40) : nil)
  }
}

/// A source over fixed samples that fails transiently `failures` times before the sample at
/// `failAt`, then goes on without losing it; it counts its `stop()` calls.
private final class FlakySource: MotionSource {
  let name = "flaky"
  let hasMagnetometer = false
  let samples: [IMUSample]
  let failAt: Int
  private struct State {
    var index = 0
    var failuresLeft: Int
    var stops = 0
  }
  private let state: Mutex<State>

  init(samples: [IMUSample], failAt: Int, failures: Int) {
    self.samples = samples
    self.failAt = failAt
    state = Mutex(State(failuresLeft: failures))
  }

  var stopCount: Int { state.withLock { $0.stops } }

  func next() async throws -> MotionEvent? {
    let result: Result<MotionEvent?, MotionSourceError> = state.withLock { s in
      if s.index == failAt && s.failuresLeft > 0 {
        s.failuresLeft -= 1
        return .failure(MotionSourceError("device went away", isTransient: true))
      }
      guard s.index < samples.count else { return .success(nil) }
      defer { s.index += 1 }
      return .success(.sample(samples[s.index]))
    }
    return try result.get()
  }

  func stop() async {
    state.withLock { $0.stops += 1 }
  }
}

/// A live-like source that never ends until stopped: a sample every call.
private final class EndlessSource: MotionSource {
  let name = "endless"
  let hasMagnetometer = false
  private struct State {
    var index = 0
    var stopped = false
    var stops = 0
  }
  private let state = Mutex(State())

  var stopCount: Int { state.withLock { $0.stops } }

  func next() async throws -> MotionEvent? {
    await Task.yield()
    return state.withLock { s -> MotionEvent? in
      guard !s.stopped else { return nil }
      defer { s.index += 1 }
      return .sample(
        IMUSample(
          timestamp: Double(s.index) * 0.001, gyroscope: .zero,
          accelerometer: Vector3(0, 0, 9.80665)))
    }
  }

  func stop() async {
    state.withLock {
      $0.stopped = true
      $0.stops += 1
    }
  }
}

/// A source over fixed samples, with a magnetometer, that delivers nothing until ``open()``: a
/// test subscribes every consumer first, so none misses samples that a fast loop already sent.
private final class GatedSource: MotionSource {
  let name = "gated"
  let hasMagnetometer = true
  let samples: [IMUSample]
  private struct State {
    var index = 0
    var open = false
    var stopped = false
  }
  private let state = Mutex(State())

  init(samples: [IMUSample]) { self.samples = samples }

  /// Lets the samples flow.
  func open() { state.withLock { $0.open = true } }

  func next() async throws -> MotionEvent? {
    while !state.withLock({ $0.open || $0.stopped }) {
      try await Task.sleep(for: .milliseconds(1))
    }
    return state.withLock { s -> MotionEvent? in
      guard !s.stopped, s.index < samples.count else { return nil }
      defer { s.index += 1 }
      return .sample(samples[s.index])
    }
  }

  func stop() async {
    state.withLock { $0.stopped = true }
  }
}

/// Polls until the condition holds (bounded, so a broken manager fails instead of hanging).
private func eventually(_ condition: () -> Bool) async -> Bool {
  for _ in 0..<20_000 {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return condition()
}

@Suite("MotionManager: every sample, retries, stop, raw sensors")
private struct ManagerSampleTests {
  @Test("a source that fails transiently twice, then recovers, delivers every later sample")
  func transientRetry() async throws {
    let samples = stillSamples(rate: 100, count: 50)
    let source = FlakySource(samples: samples, failAt: 20, failures: 2)
    let slept = Mutex<[Double]>([])
    let reported = Mutex<[MotionManagerError]>([])
    // A clock standing at 0 whose sleeps return at once, recording how long they were.
    let clock = MonotonicClock(
      now: { 0 }, sleepUntil: { t in slept.withLock { $0.append(t) } }, waitUntil: { _ in })
    let manager = MotionManager(source: source, clock: clock)
    manager.sourceErrorHandler = { e in reported.withLock { $0.append(e) } }
    let stream = manager.deviceMotionSamples()
    var times: [Double] = []
    for try await m in stream { times.append(m.timestamp) }
    #expect(times == samples.map(\.timestamp))
    #expect(stream.transientErrors == 2)
    // The documented policy: 50 ms, then doubled.
    #expect(slept.withLock { $0 } == [0.05, 0.1])
    let errors = reported.withLock { $0 }
    #expect(errors.count == 2)
    #expect(errors.allSatisfy { $0.isTransient && $0.code == .notAvailable })
    #expect(errors.first?.message == "flaky: device went away")
    #expect(!manager.isDeviceMotionActive)
    #expect(await eventually { source.stopCount == 1 })
  }

  @Test("the retry policy: 50 ms doubling up to 1 s")
  func retryPolicy() {
    let p = MotionManager.RetryPolicy()
    #expect((1...7).map { p.delay(afterFailures: $0) } == [0.05, 0.1, 0.2, 0.4, 0.8, 1, 1])
    #expect(p.delay(afterFailures: 10_000) == 1)
  }

  @Test(
    "every-sample delivery at 1 kHz for 60 simulated seconds loses none, whatever the capacity",
    arguments: [1, 16, 1024])
  func everySample(capacity: Int) async throws {
    let count = 60_000
    let samples = (0..<count).map { i in
      IMUSample(
        timestamp: Double(i) / 1000, gyroscope: Vector3(0, 0, 0.5),
        accelerometer: Vector3(0, 0, 9.80665))
    }
    let recording = MotionRecording(name: "khz", format: .rawIMU, content: .samples(samples))
    let manager = MotionManager(source: RecordingSource(recording))
    let stream = manager.deviceMotionSamples(capacity: capacity)
    var n = 0
    var previous = -1.0
    var ordered = true
    var fuser = DeviceMotionFuser(mode: .sixD, referenceFrame: .xArbitraryZVertical)
    var same = true
    for try await m in stream {
      if n < count, m != fuser.update(samples[n]) { same = false }
      if m.timestamp != Double(n) / 1000 { ordered = false }
      if m.timestamp <= previous { ordered = false }
      previous = m.timestamp
      n += 1
      // A slow consumer now and then: the manager must wait, not drop.
      if n % 5000 == 0 { try await Task.sleep(for: .milliseconds(2)) }
    }
    #expect(n == count)
    #expect(ordered)
    // Each is what the fusion gives for that sample after all the earlier ones.
    #expect(same)
    #expect(stream.queuedCount == 0)
  }

  @Test("blocking and polling consumers see the same samples as async iteration")
  func blockingAndPolling() async throws {
    let samples = stillSamples(rate: 200, count: 3000)
    let recording = MotionRecording(name: "r", format: .rawIMU, content: .samples(samples))
    let blockingManager = MotionManager(source: RecordingSource(recording))
    let blocking = blockingManager.deviceMotionSamples(capacity: 8)
    let times = try await Task.detached {
      var out: [Double] = []
      while let m = try blocking.waitForNext() { out.append(m.timestamp) }
      return out
    }.value
    #expect(times == samples.map(\.timestamp))

    let pollingManager = MotionManager(source: RecordingSource(recording))
    let polling = pollingManager.deviceMotionSamples(capacity: 64)
    var polled: [Double] = []
    while !polling.isExhausted {
      polled += try polling.poll().map(\.timestamp)
      try await Task.sleep(for: .milliseconds(1))
    }
    #expect(polled == samples.map(\.timestamp))
  }

  @Test("stop: stopping updates stops the source, and a cancelled sample stream does too")
  func stopStopsSource() async throws {
    let source = EndlessSource()
    let manager = MotionManager(source: source)
    manager.startDeviceMotionUpdates()
    #expect(await eventually { manager.deviceMotion != nil })
    #expect(source.stopCount == 0)
    manager.stopDeviceMotionUpdates()
    #expect(await eventually { source.stopCount == 1 })
    await manager.waitUntilUpdatesEnd()
    #expect(!manager.isDeviceMotionActive)

    let other = EndlessSource()
    let m2 = MotionManager(source: other)
    let samples = m2.deviceMotionSamples(capacity: 4)
    var iterator = samples.makeAsyncIterator()
    #expect(try await iterator.next() != nil)
    samples.cancel()
    #expect(await eventually { other.stopCount == 1 })
    #expect(!m2.isDeviceMotionActive)
  }

  @Test(
    "raw updates: intervals on sample time, acceleration in g with CoreMotion's sign, raw rad/s and µT"
  )
  func rawSensors() async throws {
    let samples = stillSamples(rate: 100, count: 200, magnetometer: true)
    // Gated: the pull loop starts with the first subscription; the samples flow only once all
    // three are subscribed, so the counts below do not depend on scheduling.
    let source = GatedSource(samples: samples)
    let manager = MotionManager(source: source)
    #expect(manager.isAccelerometerAvailable && manager.isGyroAvailable)
    #expect(manager.isMagnetometerAvailable)
    manager.accelerometerUpdateInterval = 0.05
    manager.gyroUpdateInterval = 0.1
    manager.magnetometerUpdateInterval = 0.5
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let accelerations = Mutex<[AccelerometerData]>([])
    manager.startAccelerometerUpdates(to: queue) { data, error in
      if let data { accelerations.withLock { $0.append(data) } }
      #expect(error == nil)
    }
    let gyro = manager.gyroUpdates()
    let magnetometer = manager.magnetometerUpdates()
    #expect(manager.isAccelerometerActive && manager.isGyroActive && manager.isMagnetometerActive)
    source.open()
    var rates: [GyroData] = []
    for try await g in gyro { rates.append(g) }
    var fields: [MagnetometerData] = []
    for try await m in magnetometer { fields.append(m) }
    await manager.waitUntilUpdatesEnd()
    #expect(
      await eventually { queue.operationCount == 0 && accelerations.withLock { $0.count } == 40 })
    let a = accelerations.withLock { $0 }
    // 200 samples at 100 Hz span 1.99 s: every 0.05 s → 40, every 0.1 s → 20, every 0.5 s → 4.
    #expect(a.count == 40)
    #expect(rates.count == 20)
    #expect(fields.count == 4)
    #expect(isApproximatelyEqual(a[1].timestamp - a[0].timestamp, 0.05, absolute: 1e-9))
    // Face up: (0, 0, -1) g, the tiny horizontal specific force negated too.
    let first = try #require(a.first)
    #expect(
      isApproximatelyEqual(
        first.acceleration, Vector3(-0.1, 0.2, -9.80665) / 9.80665, tolerance: 1e-12))
    #expect(rates.allSatisfy { $0.rotationRate == Vector3(0.01, -0.02, 0.03) })
    #expect(fields.allSatisfy { $0.magneticField == Vector3(20, -5, -40) })
    #expect(manager.accelerometerData?.timestamp == samples.last?.timestamp)
    #expect(manager.gyroData?.rotationRate == Vector3(0.01, -0.02, 0.03))
    #expect(!manager.isAccelerometerActive && !manager.isGyroActive)
  }

  @Test("raw updates of a source of fused motion fail with CMError 109, and raw samples too")
  func rawUnavailable() async throws {
    let script = try MotionScript(parsing: "hold 1s")
    let manager = MotionManager(source: MotionScriptSource(script, rate: 50))
    #expect(!manager.isAccelerometerAvailable && !manager.isMagnetometerAvailable)
    do {
      for try await _ in manager.accelerometerUpdates() {}
      Issue.record("accelerometer updates of a script did not fail")
    } catch let e as MotionManagerError {
      #expect(e.code == .notAvailable)
    }
    let raw = manager.imuSamples()
    #expect(throws: MotionManagerError.self) { _ = try raw.poll() }
    // Device motion of the script passes through, every sample.
    var n = 0
    for try await _ in manager.deviceMotionSamples() { n += 1 }
    #expect(n == 51)
  }

  @Test("every raw sample in order, for recorders")
  func imuSamples() async throws {
    let samples = stillSamples(rate: 100, count: 500, magnetometer: true)
    let recording = MotionRecording(name: "r", format: .rawIMU, content: .samples(samples))
    let manager = MotionManager(source: RecordingSource(recording))
    var got: [IMUSample] = []
    for try await s in manager.imuSamples(capacity: 7) { got.append(s) }
    #expect(got == samples)
  }

  @Test("one rule for 6D or 9D: the frames that refer to north fuse the magnetometer")
  func modeRule() {
    #expect(AttitudeEstimator.Mode(referenceFrame: .xArbitraryZVertical) == .sixD)
    for frame in [
      AttitudeReferenceFrame.xArbitraryCorrectedZVertical, .xMagneticNorthZVertical,
      .xTrueNorthZVertical,
    ] {
      #expect(AttitudeEstimator.Mode(referenceFrame: frame) == .nineD)
    }
  }

  @Test("Attitude.rotationMatrix is CoreMotion's: reference → device, so R · down = gravity")
  func rotationMatrixIsCoreMotions() {
    var rng = SplitMix64(seed: 42)
    for _ in 0..<200 {
      let axis = rng.unitVector()
      let attitude = Attitude(quaternion: rng.rotation())
      let motion = DeviceMotion.resting(timestamp: 0, attitude: attitude)
      let r = attitude.rotationMatrix
      #expect(isApproximatelyEqual(r * Vector3(0, 0, -1), motion.gravity, tolerance: 1e-12))
      // Device axes seen from the reference frame are its columns.
      #expect(
        isApproximatelyEqual(
          attitude.deviceToReferenceMatrix * Vector3(0, 1, 0),
          attitude.quaternion.rotate(Vector3(0, 1, 0)), tolerance: 1e-12))
      #expect(
        isApproximatelyEqual(r * (attitude.deviceToReferenceMatrix * axis), axis, tolerance: 1e-9))
    }
  }
}
