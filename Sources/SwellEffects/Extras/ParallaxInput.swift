import Foundation
import SwellGeometry
import SwellMotion

/// parallax.js's gyroscope input model, with its friction made time-based
/// (`wagerfield/parallax` `src/parallax.js`, v3.1.0).
///
/// From each attitude it takes the W3C `deviceorientation` angles (β about x, γ about y,
/// degrees), divides them by 30° (parallax.js's "magic number"), subtracts the calibration on
/// the calibrated axes, and eases a smoothed value toward the result. In portrait the x input is
/// γ (right edge down is positive) and the y input is β.
///
/// **Friction:** parallax.js runs `velocity += (motion − velocity) · friction` once per
/// animation frame, so its smoothing depends on the frame rate. Here the same per-frame
/// friction is taken as defined at ``Options/frictionReferenceRate`` (60 Hz) and applied over
/// any step Δt as `α = 1 − (1 − friction)^(Δt · rate)`: the same curve at every frame rate.
///
/// **Calibration:** the calibrated axes (`calibrateX` false, `calibrateY` true by default) take
/// the first sample at or after ``Options/calibrationDelay`` as their zero and read 0 before it;
/// the calibration is taken again when a calibrated input moves farther than
/// ``Options/calibrationThreshold``, or by ``calibrate()``.
public struct ParallaxInput: Hashable, Sendable {
  /// The options, with parallax.js's defaults.
  public struct Options: Hashable, Sendable, Codable {
    /// Make x relative to its calibration (`calibrateX`, default false).
    public var calibrateX = false
    /// Make y relative to its calibration (`calibrateY`, default true).
    public var calibrateY = true
    /// Recalibrate when a calibrated input exceeds this, input units (`calibrationThreshold`,
    /// default 100).
    public var calibrationThreshold = 100.0
    /// Seconds from the first sample until the calibration is taken (`calibrationDelay`,
    /// default 0.5 s).
    public var calibrationDelay = 0.5
    /// The tilt giving one unit of input, degrees (parallax.js's magic number 30).
    public var degreesPerUnit = 30.0
    /// Per-frame friction on x at ``frictionReferenceRate`` (`frictionX`, default 0.1); 1 is
    /// no smoothing.
    public var frictionX = 0.1
    /// Per-frame friction on y (`frictionY`, default 0.1).
    public var frictionY = 0.1
    /// The frame rate the frictions are defined at, Hz (default 60, a browser's rAF).
    public var frictionReferenceRate = 60.0

    /// Creates parallax.js's default options.
    public init() {}
  }

  /// The options.
  public var options: Options
  /// The latest raw input before calibration and smoothing (x: γ/30°, y: β/30°).
  public private(set) var rawInput = ViewerOffset.zero
  /// The calibration subtracted on the calibrated axes, input units.
  public private(set) var calibration = ViewerOffset.zero
  /// The smoothed input (parallax.js's velocity divided by the scale); starts at zero.
  public private(set) var input = ViewerOffset.zero
  private var target = ViewerOffset.zero
  private var firstTime: Double?
  private var lastTime: Double?
  private var isCalibrated = false

  /// Creates an input model.
  ///
  /// - Parameter options: The options (default parallax.js's).
  public init(options: Options = Options()) { self.options = options }

  /// The W3C `deviceorientation` β and γ of an attitude, degrees: β in [−180, 180) about the
  /// device x axis (90 upright), γ in [−90, 90) about y (positive with the right edge down).
  ///
  /// - Parameter attitude: Device → reference attitude (reference z up).
  /// - Returns: (β, γ), degrees.
  public static func betaGamma(of attitude: Attitude) -> (beta: Double, gamma: Double) {
    let q = attitude.quaternion
    let xz = q.rotate(.unitX).z
    let yz = q.rotate(.unitY).z
    let zz = q.rotate(.unitZ).z
    // R = Rz(α)·Rx(β)·Ry(γ): R20 = −cosβ·sinγ, R21 = sinβ, R22 = cosβ·cosγ.
    let gamma = zz == 0 ? -Double.pi / 2 : atan(-xz / zz)
    let cosGamma = cos(gamma)
    var beta = atan2(min(1, max(-1, yz)), cosGamma > 1e-12 ? zz / cosGamma : 0)
    if beta >= .pi { beta = -.pi }
    return (beta * 180 / .pi, gamma * 180 / .pi)
  }

  /// Takes an attitude sample.
  ///
  /// - Parameters:
  ///   - attitude: Device → reference attitude.
  ///   - timestamp: Seconds, increasing.
  public mutating func receive(_ attitude: Attitude, timestamp: Double) {
    let (beta, gamma) = ParallaxInput.betaGamma(of: attitude)
    let unit = options.degreesPerUnit > 0 ? options.degreesPerUnit : 30
    rawInput = ViewerOffset(horizontal: gamma / unit, vertical: beta / unit)
    if firstTime == nil { firstTime = timestamp }
    if !isCalibrated, let t0 = firstTime, timestamp - t0 >= options.calibrationDelay - 1e-9 {
      calibrate()
    }
    var h = rawInput.horizontal
    var v = rawInput.vertical
    if options.calibrateX { h = isCalibrated ? h - calibration.horizontal : 0 }
    if options.calibrateY { v = isCalibrated ? v - calibration.vertical : 0 }
    if isCalibrated
      && ((options.calibrateX && abs(h) > options.calibrationThreshold)
        || (options.calibrateY && abs(v) > options.calibrationThreshold))
    {
      calibrate()
      if options.calibrateX { h = 0 }
      if options.calibrateY { v = 0 }
    }
    target = ViewerOffset(horizontal: h, vertical: v)
    advance(to: timestamp)
  }

  /// Takes the current raw input as the calibration (parallax.js `calibrate`).
  public mutating func calibrate() {
    calibration = rawInput
    isCalibrated = true
  }

  /// Eases the smoothed input toward the latest target up to a time.
  ///
  /// - Parameter time: Seconds; earlier times than the last step change nothing.
  /// - Returns: The smoothed input.
  @discardableResult
  public mutating func advance(to time: Double) -> ViewerOffset {
    guard let last = lastTime else {
      lastTime = time
      return input
    }
    let dt = time - last
    guard dt > 0, dt.isFinite else { return input }
    lastTime = time
    let rate = options.frictionReferenceRate
    func alpha(_ friction: Double) -> Double {
      let f = min(1, max(0, friction))
      return 1 - pow(1 - f, dt * rate)
    }
    input.horizontal += (target.horizontal - input.horizontal) * alpha(options.frictionX)
    input.vertical += (target.vertical - input.vertical) * alpha(options.frictionY)
    return input
  }
}
