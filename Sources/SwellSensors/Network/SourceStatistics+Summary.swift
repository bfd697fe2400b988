import SwellMotion

extension PhoneStreamStatistics {
  /// One line on what a UDP phone stream skipped, or `nil` when it skipped nothing.
  public var skippedSummary: String? {
    guard malformed + oversized + outOfOrder + outliers > 0 else { return nil }
    return "skipped \(counted(malformed, "malformed line")), \(oversized) oversized, "
      + "\(outOfOrder) out-of-order and \(counted(outliers, "far-off-clock sample")) of "
      + "\(received) received"
  }
}

/// `1 malformed line`, `2 malformed lines`: a count and its noun in the right number.
private func counted(_ n: Int, _ noun: String) -> String {
  "\(n) \(noun)\(n == 1 ? "" : "s")"
}

extension PhyphoxStatistics {
  /// One line on what a phyphox source skipped, or `nil` when it skipped nothing.
  public var skippedSummary: String? {
    guard malformed + oversized + httpErrors + invalidValues + outOfOrder > 0 else { return nil }
    return "\(requests) requests: \(malformed) malformed and \(oversized) oversized answers, "
      + "\(httpErrors) HTTP errors, \(invalidValues) invalid and \(outOfOrder) out-of-order "
      + "readings skipped"
  }
}

/// The statistics summary of any live source that keeps them.
extension LiveSourceSpec {
  /// One line on what a source skipped, or `nil` for a source that skipped nothing or keeps no
  /// statistics.
  ///
  /// - Parameter source: A source opened by ``open(_:clock:)``.
  /// - Returns: The line.
  public static func skippedSummary(of source: any MotionSource) -> String? {
    if let udp = source as? UDPMotionSource { return udp.statistics.skippedSummary }
    if let phone = source as? PhyphoxSource { return phone.statistics.skippedSummary }
    if let dsu = source as? DSUClientSource { return dsu.statistics.skippedSummary }
    return nil
  }
}
