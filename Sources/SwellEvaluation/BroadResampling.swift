import SwellMotion

extension BroadTrial {
  /// The trial at a lower sampling rate, as a slower IMU with an anti-aliasing filter would
  /// record it: time is cut into bins of `1 / rate` seconds and every sensor channel is
  /// averaged over the samples in its bin (a boxcar decimation). Each new sample carries the
  /// timestamp, truth and movement flag of its bin's last sample, so that its gyroscope reading
  /// is the mean rate over the step that ends at its timestamp (the convention the estimator
  /// integrates with; an integrating ADC or a decimating filter behaves so too). Empty bins are
  /// skipped.
  ///
  /// Used to check that the estimator behaves at rates other than BROAD's 285.7 Hz.
  ///
  /// - Parameter rate: The new rate, Hz; at or above the trial's own rate (or not finite and
  ///   positive) the trial is returned unchanged.
  /// - Returns: The resampled trial.
  public func resampled(rate: Double) -> BroadTrial {
    guard rate.isFinite, rate > 0, count > 1 else { return self }
    let t0 = timestamps[0]
    let span = timestamps[count - 1] - t0
    guard span > 0, rate < Double(count - 1) / span else { return self }
    var r = self
    r.timestamps = []
    r.gyroscope = []
    r.accelerometer = []
    r.magnetometer = []
    r.truth = []
    r.movement = []
    var start = 0
    while start < count {
      let bin = ((timestamps[start] - t0) * rate).rounded(.down)
      var end = start + 1
      while end < count && ((timestamps[end] - t0) * rate).rounded(.down) == bin { end += 1 }
      let n = Double(end - start)
      var sums = [Double](repeating: 0, count: 9)
      for i in start..<end {
        for k in 0..<3 {
          sums[k] += gyroscope[3 * i + k]
          sums[3 + k] += accelerometer[3 * i + k]
          sums[6 + k] += magnetometer[3 * i + k]
        }
      }
      let last = end - 1
      r.timestamps.append(timestamps[last])
      for k in 0..<3 { r.gyroscope.append(sums[k] / n) }
      for k in 0..<3 { r.accelerometer.append(sums[3 + k] / n) }
      for k in 0..<3 { r.magnetometer.append(sums[6 + k] / n) }
      r.truth.append(truth[last])
      r.movement.append(movement[last])
      start = end
    }
    return r
  }
}
