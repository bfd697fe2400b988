import SwellTime
import Testing

@Suite("ManualMonotonicClock: cancelling a sleeper")
private struct ManualClockCancellationTests {
  @Test("a cancelled sleeper wakes with CancellationError and leaves the clock")
  func cancelledSleeperWakes() async throws {
    let manual = ManualMonotonicClock()
    let clock = manual.clock
    let sleeper = Task { try await clock.sleep(until: 10) }
    for _ in 0..<10_000 where manual.sleeperCount == 0 { await Task.yield() }
    #expect(manual.sleeperCount == 1)
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(manual.sleeperCount == 0)
    #expect(manual.now == 0)
  }

  @Test("a task cancelled before it sleeps throws at once")
  func cancelledBeforeSleeping() async throws {
    let clock = ManualMonotonicClock().clock
    let sleeper = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(until: 10)
    }
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }
}
