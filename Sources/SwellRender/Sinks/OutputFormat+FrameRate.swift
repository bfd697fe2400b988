extension OutputFormat {
  /// The fastest frame rate the format plays as written, in frames per second, or `nil` when it
  /// has no such limit.
  ///
  /// GIF frame delays are whole hundredths of a second, and players (browsers, ffprobe) treat
  /// delays under 2/100 s as 10/100 s, so a GIF above 50 frames per second would play several
  /// times too slowly. The other formats carry the exact rate.
  public var maximumFramesPerSecond: Double? { self == .gif ? 50 : nil }
}
