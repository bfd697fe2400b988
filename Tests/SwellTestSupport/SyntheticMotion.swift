import Foundation
import SwellEvaluation
import SwellGeometry
import SwellMotion

/// Synthetic IMU data from a known trajectory: the rotation is integrated exactly from a smooth
/// body rate, the gyroscope reads that rate plus bias and noise, the accelerometer reads
/// R⁻¹(g + a) (specific force, m/s²), the magnetometer R⁻¹(m_earth) (µT, NWU earth field).
public struct SyntheticMotion {
  /// The samples, in time order.
  public var samples: [IMUSample] = []
  /// True attitude, device → NWU, one per sample.
  public var truth: [Quaternion] = []

  /// The Earth's field used, µT, NWU (x north, z up): 20 µT north, 44 µT down.
  public static let earthField = Vector3(20, 0, -44)

  /// How the motion is made.
  public struct Options: Sendable {
    /// Sample rate, Hz.
    public var rateHz = 100.0
    /// Length, seconds.
    public var duration = 60.0
    /// Sample-interval jitter, a fraction of the interval (uniform, ±).
    public var jitter = 0.0
    /// Gyroscope bias, rad/s, device frame.
    public var bias = Vector3.zero
    /// Gyroscope noise, rad/s (standard deviation).
    public var gyroNoise = 0.002
    /// Accelerometer noise, m/s² (standard deviation).
    public var accNoise = 0.02
    /// Magnetometer noise, µT (standard deviation).
    public var magNoise = 0.2
    /// Seconds at rest before the motion starts.
    public var restDuration = 5.0
    /// Scale of the body rate.
    public var amplitude = 1.0
    /// The attitude at the start, device → NWU.
    public var initial = Quaternion.identity
    /// Extra specific force (m/s², Earth frame) as a function of time.
    public var extraAcceleration: @Sendable (Double) -> Vector3 = { _ in .zero }
    /// Extra magnetic field (µT, device frame) as a function of time.
    public var extraField: @Sendable (Double) -> Vector3 = { _ in .zero }
    /// How far the magnetometer lags the other sensors, seconds (its reading is the field at
    /// the attitude of that long ago, interpolated linearly between samples).
    public var magnetometerDelay = 0.0

    /// Options; each defaults to 60 s at 100 Hz after 5 s at rest, small noise, no bias.
    ///
    /// - Parameters: The properties of the same names.
    public init(
      rateHz: Double = 100, duration: Double = 60, jitter: Double = 0, bias: Vector3 = .zero,
      gyroNoise: Double = 0.002, accNoise: Double = 0.02, magNoise: Double = 0.2,
      restDuration: Double = 5, amplitude: Double = 1, initial: Quaternion = .identity,
      extraAcceleration: @escaping @Sendable (Double) -> Vector3 = { _ in .zero },
      extraField: @escaping @Sendable (Double) -> Vector3 = { _ in .zero },
      magnetometerDelay: Double = 0
    ) {
      self.rateHz = rateHz
      self.duration = duration
      self.jitter = jitter
      self.bias = bias
      self.gyroNoise = gyroNoise
      self.accNoise = accNoise
      self.magNoise = magNoise
      self.restDuration = restDuration
      self.amplitude = amplitude
      self.initial = initial
      self.extraAcceleration = extraAcceleration
      self.extraField = extraField
      self.magnetometerDelay = magnetometerDelay
    }
  }

  /// Makes the motion of a seed.
  ///
  /// - Parameters:
  ///   - seed: The random seed.
  ///   - o: The options.
  public init(seed: UInt64, options o: Options) {
    var rng = SplitMix64(seed: seed)
    let phases = (0..<6).map { _ in Double.random(in: 0...(2 * Double.pi), using: &rng) }
    let freqs = (0..<3).map { _ in Double.random(in: 0.15...0.6, using: &rng) }
    func rate(_ t: Double) -> Vector3 {
      guard t > o.restDuration else { return .zero }
      let s = min(1, (t - o.restDuration) / 2) * o.amplitude
      return Vector3(
        s * (1.2 * sin(freqs[0] * 2 * .pi * t + phases[0]) + 0.4 * sin(1.7 * t + phases[3])),
        s * (1.0 * sin(freqs[1] * 2 * .pi * t + phases[1]) + 0.3 * sin(2.3 * t + phases[4])),
        s * (1.5 * sin(freqs[2] * 2 * .pi * t + phases[2]) + 0.5 * sin(1.1 * t + phases[5])))
    }
    func gauss(_ sigma: Double) -> Double {
      let u1 = Double.random(in: 1e-12..<1, using: &rng)
      let u2 = Double.random(in: 0..<1, using: &rng)
      return sigma * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
    var q = o.initial
    var t = 0.0
    let dt0 = 1 / o.rateHz
    // The gyroscope reads the exact mean rate of the last step: log(q_prev⁻¹ q) / dt.
    var w = rate(0)
    while t <= o.duration {
      let f = q.inverseRotate(Vector3(0, 0, standardGravity) + o.extraAcceleration(t))
      let m = q.inverseRotate(Self.earthField) + o.extraField(t)
      samples.append(
        IMUSample(
          timestamp: t,
          gyroscope: w + o.bias
            + Vector3(gauss(o.gyroNoise), gauss(o.gyroNoise), gauss(o.gyroNoise)),
          accelerometer: f + Vector3(gauss(o.accNoise), gauss(o.accNoise), gauss(o.accNoise)),
          magnetometer: m + Vector3(gauss(o.magNoise), gauss(o.magNoise), gauss(o.magNoise))))
      truth.append(q)
      let dt = dt0 * (1 + Double.random(in: -o.jitter...o.jitter, using: &rng))
      // Integration of the body rate over the step (midpoint rule in 10 sub-steps).
      let sub = 10
      let previous = q
      for k in 0..<sub {
        let tm = t + (Double(k) + 0.5) * dt / Double(sub)
        q = (q * Quaternion(rotationVector: rate(tm) * (dt / Double(sub)))).normalized()
      }
      w = (previous.conjugate * q).rotationVector / dt
      t += dt
    }
    if o.magnetometerDelay > 0 { delayMagnetometer(by: o.magnetometerDelay) }
  }

  /// Replaces each magnetometer reading by the one of `delay` seconds earlier (linear
  /// interpolation; the first reading before that).
  private mutating func delayMagnetometer(by delay: Double) {
    let fields = samples.map { $0.magnetometer ?? .zero }
    var j = 0
    for i in samples.indices {
      let t = samples[i].timestamp - delay
      while j + 1 < i && samples[j + 1].timestamp <= t { j += 1 }
      let t0 = samples[j].timestamp
      let t1 = samples[min(j + 1, i)].timestamp
      let f = t1 > t0 ? max(0, min(1, (t - t0) / (t1 - t0))) : 0
      let m = fields[j] + (fields[min(j + 1, i)] - fields[j]) * f
      samples[i] = IMUSample(
        timestamp: samples[i].timestamp, gyroscope: samples[i].gyroscope,
        accelerometer: samples[i].accelerometer, magnetometer: m)
    }
  }
}

/// Heading and inclination error (radians) between two device → NWU attitudes.
public func attitudeErrors(_ estimate: Quaternion, _ truth: Quaternion) -> (
  total: Double, heading: Double, inclination: Double
) {
  OrientationError.radians(estimate: estimate, truth: truth)
}
