import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Synchronization
import Testing

@testable import SwellTool

/// A source that plays a fixed list of events (samples, errors), then ends.
private final class ScriptedSource: MotionSource {
  let name = "fake:scripted"
  let hasMagnetometer: Bool
  private let events: Mutex<[Result<MotionEvent, MotionSourceError>]>

  init(_ events: [Result<MotionEvent, MotionSourceError>], magnetometer: Bool = false) {
    self.events = Mutex(events)
    hasMagnetometer = magnetometer
  }

  func next() async throws -> MotionEvent? {
    guard let item = events.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return nil }
    return try item.get()
  }
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

/// Drains a pump until its source ended or failed (at most 10 s), collecting the batches.
/// Async, so it never blocks a thread of the pool the pump's task runs on.
private func drainToEnd(_ pump: SourcePump) async throws -> SourcePump.Batch {
  var all = SourcePump.Batch()
  for _ in 0..<10_000 {
    let b = pump.drain()
    all.motions += b.motions
    all.messages += b.messages
    all.failure = b.failure
    all.ended = b.ended
    if b.ended || b.failure != nil { break }
    try await Task.sleep(for: .milliseconds(1))
  }
  return all
}

/// A resting device motion at a timestamp.
private func motion(at t: Double) -> DeviceMotion {
  DeviceMotion.resting(timestamp: t, attitude: Attitude(quaternion: .identity))
}

@Suite("swell live: sensor sources (pump, clock mapping, loop)")
struct LiveSourceTests {
  @Test("raw samples are fused 6D; a transient error is reported and the pull goes on")
  func pumpFusesAndResumes() async throws {
    let events =
      restingSamples(count: 100, degrees: 30)
      + [.failure(MotionSourceError("device unplugged", isTransient: true))]
      + restingSamples(count: 100, degrees: 30, start: 51)
    let pump = SourcePump(
      source: ScriptedSource(events), referenceFrame: .xArbitraryZVertical, stop: {})
    pump.start()
    let batch = try await drainToEnd(pump)
    await pump.stop()
    #expect(batch.ended)
    #expect(batch.failure == nil)
    #expect(batch.messages == ["device unplugged"])
    #expect(batch.motions.count == 200)
    #expect(pump.mode == .sixD)
    #expect(pump.total == 200)
    // CoreMotion gravity points toward the Earth, in g: the opposite of the specific force.
    let g = try #require(batch.motions.last).gravity
    let want = uprightForce(degrees: 30) * (-1 / 9.81)
    #expect((g - want).length < 0.01, "\(g) vs \(want)")
    #expect(batch.motions.map(\.timestamp) == batch.motions.map(\.timestamp).sorted())
  }

  @Test("a magnetometer frame fuses 9D; without a magnetometer it fails with one line")
  func pumpNineD() async throws {
    let field = Vector3(20, 0, -40)
    let nine = SourcePump(
      source: ScriptedSource(
        restingSamples(count: 50, degrees: 0, magnetometer: field), magnetometer: true),
      referenceFrame: .xMagneticNorthZVertical, stop: {})
    nine.start()
    let b9 = try await drainToEnd(nine)
    await nine.stop()
    #expect(b9.motions.count == 50 && b9.failure == nil)
    #expect(nine.mode == .nineD)

    let six = SourcePump(
      source: ScriptedSource(restingSamples(count: 5, degrees: 0)),
      referenceFrame: .xMagneticNorthZVertical, stop: {})
    six.start()
    let b6 = try await drainToEnd(six)
    await six.stop()
    let failure = try #require(b6.failure)
    #expect(failure.contains("fake:scripted has no magnetometer"))
    #expect(failure.contains("xMagneticNorthZVertical"))
    #expect(b6.motions.isEmpty)
  }

  @Test("a permanent source error ends the live feed with one line naming the source")
  func feedFailure() async throws {
    let source = ScriptedSource(
      restingSamples(count: 3, degrees: 0) + [.failure(MotionSourceError("bad scan data"))])
    let feed = SourceFeed(
      pump: SourcePump(source: source, referenceFrame: .xArbitraryZVertical, stop: {}))
    var thrown: (any Error)?
    var delivered = 0
    for i in 0..<10_000 {
      do {
        delivered += try feed.samples(upTo: Double(i) / 1000).count
      } catch {
        thrown = error
        break
      }
      try await Task.sleep(for: .milliseconds(1))
    }
    await feed.pump.stop()
    let error = try #require(thrown as? ToolError)
    #expect("\(error)" == "fake:scripted: bad scan data")
    #expect(delivered <= 3)
  }

  @Test("transient messages reach onMessage and the HUD; the end of the source is reported")
  func feedMessages() async throws {
    let source = ScriptedSource(
      restingSamples(count: 3, degrees: 0)
        + [.failure(MotionSourceError("iio:device0 disappeared", isTransient: true))]
        + restingSamples(count: 3, degrees: 0, start: 60))
    let feed = SourceFeed(
      pump: SourcePump(source: source, referenceFrame: .xArbitraryZVertical, stop: {}))
    var messages: [String] = []
    feed.onMessage = { messages.append($0) }
    var delivered = 0
    var time = 0.0
    for _ in 0..<10_000 where messages.count < 2 {
      time += 0.05
      delivered += try feed.samples(upTo: time).count
      try await Task.sleep(for: .milliseconds(1))
    }
    await feed.pump.stop()
    #expect(
      messages == [
        "fake:scripted: iio:device0 disappeared", "fake:scripted: the source ended",
      ])
    #expect(delivered == 6)
    #expect(feed.hudLine(at: time).hasPrefix("fake:scripted 6D: 6 samples"))
    #expect(feed.hudLine(at: time).contains("the source ended"))
  }

  @Test("stopping runs the source's stop closure once")
  func stopOnce() async throws {
    let stops = Atomic<Int>(0)
    let pump = SourcePump(
      source: ScriptedSource([]), referenceFrame: .xArbitraryZVertical,
      stop: { stops.add(1, ordering: .relaxed) })
    pump.start()
    await pump.stop()
    await pump.stop()
    #expect(stops.load(ordering: .relaxed) == 1)
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

  @Test("--loop: a recording replays from the start, shifted by its period")
  func loopingRecording() throws {
    let motions = [motion(at: 0), motion(at: 0.1), motion(at: 0.2)]
    let feed = RecordingFeed(name: "r", motions: motions, loops: true)
    #expect(abs(feed.period - 0.3) < 1e-12)
    let first = feed.samples(upTo: 0.65).map(\.timestamp)
    let second = feed.samples(upTo: 0.95).map(\.timestamp)
    let want1 = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    let want2 = [0.7, 0.8, 0.9]
    #expect(first.count == want1.count && zip(first, want1).allSatisfy { abs($0 - $1) < 1e-9 })
    #expect(second.count == want2.count && zip(second, want2).allSatisfy { abs($0 - $1) < 1e-9 })
    #expect(feed.hudLine(at: 0.95).contains("pass 4"))
    let once = RecordingFeed(name: "r", motions: motions)
    #expect(once.samples(upTo: 5).count == 3)
    #expect(once.samples(upTo: 9).isEmpty)
  }

  @Test(
    "usage: sensor options need a sensor source; --loop needs a recording",
    arguments: [
      ["live", "waterwave", "--listen", "0.0.0.0"],
      ["live", "waterwave", "--motion", "mouse", "--sysfs-root", "/x"],
      ["live", "waterwave", "--motion", "udp:5555", "--sysfs-root", "/x"],
      ["live", "waterwave", "--motion", "udp:99999"],
      ["live", "waterwave", "--motion", "iio", "--listen", "0.0.0.0"],
      ["live", "waterwave", "--motion", "iio", "--mode", "fast"],
      ["live", "waterwave", "--motion", "keyboard", "--loop"],
      ["live", "waterwave", "--motion", "udp:5555", "--reference-frame", "north"],
    ])
  func usage(arguments: [String]) async throws {
    let r = try await LiveTool.run(arguments)
    #expect(r.status == 2, "\(arguments): \(r.stderr)")
    #expect(r.stderr.hasPrefix("swell live: "))
    #expect(r.stderr.split(separator: "\n").count == 1)
  }

  @Test("iio: a missing sysfs tree fails with one line naming it")
  func iioMissing() async throws {
    let r = try await LiveTool.run([
      "live", "waterwave", "--motion", "iio", "--sysfs-root", "/nonexistent-swell-iio",
    ])
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("swell live: "))
    #expect(r.stderr.contains("/nonexistent-swell-iio"))
    #expect(r.stderr.split(separator: "\n").count == 1)
  }
}
