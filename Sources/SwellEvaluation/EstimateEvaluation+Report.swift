import Foundation
import SwellGeometry
import SwellMotion

extension EstimateEvaluation {
  /// The scores of one estimate as `swell evaluate --json` prints them: RMSEs and the heading
  /// offset in degrees, rounded to 4 decimals; a value that is not finite is `null`.
  public struct Report: Encodable, Hashable, Sendable {
    /// Total orientation RMSE, degrees.
    public var totalDegrees: Double
    /// Heading RMSE, degrees.
    public var headingDegrees: Double
    /// Inclination RMSE, degrees.
    public var inclinationDegrees: Double
    /// Rows scored.
    public var scoredSamples: Int
    /// Whether a constant heading offset was removed first.
    public var headingAligned: Bool
    /// The heading offset removed, degrees (0 when unaligned).
    public var headingOffsetDegrees: Double

    enum CodingKeys: String, CodingKey {
      case totalDegrees = "total_deg"
      case headingDegrees = "heading_deg"
      case inclinationDegrees = "inclination_deg"
      case scoredSamples = "scored_samples"
      case headingAligned = "heading_aligned"
      case headingOffsetDegrees = "heading_offset_deg"
    }

    /// Encodes the report: degrees rounded to 4 decimals, `null` for a value that is not
    /// finite.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: The encoder's errors.
    public func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      for (key, v) in [
        (CodingKeys.totalDegrees, totalDegrees), (.headingDegrees, headingDegrees),
        (.inclinationDegrees, inclinationDegrees), (.headingOffsetDegrees, headingOffsetDegrees),
      ] {
        if v.isFinite {
          try c.encode((v * 10_000).rounded() / 10_000, forKey: key)
        } else {
          try c.encodeNil(forKey: key)
        }
      }
      try c.encode(scoredSamples, forKey: .scoredSamples)
      try c.encode(headingAligned, forKey: .headingAligned)
    }

    /// The report as one line of JSON (keys sorted, so the text is the same every run).
    ///
    /// - Returns: The JSON text, without a line break.
    public func jsonText() -> String {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      // Encoding numbers, Booleans and nulls cannot fail.
      return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
  }

  /// The scores as the text of `swell evaluate`: total, heading and inclination RMSE in
  /// degrees with 4 decimals, then the samples scored and the heading alignment.
  ///
  /// - Returns: The text, lines ending in line breaks.
  public func text() -> String {
    let f = { (v: Double) in v.isFinite ? String(format: "%.4f", v) : "null" }
    return "total        \(f(rmse.totalDegrees)) deg\n"
      + "heading      \(f(rmse.headingDegrees)) deg\n"
      + "inclination  \(f(rmse.inclinationDegrees)) deg\n"
      + "(\(scoredCount) samples scored"
      + (headingAligned
        ? ", heading aligned by \(f(headingOffsetRadians * 180 / .pi)) deg)\n" : ", unaligned)\n")
  }

  /// The scores as a ``Report``.
  public var report: Report {
    Report(
      totalDegrees: rmse.totalDegrees, headingDegrees: rmse.headingDegrees,
      inclinationDegrees: rmse.inclinationDegrees, scoredSamples: scoredCount,
      headingAligned: headingAligned, headingOffsetDegrees: headingOffsetRadians * 180 / .pi)
  }
}
