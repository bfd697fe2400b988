import Foundation
import SwellGeometry

// Independent reference formulas for the geometry tests. They share no code with the module
// under test: rotations come from Rodrigues' formula written out with plain arrays.

/// A 3×3 matrix as nested arrays, row-major, for reference computations.
typealias RefMatrix = [[Double]]

/// The column-vector rotation matrix of `angle` radians about `axis` (right-hand rule), by
/// Rodrigues' formula `R = cos θ·I + sin θ·[n]× + (1 − cos θ)·n nᵀ`.
func rodrigues(axis: Vector3, angle: Double) -> RefMatrix {
  let len = (axis.x * axis.x + axis.y * axis.y + axis.z * axis.z).squareRoot()
  let n = [axis.x / len, axis.y / len, axis.z / len]
  let c = cos(angle)
  let s = sin(angle)
  let cross: RefMatrix = [[0, -n[2], n[1]], [n[2], 0, -n[0]], [-n[1], n[0], 0]]
  var r = RefMatrix(repeating: [0, 0, 0], count: 3)
  for i in 0..<3 {
    for j in 0..<3 {
      r[i][j] = (i == j ? c : 0) + s * cross[i][j] + (1 - c) * n[i] * n[j]
    }
  }
  return r
}

/// The product of two reference matrices.
func multiply(_ a: RefMatrix, _ b: RefMatrix) -> RefMatrix {
  var r = RefMatrix(repeating: [0, 0, 0], count: 3)
  for i in 0..<3 {
    for j in 0..<3 {
      for k in 0..<3 { r[i][j] += a[i][k] * b[k][j] }
    }
  }
  return r
}

/// A reference matrix applied to a column vector.
func multiply(_ m: RefMatrix, _ v: Vector3) -> Vector3 {
  let a = [v.x, v.y, v.z]
  var r = [0.0, 0.0, 0.0]
  for i in 0..<3 {
    for k in 0..<3 { r[i] += m[i][k] * a[k] }
  }
  return Vector3(r[0], r[1], r[2])
}

/// The largest absolute difference between a `Matrix3` and a reference matrix.
func maxDifference(_ m: Matrix3, _ r: RefMatrix) -> Double {
  var d = 0.0
  for i in 0..<3 {
    for j in 0..<3 { d = max(d, abs(m[i, j] - r[i][j])) }
  }
  return d
}

/// The largest absolute difference between two matrices.
func maxDifference(_ a: Matrix3, _ b: Matrix3) -> Double {
  var d = 0.0
  for i in 0..<3 {
    for j in 0..<3 { d = max(d, abs(a[i, j] - b[i, j])) }
  }
  return d
}

/// The largest absolute difference between two 4×4 transforms.
func maxDifference(_ a: Transform3D, _ b: Transform3D) -> Double {
  zip(a.rowMajor, b.rowMajor).map { abs($0 - $1) }.max() ?? 0
}

/// The largest absolute difference between two 2D affine transforms.
func maxDifference(_ a: SwellGeometry.AffineTransform, _ b: SwellGeometry.AffineTransform) -> Double
{
  max(
    abs(a.a - b.a), abs(a.b - b.b), abs(a.c - b.c), abs(a.d - b.d), abs(a.tx - b.tx),
    abs(a.ty - b.ty))
}

/// The largest absolute difference between two points.
func maxDifference(_ a: Point, _ b: Point) -> Double {
  max(abs(a.x - b.x), abs(a.y - b.y))
}

/// The largest component difference of two vectors.
func maxDifference(_ a: Vector3, _ b: Vector3) -> Double {
  max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
}

/// The seeds every property test runs with.
let propertySeeds: [UInt64] = [1, 42, 0x5EED_CAFE, 0xDEAD_BEEF_0123_4567]
