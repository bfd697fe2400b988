import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@Suite("Quaternion")
private struct QuaternionTests {
  @Test("q ⊗ q⁻¹ is the identity, for unit and non-unit q", arguments: propertySeeds)
  func productWithInverseIsIdentity(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let q = rng.rotation()
      let scale = Double.random(in: 0.1...10, using: &rng)
      let big = Quaternion(w: q.w * scale, x: q.x * scale, y: q.y * scale, z: q.z * scale)
      for p in [q * q.inverse, q.inverse * q, big * big.inverse, q * q.conjugate] {
        #expect(abs(p.w - 1) < 1e-12, "seed \(seed): q = \(q), p = \(p)")
        #expect(p.vector.length < 1e-12, "seed \(seed): q = \(q), p = \(p)")
      }
    }
  }

  @Test("Hamilton products of the basis: i² = j² = k² = ijk = −1, ij = k")
  func basisProducts() {
    let i = Quaternion(w: 0, x: 1, y: 0, z: 0)
    let j = Quaternion(w: 0, x: 0, y: 1, z: 0)
    let k = Quaternion(w: 0, x: 0, y: 0, z: 1)
    let minusOne = Quaternion(w: -1, x: 0, y: 0, z: 0)
    #expect(i * i == minusOne)
    #expect(j * j == minusOne)
    #expect(k * k == minusOne)
    #expect(i * j * k == minusOne)
    #expect(i * j == k)
    #expect(j * k == i)
    #expect(k * i == j)
    #expect(j * i == Quaternion(w: 0, x: 0, y: 0, z: -1))
  }

  @Test("The rotation matrix equals Rodrigues' matrix", arguments: propertySeeds)
  func matrixMatchesRodrigues(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let n = rng.unitVector()
      let angle = Double.random(in: -2 * .pi...2 * .pi, using: &rng)
      let q = Quaternion(axis: n, angle: angle)
      let r = rodrigues(axis: n, angle: angle)
      #expect(maxDifference(q.rotationMatrix, r) < 1e-12, "seed \(seed): n = \(n), θ = \(angle)")
    }
  }

  @Test("Composing rotations matches multiplying their matrices", arguments: propertySeeds)
  func compositionMatchesMatrixProduct(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let n1 = rng.unitVector()
      let n2 = rng.unitVector()
      let a1 = Double.random(in: -.pi ... .pi, using: &rng)
      let a2 = Double.random(in: -.pi ... .pi, using: &rng)
      let qa = Quaternion(axis: n1, angle: a1)
      let qb = Quaternion(axis: n2, angle: a2)
      let q = qa * qb
      let r = multiply(rodrigues(axis: n1, angle: a1), rodrigues(axis: n2, angle: a2))
      #expect(maxDifference(q.rotationMatrix, r) < 1e-12, "seed \(seed)")
      // (a ⊗ b).rotate(v) == a.rotate(b.rotate(v)): b acts first.
      let v = rng.unitVector() * 3
      #expect(maxDifference(q.rotate(v), qa.rotate(qb.rotate(v))) < 1e-12, "seed \(seed)")
    }
  }

  @Test("rotate(v) equals R·v, and inverseRotate undoes it", arguments: propertySeeds)
  func rotateMatchesMatrix(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let n = rng.unitVector()
      let angle = Double.random(in: -.pi ... .pi, using: &rng)
      let q = Quaternion(axis: n, angle: angle)
      let v = rng.unitVector() * Double.random(in: 0.1...100, using: &rng)
      let expected = multiply(rodrigues(axis: n, angle: angle), v)
      let tolerance = 1e-12 * v.length
      #expect(maxDifference(q.rotate(v), expected) < tolerance, "seed \(seed)")
      #expect(maxDifference(q.rotationMatrix * v, expected) < tolerance, "seed \(seed)")
      #expect(maxDifference(q.inverseRotate(q.rotate(v)), v) < tolerance, "seed \(seed)")
    }
  }

  @Test("Right-hand rule: +90° about z takes x to y, about x takes y to z")
  func rightHandRule() {
    let q = Quaternion(axis: .unitZ, angle: .pi / 2)
    #expect(maxDifference(q.rotate(.unitX), .unitY) < 1e-15)
    #expect(maxDifference(q.rotate(.unitY), -Vector3.unitX) < 1e-15)
    let qx = Quaternion(axis: .unitX, angle: .pi / 2)
    #expect(maxDifference(qx.rotate(.unitY), .unitZ) < 1e-15)
  }

  @Test("Matrix → quaternion → matrix round trip, half turns included", arguments: propertySeeds)
  func matrixRoundTripRandom(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for i in 0..<300 {
      let n = rng.unitVector()
      // Every fourth case is a half turn, where the trace is −1 and Shepperd's method must
      // pick the largest diagonal term.
      let angle = i % 4 == 0 ? Double.pi : Double.random(in: 0 ... .pi, using: &rng)
      let m = Matrix3(rowMajor: rodrigues(axis: n, angle: angle).flatMap { $0 })
      let q = Quaternion(rotationMatrix: m)
      #expect(abs(q.norm - 1) < 1e-12, "seed \(seed)")
      #expect(q.w >= 0, "seed \(seed): the canonical form has w ≥ 0")
      #expect(maxDifference(q.rotationMatrix, m) < 1e-12, "seed \(seed): n = \(n), θ = \(angle)")
      #expect(abs(q.angle - angle) < 1e-7, "seed \(seed): n = \(n), θ = \(angle)")
    }
  }

  /// The 24 proper rotations that permute the axes with signs (the rotation group of the cube).
  static let axisPermutations: [Matrix3] = {
    let perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
    var out: [Matrix3] = []
    for p in perms {
      for signs in 0..<8 {
        var values = [Double](repeating: 0, count: 9)
        for row in 0..<3 { values[row * 3 + p[row]] = (signs >> row) & 1 == 1 ? -1 : 1 }
        let m = Matrix3(rowMajor: values)
        if m.determinant > 0 { out.append(m) }
      }
    }
    return out
  }()

  @Test("All 24 signed axis permutations round trip exactly")
  func matrixRoundTripAxisPermutations() {
    #expect(Self.axisPermutations.count == 24)
    var angles: Set<Int> = []
    for m in Self.axisPermutations {
      let q = Quaternion(rotationMatrix: m)
      #expect(abs(q.norm - 1) < 1e-15, "\(m)")
      #expect(maxDifference(q.rotationMatrix, m) < 1e-15, "\(m)")
      for e in [Vector3.unitX, .unitY, .unitZ] {
        #expect(maxDifference(q.rotate(e), m * e) < 1e-15, "\(m)")
      }
      angles.insert(Int((q.angle * 180 / .pi).rounded()))
    }
    // The cube group has rotations by 0°, 90°, 120° and 180°.
    #expect(angles == [0, 90, 120, 180])
  }

  @Test(
    "Axis-angle round trip",
    arguments: [1e-300, 1e-12, 1e-8, 1e-4, 0.5, 1, 2, 3, .pi - 1e-9, .pi])
  func axisAngleRoundTrip(angle: Double) {
    var rng = SplitMix64(seed: 7)
    for _ in 0..<50 {
      let n = rng.unitVector()
      let q = Quaternion(axis: n * 5, angle: angle)
      #expect(abs(q.norm - 1) < 1e-15)
      #expect(abs(q.angle - angle) <= 1e-12 * angle + 1e-15, "n = \(n), θ = \(angle)")
      // Below about 1e-150 the squared components of the vector part underflow and the axis
      // is lost (the documented +x fallback); the angle is still right.
      let axisIsResolved = angle > 1e-150 && angle < .pi
      if axisIsResolved {
        #expect(maxDifference(q.axis, n) < 1e-9, "n = \(n), θ = \(angle)")
      }
      // The negated angle is the same rotation about the negated axis.
      let r = Quaternion(axis: n, angle: -angle)
      #expect(abs(r.angle - angle) <= 1e-12 * angle + 1e-15)
      if axisIsResolved {
        #expect(maxDifference(r.axis, -n) < 1e-9)
      }
    }
  }

  @Test("Angles beyond π come back as 2π − θ about the opposite axis")
  func angleBeyondPi() {
    let q = Quaternion(axis: .unitZ, angle: 1.5 * .pi)
    #expect(abs(q.angle - 0.5 * .pi) < 1e-12)
    #expect(maxDifference(q.axis, -Vector3.unitZ) < 1e-12)
    #expect(maxDifference(q.rotationVector, Vector3(0, 0, -0.5 * .pi)) < 1e-12)
  }

  @Test("A zero axis gives the identity, whatever the angle", arguments: [0.0, 0.3, 2.0, -1.0])
  func zeroAxisGivesIdentity(angle: Double) {
    #expect(Quaternion(axis: .zero, angle: angle) == .identity)
  }

  @Test(
    "Rotation-vector round trip",
    arguments: [0, 1e-300, 1e-15, 1e-10, 1e-8, 1e-6, 0.1, 1, 3, 3.14])
  func rotationVectorRoundTrip(length: Double) {
    var rng = SplitMix64(seed: 11)
    for _ in 0..<50 {
      let v = rng.unitVector() * length
      let q = Quaternion(rotationVector: v)
      #expect(abs(q.norm - 1) < 1e-15)
      if length > 0 {
        // Independent golden value: w = cos(θ/2), vector = sin(θ/2)·v/θ.
        let k = sin(length / 2) / length
        #expect(abs(q.w - cos(length / 2)) < 1e-15)
        #expect(maxDifference(q.vector, v * k) <= 1e-15 * length)
      } else {
        #expect(q == .identity)
      }
      #expect(maxDifference(q.rotationVector, v) <= 1e-12 * length, "v = \(v)")
    }
  }

  @Test("Tiny rotation vectors rotate to first order: R·u ≈ u + v × u")
  func tinyRotationIsFirstOrder() {
    let v = Vector3(1e-9, -2e-9, 3e-9)
    let q = Quaternion(rotationVector: v)
    let u = Vector3(0.3, 0.5, -0.8)
    #expect(maxDifference(q.rotate(u), u + v.cross(u)) < 1e-16)
  }

  @Test("slerp endpoints", arguments: propertySeeds)
  func slerpEndpoints(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<100 {
      let a = rng.rotation()
      let b = rng.rotation()
      #expect(isSameRotation(a.slerp(to: b, fraction: 0), a, tolerance: 1e-7), "seed \(seed)")
      #expect(isSameRotation(a.slerp(to: b, fraction: 1), b, tolerance: 1e-7), "seed \(seed)")
    }
  }

  @Test("slerp turns at constant angular speed along the shortest path", arguments: propertySeeds)
  func slerpConstantSpeedShortestPath(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<100 {
      let a = rng.rotation()
      // Half the cases use −b: the same rotation, so slerp must take the same short path.
      var b = rng.rotation()
      if Bool.random(using: &rng) { b = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z) }
      let total = a.angularDistance(to: b)
      #expect(total <= .pi + 1e-12, "seed \(seed)")
      for i in 0...10 {
        let t = Double(i) / 10
        let s = a.slerp(to: b, fraction: t)
        #expect(abs(s.norm - 1) < 1e-12, "seed \(seed)")
        #expect(abs(a.angularDistance(to: s) - t * total) < 1e-6, "seed \(seed), t = \(t)")
        #expect(abs(s.angularDistance(to: b) - (1 - t) * total) < 1e-6, "seed \(seed), t = \(t)")
      }
    }
  }

  @Test("slerp between close rotations (the linear branch) stays on the geodesic")
  func slerpCloseRotations() {
    let a = Quaternion(axis: .unitZ, angle: 0.2)
    let b = Quaternion(axis: .unitZ, angle: 0.21)
    for i in 0...10 {
      let t = Double(i) / 10
      let s = a.slerp(to: b, fraction: t)
      #expect(abs(s.angle - (0.2 + 0.01 * t)) < 1e-9)
      #expect(maxDifference(s.axis, .unitZ) < 1e-9)
    }
  }

  @Test("rotation(from:to:) turns from onto to by the shortest arc", arguments: propertySeeds)
  func rotationFromTo(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let a = rng.unitVector() * Double.random(in: 0.1...10, using: &rng)
      let b = rng.unitVector() * Double.random(in: 0.1...10, using: &rng)
      let q = Quaternion.rotation(from: a, to: b)
      #expect(abs(q.norm - 1) < 1e-12, "seed \(seed)")
      #expect(maxDifference(q.rotate(a.normalized()), b.normalized()) < 1e-12, "seed \(seed)")
      // Shortest arc: the angle between the vectors, about their common normal.
      let between = acos(max(-1, min(1, a.normalized().dot(b.normalized()))))
      #expect(abs(q.angle - between) < 1e-7, "seed \(seed)")
      #expect(abs(q.axis.dot(a)) < 1e-9 * a.length, "seed \(seed)")
      #expect(abs(q.axis.dot(b)) < 1e-9 * b.length, "seed \(seed)")
    }
  }

  @Test(
    "rotation(from:to:) with opposite vectors is a half turn",
    arguments: [
      Vector3.unitX, -.unitX, .unitY, -.unitY, .unitZ, -.unitZ, Vector3(1, 1, 0),
      Vector3(0.3, -0.2, 0.9), Vector3(1e-3, 0, 1),
    ])
  func rotationFromOpposite(v: Vector3) {
    let q = Quaternion.rotation(from: v, to: -v * 2)
    #expect(abs(q.norm - 1) < 1e-12)
    #expect(abs(q.angle - .pi) < 1e-12)
    #expect(maxDifference(q.rotate(v.normalized()), -v.normalized()) < 1e-12)
  }

  @Test("rotation(from:to:) with nearly opposite vectors stays accurate")
  func rotationFromNearlyOpposite() {
    for eps in [1e-3, 1e-5, 1e-6, 1e-7, 1e-9] {
      let a = Vector3.unitZ
      let b = Vector3(sin(eps), 0, -cos(eps))
      let q = Quaternion.rotation(from: a, to: b)
      #expect(maxDifference(q.rotate(a), b) < 1e-8, "ε = \(eps)")
      #expect(abs(q.angle - (.pi - eps)) < 1e-8, "ε = \(eps)")
    }
  }

  @Test("rotation(from:to:) of parallel vectors is the identity")
  func rotationFromSame() {
    let q = Quaternion.rotation(from: Vector3(1, 2, 3), to: Vector3(2, 4, 6))
    #expect(isSameRotation(q, .identity, tolerance: 1e-12))
  }

  @Test("angularDistance is symmetric and ignores the sign of q", arguments: propertySeeds)
  func angularDistance(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<100 {
      let a = rng.rotation()
      let b = rng.rotation()
      let negB = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z)
      let d = a.angularDistance(to: b)
      #expect(abs(d - b.angularDistance(to: a)) < 1e-12, "seed \(seed)")
      #expect(abs(d - a.angularDistance(to: negB)) < 1e-12, "seed \(seed)")
      // Independent: 2·acos(|⟨a, b⟩|).
      #expect(abs(d - 2 * acos(min(1, abs(a.dot(b))))) < 1e-7, "seed \(seed)")
    }
  }

  @Test("normalized and canonicalized")
  func normalization() {
    let q = Quaternion(w: -2, x: 0, y: 0, z: 0)
    #expect(q.normalized() == Quaternion(w: -1, x: 0, y: 0, z: 0))
    #expect(q.canonicalized() == Quaternion(w: 2, x: 0, y: 0, z: 0))
    #expect(Quaternion(w: 0, x: 0, y: 0, z: 0).normalized() == .identity)
    #expect(Quaternion(w: .nan, x: 0, y: 0, z: 0).normalized() == .identity)
    #expect(!Quaternion(w: .infinity, x: 0, y: 0, z: 0).isFinite)
  }
}
