import Foundation
import SwellGeometry

/// The numeric heart of ``AttitudeEstimator``: plain `Double` state, no allocation, no
/// existentials, so that one sample costs a few hundred nanoseconds.
///
/// Frames: the gyroscope is integrated into `gyroQuaternion` (device → an almost-inertial frame
/// `I`); `inclinationQuaternion` (I → `E`) makes `E` z-up; the heading offset `headingOffset`
/// (radians about z, E → N) makes N's x axis point to magnetic north (9D). The 6D attitude is
/// `inclination ⊗ gyro`, the 9D attitude `rotZ(headingOffset) ⊗ inclination ⊗ gyro`.
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
  @usableFromInline let magRejection: Bool
  @usableFromInline let magCurrentTau: Double
  @usableFromInline let magRefTau: Double
  @usableFromInline let magNormThreshold: Double
  @usableFromInline let magDipThreshold: Double
  @usableFromInline let magNewTime: Double
  @usableFromInline let magNewFirstTime: Double
  @usableFromInline let magNewMinGyro2: Double
  @usableFromInline let magMinUndisturbedTime: Double
  @usableFromInline let magMaxRejectionTime: Double
  @usableFromInline let magRejectionFactor: Double
  @usableFromInline let magDelayEstimate: Bool
  @usableFromInline let magDelayLimit: Double
  @usableFromInline let magDelayPrior: Double
  @usableFromInline let magDelayRefTau: Double
  @usableFromInline let magDelaySumTau: Double
  @usableFromInline let leverEstimate: Bool
  @usableFromInline let leverTau: Double
  @usableFromInline let leverPrior: Double
  @usableFromInline let leverLimit: Double
  /// Time constant of the first-order smoothing of the rate whose differences give α, seconds.
  @usableFromInline let leverRateTau: Double
  @usableFromInline var kLever = 0.0
  /// Lever arm r (metres, device frame) and the exponential sums of MᵀM and Mᵀe of its
  /// regression e = M r, M = [ω]ײ + [α]×.
  @usableFromInline var leverX = 0.0
  @usableFromInline var leverY = 0.0
  @usableFromInline var leverZ = 0.0
  @usableFromInline var leverA = InlineArray<6, Double>(repeating: 0)
  @usableFromInline var leverB = InlineArray<3, Double>(repeating: 0)
  /// The smoothed corrected rate of the previous sample (rad/s, device frame), for α.
  @usableFromInline var lastWx = 0.0
  @usableFromInline var lastWy = 0.0
  @usableFromInline var lastWz = 0.0
  @usableFromInline var hasLastW = false
  @usableFromInline var kMagDelayRef = 0.0
  @usableFromInline var kMagDelaySum = 0.0
  @usableFromInline var magDelay = 0.0
  @usableFromInline var magDelayRefInit = false
  @usableFromInline var magDelayRefX = 0.0
  @usableFromInline var magDelayRefY = 0.0
  @usableFromInline var magDelayRefZ = 0.0
  @usableFromInline var magDelaySvv = 0.0
  @usableFromInline var magDelaySrv = 0.0

  // MARK: Rate-dependent coefficients
  @usableFromInline var nominalDt = 0.0
  @usableFromInline var coefficientDt = 0.0
  @usableFromInline var accCoefficients = LowPassCoefficients()
  @usableFromInline var restCoefficients = LowPassCoefficients()
  @usableFromInline var kMag = 0.0
  @usableFromInline var kMagCurrent = 1.0
  @usableFromInline var kMagRef = 0.0
  @usableFromInline var biasV = 0.0
  @usableFromInline var biasWMotion = 0.0
  @usableFromInline var biasWRest = 0.0
  @usableFromInline var scaleV = 0.0

  // MARK: State
  @usableFromInline var lastTimestamp = Double.nan
  @usableFromInline var gyroQuaternion = Quaternion.identity
  @usableFromInline var inclinationQuaternion = Quaternion.identity
  @usableFromInline var headingOffset = 0.0
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

  // Magnetometer state.
  @usableFromInline var magInitialised = false
  @usableFromInline var magUpdates = 0.0
  @usableFromInline var magNormLp = 0.0
  @usableFromInline var magDipLp = 0.0
  @usableFromInline var magRefNorm = 0.0
  @usableFromInline var magRefDip = 0.0
  @usableFromInline var magCandidateNorm = -1.0
  @usableFromInline var magCandidateDip = 0.0
  @usableFromInline var magCandidateTime = 0.0
  @usableFromInline var magUndisturbedTime = 0.0
  @usableFromInline var magRejectionTime = 0.0
  @usableFromInline var magDisturbed = false
  @usableFromInline var magAcceptedOnce = false
  @usableFromInline var magLastNorm = 0.0
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
    restGyro2 = pow(s.restGyroscopeThresholdDegreesPerSecond * deg, 2)
    restAcc2 = pow(s.restAccelerometerThreshold, 2)
    maxGap = max(s.maximumGap, 0)
    magRejection = s.rejectsMagneticDisturbances
    magCurrentTau = 0.05
    magRefTau = 20
    magNormThreshold = 0.1
    magDipThreshold = 10 * deg
    magNewTime = 20
    magNewFirstTime = 5
    magNewMinGyro2 = pow(20 * deg, 2)
    magMinUndisturbedTime = 0.5
    magMaxRejectionTime = 60
    magRejectionFactor = 2
    magDelayEstimate = s.estimatesMagnetometerDelay && useMagnetometer
    magDelayLimit = 0.05
    magDelayPrior = 4000
    magDelayRefTau = 2
    magDelaySumTau = 100
    leverEstimate = s.estimatesLeverArm
    leverTau = max(s.leverArmTimeConstant, 1e-3)
    leverPrior = max(pow(s.leverArmMinimumRate, 4), 1e-9)
    leverLimit = 0.5
    leverRateTau = 0.01
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

  /// Recomputes the coefficients for a new nominal sampling period.
  @usableFromInline
  mutating func setCoefficients(dt: Double) {
    coefficientDt = dt
    accCoefficients = LowPassCoefficients(timeConstant: accTau, samplePeriod: dt)
    restCoefficients = LowPassCoefficients(timeConstant: restTau, samplePeriod: dt)
    kMag = magTau > 0 ? 1 - exp(-dt / magTau) : 1
    kMagCurrent = magCurrentTau > 0 ? 1 - exp(-dt / magCurrentTau) : 1
    kMagRef = 1 - exp(-dt / magRefTau)
    kMagDelayRef = 1 - exp(-dt / magDelayRefTau)
    kMagDelaySum = 1 - exp(-dt / magDelaySumTau)
    kLever = 1 - exp(-dt / leverTau)
    biasV = biasDriftVariancePerSecond * dt
    scaleV = scaleDriftVariancePerSecond * dt
    // Measurement variances such that continuous updates keep the posterior variance at σ²
    // (steady state of the scalar Riccati recursion P⁻ = P + V, P = P⁻W / (P⁻ + W)).
    biasWMotion = biasMotionSigma2 * biasMotionSigma2 / biasV + biasMotionSigma2
    biasWRest = biasRestSigma2 * biasRestSigma2 / biasV + biasRestSigma2
  }

  /// The 6D attitude, device → E (z up, arbitrary heading).
  @inlinable
  var attitude6D: Quaternion { inclinationQuaternion * gyroQuaternion }

  /// The 9D attitude, device → N (x magnetic north, z up).
  @inlinable
  var attitude9D: Quaternion {
    let h = headingOffset / 2
    return Quaternion(w: cos(h), x: 0, y: 0, z: sin(h)) * attitude6D
  }

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
    }

    // Gyroscope strapdown integration with the bias removed.
    let wx = (gx - bx) * (1 + sx)
    let wy = (gy - by) * (1 + sy)
    let wz = (gz - bz) * (1 + sz)
    if dt > 0 {
      let rx = wx * dt
      let ry = wy * dt
      let rz = wz * dt
      let theta2 = rx * rx + ry * ry + rz * rz
      let c: Double
      let k: Double
      if theta2 < 1e-6 {
        // Series of cos(θ/2) and sin(θ/2)/θ, accurate to ~1e-19 here.
        c = 1 - theta2 / 8 + theta2 * theta2 / 384
        k = 0.5 - theta2 / 48
      } else {
        let theta = theta2.squareRoot()
        c = cos(theta / 2)
        k = sin(theta / 2) / theta
      }
      gyroQuaternion = Self.renormalized(
        gyroQuaternion * Quaternion(w: c, x: rx * k, y: ry * k, z: rz * k))
    }

    let accValid =
      abs(ax) < 1e4 && abs(ay) < 1e4 && abs(az) < 1e4 && (ax * ax + ay * ay + az * az) > 1e-6
    if accValid {
      var fx = ax
      var fy = ay
      var fz = az
      if leverEstimate && dt > 0 {
        (fx, fy, fz) = leverArmStep(dt: dt, wx: wx, wy: wy, wz: wz, ax: ax, ay: ay, az: az)
      }
      // Low-pass filter the accelerometer in the almost-inertial frame I.
      let aI = gyroQuaternion.rotate(Vector3(fx, fy, fz))
      let (lx, ly, lz) = accLowPass.step(
        aI.x, aI.y, aI.z, dt: dt, timeConstant: accTau, accCoefficients)
      var aE = inclinationQuaternion.rotate(Vector3(lx, ly, lz))
      let len = aE.length
      if len > 0 && len.isFinite {
        aE = aE / len
        // Shortest rotation taking aE to +z.
        var corr: Quaternion
        if aE.z > -0.999_999 {
          let w = ((1 + aE.z) / 2).squareRoot()
          corr = Quaternion(w: w, x: aE.y / (2 * w), y: -aE.x / (2 * w), z: 0)
        } else {
          corr = Quaternion(w: 0, x: 1, y: 0, z: 0)
        }
        inclinationQuaternion = Self.renormalized(corr * inclinationQuaternion)
        hasInclination = true
        if estimateBias && dt > 0 {
          biasUpdate(
            dt: dt, cx: aE.x, cy: aE.y, gx: gx, gy: gy, gz: gz, ax: ax, ay: ay, az: az)
        }
      }
    }

    if useMagnetometer && hasMag && hasInclination && abs(mx) < 1e5 && abs(my) < 1e5
      && abs(mz) < 1e5
    {
      // The magnetometer lags: m(t) ≈ m_meas − δ·(ω × m_meas) for a field fixed in Earth.
      let q6 = attitude6D
      let mE = q6.rotate(Vector3(mx, my, mz))
      let vE = q6.rotate(Vector3(wy * mz - wz * my, wz * mx - wx * mz, wx * my - wy * mx))
      let gyroNorm2 = wx * wx + wy * wy + wz * wz
      if magDelayEstimate && magInitialised && !magDisturbed && dt > 0 {
        // Regress the field's deviation from its recent mean on ω × m (both in E): the slope
        // is δ. Inhomogeneity and calibration errors do not correlate with the turn direction.
        if !magDelayRefInit {
          magDelayRefX = mE.x
          magDelayRefY = mE.y
          magDelayRefZ = mE.z
          magDelayRefInit = true
        }
        let cxE = mE.x - magDelay * vE.x
        let cyE = mE.y - magDelay * vE.y
        let czE = mE.z - magDelay * vE.z
        magDelayRefX += kMagDelayRef * (cxE - magDelayRefX)
        magDelayRefY += kMagDelayRef * (cyE - magDelayRefY)
        magDelayRefZ += kMagDelayRef * (czE - magDelayRefZ)
        let rx = mE.x - magDelayRefX
        let ry = mE.y - magDelayRefY
        let rz = mE.z - magDelayRefZ
        magDelaySvv += kMagDelaySum * (vE.x * vE.x + vE.y * vE.y + vE.z * vE.z - magDelaySvv)
        magDelaySrv += kMagDelaySum * (rx * vE.x + ry * vE.y + rz * vE.z - magDelaySrv)
        // Shrunk toward zero: slow turns (mean |ω × m|² below the prior) say little.
        let est = magDelaySrv / (magDelaySvv + magDelayPrior)
        magDelay = max(0, min(magDelayLimit, est))
      }
      let dl = magDelay
      magnetometerUpdate(
        dt: dt, mE: Vector3(mE.x - dl * vE.x, mE.y - dl * vE.y, mE.z - dl * vE.z),
        gyroNorm2: gyroNorm2)
    }
    return true
  }

  // MARK: Lever arm

  /// Updates the lever-arm regression with one sample and returns the accelerometer reading
  /// with the centripetal and tangential accelerations of the current estimate removed.
  @usableFromInline
  mutating func leverArmStep(
    dt: Double, wx: Double, wy: Double, wz: Double, ax: Double, ay: Double, az: Double
  ) -> (Double, Double, Double) {
    var alx = 0.0
    var aly = 0.0
    var alz = 0.0
    // α from a lightly smoothed rate (raw differences are mostly noise at high rates).
    let ka = min(1, dt / leverRateTau)
    if hasLastW {
      let sx = lastWx + ka * (wx - lastWx)
      let sy = lastWy + ka * (wy - lastWy)
      let sz = lastWz + ka * (wz - lastWz)
      let idt = 1 / dt
      alx = (sx - lastWx) * idt
      aly = (sy - lastWy) * idt
      alz = (sz - lastWz) * idt
      lastWx = sx
      lastWy = sy
      lastWz = sz
    } else {
      lastWx = wx
      lastWy = wy
      lastWz = wz
    }
    hasLastW = true
    // M = ωωᵀ − |ω|² I + [α]×, so that M r = ω × (ω × r) + α × r.
    let w2 = wx * wx + wy * wy + wz * wz
    let m00 = wx * wx - w2
    let m11 = wy * wy - w2
    let m22 = wz * wz - w2
    let m01 = wx * wy - alz
    let m10 = wx * wy + alz
    let m02 = wx * wz + aly
    let m20 = wx * wz - aly
    let m12 = wy * wz - alx
    let m21 = wy * wz + alx
    if hasInclination {
      // Residual of the accelerometer against gravity seen through the current attitude.
      let q = attitude6D
      let g = standardGravity
      let ex = ax - g * 2 * (q.x * q.z - q.w * q.y)
      let ey = ay - g * 2 * (q.y * q.z + q.w * q.x)
      let ez = az - g * (1 - 2 * (q.x * q.x + q.y * q.y))
      let k = kLever
      leverA[0] += k * (m00 * m00 + m10 * m10 + m20 * m20 - leverA[0])
      leverA[1] += k * (m00 * m01 + m10 * m11 + m20 * m21 - leverA[1])
      leverA[2] += k * (m00 * m02 + m10 * m12 + m20 * m22 - leverA[2])
      leverA[3] += k * (m01 * m01 + m11 * m11 + m21 * m21 - leverA[3])
      leverA[4] += k * (m01 * m02 + m11 * m12 + m21 * m22 - leverA[4])
      leverA[5] += k * (m02 * m02 + m12 * m12 + m22 * m22 - leverA[5])
      leverB[0] += k * (m00 * ex + m10 * ey + m20 * ez - leverB[0])
      leverB[1] += k * (m01 * ex + m11 * ey + m21 * ez - leverB[1])
      leverB[2] += k * (m02 * ex + m12 * ey + m22 * ez - leverB[2])
      // Solve (A + λI) r = B by cofactors (A + λI is symmetric positive definite).
      let c = SymmetricCofactors3(
        s00: leverA[0] + leverPrior, s11: leverA[3] + leverPrior, s22: leverA[5] + leverPrior,
        s01: leverA[1], s02: leverA[2], s12: leverA[4])
      if c.det > 0 && c.det.isFinite {
        let id = 1 / c.det
        let b0 = leverB[0]
        let b1 = leverB[1]
        let b2 = leverB[2]
        leverX = Self.clamp((c.c00 * b0 + c.c01 * b1 + c.c02 * b2) * id, leverLimit)
        leverY = Self.clamp((c.c01 * b0 + c.c11 * b1 + c.c12 * b2) * id, leverLimit)
        leverZ = Self.clamp((c.c02 * b0 + c.c12 * b1 + c.c22 * b2) * id, leverLimit)
      }
    }
    return (
      ax - (m00 * leverX + m01 * leverY + m02 * leverZ),
      ay - (m10 * leverX + m11 * leverY + m12 * leverZ),
      az - (m20 * leverX + m21 * leverY + m22 * leverZ)
    )
  }

  // MARK: Gyroscope bias

  @usableFromInline
  mutating func biasUpdate(
    dt: Double, cx: Double, cy: Double, gx: Double, gy: Double, gz: Double, ax: Double,
    ay: Double, az: Double
  ) {
    // Rest detection: the raw signals stay close to their low-pass means for a while.
    let (glx, gly, glz) = restGyroLowPass.step(
      gx, gy, gz, dt: dt, timeConstant: restTau, restCoefficients)
    let (alx, aly, alz) = restAccLowPass.step(
      ax, ay, az, dt: dt, timeConstant: restTau, restCoefficients)
    let dg = (gx - glx) * (gx - glx) + (gy - gly) * (gy - gly) + (gz - glz) * (gz - glz)
    let da = (ax - alx) * (ax - alx) + (ay - aly) * (ay - aly) + (az - alz) * (az - alz)
    if dg >= restGyro2 || da >= restAcc2 || !restGyroLowPass.warm {
      restTime = 0
      atRest = false
    } else {
      restTime += dt
      atRest = restTime >= restMinTime
    }

    // Rows 0 and 1 of R (device → E), of R·diag(ω), and their low-pass versions.
    let q = attitude6D
    let r00 = 1 - 2 * (q.y * q.y + q.z * q.z)
    let r01 = 2 * (q.x * q.y - q.w * q.z)
    let r02 = 2 * (q.x * q.z + q.w * q.y)
    let r10 = 2 * (q.x * q.y + q.w * q.z)
    let r11 = 1 - 2 * (q.x * q.x + q.z * q.z)
    let r12 = 2 * (q.y * q.z - q.w * q.x)
    let ox = gx - bx
    let oy = gy - by
    let oz = gz - bz
    let rb0 = r00 * bx + r01 * by + r02 * bz - (r00 * ox * sx + r01 * oy * sy + r02 * oz * sz)
    let rb1 = r10 * bx + r11 * by + r12 * bz - (r10 * ox * sx + r11 * oy * sy + r12 * oz * sz)
    let (h00, h01, h02) = rRow0LowPass.step(
      r00, r01, r02, dt: dt, timeConstant: accTau, accCoefficients)
    let (h10, h11, h12) = rRow1LowPass.step(
      r10, r11, r12, dt: dt, timeConstant: accTau, accCoefficients)
    let (lb0, lb1, _) = rBiasLowPass.step(
      rb0, rb1, 0, dt: dt, timeConstant: accTau, accCoefficients)
    var m00 = 0.0
    var m01 = 0.0
    var m02 = 0.0
    var m10 = 0.0
    var m11 = 0.0
    var m12 = 0.0
    if estimateScale {
      (m00, m01, m02) = sRow0LowPass.step(
        r00 * ox, r01 * oy, r02 * oz, dt: dt, timeConstant: accTau, accCoefficients)
      (m10, m11, m12) = sRow1LowPass.step(
        r10 * ox, r11 * oy, r12 * oz, dt: dt, timeConstant: accTau, accCoefficients)
    }

    // Prediction: bias and scale may drift; variances grow up to their initial values.
    for i in 0..<3 { kp[i * 7] = min(kp[i * 7] + biasV, biasP0) }
    if estimateScale {
      for i in 3..<6 { kp[i * 7] = min(kp[i * 7] + scaleV, scaleP0) }
    }

    if atRest {
      // Measurement: the mean rate at rest is the bias (H = [I 0]).
      let w = biasWRest
      let e0 = glx - bx
      let e1 = gly - by
      let e2 = glz - bz
      // Inverse of the symmetric S by cofactors.
      let c = SymmetricCofactors3(
        s00: kp[0] + w, s11: kp[7] + w, s22: kp[14] + w, s01: kp[1], s02: kp[2], s12: kp[8])
      guard c.det > 0 else { return }
      let id = 1 / c.det
      var sInv = InlineArray<9, Double>(repeating: 0)
      sInv[0] = c.c00 * id
      sInv[1] = c.c01 * id
      sInv[2] = c.c02 * id
      sInv[3] = c.c01 * id
      sInv[4] = c.c11 * id
      sInv[5] = c.c12 * id
      sInv[6] = c.c02 * id
      sInv[7] = c.c12 * id
      sInv[8] = c.c22 * id
      let n = estimateScale ? 6 : 3
      // K = P[:, 0..<3] S⁻¹ (n×3).
      var k = InlineArray<18, Double>(repeating: 0)
      for i in 0..<n {
        for j in 0..<3 {
          k[i * 3 + j] =
            kp[i * 6] * sInv[j] + kp[i * 6 + 1] * sInv[3 + j]
            + kp[i * 6 + 2] * sInv[6 + j]
        }
      }
      for i in 0..<n {
        kx[i] += k[i * 3] * e0 + k[i * 3 + 1] * e1 + k[i * 3 + 2] * e2
      }
      // P = P − K P[0..<3, :].
      var np = kp
      for i in 0..<n {
        for j in 0..<n {
          np[i * 6 + j] =
            kp[i * 6 + j]
            - (k[i * 3] * kp[j] + k[i * 3 + 1] * kp[6 + j] + k[i * 3 + 2] * kp[12 + j])
        }
      }
      kp = np
    } else if accLowPass.warm {
      // Measurement in motion: the inclination correction rate tells the horizontal part of
      // the rate error through the low-pass filtered rotation matrix:
      // y = LP(R)·b − LP(R·diag(ω))·s, rows 0 and 1.
      let idt = 1 / nominalDt
      var hm = InlineArray<12, Double>(repeating: 0)
      hm[0] = h00
      hm[1] = h01
      hm[2] = h02
      hm[3] = -m00
      hm[4] = -m01
      hm[5] = -m02
      hm[6] = h10
      hm[7] = h11
      hm[8] = h12
      hm[9] = -m10
      hm[10] = -m11
      hm[11] = -m12
      let n = estimateScale ? 6 : 3
      var pred0 = 0.0
      var pred1 = 0.0
      for j in 0..<n {
        pred0 += hm[j] * kx[j]
        pred1 += hm[6 + j] * kx[j]
      }
      var e0 = -cy * idt + lb0 - pred0
      var e1 = cx * idt + lb1 - pred1
      e0 = Self.clamp(e0, biasLimit)
      e1 = Self.clamp(e1, biasLimit)
      // A = P Hᵀ (n×2).
      var a = InlineArray<12, Double>(repeating: 0)
      for i in 0..<n {
        var s0 = 0.0
        var s1 = 0.0
        for j in 0..<n {
          s0 += kp[i * 6 + j] * hm[j]
          s1 += kp[i * 6 + j] * hm[6 + j]
        }
        a[i * 2] = s0
        a[i * 2 + 1] = s1
      }
      let w = biasWMotion
      var s00 = w
      var s01 = 0.0
      var s11 = w
      for j in 0..<n {
        s00 += hm[j] * a[j * 2]
        s01 += hm[j] * a[j * 2 + 1]
        s11 += hm[6 + j] * a[j * 2 + 1]
      }
      let det = s00 * s11 - s01 * s01
      guard det > 0 else { return }
      let id = 1 / det
      let i00 = s11 * id
      let i01 = -s01 * id
      let i11 = s00 * id
      var k = InlineArray<12, Double>(repeating: 0)
      for i in 0..<n {
        k[i * 2] = a[i * 2] * i00 + a[i * 2 + 1] * i01
        k[i * 2 + 1] = a[i * 2] * i01 + a[i * 2 + 1] * i11
        kx[i] += k[i * 2] * e0 + k[i * 2 + 1] * e1
      }
      // P is symmetric: update the upper triangle and mirror it.
      for i in 0..<n {
        for j in i..<n {
          let v = kp[i * 6 + j] - (k[i * 2] * a[j * 2] + k[i * 2 + 1] * a[j * 2 + 1])
          kp[i * 6 + j] = v
          kp[j * 6 + i] = v
        }
      }
    }
    for i in 0..<3 { kx[i] = Self.clamp(kx[i], biasLimit) }
    if estimateScale {
      for i in 3..<6 { kx[i] = Self.clamp(kx[i], scaleLimit) }
    }
  }

  // MARK: Magnetometer

  @usableFromInline
  mutating func magnetometerUpdate(dt: Double, mE: Vector3, gyroNorm2: Double) {
    let norm = mE.length
    guard norm > 1e-9, norm.isFinite else { return }
    magEarthX = mE.x
    magEarthY = mE.y
    magEarthZ = mE.z
    magLastNorm = norm
    let dip = asin(max(-1, min(1, mE.z / norm)))

    var gain = 0.0
    if !magInitialised {
      magInitialised = true
      magNormLp = norm
      magDipLp = dip
      magRefNorm = norm
      magRefDip = dip
      headingOffset = -atan2(mE.y, mE.x)
      magUpdates = 1
      magDisturbed = false
      return
    }
    magNormLp += kMagCurrent * (norm - magNormLp)
    magDipLp += kMagCurrent * (dip - magDipLp)

    if magRejection {
      let undisturbed =
        abs(magNormLp - magRefNorm) < magNormThreshold * magRefNorm
        && abs(magDipLp - magRefDip) < magDipThreshold
      if undisturbed {
        magUndisturbedTime += dt
        magDisturbed = false
        magRefNorm += kMagRef * (magNormLp - magRefNorm)
        magRefDip += kMagRef * (magDipLp - magRefDip)
        if magUndisturbedTime >= magMinUndisturbedTime || !magAcceptedOnce {
          gain = kMag
          magRejectionTime = max(magRejectionTime - magRejectionFactor * dt, 0)
        }
        magCandidateNorm = -1
        magCandidateTime = 0
      } else {
        magDisturbed = true
        magUndisturbedTime = 0
        magRejectionTime += dt
        if magRejectionTime > magMaxRejectionTime {
          gain = kMag / magRejectionFactor
        }
        // A new homogeneous field? It must stay steady while the device turns.
        if magCandidateNorm >= 0
          && abs(magNormLp - magCandidateNorm) < magNormThreshold * magCandidateNorm
          && abs(magDipLp - magCandidateDip) < magDipThreshold
        {
          magCandidateNorm += kMagCurrent * (magNormLp - magCandidateNorm)
          magCandidateDip += kMagCurrent * (magDipLp - magCandidateDip)
          if gyroNorm2 >= magNewMinGyro2 { magCandidateTime += dt }
          let needed = magAcceptedOnce ? magNewTime : magNewFirstTime
          if magCandidateTime >= needed {
            magRefNorm = magCandidateNorm
            magRefDip = magCandidateDip
            magAcceptedOnce = true
            magDisturbed = false
            magRejectionTime = 0
            magUndisturbedTime = magMinUndisturbedTime
            magCandidateNorm = -1
            magCandidateTime = 0
          }
        } else {
          magCandidateNorm = magNormLp
          magCandidateDip = magDipLp
          magCandidateTime = 0
        }
      }
    } else {
      gain = kMag
    }
    if gain > 0 {
      magUpdates += 1
      gain = max(gain, 1 / magUpdates)
      let err = Self.wrapped(-atan2(mE.y, mE.x) - headingOffset)
      headingOffset = Self.wrapped(headingOffset + gain * err)
    }
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

  /// An angle in radians brought back into −π...π by at most one turn (enough for the sum or
  /// difference of two angles that are already in range).
  @usableFromInline @inline(__always)
  static func wrapped(_ angle: Double) -> Double {
    if angle > Double.pi { return angle - 2 * Double.pi }
    if angle < -Double.pi { return angle + 2 * Double.pi }
    return angle
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
