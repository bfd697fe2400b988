import Foundation
import SwellGeometry

/// A motion recording in memory: raw IMU samples to be fused, or device motion that is already
/// fused; what ``RecordingSource`` replays.
///
/// Build one from samples, or load one from a file, folder or zip with `SwellRecordings`'
/// `MotionRecording.load(from:)` (raw IMU and device-motion CSV, Sensor Logger, phyphox, evemu; see
/// `docs/recordings.md`).
public struct MotionRecording: Sendable {
  /// Where a recording came from.
  public enum Format: Sendable, Hashable {
    /// Swell's raw IMU CSV.
    case rawIMU
    /// Swell's device-motion CSV.
    case deviceMotion
    /// A Sensor Logger export.
    case sensorLogger(platform: SensorLoggerPlatform)
    /// A phyphox CSV export.
    case phyphox
    /// An evemu recording of a Linux evdev motion node (`evemu-record`, `swell record evdev`).
    case evemu
  }

  /// What a recording holds.
  public enum Content: Sendable, Hashable {
    /// Raw samples (device frame, SI units), in time order.
    case samples([IMUSample])
    /// Fused device motion, in time order, in the given reference frame.
    case deviceMotion([DeviceMotion], referenceFrame: AttitudeReferenceFrame)
  }

  /// A short name: the file or folder name.
  public var name: String
  /// The detected format.
  public var format: Format
  /// The samples or device motion.
  public var content: Content

  /// Creates a recording.
  ///
  /// - Parameters:
  ///   - name: A short name.
  ///   - format: The source format.
  ///   - content: The samples or device motion.
  public init(name: String, format: Format, content: Content) {
    self.name = name
    self.format = format
    self.content = content
  }

  /// True when raw samples carry magnetometer readings (9D fusion possible), or device motion
  /// carries a calibrated magnetic field.
  public var hasMagnetometer: Bool {
    switch content {
    case .samples(let s): return s.contains { $0.magnetometer != nil }
    case .deviceMotion(let m, _): return m.contains { $0.magneticField.accuracy != .uncalibrated }
    }
  }

  /// False when raw samples all carry an exactly zero gyroscope: a recording of a device without
  /// one (a real gyroscope's noise never reads exactly zero on all three axes for a whole
  /// recording), whose motion ``deviceMotion(mode:referenceFrame:declinationDegrees:settings:progress:)``
  /// then estimates from the accelerometer alone (``TiltEstimator``). True for device motion.
  public var hasGyroscope: Bool {
    switch content {
    case .samples(let s): return s.isEmpty || s.contains { $0.gyroscope != .zero }
    case .deviceMotion: return true
    }
  }

  /// The number of samples or device-motion rows.
  public var count: Int {
    switch content {
    case .samples(let s): s.count
    case .deviceMotion(let m, _): m.count
    }
  }

  /// The timestamps of the first and last events, seconds (`nil` when empty).
  public var timeSpan: ClosedRange<Double>? {
    switch content {
    case .samples(let s):
      guard let a = s.first?.timestamp, let b = s.last?.timestamp else { return nil }
      return a...b
    case .deviceMotion(let m, _):
      guard let a = m.first?.timestamp, let b = m.last?.timestamp else { return nil }
      return a...b
    }
  }

  /// The recording as source events, in time order.
  public var events: [MotionEvent] {
    switch content {
    case .samples(let s): s.map { .sample($0) }
    case .deviceMotion(let m, _): m.map { .deviceMotion($0) }
    }
  }
}

/// The platform a Sensor Logger export was recorded on.
public enum SensorLoggerPlatform: String, Sendable, Hashable {
  /// iPhone (CoreMotion signs: acceleration is the negative of specific force).
  case iOS
  /// Android (specific-force signs, m/s²).
  case android
  /// Not stated and not inferable; the files were read with the Android (specific-force)
  /// convention.
  case unknown
}
