import Foundation
import SwellMotion

/// The result of scoring one BROAD trial in 6D and 9D.
public struct BroadTrialResult: Sendable, Hashable, Codable {
  /// The trial's name.
  public var name: String
  /// The trial's category.
  public var category: BroadCategory
  /// RMSEs with the magnetometer, unaligned, degrees.
  public var nineD: OrientationRMSE
  /// RMSEs without the magnetometer after heading alignment, degrees.
  public var sixD: OrientationRMSE
}

/// Scoring of a folder of BROAD trials: per trial, per category and the mean over trials.
public struct BroadEvaluation: Sendable {
  /// Per-trial results, in file-name order.
  public var trials: [BroadTrialResult]

  /// Loads and scores every `*.csv` file in a folder.
  ///
  /// - Parameters:
  ///   - directory: The folder of trial CSVs.
  ///   - settings: The estimator settings (the same for every trial).
  ///   - progress: Called after each trial with (done, total).
  /// - Throws: ``NumericTableError`` for an unreadable folder or a bad trial file.
  public init(
    directory: URL, settings: AttitudeEstimator.Settings = .init(),
    progress: (Int, Int) -> Void = { _, _ in }
  ) throws {
    let trials = try Self.loadTrials(directory: directory)
    var results: [BroadTrialResult] = []
    for (i, trial) in trials.enumerated() {
      results.append(Self.result(of: trial, settings: settings))
      progress(i + 1, trials.count)
    }
    self.trials = results
  }

  /// Scores trials that are already loaded.
  ///
  /// - Parameters:
  ///   - trials: The trials.
  ///   - settings: The estimator settings (the same for every trial).
  public init(fusing trials: [BroadTrial], settings: AttitudeEstimator.Settings = .init()) {
    self.trials = trials.map { Self.result(of: $0, settings: settings) }
  }

  /// Loads every `*.csv` file in a folder as a trial, in file-name order.
  ///
  /// - Parameter directory: The folder of trial CSVs.
  /// - Returns: The trials.
  /// - Throws: ``NumericTableError`` for an unreadable folder or a bad trial file.
  public static func loadTrials(directory: URL) throws -> [BroadTrial] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0.hasSuffix(".csv") }.sorted()
    } catch {
      throw NumericTableError(file: directory.path, line: 0, reason: "cannot read the folder")
    }
    guard !names.isEmpty else {
      throw NumericTableError(file: directory.path, line: 0, reason: "no .csv trial files")
    }
    return try names.map { try BroadTrial(contentsOf: directory.appendingPathComponent($0)) }
  }

  private static func result(
    of trial: BroadTrial, settings: AttitudeEstimator.Settings
  ) -> BroadTrialResult {
    BroadTrialResult(
      name: trial.name, category: trial.category,
      nineD: trial.evaluate(mode: .nineD, settings: settings),
      sixD: trial.evaluate(mode: .sixD, settings: settings))
  }

  /// Creates an evaluation from results.
  ///
  /// - Parameter trials: Per-trial results.
  public init(trials: [BroadTrialResult]) { self.trials = trials }

  /// The mean over a set of trials of each RMSE, degrees.
  ///
  /// - Parameters:
  ///   - category: Only trials of this category; `nil` for all.
  ///   - mode: Which results, 6D or 9D.
  /// - Returns: The mean RMSEs, or `nil` when no trial matches.
  public func mean(
    category: BroadCategory? = nil, mode: AttitudeEstimator.Mode
  ) -> OrientationRMSE? {
    let sel = trials.filter { category == nil || $0.category == category }
    guard !sel.isEmpty else { return nil }
    let vals = sel.map { mode == .nineD ? $0.nineD : $0.sixD }
    let n = Double(vals.count)
    return OrientationError(
      totalDegrees: vals.map(\.totalDegrees).reduce(0, +) / n,
      headingDegrees: vals.map(\.headingDegrees).reduce(0, +) / n,
      inclinationDegrees: vals.map(\.inclinationDegrees).reduce(0, +) / n)
  }
}
