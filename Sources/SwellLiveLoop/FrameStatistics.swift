/// Present-interval statistics of a live view: frames, dropped frames, median and 99th
/// percentile of the interval between presents (docs/formats.md "Live statistics").
///
/// A frame counts as dropped when the interval since the previous present exceeds 1.5 × the
/// target interval: the previous frame was not presented in time.
public struct FrameStatistics: Hashable, Sendable {
  /// The target frame rate, frames per second (the `--fps` cap or the display's refresh rate).
  public var targetFramesPerSecond: Double
  /// The number of frames presented.
  public private(set) var frames = 0
  /// The number of frames whose present interval exceeded 1.5 × the target interval.
  public private(set) var dropped = 0
  /// Every present interval so far, seconds, in order.
  public private(set) var intervals: [Double] = []
  /// Frames whose presentation did not change and were not drawn or presented again.
  public var unchangedFrames = 0
  /// Frame times spent hidden or minimised (nothing drawn).
  public var hiddenFrames = 0
  /// Motion-to-photon latencies of the samples of a live source, seconds: from a sample's
  /// arrival to the present of the first frame that used it.
  public private(set) var latencies: [Double] = []
  private var lastPresent: Double?

  /// Records the latencies of the samples a presented frame used first.
  ///
  /// - Parameter values: Seconds (non-finite or negative values are ignored).
  public mutating func recordLatencies(_ values: [Double]) {
    latencies += values.filter { $0.isFinite && $0 >= 0 }
  }

  /// Creates empty statistics.
  ///
  /// - Parameter targetFramesPerSecond: The target rate, frames per second, positive.
  public init(targetFramesPerSecond: Double) {
    self.targetFramesPerSecond = targetFramesPerSecond > 0 ? targetFramesPerSecond : 60
  }

  /// The target interval between presents, seconds.
  public var targetInterval: Double { 1 / targetFramesPerSecond }

  /// Records one present.
  ///
  /// - Parameter time: When the frame was presented, seconds on a monotonic clock.
  public mutating func recordPresent(at time: Double) {
    frames += 1
    if let last = lastPresent {
      let interval = max(0, time - last)
      intervals.append(interval)
      if interval > 1.5 * targetInterval { dropped += 1 }
    }
    lastPresent = time
  }

  /// Forgets the previous present time so that the next interval is not measured (after a
  /// pause or a resize, which are not dropped frames).
  public mutating func resetInterval() { lastPresent = nil }

  /// The median present interval, milliseconds (0 with fewer than two frames).
  public var intervalMedianMilliseconds: Double {
    FrameStatistics.percentile(intervals, 0.5) * 1000
  }

  /// The 99th-percentile present interval, milliseconds (0 with fewer than two frames).
  public var intervalP99Milliseconds: Double { FrameStatistics.percentile(intervals, 0.99) * 1000 }

  /// The frames per second implied by the median interval (0 with fewer than two frames).
  public var medianFramesPerSecond: Double {
    let m = intervalMedianMilliseconds
    return m > 0 ? 1000 / m : 0
  }

  /// The statistics line of `swell live --stats`: one JSON object,
  /// `{"frames": N, "dropped": N, "interval_ms_median": X, "interval_ms_p99": X, "fps_target": X,
  /// "unchanged": N, "hidden": N}` (frames presented; frame times not drawn because nothing
  /// changed or the window was hidden),
  /// plus `"latency_ms_median": X, "latency_ms_p99": X` when a live source's samples were
  /// measured (docs/formats.md "Live statistics").
  public var jsonLine: String {
    var line =
      "{\"frames\": \(frames), \"dropped\": \(dropped), "
      + "\"interval_ms_median\": \(FrameStatistics.format(intervalMedianMilliseconds)), "
      + "\"interval_ms_p99\": \(FrameStatistics.format(intervalP99Milliseconds)), "
      + "\"fps_target\": \(FrameStatistics.format(targetFramesPerSecond)), "
      + "\"unchanged\": \(unchangedFrames), \"hidden\": \(hiddenFrames)"
    if !latencies.isEmpty {
      line +=
        ", \"latency_ms_median\": \(FrameStatistics.format(FrameStatistics.percentile(latencies, 0.5) * 1000)), "
        + "\"latency_ms_p99\": \(FrameStatistics.format(FrameStatistics.percentile(latencies, 0.99) * 1000))"
    }
    return line + "}"
  }

  /// A percentile by the nearest-rank method: the smallest value with at least `p` of the
  /// values at or below it.
  ///
  /// - Parameters:
  ///   - values: The values, any order.
  ///   - p: The fraction, 0...1.
  /// - Returns: The percentile, or 0 for no values.
  public static func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = Int((p * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
  }

  private static func format(_ v: Double) -> String {
    guard v.isFinite else { return "0" }
    let r = (v * 1000).rounded() / 1000
    return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
  }
}
