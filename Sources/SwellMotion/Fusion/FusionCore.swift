import Foundation
import SwellGeometry

/// The numeric heart of ``AttitudeEstimator``: plain `Double` state, no allocation, no
/// existentials.
///
/// **Two rates.** Every sample, ``step(t:gx:gy:gz:ax:ay:az:mx:my:mz:hasMag:)`` integrates the
/// corrected gyroscope into `gyroQuaternion` (device → an almost-inertial frame `I`) and adds the
/// accelerometer and magnetometer, rotated into `I`, to the sums of the current *correction
/// block*. Every `blockLength` samples (about ``AttitudeEstimator/Settings/correctionInterval``,
/// 20 ms by default) `correct()` works on the block means: the inclination filter, the rest
/// detector, the lever arm, the bias and scale Kalman filter and the heading logic. The means
/// are exact averages of the I-frame vectors, so they are the anti-aliased, decimated inputs
/// of filters whose time constants are seconds.
///
/// **Frames.** `inclinationQuaternion` (I → `E`) makes `E` z-up; `northQuaternion` is
/// `rotZ(heading) ⊗ inclination` (I → N, x magnetic north, 9D). The 6D attitude is
/// `inclination ⊗ gyro`, the 9D attitude `north ⊗ gyro`: one quaternion product per sample.
///
/// Method after Laidig & Seel, "VQF: Highly accurate IMU orientation estimation with bias
/// estimation and magnetic disturbance rejection", Information Fusion 91 (2023): the
/// accelerometer is low-pass filtered in the almost-inertial frame (so that translational
/// accelerations average out), inclination and heading are corrected separately, the gyroscope
/// bias is estimated by a Kalman filter from the inclination corrections in motion and from the
/// mean rate at rest, and magnetic disturbances are detected from the field's norm and dip angle.
@usableFromInline
struct FusionCore: Sendable {
  // MARK: Constants from the settings
  @usableFromInline let accTau: Double
  @usableFromInline let magTau: Double
  @usableFromInline let restTau: Double
  @usableFromInline let useMagnetometer: Bool
  @usableFromInline let estimateBias: Bool
  @usableFromInline let biasLimit: Double
  @usableFromInline let biasP0: Double
  @usableFromInline let biasDriftVariancePerSecond: Double
  @usableFromInline let biasMotionSigma2: Double
  @usableFromInline let biasRestSigma2: Double
  @usableFromInline let restMinTime: Double
  @usableFromInline let estimateScale: Bool
  @usableFromInline let scaleP0: Double
  @usableFromInline let scaleLimit: Double
  @usableFromInline let scaleDriftVariancePerSecond: Double
  @usableFromInline let restGyro2: Double
  @usableFromInline let restAcc2: Double
  @usableFromInline let maxGap: Double
  /// The target duration of a correction block, seconds.
  @usableFromInline let correctionInterval: Double
  /// The target duration of a filter period (rest detector, bias and scale filter, heading),
  /// seconds.
  @usableFromInline let filterInterval: Double
  @usableFromInline let magDelayEstimate: Bool
  /// Largest magnetometer delay accepted, seconds.
  @usableFromInline let magDelayLimit = 0.05
  /// Prior of the delay regression, (µT/s)²: slow turns say little about the delay.
  @usableFromInline let magDelayPrior = 4000.0
  /// Time constant of the field's running mean the delay regression compares with, seconds.
  @usableFromInline let magDelayRefTau = 2.0
  /// Time over which the delay regression averages, seconds.
  @usableFromInline let magDelaySumTau = 100.0
  @usableFromInline let leverEstimate: Bool
  @usableFromInline let leverTau: Double
  /// Prior of the lever-arm regression, s⁻⁴ (the minimum rate to the fourth power).
  @usableFromInline let leverPrior: Double
  /// Largest lever arm accepted per axis, metres.
  @usableFromInline let leverLimit = 0.5

  // MARK: Rate-dependent coefficients (see `setCoefficients(dt:)`)
  /// The smoothed sampling period, seconds.
  @usableFromInline var nominalDt = 0.0
  /// The sampling period the coefficients were computed for, seconds.
  @usableFromInline var coefficientDt = 0.0
  /// Samples per correction block.
  @usableFromInline var blockLength = 1
  /// The nominal duration of a correction block, seconds.
  @usableFromInline var blockDt = 0.0
  /// Blocks per filter period.
  @usableFromInline var periodLength = 1
  /// The inclination low-pass, at the block rate.
  @usableFromInline var accCoefficients = LowPassCoefficients()
  /// The same time constant at the period rate, for the bias filter's low-passes.
  @usableFromInline var biasCoefficients = LowPassCoefficients()
  @usableFromInline var restCoefficients = LowPassCoefficients()
  @usableFromInline var kMag = 0.0
  @usableFromInline var kMagDelayRef = 0.0
  @usableFromInline var kMagDelaySum = 0.0
  @usableFromInline var kLever = 0.0
  @usableFromInline var biasV = 0.0
  @usableFromInline var biasWMotion = 0.0
  @usableFromInline var biasWRest = 0.0
  @usableFromInline var scaleV = 0.0

  // MARK: Per-sample state
  @usableFromInline var lastTimestamp = Double.nan
  @usableFromInline var gyroQuaternion = Quaternion.identity
  @usableFromInline var inclinationQuaternion = Quaternion.identity
  /// `rotZ(headingOffset) ⊗ inclinationQuaternion`, I → N; equal to the inclination in 6D and
  /// before the first magnetometer sample.
  @usableFromInline var northQuaternion = Quaternion.identity
  /// The bias and scale the integration uses (copies of the Kalman state, updated per block).
  @usableFromInline var rateBiasX = 0.0
  @usableFromInline var rateBiasY = 0.0
  @usableFromInline var rateBiasZ = 0.0
  @usableFromInline var rateScaleX = 1.0
  @usableFromInline var rateScaleY = 1.0
  @usableFromInline var rateScaleZ = 1.0

  // MARK: The correction block being collected
  @usableFromInline var block = CorrectionBlock()
  @usableFromInline var period = FilterPeriod()
  /// The rest detector's low-pass means of the raw gyroscope (rad/s) and accelerometer (m/s²)
  /// after the last period, device frame; each sample's deviation from them is checked.
  @usableFromInline var restMeanGyroX = 0.0
  @usableFromInline var restMeanGyroY = 0.0
  @usableFromInline var restMeanGyroZ = 0.0
  @usableFromInline var restMeanAccX = 0.0
  @usableFromInline var restMeanAccY = 0.0
  @usableFromInline var restMeanAccZ = 0.0
  /// The accelerometer variances of the last quarter second of blocks (what a tap is).
  @usableFromInline var restWindow = RestWindow()
  /// The inclination low-pass's last output, I frame, m/s² (what a down-weighted block is
  /// pulled toward).
  @usableFromInline var accLowPassOutX = 0.0
  @usableFromInline var accLowPassOutY = 0.0
  @usableFromInline var accLowPassOutZ = 0.0
  /// The accelerometer variance within a block, (m/s²)², above which (and above four times the
  /// window's median) the block is a tap (``AttitudeEstimator/Settings/tapVariance``).
  @usableFromInline let impulseVariance: Double
  /// 1 / (the non-gravitational acceleration at which the motion measurement of the bias and
  /// scale filter counts half)², s⁴/m²; 0 when off.
  @usableFromInline let accelerationWeight: Double
  /// Whether a filter period holding a tap block neither ends nor extends the rest
  /// (``AttitudeEstimator/Settings/restIgnoresTaps``).
  @usableFromInline let restIgnoresTaps: Bool
  /// Whether a tap block is pulled toward the inclination low-pass's output
  /// (``AttitudeEstimator/Settings/inclinationDownWeightsTaps``).
  @usableFromInline let inclinationDownWeightsTaps: Bool
  /// Whether a tap block's lever-arm regression terms are scaled by its weight
  /// (``AttitudeEstimator/Settings/leverArmDownWeightsTaps``).
  @usableFromInline let leverArmDownWeightsTaps: Bool
  /// Whether any of the three uses a block's tap weight (otherwise it is not computed).
  @usableFromInline let tapsDetected: Bool

  // MARK: Correction state (changed once per block)
  /// cos and sin of half the heading offset (radians about z, E → N): the heading rotation
  /// `rotZ(headingOffset)` as a unit quaternion's w and z.
  @usableFromInline var headingCos = 1.0
  @usableFromInline var headingSin = 0.0
  /// The heading offset, radians about z, E → N, in −π...π.
  @inlinable var headingOffset: Double { 2 * atan2(headingSin, headingCos) }
  @usableFromInline var accLowPass = LowPass3()
  @usableFromInline var rRow0LowPass = LowPass3()
  @usableFromInline var rRow1LowPass = LowPass3()
  @usableFromInline var rBiasLowPass = LowPass3()
  @usableFromInline var sRow0LowPass = LowPass3()
  @usableFromInline var sRow1LowPass = LowPass3()
  /// Kalman state: gyroscope bias (rad/s, device frame) and scale-factor errors (fractions).
  @usableFromInline var kx = InlineArray<6, Double>(repeating: 0)
  /// Kalman covariance, 6×6 row-major.
  @usableFromInline var kp = InlineArray<36, Double>(repeating: 0)
  @inlinable var bx: Double { kx[0] }
  @inlinable var by: Double { kx[1] }
  @inlinable var bz: Double { kx[2] }
  @inlinable var sx: Double { kx[3] }
  @inlinable var sy: Double { kx[4] }
  @inlinable var sz: Double { kx[5] }
  @usableFromInline var restGyroLowPass = LowPass3()
  @usableFromInline var restAccLowPass = LowPass3()
  @usableFromInline var restTime = 0.0
  @usableFromInline var atRest = false
  @usableFromInline var hasInclination = false
  /// The mean corrected rate of the previous block (rad/s, device frame) and the time between
  /// the two blocks' centres, for the angular acceleration of the lever arm.
  @usableFromInline var lastBlockRateX = 0.0
  @usableFromInline var lastBlockRateY = 0.0
  @usableFromInline var lastBlockRateZ = 0.0
  @usableFromInline var lastBlockDuration = 0.0
  @usableFromInline var hasLastBlockRate = false

  // MARK: Lever arm
  /// Lever arm r (metres, device frame) and the exponential sums of MᵀM and Mᵀe of its
  /// regression e = M r, M = [ω]ײ + [α]×.
  @usableFromInline var leverX = 0.0
  @usableFromInline var leverY = 0.0
  @usableFromInline var leverZ = 0.0
  @usableFromInline var leverA = InlineArray<6, Double>(repeating: 0)
  @usableFromInline var leverB = InlineArray<3, Double>(repeating: 0)

  // MARK: Magnetometer
  @usableFromInline var magInitialised = false
  @usableFromInline var magReference: MagneticReference
  @usableFromInline var magDelay = 0.0
  @usableFromInline var magDelayRefInit = false
  @usableFromInline var magDelayRefX = 0.0
  @usableFromInline var magDelayRefY = 0.0
  @usableFromInline var magDelayRefZ = 0.0
  @usableFromInline var magDelaySvv = 0.0
  @usableFromInline var magDelaySrv = 0.0
  /// The last block's field in E (delay-compensated), µT.
  @usableFromInline var magEarthX = 0.0
  @usableFromInline var magEarthY = 0.0
  @usableFromInline var magEarthZ = 0.0

  @usableFromInline
  init(settings s: AttitudeEstimator.Settings, useMagnetometer: Bool) {
    let deg = Double.pi / 180
    accTau = max(s.accelerometerTimeConstant, 0)
    magTau = max(s.magnetometerTimeConstant, 0)
    restTau = max(s.restFilterTimeConstant, 0)
    self.useMagnetometer = useMagnetometer
    estimateBias = s.estimatesGyroscopeBias
    biasLimit = max(s.biasLimitDegreesPerSecond, 0) * deg
    let sInit = max(s.biasInitialSigmaDegreesPerSecond, 1e-6) * deg
    biasP0 = sInit * sInit
    let sDrift = max(s.biasDriftSigmaDegreesPerSecond, 1e-9) * deg
    biasDriftVariancePerSecond = sDrift * sDrift / max(s.biasForgettingTime, 1e-3)
    let sm = max(s.biasMotionSigmaDegreesPerSecond, 1e-9) * deg
    biasMotionSigma2 = sm * sm
    let sr = max(s.biasRestSigmaDegreesPerSecond, 1e-9) * deg
    biasRestSigma2 = sr * sr
    restMinTime = max(s.restMinimumDuration, 0)
    let restGyro = s.restGyroscopeThresholdDegreesPerSecond * deg
    restGyro2 = restGyro * restGyro
    restAcc2 = s.restAccelerometerThreshold * s.restAccelerometerThreshold
    maxGap = max(s.maximumGap, 0)
    let scale = s.biasMotionAccelerationScale
    accelerationWeight = scale > 0 && scale.isFinite ? 1 / (scale * scale) : 0
    impulseVariance = s.tapVariance.isFinite ? max(s.tapVariance, 0) : 10
    restIgnoresTaps = s.restIgnoresTaps
    inclinationDownWeightsTaps = s.inclinationDownWeightsTaps
    leverArmDownWeightsTaps = s.leverArmDownWeightsTaps
    tapsDetected = restIgnoresTaps || inclinationDownWeightsTaps || leverArmDownWeightsTaps
    correctionInterval = s.correctionInterval.isFinite ? max(s.correctionInterval, 0) : 0
    filterInterval = s.filterInterval.isFinite ? max(s.filterInterval, 0) : 0
    magReference = MagneticReference(rejectsDisturbances: s.rejectsMagneticDisturbances)
    magDelayEstimate = s.estimatesMagnetometerDelay && useMagnetometer
    leverEstimate = s.estimatesLeverArm
    leverTau = max(s.leverArmTimeConstant, 1e-3)
    let minimumRate2 = s.leverArmMinimumRate * s.leverArmMinimumRate
    leverPrior = max(minimumRate2 * minimumRate2, 1e-9)
    estimateScale = s.estimatesGyroscopeScale && s.estimatesGyroscopeBias
    let sS = max(s.scaleInitialSigma, 1e-9)
    scaleP0 = sS * sS
    scaleLimit = max(s.scaleLimit, 0)
    let sSD = max(s.scaleDriftSigma, 1e-12)
    scaleDriftVariancePerSecond = sSD * sSD / max(s.biasForgettingTime, 1e-3)
    kp[0] = biasP0
    kp[7] = biasP0
    kp[14] = biasP0
    kp[21] = scaleP0
    kp[28] = scaleP0
    kp[35] = scaleP0
  }

  /// Recomputes the coefficients for a new nominal sampling period `dt` (seconds): the block and
  /// period lengths, the gains and filters of the block step (inclination, lever arm) and those
  /// of the period step (rest detector, bias and scale filter, heading).
  @usableFromInline
  mutating func setCoefficients(dt: Double) {
    coefficientDt = dt
    blockLength = max(1, min(1000, Int((correctionInterval / dt).rounded())))
    blockDt = dt * Double(blockLength)
    accCoefficients = LowPassCoefficients(timeConstant: accTau, samplePeriod: blockDt)
    kLever = 1 - exp(-blockDt / leverTau)
    restWindow.setBlockDuration(blockDt)
    periodLength = max(1, Int((filterInterval / blockDt).rounded()))
    // Everything below runs once per filter period.
    let t = blockDt * Double(periodLength)
    biasCoefficients = LowPassCoefficients(timeConstant: accTau, samplePeriod: t)
    restCoefficients = LowPassCoefficients(timeConstant: restTau, samplePeriod: t)
    kMag = magTau > 0 ? 1 - exp(-t / magTau) : 1
    magReference.setCoefficients(period: t, headingGain: kMag, headingTimeConstant: magTau)
    kMagDelayRef = 1 - exp(-t / magDelayRefTau)
    kMagDelaySum = 1 - exp(-t / magDelaySumTau)
    biasV = biasDriftVariancePerSecond * t
    scaleV = scaleDriftVariancePerSecond * t
    // Measurement variances such that continuous updates keep the posterior variance at σ²
    // (steady state of the scalar Riccati recursion P⁻ = P + V, P = P⁻W / (P⁻ + W)).
    biasWMotion = biasMotionSigma2 * biasMotionSigma2 / biasV + biasMotionSigma2
    biasWRest = biasRestSigma2 * biasRestSigma2 / biasV + biasRestSigma2
  }

  /// The 6D attitude, device → E (z up, arbitrary heading).
  @inlinable
  var attitude6D: Quaternion { Self.multiply(inclinationQuaternion, gyroQuaternion) }

  /// The 9D attitude, device → N (x magnetic north, z up); the 6D attitude before the first
  /// magnetometer sample.
  @inlinable
  var attitude9D: Quaternion { Self.multiply(northQuaternion, gyroQuaternion) }

  /// Processes one sample. Returns false when the sample was ignored (non-finite timestamp or
  /// gyroscope, or a timestamp earlier than the previous one); the state is then unchanged.
  @inlinable
  @discardableResult
  mutating func step(
    t: Double, gx: Double, gy: Double, gz: Double, ax: Double, ay: Double, az: Double,
    mx: Double, my: Double, mz: Double, hasMag: Bool
  ) -> Bool {
    // Readings beyond any physical sensor range count as garbage (and would overflow).
    guard t.isFinite, abs(gx) < 1e3, abs(gy) < 1e3, abs(gz) < 1e3 else { return false }
    var dt = 0.0
    if lastTimestamp.isFinite {
      if t < lastTimestamp { return false }
      dt = t - lastTimestamp
    }
    lastTimestamp = t
    if dt > maxGap {
      // A gap in the data: integrating the current rate over it would be a guess. Hold.
      dt = 0
    }
    if dt > 0 {
      if nominalDt == 0 {
        nominalDt = dt
      } else {
        nominalDt += 0.02 * (dt - nominalDt)
      }
      if abs(nominalDt - coefficientDt) > 0.005 * coefficientDt {
        setCoefficients(dt: nominalDt)
      }
      integrate(
        rx: (gx - rateBiasX) * rateScaleX * dt, ry: (gy - rateBiasY) * rateScaleY * dt,
        rz: (gz - rateBiasZ) * rateScaleZ * dt)
    }
    block.add(gx, gy, gz, dt: dt)

    let an2 = ax * ax + ay * ay + az * az
    if abs(ax) < 1e4 && abs(ay) < 1e4 && abs(az) < 1e4 && an2 > 1e-6 {
      let a = Self.rotate(gyroQuaternion, ax, ay, az)
      block.addAccelerometer(device: (ax, ay, az), inertial: a, norm2: an2)
      let dgx = gx - restMeanGyroX
      let dgy = gy - restMeanGyroY
      let dgz = gz - restMeanGyroZ
      let dax = ax - restMeanAccX
      let day = ay - restMeanAccY
      let daz = az - restMeanAccZ
      block.noteRestDeviation(
        gyroscope2: dgx * dgx + dgy * dgy + dgz * dgz,
        accelerometer2: dax * dax + day * day + daz * daz)
    }
    if useMagnetometer && hasMag && abs(mx) < 1e5 && abs(my) < 1e5 && abs(mz) < 1e5 {
      block.addMagnetometer(Self.rotate(gyroQuaternion, mx, my, mz))
    }
    // The first inclination comes from the first accelerometer sample, later ones per block.
    if block.count >= blockLength || (!hasInclination && block.accelerometerCount > 0) {
      correct()
    }
    return true
  }

  /// Integrates one step of the corrected rate: `gyro ← gyro ⊗ exp(r/2)`, `r` the rotation
  /// vector of the step (radians, device frame).
  @inlinable @inline(__always)
  mutating func integrate(rx: Double, ry: Double, rz: Double) {
    let theta2 = rx * rx + ry * ry + rz * rz
    let c: Double
    let k: Double
    if theta2 < 0.0625 {
      // cos(θ/2) and sin(θ/2)/θ as series in θ²: below θ = 0.25 rad (6 rad/s at 25 Hz) the
      // first omitted terms are under 3·10⁻¹⁶.
      c = 1 + theta2 * (-1 / 8 + theta2 * (1 / 384 + theta2 * (-1 / 46080 + theta2 / 10_321_920)))
      k =
        0.5 + theta2
        * (-1 / 48 + theta2 * (1 / 3840 + theta2 * (-1 / 645_120 + theta2 / 185_794_560)))
    } else {
      let theta = theta2.squareRoot()
      c = cos(theta / 2)
      k = sin(theta / 2) / theta
    }
    gyroQuaternion = Self.renormalized(
      Self.multiply(gyroQuaternion, Quaternion(w: c, x: rx * k, y: ry * k, z: rz * k)))
  }
}

extension FusionCore {
  /// A raw gyroscope reading with the estimated bias and scale errors removed, rad/s.
  @inlinable
  func correctedRate(_ g: Vector3) -> Vector3 {
    Vector3((g.x - bx) * (1 + sx), (g.y - by) * (1 + sy), (g.z - bz) * (1 + sz))
  }
}

// MARK: Small numeric helpers (inlined into the per-sample path)

extension FusionCore {
  /// `x` limited to `-limit...limit` (a NaN `x` gives `-limit`, as `max(-limit, min(limit, x))`).
  @usableFromInline @inline(__always)
  static func clamp(_ x: Double, _ limit: Double) -> Double {
    max(-limit, min(limit, x))
  }

  /// `a ⊗ b` (Hamilton product), written out so that it is inlined into the per-sample path.
  @usableFromInline @inline(__always)
  static func multiply(_ a: Quaternion, _ b: Quaternion) -> Quaternion {
    Quaternion(
      w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
      x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
      y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
      z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
  }

  /// The vector (x, y, z) rotated by the unit quaternion `q`: v + 2w(u × v) + 2u × (u × v)
  /// with u the vector part, written out so that it is inlined into the per-sample path.
  @usableFromInline @inline(__always)
  static func rotate(_ q: Quaternion, _ x: Double, _ y: Double, _ z: Double) -> Vector3 {
    let tx = 2 * (q.y * z - q.z * y)
    let ty = 2 * (q.z * x - q.x * z)
    let tz = 2 * (q.x * y - q.y * x)
    return Vector3(
      x + q.w * tx + q.y * tz - q.z * ty,
      y + q.w * ty + q.z * tx - q.x * tz,
      z + q.w * tz + q.x * ty - q.y * tx)
  }

  /// The unit quaternion half-way between two unit quaternions (their normalised mean, taken
  /// on the same hemisphere).
  @usableFromInline
  static func midpoint(_ a: Quaternion, _ b: Quaternion) -> Quaternion {
    let sign = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z < 0 ? -1.0 : 1.0
    let w = a.w * sign + b.w
    let x = a.x * sign + b.x
    let y = a.y * sign + b.y
    let z = a.z * sign + b.z
    let n2 = w * w + x * x + y * y + z * z
    guard n2 > 0 else { return b }
    let k = 1 / n2.squareRoot()
    return Quaternion(w: w * k, x: x * k, y: y * k, z: z * k)
  }

  /// `q` scaled by the first-order correction (3 − |q|²) / 2 that brings an almost-unit
  /// quaternion back to unit norm without a square root.
  @usableFromInline @inline(__always)
  static func renormalized(_ q: Quaternion) -> Quaternion {
    let n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z
    let s = (3 - n2) / 2
    return Quaternion(w: q.w * s, x: q.x * s, y: q.y * s, z: q.z * s)
  }
}

/// The cofactors and determinant of a symmetric 3×3 matrix S (given by its upper triangle), so
/// that S⁻¹ = C / det with C symmetric. Used for the lever-arm solve and the Kalman rest update.
@usableFromInline
struct SymmetricCofactors3 {
  @usableFromInline let c00: Double
  @usableFromInline let c01: Double
  @usableFromInline let c02: Double
  @usableFromInline let c11: Double
  @usableFromInline let c12: Double
  @usableFromInline let c22: Double
  /// det S, expanded along the first row.
  @usableFromInline let det: Double

  @usableFromInline @inline(__always)
  init(s00: Double, s11: Double, s22: Double, s01: Double, s02: Double, s12: Double) {
    c00 = s11 * s22 - s12 * s12
    c01 = s02 * s12 - s01 * s22
    c02 = s01 * s12 - s02 * s11
    c11 = s00 * s22 - s02 * s02
    c12 = s01 * s02 - s00 * s12
    c22 = s00 * s11 - s01 * s01
    det = s00 * c00 + s01 * c01 + s02 * c02
  }
}
