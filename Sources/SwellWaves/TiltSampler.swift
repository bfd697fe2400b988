import Foundation
import SwellGeometry

/// Makes the seed's "animate the tilt over 1 s on every motion update" independent of the
/// motion update rate (the seed starts one such animation per update, so its feel changes with
/// the rate; the project's own reading of the seed, no outside source): tilt updates happen on a fixed grid of times
/// `n / updateRate` (default 60 Hz) on the motion clock, each from gravity linearly interpolated
/// between the two samples around it, whatever rate the motion arrives at.
///
/// Each grid time gives one ``TiltDecision``; the caller starts a 1 s ease-in-out additive
/// animation (`Layer.animate(keyPath:to:duration:timingFunction:at:)`) at that
/// time for each returned update. A gap longer than ``maximumGap`` between samples is not
/// interpolated: the new sample is applied once, at its own time.
public struct TiltSampler: Hashable, Sendable {
  /// One tilt update: start animating to `target` (radians) at `time` (seconds).
  public struct Update: Hashable, Sendable {
    /// The grid time, seconds on the motion clock.
    public var time: Double
    /// The tilt to animate to, radians.
    public var target: Double
  }

  /// The rule turning gravity into tilt decisions.
  public var rule: TiltRule
  /// The grid rate, updates per second (default 60, a common device-motion rate).
  public let updateRate: Double
  /// The longest interval between samples that is interpolated, seconds (default 0.25).
  public var maximumGap: Double
  /// The last tilt target asked for, radians (`nil` before the first decision).
  public private(set) var lastTarget: Double?
  private var last: (time: Double, gravity: Vector3)?
  private var nextTick: Double = 0

  /// Creates a sampler.
  ///
  /// - Parameters:
  ///   - rule: The tilt rule.
  ///   - updateRate: Grid updates per second, positive (default 60).
  ///   - maximumGap: Seconds (default 0.25).
  public init(rule: TiltRule, updateRate: Double = 60, maximumGap: Double = 0.25) {
    precondition(updateRate > 0 && updateRate.isFinite, "updateRate must be positive")
    self.rule = rule
    self.updateRate = updateRate
    self.maximumGap = maximumGap
  }

  /// Equality of the configuration and state.
  public static func == (a: TiltSampler, b: TiltSampler) -> Bool {
    a.rule == b.rule && a.updateRate == b.updateRate && a.maximumGap == b.maximumGap
      && a.lastTarget == b.lastTarget && a.last?.time == b.last?.time
      && a.last?.gravity == b.last?.gravity && a.nextTick == b.nextTick
  }

  /// Hashes the configuration and state.
  ///
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(rule)
    hasher.combine(updateRate)
    hasher.combine(lastTarget)
    hasher.combine(last?.time)
    hasher.combine(nextTick)
  }

  /// Takes one gravity sample and returns the tilt updates due up to its time.
  ///
  /// - Parameters:
  ///   - time: The sample's timestamp, seconds (increasing; others are ignored).
  ///   - gravity: Gravity, g, device frame.
  /// - Returns: The updates whose target differs from the previous one, in time order.
  public mutating func receive(time: Double, gravity: Vector3) -> [Update] {
    guard time.isFinite, gravity.isFinite else { return [] }
    var out: [Update] = []
    guard let prev = last, time > prev.time else {
      if last == nil {
        last = (time, gravity)
        nextTick = (time * updateRate).rounded(.down) + 1
        decide(gravity, at: time, into: &out)
      }
      return out
    }
    let span = time - prev.time
    if span > maximumGap {
      decide(gravity, at: time, into: &out)
      nextTick = (time * updateRate).rounded(.down) + 1
    } else {
      while nextTick / updateRate <= time {
        let tau = nextTick / updateRate
        let f = min(max((tau - prev.time) / span, 0), 1)
        let g = prev.gravity + (gravity - prev.gravity) * f
        decide(g, at: tau, into: &out)
        nextTick += 1
      }
    }
    last = (time, gravity)
    return out
  }

  private mutating func decide(_ g: Vector3, at t: Double, into out: inout [Update]) {
    guard case .animate(let target) = rule.decision(gravity: g) else { return }
    if target != lastTarget {
      lastTarget = target
      out.append(Update(time: t, target: target))
    }
  }
}
