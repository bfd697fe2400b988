import Foundation
import SwellGeometry
import SwellMotion

/// Orientation error measures of the BROAD benchmark (Laidig, Caruso, Cereatti & Seel, "BROAD -
/// A Benchmark for Robust Inertial Orientation Estimation", Data 6(7):72, 2021).
///
/// With both attitudes taking sensor-frame vectors to the same Earth frame (BROAD: ENU), the
/// error quaternion in the Earth frame is `e = q_est ⊗ conj(q_true)`, made unit with `w ≥ 0`:
/// - total error `2·acos(|e.w|)`;
/// - heading error `2·atan(|e.z / e.w|)` (the rotation about the vertical);
/// - inclination error `2·acos(√(e.w² + e.z²))` (the rest).
public struct OrientationError: Sendable, Hashable, Codable {
  /// Total error, degrees.
  public var totalDegrees: Double
  /// Heading error, degrees.
  public var headingDegrees: Double
  /// Inclination error, degrees.
  public var inclinationDegrees: Double

  /// Creates an error triple.
  ///
  /// - Parameters:
  ///   - totalDegrees: Total error, degrees.
  ///   - headingDegrees: Heading error, degrees.
  ///   - inclinationDegrees: Inclination error, degrees.
  public init(totalDegrees: Double, headingDegrees: Double, inclinationDegrees: Double) {
    self.totalDegrees = totalDegrees
    self.headingDegrees = headingDegrees
    self.inclinationDegrees = inclinationDegrees
  }

  /// The per-sample error of an estimate against the truth.
  ///
  /// - Parameters:
  ///   - estimate: Estimated attitude, sensor → Earth frame (need not be exactly unit).
  ///   - truth: True attitude, sensor → the same Earth frame.
  public init(estimate: Quaternion, truth: Quaternion) {
    let r = OrientationError.radians(estimate: estimate, truth: truth)
    let k = 180 / Double.pi
    self.init(
      totalDegrees: r.total * k, headingDegrees: r.heading * k,
      inclinationDegrees: r.inclination * k)
  }

  /// The error angles in radians (see the type's documentation).
  ///
  /// - Parameters:
  ///   - estimate: Estimated attitude, sensor → Earth.
  ///   - truth: True attitude, sensor → Earth.
  /// - Returns: Total, heading and inclination error, radians, each in [0, π].
  @inlinable
  public static func radians(
    estimate: Quaternion, truth: Quaternion
  ) -> (total: Double, heading: Double, inclination: Double) {
    var e = estimate.normalized() * truth.normalized().conjugate
    e = e.normalized()
    let w = abs(e.w)
    let z = e.w < 0 ? -e.z : e.z
    let total = 2 * acos(min(1, w))
    let heading = w > 0 ? 2 * atan(abs(z / w)) : Double.pi
    let inclination = 2 * acos(min(1, (w * w + z * z).squareRoot()))
    return (total, heading, inclination)
  }

  /// The heading error angle with its sign, radians in (−π, π]: the angle about the Earth's
  /// vertical by which `estimate` is turned from `truth` (its absolute value is the heading
  /// error).
  ///
  /// - Parameters:
  ///   - estimate: Estimated attitude, sensor → Earth.
  ///   - truth: True attitude, sensor → Earth.
  /// - Returns: `wrap(2·atan2(e.z, e.w))`.
  @inlinable
  public static func signedHeading(estimate: Quaternion, truth: Quaternion) -> Double {
    let e = estimate * truth.conjugate
    var h = 2 * atan2(e.z, e.w)
    if h > Double.pi { h -= 2 * Double.pi } else if h <= -Double.pi { h += 2 * Double.pi }
    return h
  }
}

/// Root-mean-square errors over a trial, degrees.
public typealias OrientationRMSE = OrientationError

/// BROAD-style scoring of an attitude estimate against ground truth.
public enum OrientationEvaluation {
  /// The rotation taking CoreMotion's north frame (NWU: x north, y west, z up) to BROAD's ENU
  /// frame (x east, y north, z up): `q_ENU = nwuToENU ⊗ q_NWU`, a quarter turn about z.
  public static let nwuToENU = Quaternion(
    w: (0.5).squareRoot(), x: 0, y: 0, z: (0.5).squareRoot())

  /// The constant rotation about the Earth's vertical that, applied to every estimate, minimises
  /// the root-mean-square heading error over the scored samples (the 6D alignment of BROAD).
  ///
  /// Exact: the heading error of `rotZ(α) ⊗ q_est` against `q_true` is `|wrap(ψᵢ + α)|` with
  /// `ψᵢ` the signed heading error; the sum of squares is piecewise quadratic in `α`, with a
  /// break where one `ψᵢ + α` crosses ±π, and each piece is minimised in closed form.
  ///
  /// - Parameter signedHeadingErrors: `ψᵢ`, radians, in (−π, π].
  /// - Returns: `α`, radians, in (−π, π].
  public static func optimalHeadingOffset(signedHeadingErrors: [Double]) -> Double {
    let n = signedHeadingErrors.count
    guard n > 0 else { return 0 }
    // Sorted descending: for α in [0, 2π), the j largest values wrap (x + α > π ⇒ x + α − 2π).
    let x = signedHeadingErrors.sorted(by: >)
    let nn = Double(n)
    var sum = 0.0
    var sumSq = 0.0
    for v in x {
      sum += v
      sumSq += v * v
    }
    let twoPi = 2 * Double.pi
    var best = (value: Double.infinity, alpha: 0.0)
    var sumY = sum
    var sumY2 = sumSq
    for j in 0...n {
      // Interval of α where exactly the j largest wrap: π − x[j−1] < α ≤ π − x[j]
      // (α ≥ 0 and α < 2π bound the ends).
      let lower = j == 0 ? 0 : max(0, Double.pi - x[j - 1])
      let upper = j == n ? twoPi : min(twoPi, Double.pi - x[j])
      if lower <= upper {
        let alpha = min(max(-sumY / nn, lower), upper)
        let f = sumY2 + 2 * alpha * sumY + nn * alpha * alpha
        if f < best.value { best = (f, alpha) }
      }
      if j < n {
        // Shift x[j] by −2π.
        let v = x[j]
        sumY -= twoPi
        sumY2 += (v - twoPi) * (v - twoPi) - v * v
      }
    }
    var a = best.alpha
    if a > Double.pi { a -= twoPi }
    return a
  }

  /// Scores estimates against ground truth as BROAD does.
  ///
  /// - Parameters:
  ///   - estimates: Estimated attitudes, sensor → ENU, one per sample.
  ///   - truths: True attitudes, sensor → ENU; samples whose truth is not finite are skipped.
  ///   - scored: Which samples count (BROAD: `movement == 1`); `nil` counts all.
  ///   - alignHeading: True for 6D estimates: first remove the constant heading offset that
  ///     minimises the heading error.
  /// - Returns: The RMSE of the three error angles, degrees, and the heading offset removed
  ///   (radians, 0 without alignment); NaN RMSEs when no sample is scored.
  public static func score(
    estimates: [Quaternion], truths: [Quaternion], scored: [Bool]? = nil, alignHeading: Bool
  ) -> (rmse: OrientationRMSE, headingOffset: Double) {
    let n = min(estimates.count, truths.count, scored?.count ?? Int.max)
    var idx: [Int] = []
    idx.reserveCapacity(n)
    for i in 0..<n where (scored?[i] ?? true) && truths[i].isFinite && estimates[i].isFinite {
      idx.append(i)
    }
    guard !idx.isEmpty else {
      return (
        OrientationError(totalDegrees: .nan, headingDegrees: .nan, inclinationDegrees: .nan), 0
      )
    }
    var offset = 0.0
    if alignHeading {
      let psi = idx.map { signedHeading(estimates[$0].normalized(), truths[$0].normalized()) }
      offset = optimalHeadingOffset(signedHeadingErrors: psi)
    }
    let r = Quaternion(w: cos(offset / 2), x: 0, y: 0, z: sin(offset / 2))
    var st = 0.0
    var sh = 0.0
    var si = 0.0
    for i in idx {
      let e = OrientationError.radians(estimate: r * estimates[i], truth: truths[i])
      st += e.total * e.total
      sh += e.heading * e.heading
      si += e.inclination * e.inclination
    }
    let m = Double(idx.count)
    let k = 180 / Double.pi
    return (
      OrientationError(
        totalDegrees: (st / m).squareRoot() * k, headingDegrees: (sh / m).squareRoot() * k,
        inclinationDegrees: (si / m).squareRoot() * k), offset
    )
  }

  private static func signedHeading(_ e: Quaternion, _ t: Quaternion) -> Double {
    OrientationError.signedHeading(estimate: e, truth: t)
  }
}
