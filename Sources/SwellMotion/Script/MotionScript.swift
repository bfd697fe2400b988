import Foundation
import SwellGeometry

/// Scripted device motion: a small text language describing how a device is held and moved,
/// turned into consistent ``DeviceMotion`` (attitude, gravity, rotation rate, user
/// acceleration). The language is documented in `docs/script.md`; an example:
///
///     portrait; hold 1s; tilt 30deg right over 0.5s; shake x 3Hz 2rad/s for 1s
///
/// Frames: the reference frame is `xArbitraryZVertical` (z up). The device starts **upright in
/// portrait**, facing the user (gravity (0, −1, 0) in the device frame) unless the script starts
/// with another pose. Rotations about device axes follow the right-hand rule; the attitude is a
/// closed-form function of time, the rotation rate is its exact derivative (device frame, rad/s)
/// and gravity is `attitude⁻¹ · (0, 0, −1)` (g, device frame).
public struct MotionScript: Hashable, Sendable {
  /// One step of a script.
  public enum Step: Hashable, Sendable {
    /// Keep the pose for a duration, seconds.
    case hold(duration: Double)
    /// Jump to a pose at once (no rotation rate).
    case pose(Pose)
    /// Turn by `angle` radians about a unit `axis` over `duration` seconds with a cosine
    /// ease (zero rate at both ends); the axis is fixed in the device frame or in the
    /// reference frame.
    case rotate(axis: Vector3, inReferenceFrame: Bool, angle: Double, duration: Double)
    /// Oscillate about a device axis: angle `(peakRate / 2πf)·sin(2πf·t)`, rate
    /// `peakRate·cos(2πf·t)`, for `duration` seconds.
    case shake(axis: Vector3, frequency: Double, peakRate: Double, duration: Double)
    /// Keep the pose while the user accelerates the device by a constant vector (g, device
    /// frame) for `duration` seconds.
    case push(acceleration: Vector3, duration: Double)

    /// The step's duration, seconds (0 for a pose).
    public var duration: Double {
      switch self {
      case .hold(let d), .rotate(_, _, _, let d), .shake(_, _, _, let d), .push(_, let d): d
      case .pose: 0
      }
    }
  }

  /// A pose a script can jump to.
  public enum Pose: String, Hashable, Sendable, CaseIterable {
    /// Lying face up: gravity (0, 0, −1).
    case flat
    /// Upright portrait, facing the user: gravity (0, −1, 0).
    case portrait
    /// Upright, turned a quarter turn counter-clockwise (top edge to the left,
    /// `UIDeviceOrientation.landscapeLeft`): gravity (−1, 0, 0).
    case landscapeLeft
    /// Upright, turned a quarter turn clockwise (top edge to the right): gravity (1, 0, 0).
    case landscapeRight

    /// The attitude of the pose (device → reference, reference z up).
    public var attitude: Quaternion {
      let upright = Quaternion(axis: .unitX, angle: .pi / 2)
      switch self {
      case .flat: return .identity
      case .portrait: return upright
      case .landscapeLeft: return upright * Quaternion(axis: .unitZ, angle: .pi / 2)
      case .landscapeRight: return upright * Quaternion(axis: .unitZ, angle: -.pi / 2)
      }
    }
  }

  /// The steps, in order.
  public let steps: [Step]
  /// The attitude before the first step (upright portrait).
  public let initialAttitude: Quaternion
  private let starts: [Double]
  private let startAttitudes: [Quaternion]

  /// The total duration, seconds.
  public let duration: Double

  /// Creates a script from steps.
  ///
  /// - Parameters:
  ///   - steps: The steps.
  ///   - initialAttitude: The attitude before the first step (default upright portrait).
  public init(steps: [Step], initialAttitude: Quaternion = Pose.portrait.attitude) {
    self.steps = steps
    self.initialAttitude = initialAttitude
    var t = 0.0
    var q = initialAttitude
    var s: [Double] = []
    var a: [Quaternion] = []
    for step in steps {
      s.append(t)
      a.append(q)
      q = Self.attitude(of: step, start: q, at: step.duration).attitude
      t += step.duration
    }
    starts = s
    startAttitudes = a
    duration = t
  }

  /// Parses a script.
  ///
  /// - Parameter text: The script text.
  /// - Throws: ``MotionScriptError`` naming the word and its line:column.
  public init(parsing text: String) throws(MotionScriptError) {
    self.init(steps: try MotionScriptParser.parse(text))
  }

  /// The device motion at a time since the start of the script.
  ///
  /// - Parameters:
  ///   - time: Seconds since the start (clamped to 0...``duration``).
  ///   - timestamp: The timestamp to stamp the sample with, seconds (default `time`).
  /// - Returns: Consistent device motion: attitude, gravity, rotation rate, user acceleration.
  public func motion(at time: Double, timestamp: Double? = nil) -> DeviceMotion {
    let t = min(max(time.isFinite ? time : 0, 0), duration)
    var q = steps.isEmpty ? initialAttitude : (startAttitudes.last ?? initialAttitude)
    var rate = Vector3.zero
    var user = Vector3.zero
    if let i = segmentIndex(at: t) {
      let r = Self.attitude(of: steps[i], start: startAttitudes[i], at: t - starts[i])
      q = r.attitude
      rate = r.rate
      user = r.userAcceleration
    } else if let last = steps.indices.last {
      q =
        Self.attitude(of: steps[last], start: startAttitudes[last], at: steps[last].duration)
        .attitude
    }
    return DeviceMotion(
      timestamp: timestamp ?? time, attitude: Attitude(quaternion: q), rotationRate: rate,
      gravity: q.inverseRotate(Vector3(0, 0, -1)), userAcceleration: user)
  }

  /// Samples the script at a fixed rate: times `i / rate` for `i = 0 ... ⌊duration · rate⌋`.
  ///
  /// - Parameters:
  ///   - rate: Samples per second, positive (e.g. 100).
  ///   - startTime: The timestamp of the first sample, seconds (default 0).
  /// - Returns: The samples, timestamps increasing.
  public func samples(rate: Double, startTime: Double = 0) -> [DeviceMotion] {
    precondition(rate > 0 && rate.isFinite, "rate must be positive")
    let n = Int((duration * rate + 1e-9).rounded(.down))
    return (0...max(n, 0)).map { i in
      let t = Double(i) / rate
      return motion(at: t, timestamp: startTime + t)
    }
  }

  private func segmentIndex(at t: Double) -> Int? {
    // The last step starting at or before t that has a duration and covers t.
    var found: Int?
    for (i, s) in starts.enumerated() where s <= t {
      let d = steps[i].duration
      if d > 0 && t < s + d { found = i }
    }
    return found
  }

  private static func attitude(of step: Step, start q0: Quaternion, at t: Double) -> (
    attitude: Quaternion, rate: Vector3, userAcceleration: Vector3
  ) {
    switch step {
    case .hold:
      return (q0, .zero, .zero)
    case .pose(let p):
      return (p.attitude, .zero, .zero)
    case .push(let a, _):
      return (q0, .zero, a)
    case .rotate(let axis, let world, let angle, let d):
      guard d > 0 else {
        let r = Quaternion(axis: axis, angle: angle)
        return (world ? r * q0 : q0 * r, .zero, .zero)
      }
      let s = min(max(t / d, 0), 1)
      let theta = angle * (1 - cos(.pi * s)) / 2
      let thetaDot = s < 1 ? angle * .pi / (2 * d) * sin(.pi * s) : 0
      let r = Quaternion(axis: axis, angle: theta)
      if world {
        let q = (r * q0).normalized()
        return (q, q.inverseRotate(axis) * thetaDot, .zero)
      }
      return ((q0 * r).normalized(), axis * thetaDot, .zero)
    case .shake(let axis, let f, let peak, let d):
      let tt = min(max(t, 0), d)
      let w = 2 * .pi * f
      let theta = peak / w * sin(w * tt)
      let thetaDot = t < d ? peak * cos(w * tt) : 0
      return ((q0 * Quaternion(axis: axis, angle: theta)).normalized(), axis * thetaDot, .zero)
    }
  }
}
