import SwellGeometry

/// The direction the device's screen faces relative to the viewer, like UIKit's `UIOffset` as
/// passed to `keyPathsAndRelativeValues(forViewerOffset:)`.
///
/// Each component is a fraction of a 90° tilt away from the neutral pose, in −1...1
/// (signs from Apple's `keyPathsAndRelativeValues(forViewerOffset:)` page,
/// https://developer.apple.com/documentation/uikit/uimotioneffect/keypathsandrelativevalues(forvieweroffset:);
/// linear in angle, ±1 at 90°, as `_UIMotionAttitudeAnalyzer _currentRawOffset:` computes it in
/// iOS 26.1):
///
/// | component | positive | negative |
/// |---|---|---|
/// | ``horizontal`` | screen turned toward the viewer's right | toward the viewer's left |
/// | ``vertical`` | screen turned down | screen turned up (above the viewer) |
///
/// (0, 0) is the screen pointed straight at the viewer (the neutral pose).
public struct ViewerOffset: Hashable, Sendable, Codable {
  /// The left/right component, −1...1 (positive: screen faces the viewer's right).
  public var horizontal: Double
  /// The up/down component, −1...1 (positive: screen faces down).
  public var vertical: Double

  /// Creates an offset.
  ///
  /// - Parameters:
  ///   - horizontal: −1...1, positive when the screen faces the viewer's right.
  ///   - vertical: −1...1, positive when the screen faces down.
  public init(horizontal: Double, vertical: Double) {
    self.horizontal = horizontal
    self.vertical = vertical
  }

  /// The neutral offset (0, 0): the screen faces the viewer.
  public static let zero = ViewerOffset(horizontal: 0, vertical: 0)

  /// The Euclidean distance to another offset (used by the dead-band and the stale-stream
  /// guard).
  ///
  /// - Parameter other: The other offset.
  /// - Returns: `√(Δh² + Δv²)`, offset units.
  public func distance(to other: ViewerOffset) -> Double {
    let dh = horizontal - other.horizontal
    let dv = vertical - other.vertical
    return (dh * dh + dv * dv).squareRoot()
  }

  /// True when both components are finite.
  public var isFinite: Bool { horizontal.isFinite && vertical.isFinite }

  /// The offset as seen by an interface in an orientation: the device-frame offset rotated by
  /// ±90° in landscape and 180° upside down (the first step of UIKit's
  /// `_UIMotionEffectApplicator`, as measured from iOS 26.1).
  ///
  /// - Parameter orientation: The interface orientation.
  /// - Returns: The offset along the interface's own left/right and up/down axes.
  public func rotated(for orientation: InterfaceOrientation) -> ViewerOffset {
    switch orientation {
    case .portrait: self
    case .portraitUpsideDown: ViewerOffset(horizontal: -horizontal, vertical: -vertical)
    case .landscapeLeft: ViewerOffset(horizontal: -vertical, vertical: horizontal)
    case .landscapeRight: ViewerOffset(horizontal: vertical, vertical: -horizontal)
    }
  }
}

/// The orientation of the user interface relative to the device (`UIInterfaceOrientation`).
///
/// The viewer offset is measured along the device's axes; an interface turned with the device
/// sees it rotated (``ViewerOffset/rotated(for:)``).
public enum InterfaceOrientation: String, Hashable, Sendable, Codable, CaseIterable {
  /// Upright, home edge at the bottom: the interface's axes are the device's.
  case portrait
  /// Upside down: the interface's x is the device's −x, its up is the device's −y.
  case portraitUpsideDown
  /// Landscape with the home edge on the left (the device turned 90° clockwise): the interface's
  /// x is the device's +y.
  case landscapeLeft
  /// Landscape with the home edge on the right (the device turned 90° counter-clockwise): the
  /// interface's x is the device's −y.
  case landscapeRight
}

extension InterfaceOrientation {
  /// True for ``landscapeLeft`` and ``landscapeRight``: the interface's canvas is the device's
  /// portrait canvas with width and height swapped.
  public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }

  /// A device-frame vector along the interface's axes: x toward the interface's right edge, y
  /// toward its top edge, z out of the screen (unchanged). The same turn of the device's x–y
  /// plane that ``ViewerOffset/rotated(for:)`` gives the viewer offset:
  ///
  /// | orientation | interface x | interface y |
  /// |---|---|---|
  /// | ``portrait`` | device +x | device +y |
  /// | ``portraitUpsideDown`` | device −x | device −y |
  /// | ``landscapeLeft`` (device turned 90° clockwise) | device +y | device −x |
  /// | ``landscapeRight`` (device turned 90° counter-clockwise) | device −y | device +x |
  ///
  /// So gravity `(1, 0, 0)` (the device upright, turned clockwise a quarter turn) is
  /// `(0, −1, 0)`, upright, for a ``landscapeLeft`` interface.
  ///
  /// - Parameter deviceVector: A vector in the device frame (gravity in g, a rotation rate in
  ///   rad/s, ...).
  /// - Returns: The same vector in the interface's axes, same units.
  public func interfaceVector(fromDevice deviceVector: Vector3) -> Vector3 {
    let v = deviceVector
    switch self {
    case .portrait: return v
    case .portraitUpsideDown: return Vector3(-v.x, -v.y, v.z)
    case .landscapeLeft: return Vector3(v.y, -v.x, v.z)
    case .landscapeRight: return Vector3(-v.y, v.x, v.z)
    }
  }
}
