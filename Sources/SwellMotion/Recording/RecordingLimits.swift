/// The ranges every reader of motion data (recording files, phone packets, sensors) accepts;
/// values outside them are refused with the file (or source), line and column, so no absurd
/// number reaches the fusion or a size computation (`docs/limits.md`).
public enum RecordingLimits {
  /// The largest magnitude of a timestamp, seconds (1e10, about 317 years: wide enough for Unix
  /// time and for any monotonic clock).
  public static let maximumTimeMagnitude = 1e10
  /// The largest magnitude of a gyroscope, accelerometer or magnetometer component, in the
  /// sample's SI unit (rad/s, m/s², µT): 1e6, far beyond any sensor's range.
  public static let maximumComponentMagnitude = 1e6

  /// True when a timestamp is finite and within ``maximumTimeMagnitude``.
  ///
  /// - Parameter seconds: The timestamp, seconds.
  /// - Returns: Whether readers accept it.
  public static func isPlausibleTime(_ seconds: Double) -> Bool {
    seconds.isFinite && abs(seconds) <= maximumTimeMagnitude
  }

  /// True when a sensor component is finite and within ``maximumComponentMagnitude``.
  ///
  /// - Parameter value: rad/s, m/s² or µT.
  /// - Returns: Whether readers accept it.
  public static func isPlausibleComponent(_ value: Double) -> Bool {
    value.isFinite && abs(value) <= maximumComponentMagnitude
  }
}
