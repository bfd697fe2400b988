/// A clock reduced to what a live source needs: seconds since the source started, and sleeping
/// until such a time. Built from any `Clock<Duration>`, so tests drive sources with a manual
/// clock and never wait on the wall clock.
struct SourceClock: Sendable {
  /// Seconds since the clock was wrapped.
  let now: @Sendable () -> Double
  /// Suspends until the given number of seconds since the clock was wrapped.
  let sleepUntil: @Sendable (Double) async throws -> Void

  /// Wraps a clock; its current instant becomes time zero.
  ///
  /// - Parameter clock: The clock.
  init<C: Clock>(_ clock: C) where C.Duration == Duration {
    let start = clock.now
    now = { start.duration(to: clock.now).seconds }
    sleepUntil = { t in
      try await clock.sleep(until: start.advanced(by: .nanoseconds(Int64(t * 1e9))), tolerance: nil)
    }
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}
