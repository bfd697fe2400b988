import Foundation
import SwellGeometry

/// Fusion in a chosen reference frame: an ``AttitudeEstimator`` asked for that frame, with the
/// magnetic declination for true north.
///
/// True north is computed in one place, the estimator (``AttitudeEstimator/Settings/declinationDegrees``):
/// for `xTrueNorthZVertical` the fuser hands the estimator its declination D (degrees, east
/// positive: magnetic north lies D east of true north), and the estimator turns its magnetic
/// attitude about the vertical, `q_true = R_z(−D) ⊗ q_magnetic`, and measures the heading of
/// the turned attitude.
public struct DeviceMotionFuser: Sendable {
  /// The estimator doing the fusion.
  public private(set) var estimator: AttitudeEstimator
  /// The frame of the delivered attitudes.
  public let referenceFrame: AttitudeReferenceFrame
  /// The magnetic declination, degrees, east positive (used for `xTrueNorthZVertical`).
  public let declinationDegrees: Double
  /// The estimator for a source without a gyroscope (``TiltEstimator``), which then fuses every
  /// sample in place of ``estimator``; `nil` when the source has a gyroscope.
  public private(set) var tilt: TiltEstimator?

  /// Creates a fuser.
  ///
  /// - Parameters:
  ///   - mode: 6D or 9D fusion.
  ///   - referenceFrame: The frame of the delivered attitudes.
  ///   - declinationDegrees: Magnetic declination, degrees, east positive (true north only; it
  ///     replaces `settings.declinationDegrees` for that frame).
  ///   - settings: Estimator settings.
  ///   - hasGyroscope: False for a source without a gyroscope (its samples carry a zero one):
  ///     every sample then goes to a ``TiltEstimator``, which follows a tilt at once where the
  ///     fusion filter would take seconds; in 9D (the frames that refer to north) it is a
  ///     tilt-compensated compass.
  public init(
    mode: AttitudeEstimator.Mode, referenceFrame: AttitudeReferenceFrame,
    declinationDegrees: Double = 0, settings: AttitudeEstimator.Settings = .init(),
    hasGyroscope: Bool = true
  ) {
    var settings = settings
    if referenceFrame == .xTrueNorthZVertical { settings.declinationDegrees = declinationDegrees }
    estimator = AttitudeEstimator(mode: mode, settings: settings)
    self.referenceFrame = referenceFrame
    self.declinationDegrees = declinationDegrees
    tilt =
      hasGyroscope
      ? nil
      : TiltEstimator(
        usesMagnetometer: mode == .nineD, declinationDegrees: settings.declinationDegrees)
  }

  /// Starts the estimator's gyroscope bias from a saved value
  /// (``AttitudeEstimator/seedGyroscopeBias(_:sigmaDegreesPerSecond:)``).
  ///
  /// - Parameters:
  ///   - bias: rad/s, device frame.
  ///   - sigmaDegreesPerSecond: Its 1σ uncertainty, degrees per second.
  /// - Returns: True when the seed was taken.
  @discardableResult
  public mutating func seedGyroscopeBias(_ bias: Vector3, sigmaDegreesPerSecond: Double) -> Bool {
    estimator.seedGyroscopeBias(bias, sigmaDegreesPerSecond: sigmaDegreesPerSecond)
  }

  /// Fuses one sample.
  ///
  /// - Parameter sample: The next sample, in time order.
  /// - Returns: Device motion in ``referenceFrame``.
  public mutating func update(_ sample: IMUSample) -> DeviceMotion {
    if var t = tilt {
      let motion = t.update(sample, referenceFrame: referenceFrame)
      tilt = t
      return motion
    }
    return estimator.update(sample, referenceFrame: referenceFrame)
  }
}

extension AttitudeEstimator.Mode {
  /// The one rule that picks 6D or 9D fusion: the frames that refer to north
  /// (`xArbitraryCorrectedZVertical`, `xMagneticNorthZVertical`, `xTrueNorthZVertical`) fuse the
  /// magnetometer (9D); `xArbitraryZVertical` does not (6D), as CoreMotion's frames do. A frame
  /// that needs the magnetometer with a source that has none is an error for the caller
  /// (``MotionManager`` reports `notAvailable`).
  ///
  /// - Parameter referenceFrame: The frame of the attitudes wanted.
  public init(referenceFrame: AttitudeReferenceFrame) {
    self = referenceFrame.needsMagnetometer ? .nineD : .sixD
  }
}

extension MotionManager {
  /// The one 6D/9D decision for fusing raw samples, which the manager makes at every start and
  /// every other path that fuses (``SwellMotion/MotionRecording`` loaded from a file, `swell
  /// fuse`) asks: `override` when given, else ``AttitudeEstimator/Mode/init(referenceFrame:)``;
  /// 9D without a magnetometer is an error, never a silent fall-back to 6D.
  ///
  /// - Parameters:
  ///   - referenceFrame: The frame of the attitudes wanted.
  ///   - override: A mode asked for explicitly (``fusionMode``), or `nil` for the rule.
  ///   - sourceName: The source's name, for the error.
  ///   - hasMagnetometer: Whether the samples carry magnetometer readings.
  /// - Returns: The mode.
  /// - Throws: ``MotionManagerError`` `notAvailable` (109) when the mode is 9D and there is no
  ///   magnetometer.
  public static func fusionMode(
    for referenceFrame: AttitudeReferenceFrame, override: AttitudeEstimator.Mode? = nil,
    sourceName: String, hasMagnetometer: Bool
  ) throws(MotionManagerError) -> AttitudeEstimator.Mode {
    let mode = override ?? AttitudeEstimator.Mode(referenceFrame: referenceFrame)
    if mode == .nineD && !hasMagnetometer {
      throw missingMagnetometer(source: sourceName, frame: referenceFrame)
    }
    return mode
  }
}

extension DeviceMotion {
  /// Device motion between two others: attitude by spherical interpolation, vectors linearly,
  /// heading along the shorter arc (when both are valid), accuracy the lower of the two.
  ///
  /// - Parameters:
  ///   - a: The earlier motion.
  ///   - b: The later motion.
  ///   - fraction: 0 gives `a`, 1 gives `b`.
  /// - Returns: The interpolated motion; its timestamp is interpolated too.
  public static func interpolate(_ a: DeviceMotion, _ b: DeviceMotion, fraction: Double)
    -> DeviceMotion
  {
    let f = fraction
    func lerp(_ x: Vector3, _ y: Vector3) -> Vector3 { x + (y - x) * f }
    var m = a
    m.timestamp = a.timestamp + (b.timestamp - a.timestamp) * f
    m.attitude = Attitude(
      quaternion: a.attitude.quaternion.slerp(to: b.attitude.quaternion, fraction: f))
    m.rotationRate = lerp(a.rotationRate, b.rotationRate)
    m.gravity = lerp(a.gravity, b.gravity)
    m.userAcceleration = lerp(a.userAcceleration, b.userAcceleration)
    m.magneticField = CalibratedMagneticField(
      field: lerp(a.magneticField.field, b.magneticField.field),
      accuracy: a.magneticField.accuracy.rawValue <= b.magneticField.accuracy.rawValue
        ? a.magneticField.accuracy : b.magneticField.accuracy)
    if a.heading >= 0 && b.heading >= 0 {
      var d = (b.heading - a.heading).truncatingRemainder(dividingBy: 360)
      if d > 180 { d -= 360 }
      if d < -180 { d += 360 }
      var h = (a.heading + d * f).truncatingRemainder(dividingBy: 360)
      if h < 0 { h += 360 }
      m.heading = h
    }
    return m
  }

  /// Resamples device motion at a fixed rate, from the first timestamp to the last, by
  /// ``interpolate(_:_:fraction:)``.
  ///
  /// - Parameters:
  ///   - motions: Device motion in time order.
  ///   - rate: Output rate, Hz (> 0).
  /// - Returns: Motions at `t₀ + k / rate`, k = 0, 1, ... while within the input's span.
  public static func resample(_ motions: [DeviceMotion], rate: Double) -> [DeviceMotion] {
    guard let first = motions.first, let last = motions.last, rate > 0, rate.isFinite else {
      return motions
    }
    var out: [DeviceMotion] = []
    let count = Int(((last.timestamp - first.timestamp) * rate + 1e-9).rounded(.down)) + 1
    out.reserveCapacity(count)
    var i = 0
    for k in 0..<count {
      let t = first.timestamp + Double(k) / rate
      while i + 1 < motions.count && motions[i + 1].timestamp <= t { i += 1 }
      if i + 1 >= motions.count || motions[i].timestamp >= t {
        var m = motions[i]
        m.timestamp = t
        out.append(m)
        continue
      }
      let a = motions[i]
      let b = motions[i + 1]
      var m = interpolate(a, b, fraction: (t - a.timestamp) / (b.timestamp - a.timestamp))
      m.timestamp = t
      out.append(m)
    }
    return out
  }
}

extension MotionRecording {
  /// Device motion from the recording: raw samples are fused on the way (every sample), device
  /// motion passes through unchanged (its own frame is kept). Samples without a gyroscope
  /// (``hasGyroscope`` false) go to a ``TiltEstimator``.
  ///
  /// - Parameters:
  ///   - mode: 6D or 9D fusion (raw recordings only).
  ///   - referenceFrame: The frame of the fused attitudes (raw recordings only).
  ///   - declinationDegrees: Magnetic declination, degrees, east positive, for
  ///     `xTrueNorthZVertical`.
  ///   - settings: Estimator settings.
  ///   - progress: Called now and then with the fraction done, 0...1.
  /// - Returns: Device motion in time order.
  public func deviceMotion(
    mode: AttitudeEstimator.Mode = .sixD,
    referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical,
    declinationDegrees: Double = 0, settings: AttitudeEstimator.Settings = .init(),
    progress: (Double) -> Void = { _ in }
  ) -> [DeviceMotion] {
    switch content {
    case .deviceMotion(let motions, _):
      return motions
    case .samples(let samples):
      var fuser = DeviceMotionFuser(
        mode: mode, referenceFrame: referenceFrame, declinationDegrees: declinationDegrees,
        settings: settings, hasGyroscope: hasGyroscope)
      var out: [DeviceMotion] = []
      out.reserveCapacity(samples.count)
      let step = max(1, samples.count / 100)
      for (i, s) in samples.enumerated() {
        out.append(fuser.update(s))
        if i % step == 0 { progress(Double(i) / Double(samples.count)) }
      }
      progress(1)
      return out
    }
  }
}

/// ``DeviceMotion/resample(_:rate:)`` one sample at a time: the same output, holding two samples
/// instead of the whole recording (for `swell fuse --rate` of a long recording).
public struct DeviceMotionResampler: Sendable {
  /// The output rate, Hz.
  public let rate: Double
  private var first: Double?
  private var previous: DeviceMotion?
  private var k = 0

  /// Creates a resampler.
  ///
  /// - Parameter rate: Output rate, Hz (positive and finite).
  public init(rate: Double) {
    precondition(rate > 0 && rate.isFinite, "rate must be positive and finite")
    self.rate = rate
  }

  private func gridTime(_ k: Int) -> Double { (first ?? 0) + Double(k) / rate }

  /// Takes the next sample and returns the grid samples that lie before it.
  ///
  /// - Parameter motion: The next sample, timestamps increasing.
  /// - Returns: Interpolated samples at `t₀ + k / rate` before `motion`'s time.
  public mutating func add(_ motion: DeviceMotion) -> [DeviceMotion] {
    guard let a = previous else {
      first = motion.timestamp
      previous = motion
      return []
    }
    var out: [DeviceMotion] = []
    while true {
      let t = gridTime(k)
      guard t < motion.timestamp else { break }
      var m: DeviceMotion
      if a.timestamp >= t {
        m = a
      } else {
        m = DeviceMotion.interpolate(
          a, motion, fraction: (t - a.timestamp) / (motion.timestamp - a.timestamp))
      }
      m.timestamp = t
      out.append(m)
      k += 1
    }
    previous = motion
    return out
  }

  /// The grid samples left after the last input sample.
  ///
  /// - Returns: Copies of the last sample at the remaining grid times up to its time.
  public mutating func finish() -> [DeviceMotion] {
    guard let last = previous, let first else { return [] }
    let count = Int(((last.timestamp - first) * rate + 1e-9).rounded(.down)) + 1
    var out: [DeviceMotion] = []
    while k < count {
      var m = last
      m.timestamp = gridTime(k)
      out.append(m)
      k += 1
    }
    return out
  }
}
