import SwellGeometry

/// The sums of one correction block: the samples the per-sample path of ``FusionCore`` has
/// integrated since the last correction step, averaged by that step.
///
/// The accelerometer and magnetometer are summed in the almost-inertial frame `I` (rotated by
/// each sample's own gyroscope attitude), so that their means are exact averages of vectors that
/// barely move in `I`, however fast the device turns within the block.
@usableFromInline
struct CorrectionBlock: Sendable {
  /// Samples in the block.
  @usableFromInline var count = 0
  /// Sum of the integrated time steps, seconds.
  @usableFromInline var duration = 0.0
  /// The gyroscope attitude (device → I) when the block began.
  @usableFromInline var startQuaternion = Quaternion.identity
  /// Sum of the raw gyroscope, rad/s, device frame.
  @usableFromInline var gyroX = 0.0
  @usableFromInline var gyroY = 0.0
  @usableFromInline var gyroZ = 0.0
  /// Samples with a usable accelerometer reading.
  @usableFromInline var accelerometerCount = 0
  /// Sum of the raw accelerometer, m/s², device frame (for the rest detector).
  @usableFromInline var accDeviceX = 0.0
  @usableFromInline var accDeviceY = 0.0
  @usableFromInline var accDeviceZ = 0.0
  /// Sum of the accelerometer rotated into I, m/s².
  @usableFromInline var accInertialX = 0.0
  @usableFromInline var accInertialY = 0.0
  @usableFromInline var accInertialZ = 0.0
  /// Samples with a usable magnetometer reading.
  @usableFromInline var magnetometerCount = 0
  /// Sum of the magnetometer rotated into I, µT.
  @usableFromInline var magX = 0.0
  @usableFromInline var magY = 0.0
  @usableFromInline var magZ = 0.0
  /// Sum of the accelerometer's squared norm, (m/s²)² (for the block's variance, the same in
  /// every frame).
  @usableFromInline var accNorm2 = 0.0
  /// The largest squared deviation of a sample from the rest detector's means, (rad/s)² and
  /// (m/s²)².
  @usableFromInline var maxGyroDeviation2 = 0.0
  @usableFromInline var maxAccDeviation2 = 0.0

  @usableFromInline init() {}

  /// An empty block that starts at the gyroscope attitude `start`.
  @usableFromInline init(start: Quaternion) { startQuaternion = start }

  /// Adds a sample's raw gyroscope reading (rad/s) and time step (seconds).
  @inlinable @inline(__always)
  mutating func add(_ gx: Double, _ gy: Double, _ gz: Double, dt: Double) {
    count += 1
    duration += dt
    gyroX += gx
    gyroY += gy
    gyroZ += gz
  }

  /// Adds an accelerometer reading, m/s²: as measured (device frame) and rotated into I.
  @inlinable @inline(__always)
  mutating func addAccelerometer(
    device a: (Double, Double, Double), inertial i: Vector3, norm2: Double
  ) {
    accelerometerCount += 1
    accNorm2 += norm2
    accDeviceX += a.0
    accDeviceY += a.1
    accDeviceZ += a.2
    accInertialX += i.x
    accInertialY += i.y
    accInertialZ += i.z
  }

  /// Adds a magnetometer reading rotated into I, µT.
  @inlinable @inline(__always)
  mutating func addMagnetometer(_ m: Vector3) {
    magnetometerCount += 1
    magX += m.x
    magY += m.y
    magZ += m.z
  }

  /// Records a sample's squared deviations from the rest detector's means.
  @inlinable @inline(__always)
  mutating func noteRestDeviation(gyroscope2: Double, accelerometer2: Double) {
    maxGyroDeviation2 = max(maxGyroDeviation2, gyroscope2)
    maxAccDeviation2 = max(maxAccDeviation2, accelerometer2)
  }
}

/// The sums of one filter period: the correction blocks since the last run of the slow filters
/// (rest detector, bias and scale Kalman filter, heading), which work on their means.
@usableFromInline
struct FilterPeriod: Sendable {
  /// Blocks in the period.
  @usableFromInline var blocks = 0
  /// Sum of the blocks' durations, seconds.
  @usableFromInline var duration = 0.0
  /// Sum of the raw gyroscope over the period's samples (rad/s, device frame) and their count.
  @usableFromInline var gyroX = 0.0
  @usableFromInline var gyroY = 0.0
  @usableFromInline var gyroZ = 0.0
  @usableFromInline var gyroCount = 0
  /// Sum of the raw accelerometer over the period's samples (m/s², device frame), their count.
  @usableFromInline var accX = 0.0
  @usableFromInline var accY = 0.0
  @usableFromInline var accZ = 0.0
  @usableFromInline var accCount = 0
  /// Blocks with an inclination correction, and the sums of their correction components
  /// (radians, E-frame x and y) and of rows 0 and 1 of R (device → E), of R·diag(ω) (rad/s)
  /// and of the rate error R·b − R·diag(ω)·s (rad/s, first two components), per block.
  @usableFromInline var inclinationBlocks = 0
  /// Sum over the inclination blocks of the squared non-gravitational specific force: the
  /// block mean in I minus the inclination low-pass's output, (m/s²)².
  @usableFromInline var accDisturbance2 = 0.0
  /// Blocks down-weighted as taps, and the largest squared deviation of a sample of the other
  /// blocks from the rest detector's means, (rad/s)² and (m/s²)².
  @usableFromInline var tapBlocks = 0
  @usableFromInline var maxGyroDeviation2 = 0.0
  @usableFromInline var maxAccDeviation2 = 0.0
  @usableFromInline var correctionX = 0.0
  @usableFromInline var correctionY = 0.0
  @usableFromInline var r = InlineArray<6, Double>(repeating: 0)
  @usableFromInline var rw = InlineArray<6, Double>(repeating: 0)
  @usableFromInline var rateError0 = 0.0
  @usableFromInline var rateError1 = 0.0
  /// Sum of the magnetometer over the period's samples, rotated into I (µT), and their count.
  @usableFromInline var magX = 0.0
  @usableFromInline var magY = 0.0
  @usableFromInline var magZ = 0.0
  @usableFromInline var magCount = 0
  /// Time integrals of the corrected rate in I (radians) and of its norm (radians).
  @usableFromInline var turnX = 0.0
  @usableFromInline var turnY = 0.0
  @usableFromInline var turnZ = 0.0
  @usableFromInline var turn = 0.0

  @usableFromInline init() {}
}
