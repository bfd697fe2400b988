import SwellGeometry
import SwellLayers

/// A parallax.js-style depth layer: moves the layer by its input times a per-layer depth
/// (`wagerfield/parallax` `src/parallax.js`, v3.1.0).
///
/// parallax.js computes `motion = input · elementSize · scalar / 100`, clamps it to ±limit
/// points, smooths it with friction, and moves each layer by `motion · depth`, negated when
/// inverted. Here the effect is the memoryless part: given the input as a ``ViewerOffset``
/// (horizontal → x, vertical → y) it returns the `position` change
/// `clamp(input · elementSize · scalar / 100, ±limit) · depth · (invert ? −1 : 1)`, points,
/// layer space (y down). Friction and calibration live in ``ParallaxInput``, which turns device
/// motion into that input with time-based smoothing; the effect can equally be driven by the
/// UIKit-style ``ViewerOffsetEngine`` (input ±1 at 90°).
///
/// Limits clamp before smoothing in parallax.js and after it here (the input is smoothed
/// upstream); the resting values are the same.
public struct ParallaxEffect: MotionEffect {
  /// The layer's depth multiplier on x, dimensionless (`data-depth-x`, or `data-depth`); 0 stays put.
  public var depthX: Double
  /// The layer's depth multiplier on y, dimensionless (`data-depth-y`, or `data-depth`).
  public var depthY: Double
  /// The element (scene) size the scalars are percentages of, points.
  public var elementSize: Size
  /// Percent of the element width moved per unit of input (`scalarX`, default 10).
  public var scalarX: Double = 10
  /// Percent of the element height moved per unit of input (`scalarY`, default 10).
  public var scalarY: Double = 10
  /// Moves against the input on x (`invertX`, default true).
  public var invertX = true
  /// Moves against the input on y (`invertY`, default true).
  public var invertY = true
  /// The largest motion on x before depth, points (`limitX`; `nil`: no limit).
  public var limitX: Double?
  /// The largest motion on y before depth, points (`limitY`; `nil`: no limit).
  public var limitY: Double?

  /// Creates a depth layer with parallax.js's defaults.
  ///
  /// - Parameters:
  ///   - depth: The depth multiplier on both axes (`data-depth`).
  ///   - elementSize: The element (scene) size, points.
  public init(depth: Double, elementSize: Size) {
    depthX = depth
    depthY = depth
    self.elementSize = elementSize
  }

  /// `parallax`.
  public static var effectTypeName: String { "parallax" }

  /// The motion before depth and inversion: input scaled to points and clamped to the limits.
  ///
  /// - Parameter input: The input (horizontal → x, vertical → y).
  /// - Returns: The motion, points.
  public func motion(for input: ViewerOffset) -> Point {
    func clamp(_ v: Double, _ limit: Double?) -> Double {
      guard v.isFinite else { return 0 }
      guard let limit, limit.isFinite else { return v }
      let l = abs(limit)
      return min(l, max(-l, v))
    }
    return Point(
      x: clamp(input.horizontal * elementSize.width * scalarX / 100, limitX),
      y: clamp(input.vertical * elementSize.height * scalarY / 100, limitY))
  }

  /// The position change for an input.
  ///
  /// - Parameter viewerOffset: The input (horizontal → x, vertical → y).
  /// - Returns: `["position": motion · depth · (invert ? −1 : 1)]`, points.
  public func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset)
    -> [String: LayerValue]?
  {
    let m = motion(for: viewerOffset)
    return [
      "position": .point(
        Point(
          x: m.x * depthX * (invertX ? -1 : 1), y: m.y * depthY * (invertY ? -1 : 1)))
    ]
  }
}
