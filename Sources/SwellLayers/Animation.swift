import SwellGeometry

/// How an animation affects its property outside its active time (`CAMediaTimingFillMode`).
public enum FillMode: String, Hashable, Sendable, Codable {
  /// No effect before the begin time or after the end.
  case removed
  /// Holds the final value after the end (only for an animation that is not removed on
  /// completion, as in Core Animation).
  case forwards
  /// Applies the initial value before the begin time.
  case backwards
  /// Both ``forwards`` and ``backwards``.
  case both
}

/// A property animation from one value to another over time, as `CABasicAnimation`.
///
/// Values follow Core Animation's rules: with `fromValue` and `toValue` it interpolates between
/// them; with `byValue` it goes from `fromValue` (or the current value) by that amount; missing
/// ends come from the layer's model value. An **additive** animation adds its value to the
/// model value instead of replacing it (UIKit's retargeting since iOS 8).
///
/// Times are in seconds on the layer tree's clock (the display link's timestamps), absolute.
public struct BasicAnimation: Hashable, Sendable, Codable {
  /// The animated key path, Core Animation spelling (`position.x`, `transform.rotation.z`).
  public var keyPath: String
  /// The start value, or `nil` to start from the model value (or `toValue − byValue`).
  public var fromValue: LayerValue?
  /// The end value, or `nil` to end at the model value (or `fromValue + byValue`).
  public var toValue: LayerValue?
  /// The change over the animation, used when `fromValue` or `toValue` is missing.
  public var byValue: LayerValue?
  /// The begin time, seconds on the tree's clock.
  public var beginTime: Double
  /// The duration of one repetition, seconds; must be positive.
  public var duration: Double
  /// The easing curve (Core Animation's default for an explicit animation is linear pacing).
  public var timingFunction: TimingFunction
  /// Whether the value is added to the model value.
  public var isAdditive: Bool
  /// The behaviour outside the active time.
  public var fillMode: FillMode
  /// How many times the animation plays (fractions allowed; `.infinity` forever). Zero, a
  /// negative count or NaN plays once, as Core Animation ignores a `repeatCount` of 0.
  public var repeatCount: Double
  /// Whether each repetition plays forwards then backwards.
  public var autoreverses: Bool
  /// Whether the animation is dropped from its layer once it is over. As in Core Animation, a
  /// removed animation has no effect after its end **whatever its fill mode**: to hold the final
  /// value, set ``fillMode`` to ``FillMode/forwards`` (or ``FillMode/both``) **and** this to
  /// `false`.
  public var isRemovedOnCompletion: Bool

  /// Creates an animation.
  ///
  /// - Parameters:
  ///   - keyPath: The animated key path.
  ///   - fromValue: The start value, or `nil`.
  ///   - toValue: The end value, or `nil`.
  ///   - byValue: The change, or `nil`.
  ///   - beginTime: Seconds on the tree's clock.
  ///   - duration: Seconds, positive.
  ///   - timingFunction: The easing curve (default `.linear`: Core Animation's `nil` timing
  ///     function, linear pacing).
  ///   - isAdditive: Add to the model value (default `false`).
  ///   - fillMode: Outside the active time (default `.removed`).
  ///   - repeatCount: Repetitions (default 1).
  ///   - autoreverses: Play back and forth (default `false`).
  ///   - isRemovedOnCompletion: Drop when over (default `true`).
  public init(
    keyPath: String, fromValue: LayerValue? = nil, toValue: LayerValue? = nil,
    byValue: LayerValue? = nil, beginTime: Double, duration: Double,
    timingFunction: TimingFunction = .linear, isAdditive: Bool = false,
    fillMode: FillMode = .removed, repeatCount: Double = 1, autoreverses: Bool = false,
    isRemovedOnCompletion: Bool = true
  ) {
    precondition(duration > 0 && duration.isFinite, "animation duration must be positive")
    self.keyPath = keyPath
    self.fromValue = fromValue
    self.toValue = toValue
    self.byValue = byValue
    self.beginTime = beginTime
    self.duration = duration
    self.timingFunction = timingFunction
    self.isAdditive = isAdditive
    self.fillMode = fillMode
    self.repeatCount = repeatCount
    self.autoreverses = autoreverses
    self.isRemovedOnCompletion = isRemovedOnCompletion
  }

  /// The number of repetitions actually played: ``repeatCount``, or 1 when it is zero, negative
  /// or NaN.
  public var effectiveRepeatCount: Double {
    repeatCount > 0 ? repeatCount : 1
  }

  /// The total active duration, seconds: `duration × effectiveRepeatCount`, doubled when
  /// autoreversing.
  public var activeDuration: Double {
    duration * effectiveRepeatCount * (autoreverses ? 2 : 1)
  }

  /// The end of the active time, seconds on the tree's clock.
  public var endTime: Double { beginTime + activeDuration }

  /// The eased progress at a time, or `nil` when the animation has no effect then.
  ///
  /// - Parameter time: Seconds on the tree's clock.
  /// - Returns: Eased progress (0 at the start value, 1 at the end value).
  public func progress(at time: Double) -> Double? {
    var local = time - beginTime
    if local < 0 {
      guard fillMode == .backwards || fillMode == .both else { return nil }
      local = 0
    }
    let active = activeDuration
    if local >= active {
      guard !isRemovedOnCompletion, fillMode == .forwards || fillMode == .both else { return nil }
      local = active
    }
    let cycle = autoreverses ? 2 * duration : duration
    var phase: Double
    if local >= active && active > 0 {
      // The final state of the last repetition.
      let cycles = active / cycle
      let frac = cycles - cycles.rounded(.down)
      phase = frac == 0 ? cycle : frac * cycle
    } else {
      phase = local.truncatingRemainder(dividingBy: cycle)
    }
    var linear: Double
    if autoreverses && phase > duration {
      linear = (2 * duration - phase) / duration
    } else {
      linear = phase / duration
    }
    linear = min(max(linear, 0), 1)
    return timingFunction.value(at: linear)
  }

  /// The animated value at a time, given the property's model value.
  ///
  /// - Parameters:
  ///   - time: Seconds on the tree's clock.
  ///   - model: The property's model value.
  /// - Returns: The value the animation contributes (to be added to `model` when additive), or
  ///   `nil` when it has no effect at that time or its values are of mismatched kinds.
  public func value(at time: Double, model: LayerValue) -> LayerValue? {
    guard let p = progress(at: time) else { return nil }
    let base = isAdditive ? model.zero : model
    var from = fromValue
    var to = toValue
    if from == nil, let to0 = to, let by = byValue { from = to0.removingFromEnd(by) }
    if to == nil, let from0 = from, let by = byValue { to = from0.adding(by) }
    if from == nil, to == nil, let by = byValue {
      from = base
      to = base.adding(by)
    }
    let start = from ?? base
    let end = to ?? base
    return start.interpolated(to: end, fraction: p)
  }

  /// True when the animation has ended by `time` and is removed on completion, so it no longer
  /// contributes and can be dropped.
  ///
  /// - Parameter time: Seconds on the tree's clock.
  /// - Returns: Whether it is over and removable.
  public func isFinished(at time: Double) -> Bool {
    time >= endTime && isRemovedOnCompletion
  }
}

extension LayerValue {
  /// The value `s` with `s.adding(other) == self`: `self − other` for numbers, points, sizes,
  /// rectangles and colours; for transforms `self` followed by the inverse of `other` (the start
  /// of a `toValue`/`byValue` animation, since transform addition is concatenation and does not
  /// commute). A singular `other` leaves `self` unchanged.
  fileprivate func removingFromEnd(_ other: LayerValue) -> LayerValue? {
    switch (self, other) {
    case (.affineTransform(let a), .affineTransform(let b)):
      guard let inv = b.inverted else { return self }
      return .affineTransform(a.concatenating(inv))
    case (.transform3D, .transform3D), (.transform3D, .affineTransform),
      (.affineTransform, .transform3D):
      guard let a = Transform3D(layerValue: self), let b = Transform3D(layerValue: other) else {
        return nil
      }
      guard let inv = b.inverted else { return .transform3D(a) }
      return .transform3D(a.concatenating(inv))
    default:
      return subtracting(other)
    }
  }
}
