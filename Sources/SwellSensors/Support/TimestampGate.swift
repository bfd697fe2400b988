import SwellMotion

/// Decides which sender timestamps a live source delivers, so that one wild timestamp cannot
/// become the source's clock (after a sample stamped `1e300`, every later sample would look out
/// of order and be dropped).
///
/// A sample is delivered when its time is plausible (`RecordingLimits.isPlausibleTime(_:)`),
/// later than the last delivered one, and not further ahead of it than the receiver's own clock
/// advanced plus ``tolerance``. A sample too far ahead is an **outlier**: dropped and counted.
/// When the sender's clock really jumped (a phone app restarted), its samples agree with each
/// other: after ``resynchronizationCount`` consecutive outliers whose offsets to the receiver's
/// clock agree within ``tolerance``, the gate follows the new clock.
struct TimestampGate: Sendable {
  /// What happened to a sample.
  enum Verdict: Equatable, Sendable {
    /// Delivered.
    case accepted
    /// Dropped: its time is not later than the last delivered one.
    case outOfOrder
    /// Dropped: implausible, or too far ahead of the running clock.
    case outlier
  }

  /// How far a sample may run ahead of the receiver's clock since the last delivered sample,
  /// seconds (5).
  var tolerance = 5.0
  /// How many consistent outliers in a row move the gate to a new sender clock (20).
  var resynchronizationCount = 20

  private var last: (time: Double, arrival: Double)?
  private var candidate: (offset: Double, count: Int)?

  /// Judges one sample.
  ///
  /// - Parameters:
  ///   - time: The sender's timestamp, seconds.
  ///   - arrival: The receiver's clock when it arrived, seconds (monotonic).
  /// - Returns: Whether to deliver it.
  mutating func admit(_ time: Double, arrival: Double) -> Verdict {
    guard RecordingLimits.isPlausibleTime(time) else { return .outlier }
    guard let last else {
      self.last = (time, arrival)
      return .accepted
    }
    let allowed = max(0, arrival - last.arrival) + tolerance
    if time > last.time && time - last.time <= allowed {
      self.last = (time, arrival)
      candidate = nil
      return .accepted
    }
    if time <= last.time && candidate == nil { return .outOfOrder }
    // Too far ahead (or a run of samples on another clock): count agreeing offsets.
    let offset = time - arrival
    if let c = candidate, abs(c.offset - offset) <= tolerance {
      candidate = (offset, c.count + 1)
    } else {
      candidate = (offset, 1)
    }
    if let c = candidate, c.count >= resynchronizationCount {
      self.last = (time, arrival)
      candidate = nil
      return .accepted
    }
    return time <= last.time ? .outOfOrder : .outlier
  }
}
