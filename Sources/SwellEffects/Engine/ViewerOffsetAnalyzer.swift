import Foundation
import SwellGeometry

/// Turns device attitude into the viewer offset, as UIKit's `_UIMotionAttitudeAnalyzer` does
/// in iOS 26.1 (measured from the UIKit binary): relative to a neutral pose that starts at the first sample and
/// slowly follows the device, with optional smoothing and a directional lock.
///
/// Part of ``ViewerOffsetEngine``, which adds the stale-stream guard, the application cadence,
/// the dead-band and Reduce Motion; use the analyzer alone for the raw per-sample offset.
public struct ViewerOffsetAnalyzer: Hashable, Sendable {
  /// The constants (only the smoothing, lock and re-centering ones are used here).
  public var configuration: ViewerOffsetEngine.Configuration
  /// The neutral pose: device → reference attitude at which the offset is (0, 0); `nil` before
  /// the first sample.
  public private(set) var referenceAttitude: Quaternion?
  /// The latest attitude, device → reference.
  public private(set) var attitude: Quaternion?
  /// The time of the latest sample, seconds.
  public private(set) var timestamp: Double?
  /// The offset of the latest sample before smoothing and lock (`_currentRawOffset:`).
  public private(set) var rawOffset = ViewerOffset.zero
  /// The smoothed offset (`_updateSmoothedOffsetForRawOffset:`).
  public private(set) var smoothedOffset = ViewerOffset.zero
  /// The directional-lock accumulator, offset units: positive while tilting mostly
  /// horizontally, negative while tilting mostly vertically.
  public private(set) var lockAccumulator = 0.0
  /// The analyzer's output: the viewer offset after smoothing and the directional lock.
  public private(set) var offset = ViewerOffset.zero
  /// Whether the raw offset has stayed within the idle leeway for longer than
  /// `secondsBeforeIdle` (`_updateReferenceAttitude:timestamp:`).
  public private(set) var isIdle = false
  private var idleAnchor = ViewerOffset.zero
  private var idleSince = 0.0

  /// Creates an analyzer with no neutral pose yet.
  ///
  /// - Parameter configuration: The constants (default the system's).
  public init(configuration: ViewerOffsetEngine.Configuration = .init()) {
    self.configuration = configuration
  }

  /// Forgets the neutral pose: the next sample becomes neutral (`reset`).
  public mutating func reset() {
    self = ViewerOffsetAnalyzer(configuration: configuration)
  }

  /// The raw viewer offset of an attitude relative to a reference (`_currentRawOffset:`): the elevation of the
  /// device's x and y axes out of the reference screen plane, as fractions of 90°.
  ///
  /// `horizontal = acos((R·x̂)_z)/(π/2) − 1`, `vertical = −(acos((R·ŷ)_z)/(π/2) − 1)`, with
  /// R = reference⁻¹ ⊗ attitude. Each is in −1...1 and linear in angle.
  ///
  /// - Parameters:
  ///   - attitude: Device → reference-frame attitude.
  ///   - reference: The neutral attitude.
  /// - Returns: The offset.
  public static func rawOffset(of attitude: Quaternion, relativeTo reference: Quaternion)
    -> ViewerOffset
  {
    let r = reference.conjugate * attitude
    let xz = min(1, max(-1, r.rotate(.unitX).z))
    let yz = min(1, max(-1, r.rotate(.unitY).z))
    return ViewerOffset(
      horizontal: acos(xz) / (.pi / 2) - 1, vertical: -(acos(yz) / (.pi / 2) - 1))
  }

  /// Takes one attitude sample and updates the neutral pose and the offset.
  ///
  /// On the first sample (or after ``reset()``) the reference becomes the attitude and the
  /// offset is (0, 0). After that the reference turns toward the attitude by
  /// `min(ω(θ)·Δt, θ)` about the axis perpendicular to both screen normals (a swing without
  /// twist; when θ ≥ 90° toward the flipped normal by π − θ); an idle analyzer flips its
  /// reference past ``ViewerOffsetEngine/Configuration/jumpThreshold`` and snaps it to the
  /// attitude when the swing axis is degenerate.
  ///
  /// - Parameters:
  ///   - attitude: Device → reference attitude (a unit quaternion; non-finite ones are
  ///     ignored).
  ///   - timestamp: Seconds; samples not later than the previous one are ignored.
  /// - Returns: Whether the sample was used.
  @discardableResult
  public mutating func update(attitude: Quaternion, timestamp: Double) -> Bool {
    guard attitude.isFinite, attitude.norm > 1e-9, timestamp.isFinite else { return false }
    let q = attitude.normalized()
    guard let ref = referenceAttitude, let last = self.timestamp else {
      referenceAttitude = q
      self.attitude = q
      self.timestamp = timestamp
      rawOffset = .zero
      smoothedOffset = .zero
      offset = .zero
      idleAnchor = .zero
      idleSince = timestamp
      isIdle = false
      return true
    }
    let dt = timestamp - last
    guard dt > 0 else { return false }
    self.attitude = q
    self.timestamp = timestamp

    // Idle tracking on the offset before this sample moves the reference.
    let pre = ViewerOffsetAnalyzer.rawOffset(of: q, relativeTo: ref)
    if pre.distance(to: idleAnchor) > configuration.idleLeeway {
      idleAnchor = pre
      idleSince = timestamp
    }
    isIdle = timestamp - idleSince > configuration.secondsBeforeIdle

    referenceAttitude = recentered(ref, toward: q, dt: dt)
    let raw = ViewerOffsetAnalyzer.rawOffset(of: q, relativeTo: referenceAttitude ?? ref)
    rawOffset = raw

    let s = 0.9 * configuration.inputSmoothingFactor
    let previous = smoothedOffset
    smoothedOffset = ViewerOffset(
      horizontal: previous.horizontal * s + raw.horizontal * (1 - s),
      vertical: previous.vertical * s + raw.vertical * (1 - s))
    offset = locked(smoothedOffset, previousInput: previous)
    return true
  }

  /// Moves the reference so the current offset equals the one of the previous sample: what the
  /// engine does when the stream resumes after a stale gap (`_UIMotionEffectEngine`'s stale-stream guard).
  ///
  /// - Parameters:
  ///   - attitude: The new attitude, device → reference.
  ///   - previousAttitude: The attitude of the previous sample.
  public mutating func holdPose(at attitude: Quaternion, previousAttitude: Quaternion) {
    guard let ref = referenceAttitude else { return }
    // Keep the relative rotation: ref'⁻¹ ⊗ q = ref⁻¹ ⊗ q_prev.
    let relative = ref.conjugate * previousAttitude
    referenceAttitude = (attitude.normalized() * relative.conjugate).normalized()
  }

  private func recentered(_ ref: Quaternion, toward q: Quaternion, dt: Double) -> Quaternion {
    let nCur = q.rotate(.unitZ)
    var reference = ref
    var nRef = reference.rotate(.unitZ)
    let cross = nRef.cross(nCur)
    // Degenerate swing axis (normals parallel or opposite): an idle analyzer takes the attitude.
    guard cross.length >= 1e-9 else { return isIdle ? q : ref }
    var axis = cross.normalized()
    let theta = nRef.angle(to: nCur)
    if isIdle && theta > configuration.jumpThreshold {
      // Flip so the new angle is π − θ.
      reference = (Quaternion(axis: axis, angle: 2 * theta - .pi) * reference).normalized()
      nRef = reference.rotate(.unitZ)
    }
    var angle = nRef.angle(to: nCur)
    if angle >= .pi / 2 {
      angle = .pi - angle
      axis = -axis
    }
    let step = min(configuration.referenceShiftRate(forAngle: angle) * dt, angle)
    guard step > 0, step.isFinite else { return reference }
    return (Quaternion(axis: axis, angle: step) * reference).normalized()
  }

  private mutating func locked(_ input: ViewerOffset, previousInput: ViewerOffset)
    -> ViewerOffset
  {
    guard configuration.isDirectionalLockEnabled else { return input }
    let dh = abs(input.horizontal - previousInput.horizontal)
    let dv = abs(input.vertical - previousInput.vertical)
    lockAccumulator = dh + configuration.directionalLockDecay * lockAccumulator - dv
    let threshold = configuration.directionalLockThreshold
    guard threshold > 0 else { return input }
    let magnitude = abs(lockAccumulator)
    let strength = min(
      1,
      max(
        0,
        ((magnitude - threshold) / threshold)
          / (1 - configuration.directionalLockSharpness + 1.2e-7)))
    var out = input
    if lockAccumulator > threshold {
      out.vertical = offset.vertical * strength + input.vertical * (1 - strength)
    } else if lockAccumulator < -threshold {
      out.horizontal = offset.horizontal * strength + input.horizontal * (1 - strength)
    }
    return out
  }
}
