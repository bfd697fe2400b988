import Foundation
import SwellGeometry
import SwellMotion

/// A BROAD run with changed inputs or settings (`swell evaluate --broad` with a subset, a
/// start-up magnet, a resampling rate, changed settings or the sensitivity sweep): the trials
/// are loaded, changed, fused, and reported as a text table.
public struct BroadExperiment: Sendable {
  /// Only the trials whose names start with one of these (`nil`: every trial).
  public var trialPrefixes: [String]?
  /// A magnet's field during each trial's first 25 s, fading to zero over its last this many
  /// seconds (0: no fade; `nil`: no magnet). Added before any resampling: the magnet is beside
  /// the sensor.
  public var startDisturbanceFade: Double?
  /// Resample the trials to this rate first, Hz (`nil`: the trials' own rate).
  public var rate: Double?
  /// The estimator settings.
  public var settings = AttitudeEstimator.Settings()
  /// Scale each setting by 0.8 and 1.2 in turn and report the spread, instead of one table.
  public var sensitivity = false

  /// No trial's name starts with one of the prefixes.
  public struct NoMatchingTrial: Error, Hashable, Sendable {
    /// The prefixes asked for.
    public var prefixes: [String]
  }

  /// Creates an experiment that changes nothing.
  public init() {}

  /// Runs the experiment.
  ///
  /// - Parameters:
  ///   - directory: The folder of trial CSVs.
  ///   - progress: Called after each sensitivity run with (done, total).
  /// - Returns: The text table, lines ending in line breaks.
  /// - Throws: ``NoMatchingTrial``, or ``NumericTableError`` for a bad folder or trial file.
  public func report(directory: URL, progress: (Int, Int) -> Void = { _, _ in }) throws -> String {
    var trials = try BroadEvaluation.loadTrials(directory: directory)
    if let trialPrefixes {
      trials = trials.filter { t in trialPrefixes.contains { !$0.isEmpty && t.name.hasPrefix($0) } }
      guard !trials.isEmpty else { throw NoMatchingTrial(prefixes: trialPrefixes) }
    }
    if let fade = startDisturbanceFade {
      trials = trials.map { $0.withStartDisturbance(fade: fade) }
    }
    if let rate { trials = trials.map { $0.resampled(rate: rate) } }
    guard sensitivity else {
      let rateText = rate.map { "at \(String(format: "%.2f", $0)) Hz" } ?? "at the trials' rate"
      let disturbanceText =
        startDisturbanceFade.map {
          ", magnet (20, -20, 15) uT for the first 25 s"
            + ($0 > 0 ? ", fading over \(String(format: "%.2f", $0)) s" : "")
        } ?? ""
      return BroadEvaluation(fusing: trials, settings: settings).tableText(
        title: "RMSE in degrees \(rateText)\(disturbanceText), total / heading / inclination")
    }
    return BroadSensitivity(trials: trials, settings: settings, progress: progress).tableText()
  }
}
