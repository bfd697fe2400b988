import Foundation
import SwellGeometry
import SwellMotion

/// Scores a device-motion CSV (the `swell fuse` output format) against a BROAD trial's truth.
///
/// The estimate's attitude takes device vectors to its reference frame (NWU for the north
/// frames); it is turned to ENU with ``OrientationEvaluation/nwuToENU`` before scoring.
/// Matching: each truth row takes the estimate row nearest in time; pairs farther apart than
/// half the truth's median sample period are not scored. Only rows with `movement == 1` and
/// finite truth count.
public struct EstimateEvaluation: Sendable {
  /// The RMSEs, degrees.
  public var rmse: OrientationRMSE
  /// The number of truth rows scored.
  public var scoredCount: Int
  /// Whether the constant heading offset was removed first (6D scoring).
  public var headingAligned: Bool
  /// The heading offset removed, radians (0 when not aligned).
  public var headingOffsetRadians: Double
  /// The reference frame named in the estimate file.
  public var referenceFrame: AttitudeReferenceFrame

  /// The header columns a device-motion CSV must have for scoring.
  public static let attitudeColumns = [
    "time", "attitude.w", "attitude.x", "attitude.y", "attitude.z",
  ]

  /// Reads both files and scores the estimate.
  ///
  /// - Parameters:
  ///   - estimate: The device-motion CSV.
  ///   - truth: The BROAD trial CSV.
  ///   - alignHeading: True for 6D scoring, false for 9D; `nil` aligns when the estimate's
  ///     reference frame has an arbitrary heading (`xArbitraryZVertical`,
  ///     `xArbitraryCorrectedZVertical`).
  /// - Throws: ``NumericTableError`` naming file, line and column for bad input, or when no row
  ///   could be matched.
  public init(estimate: URL, truth: URL, alignHeading: Bool?) throws {
    let est = try NumericTable(contentsOf: estimate, required: EstimateEvaluation.attitudeColumns)
    var frame = AttitudeReferenceFrame.xArbitraryZVertical
    for c in est.comments where c.hasPrefix("referenceFrame:") {
      let name = c.dropFirst("referenceFrame:".count).trimmingCharacters(in: .whitespaces)
      guard let f = AttitudeReferenceFrame(name: name) else {
        throw NumericTableError(
          file: estimate.path, line: 0, reason: "unknown reference frame '\(name)'")
      }
      frame = f
    }
    let n = est.rowCount
    for i in 0..<n {
      let t = est.columns[0][i]
      if !t.isFinite {
        throw NumericTableError(
          file: estimate.path, line: est.lines[i], column: "time", reason: "time is not finite")
      }
      if i > 0 && t <= est.columns[0][i - 1] {
        throw NumericTableError(
          file: estimate.path, line: est.lines[i], column: "time", reason: "time does not increase")
      }
      for k in 1...4 where !est.columns[k][i].isFinite {
        throw NumericTableError(
          file: estimate.path, line: est.lines[i], column: EstimateEvaluation.attitudeColumns[k],
          reason: "not a finite number")
      }
    }
    let trial = try BroadTrial(contentsOf: truth)
    let align =
      alignHeading ?? (frame == .xArbitraryZVertical || frame == .xArbitraryCorrectedZVertical)
    try self.init(
      estimateTimes: est.columns[0],
      estimates: (0..<n).map {
        Quaternion(
          w: est.columns[1][$0], x: est.columns[2][$0], y: est.columns[3][$0],
          z: est.columns[4][$0])
      }, trial: trial, alignHeading: align, file: estimate.path)
    referenceFrame = frame
  }

  /// Scores estimates given in memory.
  ///
  /// - Parameters:
  ///   - estimateTimes: Seconds, increasing.
  ///   - estimates: Attitudes, device → NWU-style reference frame.
  ///   - trial: The trial with the truth.
  ///   - alignHeading: Whether to remove the constant heading offset first.
  ///   - file: The estimate's name for error messages.
  /// - Throws: ``NumericTableError`` when no truth row has an estimate within tolerance.
  public init(
    estimateTimes: [Double], estimates: [Quaternion], trial: BroadTrial, alignHeading: Bool,
    file: String = "estimate"
  ) throws {
    let tt = trial.timestamps
    var periods: [Double] = []
    periods.reserveCapacity(max(tt.count - 1, 0))
    for i in 1..<max(tt.count, 1) { periods.append(tt[i] - tt[i - 1]) }
    periods.sort()
    let tolerance = periods.isEmpty ? 1e-3 : periods[periods.count / 2] / 2
    var matchedEstimates: [Quaternion] = []
    var matchedTruths: [Quaternion] = []
    var j = 0
    for i in 0..<tt.count where trial.movement[i] && trial.truth[i].isFinite {
      while j + 1 < estimateTimes.count
        && abs(estimateTimes[j + 1] - tt[i]) <= abs(estimateTimes[j] - tt[i])
      {
        j += 1
      }
      guard j < estimateTimes.count, abs(estimateTimes[j] - tt[i]) <= tolerance + 1e-9 else {
        continue
      }
      matchedEstimates.append(OrientationEvaluation.nwuToENU * estimates[j].normalized())
      matchedTruths.append(trial.truth[i])
    }
    guard !matchedEstimates.isEmpty else {
      throw NumericTableError(
        file: file, line: 0, column: "time",
        reason: "no estimate row matches a scored truth row in time")
    }
    let s = OrientationEvaluation.score(
      estimates: matchedEstimates, truths: matchedTruths, alignHeading: alignHeading)
    rmse = s.rmse
    scoredCount = matchedEstimates.count
    headingAligned = alignHeading
    headingOffsetRadians = s.headingOffset
    referenceFrame = .xArbitraryZVertical
  }
}
