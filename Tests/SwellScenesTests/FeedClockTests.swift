import Foundation
import SwellGeometry
import SwellMotion
import SwellTime
import Synchronization
import Testing

@testable import SwellScenes

/// A source that hands out its samples, then ends.
private final class ListSource: MotionSource {
  let name = "fake:list"
  let hasMagnetometer = false
  private let samples: Mutex<[IMUSample]>

  init(_ samples: [IMUSample]) { self.samples = Mutex(samples) }

  func next() async throws -> MotionEvent? {
    samples.withLock { $0.isEmpty ? nil : .sample($0.removeFirst()) }
  }

  func stop() async {}
}

/// 100 Hz samples of a device lying flat, from t = 10 s.
private func flatSamples(_ count: Int) -> [IMUSample] {
  (0..<count).map {
    IMUSample(
      timestamp: 10 + Double($0) / 100, gyroscope: .zero, accelerometer: Vector3(0, 0, 9.81))
  }
}

@Suite("One clock through the feed and its manager")
private struct FeedClockTests {
  @Test("a live feed opened on a manual clock stamps its arrivals on that clock, not the system's")
  func liveFeedArrivals() async throws {
    let manual = ManualMonotonicClock(start: 1000)
    let feed = try SceneMotionInput.liveFeed(
      "fake", loops: false, referenceFrame: .xArbitraryZVertical, clock: manual.clock
    ) { _ in ListSource(flatSamples(30)) }
    defer { feed.close() }
    #expect(feed.clock.now() == 1000)
    var arrivals: [Double] = []
    var delivered = 0
    for _ in 0..<2000 where delivered < 30 {
      delivered += try feed.motions(upTo: 100).count
      arrivals += feed.takeArrivals()
      try await Task.sleep(for: .milliseconds(1))
    }
    #expect(delivered == 30)
    // Every arrival was read on the manual clock, which stood at 1000 throughout (the system's
    // monotonic clock reads the seconds since boot, never exactly that).
    #expect(!arrivals.isEmpty)
    #expect(arrivals.allSatisfy { $0 == 1000 }, "\(arrivals.prefix(5))")
    manual.advance(by: 2)
    #expect(feed.clock.now() == 1002)
  }

  @Test("feeds without a manager are on the system's monotonic clock")
  func defaultClock() {
    let feed = ArrayMotionFeed([])
    let before = systemMonotonicSeconds()
    let now = feed.clock.now()
    #expect(now >= before && now < before + 5)
  }

  @Test("a replayed recording's feed is on its manager's clock")
  func replayClock() {
    let manual = ManualMonotonicClock(start: 42)
    let manager = MotionManager(source: ListSource(flatSamples(5)), clock: manual.clock)
    let feed = ReplayMotionFeed(manager: manager, name: "list")
    defer { feed.close() }
    #expect(feed.clock.now() == 42)
  }
}
