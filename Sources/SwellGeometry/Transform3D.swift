import Foundation

/// A 4×4 homogeneous transform laid out like `CATransform3D` (row-vector convention:
/// `[x y z 1] · M`), with perspective through `m34` (typically `−1/eyeDistance`).
///
/// Rotation angles are radians; in the y-down layer space a positive rotation about z turns
/// clockwise on screen, as in Core Animation.
public struct Transform3D: Hashable, Sendable, Codable {
  /// Row 1, column 1.
  public var m11: Double
  /// Row 1, column 2.
  public var m12: Double
  /// Row 1, column 3.
  public var m13: Double
  /// Row 1, column 4.
  public var m14: Double
  /// Row 2, column 1.
  public var m21: Double
  /// Row 2, column 2.
  public var m22: Double
  /// Row 2, column 3.
  public var m23: Double
  /// Row 2, column 4.
  public var m24: Double
  /// Row 3, column 1.
  public var m31: Double
  /// Row 3, column 2.
  public var m32: Double
  /// Row 3, column 3.
  public var m33: Double
  /// Row 3, column 4 (perspective: `−1/d` for an eye at distance `d`).
  public var m34: Double
  /// Row 4, column 1 (x translation).
  public var m41: Double
  /// Row 4, column 2 (y translation).
  public var m42: Double
  /// Row 4, column 3 (z translation).
  public var m43: Double
  /// Row 4, column 4.
  public var m44: Double

  /// Creates a transform from sixteen values in row-major order.
  ///
  /// - Parameter v: Exactly sixteen values; other counts are a programmer error.
  public init(rowMajor v: [Double]) {
    precondition(v.count == 16, "Transform3D(rowMajor:) needs exactly sixteen values")
    m11 = v[0]
    m12 = v[1]
    m13 = v[2]
    m14 = v[3]
    m21 = v[4]
    m22 = v[5]
    m23 = v[6]
    m24 = v[7]
    m31 = v[8]
    m32 = v[9]
    m33 = v[10]
    m34 = v[11]
    m41 = v[12]
    m42 = v[13]
    m43 = v[14]
    m44 = v[15]
  }

  /// The sixteen values in row-major order.
  public var rowMajor: [Double] {
    [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
  }

  /// The identity transform.
  public static let identity = Transform3D(rowMajor: [
    1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
  ])

  /// A translation, points.
  ///
  /// - Parameters:
  ///   - tx: The x translation.
  ///   - ty: The y translation.
  ///   - tz: The z translation.
  public init(translationX tx: Double, y ty: Double, z tz: Double) {
    self = .identity
    m41 = tx
    m42 = ty
    m43 = tz
  }

  /// A scale.
  ///
  /// - Parameters:
  ///   - sx: The x factor.
  ///   - sy: The y factor.
  ///   - sz: The z factor.
  public init(scaleX sx: Double, y sy: Double, z sz: Double) {
    self = .identity
    m11 = sx
    m22 = sy
    m33 = sz
  }

  /// A rotation of `angle` radians about the axis `(x, y, z)`, like `CATransform3DMakeRotation`.
  ///
  /// - Parameters:
  ///   - angle: The angle, radians.
  ///   - x: The axis x component.
  ///   - y: The axis y component.
  ///   - z: The axis z component.
  public init(rotationAngle angle: Double, x: Double, y: Double, z: Double) {
    let n = Vector3(x, y, z).normalized()
    self = .identity
    guard n != .zero else { return }
    let c = cos(angle)
    let s = sin(angle)
    let t = 1 - c
    // Row-vector form: the transpose of the column-vector rotation matrix.
    m11 = t * n.x * n.x + c
    m12 = t * n.x * n.y + s * n.z
    m13 = t * n.x * n.z - s * n.y
    m21 = t * n.x * n.y - s * n.z
    m22 = t * n.y * n.y + c
    m23 = t * n.y * n.z + s * n.x
    m31 = t * n.x * n.z + s * n.y
    m32 = t * n.y * n.z - s * n.x
    m33 = t * n.z * n.z + c
  }

  /// A perspective transform with the eye `distance` points in front of the plane (`m34 = −1/d`).
  ///
  /// - Parameter distance: The eye distance, points; must be positive.
  public init(perspectiveDistance distance: Double) {
    precondition(distance > 0, "perspective distance must be positive")
    self = .identity
    m34 = -1 / distance
  }

  /// The 2D affine transform embedded as a 3D transform (`CATransform3DMakeAffineTransform`).
  ///
  /// - Parameter t: The affine transform.
  public init(_ t: AffineTransform) {
    self = .identity
    m11 = t.a
    m12 = t.b
    m21 = t.c
    m22 = t.d
    m41 = t.tx
    m42 = t.ty
  }

  /// True for the identity transform.
  public var isIdentity: Bool { self == .identity }

  /// True when the transform is a 2D affine transform (no z, no perspective).
  public var isAffine: Bool {
    m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0
      && m43 == 0 && m44 == 1
  }

  /// The 2D affine part (exact when ``isAffine``).
  public var affine: AffineTransform {
    AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
  }

  /// The concatenation: apply `self`, then `t` (`CATransform3DConcat(self, t)`).
  ///
  /// - Parameter t: The transform applied second.
  /// - Returns: `self · t` in the row-vector convention.
  public func concatenating(_ t: Transform3D) -> Transform3D {
    let a = rowMajor
    let b = t.rowMajor
    var r = [Double](repeating: 0, count: 16)
    for i in 0..<4 {
      for j in 0..<4 {
        var s = 0.0
        for k in 0..<4 { s += a[i * 4 + k] * b[k * 4 + j] }
        r[i * 4 + j] = s
      }
    }
    return Transform3D(rowMajor: r)
  }

  /// Maps a 3D point and divides by w.
  ///
  /// - Parameter p: The point, points.
  /// - Returns: The projected point and its w; w ≤ 0 means the point is behind the eye.
  public func project(_ p: Vector3) -> (point: Vector3, w: Double) {
    let x = p.x * m11 + p.y * m21 + p.z * m31 + m41
    let y = p.x * m12 + p.y * m22 + p.z * m32 + m42
    let z = p.x * m13 + p.y * m23 + p.z * m33 + m43
    let w = p.x * m14 + p.y * m24 + p.z * m34 + m44
    guard w != 0 else { return (Vector3(x, y, z), 0) }
    return (Vector3(x / w, y / w, z / w), w)
  }

  /// Maps a point of the z = 0 plane to 2D, with perspective division.
  ///
  /// - Parameter p: The point, points.
  /// - Returns: The projected 2D point.
  public func apply(to p: Point) -> Point {
    let r = project(Vector3(p.x, p.y, 0)).point
    return Point(x: r.x, y: r.y)
  }
}

extension Transform3D {
  /// The inverse transform, or `nil` when it is singular (Gauss-Jordan elimination with partial
  /// pivoting).
  public var inverted: Transform3D? {
    var a = rowMajor
    var inv = Transform3D.identity.rowMajor
    for col in 0..<4 {
      var pivot = col
      for r in (col + 1)..<4 where abs(a[r * 4 + col]) > abs(a[pivot * 4 + col]) { pivot = r }
      let p = a[pivot * 4 + col]
      guard abs(p) > 1e-14, p.isFinite else { return nil }
      if pivot != col {
        for k in 0..<4 {
          a.swapAt(col * 4 + k, pivot * 4 + k)
          inv.swapAt(col * 4 + k, pivot * 4 + k)
        }
      }
      for k in 0..<4 {
        a[col * 4 + k] /= p
        inv[col * 4 + k] /= p
      }
      for r in 0..<4 where r != col {
        let f = a[r * 4 + col]
        if f == 0 { continue }
        for k in 0..<4 {
          a[r * 4 + k] -= f * a[col * 4 + k]
          inv[r * 4 + k] -= f * inv[col * 4 + k]
        }
      }
    }
    return Transform3D(rowMajor: inv)
  }
}
