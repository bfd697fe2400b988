import Foundation
import SwellGeometry

/// Sensor fusion: turns raw ``IMUSample``s into CoreMotion-style ``DeviceMotion``.
///
/// Feed samples in timestamp order with ``update(_:referenceFrame:)``; each call returns the
/// device motion at that sample. 6D mode uses gyroscope and accelerometer; 9D mode also uses the
/// magnetometer for heading when samples carry one.
///
/// The method follows the ideas of Laidig & Seel, "VQF: Highly accurate IMU orientation
/// estimation with bias estimation and magnetic disturbance rejection", Information Fusion 91
/// (2023): strapdown integration of the bias-corrected gyroscope; the accelerometer low-pass
/// filtered in an almost-inertial frame, so that translational accelerations, vibration and taps
/// average out; separate inclination and heading corrections; online gyroscope bias estimation
/// by a Kalman filter (from the inclination corrections in motion, from the mean rate at rest);
/// magnetic disturbance detection from the field's norm and dip angle. See `docs/fusion.md`.
///
/// Bad input never produces NaN and the quaternion stays unit:
/// - a sample with a non-finite timestamp or gyroscope, or a timestamp earlier than the previous
///   one, is skipped (the state is held; the returned motion repeats the held attitude);
/// - a zero or non-finite accelerometer (or magnetometer) reading skips only that correction;
/// - `dt = 0` (a repeated timestamp) integrates nothing; a gap longer than
///   ``Settings/maximumGap`` is not integrated across (the attitude is held over the gap).
public struct AttitudeEstimator: Sendable {
  /// Tuning parameters, in physical units. The defaults serve every sampling rate from 25 to
  /// 1000 Hz; the same values were used for every BROAD trial.
  public struct Settings: Sendable, Hashable {
    /// Time constant of the accelerometer (inclination) low-pass and correction, seconds.
    public var accelerometerTimeConstant: Double = 3
    /// Time constant of the magnetometer (heading) correction, seconds.
    public var magnetometerTimeConstant: Double = 30
    /// Whether the gyroscope bias is estimated online.
    public var estimatesGyroscopeBias = true
    /// Largest gyroscope bias accepted, degrees per second (per axis).
    public var biasLimitDegreesPerSecond: Double = 2
    /// Whether the gyroscope's per-axis scale-factor errors are estimated online too (from the
    /// inclination corrections in motion).
    public var estimatesGyroscopeScale = true
    /// Standard deviation of the scale-factor error before any estimate (a fraction, 0.01 = 1 %).
    public var scaleInitialSigma: Double = 0.02
    /// How far the scale-factor error may drift in ``biasForgettingTime`` (a fraction, 1σ).
    public var scaleDriftSigma: Double = 0.001
    /// Largest scale-factor error accepted (a fraction).
    public var scaleLimit: Double = 0.05
    /// Standard deviation of the bias before any estimate, degrees per second.
    public var biasInitialSigmaDegreesPerSecond: Double = 0.5
    /// How far the bias may drift in ``biasForgettingTime``, degrees per second (1σ).
    public var biasDriftSigmaDegreesPerSecond: Double = 0.1
    /// The time over which the bias may drift by ``biasDriftSigmaDegreesPerSecond``, seconds.
    public var biasForgettingTime: Double = 100
    /// Steady-state uncertainty of the bias estimated in motion, degrees per second.
    public var biasMotionSigmaDegreesPerSecond: Double = 0.1
    /// Steady-state uncertainty of the bias estimated at rest, degrees per second.
    public var biasRestSigmaDegreesPerSecond: Double = 0.03
    /// Time constant of the rest detector's low-pass filters, seconds.
    public var restFilterTimeConstant: Double = 0.5
    /// How long the device must be still before it counts as at rest, seconds.
    public var restMinimumDuration: Double = 1.5
    /// Largest deviation of the gyroscope from its mean at rest, degrees per second.
    public var restGyroscopeThresholdDegreesPerSecond: Double = 2
    /// Largest deviation of the accelerometer from its mean at rest, m/s².
    public var restAccelerometerThreshold: Double = 0.5
    /// Whether magnetic disturbances (a magnet nearby or attached) are detected and the heading
    /// correction paused during them.
    public var rejectsMagneticDisturbances = true
    /// Whether the magnetometer's delay relative to the gyroscope (9D) is estimated online and
    /// compensated. MEMS magnetometers sample slower and filter internally, so their readings
    /// lag (BROAD's by about 12 ms); during a fast turn a lag of δ turns the measured field by
    /// |ω|·δ. The delay (0-50 ms) is the slope of the field's deviation from its recent mean
    /// against ω × m, accumulated over about 100 s while the field is undisturbed.
    public var estimatesMagnetometerDelay = true
    /// Whether the accelerometer's lever arm (its offset from the centre of rotation, device
    /// frame) is estimated online and the centripetal and tangential accelerations it causes,
    /// `ω × (ω × r) + α × r`, are removed from the accelerometer before the inclination filter.
    /// A device held in the hand turns about the wrist or elbow, 0.1-0.2 m away; at 2 rad/s that
    /// is 0.4-0.8 m/s², which the inclination filter would otherwise partly read as tilt (and
    /// the scale estimate as a gyroscope error). On by default: on BROAD it lowers the 9D
    /// error and its sensitivity to the other settings (the worst per-trial range under ±20 %
    /// setting changes falls from 3.2° to 2.0°), at the cost of the 6D error of the fastest trial
    /// (see `docs/fusion.md`).
    public var estimatesLeverArm = true
    /// Time over which the lever-arm regression averages, seconds.
    public var leverArmTimeConstant: Double = 100
    /// Rotation rate below which the lever-arm evidence counts little, rad/s: the regression is
    /// shrunk toward zero by a prior equal to this rate to the fourth power (s⁻⁴).
    public var leverArmMinimumRate: Double = 1
    /// Non-gravitational acceleration at which the bias and scale filter's motion measurement
    /// counts half, m/s² (fusion v3): its variance is multiplied by 1 + a²/scale², a² the
    /// period's mean squared difference between the specific force and the low-passed vertical.
    /// Zero or less turns the weighting off, the default: on the tuning half of BROAD every
    /// scale tried (1-5 m/s²) was worse (it helps fast rotation in 6D but costs the trials whose
    /// heading needs the scale estimate; `docs/fusion.md`).
    public var biasMotionAccelerationScale: Double = 0
    /// Whether a filter period holding a tap neither ends nor extends a rest and stays out of
    /// the rest detector's low-pass (fusion v3's filter-period tap rule). A tap is a correction
    /// block whose accelerometer variance is above ``tapVariance`` and four times the median of
    /// the last 0.25 s of blocks. It keeps taps from ending rests (injected taps cost fusion v2
    /// +3.4°) and changes no clean BROAD trial by more than 0.01° (`docs/fusion.md`).
    public var restIgnoresTaps = true
    /// The accelerometer variance within a correction block above which (and above four times
    /// the median of the last 0.25 s of blocks) the block is a tap, (m/s²)². Fusion v3 used 2,
    /// which BROAD's hand motion also reaches (2-10 in a 20 ms block, about 200 blocks per
    /// trial in fast rotation and translation; its real taps: a median of 39), so real jerks
    /// were down-weighted in the inclination. 10, chosen by leave-one-out over the twelve
    /// given trials (fusion v4, `docs/fusion.md`).
    public var tapVariance: Double = 10
    /// Whether a tap block (see ``restIgnoresTaps``) is pulled toward the inclination
    /// low-pass's output by its weight, reference variance / block variance (fusion v3).
    public var inclinationDownWeightsTaps = true
    /// Whether a tap block's terms in the lever-arm regression are scaled by its weight
    /// (fusion v3; see ``inclinationDownWeightsTaps``).
    public var leverArmDownWeightsTaps = true
    /// Longest time step integrated, seconds; longer gaps hold the attitude.
    public var maximumGap: Double = 0.5
    /// How often the correction filters run, seconds: the gyroscope is integrated at every
    /// sample, while the inclination and heading corrections, the rest detector, the bias and
    /// scale filter and the lever arm work on the means of blocks of about this duration
    /// (whole samples, at least one). Their time constants are seconds, so 20 ms blocks lose
    /// nothing measurable (see `docs/fusion.md`) and make fusion several times faster than
    /// correcting at every sample (0).
    public var correctionInterval: Double = 0.02
    /// How often the slow filters run, seconds: the rest detector, the bias and scale Kalman
    /// filter and the heading logic work on the means of the correction blocks over about this
    /// duration (whole blocks, at least one). Their time constants are 0.5-30 s. The default,
    /// 0.02 s (one period per correction block), is the candidate closest to correcting at every
    /// sample: on the trials the defaults were tuned on, 0.02 s and 0.1 s are equal within
    /// 0.01°, and 0.1 s is faster but loses accuracy on the fastest motion (see
    /// `docs/fusion.md`).
    public var filterInterval: Double = 0.02
    /// Magnetic declination, degrees east of true north, for ``AttitudeReferenceFrame/xTrueNorthZVertical``;
    /// `nil` when unknown (that frame is then unavailable; see ``AttitudeEstimator/supports(_:)``).
    public var declinationDegrees: Double?

    /// Creates the default settings.
    public init() {}
  }

  /// Which sensors the estimator fuses.
  public enum Mode: Sendable, Hashable {
    /// Gyroscope and accelerometer; heading is relative to the start.
    case sixD
    /// Gyroscope, accelerometer and magnetometer; heading is magnetic.
    case nineD
  }

  /// The settings in use.
  public let settings: Settings
  /// The fusion mode.
  public let mode: Mode
  @usableFromInline var core: FusionCore
  private var arbitraryHeadingOffset: Double?
  private var lastGyroscope = Vector3.zero
  private var lastAccelerometer = Vector3(0, 0, standardGravity)
  private var lastMagnetometer: Vector3?

  /// Creates an estimator.
  ///
  /// - Parameters:
  ///   - mode: 6D or 9D fusion.
  ///   - settings: Tuning parameters.
  public init(mode: Mode = .sixD, settings: Settings = Settings()) {
    self.mode = mode
    self.settings = settings
    core = FusionCore(settings: settings, useMagnetometer: mode == .nineD)
  }

  /// Forgets all state (attitude, bias, rest and disturbance state), keeping mode and settings.
  public mutating func reset() {
    self = AttitudeEstimator(mode: mode, settings: settings)
  }

  /// Starts the gyroscope bias estimate from a value known from an earlier run (a saved
  /// calibration, ``GyroscopeCalibrationStore``) instead of zero with
  /// ``Settings/biasInitialSigmaDegreesPerSecond``: the bias is subtracted from the next sample
  /// on, and the bias filter refines it from there with the given uncertainty.
  ///
  /// Call it before the first sample; later it replaces the running estimate (and its
  /// uncertainty) all the same. ``reset()`` forgets it. An estimator never seeded is unchanged
  /// by this method's existence: its outputs are those of the default start. A bias whose
  /// component is not finite, or a sigma that is not finite and positive, is refused (returns
  /// false, nothing changes). Each component is clamped to
  /// ``Settings/biasLimitDegreesPerSecond``, the sigma to at most the initial sigma. With
  /// ``Settings/estimatesGyroscopeBias`` off the seeded bias is subtracted but never refined.
  ///
  /// - Parameters:
  ///   - bias: The gyroscope bias, rad/s, device frame (as ``gyroscopeBias``).
  ///   - sigmaDegreesPerSecond: Its 1σ uncertainty per axis, degrees per second (> 0).
  /// - Returns: True when the seed was taken.
  @discardableResult
  public mutating func seedGyroscopeBias(_ bias: Vector3, sigmaDegreesPerSecond: Double) -> Bool {
    guard bias.x.isFinite, bias.y.isFinite, bias.z.isFinite, sigmaDegreesPerSecond.isFinite,
      sigmaDegreesPerSecond > 0
    else { return false }
    core.seedBias((bias.x, bias.y, bias.z), sigma: sigmaDegreesPerSecond * Double.pi / 180)
    return true
  }

  /// The attitude estimate in the 6D frame: device → Earth, z up, heading relative to the start
  /// (the ``AttitudeReferenceFrame/xArbitraryZVertical`` frame).
  public var quaternion: Quaternion { core.attitude6D }

  /// The attitude estimate device → magnetic NWU (x magnetic north, y west, z up); equal to
  /// ``quaternion`` in 6D mode or before the first magnetometer sample.
  public var northQuaternion: Quaternion {
    mode == .nineD ? core.attitude9D : core.attitude6D
  }

  /// The estimated gyroscope bias, rad/s, device frame.
  public var gyroscopeBias: Vector3 { Vector3(core.bx, core.by, core.bz) }

  /// The estimated per-axis scale-factor errors of the gyroscope, as fractions (0.01 = 1 %,
  /// device frame); the corrected rate is `(raw − bias)·(1 + error)`. Zero when
  /// ``Settings/estimatesGyroscopeScale`` is off.
  public var gyroscopeScaleError: Vector3 { Vector3(core.sx, core.sy, core.sz) }

  /// The 1σ uncertainty of the bias estimate per device axis, rad/s.
  public var gyroscopeBiasSigma: Vector3 {
    Vector3(
      max(core.kp[0], 0).squareRoot(), max(core.kp[7], 0).squareRoot(),
      max(core.kp[14], 0).squareRoot())
  }

  /// The estimated delay of the magnetometer behind the gyroscope, seconds (0 in 6D mode or
  /// when ``Settings/estimatesMagnetometerDelay`` is off).
  public var magnetometerDelay: Double { core.magDelay }

  /// The estimated lever arm of the accelerometer, metres, device frame: its offset from the
  /// centre of rotation (zero when ``Settings/estimatesLeverArm`` is off).
  public var accelerometerLeverArm: Vector3 { Vector3(core.leverX, core.leverY, core.leverZ) }

  /// True while the rest detector finds the device still.
  public var isAtRest: Bool { core.atRest }

  /// True while the magnetic field disagrees with the accepted reference field (9D), so that
  /// heading corrections are paused. False before a field is accepted (see
  /// ``hasMagneticReference``).
  public var isMagneticallyDisturbed: Bool { core.magReference.state == .disturbed }

  /// True once a magnetic field has been accepted as the reference (9D): its norm and dip angle
  /// stayed steady while the device turned through about 115°. Until then the heading follows
  /// the current field at reduced gain and nothing is rejected, so a magnet beside the device
  /// at start-up cannot poison the reference.
  public var hasMagneticReference: Bool { core.magReference.hasReference }

  /// The accepted reference field's norm (µT) and dip angle (radians, positive when the field
  /// points up, so negative in the northern hemisphere), or `nil` before a field is accepted.
  public var magneticReference: (norm: Double, dipRadians: Double)? {
    let r = core.magReference
    return r.hasReference ? (r.referenceNorm, r.referenceDip) : nil
  }

  /// Whether this estimator can produce attitudes in a reference frame: the magnetic frames need
  /// 9D mode, true north also needs ``Settings/declinationDegrees``.
  ///
  /// - Parameter referenceFrame: The frame asked for.
  /// - Returns: False for a frame the mode or settings cannot serve.
  public func supports(_ referenceFrame: AttitudeReferenceFrame) -> Bool {
    switch referenceFrame {
    case .xArbitraryZVertical: true
    case .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical: mode == .nineD
    case .xTrueNorthZVertical: mode == .nineD && settings.declinationDegrees != nil
    }
  }

  /// Processes one sample and returns the device motion at its timestamp.
  ///
  /// - Parameters:
  ///   - sample: The next sample; its timestamp must not be earlier than the previous one
  ///     (an earlier one is skipped and the held state returned).
  ///   - referenceFrame: The frame the returned attitude is expressed in. A frame the estimator
  ///     does not ``supports(_:)`` gives the nearest it can: the 6D attitude for magnetic frames
  ///     in 6D mode, magnetic north for true north without a declination, with `heading` −1.
  /// - Returns: Device motion in CoreMotion's units and signs.
  public mutating func update(
    _ sample: IMUSample, referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical
  ) -> DeviceMotion {
    let a = sample.accelerometer
    let g = sample.gyroscope
    let m = sample.magnetometer
    let accepted = core.step(
      t: sample.timestamp, gx: g.x, gy: g.y, gz: g.z, ax: a.x, ay: a.y, az: a.z,
      mx: m?.x ?? .nan, my: m?.y ?? .nan, mz: m?.z ?? .nan, hasMag: m != nil)
    if accepted {
      lastGyroscope = g
      if a.x.isFinite && a.y.isFinite && a.z.isFinite { lastAccelerometer = a }
      if let m, m.x.isFinite, m.y.isFinite, m.z.isFinite { lastMagnetometer = m }
    }
    return deviceMotion(
      timestamp: sample.timestamp.isFinite ? sample.timestamp : core.lastTimestamp,
      referenceFrame: referenceFrame)
  }

  /// Processes many samples at once and returns the attitude after each, device → magnetic NWU
  /// in 9D mode (after the first magnetometer sample) and device → the 6D frame otherwise.
  ///
  /// The fast path for offline fusion, evaluation and benchmarks: no ``DeviceMotion`` is built.
  ///
  /// - Parameter samples: Samples in timestamp order.
  /// - Returns: One unit quaternion per sample.
  public mutating func attitudes(for samples: [IMUSample]) -> [Quaternion] {
    var out = [Quaternion](repeating: .identity, count: samples.count)
    out.withUnsafeMutableBufferPointer { buffer in
      samples.withUnsafeBufferPointer { input in
        for i in 0..<input.count {
          let s = input[i]
          let m = s.magnetometer
          core.step(
            t: s.timestamp, gx: s.gyroscope.x, gy: s.gyroscope.y, gz: s.gyroscope.z,
            ax: s.accelerometer.x, ay: s.accelerometer.y, az: s.accelerometer.z,
            mx: m?.x ?? .nan, my: m?.y ?? .nan, mz: m?.z ?? .nan, hasMag: m != nil)
          buffer[i] = northQuaternion
        }
      }
    }
    if let s = samples.last {
      lastGyroscope = s.gyroscope
      lastAccelerometer = s.accelerometer
      lastMagnetometer = s.magnetometer
    }
    return out
  }

  /// Processes samples given as flat arrays of `Double` (the layout of a loaded recording) and
  /// writes the attitude after each, as ``attitudes(for:)`` does.
  ///
  /// - Parameters:
  ///   - timestamps: Seconds, one per sample.
  ///   - gyroscope: rad/s, three values per sample (x, y, z), device frame.
  ///   - accelerometer: m/s², three values per sample.
  ///   - magnetometer: µT, three values per sample, or `nil` (6D input); NaN values mark a
  ///     sample without a magnetometer reading.
  ///   - output: Receives w, x, y, z per sample; must hold `4 × timestamps.count` values.
  public mutating func attitudes(
    timestamps: UnsafeBufferPointer<Double>, gyroscope: UnsafeBufferPointer<Double>,
    accelerometer: UnsafeBufferPointer<Double>, magnetometer: UnsafeBufferPointer<Double>?,
    output: UnsafeMutableBufferPointer<Double>
  ) {
    let n = min(
      timestamps.count, gyroscope.count / 3, accelerometer.count / 3, output.count / 4,
      magnetometer.map { $0.count / 3 } ?? Int.max)
    let nine = mode == .nineD
    for i in 0..<n {
      let j = 3 * i
      let hasMag = magnetometer != nil
      core.step(
        t: timestamps[i], gx: gyroscope[j], gy: gyroscope[j + 1], gz: gyroscope[j + 2],
        ax: accelerometer[j], ay: accelerometer[j + 1], az: accelerometer[j + 2],
        mx: magnetometer?[j] ?? .nan, my: magnetometer?[j + 1] ?? .nan,
        mz: magnetometer?[j + 2] ?? .nan, hasMag: hasMag)
      let q = nine ? core.attitude9D : core.attitude6D
      output[4 * i] = q.w
      output[4 * i + 1] = q.x
      output[4 * i + 2] = q.y
      output[4 * i + 3] = q.z
    }
  }

  /// The device motion of the current state.
  @inline(__always)
  private mutating func deviceMotion(
    timestamp: Double, referenceFrame: AttitudeReferenceFrame
  ) -> DeviceMotion {
    let q6 = core.attitude6D
    var q = q6
    var heading = -1.0
    let magnetic = mode == .nineD && core.magInitialised
    switch referenceFrame {
    case .xArbitraryZVertical:
      q = q6
    case .xArbitraryCorrectedZVertical:
      if magnetic {
        let offset = arbitraryHeadingOffset ?? core.headingOffset
        arbitraryHeadingOffset = offset
        q = Self.rotationZ(core.headingOffset - offset) * q6
      }
    case .xMagneticNorthZVertical:
      if magnetic {
        q = core.attitude9D
        heading = Self.heading(of: q)
      }
    case .xTrueNorthZVertical:
      if magnetic {
        q = core.attitude9D
        if let d = settings.declinationDegrees, d.isFinite {
          // Magnetic north lies d degrees east (clockwise from above) of true north.
          q = Self.rotationZ(-d * Double.pi / 180) * q
          heading = Self.heading(of: q)
        }
      }
    }
    let gravity = q6.inverseRotate(Vector3(0, 0, -1))
    let total = lastAccelerometer * (-1 / standardGravity)
    let rate = core.correctedRate(lastGyroscope)
    var field = CalibratedMagneticField(field: .zero, accuracy: .uncalibrated)
    if mode == .nineD, core.magInitialised, let m = lastMagnetometer {
      let r = core.magReference
      let accuracy: MagneticFieldCalibrationAccuracy =
        switch r.state {
        case .disturbed: .low
        case .searching: .medium
        case .undisturbed: r.undisturbedTime >= 5 ? .high : .medium
        }
      field = CalibratedMagneticField(field: m, accuracy: accuracy)
    }
    return DeviceMotion(
      timestamp: timestamp, attitude: Attitude(quaternion: q), rotationRate: rate,
      gravity: gravity, userAcceleration: total - gravity, magneticField: field,
      heading: heading, referenceFrame: referenceFrame)
  }

  /// The rotation by `angle` radians about the reference z axis.
  static func rotationZ(_ angle: Double) -> Quaternion {
    Quaternion(w: cos(angle / 2), x: 0, y: 0, z: sin(angle / 2))
  }

  /// The compass heading, degrees clockwise from north in 0..<360, of the device's top (+y)
  /// axis, or of its back (−z) when the top points straight up or down.
  static func heading(of q: Quaternion) -> Double {
    var v = q.rotate(.unitY)
    if v.x * v.x + v.y * v.y < 1e-8 { v = q.rotate(Vector3(0, 0, -1)) }
    // NWU: north is +x, east is −y.
    var h = atan2(-v.y, v.x) * 180 / Double.pi
    if h < 0 { h += 360 }
    if h >= 360 { h -= 360 }
    return h.isFinite ? h : 0
  }
}
