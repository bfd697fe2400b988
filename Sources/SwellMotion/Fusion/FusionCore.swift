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

  // MARK: State
  @usableFromInline var lastTimestamp = Double.nan
  @usableFromInline var gyroQuaternion = Quaternion.identity
  @usableFromInline var inclinationQuaternion = Quaternion.identity
  @usableFromInline var headingOffset = 0.0
  @usableFromInline var accLowPass = LowPass3()
  @usableFromInline var rRow0LowPass = LowPass3()
  @usableFromInline var rRow1LowPass = LowPass3()
  @usableFromInline var rBiasLowPass = LowPass3()
  @usableFromInline var bx = 0.0
  @usableFromInline var by = 0.0
  @usableFromInline var bz = 0.0
  // Symmetric bias covariance, rad²/s².
  @usableFromInline var p00 = 0.0
  @usableFromInline var p01 = 0.0
  @usableFromInline var p02 = 0.0
  @usableFromInline var p11 = 0.0
  @usableFromInline var p12 = 0.0
  @usableFromInline var p22 = 0.0
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
    p00 = biasP0
    p11 = biasP0
    p22 = biasP0
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
    biasV = biasDriftVariancePerSecond * dt
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
    guard t.isFinite, gx.isFinite, gy.isFinite, gz.isFinite else { return false }
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
    let wx = gx - bx
    let wy = gy - by
    let wz = gz - bz
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
      let q = gyroQuaternion
      var n = q * Quaternion(w: c, x: rx * k, y: ry * k, z: rz * k)
      let n2 = n.w * n.w + n.x * n.x + n.y * n.y + n.z * n.z
      let s = (3 - n2) / 2
      n = Quaternion(w: n.w * s, x: n.x * s, y: n.y * s, z: n.z * s)
      gyroQuaternion = n
    }

    let accValid =
      ax.isFinite && ay.isFinite && az.isFinite && (ax * ax + ay * ay + az * az) > 1e-6
    if accValid {
      // Low-pass filter the accelerometer in the almost-inertial frame I.
      let aI = gyroQuaternion.rotate(Vector3(ax, ay, az))
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
        var q = corr * inclinationQuaternion
        let n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z
        let s = (3 - n2) / 2
        q = Quaternion(w: q.w * s, x: q.x * s, y: q.y * s, z: q.z * s)
        inclinationQuaternion = q
        hasInclination = true
        if estimateBias && dt > 0 {
          biasUpdate(
            dt: dt, cx: aE.x, cy: aE.y, gx: gx, gy: gy, gz: gz, ax: ax, ay: ay, az: az)
        }
      }
    }

    if useMagnetometer && hasMag && hasInclination && mx.isFinite && my.isFinite
      && mz.isFinite
    {
      magnetometerUpdate(dt: dt, mx: mx, my: my, mz: mz, gyroNorm2: wx * wx + wy * wy + wz * wz)
    }
    return true
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

    // Rows 0 and 1 of R (device → E) and their low-pass versions, as is R·b̂.
    let q = attitude6D
    let r00 = 1 - 2 * (q.y * q.y + q.z * q.z)
    let r01 = 2 * (q.x * q.y - q.w * q.z)
    let r02 = 2 * (q.x * q.z + q.w * q.y)
    let r10 = 2 * (q.x * q.y + q.w * q.z)
    let r11 = 1 - 2 * (q.x * q.x + q.z * q.z)
    let r12 = 2 * (q.y * q.z - q.w * q.x)
    let rb0 = r00 * bx + r01 * by + r02 * bz
    let rb1 = r10 * bx + r11 * by + r12 * bz
    let (h00, h01, h02) = rRow0LowPass.step(
      r00, r01, r02, dt: dt, timeConstant: accTau, accCoefficients)
    let (h10, h11, h12) = rRow1LowPass.step(
      r10, r11, r12, dt: dt, timeConstant: accTau, accCoefficients)
    let (lb0, lb1, _) = rBiasLowPass.step(
      rb0, rb1, 0, dt: dt, timeConstant: accTau, accCoefficients)

    // Prediction: the bias may drift; the variance grows up to its initial value.
    p00 = min(p00 + biasV, biasP0)
    p11 = min(p11 + biasV, biasP0)
    p22 = min(p22 + biasV, biasP0)

    if atRest {
      // Measurement: the mean rate at rest is the bias (H = I).
      let w = biasWRest
      let e0 = glx - bx
      let e1 = gly - by
      let e2 = glz - bz
      // S = P + W; K = P S⁻¹; b += K e; P -= K P.
      let s00 = p00 + w
      let s11 = p11 + w
      let s22 = p22 + w
      let s01 = p01
      let s02 = p02
      let s12 = p12
      // Inverse of the symmetric S by cofactors.
      let c00 = s11 * s22 - s12 * s12
      let c01 = s02 * s12 - s01 * s22
      let c02 = s01 * s12 - s02 * s11
      let c11 = s00 * s22 - s02 * s02
      let c12 = s01 * s02 - s00 * s12
      let c22 = s00 * s11 - s01 * s01
      let det = s00 * c00 + s01 * c01 + s02 * c02
      guard det > 0 else { return }
      let id = 1 / det
      let i00 = c00 * id
      let i01 = c01 * id
      let i02 = c02 * id
      let i11 = c11 * id
      let i12 = c12 * id
      let i22 = c22 * id
      // K = P·S⁻¹ (not symmetric in general).
      let k00 = p00 * i00 + p01 * i01 + p02 * i02
      let k01 = p00 * i01 + p01 * i11 + p02 * i12
      let k02 = p00 * i02 + p01 * i12 + p02 * i22
      let k10 = p01 * i00 + p11 * i01 + p12 * i02
      let k11 = p01 * i01 + p11 * i11 + p12 * i12
      let k12 = p01 * i02 + p11 * i12 + p12 * i22
      let k20 = p02 * i00 + p12 * i01 + p22 * i02
      let k21 = p02 * i01 + p12 * i11 + p22 * i12
      let k22 = p02 * i02 + p12 * i12 + p22 * i22
      bx += k00 * e0 + k01 * e1 + k02 * e2
      by += k10 * e0 + k11 * e1 + k12 * e2
      bz += k20 * e0 + k21 * e1 + k22 * e2
      // P = P − K·P.
      let n00 = p00 - (k00 * p00 + k01 * p01 + k02 * p02)
      let n01 = p01 - (k00 * p01 + k01 * p11 + k02 * p12)
      let n02 = p02 - (k00 * p02 + k01 * p12 + k02 * p22)
      let n11 = p11 - (k10 * p01 + k11 * p11 + k12 * p12)
      let n12 = p12 - (k10 * p02 + k11 * p12 + k12 * p22)
      let n22 = p22 - (k20 * p02 + k21 * p12 + k22 * p22)
      p00 = n00
      p01 = n01
      p02 = n02
      p11 = n11
      p12 = n12
      p22 = n22
    } else if accLowPass.warm {
      // Measurement in motion: the inclination correction rate tells the horizontal part of
      // the bias through the low-pass filtered rotation matrix (H = rows 0, 1 of LP(R)).
      let idt = 1 / nominalDt
      var e0 = -cy * idt + lb0 - (h00 * bx + h01 * by + h02 * bz)
      var e1 = cx * idt + lb1 - (h10 * bx + h11 * by + h12 * bz)
      e0 = max(-biasLimit, min(biasLimit, e0))
      e1 = max(-biasLimit, min(biasLimit, e1))
      // PHᵀ (3×2).
      let a00 = p00 * h00 + p01 * h01 + p02 * h02
      let a10 = p01 * h00 + p11 * h01 + p12 * h02
      let a20 = p02 * h00 + p12 * h01 + p22 * h02
      let a01 = p00 * h10 + p01 * h11 + p02 * h12
      let a11 = p01 * h10 + p11 * h11 + p12 * h12
      let a21 = p02 * h10 + p12 * h11 + p22 * h12
      // S = H P Hᵀ + W (2×2).
      let w = biasWMotion
      let s00 = h00 * a00 + h01 * a10 + h02 * a20 + w
      let s01 = h00 * a01 + h01 * a11 + h02 * a21
      let s11 = h10 * a01 + h11 * a11 + h12 * a21 + w
      let det = s00 * s11 - s01 * s01
      guard det > 0 else { return }
      let id = 1 / det
      let i00 = s11 * id
      let i01 = -s01 * id
      let i11 = s00 * id
      // K = PHᵀ S⁻¹ (3×2).
      let k00 = a00 * i00 + a01 * i01
      let k01 = a00 * i01 + a01 * i11
      let k10 = a10 * i00 + a11 * i01
      let k11 = a10 * i01 + a11 * i11
      let k20 = a20 * i00 + a21 * i01
      let k21 = a20 * i01 + a21 * i11
      bx += k00 * e0 + k01 * e1
      by += k10 * e0 + k11 * e1
      bz += k20 * e0 + k21 * e1
      // P = P − K (PHᵀ)ᵀ.
      p00 -= k00 * a00 + k01 * a01
      p01 -= k00 * a10 + k01 * a11
      p02 -= k00 * a20 + k01 * a21
      p11 -= k10 * a10 + k11 * a11
      p12 -= k10 * a20 + k11 * a21
      p22 -= k20 * a20 + k21 * a21
    }
    bx = max(-biasLimit, min(biasLimit, bx))
    by = max(-biasLimit, min(biasLimit, by))
    bz = max(-biasLimit, min(biasLimit, bz))
  }

  // MARK: Magnetometer

  @usableFromInline
  mutating func magnetometerUpdate(
    dt: Double, mx: Double, my: Double, mz: Double, gyroNorm2: Double
  ) {
    let mE = attitude6D.rotate(Vector3(mx, my, mz))
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
      var err = -atan2(mE.y, mE.x) - headingOffset
      if err > Double.pi { err -= 2 * Double.pi } else if err < -Double.pi { err += 2 * Double.pi }
      headingOffset += gain * err
      if headingOffset > Double.pi {
        headingOffset -= 2 * Double.pi
      } else if headingOffset < -Double.pi {
        headingOffset += 2 * Double.pi
      }
    }
  }
}
