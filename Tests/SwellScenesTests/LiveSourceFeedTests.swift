import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import SwellTime
import Synchronization
import Testing

@testable import SwellScenes

/// A source that plays a fixed list of events (samples, errors), then ends; it counts stops.
private final class ScriptedSource: MotionSource {
  let name = "fake:scripted"
  let hasMagnetometer: Bool
  private let events: Mutex<[Result<MotionEvent, MotionSourceError>]>
  let stops = Atomic<Int>(0)

  init(_ events: [Result<MotionEvent, MotionSourceError>], magnetometer: Bool = false) {
    self.events = Mutex(events)
    hasMagnetometer = magnetometer
  }

  func next() async throws -> MotionEvent? {
    guard let item = events.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return nil }
    return try item.get()
  }

  func stop() async { stops.add(1, ordering: .relaxed) }
}

/// Specific force of a device held upright and turned counter-clockwise by `degrees` (seen
/// from the front), m/s², device frame.
private func uprightForce(degrees: Double) -> Vector3 {
  let b = degrees * .pi / 180
  return Vector3(9.81 * sin(b), 9.81 * cos(b), 0)
}

/// Raw samples at 100 Hz from t = `start`: at rest in the upright pose turned by `degrees`.
private func restingSamples(
  count: Int, degrees: Double, start: Double = 50, magnetometer: Vector3? = nil
) -> [Result<MotionEvent, MotionSourceError>] {
  (0..<count).map { i in
    .success(
      .sample(
        IMUSample(
          timestamp: start + Double(i) / 100, gyroscope: .zero,
          accelerometer: uprightForce(degrees: degrees), magnetometer: magnetometer)))
  }
}

/// Polls a feed at advancing frame times until its source ended or failed (at most 10 s).
private func drainToEnd(_ feed: LiveSourceFeed) async -> (
  motions: [DeviceMotion], failure: String?, time: Double
) {
  var motions: [DeviceMotion] = []
  var time = 0.0
  var exhausted = false
  for _ in 0..<10_000 {
    time += 0.01
    do {
      motions += try feed.motions(upTo: time)
    } catch {
      return (motions, "\(error)", time)
    }
    // One more frame after the end: a final error is thrown then.
    if exhausted { return (motions, nil, time) }
    exhausted = feed.samples.isExhausted
    try? await Task.sleep(for: .milliseconds(1))
  }
  return (motions, nil, time)
}

/// A resting device motion at a timestamp.
private func motion(at t: Double) -> DeviceMotion {
  DeviceMotion.resting(timestamp: t, attitude: Attitude(quaternion: .identity))
}

@Suite("Live sources through a MotionManager: fusion, messages, clock mapping")
private struct LiveSourceFeedTests {
  @Test("a live source sending g instead of m/s² gets one message naming the mistake")
  func unitWarning() async throws {
    // Three seconds at rest in the upright pose, the accelerometer in g.
    let events: [Result<MotionEvent, MotionSourceError>] = (0..<300).map { i in
      .success(
        .sample(
          IMUSample(
            timestamp: 50 + Double(i) / 100, gyroscope: .zero,
            accelerometer: uprightForce(degrees: 0) * (1 / 9.80665))))
    }
    let feed = try SceneMotionInput.liveFeed(
      "fake", loops: false, referenceFrame: .xArbitraryZVertical
    ) { _ in ScriptedSource(events) }
    let live = try #require(feed as? LiveSourceFeed)
    var messages: [String] = []
    live.onMessage = { messages.append($0) }
    _ = await drainToEnd(live)
    live.close()
    let units = messages.filter { $0.contains("look like g, not m/s²") }
    #expect(units.count == 1, "\(messages)")
    #expect(
      units.first?.hasPrefix("fake:scripted: the accelerometer's median magnitude is ") == true)
    #expect(units.first?.contains("the stream must send m/s²") == true)
  }

  @Test("raw samples are fused 6D; a transient error is reported and the pull goes on")
  func fusesAndResumes() async throws {
    let events =
      restingSamples(count: 100, degrees: 30)
      + [.failure(MotionSourceError("device unplugged", isTransient: true))]
      + restingSamples(count: 100, degrees: 30, start: 51)
    let source = ScriptedSource(events)
    let feed = LiveSourceFeed(
      manager: MotionManager(
        source: source,
        clock: MonotonicClock(now: { 0 }, sleepUntil: { _ in }, waitUntil: { _ in })),
      referenceFrame: .xArbitraryZVertical)
    var messages: [String] = []
    feed.onMessage = { messages.append($0) }
    let (motions, failure, end) = await drainToEnd(feed)
    feed.close()
    #expect(failure == nil)
    #expect(messages == ["fake:scripted: device unplugged", "fake:scripted: the source ended"])
    // The scripted source runs far faster than real time, so the clock mapping drops the
    // samples that would map before ones already delivered; none is lost before it. How many
    // are dropped depends on how the source's thread and the polls interleave (on a loaded
    // machine nearly all of a batch), so only that some were delivered is fixed; the pull
    // going on past the error is shown by the source's end being reported.
    #expect(motions.count == feed.deliveredCount)
    #expect(feed.deliveredCount + feed.droppedCount == 200)
    #expect(feed.deliveredCount > 0)
    // CoreMotion gravity points toward the Earth, in g: the opposite of the specific force.
    let g = try #require(motions.last).gravity
    let want = uprightForce(degrees: 30) * (-1 / 9.81)
    #expect((g - want).length < 0.01, "\(g) vs \(want)")
    #expect(motions.map(\.timestamp) == motions.map(\.timestamp).sorted())
    #expect(feed.statusLine(at: end).hasPrefix("fake:scripted 6D: \(feed.deliveredCount) samples"))
    #expect(feed.statusLine(at: end).contains("the source ended"))
    // The source ended: the manager stopped it.
    for _ in 0..<1000 where source.stops.load(ordering: .relaxed) == 0 {
      try await Task.sleep(for: .milliseconds(1))
    }
    #expect(source.stops.load(ordering: .relaxed) == 1)
  }

  @Test("the status line names the mode the manager fuses in, the 9D override applied")
  func statusLineFollowsOverride() async {
    let field = Vector3(20, 0, -40)
    let manager = MotionManager(
      source: ScriptedSource(
        restingSamples(count: 20, degrees: 0, magnetometer: field), magnetometer: true))
    // An arbitrary-heading frame is 6D by the one rule; the override makes it 9D.
    manager.fusionMode = .nineD
    let feed = LiveSourceFeed(manager: manager, referenceFrame: .xArbitraryZVertical)
    let (motions, failure, _) = await drainToEnd(feed)
    #expect(motions.count == 20 && failure == nil)
    #expect(feed.statusLine(at: 1).hasPrefix("fake:scripted 9D"), "\(feed.statusLine(at: 1))")
  }

  @Test("a magnetometer frame fuses 9D; without a magnetometer it fails with one line")
  func nineD() async throws {
    let field = Vector3(20, 0, -40)
    let nine = LiveSourceFeed(
      manager: MotionManager(
        source: ScriptedSource(
          restingSamples(count: 50, degrees: 0, magnetometer: field), magnetometer: true)),
      referenceFrame: .xMagneticNorthZVertical)
    let (m9, f9, _) = await drainToEnd(nine)
    #expect(m9.count == 50 && f9 == nil)
    #expect(nine.statusLine(at: 1).hasPrefix("fake:scripted 9D"))

    let six = LiveSourceFeed(
      manager: MotionManager(source: ScriptedSource(restingSamples(count: 5, degrees: 0))),
      referenceFrame: .xMagneticNorthZVertical)
    let (m6, f6, _) = await drainToEnd(six)
    let failure = try #require(f6)
    #expect(failure.contains("fake:scripted has no magnetometer"), "\(failure)")
    #expect(failure.contains("xMagneticNorthZVertical"))
    #expect(m6.isEmpty)
  }

  @Test("a permanent source error ends the live feed with one line naming the source")
  func failure() async throws {
    let source = ScriptedSource(
      restingSamples(count: 3, degrees: 0) + [.failure(MotionSourceError("bad scan data"))])
    let feed = LiveSourceFeed(manager: MotionManager(source: source))
    let (motions, failure, _) = await drainToEnd(feed)
    #expect(failure == "fake:scripted: bad scan data")
    #expect(motions.count <= 3)
  }

  @Test("clock mapping: the newest sample of the first batch maps to the frame time")
  func mapperAnchors() throws {
    var mapper = LiveClockMapper()
    let out = mapper.map([motion(at: 100), motion(at: 100.01), motion(at: 100.02)], at: 2)
    #expect(out.map(\.timestamp).count == 3)
    #expect(abs(out[2].timestamp - 2) < 1e-12)
    #expect(abs(out[0].timestamp - 1.98) < 1e-12)
    #expect(try #require(mapper.offset) == 2 - 100.02)
  }

  @Test("clock mapping: steady arrivals keep the smallest latency; delivered times increase")
  func mapperSteady() throws {
    var rng = SplitMix64(seed: 0x11FE_50CE)
    var mapper = LiveClockMapper()
    var source = 500.0
    var previous = -Double.infinity
    for frame in 1...600 {
      let time = Double(frame) / 60
      // 100 Hz samples, arriving with 0...20 ms of latency: the batch holds those sent by then.
      var batch: [DeviceMotion] = []
      let latency = Double(rng.next() % 20) / 1000
      while source - 500 <= time - latency {
        batch.append(motion(at: source))
        source += 0.01
      }
      let out = mapper.map(batch, at: time)
      for m in out {
        #expect(m.timestamp > previous, "seed 0x11FE50CE, frame \(frame)")
        #expect(m.timestamp <= time + 1e-12, "seed 0x11FE50CE, frame \(frame)")
        previous = m.timestamp
      }
    }
    #expect(mapper.dropped == 0)
    // The offset is within one sample interval of the smallest latency (0 ms).
    let offset = try #require(mapper.offset)
    #expect(abs(offset - -500) < 0.011, "\(offset)")
  }

  @Test("clock mapping: a slow source clock re-anchors; samples queued while paused are dropped")
  func mapperReanchors() throws {
    var mapper = LiveClockMapper()
    _ = mapper.map([motion(at: 10)], at: 1)
    // The source's clock ran 0.3 s slower than ours: more than the tolerance behind.
    let late = mapper.map([motion(at: 10.7)], at: 2)
    #expect(abs(try #require(late.first).timestamp - 2) < 1e-12)
    // Paused 5 s of source time while scene time stood still at 2.1: the newest maps to 2.1,
    // the ones before it would map at or before 2 (delivered already) and are dropped.
    let batch = stride(from: 11.0, through: 15.7, by: 0.1).map { motion(at: $0) }
    let out = mapper.map(batch, at: 2.1)
    #expect(abs(try #require(out.last).timestamp - 2.1) < 1e-9)
    #expect(out.allSatisfy { $0.timestamp > 2 })
    #expect(mapper.dropped == batch.count - out.count)
    #expect(mapper.dropped > 40)
  }

  @Test("--loop: a replayed recording starts again, shifted by its period")
  func loopingRecording() throws {
    let motions = [motion(at: 0), motion(at: 0.1), motion(at: 0.2)]
    let recording = MotionRecording(
      name: "r", format: .deviceMotion,
      content: .deviceMotion(motions, referenceFrame: .xArbitraryZVertical))
    let feed = ReplayMotionFeed(
      manager: MotionManager(source: RecordingSource(recording, loops: true)), name: "r")
    let first = try feed.motions(upTo: 0.65).map(\.timestamp)
    let second = try feed.motions(upTo: 0.95).map(\.timestamp)
    let want1 = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    let want2 = [0.7, 0.8, 0.9]
    #expect(first.count == want1.count && zip(first, want1).allSatisfy { abs($0 - $1) < 1e-9 })
    #expect(second.count == want2.count && zip(second, want2).allSatisfy { abs($0 - $1) < 1e-9 })
    feed.close()
    let once = ReplayMotionFeed(
      manager: MotionManager(source: RecordingSource(recording)), name: "r")
    #expect(try once.motions(upTo: 5).count == 3)
    #expect(try once.motions(upTo: 9).isEmpty)
    #expect(once.isExhausted)
  }
}
