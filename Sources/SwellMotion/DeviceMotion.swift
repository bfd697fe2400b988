import Foundation
import SwellGeometry

/// A rotation rate about the device axes, rad/s, right-handed (`CMRotationRate`).
public typealias RotationRate = Vector3

/// An acceleration in **g**, device frame (`CMAcceleration`).
public typealias Acceleration = Vector3

/// The calibration accuracy of a magnetic-field estimate
/// (`CMMagneticFieldCalibrationAccuracy`).
public enum MagneticFieldCalibrationAccuracy: Int, Sendable, Codable, Hashable {
  /// No calibration yet (raw value −1).
  case uncalibrated = -1
  /// Low accuracy (0).
  case low = 0
  /// Medium accuracy (1).
  case medium = 1
  /// High accuracy (2).
  case high = 2
}

/// A calibrated magnetic field (`CMCalibratedMagneticField`).
public struct CalibratedMagneticField: Hashable, Sendable, Codable {
  /// The field, µT, device frame, with the device's own bias removed.
  public var field: Vector3
  /// How far the estimate can be trusted.
  public var accuracy: MagneticFieldCalibrationAccuracy

  /// Creates a calibrated field.
  ///
  /// - Parameters:
  ///   - field: µT, device frame.
  ///   - accuracy: The calibration accuracy.
  public init(field: Vector3, accuracy: MagneticFieldCalibrationAccuracy) {
    self.field = field
    self.accuracy = accuracy
  }
}

/// The reference frame of an attitude (`CMAttitudeReferenceFrame`; raw values as Apple's).
public enum AttitudeReferenceFrame: Int, Sendable, Codable, Hashable, CaseIterable {
  /// Z vertical, x an arbitrary horizontal direction (the device's heading at start).
  case xArbitraryZVertical = 1
  /// As ``xArbitraryZVertical`` with the magnetometer correcting yaw drift.
  case xArbitraryCorrectedZVertical = 2
  /// Z vertical, x toward magnetic north.
  case xMagneticNorthZVertical = 4
  /// Z vertical, x toward true north (needs a declination).
  case xTrueNorthZVertical = 8

  /// The name used in files and on the command line, e.g. `xArbitraryZVertical`.
  public var name: String {
    switch self {
    case .xArbitraryZVertical: "xArbitraryZVertical"
    case .xArbitraryCorrectedZVertical: "xArbitraryCorrectedZVertical"
    case .xMagneticNorthZVertical: "xMagneticNorthZVertical"
    case .xTrueNorthZVertical: "xTrueNorthZVertical"
    }
  }

  /// Looks a frame up by its ``name``.
  ///
  /// - Parameter name: A name such as `xMagneticNorthZVertical`.
  public init?(name: String) {
    guard let f = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = f
  }

  /// True for the frames that need a magnetometer.
  public var needsMagnetometer: Bool { self != .xArbitraryZVertical }
}

/// An attitude: the rotation from the device frame to a reference frame (`CMAttitude`).
///
/// The reference frame is z up; for the north-referenced frames x points north (NWU). Euler
/// angles follow CoreMotion: **pitch** about device x in [−π/2, π/2], **roll** about device y in
/// (−π, π], **yaw** about z in (−π, π].
public struct Attitude: Hashable, Sendable, Codable {
  /// The unit quaternion taking device-frame vectors to the reference frame, w first.
  public var quaternion: Quaternion

  /// Creates an attitude from a unit quaternion.
  ///
  /// - Parameter quaternion: Device → reference rotation; it is normalised.
  public init(quaternion: Quaternion) { self.quaternion = quaternion.normalized() }

  /// The identity attitude: device axes aligned with the reference frame (lying flat, face up).
  public static let identity = Attitude(quaternion: .identity)

  /// The rotation matrix as CoreMotion gives it (`CMAttitude.rotationMatrix`): it takes
  /// reference-frame vectors to the device frame, so `rotationMatrix * v` is a world direction
  /// `v` seen from the device (row *i* is the reference frame's view of device axis *i*).
  ///
  /// It is the transpose (the inverse) of the rotation of ``quaternion``, which takes device
  /// vectors to the reference frame; ``deviceToReferenceMatrix`` is that one.
  public var rotationMatrix: Matrix3 { quaternion.rotationMatrix.transposed }

  /// The rotation matrix taking device-frame vectors to the reference frame (the rotation of
  /// ``quaternion``; the transpose of ``rotationMatrix``).
  public var deviceToReferenceMatrix: Matrix3 { quaternion.rotationMatrix }

  /// Rotation about the device x axis, radians, in [−π/2, π/2] (`CMAttitude.pitch`).
  ///
  /// Positive tips the top edge up toward the viewer for a flat device.
  public var pitch: Double {
    let q = quaternion
    let s = 2 * (q.w * q.x + q.y * q.z)
    return asin(min(1, max(-1, s)))
  }

  /// Rotation about the device y axis, radians, in (−π, π] (`CMAttitude.roll`).
  public var roll: Double {
    let q = quaternion
    return atan2(2 * (q.w * q.y - q.x * q.z), 1 - 2 * (q.x * q.x + q.y * q.y))
  }

  /// Rotation about the vertical z axis, radians, in (−π, π] (`CMAttitude.yaw`);
  /// counter-clockwise seen from above is positive.
  public var yaw: Double {
    let q = quaternion
    return atan2(2 * (q.w * q.z - q.x * q.y), 1 - 2 * (q.x * q.x + q.z * q.z))
  }

  /// The attitude relative to another one: `reference⁻¹ ⊗ self`
  /// (`CMAttitude.multiply(byInverseOf:)` as a non-mutating function).
  ///
  /// - Parameter reference: The attitude cached as the reference.
  /// - Returns: The change from `reference` to `self`, expressed in `reference`'s device frame.
  public func relative(to reference: Attitude) -> Attitude {
    Attitude(quaternion: reference.quaternion.conjugate * quaternion)
  }

  /// Replaces the attitude with its change relative to `reference`
  /// (`CMAttitude.multiply(byInverseOf:)`).
  ///
  /// - Parameter reference: The attitude cached as the reference.
  public mutating func multiply(byInverseOf reference: Attitude) {
    self = relative(to: reference)
  }
}

/// Device motion, as CoreMotion's `CMDeviceMotion`.
///
/// Units and frames: `gravity` and `userAcceleration` in **g**, device frame, gravity pointing
/// toward the Earth ((0, 0, −1) lying face up, (0, −1, 0) upright portrait); `rotationRate` in
/// rad/s, device frame, bias-corrected; `attitude` relative to ``referenceFrame``.
public struct DeviceMotion: Hashable, Sendable {
  /// Seconds on the source's monotonic clock (`CMLogItem.timestamp`).
  public var timestamp: Double
  /// The device attitude relative to ``referenceFrame``.
  public var attitude: Attitude
  /// Bias-corrected angular velocity, rad/s, device frame.
  public var rotationRate: RotationRate
  /// Gravity, g, device frame, pointing toward the Earth.
  public var gravity: Acceleration
  /// Acceleration the user gives the device, g, device frame (total = gravity + this).
  public var userAcceleration: Acceleration
  /// The calibrated magnetic field; accuracy `.uncalibrated` and zero field without one.
  public var magneticField: CalibratedMagneticField
  /// Heading in degrees, 0..<360, for the north-referenced frames; −1 otherwise.
  public var heading: Double
  /// The reference frame of ``attitude``.
  public var referenceFrame: AttitudeReferenceFrame

  /// Creates device motion.
  ///
  /// - Parameters:
  ///   - timestamp: Seconds.
  ///   - attitude: Device → reference attitude.
  ///   - rotationRate: rad/s, device frame.
  ///   - gravity: g, device frame.
  ///   - userAcceleration: g, device frame.
  ///   - magneticField: The calibrated field (default: uncalibrated, zero).
  ///   - heading: Degrees, or −1 (default).
  ///   - referenceFrame: The frame of `attitude` (default `.xArbitraryZVertical`).
  public init(
    timestamp: Double, attitude: Attitude, rotationRate: RotationRate, gravity: Acceleration,
    userAcceleration: Acceleration,
    magneticField: CalibratedMagneticField = CalibratedMagneticField(
      field: .zero, accuracy: .uncalibrated),
    heading: Double = -1, referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical
  ) {
    self.timestamp = timestamp
    self.attitude = attitude
    self.rotationRate = rotationRate
    self.gravity = gravity
    self.userAcceleration = userAcceleration
    self.magneticField = magneticField
    self.heading = heading
    self.referenceFrame = referenceFrame
  }

  /// Device motion of a device held still in an attitude: gravity follows from the attitude,
  /// rotation rate and user acceleration are zero.
  ///
  /// - Parameters:
  ///   - timestamp: Seconds.
  ///   - attitude: Device → reference attitude (reference z up).
  /// - Returns: The consistent device motion.
  public static func resting(timestamp: Double, attitude: Attitude) -> DeviceMotion {
    DeviceMotion(
      timestamp: timestamp, attitude: attitude, rotationRate: .zero,
      gravity: attitude.quaternion.inverseRotate(Vector3(0, 0, -1)), userAcceleration: .zero)
  }
}
