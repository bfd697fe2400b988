import Foundation

/// Coefficients of a second-order Butterworth low-pass filter, discretised with the bilinear
/// transform (with frequency pre-warping).
///
/// The cut-off frequency follows from a time constant `τ` (seconds) as `f_c = √2 / (2π τ)`, the
/// choice of Laidig & Seel (VQF, Information Fusion 2023), which makes the filter settle about as
/// fast as a first-order low-pass of time constant `τ` while rejecting noise better.
@usableFromInline
struct LowPassCoefficients: Sendable, Hashable {
  @usableFromInline var b0 = 1.0
  @usableFromInline var b1 = 0.0
  @usableFromInline var b2 = 0.0
  @usableFromInline var a1 = 0.0
  @usableFromInline var a2 = 0.0

  /// A pass-through filter.
  @usableFromInline init() {}

  /// Designs the filter.
  ///
  /// - Parameters:
  ///   - timeConstant: `τ`, seconds; zero or less gives a pass-through filter.
  ///   - samplePeriod: The sampling period, seconds (> 0).
  @usableFromInline
  init(timeConstant: Double, samplePeriod: Double) {
    guard timeConstant > 0, samplePeriod > 0 else { return }
    let cutoff = 2.0.squareRoot() / (2 * Double.pi * timeConstant)
    // Keep the cut-off below Nyquist so that tan() stays finite.
    let k = tan(Double.pi * min(cutoff * samplePeriod, 0.45))
    let k2 = k * k
    let sqrt2 = 2.0.squareRoot()
    let norm = 1 / (1 + sqrt2 * k + k2)
    b0 = k2 * norm
    b1 = 2 * b0
    b2 = b0
    a1 = 2 * (k2 - 1) * norm
    a2 = (1 - sqrt2 * k + k2) * norm
  }
}

/// The two state variables of one channel of a biquad in transposed direct form II.
@usableFromInline
struct LowPassChannel: Sendable, Hashable {
  @usableFromInline var s1 = 0.0
  @usableFromInline var s2 = 0.0

  @usableFromInline init() {}

  /// Sets the state to the steady state for a constant input `value`.
  @inlinable
  mutating func reset(to value: Double, _ c: LowPassCoefficients) {
    s1 = value * (1 - c.b0)
    s2 = value * (c.b2 - c.a2)
  }

  /// Filters one input value.
  @inlinable
  mutating func step(_ x: Double, _ c: LowPassCoefficients) -> Double {
    let y = c.b0 * x + s1
    s1 = c.b1 * x - c.a1 * y + s2
    s2 = c.b2 * x - c.a2 * y
    return y
  }
}

/// A three-channel low-pass filter that averages its input until the first `τ` seconds have
/// passed (an unbiased start) and then runs the Butterworth filter from that mean.
@usableFromInline
struct LowPass3: Sendable, Hashable {
  @usableFromInline var x = LowPassChannel()
  @usableFromInline var y = LowPassChannel()
  @usableFromInline var z = LowPassChannel()
  @usableFromInline var sumX = 0.0
  @usableFromInline var sumY = 0.0
  @usableFromInline var sumZ = 0.0
  @usableFromInline var elapsed = 0.0
  @usableFromInline var count = 0.0
  @usableFromInline var warm = false

  @usableFromInline init() {}

  /// Filters one vector sample.
  ///
  /// - Returns: The filtered vector.
  @inlinable
  mutating func step(
    _ vx: Double, _ vy: Double, _ vz: Double, dt: Double, timeConstant: Double,
    _ c: LowPassCoefficients
  ) -> (Double, Double, Double) {
    if warm {
      return (x.step(vx, c), y.step(vy, c), z.step(vz, c))
    }
    sumX += vx
    sumY += vy
    sumZ += vz
    count += 1
    elapsed += dt
    let mx = sumX / count
    let my = sumY / count
    let mz = sumZ / count
    if elapsed >= timeConstant {
      warm = true
      x.reset(to: mx, c)
      y.reset(to: my, c)
      z.reset(to: mz, c)
    }
    return (mx, my, mz)
  }
}
