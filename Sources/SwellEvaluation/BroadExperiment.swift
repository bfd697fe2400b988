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
  /// Taps or vibration added to every trial after the magnet and before any resampling (`nil`:
  /// none). With one, the table's title names it instead of the rate and the magnet.
  public var injection: BroadInjection?
  /// The injection's name in the table's title (`nil`: its ``BroadInjection/label``).
  public var injectionName: String?
  /// Whether ``injectionSummary(directory:)`` is asked for (`all`) rather than one injection.
  public var injectsAll = false
  /// The seed of the summary's six injections (the default, 21, is the one the v3
  /// mechanisms were designed with; any other is a fresh draw of the same disturbances).
  public var injectionSeed = BroadInjection.defaultSeed

  /// Sets the injection from its command-line word: `taps1`-`taps3`, `vibration1`-`vibration3`
  /// or `all` (the summary of clean and each of the six), each optionally with `@SEED` (a
  /// decimal seed instead of 21), e.g. `vibration3@7` or `all@7`.
  ///
  /// - Parameter word: The word.
  /// - Returns: False for a word that is none of these (nothing is changed then).
  public mutating func setInjection(_ word: String) -> Bool {
    let parts = word.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    let label = String(parts[0])
    var seed = BroadInjection.defaultSeed
    if parts.count == 2 {
      guard let s = UInt64(parts[1]) else { return false }
      seed = s
    }
    if label == "all" {
      (injectsAll, injectionSeed) = (true, seed)
      return true
    }
    guard let injection = BroadInjection.parse(label, seed: seed) else { return false }
    (self.injection, injectionName) = (injection, word)
    return true
  }

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
    let trials = try self.trials(directory: directory)
    guard sensitivity else {
      if let injection {
        return BroadEvaluation(fusing: trials, settings: settings).tableText(
          title: "RMSE in degrees with \(injectionName ?? injection.label), "
            + "total / heading / inclination")
      }
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

  /// The experiment's trials: loaded, the subset taken, the magnet and the injection added, and
  /// resampled, in that order.
  ///
  /// - Parameter directory: The folder of trial CSVs.
  /// - Returns: The changed trials, in the folder's order.
  /// - Throws: ``NoMatchingTrial``, or ``NumericTableError`` for a bad folder or trial file.
  public func trials(directory: URL) throws -> [BroadTrial] {
    var trials = try startTrials(directory: directory)
    if let injection { trials = trials.map { $0.injecting(injection) } }
    return resampled(trials)
  }

  /// Clean and each of the six injections (``BroadInjection/Kind`` by strength 1-3): the 9D and
  /// 6D mean RMSE (total / heading / inclination) and each one's change from the clean total.
  /// ``injection`` and ``sensitivity`` are ignored.
  ///
  /// - Parameter directory: The folder of trial CSVs.
  /// - Returns: The text table, lines ending in line breaks; `nil` when the clean trials have no
  ///   9D or 6D mean.
  /// - Throws: ``NoMatchingTrial``, or ``NumericTableError`` for a bad folder or trial file.
  public func injectionSummary(directory: URL) throws -> String? {
    let trials = try startTrials(directory: directory)
    let f2 = { (v: Double) in String(format: "%.2f", v) }
    let triple = { (e: OrientationRMSE) in
      "\(f2(e.totalDegrees)) / \(f2(e.headingDegrees)) / \(f2(e.inclinationDegrees))"
    }
    let pad = { (text: String, width: Int) in
      text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
    let clean = BroadEvaluation(fusing: resampled(trials), settings: settings)
    guard let c9 = clean.mean(mode: .nineD), let c6 = clean.mean(mode: .sixD) else { return nil }
    var text = "mean of \(trials.count) trials, total / heading / inclination (change of total)"
    text += injectionSeed == BroadInjection.defaultSeed ? "\n" : ", seed \(injectionSeed)\n"
    text += pad("input", 14) + pad("9D", 32) + "6D\n"
    text += pad("clean", 14) + pad(triple(c9), 32) + triple(c6) + "\n"
    for kind in BroadInjection.Kind.allCases {
      for strength in BroadInjection.strengths {
        let injection = BroadInjection(kind: kind, strength: strength, seed: injectionSeed)
        let e = BroadEvaluation(
          fusing: resampled(trials.map { $0.injecting(injection) }), settings: settings)
        guard let m9 = e.mean(mode: .nineD), let m6 = e.mean(mode: .sixD) else { continue }
        let d9 = String(format: "%+.2f", m9.totalDegrees - c9.totalDegrees)
        let d6 = String(format: "%+.2f", m6.totalDegrees - c6.totalDegrees)
        text += pad(injection.label, 14) + pad("\(triple(m9)) (\(d9))", 32)
        text += "\(triple(m6)) (\(d6))\n"
      }
    }
    return text
  }

  /// Writes each trial to `FOLDER/NAME.csv` (the folder is created if needed), in the format
  /// ``BroadTrial/write(to:)`` writes.
  ///
  /// - Parameters:
  ///   - trials: The trials, for example ``trials(directory:)``.
  ///   - folder: The destination folder.
  /// - Throws: The file system's error when the folder or a file cannot be written.
  public static func write(_ trials: [BroadTrial], to folder: URL) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for trial in trials {
      try trial.write(to: folder.appendingPathComponent(trial.name + ".csv"))
    }
  }

  /// The trials loaded, the subset taken and the magnet added.
  private func startTrials(directory: URL) throws -> [BroadTrial] {
    var trials = try BroadEvaluation.loadTrials(directory: directory)
    if let trialPrefixes {
      trials = trials.filter { t in trialPrefixes.contains { !$0.isEmpty && t.name.hasPrefix($0) } }
      guard !trials.isEmpty else { throw NoMatchingTrial(prefixes: trialPrefixes) }
    }
    if let fade = startDisturbanceFade {
      trials = trials.map { $0.withStartDisturbance(fade: fade) }
    }
    return trials
  }

  private func resampled(_ trials: [BroadTrial]) -> [BroadTrial] {
    rate.map { r in trials.map { $0.resampled(rate: r) } } ?? trials
  }
}
