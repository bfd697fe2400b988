import Foundation

/// Eases the drawn extra amplitude toward its target: an exponential approach with a rise time
/// constant ``riseTime`` while the target is above the value and a release time constant
/// ``releaseTime`` while it is below, in seconds.
///
/// The target is piecewise constant between motion samples, and the approach is solved exactly
/// over each interval (`a(t) = target + (a₀ − target)·e^(−Δt/τ)`), so the value at a time depends
/// only on the motion up to that time: it is the same at any display frame rate and any step
/// size. After a step of the target by `D`, the value covers 63 % of `D` in τ and 95 % in 3τ.
/// A time constant of 0 follows the target at once (no easing in that direction).
public struct AmplitudeSmoother: Hashable, Sendable {
  /// The rise time constant, seconds (default 0.06).
  public var riseTime: Double
  /// The release time constant, seconds (default 0.6).
  public var releaseTime: Double
  /// The value at ``time``, points.
  public private(set) var value: Double = 0
  /// The target since ``time``, points.
  public private(set) var target: Double = 0
  /// The time of the last target change, seconds (`nil` before the first).
  public private(set) var time: Double?

  /// Creates a smoother at rest at 0.
  ///
  /// - Parameters:
  ///   - riseTime: Seconds, 0 or more (default 0.06; 0 jumps to a higher target at once).
  ///   - releaseTime: Seconds, 0 or more (default 0.6; 0 drops to a lower target at once).
  ///
  /// A negative or NaN time constant is a programmer error (scene files are checked before they
  /// get here) and traps.
  public init(riseTime: Double = 0.06, releaseTime: Double = 0.6) {
    precondition(riseTime >= 0 && releaseTime >= 0, "time constants must be 0 or more")
    self.riseTime = riseTime
    self.releaseTime = releaseTime
  }

  /// The value at a time, without changing the state (times before the last change give the
  /// value at that change).
  ///
  /// - Parameter t: Seconds.
  /// - Returns: The eased value, points.
  public func value(at t: Double) -> Double {
    guard let t0 = time else { return value }
    let dt = t - t0
    guard dt > 0, dt.isFinite else { return value }
    let tau = target > value ? riseTime : releaseTime
    guard tau > 0 else { return target }
    return target + (value - target) * exp(-dt / tau)
  }

  /// Advances to a time under the old target, then switches to a new target.
  ///
  /// - Parameters:
  ///   - newTarget: The target from now on, points (non-finite targets count as 0).
  ///   - t: Seconds; earlier times than the last change are treated as the same time.
  public mutating func setTarget(_ newTarget: Double, at t: Double) {
    if let t0 = time {
      value = value(at: t)
      time = max(t, t0)
    } else {
      time = t
    }
    target = newTarget.isFinite ? newTarget : 0
  }

  /// Jumps to a value with no easing (the target becomes the same value).
  ///
  /// - Parameters:
  ///   - v: The value, points.
  ///   - t: Seconds.
  public mutating func reset(to v: Double, at t: Double) {
    value = v.isFinite ? v : 0
    target = value
    time = t
  }
}
