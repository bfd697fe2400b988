import Foundation
import SwellGeometry
import SwellTestSupport
import Synchronization
import Testing

@testable import SwellMotion

/// A still device lying face up, sampled at `rate` Hz for `count` samples.
private func stillRecording(rate: Double, count: Int, magnetometer: Bool) -> MotionRecording {
  let samples = (0..<count).map { i in
    IMUSample(
      timestamp: 10 + Double(i) / rate, gyroscope: .zero, accelerometer: Vector3(0, 0, 9.80665),
      magnetometer: magnetometer ? Vector3(20, 0, -40) : nil)
  }
  return MotionRecording(name: "still", format: .rawIMU, content: .samples(samples))
}

/// A source that fails after a few samples.
private final class FailingSource: MotionSource {
  let name = "failing"
  let hasMagnetometer = false
  private let served = Mutex(0)

  func stop() {}

  func next() async throws -> MotionEvent? {
    let n = served.withLock { n in
      n += 1
      return n
    }
    if n > 3 { throw MotionSourceError("sensor unplugged") }
    return .sample(
      IMUSample(
        timestamp: Double(n) * 0.01, gyroscope: .zero, accelerometer: Vector3(0, 0, 9.8)))
  }
}

/// Collects handler calls, with the queue they ran on.
private final class Collector: Sendable {
  struct Call {
    var motion: DeviceMotion?
    var error: MotionManagerError?
    var onQueue: Bool
  }
  let calls = Mutex<[Call]>([])
  let queue: OperationQueue

  init() {
    queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
  }

  var handler: @Sendable (DeviceMotion?, MotionManagerError?) -> Void {
    { [self] m, e in
      let onQueue = OperationQueue.current === queue
      calls.withLock { $0.append(Call(motion: m, error: e, onQueue: onQueue)) }
    }
  }

  func drain() -> [Call] {
    queue.waitUntilAllOperationsAreFinished()
    return calls.withLock { $0 }
  }
}

/// Yields until the condition holds (bounded, so a broken manager fails instead of hanging).
private func eventually(_ condition: () -> Bool) async -> Bool {
  for _ in 0..<100_000 {
    if condition() { return true }
    await Task.yield()
  }
  return condition()
}

@Suite("MotionManager")
private struct ManagerTests {
  @Test("push: 100 Hz source, 0.05 s interval → 20 updates per simulated second, on the queue")
  func pushPaced() async throws {
    let clock = ManualClock()
    let source = RecordingSource(
      stillRecording(rate: 100, count: 300, magnetometer: false), pacedBy: clock)
    let manager = MotionManager(source: source)
    manager.deviceMotionUpdateInterval = 0.05
    let collector = Collector()
    manager.startDeviceMotionUpdates(
      using: .xArbitraryZVertical, to: collector.queue, withHandler: collector.handler)
    #expect(manager.isDeviceMotionActive)
    // First sample is released at once; the manager then waits for the clock.
    #expect(await eventually { clock.sleeperCount == 1 })
    clock.advance(by: .milliseconds(995))
    #expect(
      await eventually { clock.sleeperCount == 1 && manager.deviceMotion?.timestamp == 10.99 })
    let first = collector.drain()
    #expect(first.count == 20)
    #expect(first.allSatisfy { $0.onQueue && $0.error == nil })
    let times = first.compactMap { $0.motion?.timestamp }
    for (k, t) in times.enumerated() {
      #expect(isApproximatelyEqual(t, 10 + Double(k) * 0.05, absolute: 1e-9))
    }
    clock.advance(by: .seconds(1))
    #expect(await eventually { manager.deviceMotion?.timestamp == 11.99 })
    #expect(collector.drain().count == 40)
    manager.stopDeviceMotionUpdates()
    #expect(!manager.isDeviceMotionActive)
    clock.advance(by: .seconds(5))
    await manager.waitUntilUpdatesEnd()
    #expect(collector.drain().count == 40)
  }

  @Test("pull: deviceMotion follows every fused sample; the end of a recording stops updates")
  func pull() async throws {
    let manager = MotionManager(
      source: RecordingSource(stillRecording(rate: 50, count: 100, magnetometer: false)))
    #expect(manager.deviceMotion == nil)
    manager.startDeviceMotionUpdates()
    await manager.waitUntilUpdatesEnd()
    let m = try #require(manager.deviceMotion)
    #expect(isApproximatelyEqual(m.timestamp, 10 + 99.0 / 50, absolute: 1e-12))
    #expect(isApproximatelyEqual(m.gravity, Vector3(0, 0, -1), tolerance: 1e-9))
    #expect(!manager.isDeviceMotionActive)
    #expect(manager.attitudeReferenceFrame == .xArbitraryZVertical)
  }

  @Test("async: one element per interval, then the stream ends with the recording")
  func asyncSequence() async throws {
    let manager = MotionManager(
      source: RecordingSource(stillRecording(rate: 200, count: 400, magnetometer: false)))
    manager.deviceMotionUpdateInterval = 0.1
    var times: [Double] = []
    for try await m in manager.deviceMotionUpdates() { times.append(m.timestamp) }
    // 400 samples at 200 Hz span 1.995 s: updates at 0, 0.1, ..., 1.9.
    #expect(times.count == 20)
    #expect(isApproximatelyEqual(times.last ?? 0, 11.9, absolute: 1e-9))
  }

  @Test("stop ends the async stream")
  func stopEndsStream() async throws {
    let clock = ManualClock()
    let manager = MotionManager(
      source: RecordingSource(
        stillRecording(rate: 100, count: 1000, magnetometer: false), pacedBy: clock))
    let stream = manager.deviceMotionUpdates()
    var iterator = stream.makeAsyncIterator()
    let first = try await iterator.next()
    #expect(first != nil)
    manager.stopDeviceMotionUpdates()
    #expect(try await iterator.next() == nil)
    #expect(!manager.isDeviceMotionActive)
  }

  @Test(
    "errors: true north without declination (102), missing magnetometer (109), failed source (109), requires movement (101)"
  )
  func errors() async throws {
    let collector = Collector()
    let nine = MotionManager(
      source: RecordingSource(stillRecording(rate: 100, count: 300, magnetometer: true)))
    nine.startDeviceMotionUpdates(
      using: .xTrueNorthZVertical, to: collector.queue, withHandler: collector.handler)
    #expect(!nine.isDeviceMotionActive)
    var calls = collector.drain()
    #expect(calls.count == 1)
    #expect(calls.first?.error?.code == .trueNorthNotAvailable)
    #expect(calls.first?.error?.code.rawValue == 102)

    let six = MotionManager(
      source: RecordingSource(stillRecording(rate: 100, count: 10, magnetometer: false)))
    #expect(six.availableAttitudeReferenceFrames == [.xArbitraryZVertical])
    #expect(nine.availableAttitudeReferenceFrames.count == 4)
    six.startDeviceMotionUpdates(
      using: .xMagneticNorthZVertical, to: collector.queue, withHandler: collector.handler)
    calls = collector.drain()
    #expect(calls.count == 2)
    #expect(calls.last?.error?.code == .notAvailable)

    let failing = MotionManager(source: FailingSource())
    let c2 = Collector()
    failing.deviceMotionUpdateInterval = 0.001
    failing.startDeviceMotionUpdates(
      using: .xArbitraryZVertical, to: c2.queue, withHandler: c2.handler)
    await failing.waitUntilUpdatesEnd()
    let failed = c2.drain()
    #expect(failed.filter { $0.motion != nil }.count == 3)
    #expect(failed.last?.error?.code == .notAvailable)
    #expect(failed.last?.error?.message == "failing failed: sensor unplugged")
    #expect(failed.last?.error?.sourceMessage == "sensor unplugged")
    #expect(!failing.isDeviceMotionActive)

    // North frame with a magnetometer the fusion reports as uncalibrated: 101 once, updates go on.
    let c3 = Collector()
    nine.magneticDeclination = 2
    nine.deviceMotionUpdateInterval = 0.5
    nine.startDeviceMotionUpdates(
      using: .xTrueNorthZVertical, to: c3.queue, withHandler: c3.handler)
    await nine.waitUntilUpdatesEnd()
    let moved = c3.drain()
    let errors = moved.compactMap(\.error)
    let motions = moved.compactMap(\.motion)
    if motions.first?.magneticField.accuracy == .uncalibrated {
      #expect(errors.map(\.code) == [.deviceRequiresMovement])
    } else {
      #expect(errors.isEmpty)
    }
    #expect(motions.count == 6)
    #expect(motions.allSatisfy { $0.referenceFrame == .xTrueNorthZVertical })
  }

  @Test(
    "the update interval is clamped to 1 ms ... 1 s",
    arguments: [(0.0, 0.001), (-1, 0.001), (0.02, 0.02), (5, 1)])
  func intervalClamp(requested: Double, expected: Double) {
    let manager = MotionManager(
      source: RecordingSource(stillRecording(rate: 100, count: 1, magnetometer: false)))
    manager.deviceMotionUpdateInterval = requested
    #expect(manager.deviceMotionUpdateInterval == expected)
  }

  @Test("error codes mirror CMError 100...113")
  func codes() {
    #expect(MotionManagerError.Code.allCases.map(\.rawValue) == Array(100...113))
    #expect(MotionManagerError(.deviceRequiresMovement, "move").description == "move (CMError 101)")
  }
}

@Suite("RecordingSource")
private struct RecordingSourceTests {
  @Test("as fast as possible: every event in order, then nil")
  func fast() async throws {
    let recording = stillRecording(rate: 100, count: 5, magnetometer: true)
    let source = RecordingSource(recording)
    #expect(source.hasMagnetometer)
    #expect(source.name == "recording:still")
    var events: [MotionEvent] = []
    while let e = try await source.next() { events.append(e) }
    #expect(events == recording.events)
  }

  @Test("paced: an event is held until the clock reaches its offset")
  func paced() async throws {
    let clock = ManualClock()
    let source = RecordingSource(
      stillRecording(rate: 10, count: 3, magnetometer: false), pacedBy: clock)
    let first = try await source.next()
    #expect(first != nil)
    let got = Mutex(0)
    let task = Task {
      _ = try await source.next()
      got.withLock { $0 = 1 }
    }
    #expect(await eventually { clock.sleeperCount == 1 })
    clock.advance(by: .milliseconds(99))
    for _ in 0..<100 { await Task.yield() }
    #expect(got.withLock { $0 } == 0)
    clock.advance(by: .milliseconds(1))
    try await task.value
    #expect(got.withLock { $0 } == 1)
  }
}
