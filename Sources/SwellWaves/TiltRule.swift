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
  /// in-screen direction of gravity is undefined.
  case corrected
  /// The seed's literal rule: `rotation = atan2(g.x, g.y) − π`; while `g.y ≤ 0` animate to it
  /// only when it is in (−π/4, 0] or below −(2π − π/4), else keep the last value (past 45° it
  /// **holds**); while `g.y > 0` animate to 0. The accepted value is shown through
  /// `CGAffineTransformMakeRotation`, so the drawn tilt is the angle wrapped to (−π, π]
  /// (Core Animation interpolates transform matrices by their decomposed angle).
  case seedExact

  /// The largest tilt, radians (45°).
  public static let limit = Double.pi / 4

  /// The seed's literal rotation, `atan2(g.x, g.y) − π`, radians in (−2π, 0].
  ///
  /// - Parameter gravity: Gravity, g, device frame.
  /// - Returns: The unwrapped seed value (≈ −2π + ε for g ≈ (−ε, −1)).
  public static func seedRotation(gravity: Vector3) -> Double {
    atan2(gravity.x, gravity.y) - .pi
  }

  /// The continuous tilt that keeps the water level with the world, `−atan2(g.x, −g.y)`,
  /// radians in (−π, π], 0 at upright portrait; the seed's value wrapped (apple-semantics §7.1).
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
  /// 0.7 rad/s for ``corrected`` (both directions), `20 · rotationRate.x` above 0.7 rad/s for
  /// ``seedExact`` (positive rates only); else 0.
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
