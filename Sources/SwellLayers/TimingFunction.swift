/// A timing curve mapping an animation's linear progress to its eased progress, as
/// `CAMediaTimingFunction`: a cubic Bézier from (0, 0) to (1, 1) with two control points.
public struct TimingFunction: Hashable, Sendable, Codable {
  /// The first control point (x in 0...1).
  public var control1: Point2
  /// The second control point (x in 0...1).
  public var control2: Point2

  /// A plain pair of numbers for a control point, without layer-space meaning.
  public struct Point2: Hashable, Sendable, Codable {
    /// The time coordinate, 0...1.
    public var x: Double
    /// The progress coordinate (may leave 0...1 for overshoot curves).
    public var y: Double

    /// Creates a control point.
    ///
    /// - Parameters:
    ///   - x: The time coordinate, 0...1.
    ///   - y: The progress coordinate.
    public init(_ x: Double, _ y: Double) {
      self.x = x
      self.y = y
    }
  }

  /// Creates a cubic-Bézier timing function with the exact control points given.
  ///
  /// - Parameters:
  ///   - c1x: First control point x, in 0...1 (a programmer error otherwise).
  ///   - c1y: First control point y.
  ///   - c2x: Second control point x, in 0...1 (a programmer error otherwise).
  ///   - c2y: Second control point y.
  public init(controlPoints c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
    precondition((0...1).contains(c1x) && (0...1).contains(c2x), "control point x must be in 0...1")
    control1 = Point2(c1x, c1y)
    control2 = Point2(c2x, c2y)
  }

  /// `kCAMediaTimingFunctionLinear`: (0, 0), (1, 1).
  public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
  /// `kCAMediaTimingFunctionEaseIn`: (0.42, 0), (1, 1).
  public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
  /// `kCAMediaTimingFunctionEaseOut`: (0, 0), (0.58, 1).
  public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
  /// `kCAMediaTimingFunctionEaseInEaseOut`: (0.42, 0), (0.58, 1); UIKit's default animation curve.
  public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)
  /// `kCAMediaTimingFunctionDefault`: (0.25, 0.1), (0.25, 1).
  public static let `default` = TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)

  /// Looks up a named curve: `linear`, `easeIn`, `easeOut`, `easeInEaseOut`, `default`.
  ///
  /// - Parameter name: The Core Animation name (without the `kCAMediaTimingFunction` prefix).
  public init?(name: String) {
    switch name {
    case "linear": self = .linear
    case "easeIn": self = .easeIn
    case "easeOut": self = .easeOut
    case "easeInEaseOut", "easeInOut": self = .easeInEaseOut
    case "default": self = .default
    default: return nil
    }
  }

  /// The eased progress at linear progress `x`.
  ///
  /// Solves `bx(s) = x` for the curve parameter `s` (Newton's method with a bisection fallback,
  /// to 1e-12), then returns `by(s)`. `x` is clamped to 0...1.
  ///
  /// - Parameter x: Linear progress.
  /// - Returns: Eased progress.
  public func value(at x: Double) -> Double {
    let x = min(max(x, 0), 1)
    if x == 0 || x == 1 { return x }
    let (x1, y1, x2, y2) = (control1.x, control1.y, control2.x, control2.y)
    if x1 == y1 && x2 == y2 { return x }
    // Polynomial coefficients of B(s) = ((a s + b) s + c) s.
    let cx = 3 * x1
    let bx = 3 * (x2 - x1) - cx
    let ax = 1 - cx - bx
    let cy = 3 * y1
    let by = 3 * (y2 - y1) - cy
    let ay = 1 - cy - by
    func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    func slopeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
    var s = x
    var solved = false
    for _ in 0..<8 {
      let err = sampleX(s) - x
      if abs(err) < 1e-12 {
        solved = true
        break
      }
      let d = slopeX(s)
      if abs(d) < 1e-9 { break }
      s -= err / d
      if s < 0 || s > 1 { break }
    }
    if !solved {
      var lo = 0.0
      var hi = 1.0
      s = x
      for _ in 0..<100 {
        let v = sampleX(s)
        if abs(v - x) < 1e-12 { break }
        if v < x { lo = s } else { hi = s }
        s = (lo + hi) / 2
      }
    }
    return ((ay * s + by) * s + cy) * s
  }
}
