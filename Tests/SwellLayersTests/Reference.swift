import SwellGeometry
import SwellLayers

// Independent references for the layer tests: a timing-curve solve by plain bisection on the
// Bernstein form of the Bézier (the module uses Newton's method on the power form).

/// The cubic Bézier timing curve through (0, 0), (x1, y1), (x2, y2), (1, 1) at time `x`, solved
/// by 200 bisection steps on the curve parameter.
func referenceTiming(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double
{
  func bernstein(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
    let u = 1 - s
    return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
  }
  let x = min(max(x, 0), 1)
  var lo = 0.0
  var hi = 1.0
  for _ in 0..<200 {
    let mid = (lo + hi) / 2
    if bernstein(x1, x2, mid) < x { lo = mid } else { hi = mid }
  }
  return bernstein(y1, y2, (lo + hi) / 2)
}

/// UIKit's ease-in-out, E(x), by the reference solve.
func referenceEaseInOut(_ x: Double) -> Double {
  referenceTiming(0.42, 0, 0.58, 1, at: x)
}

/// The seeds every property test runs with.
let propertySeeds: [UInt64] = [1, 42, 0x5EED_CAFE, 0xDEAD_BEEF_0123_4567]

/// The number in a layer value, or NaN when it is not a number (so comparisons fail loudly).
func number(_ v: LayerValue?) -> Double {
  v?.number ?? .nan
}

/// The largest absolute difference between two 4×4 transforms.
func maxDifference(_ a: Transform3D, _ b: Transform3D) -> Double {
  zip(a.rowMajor, b.rowMajor).map { abs($0 - $1) }.max() ?? .infinity
}

/// The largest absolute difference between two points.
func maxDifference(_ a: Point, _ b: Point) -> Double {
  max(abs(a.x - b.x), abs(a.y - b.y))
}
