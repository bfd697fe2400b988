import SwellGeometry
import SwellLayers

/// A 3D tilt card in the manner of vanilla-tilt.js (`micku7zu/vanilla-tilt.js`) and Atropos
/// (`nolimits4web/atropos`, https://atroposjs.com/docs) and UIKit's private
/// `_UITiltMotionEffect` (its `layer.transform` rotation, as measured from iOS 26.1): the layer turns about its y axis by
/// `horizontal · maxHorizontalTiltAngle` and about its x axis by
/// `−vertical · maxVerticalTiltAngle`, seen in perspective, optionally scaled up.
///
/// It returns one `transform` value (a `Transform3D` about the layer's anchor point), added to
/// the model transform by concatenation. With the default signs the card follows the device,
/// exaggerating its tilt: screen turned to the viewer's right → the card's right edge recedes;
/// screen turned down → its top edge comes toward the viewer. ``reverse`` flips both.
public struct TiltCardEffect: MotionEffect {
  /// Which axes tilt (vanilla-tilt's `axis` option).
  public enum Axis: String, Hashable, Sendable, Codable {
    /// Both axes.
    case both
    /// Only the turn about the y axis, driven by the horizontal offset.
    case horizontal
    /// Only the turn about the x axis, driven by the vertical offset.
    case vertical
  }

  /// The turn about y at a full horizontal offset, radians (default 15°, vanilla-tilt's and
  /// Atropos's `max` / `rotateYMax`).
  public var maxHorizontalTiltAngle = 15 * Double.pi / 180
  /// The turn about x at a full vertical offset, radians (default 15°).
  public var maxVerticalTiltAngle = 15 * Double.pi / 180
  /// The eye's distance from the card, points (vanilla-tilt's `perspective`, default 1000);
  /// 0 or less: no perspective.
  public var perspectiveDistance = 1000.0
  /// The scale factor applied while tilting, dimensionless (vanilla-tilt's `scale`, default 1).
  public var scale = 1.0
  /// Turns the other way (vanilla-tilt's `reverse`, Atropos's `rotateXInvert`/`rotateYInvert`).
  public var reverse = false
  /// The axes that tilt.
  public var axis = Axis.both

  /// Creates a tilt card effect with the defaults.
  public init() {}

  /// `tiltCard`.
  public static var effectTypeName: String { "tiltCard" }

  /// The card's turn for an offset, radians.
  ///
  /// - Parameter viewerOffset: The offset, −1...1 (clamped).
  /// - Returns: (about x, about y), right-handed in layer space (x right, y down, z toward the
  ///   viewer).
  public func angles(for viewerOffset: ViewerOffset) -> (x: Double, y: Double) {
    func c(_ v: Double) -> Double { v.isFinite ? min(1, max(-1, v)) : 0 }
    let s = reverse ? -1.0 : 1.0
    let ay = axis == .vertical ? 0 : s * c(viewerOffset.horizontal) * maxHorizontalTiltAngle
    let ax = axis == .horizontal ? 0 : -s * c(viewerOffset.vertical) * maxVerticalTiltAngle
    return (ax, ay)
  }

  /// The card's transform for an offset.
  ///
  /// - Parameter viewerOffset: The offset, −1...1.
  /// - Returns: Scale, then the turn about x, then about y, then perspective.
  public func transform(for viewerOffset: ViewerOffset) -> Transform3D {
    let a = angles(for: viewerOffset)
    var t = Transform3D(scaleX: scale, y: scale, z: scale)
    t = t.concatenating(Transform3D(rotationAngle: a.x, x: 1, y: 0, z: 0))
    t = t.concatenating(Transform3D(rotationAngle: a.y, x: 0, y: 1, z: 0))
    if perspectiveDistance > 0, perspectiveDistance.isFinite {
      t = t.concatenating(Transform3D(perspectiveDistance: perspectiveDistance))
    }
    return t
  }

  /// The transform to add.
  ///
  /// - Parameter viewerOffset: The offset, −1...1.
  /// - Returns: `["transform": transform(for: viewerOffset)]`.
  public func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset)
    -> [String: LayerValue]?
  {
    ["transform": .transform3D(transform(for: viewerOffset))]
  }
}

/// The moving glare of a tilt card (vanilla-tilt's `glare` / `max-glare`, Atropos's
/// `highlight`): a highlight layer slides across the card against the tilt and brightens with
/// it.
///
/// Returns `position` moved by `(−horizontal · travel.width, −vertical · travel.height)`
/// points, as if a light above the viewer were reflected, and `opacity` raised by
/// `maxGlare · min(1, √(h² + v²))` (give the glare layer a model opacity of 0).
public struct TiltGlareEffect: MotionEffect {
  /// How far the highlight slides at a full offset, points.
  public var travel: Size
  /// The opacity added at a full offset, 0...1 (vanilla-tilt's `max-glare`, default 1).
  public var maxGlare = 1.0

  /// Creates a glare effect.
  ///
  /// - Parameters:
  ///   - travel: How far the highlight slides at a full offset, points.
  ///   - maxGlare: The opacity at a full offset, 0...1.
  public init(travel: Size, maxGlare: Double = 1) {
    self.travel = travel
    self.maxGlare = maxGlare
  }

  /// `tiltGlare`.
  public static var effectTypeName: String { "tiltGlare" }

  /// The highlight's position change and added opacity.
  ///
  /// - Parameter viewerOffset: The offset, −1...1 (clamped).
  /// - Returns: `position` (points) and `opacity` values.
  public func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset)
    -> [String: LayerValue]?
  {
    func c(_ v: Double) -> Double { v.isFinite ? min(1, max(-1, v)) : 0 }
    let h = c(viewerOffset.horizontal)
    let v = c(viewerOffset.vertical)
    let strength = min(1, (h * h + v * v).squareRoot())
    return [
      "position": .point(Point(x: -h * travel.width, y: -v * travel.height)),
      "opacity": .number(max(0, min(1, maxGlare)) * strength),
    ]
  }
}
