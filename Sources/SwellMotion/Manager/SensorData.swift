import SwellGeometry

/// One raw accelerometer reading, as CoreMotion gives it (`CMAccelerometerData`).
public struct AccelerometerData: Hashable, Sendable {
  /// Seconds, on the source's clock (`CMLogItem.timestamp`).
  public var timestamp: Double
  /// The acceleration the accelerometer measures, in g (9.80665 m/s²), device frame, gravity
  /// included, CoreMotion's sign: a device lying face up reads about (0, 0, −1)
  /// (`CMAccelerometerData.acceleration`). It is the negated specific force of
  /// `IMUSample.accelerometer` divided by g.
  public var acceleration: Vector3

  /// Creates a reading.
  ///
  /// - Parameters:
  ///   - timestamp: Seconds.
  ///   - acceleration: g, device frame, CoreMotion's sign.
  public init(timestamp: Double, acceleration: Vector3) {
    self.timestamp = timestamp
    self.acceleration = acceleration
  }

  /// The reading of a raw sample.
  ///
  /// - Parameter sample: Specific force in m/s² (+9.81 on the up axis at rest).
  public init(_ sample: IMUSample) {
    timestamp = sample.timestamp
    acceleration = sample.accelerometer * (-1 / standardGravity)
  }
}

/// One raw gyroscope reading, as CoreMotion gives it (`CMGyroData`): not bias-corrected.
public struct GyroData: Hashable, Sendable {
  /// Seconds, on the source's clock.
  public var timestamp: Double
  /// The rotation rate the gyroscope measures, rad/s, device frame, right-handed, bias
  /// included (`CMGyroData.rotationRate`); `DeviceMotion.rotationRate` is the corrected one.
  public var rotationRate: Vector3

  /// Creates a reading.
  ///
  /// - Parameters:
  ///   - timestamp: Seconds.
  ///   - rotationRate: rad/s, device frame.
  public init(timestamp: Double, rotationRate: Vector3) {
    self.timestamp = timestamp
    self.rotationRate = rotationRate
  }

  /// The reading of a raw sample.
  ///
  /// - Parameter sample: The sample (gyroscope in rad/s).
  public init(_ sample: IMUSample) {
    timestamp = sample.timestamp
    rotationRate = sample.gyroscope
  }
}

/// One raw magnetometer reading, as CoreMotion gives it (`CMMagnetometerData`): not calibrated.
public struct MagnetometerData: Hashable, Sendable {
  /// Seconds, on the source's clock.
  public var timestamp: Double
  /// The field the magnetometer measures, µT, device frame, hard- and soft-iron effects
  /// included (`CMMagnetometerData.magneticField`).
  public var magneticField: Vector3

  /// Creates a reading.
  ///
  /// - Parameters:
  ///   - timestamp: Seconds.
  ///   - magneticField: µT, device frame.
  public init(timestamp: Double, magneticField: Vector3) {
    self.timestamp = timestamp
    self.magneticField = magneticField
  }

  /// The reading of a raw sample, or `nil` when it has no magnetometer.
  ///
  /// - Parameter sample: The sample (magnetometer in µT).
  public init?(_ sample: IMUSample) {
    guard let m = sample.magnetometer else { return nil }
    timestamp = sample.timestamp
    magneticField = m
  }
}
