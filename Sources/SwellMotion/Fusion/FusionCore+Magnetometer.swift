import Foundation
import SwellGeometry

// MARK: Heading from the magnetometer, once per block

extension FusionCore {
  /// Takes one filter period's mean field and corrects the heading.
  ///
  /// - Parameters:
  ///   - mI: The period's mean field in I, µT.
  ///   - rateI: The period's mean corrected rate in I, rad/s.
  ///   - rate: The period's mean rotation rate (norm), rad/s.
  ///   - duration: The period's duration, seconds.
  @usableFromInline
  mutating func magnetometerStep(
    _ mI: Vector3, rateI: Vector3, rate: Double, duration: Double
  ) {
    let mE = Self.rotate(inclinationQuaternion, mI.x, mI.y, mI.z)
    // The magnetometer lags: m(t) ≈ m_meas − δ·(ω × m_meas) for a field fixed in Earth, and
    // R(ω × m) = (Rω) × (Rm).
    let c = rateI.cross(mI)
    let vE = Self.rotate(inclinationQuaternion, c.x, c.y, c.z)
    if magDelayEstimate && magInitialised && magReference.state != .disturbed && duration > 0 {
      // Regress the field's deviation from its recent mean on ω × m (both in E): the slope
      // is δ. Inhomogeneity and calibration errors do not correlate with the turn direction.
      if !magDelayRefInit {
        magDelayRefX = mE.x
        magDelayRefY = mE.y
        magDelayRefZ = mE.z
        magDelayRefInit = true
      }
      magDelayRefX += kMagDelayRef * (mE.x - magDelay * vE.x - magDelayRefX)
      magDelayRefY += kMagDelayRef * (mE.y - magDelay * vE.y - magDelayRefY)
      magDelayRefZ += kMagDelayRef * (mE.z - magDelay * vE.z - magDelayRefZ)
      let rx = mE.x - magDelayRefX
      let ry = mE.y - magDelayRefY
      let rz = mE.z - magDelayRefZ
      magDelaySvv += kMagDelaySum * (vE.x * vE.x + vE.y * vE.y + vE.z * vE.z - magDelaySvv)
      magDelaySrv += kMagDelaySum * (rx * vE.x + ry * vE.y + rz * vE.z - magDelaySrv)
      // Shrunk toward zero: slow turns (mean |ω × m|² below the prior) say little.
      let est = magDelaySrv / (magDelaySvv + magDelayPrior)
      magDelay = max(0, min(magDelayLimit, est))
    }
    let d = magDelay
    headingUpdate(
      Vector3(mE.x - d * vE.x, mE.y - d * vE.y, mE.z - d * vE.z), duration: duration,
      rate: rate)
  }

  /// Corrects the heading toward the field `mE` (µT, E frame) as far as the magnetic reference
  /// allows.
  @usableFromInline
  mutating func headingUpdate(_ mE: Vector3, duration: Double, rate: Double) {
    let norm = mE.length
    guard norm > 1e-9, norm.isFinite else { return }
    let dip = asin(max(-1, min(1, mE.z / norm)))
    magEarthX = mE.x
    magEarthY = mE.y
    magEarthZ = mE.z
    if !magInitialised {
      magInitialised = true
      magReference.start(norm: norm, dip: dip)
      setHeading(-atan2(mE.y, mE.x))
      return
    }
    let decision = magReference.update(
      norm: norm, dip: dip, duration: duration, rate: rate, atRest: atRest,
      heading: (headingCos, headingSin))
    if let r = decision.restore {
      headingCos = r.cos
      headingSin = r.sin
    }
    let gain = decision.gain
    guard gain > 0 else { return }
    // The field's horizontal direction in N: rotZ(h) applied to mE, with cos h and sin h from
    // the half-angle pair.
    let c = headingCos
    let s = headingSin
    let ch = c * c - s * s
    let sh = 2 * c * s
    let nx = ch * mE.x - sh * mE.y
    let ny = sh * mE.x + ch * mE.y
    guard nx != 0 || ny != 0 else { return }
    // The error turns N's x axis onto the field's horizontal direction.
    turnHeading(by: -gain * atan2(ny, nx))
  }

  /// Sets the heading offset to `angle` radians.
  @usableFromInline
  mutating func setHeading(_ angle: Double) {
    headingCos = cos(angle / 2)
    headingSin = sin(angle / 2)
  }

  /// Turns the heading offset by `angle` radians (a small angle costs no trigonometric call).
  @usableFromInline
  mutating func turnHeading(by angle: Double) {
    let x = angle / 2
    let c: Double
    let s: Double
    let x2 = x * x
    if x2 < 0.0625 {
      // Taylor series of cos and sin; below |x| = 0.25 the first omitted terms are < 10⁻¹⁵.
      c = 1 + x2 * (-1 / 2 + x2 * (1 / 24 + x2 * (-1 / 720 + x2 / 40320)))
      s = x * (1 + x2 * (-1 / 6 + x2 * (1 / 120 + x2 * (-1 / 5040 + x2 / 362_880))))
    } else {
      c = cos(x)
      s = sin(x)
    }
    let nc = headingCos * c - headingSin * s
    let ns = headingSin * c + headingCos * s
    // Keep the pair on the unit circle (first-order, no square root).
    let k = (3 - (nc * nc + ns * ns)) / 2
    headingCos = nc * k
    headingSin = ns * k
  }
}
