extension Path {
  /// Points along a cubic Bézier segment, for flattening it into lines: the points at
  /// `t = i / n` for `i = 1...n` (the end point last, the start point not repeated), each
  /// `(1−t)³·p₀ + 3(1−t)²t·c₁ + 3(1−t)t²·c₂ + t³·p`.
  ///
  /// - Parameters:
  ///   - start: The segment's start point `p₀` (the current point before the curve).
  ///   - control1: The first control point.
  ///   - control2: The second control point.
  ///   - end: The segment's end point.
  ///   - segments: How many lines replace the curve (at least 1).
  /// - Returns: `max(segments, 1)` points.
  public static func cubicPoints(
    from start: Point, control1: Point, control2: Point, to end: Point, segments: Int
  ) -> [Point] {
    let n = max(segments, 1)
    var points: [Point] = []
    points.reserveCapacity(n)
    for i in 1...n {
      let t = Double(i) / Double(n)
      let u = 1 - t
      let a = u * u * u
      let b = 3 * u * u * t
      let c = 3 * u * t * t
      let d = t * t * t
      points.append(
        Point(
          x: a * start.x + b * control1.x + c * control2.x + d * end.x,
          y: a * start.y + b * control1.y + c * control2.y + d * end.y))
    }
    return points
  }
}
