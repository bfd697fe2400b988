import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

/// A random affine transform: rotation, non-uniform scale, shear and translation.
private func randomAffine(_ rng: inout SplitMix64) -> SwellGeometry.AffineTransform {
  SwellGeometry.AffineTransform(
    a: Double.random(in: -3...3, using: &rng), b: Double.random(in: -3...3, using: &rng),
    c: Double.random(in: -3...3, using: &rng), d: Double.random(in: -3...3, using: &rng),
    tx: Double.random(in: -100...100, using: &rng), ty: Double.random(in: -100...100, using: &rng))
}

private func randomPoint(_ rng: inout SplitMix64) -> Point {
  Point(
    x: Double.random(in: -500...500, using: &rng), y: Double.random(in: -500...500, using: &rng))
}

@Suite("AffineTransform")
private struct AffineTransformTests {
  typealias Affine = SwellGeometry.AffineTransform

  @Test("+90° turns clockwise on a y-down screen: (1, 0) goes to (0, 1)")
  func rotationIsClockwiseOnScreen() {
    let r = Affine(rotationAngle: .pi / 2)
    #expect(maxDifference(r.apply(to: Point(x: 1, y: 0)), Point(x: 0, y: 1)) < 1e-15)
    #expect(maxDifference(r.apply(to: Point(x: 0, y: 1)), Point(x: -1, y: 0)) < 1e-15)
    // 30°: (cos 30°, sin 30°), y down means the point moves down the screen.
    let p = Affine(rotationAngle: .pi / 6).apply(to: Point(x: 2, y: 0))
    #expect(maxDifference(p, Point(x: 3.0.squareRoot(), y: 1)) < 1e-15)
  }

  @Test("Concatenation applies self first, then the argument")
  func concatenationOrder() {
    let t = Affine(translationX: 10, y: 0)
    let r = Affine(rotationAngle: .pi / 2)
    // Translate then rotate: (0, 0) → (10, 0) → (0, 10).
    #expect(maxDifference(t.concatenating(r).apply(to: .zero), Point(x: 0, y: 10)) < 1e-14)
    // Rotate then translate: (0, 0) → (0, 0) → (10, 0).
    #expect(maxDifference(r.concatenating(t).apply(to: .zero), Point(x: 10, y: 0)) < 1e-14)
    let s = Affine(scaleX: 2, y: 3)
    #expect(t.concatenating(s).apply(to: Point(x: 1, y: 1)) == Point(x: 22, y: 3))
    #expect(s.concatenating(t).apply(to: Point(x: 1, y: 1)) == Point(x: 12, y: 3))
  }

  @Test("Concatenation equals applying one after the other", arguments: propertySeeds)
  func concatenationProperty(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let t1 = randomAffine(&rng)
      let t2 = randomAffine(&rng)
      let t3 = randomAffine(&rng)
      let p = randomPoint(&rng)
      let expected = t2.apply(to: t1.apply(to: p))
      #expect(maxDifference(t1.concatenating(t2).apply(to: p), expected) < 1e-9, "seed \(seed)")
      // Associative.
      let left = t1.concatenating(t2).concatenating(t3)
      let right = t1.concatenating(t2.concatenating(t3))
      #expect(maxDifference(left, right) < 1e-9, "seed \(seed)")
      #expect(
        abs(t1.concatenating(t2).determinant - t1.determinant * t2.determinant) < 1e-9,
        "seed \(seed)")
    }
  }

  @Test("The inverse undoes the transform", arguments: propertySeeds)
  func inverse(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let t = randomAffine(&rng)
      guard abs(t.determinant) > 1e-3 else { continue }
      let inv = try #require(t.inverted, "seed \(seed)")
      let p = randomPoint(&rng)
      let tolerance = 1e-9 / min(1, abs(t.determinant))
      #expect(maxDifference(inv.apply(to: t.apply(to: p)), p) < tolerance, "seed \(seed)")
      #expect(maxDifference(t.concatenating(inv), .identity) < tolerance, "seed \(seed)")
      #expect(maxDifference(inv.concatenating(t), .identity) < tolerance, "seed \(seed)")
    }
  }

  @Test("Singular transforms have no inverse")
  func singular() {
    #expect(Affine(scaleX: 0, y: 1).inverted == nil)
    #expect(Affine(a: 1, b: 2, c: 2, d: 4, tx: 5, ty: 6).inverted == nil)
    #expect(Affine(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0).inverted == nil)
  }

  @Test("rotationAngle recovers the angle in (−π, π]", arguments: [-3.0, -1, 0, 0.5, 2, 3.1])
  func rotationAngle(angle: Double) {
    let r = Affine(rotationAngle: angle)
    #expect(abs(r.rotationAngle - angle) < 1e-15)
    #expect(abs(r.determinant - 1) < 1e-15)
    // Uniform scale and translation do not change it.
    let t = r.concatenating(Affine(scaleX: 3, y: 3)).concatenating(Affine(translationX: 4, y: 5))
    #expect(abs(t.rotationAngle - angle) < 1e-15)
  }

  @Test("Identity, translation and scale")
  func basics() {
    #expect(Affine.identity.isIdentity)
    #expect(!Affine(translationX: 1, y: 0).isIdentity)
    #expect(Affine(translationX: 3, y: -2).apply(to: Point(x: 1, y: 1)) == Point(x: 4, y: -1))
    #expect(Affine(scaleX: 2, y: -1).apply(to: Point(x: 3, y: 4)) == Point(x: 6, y: -4))
    #expect(Affine(scaleX: 2, y: 5).determinant == 10)
  }
}

@Suite("Transform3D")
private struct Transform3DTests {
  typealias Affine = SwellGeometry.AffineTransform

  @Test("Row-vector order: translate then scale scales the translation")
  func rowVectorOrder() {
    let t = Transform3D(translationX: 10, y: 0, z: 0)
    let s = Transform3D(scaleX: 2, y: 2, z: 2)
    #expect(t.concatenating(s).project(.zero).point == Vector3(20, 0, 0))
    #expect(s.concatenating(t).project(.zero).point == Vector3(10, 0, 0))
    // The translation lives in the fourth row.
    #expect(t.m41 == 10 && t.m14 == 0)
  }

  @Test("Concatenation equals applying one after the other", arguments: propertySeeds)
  func concatenationProperty(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let a = Transform3D(
        rotationAngle: Double.random(in: -3...3, using: &rng),
        x: Double.random(in: -1...1, using: &rng),
        y: Double.random(in: -1...1, using: &rng), z: Double.random(in: -1...1, using: &rng)
      ).concatenating(Transform3D(translationX: 5, y: -7, z: 3))
      let b = Transform3D(scaleX: 2, y: 0.5, z: 3).concatenating(
        Transform3D(rotationAngle: Double.random(in: -3...3, using: &rng), x: 0, y: 1, z: 0))
      let p = Vector3(
        Double.random(in: -50...50, using: &rng), Double.random(in: -50...50, using: &rng),
        Double.random(in: -50...50, using: &rng))
      let expected = b.project(a.project(p).point).point
      #expect(maxDifference(a.concatenating(b).project(p).point, expected) < 1e-9, "seed \(seed)")
    }
  }

  @Test(
    "The rotation matrix is the transpose of Rodrigues' (row vectors)", arguments: propertySeeds)
  func rotationMatchesRodrigues(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let n = rng.unitVector() * Double.random(in: 0.5...3, using: &rng)
      let angle = Double.random(in: -.pi ... .pi, using: &rng)
      let t = Transform3D(rotationAngle: angle, x: n.x, y: n.y, z: n.z)
      let r = rodrigues(axis: n, angle: angle)
      let m = [[t.m11, t.m12, t.m13], [t.m21, t.m22, t.m23], [t.m31, t.m32, t.m33]]
      for i in 0..<3 {
        for j in 0..<3 { #expect(abs(m[i][j] - r[j][i]) < 1e-12, "seed \(seed)") }
      }
      #expect(t.m14 == 0 && t.m24 == 0 && t.m34 == 0 && t.m44 == 1)
    }
  }

  @Test("Rotation signs match Core Animation: +z turns clockwise on screen, +x tips y to z")
  func rotationSigns() {
    let rz = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
    #expect(maxDifference(rz.apply(to: Point(x: 1, y: 0)), Point(x: 0, y: 1)) < 1e-15)
    // Same as the 2D rotation embedded.
    #expect(maxDifference(rz, Transform3D(Affine(rotationAngle: .pi / 2))) < 1e-15)
    let rx = Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0)
    #expect(maxDifference(rx.project(Vector3(0, 1, 0)).point, Vector3(0, 0, 1)) < 1e-15)
    let ry = Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0)
    #expect(maxDifference(ry.project(Vector3(0, 0, 1)).point, Vector3(1, 0, 0)) < 1e-15)
    // A zero axis is the identity.
    #expect(Transform3D(rotationAngle: 1, x: 0, y: 0, z: 0) == .identity)
  }

  @Test("Perspective m34 = −1/d makes the far edge smaller")
  func perspective() {
    let p = Transform3D(perspectiveDistance: 500)
    #expect(p.m34 == -1.0 / 500)
    // z < 0 is away from the viewer: w = 1 − z·(1/500).
    let far = p.project(Vector3(100, 50, -100))
    let near = p.project(Vector3(100, 50, 100))
    #expect(abs(far.w - 1.2) < 1e-15)
    #expect(abs(far.point.x - 100 / 1.2) < 1e-12)
    #expect(abs(near.point.x - 100 / 0.8) < 1e-12)
    // Turning a layer 30° about y: the x > 0 edge goes back (z = −x·sin 30°) and shrinks.
    let tilt = Transform3D(rotationAngle: .pi / 6, x: 0, y: 1, z: 0).concatenating(p)
    let right = tilt.apply(to: Point(x: 100, y: 50))
    let left = tilt.apply(to: Point(x: -100, y: 50))
    #expect(abs(right.y - 50 / 1.1) < 1e-12)
    #expect(abs(left.y - 50 / 0.9) < 1e-12)
    #expect(abs(right.x) < abs(left.x))
    // Behind the eye: w ≤ 0.
    #expect(p.project(Vector3(0, 0, 600)).w < 0)
    #expect(p.project(Vector3(0, 0, 500)).w == 0)
  }

  @Test("The affine embedding agrees with the 2D transform", arguments: propertySeeds)
  func affineEmbedding(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let a = randomAffine(&rng)
      let b = randomAffine(&rng)
      let t = Transform3D(a)
      #expect(t.isAffine, "seed \(seed)")
      #expect(t.affine == a, "seed \(seed)")
      let p = randomPoint(&rng)
      #expect(maxDifference(t.apply(to: p), a.apply(to: p)) < 1e-9, "seed \(seed)")
      let both = Transform3D(a).concatenating(Transform3D(b))
      #expect(maxDifference(both, Transform3D(a.concatenating(b))) < 1e-9, "seed \(seed)")
    }
    #expect(!Transform3D(perspectiveDistance: 100).isAffine)
    #expect(!Transform3D(rotationAngle: 0.1, x: 1, y: 0, z: 0).isAffine)
    #expect(Transform3D(Affine.identity).isIdentity)
  }

  @Test("The inverse undoes rotation, scale, translation and perspective", arguments: propertySeeds)
  func inverse(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      let n = rng.unitVector()
      let t = Transform3D(scaleX: 2, y: 0.5, z: 1.5)
        .concatenating(
          Transform3D(rotationAngle: Double.random(in: -3...3, using: &rng), x: n.x, y: n.y, z: n.z)
        )
        .concatenating(Transform3D(translationX: 30, y: -20, z: 10))
        .concatenating(Transform3D(perspectiveDistance: Double.random(in: 200...2000, using: &rng)))
      let inv = try #require(t.inverted, "seed \(seed)")
      #expect(maxDifference(t.concatenating(inv), .identity) < 1e-12, "seed \(seed)")
      #expect(maxDifference(inv.concatenating(t), .identity) < 1e-12, "seed \(seed)")
    }
    #expect(Transform3D(scaleX: 1, y: 0, z: 1).inverted == nil)
    #expect(Transform3D.identity.inverted == .identity)
    // A permutation needs pivoting: the first pivot is zero.
    let swap = Transform3D(rowMajor: [0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    #expect(swap.inverted == swap)
  }

  @Test("rowMajor round trip and identity")
  func rowMajor() {
    let values = (1...16).map(Double.init)
    let t = Transform3D(rowMajor: values)
    #expect(t.rowMajor == values)
    #expect(t.m12 == 2 && t.m21 == 5 && t.m34 == 12 && t.m43 == 15)
    #expect(Transform3D.identity.isIdentity)
    #expect(Transform3D.identity.isAffine)
  }
}
