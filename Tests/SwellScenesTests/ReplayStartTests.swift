import Foundation
import SwellGeometry
import SwellMotion
import Synchronization
import Testing

@testable import SwellScenes

/// A device-motion source that plays a fixed list of events, then ends.
private final class ListSource: MotionSource {
  let name = "fake:list"
  let hasMagnetometer = false
  let providesRawSamples = false
  private let events: Mutex<[Result<MotionEvent, MotionSourceError>]>

  init(_ events: [Result<MotionEvent, MotionSourceError>]) { self.events = Mutex(events) }

  func next() async throws -> MotionEvent? {
    guard let item = events.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return nil }
    return try item.get()
  }

  func stop() async {}
}

/// Resting device motion at 100 Hz from t = 10 s.
private func motions(_ count: Int) -> [Result<MotionEvent, MotionSourceError>] {
  (0..<count).map { i in
    .success(
      .deviceMotion(
        DeviceMotion.resting(
          timestamp: 10 + Double(i) / 100, attitude: Attitude(quaternion: .identity))))
  }
}

@Suite("A replayed recording's start: the skip window")
private struct ReplayStartTests {
  @Test("a source failing inside the start-skip window is an error, not the recording's end")
  func failureInsideSkip() throws {
    // 50 samples (0.5 s), then a failure; the skip is 1 s, so the failure comes while skipping.
    let source = ListSource(motions(50) + [.failure(MotionSourceError("bad row 51"))])
    let feed = ReplayMotionFeed(
      manager: MotionManager(source: source), name: "recording", skip: 1)
    _ = feed.startTime
    #expect(!feed.isExhausted)
    let error = #expect(throws: SceneMotionError.self) { try feed.motions(upTo: 100) }
    #expect(error?.message.contains("bad row 51") == true, "\(String(describing: error))")
    #expect(error?.problem == .failed)
  }

  @Test("a source failing on its first sample is an error too")
  func failureFirst() throws {
    let source = ListSource([.failure(MotionSourceError("cannot open"))])
    let feed = ReplayMotionFeed(manager: MotionManager(source: source), name: "recording")
    #expect(throws: SceneMotionError.self) { try feed.motions(upTo: 100) }
  }

  @Test("a recording that ends inside the skip window delivers nothing and no error")
  func endInsideSkip() throws {
    let feed = ReplayMotionFeed(
      manager: MotionManager(source: ListSource(motions(50))), name: "recording", skip: 1)
    #expect(feed.startTime == 0)
    #expect(try feed.motions(upTo: 100).isEmpty)
    #expect(feed.isExhausted)
  }

  @Test("after the skip window the first delivered sample starts the feed")
  func skipThenDeliver() throws {
    let feed = ReplayMotionFeed(
      manager: MotionManager(source: ListSource(motions(200))), name: "recording", skip: 0.5)
    #expect(abs(feed.startTime - 10.5) < 1e-9)
    let delivered = try feed.motions(upTo: 100)
    #expect(delivered.count == 150)
    #expect(abs((delivered.first?.timestamp ?? 0) - 10.5) < 1e-9)
  }
}
