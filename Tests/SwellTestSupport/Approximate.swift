import SwellGeometry

/// True when `a` and `b` agree within an absolute or a relative tolerance.
///
/// Not transitive: `a ≈ b` and `b ≈ c` do not imply `a ≈ c`.
///
/// - Parameters:
///   - a: The first value.
///   - b: The second value.
///   - absolute: The absolute tolerance (default 1e-9).
///   - relative: The relative tolerance (default 1e-9).
/// - Returns: Whether `|a − b| ≤ max(absolute, relative·max(|a|, |b|))`.
public func isApproximatelyEqual(
  _ a: Double, _ b: Double, absolute: Double = 1e-9, relative: Double = 1e-9
) -> Bool {
  guard a.isFinite, b.isFinite else { return a == b }
  return abs(a - b) <= max(absolute, relative * max(abs(a), abs(b)))
}

/// True when every component of two vectors agrees within `tolerance`.
///
/// - Parameters:
///   - a: The first vector.
///   - b: The second vector.
///   - tolerance: The absolute tolerance per component.
/// - Returns: Whether all three components agree.
public func isApproximatelyEqual(_ a: Vector3, _ b: Vector3, tolerance: Double = 1e-9) -> Bool {
  abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance && abs(a.z - b.z) <= tolerance
}

/// True when two unit quaternions are the same rotation within `tolerance` radians.
///
/// - Parameters:
///   - a: The first rotation.
///   - b: The second rotation.
///   - tolerance: The largest allowed angle between them, radians.
/// - Returns: Whether the rotation from `a` to `b` is smaller than `tolerance`.
public func isSameRotation(_ a: Quaternion, _ b: Quaternion, tolerance: Double = 1e-9) -> Bool {
  a.angularDistance(to: b) <= tolerance
}

extension SplitMix64 {
  /// A uniformly random unit vector.
  ///
  /// - Returns: A point on the unit sphere.
  public mutating func unitVector() -> Vector3 {
    while true {
      let v = Vector3(
        Double.random(in: -1...1, using: &self), Double.random(in: -1...1, using: &self),
        Double.random(in: -1...1, using: &self))
      let n = v.length
      if n > 1e-3 && n <= 1 { return v / n }
    }
  }

  /// A uniformly random rotation.
  ///
  /// - Returns: A unit quaternion with non-negative w.
  public mutating func rotation() -> Quaternion {
    Quaternion(
      axis: unitVector(), angle: Double.random(in: 0...Double.pi, using: &self)
    ).canonicalized()
  }
}
