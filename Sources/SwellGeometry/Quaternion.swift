import Foundation

/// A quaternion `w + xi + yj + zk`, stored **w first**, used for rotations.
///
/// As an attitude it is a unit quaternion taking **device-frame** vectors to the reference
/// (Earth) frame, the convention of CoreMotion's `CMAttitude.quaternion`:
/// `v_earth = q ⊗ v_device ⊗ q*`. Composition follows the Hamilton product: `(a * b).rotate(v)`
/// equals `a.rotate(b.rotate(v))`.
public struct Quaternion: Hashable, Sendable, Codable {
  /// The real (scalar) part.
  public var w: Double
  /// The i component of the vector part.
  public var x: Double
  /// The j component of the vector part.
  public var y: Double
  /// The k component of the vector part.
  public var z: Double

  /// Creates a quaternion from its four components, w first.
  ///
  /// - Parameters:
  ///   - w: The real part.
  ///   - x: The i component.
  ///   - y: The j component.
  ///   - z: The k component.
  @inlinable
  public init(w: Double, x: Double, y: Double, z: Double) {
    self.w = w
    self.x = x
    self.y = y
    self.z = z
  }

  /// The identity rotation.
  public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

  /// Creates the rotation by `angle` radians about `axis` (right-hand rule).
  ///
  /// - Parameters:
  ///   - axis: The rotation axis; it is normalised. A zero axis gives the identity.
  ///   - angle: The angle in radians.
  @inlinable
  public init(axis: Vector3, angle: Double) {
    let n = axis.normalized()
    guard n != .zero else {
      self = .identity
      return
    }
    let h = angle / 2
    let s = sin(h)
    self.init(w: cos(h), x: n.x * s, y: n.y * s, z: n.z * s)
  }

  /// Creates the rotation whose rotation vector is `v`: axis `v/|v|`, angle `|v|` radians.
  ///
  /// Accurate for tiny angles (it uses the series of `sin(θ/2)/θ` there).
  ///
  /// - Parameter v: The rotation vector, radians.
  @inlinable
  public init(rotationVector v: Vector3) {
    let theta = v.length
    let h = theta / 2
    let k: Double
    if theta < 1e-8 {
      k = 0.5 - theta * theta / 48
    } else {
      k = sin(h) / theta
    }
    self.init(w: cos(h), x: v.x * k, y: v.y * k, z: v.z * k)
  }

  /// The vector part `(x, y, z)`.
  @inlinable public var vector: Vector3 { Vector3(x, y, z) }

  /// The norm `√(w² + x² + y² + z²)`.
  @inlinable public var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }

  /// True when all four components are finite.
  @inlinable public var isFinite: Bool { w.isFinite && x.isFinite && y.isFinite && z.isFinite }

  /// The conjugate `w − xi − yj − zk`; the inverse rotation for a unit quaternion.
  @inlinable public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

  /// The multiplicative inverse, `conjugate / norm²`.
  @inlinable
  public var inverse: Quaternion {
    let n2 = w * w + x * x + y * y + z * z
    return Quaternion(w: w / n2, x: -x / n2, y: -y / n2, z: -z / n2)
  }

  /// The quaternion scaled to unit norm; the identity when the norm is zero or not finite.
  @inlinable
  public func normalized() -> Quaternion {
    let n = norm
    guard n > 0, n.isFinite else { return .identity }
    return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
  }

  /// The same rotation with a non-negative real part (`q` and `−q` are the same rotation).
  @inlinable
  public func canonicalized() -> Quaternion {
    w < 0 ? Quaternion(w: -w, x: -x, y: -y, z: -z) : self
  }

  /// The Hamilton product `a ⊗ b`: rotate by `b`, then by `a`.
  @inlinable
  public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
    Quaternion(
      w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
      x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
      y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
      z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
  }

  /// Rotates a vector by this (unit) quaternion: `q ⊗ v ⊗ q*`.
  ///
  /// - Parameter v: The vector, in the quaternion's source frame.
  /// - Returns: The vector in the target frame.
  @inlinable
  public func rotate(_ v: Vector3) -> Vector3 {
    // t = 2 q_v × v; v' = v + w t + q_v × t
    let qv = Vector3(x, y, z)
    let t = 2 * qv.cross(v)
    return v + w * t + qv.cross(t)
  }

  /// Rotates a vector by the inverse of this (unit) quaternion: `q* ⊗ v ⊗ q`.
  ///
  /// - Parameter v: The vector, in the quaternion's target frame.
  /// - Returns: The vector in the source frame.
  @inlinable
  public func inverseRotate(_ v: Vector3) -> Vector3 { conjugate.rotate(v) }

  /// The rotation angle in radians, in [0, π].
  @inlinable
  public var angle: Double {
    let q = canonicalized()
    return 2 * atan2(q.vector.length, q.w)
  }

  /// The rotation axis (unit), or +x for the identity.
  @inlinable
  public var axis: Vector3 {
    let v = canonicalized().vector
    let n = v.length
    return n > 0 ? v / n : .unitX
  }

  /// The rotation vector `axis · angle`, radians, with the angle in [0, π].
  @inlinable
  public var rotationVector: Vector3 {
    let q = canonicalized()
    let n = q.vector.length
    if n < 1e-12 { return q.vector * 2 }
    return q.vector * (2 * atan2(n, q.w) / n)
  }

  /// The four-dimensional dot product.
  ///
  /// - Parameter other: The other quaternion.
  /// - Returns: `w·w' + x·x' + y·y' + z·z'`.
  @inlinable
  public func dot(_ other: Quaternion) -> Double {
    w * other.w + x * other.x + y * other.y + z * other.z
  }

  /// The shortest-path spherical linear interpolation between two unit quaternions.
  ///
  /// - Parameters:
  ///   - other: The end rotation.
  ///   - t: The fraction, 0 gives `self` and 1 gives `other` (or its negation).
  /// - Returns: A unit quaternion.
  public func slerp(to other: Quaternion, fraction t: Double) -> Quaternion {
    var b = other
    if dot(b) < 0 { b = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z) }
    // The 4D angle between the two, from tan(θ/2) = |b − a| / |b + a|: accurate at every angle,
    // unlike acos of the dot product near 0.
    let difference = Quaternion(w: b.w - w, x: b.x - x, y: b.y - y, z: b.z - z).norm
    let sum = Quaternion(w: b.w + w, x: b.x + x, y: b.y + y, z: b.z + z).norm
    let theta = 2 * atan2(difference, sum)
    if theta < 1e-6 {
      // Normalized linear interpolation; it departs from the arc by O(θ³), below 1e-18 here.
      return Quaternion(
        w: w + (b.w - w) * t, x: x + (b.x - x) * t, y: y + (b.y - y) * t, z: z + (b.z - z) * t
      ).normalized()
    }
    let s = sin(theta)
    let ka = sin((1 - t) * theta) / s
    let kb = sin(t * theta) / s
    return Quaternion(
      w: w * ka + b.w * kb, x: x * ka + b.x * kb, y: y * ka + b.y * kb, z: z * ka + b.z * kb)
  }

  /// The angle in radians of the rotation that takes `self` to `other`, in [0, π].
  ///
  /// - Parameter other: The other rotation.
  /// - Returns: `2·acos(|⟨a, b⟩|)`, computed stably.
  public func angularDistance(to other: Quaternion) -> Double {
    (other * conjugate).angle
  }

  /// The rotation that turns unit vector `from` onto unit vector `to` by the shortest arc.
  ///
  /// - Parameters:
  ///   - from: The start direction (need not be unit).
  ///   - to: The end direction (need not be unit).
  /// - Returns: A unit quaternion; for opposite vectors, a half turn about an axis perpendicular
  ///   to `from`.
  public static func rotation(from: Vector3, to: Vector3) -> Quaternion {
    let a = from.normalized()
    let b = to.normalized()
    let d = a.dot(b)
    let c = a.cross(b)
    // Only (nearly) exact opposites need a chosen axis: the general formula stays accurate to
    // about 1e-8 rad while |a × b| is above 1e-8, where `1 + d` is still well resolved against it.
    if d < 0 && c.length < 1e-8 {
      var axis = Vector3.unitX.cross(a)
      if axis.lengthSquared < 1e-12 { axis = Vector3.unitY.cross(a) }
      return Quaternion(axis: axis, angle: .pi)
    }
    return Quaternion(w: 1 + d, x: c.x, y: c.y, z: c.z).normalized()
  }
}

extension Quaternion {
  /// Creates the quaternion of a rotation matrix (Shepperd's method, stable for all angles).
  ///
  /// - Parameter m: A proper rotation matrix (orthonormal, determinant +1).
  public init(rotationMatrix m: Matrix3) {
    let trace = m[0, 0] + m[1, 1] + m[2, 2]
    var q: Quaternion
    if trace > 0 {
      let s = (trace + 1).squareRoot() * 2
      q = Quaternion(
        w: 0.25 * s, x: (m[2, 1] - m[1, 2]) / s, y: (m[0, 2] - m[2, 0]) / s,
        z: (m[1, 0] - m[0, 1]) / s)
    } else if m[0, 0] > m[1, 1] && m[0, 0] > m[2, 2] {
      let s = (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot() * 2
      q = Quaternion(
        w: (m[2, 1] - m[1, 2]) / s, x: 0.25 * s, y: (m[0, 1] + m[1, 0]) / s,
        z: (m[0, 2] + m[2, 0]) / s)
    } else if m[1, 1] > m[2, 2] {
      let s = (1 + m[1, 1] - m[0, 0] - m[2, 2]).squareRoot() * 2
      q = Quaternion(
        w: (m[0, 2] - m[2, 0]) / s, x: (m[0, 1] + m[1, 0]) / s, y: 0.25 * s,
        z: (m[1, 2] + m[2, 1]) / s)
    } else {
      let s = (1 + m[2, 2] - m[0, 0] - m[1, 1]).squareRoot() * 2
      q = Quaternion(
        w: (m[1, 0] - m[0, 1]) / s, x: (m[0, 2] + m[2, 0]) / s, y: (m[1, 2] + m[2, 1]) / s,
        z: 0.25 * s)
    }
    q = q.normalized()
    self = q.canonicalized()
  }

  /// The rotation matrix `R` with `R·v == rotate(v)` for a unit quaternion.
  public var rotationMatrix: Matrix3 {
    let ww = w * w
    let xx = x * x
    let yy = y * y
    let zz = z * z
    return Matrix3(
      rows:
        Vector3(ww + xx - yy - zz, 2 * (x * y - w * z), 2 * (x * z + w * y)),
      Vector3(2 * (x * y + w * z), ww - xx + yy - zz, 2 * (y * z - w * x)),
      Vector3(2 * (x * z - w * y), 2 * (y * z + w * x), ww - xx - yy + zz))
  }
}

extension Quaternion: CustomStringConvertible {
  /// A compact description such as `(w: 1.0, x: 0.0, y: 0.0, z: 0.0)`.
  public var description: String { "(w: \(w), x: \(x), y: \(y), z: \(z))" }
}
