import Foundation
import SwellGeometry

// MARK: The correction step, once per block

extension FusionCore {
  /// Runs the block-rate corrections (lever arm, inclination) on the block means, adds the
  /// block to the filter period, runs the slow filters when the period is complete, and starts
  /// a new block.
  @usableFromInline
  mutating func correct() {
    let b = block
    let n = Double(max(b.count, 1))
    let duration = b.duration
    // The gyroscope attitude in the middle of the block (the mean of the two ends, normalised).
    let middle = Self.midpoint(b.startQuaternion, gyroQuaternion)
    // The mean corrected rate, rad/s, device frame (bias and scale were constant in the block).
    let wx = (b.gyroX / n - rateBiasX) * rateScaleX
    let wy = (b.gyroY / n - rateBiasY) * rateScaleY
    let wz = (b.gyroZ / n - rateBiasZ) * rateScaleZ

    period.blocks += 1
    period.duration += duration
    period.gyroX += b.gyroX
    period.gyroY += b.gyroY
    period.gyroZ += b.gyroZ
    period.gyroCount += b.count
    if b.accelerometerCount > 0 {
      let na = Double(b.accelerometerCount)
      var aI = Vector3(b.accInertialX / na, b.accInertialY / na, b.accInertialZ / na)
      // The block's accelerometer variance (exact in any frame: |a_I| = |a|). BROAD's hand
      // motion reaches 2-10 (m/s²)² in 20 ms, its real taps a median of 39. A block above
      // both impulseVariance (10 by default; v3's 2 caught real jerks, fusion v4) and four
      // times the window's median (sustained vibration raises the median with it, and its
      // zero-mean block means need no down-weighting) gets the weight reference / variance,
      // so a tap barely moves the inclination.
      let variance = max(0, b.accNorm2 / na - aI.lengthSquared)
      restWindow.add(variance: variance)
      if accelerationWeight > 0 && accLowPass.count > 0 {
        let dx = aI.x - accLowPassOutX
        let dy = aI.y - accLowPassOutY
        let dz = aI.z - accLowPassOutZ
        period.accDisturbance2 += dx * dx + dy * dy + dz * dz
      }
      // Each use of the tap weight has its own switch (Settings.restIgnoresTaps,
      // inclinationDownWeightsTaps, leverArmDownWeightsTaps); with all three off the block is
      // treated as in fusion v2 and the median is not computed.
      var weight = 1.0
      if tapsDetected && variance > impulseVariance {
        let reference = max(impulseVariance, 4 * restWindow.medianVariance())
        if variance > reference { weight = reference / variance }
      }
      if weight < 1 && restIgnoresTaps {
        period.tapBlocks += 1
      } else {
        period.maxGyroDeviation2 = max(period.maxGyroDeviation2, b.maxGyroDeviation2)
        period.maxAccDeviation2 = max(period.maxAccDeviation2, b.maxAccDeviation2)
      }
      if leverEstimate && duration > 0 {
        aI = leverArmCorrected(
          aI, middle: middle, wx: wx, wy: wy, wz: wz, duration: duration,
          weight: leverArmDownWeightsTaps ? weight : 1)
      }
      if weight < 1 && inclinationDownWeightsTaps && accLowPass.count > 0 {
        let last = Vector3(accLowPassOutX, accLowPassOutY, accLowPassOutZ)
        aI = last + weight * (aI - last)
      }
      period.accX += b.accDeviceX
      period.accY += b.accDeviceY
      period.accZ += b.accDeviceZ
      period.accCount += b.accelerometerCount
      if let (cx, cy) = inclinationStep(aI, duration: duration), estimateBias, duration > 0 {
        addBiasEvidence(cx: cx, cy: cy, middle: middle, block: b)
      }
    }
    if useMagnetometer && b.magnetometerCount > 0 {
      period.magX += b.magX
      period.magY += b.magY
      period.magZ += b.magZ
      period.magCount += b.magnetometerCount
      let wI = Self.rotate(middle, wx * duration, wy * duration, wz * duration)
      period.turnX += wI.x
      period.turnY += wI.y
      period.turnZ += wI.z
      period.turn += (wx * wx + wy * wy + wz * wz).squareRoot() * duration
    }
    block = CorrectionBlock(start: gyroQuaternion)
    // The first heading comes with the first inclination, later ones per period.
    if period.blocks >= periodLength || (!magInitialised && period.magCount > 0 && hasInclination) {
      filterUpdate()
    } else {
      updateNorthQuaternion()
    }
  }

  /// Runs the slow filters on the period's means: rest detector, bias and scale Kalman filter,
  /// heading. Starts a new period.
  @usableFromInline
  mutating func filterUpdate() {
    let p = period
    period = FilterPeriod()
    if estimateBias && p.duration > 0 && p.accCount > 0 {
      biasUpdate(p)
    }
    if useMagnetometer && p.magCount > 0 && hasInclination {
      let nm = Double(p.magCount)
      let d = p.duration > 0 ? 1 / p.duration : 0
      magnetometerStep(
        Vector3(p.magX / nm, p.magY / nm, p.magZ / nm),
        rateI: Vector3(p.turnX * d, p.turnY * d, p.turnZ * d), rate: p.turn * d,
        duration: p.duration)
    }
    updateNorthQuaternion()
    rateBiasX = kx[0]
    rateBiasY = kx[1]
    rateBiasZ = kx[2]
    rateScaleX = 1 + kx[3]
    rateScaleY = 1 + kx[4]
    rateScaleZ = 1 + kx[5]
  }

  /// Adds one block's inclination correction and the rotation it happened at to the period.
  @usableFromInline
  mutating func addBiasEvidence(
    cx: Double, cy: Double, middle: Quaternion, block b: CorrectionBlock
  ) {
    let n = Double(max(b.count, 1))
    // Rows 0 and 1 of R (device → E) in the middle of the block.
    let q = Self.multiply(inclinationQuaternion, middle)
    let r00 = 1 - 2 * (q.y * q.y + q.z * q.z)
    let r01 = 2 * (q.x * q.y - q.w * q.z)
    let r02 = 2 * (q.x * q.z + q.w * q.y)
    let r10 = 2 * (q.x * q.y + q.w * q.z)
    let r11 = 1 - 2 * (q.x * q.x + q.z * q.z)
    let r12 = 2 * (q.y * q.z - q.w * q.x)
    // The block's mean raw rate without the bias, rad/s.
    let ox = b.gyroX / n - bx
    let oy = b.gyroY / n - by
    let oz = b.gyroZ / n - bz
    period.inclinationBlocks += 1
    period.correctionX += cx
    period.correctionY += cy
    period.r[0] += r00
    period.r[1] += r01
    period.r[2] += r02
    period.r[3] += r10
    period.r[4] += r11
    period.r[5] += r12
    period.rw[0] += r00 * ox
    period.rw[1] += r01 * oy
    period.rw[2] += r02 * oz
    period.rw[3] += r10 * ox
    period.rw[4] += r11 * oy
    period.rw[5] += r12 * oz
    period.rateError0 +=
      r00 * bx + r01 * by + r02 * bz - (r00 * ox * sx + r01 * oy * sy + r02 * oz * sz)
    period.rateError1 +=
      r10 * bx + r11 * by + r12 * bz - (r10 * ox * sx + r11 * oy * sy + r12 * oz * sz)
  }

  /// Low-pass filters the block's mean specific force in I and turns the inclination so that
  /// the filtered vector is vertical. Returns the correction's horizontal components (x, y of
  /// the normalised filtered vector in E before the turn), or `nil` when it had no direction.
  @usableFromInline
  mutating func inclinationStep(_ aI: Vector3, duration: Double) -> (Double, Double)? {
    let (lx, ly, lz) = accLowPass.step(
      aI.x, aI.y, aI.z, dt: duration, timeConstant: accTau, accCoefficients)
    (accLowPassOutX, accLowPassOutY, accLowPassOutZ) = (lx, ly, lz)
    var aE = Self.rotate(inclinationQuaternion, lx, ly, lz)
    let len = aE.length
    guard len > 0 && len.isFinite else { return nil }
    aE = aE / len
    // Shortest rotation taking aE to +z.
    let corr: Quaternion
    if aE.z > -0.999_999 {
      let w = ((1 + aE.z) / 2).squareRoot()
      let h = 0.5 / w
      corr = Quaternion(w: w, x: aE.y * h, y: -aE.x * h, z: 0)
    } else {
      corr = Quaternion(w: 0, x: 1, y: 0, z: 0)
    }
    inclinationQuaternion = Self.renormalized(Self.multiply(corr, inclinationQuaternion))
    hasInclination = true
    return (aE.x, aE.y)
  }

  /// Sets `northQuaternion` = `rotZ(headingOffset) ⊗ inclinationQuaternion`.
  @usableFromInline
  mutating func updateNorthQuaternion() {
    guard magInitialised else {
      northQuaternion = inclinationQuaternion
      return
    }
    let c = headingCos
    let s = headingSin
    let q = inclinationQuaternion
    northQuaternion = Quaternion(
      w: c * q.w - s * q.z, x: c * q.x - s * q.y, y: c * q.y + s * q.x, z: c * q.z + s * q.w)
  }
}

// MARK: Lever arm

extension FusionCore {
  /// Updates the lever-arm regression with one block and returns the block's mean specific
  /// force in I with the centripetal and tangential accelerations of the current estimate
  /// removed.
  ///
  /// - Parameters:
  ///   - aI: The block's mean specific force in I, m/s².
  ///   - middle: The gyroscope attitude in the middle of the block.
  ///   - wx: The block's mean corrected rate about device x, rad/s.
  ///   - wy: The same about device y, rad/s.
  ///   - wz: The same about device z, rad/s.
  ///   - duration: The block's duration, seconds.
  ///   - weight: The block's weight in the regression (below 1 for a tap), 0...1.
  /// - Returns: The compensated mean specific force in I, m/s².
  @usableFromInline
  mutating func leverArmCorrected(
    _ aI: Vector3, middle: Quaternion, wx: Double, wy: Double, wz: Double, duration: Double,
    weight: Double = 1
  ) -> Vector3 {
    // α from the difference of consecutive block means (already smoothed by the averaging).
    var alx = 0.0
    var aly = 0.0
    var alz = 0.0
    if hasLastBlockRate {
      let span = (lastBlockDuration + duration) / 2
      if span > 0 {
        alx = (wx - lastBlockRateX) / span
        aly = (wy - lastBlockRateY) / span
        alz = (wz - lastBlockRateZ) / span
      }
    }
    lastBlockRateX = wx
    lastBlockRateY = wy
    lastBlockRateZ = wz
    lastBlockDuration = duration
    hasLastBlockRate = true
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
      // Residual of the specific force against gravity (device frame, middle of the block).
      let gI = Self.rotate(inclinationQuaternion.conjugate, 0, 0, standardGravity)
      let r = Self.rotate(middle.conjugate, aI.x - gI.x, aI.y - gI.y, aI.z - gI.z)
      let (ex, ey, ez) = (r.x, r.y, r.z)
      let k = kLever * weight
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
    let compensation = Vector3(
      m00 * leverX + m01 * leverY + m02 * leverZ,
      m10 * leverX + m11 * leverY + m12 * leverZ,
      m20 * leverX + m21 * leverY + m22 * leverZ)
    return aI - Self.rotate(middle, compensation.x, compensation.y, compensation.z)
  }
}
