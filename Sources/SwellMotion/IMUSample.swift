import SwellGeometry

/// One raw inertial sample, as every motion source produces it.
///
/// Conventions (docs/architecture.md, "Products and conventions"): **device frame** (+x right, +y toward the top of the screen, +z out
/// of the screen); timestamp in seconds on a monotonic clock; gyroscope in rad/s, right-handed;
/// accelerometer as **specific force** in m/s² (about +9.81 on +z lying face up, the IIO, Android
/// and BROAD convention); magnetometer in µT, `nil` for a 6D source.
public struct IMUSample: Hashable, Sendable {
  /// Seconds on a monotonic clock.
  public var timestamp: Double
  /// Angular velocity, rad/s, device frame, right-handed, uncalibrated (bias included).
  public var gyroscope: Vector3
  /// Specific force, m/s², device frame (+9.81 on the up axis at rest).
  public var accelerometer: Vector3
  /// Magnetic flux density, µT, device frame; `nil` when the source has no magnetometer.
  public var magnetometer: Vector3?

  /// Creates a sample.
  ///
  /// - Parameters:
  ///   - timestamp: Seconds on a monotonic clock.
  ///   - gyroscope: rad/s, device frame.
  ///   - accelerometer: Specific force, m/s², device frame.
  ///   - magnetometer: µT, device frame, or `nil`.
  public init(
    timestamp: Double, gyroscope: Vector3, accelerometer: Vector3, magnetometer: Vector3? = nil
  ) {
    self.timestamp = timestamp
    self.gyroscope = gyroscope
    self.accelerometer = accelerometer
    self.magnetometer = magnetometer
  }
}

/// Standard gravity, m/s² (the constant SDL, the Linux kernel and Sensor Logger use).
public let standardGravity = 9.806_65
