import Foundation

/// A 2D affine transform, laid out like `CGAffineTransform`: `[a b 0; c d 0; tx ty 1]`.
///
/// A point maps as `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`. In UIKit's y-down layer space a
/// positive rotation angle turns **clockwise on screen**.
public struct AffineTransform: Hashable, Sendable, Codable {
  /// The x scale / rotation term.
  public var a: Double
  /// The y shear / rotation term.
  public var b: Double
  /// The x shear / rotation term.
  public var c: Double
  /// The y scale / rotation term.
  public var d: Double
  /// The x translation, points.
  public var tx: Double
  /// The y translation, points.
  public var ty: Double

  /// Creates a transform from its six terms.
  ///
  /// - Parameters:
  ///   - a: The a term.
  ///   - b: The b term.
  ///   - c: The c term.
  ///   - d: The d term.
  ///   - tx: The x translation.
  ///   - ty: The y translation.
  public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  /// The identity transform.
  public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  /// A translation.
  ///
  /// - Parameters:
  ///   - tx: The x translation, points.
  ///   - ty: The y translation, points.
  public init(translationX tx: Double, y ty: Double) {
    self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
  }

  /// A scale.
  ///
  /// - Parameters:
  ///   - sx: The x factor.
  ///   - sy: The y factor.
  public init(scaleX sx: Double, y sy: Double) {
    self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
  }

  /// A rotation by `angle` radians (clockwise on a y-down screen), like
  /// `CGAffineTransform(rotationAngle:)`.
  ///
  /// - Parameter angle: The angle in radians.
  public init(rotationAngle angle: Double) {
    let c = cos(angle)
    let s = sin(angle)
    self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
  }

  /// True for the identity transform.
  public var isIdentity: Bool { self == .identity }

  /// The concatenation: apply `self`, then `t` (like `CGAffineTransform.concatenating`).
  ///
  /// - Parameter t: The transform applied second.
  /// - Returns: The combined transform.
  public func concatenating(_ t: AffineTransform) -> AffineTransform {
    AffineTransform(
      a: a * t.a + b * t.c, b: a * t.b + b * t.d,
      c: c * t.a + d * t.c, d: c * t.b + d * t.d,
      tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
  }

  /// The determinant `a·d − b·c`.
  public var determinant: Double { a * d - b * c }

  /// The inverse, or `nil` when the transform is singular.
  public var inverted: AffineTransform? {
    let det = determinant
    guard det != 0, det.isFinite else { return nil }
    return AffineTransform(
      a: d / det, b: -b / det, c: -c / det, d: a / det,
      tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
  }

  /// Maps a point.
  ///
  /// - Parameter p: The point.
  /// - Returns: `(a·x + c·y + tx, b·x + d·y + ty)`.
  public func apply(to p: Point) -> Point {
    Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
  }

  /// The rotation angle of the linear part, radians, in (−π, π].
  public var rotationAngle: Double { atan2(b, a) }
}
