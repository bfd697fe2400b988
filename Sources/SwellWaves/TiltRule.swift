import Foundation
import SwellGeometry

/// What a motion rule asks the water's tilt to do after one gravity reading.
public enum TiltDecision: Hashable, Sendable {
  /// Animate to this tilt, radians (`transform.rotation.z`; positive turns clockwise on screen).
  case animate(to: Double)
  /// Keep the last target.
  case hold
}

/// The rule that turns gravity into the water's tilt target, side by side with the seed.
///
/// For a device held upright and turned clockwise (as seen by the user) by β about its z axis,
/// gravity in the device frame is `(sin β, −cos β, 0)`, and the water must tilt by −β to stay
/// level with the world (a positive `transform.rotation.z` turns clockwise on screen).
public enum TiltRule: String, Hashable, Sendable, CaseIterable {
  /// Swell's default: the continuous angle `−atan2(g.x, −g.y)` (0 at upright portrait, no
  /// wrap), clamped to ±45°; back to 0 while `g.y > 0` (screen upside down, as the seed); held
  /// while the device lies within about 3° of flat (`√(g.x² + g.y²) < 0.05 g`), where the
  /// in-screen direction of gravity is undefined. Its amplitude is eased and limited so that no
  /// wave folds over itself at the shown tilt (``maximumSurfaceSlope(tilt:)``).
  case corrected
  /// The seed's literal rule: `rotation = atan2(g.x, g.y) − π`; while `g.y ≤ 0` animate to it
  /// only when it is in (−π/4, 0] or below −(2π − π/4), else keep the last value (past 45° it
  /// **holds**); while `g.y > 0` animate to 0. The accepted value is shown through
  /// `CGAffineTransformMakeRotation`, so the drawn tilt is the angle wrapped to (−π, π]
  /// (Core Animation interpolates transform matrices by their decomposed angle). The amplitude
  /// is assigned directly from each sample, with no easing, hold or limit, as the seed does; its
  /// waves may fold at large amplitudes and tilts.
  case seedExact

  /// The largest tilt, radians (45°).
  public static let limit = Double.pi / 4

  /// The share of the fold bound a wave's slope may use (0.7): a wave drawn at the bound itself
  /// would show a vertical tangent on screen, a cusp; at 0.7 every crest's flank still leans
  /// at least `0.3·cos θ` forward (a visual choice, not a measured value).
  public static let foldMargin = 0.7

  /// The steepest surface slope a wave may have at a tilt without folding over itself on
  /// screen: `foldMargin · |cot θ|` (dimensionless; `.infinity` at θ = 0 and ±π).
  ///
  /// A wave `y(x) = A·sin(k·x + φ)` in the water's own axes, drawn rotated by θ, reaches the
  /// screen at `X = x·cos θ − y·sin θ`, `Y = x·sin θ + y·cos θ` (points, y down, θ positive
  /// clockwise). It stays a graph over the screen's horizontal, one surface crossing per screen
  /// column, iff `dX/dx = cos θ − y′(x)·sin θ` keeps one sign for every x; since `y′` takes every
  /// value in `[−A·k, A·k]`, that is `A·k < |cot θ|`. A sum of sines `Σ Aᵢ sin(kᵢx + φᵢ)` has
  /// `|y′| ≤ Σ Aᵢkᵢ`, so `Σ Aᵢkᵢ < |cot θ|` keeps it a graph; Swell's sine layers are drawn
  /// as separate surfaces, so each keeps `(Aᵢ + e)·kᵢ ≤ foldMargin·|cot θ|` on its own
  /// (``WaveLayer/maximumSlope``; the extra amplitude `e` is cut, never the base `Aᵢ`). At
  /// θ = ±90° no wave but a flat one is a graph over the screen's horizontal, and the bound is 0.
  ///
  /// - Parameter tilt: The water's tilt, radians (its `transform.rotation.z`).
  /// - Returns: The bound, dimensionless, `≥ 0`.
  public static func maximumSurfaceSlope(tilt: Double) -> Double {
    guard tilt.isFinite else { return .infinity }
    let s = abs(sin(tilt))
    guard s > 1e-12 else { return .infinity }
    return foldMargin * abs(cos(tilt)) / s
  }

  /// The seed's literal rotation, `atan2(g.x, g.y) − π`, radians in (−2π, 0].
  ///
  /// - Parameter gravity: Gravity, g, device frame.
  /// - Returns: The unwrapped seed value (≈ −2π + ε for g ≈ (−ε, −1)).
  public static func seedRotation(gravity: Vector3) -> Double {
    atan2(gravity.x, gravity.y) - .pi
  }

  /// The continuous tilt that keeps the water level with the world, `−atan2(g.x, −g.y)`,
  /// radians in (−π, π], 0 at upright portrait; the seed's value wrapped (derived here from the
  /// seed's `atan2(g.x, g.y) − π`, which is ≈ −2π + ε near upright).
  ///
  /// - Parameter gravity: Gravity, g, device frame.
  /// - Returns: The tilt, radians.
  public static func levelTilt(gravity: Vector3) -> Double {
    -atan2(gravity.x, -gravity.y)
  }

  /// The decision for one gravity reading.
  ///
  /// - Parameter gravity: Gravity, g, device frame (CoreMotion signs).
  /// - Returns: The tilt to animate to (radians, wrapped to (−π, π]) or ``TiltDecision/hold``.
  public func decision(gravity: Vector3) -> TiltDecision {
    let g = gravity
    guard g.x.isFinite, g.y.isFinite else { return .hold }
    switch self {
    case .corrected:
      if g.y > 0 { return .animate(to: 0) }
      if (g.x * g.x + g.y * g.y).squareRoot() < 0.05 { return .hold }
      let a = Self.levelTilt(gravity: g)
      return .animate(to: min(max(a, -Self.limit), Self.limit))
    case .seedExact:
      let rotation = Self.seedRotation(gravity: g)
      if g.y <= 0
        && (rotation < -(2 * .pi - .pi / 4) || (rotation <= 0 && rotation > -.pi / 4))
      {
        return .animate(to: wrappedAngle(rotation))
      } else if g.y > 0 {
        return .animate(to: 0)
      }
      return .hold
    }
  }

  /// The extra wave amplitude the rule asks for, points: `20 · |rotationRate.x|` above
  /// 0.7 rad/s for ``corrected`` (both directions; eased, held and limited by the response),
  /// `20 · rotationRate.x` above 0.7 rad/s for ``seedExact`` (positive rates only; assigned
  /// directly, as the seed sets `tmpAmplitude`); else 0.
  ///
  /// - Parameter rotationRate: Rotation rate, rad/s, device frame.
  /// - Returns: The target extra amplitude, points.
  public func amplitudeTarget(rotationRate: Vector3) -> Double {
    let r = rotationRate.x
    guard r.isFinite else { return 0 }
    switch self {
    case .corrected: return abs(r) > 0.7 ? 20 * abs(r) : 0
    case .seedExact: return r > 0.7 ? 20 * r : 0
    }
  }
}
