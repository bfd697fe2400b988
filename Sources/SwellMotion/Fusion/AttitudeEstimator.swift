import Foundation
import SwellGeometry

/// Sensor fusion: turns raw ``IMUSample``s into CoreMotion-style ``DeviceMotion``.
///
/// Feed samples in timestamp order with ``update(_:)``; each call returns the device motion at
/// that sample. 6D mode uses gyroscope and accelerometer; 9D mode also uses the magnetometer for
/// heading when samples carry one.
///
/// This first version is a complementary filter (gyroscope integration with a proportional
/// correction toward the accelerometer's and magnetometer's directions, after Mahony et al.,
/// "Nonlinear complementary filters on the special orthogonal group", IEEE TAC 2008).
public struct AttitudeEstimator: Sendable {
  /// Tuning parameters, in physical units.
  public struct Settings: Sendable, Hashable {
    /// Time constant of the accelerometer (inclination) correction, seconds.
    public var accelerometerTimeConstant: Double = 3
    /// Time constant of the magnetometer (heading) correction, seconds.
    public var magnetometerTimeConstant: Double = 9

    /// Creates the default settings.
    public init() {}
  }

  /// Which sensors the estimator fuses.
  public enum Mode: Sendable, Hashable {
    /// Gyroscope and accelerometer; heading is relative to the start.
    case sixD
    /// Gyroscope, accelerometer and magnetometer; heading is magnetic.
    case nineD
  }

  /// The settings in use.
  public let settings: Settings
  /// The fusion mode.
  public let mode: Mode
  /// The attitude estimate: device → Earth (ENU-free, z up; x north in 9D after convergence).
  public private(set) var quaternion = Quaternion.identity
  private var lastTimestamp: Double?

  /// Creates an estimator.
  ///
  /// - Parameters:
  ///   - mode: 6D or 9D fusion.
  ///   - settings: Tuning parameters.
  public init(mode: Mode = .sixD, settings: Settings = Settings()) {
    self.mode = mode
    self.settings = settings
  }

  /// Processes one sample and returns the device motion at its timestamp.
  ///
  /// - Parameters:
  ///   - sample: The next sample; its timestamp must not be earlier than the previous one.
  ///   - referenceFrame: The frame the returned attitude is expressed in.
  /// - Returns: Device motion in CoreMotion's units and signs.
  public mutating func update(
    _ sample: IMUSample, referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical
  ) -> DeviceMotion {
    let acc = sample.accelerometer
    if lastTimestamp == nil {
      // Initialise the inclination from the accelerometer.
      if acc.lengthSquared > 0 {
        quaternion = Quaternion.rotation(from: acc, to: .unitZ)
      }
    }
    let dt = max(0, min(0.2, sample.timestamp - (lastTimestamp ?? sample.timestamp)))
    lastTimestamp = sample.timestamp
    var omega = sample.gyroscope
    if acc.lengthSquared > 0 {
      let measuredUp = acc.normalized()
      let estimatedUp = quaternion.inverseRotate(.unitZ)
      omega += measuredUp.cross(estimatedUp) * (-1 / settings.accelerometerTimeConstant)
    }
    if mode == .nineD, let m = sample.magnetometer, m.lengthSquared > 0 {
      let mEarth = quaternion.rotate(m)
      let horizontal = Vector3(mEarth.x, mEarth.y, 0)
      if horizontal.lengthSquared > 0 {
        // Heading error: angle of the horizontal field from +x (north), about Earth z.
        let err = atan2(horizontal.y, horizontal.x)
        omega += quaternion.inverseRotate(Vector3(0, 0, -err / settings.magnetometerTimeConstant))
      }
    }
    quaternion = (quaternion * Quaternion(rotationVector: omega * dt)).normalized()
    let gravity = quaternion.inverseRotate(Vector3(0, 0, -1))
    let total = acc * (-1 / standardGravity)
    return DeviceMotion(
      timestamp: sample.timestamp, attitude: Attitude(quaternion: quaternion),
      rotationRate: sample.gyroscope, gravity: gravity, userAcceleration: total - gravity,
      referenceFrame: referenceFrame)
  }
}
