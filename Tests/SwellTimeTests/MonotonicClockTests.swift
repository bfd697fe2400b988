import SwellTime
import Synchronization
import Testing

/// The deadlines of the sleepers that woke, in order.
private final class Woken: Sendable {
  let values = Mutex<[Double]>([])
}

@Suite("MonotonicClock and ManualMonotonicClock")
private struct MonotonicClockTests {
  @Test("a manual clock starts where it is told and only moves forward")
  func manualClockMovesForwardOnly() {
    let manual = ManualMonotonicClock(start: 2.5)
    let clock = manual.clock
    #expect(clock.now() == 2.5)
    manual.advance(by: 0.25)
    #expect(clock.now() == 2.75)
    manual.advance(to: 1.0)
    #expect(clock.now() == 2.75)
    manual.advance(by: -1)
    manual.advance(by: .nan)
    manual.advance(to: .infinity)
    #expect(clock.now() == 2.75)
  }

  @Test("a blocking wait on a manual clock moves its time to the deadline without waiting")
  func blockingWaitJumpsManualTime() {
    let manual = ManualMonotonicClock()
    let clock = manual.clock
    for i in 1...1000 { clock.wait(until: Double(i) * 0.016) }
    #expect(abs(clock.now() - 16.0) < 1e-9)
    clock.wait(until: 3)
    #expect(abs(clock.now() - 16.0) < 1e-9)
    clock.wait(seconds: 0.5)
    #expect(abs(clock.now() - 16.5) < 1e-9)
  }

  @Test("sleepers wake in deadline order once the manual time passes their deadlines")
  func sleepersWakeInOrder() async throws {
    let manual = ManualMonotonicClock()
    let clock = manual.clock
    let woken = Woken()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for deadline in [0.3, 0.1, 0.2] {
        group.addTask {
          try await clock.sleep(until: deadline)
          woken.values.withLock { $0.append(deadline) }
        }
      }
      while manual.sleeperCount < 3 { await Task.yield() }
      manual.advance(to: 0.15)
      while woken.values.withLock({ $0.count }) < 1 { await Task.yield() }
      #expect(woken.values.withLock { $0 } == [0.1])
      #expect(manual.sleeperCount == 2)
      manual.advance(by: 1)
      try await group.waitForAll()
    }
    #expect(Set(woken.values.withLock { $0 }) == [0.1, 0.2, 0.3])
  }

  @Test("a sleep until a time already passed returns at once")
  func pastDeadlineReturns() async throws {
    let manual = ManualMonotonicClock(start: 5)
    try await manual.clock.sleep(until: 4)
    #expect(manual.sleeperCount == 0)
  }

  @Test("the continuous clock never goes back and its blocking wait reaches the deadline")
  func continuousClock() {
    let clock = MonotonicClock.continuous
    var last = clock.now()
    for _ in 0..<1000 {
      let t = clock.now()
      #expect(t >= last)
      last = t
    }
    let deadline = clock.now() + 0.002
    clock.wait(until: deadline)
    #expect(clock.now() >= deadline)
    clock.wait(seconds: .nan)
    clock.wait(seconds: -1)
  }

  @Test("a wrapped Swift clock starts at zero and its blocking wait reaches the deadline")
  func wrappedClock() {
    let clock = MonotonicClock(ContinuousClock())
    let t0 = clock.now()
    #expect(t0 >= 0 && t0 < 1)
    clock.wait(until: t0 + 0.002)
    #expect(clock.now() >= t0 + 0.002)
  }

  @Test("Duration.seconds reads seconds and attoseconds", arguments: [0.0, 0.5, 1.25, 3600.000001])
  func durationSeconds(value: Double) {
    #expect(abs(Duration.seconds(value).seconds - value) < 1e-12)
  }
}
