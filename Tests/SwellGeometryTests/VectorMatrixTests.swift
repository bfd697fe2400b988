import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@Suite("Vector3")
private struct Vector3Tests {
  @Test("The basis is right-handed: x × y = z, y × z = x, z × x = y")
  func rightHandedBasis() {
    #expect(Vector3.unitX.cross(.unitY) == .unitZ)
    #expect(Vector3.unitY.cross(.unitZ) == .unitX)
    #expect(Vector3.unitZ.cross(.unitX) == .unitY)
    #expect(Vector3.unitY.cross(.unitX) == -Vector3.unitZ)
  }

  @Test("Cross and dot identities", arguments: propertySeeds)
  func crossDotIdentities(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    func random() -> Vector3 {
      Vector3(
        Double.random(in: -10...10, using: &rng), Double.random(in: -10...10, using: &rng),
        Double.random(in: -10...10, using: &rng))
    }
    for _ in 0..<300 {
      let a = random()
      let b = random()
      let c = random()
      let axb = a.cross(b)
      let scale = a.length * b.length
      // Anticommutative, perpendicular to both operands.
      #expect(maxDifference(axb, -b.cross(a)) < 1e-12, "seed \(seed)")
      #expect(abs(axb.dot(a)) < 1e-11 * scale * a.length, "seed \(seed)")
      #expect(abs(axb.dot(b)) < 1e-11 * scale * b.length, "seed \(seed)")
      // Lagrange's identity: |a × b|² + (a·b)² = |a|²|b|².
      let lhs = axb.lengthSquared + a.dot(b) * a.dot(b)
      #expect(abs(lhs - a.lengthSquared * b.lengthSquared) < 1e-10 * scale * scale, "seed \(seed)")
      // The triple product is the determinant with rows a, b, c (expanded by hand).
      let det =
        a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x)
        + a.z * (b.x * c.y - b.y * c.x)
      #expect(abs(a.dot(b.cross(c)) - det) < 1e-9, "seed \(seed)")
      #expect(abs(Matrix3(rows: a, b, c).determinant - det) < 1e-9, "seed \(seed)")
      // Bilinearity and the BAC-CAB rule: a × (b × c) = b(a·c) − c(a·b).
      let bac = b * a.dot(c) - c * a.dot(b)
      #expect(maxDifference(a.cross(b.cross(c)), bac) < 1e-9, "seed \(seed)")
      #expect(maxDifference((a + c).cross(b), axb + c.cross(b)) < 1e-11, "seed \(seed)")
    }
  }

  @Test("angle(to:) against acos of the normalized dot product", arguments: propertySeeds)
  func angleMatchesAcos(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<300 {
      let a = rng.unitVector() * Double.random(in: 0.01...100, using: &rng)
      let b = rng.unitVector() * Double.random(in: 0.01...100, using: &rng)
      let expected = acos((a.x * b.x + a.y * b.y + a.z * b.z) / (a.length * b.length))
      #expect(abs(a.angle(to: b) - expected) < 1e-7, "seed \(seed)")
      #expect(abs(a.angle(to: b) - b.angle(to: a)) < 1e-15, "seed \(seed)")
    }
  }

  @Test("angle(to:) at its edges: parallel, opposite, perpendicular, tiny, zero")
  func angleEdges() {
    let a = Vector3(1, 2, 3)
    #expect(a.angle(to: a * 4) == 0)
    #expect(abs(a.angle(to: -a) - .pi) < 1e-15)
    #expect(abs(Vector3.unitX.angle(to: .unitZ) - .pi / 2) < 1e-15)
    // acos would lose this angle entirely; atan2 keeps it.
    #expect(abs(Vector3.unitX.angle(to: Vector3(1, 1e-10, 0)) - 1e-10) < 1e-24)
    #expect(Vector3.zero.angle(to: a) == 0)
    #expect(a.angle(to: .zero) == 0)
  }

  @Test("Length, normalization and arithmetic")
  func lengthAndArithmetic() {
    let v = Vector3(3, 4, 12)
    #expect(v.length == 13)
    #expect(v.lengthSquared == 169)
    #expect(maxDifference(v.normalized(), Vector3(3.0 / 13, 4.0 / 13, 12.0 / 13)) < 1e-16)
    #expect(Vector3.zero.normalized() == .zero)
    #expect(Vector3(.infinity, 0, 0).normalized() == .zero)
    #expect(Vector3(.nan, 0, 0).normalized() == .zero)
    #expect(!Vector3(.nan, 0, 0).isFinite)
    #expect(v + Vector3(1, 1, 1) == Vector3(4, 5, 13))
    #expect(v - Vector3(1, 1, 1) == Vector3(2, 3, 11))
    #expect(2 * v == Vector3(6, 8, 24))
    #expect(v / 2 == Vector3(1.5, 2, 6))
    var w = v
    w += .unitX
    w -= .unitY
    w *= 2
    #expect(w == Vector3(8, 6, 24))
    #expect(Vector3(x: 1, y: 2, z: 3) == Vector3(1, 2, 3))
    #expect(v.description == "(3.0, 4.0, 12.0)")
  }
}

@Suite("Matrix3")
private struct Matrix3Tests {
  @Test("Determinants computed by hand")
  func determinants() {
    #expect(Matrix3.identity.determinant == 1)
    #expect(Matrix3(rowMajor: [2, 0, 0, 0, 3, 0, 0, 0, 4]).determinant == 24)
    // Swapping two rows flips the sign.
    #expect(Matrix3(rowMajor: [0, 1, 0, 1, 0, 0, 0, 0, 1]).determinant == -1)
    // 1(5·10 − 6·8) − 2(4·10 − 6·7) + 3(4·8 − 5·7) = 2 + 4 − 9 = −3.
    #expect(Matrix3(rowMajor: [1, 2, 3, 4, 5, 6, 7, 8, 10]).determinant == -3)
    // Linearly dependent rows.
    #expect(Matrix3(rowMajor: [1, 2, 3, 4, 5, 6, 7, 8, 9]).determinant == 0)
  }

  @Test("A rotation has determinant 1 and its transpose is its inverse", arguments: propertySeeds)
  func rotationTransposeIsInverse(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let n = rng.unitVector()
      let angle = Double.random(in: -.pi ... .pi, using: &rng)
      let m = Matrix3(rowMajor: rodrigues(axis: n, angle: angle).flatMap { $0 })
      #expect(abs(m.determinant - 1) < 1e-12, "seed \(seed)")
      #expect(maxDifference(m.transposed * m, .identity) < 1e-12, "seed \(seed)")
      #expect(maxDifference(m * m.transposed, .identity) < 1e-12, "seed \(seed)")
      let v = rng.unitVector()
      #expect(maxDifference(m.transposed * (m * v), v) < 1e-12, "seed \(seed)")
    }
  }

  @Test("Products: (A·B)·v = A·(B·v), against the nested-array product", arguments: propertySeeds)
  func products(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<100 {
      let va = (0..<9).map { _ in Double.random(in: -5...5, using: &rng) }
      let vb = (0..<9).map { _ in Double.random(in: -5...5, using: &rng) }
      let a = Matrix3(rowMajor: va)
      let b = Matrix3(rowMajor: vb)
      let ra: RefMatrix = [Array(va[0..<3]), Array(va[3..<6]), Array(va[6..<9])]
      let rb: RefMatrix = [Array(vb[0..<3]), Array(vb[3..<6]), Array(vb[6..<9])]
      #expect(maxDifference(a * b, multiply(ra, rb)) < 1e-12, "seed \(seed)")
      let v = Vector3(1, -2, 0.5)
      #expect(maxDifference((a * b) * v, a * (b * v)) < 1e-11, "seed \(seed)")
      #expect(abs((a * b).determinant - a.determinant * b.determinant) < 1e-9, "seed \(seed)")
    }
  }

  @Test("Subscripts, rows and columns")
  func subscripts() {
    var m = Matrix3(rowMajor: [1, 2, 3, 4, 5, 6, 7, 8, 9])
    #expect(m[0, 2] == 3)
    #expect(m[2, 0] == 7)
    #expect(m[1, 1] == 5)
    #expect(m.column0 == Vector3(1, 4, 7))
    #expect(m.column2 == Vector3(3, 6, 9))
    #expect(m.transposed.row0 == Vector3(1, 4, 7))
    m[2, 1] = -1
    m[0, 0] = 10
    #expect(m.row2 == Vector3(7, -1, 9))
    #expect(m.row0 == Vector3(10, 2, 3))
    #expect(m * Vector3(1, 0, 0) == Vector3(10, 4, 7))
  }
}
