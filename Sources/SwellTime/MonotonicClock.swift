#if canImport(Glibc)
  import Glibc
#endif

/// The one clock type the library takes: monotonic time in seconds, and waiting until such a
/// time, either by suspending a task or by blocking a thread.
///
/// Logic never reads the wall clock: sources, the motion manager, the live loop and the sensor
/// readers are handed a `MonotonicClock`. Production code uses ``continuous``; tests use a
/// ``ManualMonotonicClock`` and step time by hand, so nothing waits on the wall clock.
///
/// Times are seconds since the clock's own origin (an arbitrary instant fixed when the clock was
/// made); only differences between times of one clock are meaningful.
public struct MonotonicClock: Sendable {
  private let readNow: @Sendable () -> Double
  private let suspendUntil: @Sendable (Double) async throws -> Void
  private let blockUntil: @Sendable (Double) -> Void

  /// Creates a clock from its three operations.
  ///
  /// - Parameters:
  ///   - now: The current time, seconds; never decreasing.
  ///   - sleepUntil: Suspends the calling task until `now()` reaches the time, seconds; throws
  ///     `CancellationError` when the task is cancelled.
  ///   - waitUntil: Blocks the calling thread until `now()` reaches the time, seconds.
  public init(
    now: @escaping @Sendable () -> Double,
    sleepUntil: @escaping @Sendable (Double) async throws -> Void,
    waitUntil: @escaping @Sendable (Double) -> Void
  ) {
    readNow = now
    suspendUntil = sleepUntil
    blockUntil = waitUntil
  }

  /// Wraps a Swift `Clock`: its current instant becomes time zero.
  ///
  /// A blocking ``wait(until:)`` on a wrapped clock sleeps on it from a task of its own and
  /// blocks the calling thread until that sleep ends.
  ///
  /// - Parameter clock: The clock, e.g. `ContinuousClock()`.
  public init<C: Clock>(_ clock: C) where C.Duration == Duration {
    let start = clock.now
    let sleep: @Sendable (Double) async throws -> Void = { t in
      let offset = Duration.seconds(max(0, t).isFinite ? max(0, t) : 0)
      try await clock.sleep(until: start.advanced(by: offset), tolerance: nil)
    }
    self.init(
      now: { start.duration(to: clock.now).seconds },
      sleepUntil: sleep,
      waitUntil: { t in
        let semaphore = BlockingSignal()
        Task.detached {
          try? await sleep(t)
          semaphore.signal()
        }
        semaphore.wait()
      })
  }

  /// The system's monotonic clock (`CLOCK_MONOTONIC`), in seconds since an arbitrary origin
  /// shared by every caller in the process; waits sleep the thread (`nanosleep`) or the task.
  public static let continuous = MonotonicClock(
    now: { systemMonotonicSeconds() },
    sleepUntil: { t in
      let delay = t - systemMonotonicSeconds()
      if delay > 0 {
        try await Task.sleep(for: .seconds(delay))
      } else {
        try Task.checkCancellation()
      }
    },
    waitUntil: { t in
      while true {
        let delay = t - systemMonotonicSeconds()
        guard delay > 0, delay.isFinite else { return }
        var request = timespec(
          tv_sec: Int(delay), tv_nsec: Int((delay - delay.rounded(.down)) * 1e9))
        _ = nanosleep(&request, nil)
      }
    })

  /// The current time, seconds since the clock's origin.
  ///
  /// - Returns: The time; never less than an earlier reading of the same clock.
  public func now() -> Double { readNow() }

  /// Suspends the calling task until the clock reaches a time (at once when it has).
  ///
  /// - Parameter time: The time, seconds since the clock's origin.
  /// - Throws: `CancellationError` when the task is cancelled.
  public func sleep(until time: Double) async throws { try await suspendUntil(time) }

  /// Blocks the calling thread until the clock reaches a time (at once when it has).
  ///
  /// On a ``ManualMonotonicClock`` this moves the manual time to `time` instead of blocking, so a
  /// loop on one thread driven by a manual clock runs deterministically and without real waits.
  ///
  /// - Parameter time: The time, seconds since the clock's origin.
  public func wait(until time: Double) { blockUntil(time) }

  /// Blocks the calling thread for a number of seconds.
  ///
  /// - Parameter seconds: How long; zero, negative or non-finite returns at once.
  public func wait(seconds: Double) {
    guard seconds > 0, seconds.isFinite else { return }
    wait(until: now() + seconds)
  }
}

/// `CLOCK_MONOTONIC` in seconds.
///
/// - Returns: Seconds since an arbitrary origin (the system's boot, on Linux).
public func systemMonotonicSeconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

extension Duration {
  /// The duration in seconds.
  public var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}

/// A one-shot signal a thread can block on (a counting semaphore over a mutex and a condition).
final class BlockingSignal: @unchecked Sendable {
  // @unchecked: the pthread mutex and condition are only touched under the mutex.
  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()
  private var count = 0

  init() {
    pthread_mutex_init(&mutex, nil)
    pthread_cond_init(&condition, nil)
  }

  deinit {
    pthread_cond_destroy(&condition)
    pthread_mutex_destroy(&mutex)
  }

  func signal() {
    pthread_mutex_lock(&mutex)
    count += 1
    pthread_cond_signal(&condition)
    pthread_mutex_unlock(&mutex)
  }

  func wait() {
    pthread_mutex_lock(&mutex)
    while count == 0 { pthread_cond_wait(&condition, &mutex) }
    count -= 1
    pthread_mutex_unlock(&mutex)
  }
}
