import Foundation
import SwellMotion
import SwellRecordings
import SwellTime

extension SceneMotionInput {
  /// The feed a live view plays for a motion word: `keyboard` or `mouse` (a tilt the user
  /// steers), `script:TEXT` (a motion script at 100 Hz), a sensor (when `sensor` opens one for
  /// the word), otherwise a recording file at that path.
  ///
  /// - Parameters:
  ///   - word: The motion word.
  ///   - loops: Whether a script or recording starts again when it ends.
  ///   - referenceFrame: The frame a sensor's attitude is fused in.
  ///   - calibrationStore: Where a sensor's gyroscope bias is saved between runs
  ///     (`MotionManager.gyroscopeCalibrationStore`); `nil` (the default) for none.
  ///   - clock: The clock a sensor's manager stamps arrivals on and retries on (default: the
  ///     system's monotonic clock); the feed's ``SceneMotionFeed/clock``. Open the sensor on the
  ///     same clock.
  ///   - sensor: Opens the sensor the word names, or returns `nil` when it names none.
  /// - Returns: The feed.
  /// - Throws: ``SceneMotionError`` for a bad script or recording; what `sensor` throws.
  public static func liveFeed(
    _ word: String, loops: Bool, referenceFrame: AttitudeReferenceFrame,
    calibrationStore: GyroscopeCalibrationStore? = nil, clock: MonotonicClock = .continuous,
    sensor: (String) throws -> (any MotionSource)?
  ) throws -> any SceneMotionFeed {
    switch word {
    case "keyboard": return TiltMotionFeed(kind: .keyboard)
    case "mouse": return TiltMotionFeed(kind: .mouse)
    default:
      if word.hasPrefix("script:") {
        return try script(String(word.dropFirst("script:".count)), rate: 100, loops: loops).feed
      }
      if let source = try sensor(word) {
        // The raw samples are checked for the wrong units as they arrive, as `swell fuse`
        // checks a file; a warning is one of the feed's messages.
        let checked = UnitCheckedSource(source)
        let manager = MotionManager(source: checked, clock: clock)
        manager.gyroscopeCalibrationStore = calibrationStore
        let feed = LiveSourceFeed(manager: manager, referenceFrame: referenceFrame)
        let post = feed.messagePoster
        checked.setWarningHandler { post(UnitCheckedSource.liveMessage(for: $0)) }
        return feed
      }
      return try recording(URL(fileURLWithPath: word), loops: loops).feed
    }
  }
}
