/// An angle wrapped to (−π, π], radians: the one angle-wrapping rule of Swell's library (wave
/// phases, tilt targets, sloshing angles, layer rotations in traces).
///
/// Edge cases: −π becomes π (the range is half-open at −π), so ±π and every odd multiple of π
/// give π; a result within rounding of ±π keeps the sign `truncatingRemainder` gives it, then
/// moves into the range; a non-finite angle (NaN or ±∞) gives 0, so no NaN reaches a layer or a
/// trace.
///
/// - Parameter radians: Any angle, radians.
/// - Returns: The same direction in (−π, π].
public func wrappedAngle(_ radians: Double) -> Double {
  guard radians.isFinite else { return 0 }
  var r = radians.truncatingRemainder(dividingBy: 2 * .pi)
  if r <= -.pi { r += 2 * .pi }
  if r > .pi { r -= 2 * .pi }
  return r
}
