import Foundation
import SwellGeometry

/// Device motion from an accelerometer alone, for devices without a gyroscope: the DualShock 3
/// (hid-sony reports only its accelerometer) and the many laptops and tablets whose only IIO
/// motion sensor is an accelerometer.
///
/// A fusion filter trusts the gyroscope for fast changes and the accelerometer only slowly, so
/// fed a zero gyroscope it follows a tilt over seconds (30° took about 7 s with the 6D
/// defaults). This estimator takes gravity straight from the accelerometer instead:
///
/// - **Gravity** (g, device frame) is the accelerometer's reading, low-passed with time constant
///   ``timeConstant`` (an exponential filter, `α = 1 − e^(−Δt/τ)` per sample, so it does not
///   depend on the rate), negated and scaled to 1 g, as CoreMotion's gravity points down.
/// - **Attitude** is the tilt: the shortest rotation that takes that gravity onto the reference
///   frame's −z. Without a magnetometer a turn about the vertical cannot be seen, so the heading
///   is invalid (−1). With one (``usesMagnetometer``), the field, low-passed the same way, is
///   turned into that level frame and the attitude turned about the vertical until the field's
///   horizontal part points along +x: a tilt-compensated compass, giving
///   `xMagneticNorthZVertical`, `xTrueNorthZVertical` (turned by the declination, as
///   ``AttitudeEstimator`` does) and `xArbitraryCorrectedZVertical` (the compass's turns since
///   the first sample) with a valid heading. No hard-iron calibration is made, so the field is
///   reported at `low` accuracy.
/// - **Rotation rate** (rad/s, device frame) is estimated from how the filtered gravity turns:
///   a world-fixed direction seen from the device moves as `dg/dt = −ω × g`, so between samples
///   `ω⊥ = −axis·θ / Δt`, with `axis·θ` the rotation from the previous gravity to the new one.
///   Only the part of the rotation across gravity is seen (about the screen's normal when the
///   device stands, about x and y when it lies flat), which is what a shake of the WaterWave
///   seed (`rotationRate.x`) needs.
/// - **User acceleration** (g) is the raw reading (as CoreMotion's total acceleration,
///   `−a / g₀`) minus the gravity, so at rest it is zero and a quick push shows in full.
///
/// Linear acceleration that lasts longer than the time constant tilts the estimate: with one
/// sensor nothing can tell the two apart. Readings that are not finite, zero or beyond
/// 10⁴ m/s² are skipped (the last estimate is kept), as the fusion filter skips them.
public struct TiltEstimator: Sendable {
  /// The low-pass filter's time constant, seconds (default 0.15 s: Apple's accelerometer
  /// sample code filters at a factor of 0.1 per 60 Hz sample, a time constant of about
  /// 0.16 s; a shorter one shakes with the hand, a longer one lags the 1 s tilt animation).
  public let timeConstant: Double
  /// Whether the magnetometer turns the attitude toward north (the frames that refer to it).
  public let usesMagnetometer: Bool
  /// The magnetic declination, degrees, east positive, for `xTrueNorthZVertical`.
  public let declinationDegrees: Double?
  private var filtered: Vector3?
  private var filteredField: Vector3?
  private var firstYaw: Double?
  private var lastTimestamp: Double?
  private var lastRate = Vector3.zero
  private var lastTotal = Vector3(0, 0, -1)

  /// Creates an estimator.
  ///
  /// - Parameters:
  ///   - timeConstant: The low-pass time constant, seconds (clamped to 0.001...10; a value
  ///     that is not finite gives the default).
  ///   - usesMagnetometer: Turn the attitude toward magnetic north with the magnetometer.
  ///   - declinationDegrees: Magnetic declination, degrees, east positive, for
  ///     `xTrueNorthZVertical` (without it that frame's attitude stays magnetic and its
  ///     heading invalid, as ``AttitudeEstimator``'s).
  public init(
    timeConstant: Double = 0.15, usesMagnetometer: Bool = false, declinationDegrees: Double? = nil
  ) {
    self.timeConstant = timeConstant.isFinite ? min(max(timeConstant, 0.001), 10) : 0.15
    self.usesMagnetometer = usesMagnetometer
    self.declinationDegrees = declinationDegrees
  }

  /// The gravity estimated so far, g, device frame (`(0, 0, −1)` before the first usable
  /// reading: a device lying face up).
  public var gravity: Vector3 {
    guard let f = filtered, f.lengthSquared > 0 else { return Vector3(0, 0, -1) }
    return f.normalized() * -1
  }

  /// One step of the exponential low-pass filter: the first value as it is, then a step of
  /// `α = 1 − e^(−Δt/τ)` toward each new one (none when the time did not advance).
  private func lowPass(_ previous: Vector3?, _ value: Vector3, dt: Double) -> Vector3 {
    guard let previous else { return value }
    guard dt > 0, dt.isFinite else { return previous }
    return previous + (value - previous) * (1 - exp(-dt / timeConstant))
  }

  /// Takes one sample (its gyroscope is ignored, and its magnetometer unless
  /// ``usesMagnetometer``).
  ///
  /// - Parameters:
  ///   - sample: The next sample, in time order.
  ///   - referenceFrame: The frame to label the motion with (the attitude is the tilt in any
  ///     frame).
  /// - Returns: Device motion as described for the type.
  public mutating func update(
    _ sample: IMUSample, referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical
  ) -> DeviceMotion {
    let a = sample.accelerometer
    let magnitude = a.length
    let usable = a.isFinite && magnitude > 0 && magnitude <= 1e4
    let before = gravity
    var dt = 0.0
    if let last = lastTimestamp, sample.timestamp.isFinite {
      dt = sample.timestamp - last
    }
    if usable {
      filtered = lowPass(filtered, a, dt: dt)
      lastTotal = a * (-1 / standardGravity)
    }
    if usesMagnetometer, let m = sample.magnetometer, m.isFinite, m.lengthSquared > 0 {
      filteredField = lowPass(filteredField, m, dt: dt)
    }
    if sample.timestamp.isFinite { lastTimestamp = sample.timestamp }
    let g = gravity
    if dt > 0, dt.isFinite {
      // The rotation that took the last gravity onto this one, as seen from the device; the
      // device turned the other way.
      let turn = Quaternion.rotation(from: before, to: g)
      let half = min(max(turn.w, -1), 1)
      let angle = 2 * acos(half)
      let axis = Vector3(turn.x, turn.y, turn.z)
      let s = axis.length
      lastRate = s > 1e-12 ? axis * (-angle / (s * dt)) : .zero
    }
    var attitude = Quaternion.rotation(from: g, to: Vector3(0, 0, -1))
    var heading = -1.0
    var field = CalibratedMagneticField(field: .zero, accuracy: .uncalibrated)
    if usesMagnetometer, let m = filteredField {
      // The field in the level frame; its horizontal part's angle from +x is the turn to undo.
      let level = attitude.rotate(m)
      if level.x * level.x + level.y * level.y > 1e-12 {
        let yaw = atan2(level.y, level.x)
        let magnetic = AttitudeEstimator.rotationZ(-yaw) * attitude
        switch referenceFrame {
        case .xArbitraryZVertical:
          break
        case .xArbitraryCorrectedZVertical:
          let first = firstYaw ?? yaw
          firstYaw = first
          attitude = AttitudeEstimator.rotationZ(first) * magnetic
        case .xMagneticNorthZVertical:
          attitude = magnetic
          heading = AttitudeEstimator.heading(of: attitude)
        case .xTrueNorthZVertical:
          attitude = magnetic
          if let d = declinationDegrees, d.isFinite {
            attitude = AttitudeEstimator.rotationZ(-d * Double.pi / 180) * magnetic
            heading = AttitudeEstimator.heading(of: attitude)
          }
        }
      }
      // The low-passed field: a reading that was skipped (not finite) never reaches the output.
      field = CalibratedMagneticField(field: m, accuracy: .low)
    }
    return DeviceMotion(
      timestamp: sample.timestamp, attitude: Attitude(quaternion: attitude.normalized()),
      rotationRate: lastRate, gravity: g, userAcceleration: lastTotal - g,
      magneticField: field, heading: heading, referenceFrame: referenceFrame)
  }
}
