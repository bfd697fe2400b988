import Foundation
import SwellGeometry

/// A direction the keyboard tilts the simulated device.
public enum TiltDirection: Hashable, Sendable, CaseIterable {
  /// Raise the top edge toward the viewer: pitch increases.
  case up
  /// Lower the top edge away from the viewer: pitch decreases.
  case down
  /// Tip toward the left side: roll decreases.
  case left
  /// Tip toward the right side: roll increases.
  case right
}

/// Simulated device motion for desktops: a phone held in a neutral pose that arrow keys or the
/// mouse pointer tilt, eased over time, producing consistent ``DeviceMotion`` (attitude,
/// gravity, and rotation rate as the exact derivative of the attitude).
///
/// The attitude is `Rx(neutralPitch + pitch) ⊗ Ry(roll)` in an `xArbitraryZVertical` frame, so
/// CoreMotion's Euler angles read back `pitch = neutralPitch + pitch` (about device x) and
/// `roll = roll` (about device y). The tilt follows its target as a critically damped spring
/// with angular frequency ``responseRate``, solved in closed form: the state at a time does not
/// depend on how often it is sampled. Time is handed in (seconds); nothing reads the wall clock.
public struct TiltController: Hashable, Sendable {
  /// The pitch of the neutral pose, radians (default π/4: a phone held at a reading angle).
  public var neutralPitch: Double
  /// How far one key press moves the target, radians (default 5°).
  public var stepAngle: Double
  /// The largest tilt from the neutral pose on each axis, radians (default 45°).
  public var maximumAngle: Double
  /// The spring's angular frequency, 1/s (default 12: 90 % of a step after about 0.32 s).
  public var responseRate: Double
  /// The target pitch offset from the neutral pose, radians.
  public private(set) var targetPitch = 0.0
  /// The target roll, radians.
  public private(set) var targetRoll = 0.0
  /// The current pitch offset from the neutral pose, radians.
  public private(set) var pitch = 0.0
  /// The current roll, radians.
  public private(set) var roll = 0.0
  /// The current pitch rate, rad/s.
  public private(set) var pitchRate = 0.0
  /// The current roll rate, rad/s.
  public private(set) var rollRate = 0.0
  /// The time of the current state, seconds (`nil` before the first update).
  public private(set) var time: Double?

  /// Creates a controller at rest in the neutral pose.
  ///
  /// - Parameters:
  ///   - neutralPitch: Radians, in (−π/2, π/2) (default π/4).
  ///   - stepAngle: Radians per key press, positive (default 5°).
  ///   - maximumAngle: Radians, positive (default 45°).
  ///   - responseRate: 1/s, positive (default 12).
  public init(
    neutralPitch: Double = .pi / 4, stepAngle: Double = 5 * .pi / 180,
    maximumAngle: Double = .pi / 4, responseRate: Double = 12
  ) {
    self.neutralPitch = min(max(neutralPitch, -1.5), 1.5)
    self.stepAngle = stepAngle > 0 ? stepAngle : 5 * .pi / 180
    self.maximumAngle = maximumAngle > 0 ? maximumAngle : .pi / 4
    self.responseRate = responseRate > 0 ? responseRate : 12
  }

  /// Moves the target one step in a direction (after advancing to `time`).
  ///
  /// - Parameters:
  ///   - direction: The arrow pressed.
  ///   - time: Seconds.
  public mutating func press(_ direction: TiltDirection, at time: Double) {
    switch direction {
    case .up: setTarget(pitch: targetPitch + stepAngle, roll: targetRoll, at: time)
    case .down: setTarget(pitch: targetPitch - stepAngle, roll: targetRoll, at: time)
    case .left: setTarget(pitch: targetPitch, roll: targetRoll - stepAngle, at: time)
    case .right: setTarget(pitch: targetPitch, roll: targetRoll + stepAngle, at: time)
    }
  }

  /// Sets the target tilt (after advancing to `time`), clamped to ±``maximumAngle`` and to a
  /// total pitch inside (−89°, 89°).
  ///
  /// - Parameters:
  ///   - pitch: The pitch offset from the neutral pose, radians.
  ///   - roll: The roll, radians.
  ///   - time: Seconds.
  public mutating func setTarget(pitch: Double, roll: Double, at time: Double) {
    advance(to: time)
    let limit = 89 * Double.pi / 180
    var p = min(max(pitch.isFinite ? pitch : 0, -maximumAngle), maximumAngle)
    p = min(max(p, -limit - neutralPitch), limit - neutralPitch)
    targetPitch = p
    targetRoll = min(max(roll.isFinite ? roll : 0, -maximumAngle), maximumAngle)
  }

  /// Points the target at a pointer position, like parallax.js on desktops: the centre of the
  /// view is the neutral pose, the edges are ±``maximumAngle`` (right edge: roll +max; top
  /// edge: pitch +max).
  ///
  /// - Parameters:
  ///   - x: The pointer's horizontal position, 0 (left) ... 1 (right).
  ///   - y: The pointer's vertical position, 0 (top) ... 1 (bottom).
  ///   - time: Seconds.
  public mutating func point(x: Double, y: Double, at time: Double) {
    let t = TiltController.pointerTilt(x: x, y: y, maximumAngle: maximumAngle)
    setTarget(pitch: t.pitch, roll: t.roll, at: time)
  }

  /// The tilt a pointer position asks for (see ``point(x:y:at:)``).
  ///
  /// - Parameters:
  ///   - x: 0 (left) ... 1 (right); values outside are clamped.
  ///   - y: 0 (top) ... 1 (bottom); values outside are clamped.
  ///   - maximumAngle: The tilt at the edges, radians.
  /// - Returns: The pitch offset and roll, radians.
  public static func pointerTilt(
    x: Double, y: Double, maximumAngle: Double
  ) -> (pitch: Double, roll: Double) {
    let cx = min(max(x.isFinite ? x : 0.5, 0), 1)
    let cy = min(max(y.isFinite ? y : 0.5, 0), 1)
    return ((0.5 - cy) * 2 * maximumAngle, (cx - 0.5) * 2 * maximumAngle)
  }

  /// Sends the target back to the neutral pose (after advancing to `time`).
  ///
  /// - Parameter time: Seconds.
  public mutating func recenter(at time: Double) { setTarget(pitch: 0, roll: 0, at: time) }

  /// Advances the spring to a time; earlier times than the current state are ignored.
  ///
  /// - Parameter time: Seconds.
  public mutating func advance(to time: Double) {
    guard time.isFinite else { return }
    guard let now = self.time else {
      self.time = time
      return
    }
    let dt = time - now
    guard dt > 0 else { return }
    (pitch, pitchRate) = TiltController.spring(
      pitch, pitchRate, target: targetPitch, rate: responseRate, dt: dt)
    (roll, rollRate) = TiltController.spring(
      roll, rollRate, target: targetRoll, rate: responseRate, dt: dt)
    self.time = time
  }

  /// The device motion at a time (advancing the state to it first).
  ///
  /// - Parameter time: Seconds; it becomes the sample's timestamp (an earlier time than the
  ///   current state gives the current state with that state's time).
  /// - Returns: Attitude, gravity (g, device frame), rotation rate (rad/s, device frame) and
  ///   zero user acceleration.
  public mutating func motion(at time: Double) -> DeviceMotion {
    advance(to: time)
    return currentMotion
  }

  /// The device motion of the current state, stamped with its time (0 before any update).
  public var currentMotion: DeviceMotion {
    let p = neutralPitch + pitch
    let r = roll
    let q =
      Quaternion(axis: Vector3(1, 0, 0), angle: p) * Quaternion(axis: Vector3(0, 1, 0), angle: r)
    // Body rates of R = Rx(p)·Ry(r): ω = Ry(r)ᵀ·(ṗ, 0, 0) + (0, ṙ, 0).
    let omega = Vector3(pitchRate * cos(r), rollRate, pitchRate * sin(r))
    let gravity = Vector3(sin(r) * cos(p), -sin(p), -cos(r) * cos(p))
    return DeviceMotion(
      timestamp: time ?? 0, attitude: Attitude(quaternion: q), rotationRate: omega,
      gravity: gravity, userAcceleration: .zero)
  }

  /// The closed-form critically damped spring `x'' = −2ω x' − ω² (x − target)`.
  ///
  /// - Parameters:
  ///   - x: The position now.
  ///   - v: The velocity now.
  ///   - target: The rest position.
  ///   - rate: ω, 1/s.
  ///   - dt: The time step, seconds, non-negative.
  /// - Returns: Position and velocity after `dt`.
  static func spring(
    _ x: Double, _ v: Double, target: Double, rate: Double, dt: Double
  ) -> (Double, Double) {
    let c1 = x - target
    let c2 = v + rate * c1
    let e = exp(-rate * dt)
    let position = target + (c1 + c2 * dt) * e
    let velocity = (c2 - rate * (c1 + c2 * dt)) * e
    return (position, velocity)
  }
}
