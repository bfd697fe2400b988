import Foundation
import SwellGeometry

// MARK: The correction step, once per block

extension FusionCore {
  /// Runs the correction filters on the block means and starts a new block.
  @usableFromInline
  mutating func correct() {
    let b = block
    let n = Double(max(b.count, 1))
    let duration = b.duration
    // The gyroscope attitude in the middle of the block (the mean of the two ends, normalised).
    var s = b.startQuaternion
    let e = gyroQuaternion
    if s.w * e.w + s.x * e.x + s.y * e.y + s.z * e.z < 0 {
      s = Quaternion(w: -s.w, x: -s.x, y: -s.y, z: -s.z)
    }
    let middle = Quaternion(w: s.w + e.w, x: s.x + e.x, y: s.y + e.y, z: s.z + e.z).normalized()
    let gx = b.gyroX / n
    let gy = b.gyroY / n
    let gz = b.gyroZ / n
    // The mean corrected rate, rad/s, device frame (bias and scale were constant in the block).
    let wx = (gx - rateBiasX) * rateScaleX
    let wy = (gy - rateBiasY) * rateScaleY
    let wz = (gz - rateBiasZ) * rateScaleZ

    if b.accelerometerCount > 0 {
      let na = Double(b.accelerometerCount)
      var aI = Vector3(b.accInertialX / na, b.accInertialY / na, b.accInertialZ / na)
      if leverEstimate && duration > 0 {
        aI = leverArmCorrected(aI, middle: middle, wx: wx, wy: wy, wz: wz, duration: duration)
      }
      if let (cx, cy) = inclinationStep(aI, duration: duration), estimateBias, duration > 0 {
        biasUpdate(
          duration: duration, cx: cx, cy: cy, middle: middle, gx: gx, gy: gy, gz: gz,
          ax: b.accDeviceX / na, ay: b.accDeviceY / na, az: b.accDeviceZ / na,
          gyroDeviation2: b.maxGyroDeviation2, accDeviation2: b.maxAccDeviation2)
      }
    }
    if useMagnetometer && b.magnetometerCount > 0 && hasInclination {
      let nm = Double(b.magnetometerCount)
      magnetometerStep(
        Vector3(b.magX / nm, b.magY / nm, b.magZ / nm), middle: middle, wx: wx, wy: wy, wz: wz,
        duration: duration)
    }
    updateNorthQuaternion()
    rateBiasX = kx[0]
    rateBiasY = kx[1]
    rateBiasZ = kx[2]
    rateScaleX = 1 + kx[3]
    rateScaleY = 1 + kx[4]
    rateScaleZ = 1 + kx[5]
    block = CorrectionBlock(start: gyroQuaternion)
  }

  /// Low-pass filters the block's mean specific force in I and turns the inclination so that
  /// the filtered vector is vertical. Returns the correction's horizontal components (x, y of
  /// the normalised filtered vector in E before the turn), or `nil` when it had no direction.
  @usableFromInline
  mutating func inclinationStep(_ aI: Vector3, duration: Double) -> (Double, Double)? {
    let (lx, ly, lz) = accLowPass.step(
      aI.x, aI.y, aI.z, dt: duration, timeConstant: accTau, accCoefficients)
    var aE = inclinationQuaternion.rotate(Vector3(lx, ly, lz))
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
    inclinationQuaternion = Self.renormalized(corr * inclinationQuaternion)
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
  ///   - wx: The block's mean corrected rate, rad/s, device frame (with `wy`, `wz`).
  ///   - duration: The block's duration, seconds.
  @usableFromInline
  mutating func leverArmCorrected(
    _ aI: Vector3, middle: Quaternion, wx: Double, wy: Double, wz: Double, duration: Double
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
      let gI = inclinationQuaternion.inverseRotate(Vector3(0, 0, standardGravity))
      let r = middle.inverseRotate(aI - gI)
      let (ex, ey, ez) = (r.x, r.y, r.z)
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
    let compensation = Vector3(
      m00 * leverX + m01 * leverY + m02 * leverZ,
      m10 * leverX + m11 * leverY + m12 * leverZ,
      m20 * leverX + m21 * leverY + m22 * leverZ)
    return aI - middle.rotate(compensation)
  }
}
