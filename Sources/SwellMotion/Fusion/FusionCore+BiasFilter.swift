import SwellGeometry

// MARK: Gyroscope bias and scale: rest detection and the Kalman filter, once per block

extension FusionCore {
  /// Updates the rest detector and the bias and scale Kalman filter with one filter period.
  ///
  /// - Parameter p: The period (duration > 0, at least one accelerometer sample).
  @usableFromInline
  mutating func biasUpdate(_ p: FilterPeriod) {
    let duration = p.duration
    // Rest detection (see RestWindow): every sample stays close to the low-pass means for a
    // while. A period with a tap says nothing either way: it neither ends nor extends the rest,
    // and its means do not enter the low-pass.
    let tapped = p.tapBlocks > 0
    if !tapped {
      let ng = 1 / Double(max(p.gyroCount, 1))
      let na = 1 / Double(max(p.accCount, 1))
      let (glx, gly, glz) = restGyroLowPass.step(
        p.gyroX * ng, p.gyroY * ng, p.gyroZ * ng, dt: duration, timeConstant: restTau,
        restCoefficients)
      let (alx, aly, alz) = restAccLowPass.step(
        p.accX * na, p.accY * na, p.accZ * na, dt: duration, timeConstant: restTau,
        restCoefficients)
      if p.maxGyroDeviation2 >= restGyro2 || p.maxAccDeviation2 >= restAcc2
        || !restGyroLowPass.warm
      {
        restTime = 0
        atRest = false
      } else {
        restTime += duration
        atRest = restTime >= restMinTime
      }
      (restMeanGyroX, restMeanGyroY, restMeanGyroZ) = (glx, gly, glz)
      (restMeanAccX, restMeanAccY, restMeanAccZ) = (alx, aly, alz)
    }
    guard p.inclinationBlocks > 0 else { return }

    // Low-pass filtered means of rows 0 and 1 of R, of R·diag(ω) and of the rate error.
    let nb = 1 / Double(p.inclinationBlocks)
    let c = biasCoefficients
    let (h00, h01, h02) = rRow0LowPass.step(
      p.r[0] * nb, p.r[1] * nb, p.r[2] * nb, dt: duration, timeConstant: accTau, c)
    let (h10, h11, h12) = rRow1LowPass.step(
      p.r[3] * nb, p.r[4] * nb, p.r[5] * nb, dt: duration, timeConstant: accTau, c)
    let (lb0, lb1, _) = rBiasLowPass.step(
      p.rateError0 * nb, p.rateError1 * nb, 0, dt: duration, timeConstant: accTau, c)
    var m00 = 0.0
    var m01 = 0.0
    var m02 = 0.0
    var m10 = 0.0
    var m11 = 0.0
    var m12 = 0.0
    if estimateScale {
      (m00, m01, m02) = sRow0LowPass.step(
        p.rw[0] * nb, p.rw[1] * nb, p.rw[2] * nb, dt: duration, timeConstant: accTau, c)
      (m10, m11, m12) = sRow1LowPass.step(
        p.rw[3] * nb, p.rw[4] * nb, p.rw[5] * nb, dt: duration, timeConstant: accTau, c)
    }

    // Prediction: bias and scale may drift; variances grow up to their initial values.
    for i in 0..<3 { kp[i * 7] = min(kp[i * 7] + biasV, biasP0) }
    if estimateScale {
      for i in 3..<6 { kp[i * 7] = min(kp[i * 7] + scaleV, scaleP0) }
    }

    if atRest {
      guard !tapped else { return }
      restMeasurement(e0: restMeanGyroX - bx, e1: restMeanGyroY - by, e2: restMeanGyroZ - bz)
    } else if accLowPass.warm {
      // Measurement in motion: the inclination correction rate tells the horizontal part of
      // the rate error through the low-pass filtered rotation matrix:
      // y = LP(R)·b − LP(R·diag(ω))·s, rows 0 and 1. The correction rate is the period's
      // total correction angle over its duration.
      let rate = 1 / duration
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
      // The correction rate measures the gyroscope's error only as far as the low-passed
      // specific force is gravity. Centripetal and translational accelerations (and what the
      // lever-arm model leaves of them) bend it, so the measurement's variance grows with
      // their mean square over the period, relative to
      // Settings.biasMotionAccelerationScale² (fusion v3).
      let disturbance = p.accDisturbance2 * nb * accelerationWeight
      motionMeasurement(
        hm: hm, y0: -p.correctionY * rate + lb0, y1: p.correctionX * rate + lb1,
        variance: biasWMotion * (1 + disturbance))
    }
    for i in 0..<3 { kx[i] = Self.clamp(kx[i], biasLimit) }
    if estimateScale {
      for i in 3..<6 { kx[i] = Self.clamp(kx[i], scaleLimit) }
    }
  }

  /// The Kalman update at rest: the mean rate is the bias (H = [I 0]); `e` is the innovation.
  @usableFromInline
  mutating func restMeasurement(e0: Double, e1: Double, e2: Double) {
    let w = biasWRest
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
          kp[i * 6] * sInv[j] + kp[i * 6 + 1] * sInv[3 + j] + kp[i * 6 + 2] * sInv[6 + j]
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
          kp[i * 6 + j] - (k[i * 3] * kp[j] + k[i * 3 + 1] * kp[6 + j] + k[i * 3 + 2] * kp[12 + j])
      }
    }
    kp = np
  }

  /// The Kalman update in motion with the 2×6 measurement matrix `hm` (row-major) and the
  /// measured rate errors `y0`, `y1` (rad/s, E-frame x and y), each with the measurement
  /// variance `variance` ((rad/s)²).
  @usableFromInline
  mutating func motionMeasurement(
    hm: InlineArray<12, Double>, y0: Double, y1: Double, variance: Double
  ) {
    let n = estimateScale ? 6 : 3
    var pred0 = 0.0
    var pred1 = 0.0
    for j in 0..<n {
      pred0 += hm[j] * kx[j]
      pred1 += hm[6 + j] * kx[j]
    }
    let e0 = Self.clamp(y0 - pred0, biasLimit)
    let e1 = Self.clamp(y1 - pred1, biasLimit)
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
    let w = variance
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
}

// MARK: Seeding the bias from an earlier run

extension FusionCore {
  /// Starts the bias filter from a known bias instead of zero: the state becomes `bias`
  /// (clamped to the bias limit), its variance `sigma²` per axis with no correlations, and the
  /// rate used for integration follows at once.
  ///
  /// - Parameters:
  ///   - bias: rad/s, device frame; finite.
  ///   - sigma: rad/s, > 0 and finite; at most the initial sigma (larger values are clamped).
  mutating func seedBias(_ bias: (Double, Double, Double), sigma: Double) {
    let variance = min(sigma * sigma, biasP0)
    kx[0] = Self.clamp(bias.0, biasLimit)
    kx[1] = Self.clamp(bias.1, biasLimit)
    kx[2] = Self.clamp(bias.2, biasLimit)
    for i in 0..<3 {
      for j in 0..<6 where j != i {
        kp[i * 6 + j] = 0
        kp[j * 6 + i] = 0
      }
      kp[i * 7] = variance
    }
    rateBiasX = kx[0]
    rateBiasY = kx[1]
    rateBiasZ = kx[2]
  }
}
