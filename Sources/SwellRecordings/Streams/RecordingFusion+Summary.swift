import SwellMotion

extension RecordingFusion.Report {
  /// One line naming what was written: the samples read, the fusion (`9D`, `6D` or `passed
  /// through`), the reference frame and the rows written.
  ///
  /// - Parameter output: How the line names the output (the path as given).
  /// - Returns: `fused N samples (9D, xMagneticNorthZVertical) into M rows: OUT`, without a line
  ///   break.
  public func summary(output: String) -> String {
    let fused = mode.map { $0 == .nineD ? "9D" : "6D" } ?? "passed through"
    let how =
      !accelerometerOnly
      ? fused
      : mode == .nineD
        ? "tilt-compensated compass: no gyroscope" : "accelerometer only: no gyroscope"
    return "fused \(samples) samples (\(how), \(referenceFrame.name)) into \(rows) rows: \(output)"
  }
}
