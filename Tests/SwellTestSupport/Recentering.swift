/// The viewer-offset engine's reference recentering as an independent golden value: the angle
/// θ (radians) between attitude and reference obeys θ' = −ω(θ), ω(θ) = 0.03 + 0.15·θ/π rad/s,
/// integrated here by classical RK4 with a small fixed step (the engine turns its reference once
/// per sample instead).
///
/// - Parameters:
///   - theta0: The angle at the start, radians (≥ 0).
///   - t: The time to integrate over, seconds.
///   - h: The RK4 step, seconds.
/// - Returns: The angle after `t` seconds, radians (never below 0).
public func integrateRecentering(theta0: Double, until t: Double, step h: Double = 1e-3)
  -> Double
{
  func f(_ th: Double) -> Double { th <= 0 ? 0 : -(0.03 + 0.15 * th / .pi) }
  var th = theta0
  var time = 0.0
  while time < t - 1e-12 {
    let dt = min(h, t - time)
    let k1 = f(th)
    let k2 = f(th + dt / 2 * k1)
    let k3 = f(th + dt / 2 * k2)
    let k4 = f(th + dt * k3)
    th = max(0, th + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4))
    time += dt
  }
  return th
}
