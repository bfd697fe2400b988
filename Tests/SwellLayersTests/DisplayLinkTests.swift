import SwellLayers
import SwellTestSupport
import SwellTime
import Synchronization
import Testing

/// What a display-link handler saw: the frame and the manual clock's time when it ran.
private final class FrameLog: Sendable {
  private let entries = Mutex<[(frame: DisplayLinkFrame, clockTime: Duration)]>([])

  func append(_ frame: DisplayLinkFrame, at time: Duration) {
    entries.withLock { $0.append((frame, time)) }
  }

  var all: [(frame: DisplayLinkFrame, clockTime: Duration)] { entries.withLock { $0 } }
  var count: Int { entries.withLock { $0.count } }
}

/// Yields until `condition` holds; records an issue instead of hanging if it never does.
private func eventually(_ what: String, _ condition: () -> Bool) async {
  for _ in 0..<1_000_000 {
    if condition() { return }
    await Task.yield()
  }
  Issue.record("timed out waiting for \(what)")
}

/// Ticks the link (outside `#require`, which cannot take a mutating call).
private func tick(_ link: inout DisplayLink, _ time: Double) -> DisplayLinkFrame? {
  link.tick(presentedAt: time)
}

@Suite("DisplayLink")
private struct DisplayLinkTests {
  @Test(
    "Offline frames are exact: frame i targets start + i / fps",
    arguments: [24.0, 30, 60, 120, 144])
  func offlineExact(fps: Double) {
    var link = DisplayLink(preferredFramesPerSecond: fps, startTime: 3)
    let frames = link.offlineFrames(count: Int(fps) * 10 + 1)
    #expect(frames.count == Int(fps) * 10 + 1)
    for (i, f) in frames.enumerated() {
      #expect(f.index == i)
      #expect(f.targetTimestamp == 3 + Double(i) / fps)
      #expect(abs(f.duration - 1 / fps) < 1e-12)
    }
    // No drift: whole seconds land exactly, however many frames came before.
    #expect(frames[Int(fps)].targetTimestamp == 4)
    #expect(frames[Int(fps) * 10].targetTimestamp == 13)
    #expect(frames[0].targetTimestamp == 3)
    #expect(link.lastFrame == frames.last)
  }

  @Test("60 and 120 fps share timestamps at even indices")
  func sharedTimestamps() {
    var slow = DisplayLink(preferredFramesPerSecond: 60, startTime: 12.345)
    var fast = DisplayLink(preferredFramesPerSecond: 120, startTime: 12.345)
    let s = slow.offlineFrames(count: 600)
    let f = fast.offlineFrames(count: 1200)
    for i in 0..<600 {
      #expect(f[2 * i].targetTimestamp == s[i].targetTimestamp, "frame \(i)")
    }
  }

  @Test("frame(at:) is the same as stepping")
  func frameAt() {
    var link = DisplayLink(preferredFramesPerSecond: 50, startTime: 1)
    let first = link.frame(at: 0)
    #expect(first.index == 0 && first.targetTimestamp == 1 && abs(first.timestamp - 0.98) < 1e-15)
    for i in 0..<100 {
      #expect(link.step() == link.frame(at: i))
    }
  }

  @Test("Pause, resume and invalidate")
  func pauseAndInvalidate() {
    var link = DisplayLink(preferredFramesPerSecond: 60)
    #expect(link.state == .idle)
    #expect(link.timestamp == 0 && link.targetTimestamp == 0 && link.lastFrame == nil)
    #expect(link.duration == 1.0 / 60)
    link.isPaused = true
    #expect(link.state == .paused && link.step() == nil)
    link.isPaused = false
    #expect(link.state == .idle)
    #expect(link.step()?.index == 0)
    #expect(link.state == .running)
    link.isPaused = true
    #expect(link.isPaused)
    #expect(link.offlineFrames(count: 5).isEmpty)
    #expect(link.tick(presentedAt: 1) == nil)
    link.isPaused = false
    #expect(link.state == .running)
    #expect(link.step()?.index == 1)
    link.invalidate()
    #expect(link.state == .invalidated)
    #expect(link.step() == nil)
    link.isPaused = false
    #expect(link.state == .invalidated)
    #expect(link.tick(presentedAt: 2) == nil)
    #expect(link.lastFrame?.index == 1)
  }

  @Test("tick(presentedAt:) targets the next vsync from measured intervals")
  func tickMeasured() throws {
    var link = DisplayLink(preferredFramesPerSecond: 60)
    // The first tick has nothing measured: the preferred duration.
    let f0 = try #require(tick(&link, 100))
    #expect(f0.index == 0 && f0.timestamp == 100 && f0.targetTimestamp == 100 + 1.0 / 60)
    // A 144 Hz panel: the measured 1/144 s is used once the targets have caught up with the
    // first guess of 1/60 s (targets never go back).
    var f1 = f0
    for k in 1...4 { f1 = try #require(tick(&link, 100 + Double(k) / 144)) }
    #expect(abs(f1.duration - 1.0 / 144) < 1e-12)
    #expect(
      f1.index == 4 && link.timestamp == f1.timestamp && link.targetTimestamp == f1.targetTimestamp)
    // A 1 s hitch is implausible: back to the preferred duration.
    let f2 = try #require(tick(&link, 101.5))
    #expect(abs(f2.duration - 1.0 / 60) < 1e-12)
    // So is a double present 1 ms later.
    let f3 = try #require(tick(&link, 101.501))
    #expect(abs(f3.duration - 1.0 / 60) < 1e-12)
    // Present times seen while paused still count as measurements.
    link.isPaused = true
    #expect(link.tick(presentedAt: 102) == nil)
    link.isPaused = false
    let f4 = try #require(tick(&link, 102 + 1.0 / 30))
    #expect(abs(f4.duration - 1.0 / 30) < 1e-9)
    #expect(f4.index == 7)
  }

  @Test("tick(presentedAt:): after a late frame the next target is not earlier than the last")
  func tickAfterLateFrame() throws {
    let d = 1.0 / 60
    var link = DisplayLink(preferredFramesPerSecond: 60)
    _ = try #require(tick(&link, 0))
    _ = try #require(tick(&link, d))
    // Presented three refreshes later: the measured 3/60 s is plausible, so it targets 7/60 s.
    let late = try #require(tick(&link, 4 * d))
    #expect(abs(late.targetTimestamp - 7 * d) < 1e-12)
    // The next present is on time (5/60 s): 5/60 + 1/60 = 6/60 would go back before 7/60.
    let next = try #require(tick(&link, 5 * d))
    #expect(abs(next.targetTimestamp - (7 * d + d / 4)) < 1e-12)
    #expect(next.timestamp == 5 * d)
    // Two more on-time presents: 6/60 + 1/60 = 7/60 is still not later, then 8/60 is.
    let again = try #require(tick(&link, 6 * d))
    #expect(abs(again.targetTimestamp - (7 * d + d / 2)) < 1e-12)
    let caught = try #require(tick(&link, 7 * d))
    #expect(abs(caught.targetTimestamp - 8 * d) < 1e-12)
  }

  @Test(
    "tick(presentedAt:): targets strictly increase under random present times", arguments: 0..<8)
  func tickTargetsIncrease(seed: UInt64) throws {
    var rng = SplitMix64(seed: 0x5EED_D15C + seed)
    let rate = [30.0, 60, 120, 144][Int(rng.next() % 4)]
    var link = DisplayLink(preferredFramesPerSecond: rate)
    var time = Double(rng.next() % 1000)
    var previous = -Double.infinity
    for i in 0..<2000 {
      // Mostly on time, sometimes a double present or a hitch of up to 6 refreshes.
      let r = Double(rng.next() % 1000) / 1000
      let refreshes = r < 0.8 ? 1 : (r < 0.85 ? 0.05 : 1 + 5 * r)
      time += refreshes / rate * (0.9 + 0.2 * Double(rng.next() % 1000) / 1000)
      let f = try #require(tick(&link, time))
      #expect(
        f.targetTimestamp > previous, "seed \(seed), frame \(i): \(f.targetTimestamp) ≤ \(previous)"
      )
      #expect(f.targetTimestamp > f.timestamp, "seed \(seed), frame \(i)")
      #expect(f.targetTimestamp - f.timestamp < 4 / rate + 1 / rate, "seed \(seed), frame \(i)")
      previous = f.targetTimestamp
    }
  }

  @Test("run(clock:) delivers frames at their target times on a manual clock")
  func runOnManualClock() async throws {
    let clock = ManualClock()
    let log = FrameLog()
    let task = Task {
      var link = DisplayLink(preferredFramesPerSecond: 60, startTime: 5)
      try await link.run(clock: clock, frames: 6) { frame in
        log.append(frame, at: clock.now.offset)
        return true
      }
      return link.lastFrame
    }
    // Frame 0 targets the start: delivered at once, then the link sleeps until frame 1.
    await eventually("frame 0") { log.count == 1 && clock.sleeperCount == 1 }
    // Half a frame in, nothing is due yet.
    clock.advance(by: .seconds(1) / 120)
    await Task.yield()
    #expect(log.count == 1 && clock.sleeperCount == 1)
    // Then step from halfway to halfway between vsyncs: each step wakes exactly one frame.
    for k in 1..<6 {
      clock.advance(by: .seconds(1) / 60)
      await eventually("frame \(k)") { log.count == k + 1 }
      if k < 5 {
        await eventually("sleep before frame \(k + 1)") { clock.sleeperCount == 1 }
        #expect(log.count == k + 1)
      }
    }
    let last = try await task.value
    #expect(last?.index == 5)
    #expect(clock.sleeperCount == 0)
    for (i, entry) in log.all.enumerated() {
      #expect(entry.frame.index == i)
      #expect(entry.frame.targetTimestamp == 5 + Double(i) / 60)
      // Woken no earlier than the frame's time and within half a frame after it.
      let due = Duration.seconds(1) * (Double(i) / 60)
      #expect(entry.clockTime >= due - .nanoseconds(1))
      #expect(entry.clockTime < due + .seconds(1) / 120 + .nanoseconds(1))
    }
  }

  @Test("run(clock:) stops when the handler returns false, or at once when invalidated")
  func runStops() async throws {
    let clock = ManualClock()
    let log = FrameLog()
    let task = Task {
      var link = DisplayLink(preferredFramesPerSecond: 30)
      try await link.run(clock: clock) { frame in
        log.append(frame, at: clock.now.offset)
        return frame.index < 2
      }
    }
    // Step to halfway between vsyncs, so each step wakes exactly one frame.
    for k in 1...2 {
      await eventually("sleep before frame \(k)") { clock.sleeperCount == 1 }
      clock.advance(by: k == 1 ? .seconds(1) / 20 : .seconds(1) / 30)
    }
    try await task.value
    #expect(log.all.map(\.frame.index) == [0, 1, 2])
    #expect(clock.sleeperCount == 0)

    var dead = DisplayLink()
    dead.invalidate()
    var called = false
    try await dead.run(clock: clock) { _ in
      called = true
      return true
    }
    #expect(!called)
  }

  @Test("run(clock:) throws CancellationError when its task is cancelled")
  func runCancelled() async {
    let clock = ManualClock()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      var link = DisplayLink()
      try await link.run(clock: clock, frames: 3) { _ in true }
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.sleeperCount == 0)
  }
}

@Suite("Display link on the library's clock")
private struct DisplayLinkMonotonicClockTests {
  @Test("run(clock:) on a MonotonicClock: each frame wakes at its target time, not before")
  func runOnMonotonicClock() async throws {
    let manual = ManualMonotonicClock(start: 100)
    let log = FrameLog()
    let task = Task {
      var link = DisplayLink(preferredFramesPerSecond: 50, startTime: 2)
      try await link.run(clock: manual.clock, frames: 4) { frame in
        log.append(frame, at: .seconds(manual.now - 100))
        return true
      }
    }
    for k in 1..<4 {
      await eventually("sleep before frame \(k)") { manual.sleeperCount == 1 }
      manual.advance(to: 100 + Double(k) * 0.02 - 0.01)  // half a frame early: nothing due
      await Task.yield()
      #expect(log.count == k)
      manual.advance(to: 100 + Double(k) * 0.02 + 1e-7)
    }
    try await task.value
    #expect(log.all.map(\.frame.index) == [0, 1, 2, 3])
    for (i, entry) in log.all.enumerated() {
      #expect(entry.frame.targetTimestamp == 2 + Double(i) / 50)
      #expect(abs(entry.clockTime.seconds - Double(i) * 0.02) < 1e-6)
    }
  }
}
