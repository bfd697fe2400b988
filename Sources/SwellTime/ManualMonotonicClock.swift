import Synchronization

/// A ``MonotonicClock`` for tests whose time moves only when told to.
///
/// - ``advance(by:)`` and ``advance(to:)`` move the time and wake every task sleeping until a
///   time that has passed, in deadline order.
/// - A task's ``MonotonicClock/sleep(until:)`` suspends until the time is reached, or until the
///   task is cancelled (then it throws `CancellationError`).
/// - A thread's blocking ``MonotonicClock/wait(until:)`` moves the time to its deadline at once
///   (and wakes the sleepers it passes): a loop on one thread runs on the manual time without
///   real waits, deterministically.
///
/// ```swift
/// let manual = ManualMonotonicClock()
/// let source = SomeSource(clock: manual.clock)
/// manual.advance(by: 0.5)  // the source sees half a second pass
/// ```
public final class ManualMonotonicClock: Sendable {
  private struct Sleeper {
    var deadline: Double
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now: Double
    var sleepers: [Int: Sleeper] = [:]
    /// Sleepers cancelled before they were registered.
    var cancelled: Set<Int> = []
    var nextID = 0
  }

  private let state: Mutex<State>

  /// Creates a manual clock.
  ///
  /// - Parameter start: Its time at creation, seconds (default 0).
  public init(start: Double = 0) { state = Mutex(State(now: start)) }

  /// The current manual time, seconds.
  public var now: Double { state.withLock { $0.now } }

  /// The number of tasks sleeping on the clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// The clock as the library takes it.
  public var clock: MonotonicClock {
    MonotonicClock(
      now: { [self] in now },
      sleepUntil: { [self] t in try await sleep(until: t) },
      waitUntil: { [self] t in advance(to: t) })
  }

  /// Moves the time forward by an amount and wakes the sleepers whose time has come.
  ///
  /// - Parameter seconds: The amount, seconds; negative or non-finite amounts are ignored.
  public func advance(by seconds: Double) {
    guard seconds > 0, seconds.isFinite else { return }
    advance(to: now + seconds)
  }

  /// Moves the time forward to a time (never back) and wakes the sleepers whose time has come.
  ///
  /// - Parameter time: The time, seconds; an earlier or non-finite time leaves the clock as is.
  public func advance(to time: Double) {
    let due: [CheckedContinuation<Void, any Error>] = state.withLock { s in
      if time.isFinite, time > s.now { s.now = time }
      let ready = s.sleepers.filter { $0.value.deadline <= s.now }
      for key in ready.keys { s.sleepers[key] = nil }
      return ready.sorted { $0.value.deadline < $1.value.deadline }.map(\.value.continuation)
    }
    for c in due { c.resume() }
  }

  /// Suspends until the manual time reaches `deadline`; a cancelled task wakes at once with
  /// `CancellationError` (as `Task.sleep` does).
  private func sleep(until deadline: Double) async throws {
    try Task.checkCancellation()
    let id = state.withLock { s in
      defer { s.nextID += 1 }
      return s.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
        let resumeNow: Bool? = state.withLock { s in
          if s.cancelled.remove(id) != nil { return nil }
          if deadline <= s.now { return true }
          s.sleepers[id] = Sleeper(deadline: deadline, continuation: c)
          return false
        }
        switch resumeNow {
        case nil: c.resume(throwing: CancellationError())
        case true?: c.resume()
        case false?: break
        }
      }
    } onCancel: {
      let sleeper: Sleeper? = state.withLock { s in
        guard let sleeper = s.sleepers.removeValue(forKey: id) else {
          s.cancelled.insert(id)
          return nil
        }
        return sleeper
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }
}
