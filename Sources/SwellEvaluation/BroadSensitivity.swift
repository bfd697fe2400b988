import Foundation
import SwellMotion

/// A robustness check of the fusion settings on BROAD trials: every tunable setting is scaled
/// up and down by a relative step (±20 % by default) one at a time, every trial is fused again,
/// and the spread of the errors per trial, per category and of the mean is reported.
///
/// A filter that is tuned into a narrow optimum shows a large spread; one whose behaviour rests
/// on physically sound choices barely moves. Developer tooling (`swell evaluate --broad
/// --sensitivity`), not part of the estimator.
public struct BroadSensitivity: Sendable {
  /// One tunable setting: its name and where it lives in `AttitudeEstimator/Settings`.
  public struct Parameter: Sendable {
    /// The setting's name as printed (the property name).
    public var name: String
    /// The setting; scaled by `1 ± step`.
    public var keyPath: WritableKeyPath<AttitudeEstimator.Settings, Double> & Sendable

    /// Creates a parameter.
    ///
    /// - Parameters:
    ///   - name: The printed name.
    ///   - keyPath: The setting.
    public init(
      _ name: String, _ keyPath: WritableKeyPath<AttitudeEstimator.Settings, Double> & Sendable
    ) {
      self.name = name
      self.keyPath = keyPath
    }
  }

  /// One perturbed run: which setting was scaled by which factor, and the results.
  public struct Variant: Sendable {
    /// The setting's name.
    public var parameter: String
    /// The factor the setting was multiplied by (e.g. 0.8 or 1.2).
    public var factor: Double
    /// The evaluation with the perturbed settings.
    public var evaluation: BroadEvaluation
  }

  /// The spread of one error over the variants (the base run included), degrees.
  public struct Spread: Sendable, Hashable {
    /// The error with the unperturbed settings, degrees.
    public var base: Double
    /// The smallest error over base and variants, degrees.
    public var minimum: Double
    /// The largest error over base and variants, degrees.
    public var maximum: Double
    /// The variant that gave the largest error (`"name ×factor"`), or `"base"`.
    public var worstVariant: String
    /// `maximum − minimum`, degrees.
    public var range: Double { maximum - minimum }
  }

  /// Every tunable continuous setting of the estimator, in the order printed.
  public static let defaultParameters: [Parameter] = [
    Parameter("accelerometerTimeConstant", \.accelerometerTimeConstant),
    Parameter("magnetometerTimeConstant", \.magnetometerTimeConstant),
    Parameter("biasLimitDegreesPerSecond", \.biasLimitDegreesPerSecond),
    Parameter("scaleInitialSigma", \.scaleInitialSigma),
    Parameter("scaleDriftSigma", \.scaleDriftSigma),
    Parameter("scaleLimit", \.scaleLimit),
    Parameter("biasInitialSigmaDegreesPerSecond", \.biasInitialSigmaDegreesPerSecond),
    Parameter("biasDriftSigmaDegreesPerSecond", \.biasDriftSigmaDegreesPerSecond),
    Parameter("biasForgettingTime", \.biasForgettingTime),
    Parameter("biasMotionSigmaDegreesPerSecond", \.biasMotionSigmaDegreesPerSecond),
    Parameter("biasRestSigmaDegreesPerSecond", \.biasRestSigmaDegreesPerSecond),
    Parameter("restFilterTimeConstant", \.restFilterTimeConstant),
    Parameter("restMinimumDuration", \.restMinimumDuration),
    Parameter("restGyroscopeThresholdDegreesPerSecond", \.restGyroscopeThresholdDegreesPerSecond),
    Parameter("restAccelerometerThreshold", \.restAccelerometerThreshold),
  ]

  /// The run with the unperturbed settings.
  public var base: BroadEvaluation
  /// The perturbed runs, two per parameter (down, up).
  public var variants: [Variant]

  /// Runs the base settings and every perturbation over a set of loaded trials.
  ///
  /// - Parameters:
  ///   - trials: The trials (loaded once, fused many times).
  ///   - settings: The base settings.
  ///   - parameters: The settings to perturb, one at a time.
  ///   - step: The relative change (0.2 scales by 0.8 and 1.2).
  ///   - progress: Called after each run with (done, total).
  public init(
    trials: [BroadTrial], settings: AttitudeEstimator.Settings = .init(),
    parameters: [Parameter] = BroadSensitivity.defaultParameters, step: Double = 0.2,
    progress: (Int, Int) -> Void = { _, _ in }
  ) {
    let total = 1 + 2 * parameters.count
    base = BroadEvaluation(fusing: trials, settings: settings)
    progress(1, total)
    var runs: [Variant] = []
    for p in parameters {
      for f in [1 - step, 1 + step] {
        var s = settings
        s[keyPath: p.keyPath] *= f
        runs.append(
          Variant(
            parameter: p.name, factor: f, evaluation: BroadEvaluation(fusing: trials, settings: s)))
        progress(1 + runs.count, total)
      }
    }
    variants = runs
  }

  /// The spread of one trial's total error.
  ///
  /// - Parameters:
  ///   - index: The trial's index in ``base``'s `trials`.
  ///   - mode: 6D or 9D results.
  /// - Returns: Base, minimum and maximum total RMSE over the runs, degrees.
  public func spread(trial index: Int, mode: AttitudeEstimator.Mode) -> Spread {
    spread(mode: mode) { e in
      let t = e.trials[index]
      return mode == .nineD ? t.nineD.totalDegrees : t.sixD.totalDegrees
    }
  }

  /// The spread of a category's (or all trials') mean total error.
  ///
  /// - Parameters:
  ///   - category: The category, or `nil` for the mean over all trials.
  ///   - mode: 6D or 9D results.
  /// - Returns: Base, minimum and maximum mean total RMSE over the runs, degrees; `nil` when no
  ///   trial is in the category.
  public func spread(category: BroadCategory?, mode: AttitudeEstimator.Mode) -> Spread? {
    guard base.mean(category: category, mode: mode) != nil else { return nil }
    return spread(mode: mode) { e in
      e.mean(category: category, mode: mode)?.totalDegrees ?? .nan
    }
  }

  private func spread(
    mode: AttitudeEstimator.Mode, _ value: (BroadEvaluation) -> Double
  ) -> Spread {
    let b = value(base)
    var r = Spread(base: b, minimum: b, maximum: b, worstVariant: "base")
    for v in variants {
      let x = value(v.evaluation)
      r.minimum = min(r.minimum, x)
      if x > r.maximum {
        r.maximum = x
        r.worstVariant = "\(v.parameter) ×\(String(format: "%.2f", v.factor))"
      }
    }
    return r
  }
}
