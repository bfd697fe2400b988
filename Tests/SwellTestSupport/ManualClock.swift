import Synchronization

/// A clock for tests whose time moves only when the test calls ``advance(by:)``.
///
/// Sleepers wake when the time passes their deadline. Use it wherever the library takes a
/// `some Clock<Duration>`, so tests never wait on the wall clock.
public final class ManualClock: Clock, Sendable {
  /// The instant of a ``ManualClock``: a duration since its creation.
  public struct Instant: InstantProtocol, Sendable {
    /// The time since the clock's zero.
    public var offset: Duration

    /// Creates an instant.
    ///
    /// - Parameter offset: The time since the clock's zero.
    public init(offset: Duration) { self.offset = offset }

    /// The instant moved by a duration.
    ///
    /// - Parameter duration: The amount to move.
    /// - Returns: The new instant.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

    /// The duration from this instant to another.
    ///
    /// - Parameter other: The later instant.
    /// - Returns: `other − self`.
    public func duration(to other: Instant) -> Duration { other.offset - offset }

    /// Orders instants by time.
    public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
  }

  private struct Sleeper {
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [Int: Sleeper] = [:]
    var nextID = 0
  }

  private let state = Mutex(State())

  /// Creates a clock at time zero.
  public init() {}

  /// The current instant.
  public var now: Instant { state.withLock { $0.now } }

  /// The smallest step the clock can express.
  public var minimumResolution: Duration { .nanoseconds(1) }

  /// The number of tasks sleeping on the clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Suspends until the clock reaches `deadline` (at once when it already has).
  ///
  /// - Parameters:
  ///   - deadline: The instant to wake at.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` when the task is cancelled before sleeping.
  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
      let resumeNow: Bool = state.withLock { s in
        if deadline <= s.now { return true }
        s.sleepers[s.nextID] = Sleeper(deadline: deadline, continuation: c)
        s.nextID += 1
        return false
      }
      if resumeNow { c.resume() }
    }
  }

  /// Moves the clock forward and wakes every sleeper whose deadline has passed.
  ///
  /// - Parameter duration: The amount of time to move.
  public func advance(by duration: Duration) {
    let due: [CheckedContinuation<Void, any Error>] = state.withLock { s in
      s.now = s.now.advanced(by: duration)
      let ready = s.sleepers.filter { $0.value.deadline <= s.now }
      for key in ready.keys { s.sleepers[key] = nil }
      return ready.sorted { $0.value.deadline < $1.value.deadline }.map(\.value.continuation)
    }
    for c in due { c.resume() }
  }
}
