import Foundation
import SwellGeometry

/// A physically based tilt for the water: the surface's fundamental sloshing mode, a damped
/// linear oscillator, driven by the apparent gravity in the screen plane.
///
/// - The surface angle θ (screen space, radians, positive clockwise on screen) relaxes toward
///   the angle level with the **apparent** gravity, `θ_eq = −atan2(a.x, −a.y)` with
///   `a = gravity + userAcceleration` (CoreMotion's total acceleration is what the liquid feels):
///   `θ'' = −ω²·(θ − θ_eq) − 2ζω·θ'`.
/// - ω is the first sloshing mode of a rectangular tank, `ω² = g·k·tanh(k·H)` with `k = π/L`
///   (linear potential-flow theory, Lamb, *Hydrodynamics* §257; L the tank length, H the
///   depth). The tank is
///   the visible width and the water depth, converted with ``metresPerPoint``.
/// - When the device turns in the screen plane, the liquid's inertia keeps it from turning
///   with the glass: θ moves by `(1 − coupling)` of the device's turn at once, and the
///   oscillator takes care of the rest (`coupling` 0 is an ideal fluid, 1 a liquid glued to
///   the walls; the default 0.25 is a visual choice, not a measured value).
///
/// Between motion samples θ_eq is constant and the oscillator is solved in closed form, so the
/// response is exact and stable for any time step (no substeps needed), never NaN, and the
/// value at a time does not depend on the display frame rate.
public struct SloshingResponse: Hashable, Sendable {
  /// Standard gravity, m/s².
  public static let standardGravity = 9.806_65
  /// Metres per point: 1/160 inch (an iPhone's points are about 1/160″ on screen).
  public static let metresPerPoint = 0.0254 / 160

  /// The natural angular frequency of the first mode, rad/s.
  public private(set) var naturalFrequency: Double
  /// The damping ratio ζ, 0 ≤ ζ < 1.
  public let dampingRatio: Double
  /// The fraction of an in-plane device turn that the liquid follows at once, 0...1.
  public let coupling: Double

  private var angle = 0.0
  private var rate = 0.0
  private var equilibrium = 0.0
  private var levelAngle: Double?
  private var time: Double?

  /// The natural angular frequency of a tank's first sloshing mode,
  /// `√(g·k·tanh(k·H))`, `k = π / L`.
  ///
  /// - Parameters:
  ///   - length: The tank length L, metres (positive).
  ///   - depth: The liquid depth H, metres (positive).
  /// - Returns: ω, rad/s.
  public static func firstModeFrequency(length: Double, depth: Double) -> Double {
    let k = Double.pi / max(length, 1e-6)
    return (standardGravity * k * tanh(k * max(depth, 1e-6))).squareRoot()
  }

  /// Creates a response for a tank.
  ///
  /// - Parameters:
  ///   - widthPoints: The tank length, points (the visible width).
  ///   - depthPoints: The water depth, points (fill level × visible height).
  ///   - dampingRatio: ζ in [0, 1) (default 0.06: rings for about a second).
  ///   - coupling: 0...1 (default 0.25).
  public init(
    widthPoints: Double, depthPoints: Double, dampingRatio: Double = 0.06,
    coupling: Double = 0.25
  ) {
    precondition(dampingRatio >= 0 && dampingRatio < 1, "dampingRatio must be in [0, 1)")
    naturalFrequency = Self.firstModeFrequency(
      length: widthPoints * Self.metresPerPoint, depth: depthPoints * Self.metresPerPoint)
    self.dampingRatio = dampingRatio
    self.coupling = min(max(coupling, 0), 1)
  }

  /// Changes the tank (a canvas laid out for another size): the natural frequency follows the
  /// new width and depth; the surface's angle and rate are kept, so the liquid goes on moving
  /// from where it was.
  ///
  /// - Parameters:
  ///   - widthPoints: The tank length, points (the visible width).
  ///   - depthPoints: The water depth, points (fill level × visible height).
  public mutating func setTank(widthPoints: Double, depthPoints: Double) {
    naturalFrequency = Self.firstModeFrequency(
      length: widthPoints * Self.metresPerPoint, depth: depthPoints * Self.metresPerPoint)
  }

  /// The surface angle at a time, radians (unwrapped; callers wrap for display), without
  /// changing the state.
  ///
  /// - Parameter t: Seconds (times before the last sample give the angle at it).
  /// - Returns: θ, radians.
  public func angle(at t: Double) -> Double { solve(to: t).angle }

  /// The surface's angular rate at a time, rad/s.
  ///
  /// - Parameter t: Seconds.
  /// - Returns: θ', rad/s.
  public func angularRate(at t: Double) -> Double { solve(to: t).rate }

  /// The current equilibrium angle, radians (unwrapped).
  public var equilibriumAngle: Double { equilibrium }

  /// Takes one motion sample: advances the oscillator to its time, applies the liquid's inertia
  /// to the device's in-plane turn, and sets the new equilibrium.
  ///
  /// - Parameters:
  ///   - t: Seconds (increasing; earlier samples are treated as simultaneous).
  ///   - gravity: Gravity, g, device frame.
  ///   - userAcceleration: User acceleration, g, device frame.
  public mutating func receive(time t: Double, gravity: Vector3, userAcceleration: Vector3) {
    guard t.isFinite, gravity.isFinite else { return }
    let user = userAcceleration.isFinite ? userAcceleration : .zero
    let apparent = gravity + user
    let planar = (gravity.x * gravity.x + gravity.y * gravity.y).squareRoot()
    let apparentPlanar = (apparent.x * apparent.x + apparent.y * apparent.y).squareRoot()
    guard let t0 = time else {
      time = t
      let eq = apparentPlanar >= 0.05 ? TiltRule.levelTilt(gravity: apparent) : 0
      equilibrium = eq
      angle = eq
      rate = 0
      if planar >= 0.05 { levelAngle = TiltRule.levelTilt(gravity: gravity) }
      return
    }
    let s = solve(to: max(t, t0))
    angle = s.angle
    rate = s.rate
    time = max(t, t0)
    if planar >= 0.05 {
      let level = TiltRule.levelTilt(gravity: gravity)
      if let previous = levelAngle {
        angle += (1 - coupling) * wrappedAngle(level - previous)
      }
      levelAngle = level
    }
    if apparentPlanar >= 0.05 {
      let target = TiltRule.levelTilt(gravity: apparent)
      equilibrium += wrappedAngle(target - equilibrium)
    }
    // Keep the state near the equilibrium's turn so that unwrapping never builds up.
    let shift = angle - wrappedAngle(angle - equilibrium) - equilibrium
    angle -= shift
    if !angle.isFinite || !rate.isFinite {
      angle = equilibrium
      rate = 0
    }
  }

  private func solve(to t: Double) -> (angle: Double, rate: Double) {
    guard let t0 = time else { return (angle, rate) }
    let dt = t - t0
    guard dt > 0, dt.isFinite else { return (angle, rate) }
    let w = naturalFrequency
    let z = dampingRatio
    let wd = w * (1 - z * z).squareRoot()
    let x0 = angle - equilibrium
    let v0 = rate
    let decay = exp(-z * w * dt)
    let c = cos(wd * dt)
    let s = sin(wd * dt)
    let b = (v0 + z * w * x0) / wd
    let x = decay * (x0 * c + b * s)
    let v = decay * ((-z * w) * (x0 * c + b * s) + (-x0 * wd * s + b * wd * c))
    let a = equilibrium + x
    return (a.isFinite ? a : equilibrium, v.isFinite ? v : 0)
  }
}
