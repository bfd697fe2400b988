import Foundation

/// A three-component vector of `Double`, used for sensor readings and directions.
///
/// Swell uses it in two frames, always named where it appears: the **device frame** (+x right,
/// +y toward the top of the screen, +z out of the screen) and an **Earth frame** (z up).
/// Units depend on the quantity it holds (rad/s, m/s², g, µT) and are named by the holder.
public struct Vector3: Hashable, Sendable, Codable {
  /// The x component.
  public var x: Double
  /// The y component.
  public var y: Double
  /// The z component.
  public var z: Double

  /// Creates a vector from its three components.
  ///
  /// - Parameters:
  ///   - x: The x component.
  ///   - y: The y component.
  ///   - z: The z component.
  @inlinable
  public init(_ x: Double, _ y: Double, _ z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// Creates a vector from its labelled components.
  ///
  /// - Parameters:
  ///   - x: The x component.
  ///   - y: The y component.
  ///   - z: The z component.
  @inlinable
  public init(x: Double, y: Double, z: Double) {
    self.init(x, y, z)
  }

  /// The zero vector.
  public static let zero = Vector3(0, 0, 0)
  /// The unit vector along +x.
  public static let unitX = Vector3(1, 0, 0)
  /// The unit vector along +y.
  public static let unitY = Vector3(0, 1, 0)
  /// The unit vector along +z.
  public static let unitZ = Vector3(0, 0, 1)

  /// The Euclidean length.
  @inlinable public var length: Double { (x * x + y * y + z * z).squareRoot() }

  /// The squared Euclidean length.
  @inlinable public var lengthSquared: Double { x * x + y * y + z * z }

  /// True when all three components are finite (neither NaN nor infinite).
  @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

  /// The vector scaled to unit length, or `.zero` when its length is zero or not finite.
  @inlinable
  public func normalized() -> Vector3 {
    let n = length
    guard n > 0, n.isFinite else { return .zero }
    return self / n
  }

  /// The dot product.
  ///
  /// - Parameter other: The other vector.
  /// - Returns: `x·x' + y·y' + z·z'`.
  @inlinable
  public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

  /// The right-handed cross product `self × other`.
  ///
  /// - Parameter other: The right-hand operand.
  /// - Returns: The vector perpendicular to both.
  @inlinable
  public func cross(_ other: Vector3) -> Vector3 {
    Vector3(
      y * other.z - z * other.y,
      z * other.x - x * other.z,
      x * other.y - y * other.x)
  }

  /// The component-wise sum.
  @inlinable
  public static func + (a: Vector3, b: Vector3) -> Vector3 {
    Vector3(a.x + b.x, a.y + b.y, a.z + b.z)
  }

  /// The component-wise difference.
  @inlinable
  public static func - (a: Vector3, b: Vector3) -> Vector3 {
    Vector3(a.x - b.x, a.y - b.y, a.z - b.z)
  }

  /// The negated vector.
  @inlinable
  public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }

  /// The vector scaled by a scalar.
  @inlinable
  public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }

  /// The vector scaled by a scalar.
  @inlinable
  public static func * (s: Double, a: Vector3) -> Vector3 { a * s }

  /// The vector divided by a scalar.
  @inlinable
  public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(a.x / s, a.y / s, a.z / s) }

  /// Adds `b` to `a` in place.
  @inlinable
  public static func += (a: inout Vector3, b: Vector3) { a = a + b }

  /// Subtracts `b` from `a` in place.
  @inlinable
  public static func -= (a: inout Vector3, b: Vector3) { a = a - b }

  /// Scales `a` in place.
  @inlinable
  public static func *= (a: inout Vector3, s: Double) { a = a * s }

  /// The angle between two vectors, in radians, in [0, π]; 0 when either is zero.
  ///
  /// - Parameter other: The other vector.
  /// - Returns: The unsigned angle, computed with `atan2` so that it is accurate near 0 and π.
  @inlinable
  public func angle(to other: Vector3) -> Double {
    let c = cross(other).length
    let d = dot(other)
    if c == 0 && d == 0 { return 0 }
    return atan2(c, d)
  }
}

extension Vector3: CustomStringConvertible {
  /// A compact description such as `(0.0, -1.0, 0.0)`.
  public var description: String { "(\(x), \(y), \(z))" }
}
