import SwellTime

/// A deadline for a wait on something real (a process, a socket, a reader thread), on the
/// system's monotonic clock: the wall clock can jump, and a test must never read it.
public struct TestDeadline: Sendable {
  private let end: Double

  /// A deadline some seconds from now.
  ///
  /// - Parameter seconds: Seconds from now.
  public init(seconds: Double) { end = MonotonicClock.continuous.now() + seconds }

  /// True once the deadline has passed.
  public var hasPassed: Bool { MonotonicClock.continuous.now() >= end }

  /// Seconds left, 0 once passed.
  public var remaining: Double { max(0, end - MonotonicClock.continuous.now()) }
}
