import SwellLayers

/// A declarative rendering effect that depends on the motion of the device, like UIKit's
/// `UIMotionEffect` (Apple's documentation page "UIMotionEffect",
/// https://developer.apple.com/documentation/uikit/uimotioneffect).
///
/// Given a viewer offset, an effect returns relative values to **add** to key paths of the layer
/// it is attached to. Effects are values: they hold no per-layer state, so one effect can be
/// attached to many layers. Like `UIMotionEffect` subclasses, which must conform to `NSCoding`,
/// every effect is `Codable` so it can appear in scene files (see ``AnyMotionEffect``).
///
/// A custom effect (the UIMotionEffect seed's: horizontal tilt moves the view up and down):
///
/// ```swift
/// struct BounceEffect: MotionEffect {
///   func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset)
///     -> [String: LayerValue]?
///   {
///     ["center.y": .number(512 * viewerOffset.horizontal)]
///   }
/// }
/// ```
public protocol MotionEffect: Hashable, Sendable, Codable {
  /// The name that tags this effect's type in scene files (`"effect": NAME`).
  ///
  /// The default is the type's name; built-in effects use short names (`interpolating`,
  /// `group`, `parallax`, `tiltCard`, `tiltGlare`).
  static var effectTypeName: String { get }

  /// The values to add to key paths for a viewer offset
  /// (`keyPathsAndRelativeValues(forViewerOffset:)`).
  ///
  /// Key paths are written as UIKit or Core Animation spells them (`center.x`, `position`,
  /// `layer.transform`) relative to the layer the effect is attached to.
  ///
  /// - Parameter viewerOffset: The viewer offset, each component in −1...1.
  /// - Returns: Key path → relative value (the amount to add to the presentation value), or
  ///   `nil` for no change.
  func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset) -> [String:
    LayerValue]?
}

extension MotionEffect {
  /// The type's own name.
  public static var effectTypeName: String { String(describing: Self.self) }

  /// Whether another effect (of any type) is equal to this one.
  ///
  /// - Parameter other: The effect to compare with.
  /// - Returns: `true` when `other` has this effect's type and compares equal.
  public func isEqual(to other: any MotionEffect) -> Bool {
    if let o = other as? AnyMotionEffect { return isEqual(to: o.base) }
    if let me = self as? AnyMotionEffect { return me.base.isEqual(to: other) }
    guard let o = other as? Self else { return false }
    return self == o
  }
}

/// Sums key-path values the way `UIMotionEffectGroup` does: values for the same key path add
/// (`CA_addValue:multipliedBy:1`, `LayerValue.adding(_:)`), in order.
///
/// A value whose kind cannot be added to the one already there (a point onto a number) is
/// dropped, the first one kept.
///
/// - Parameters:
///   - values: The accumulated values; updated in place.
///   - more: The values to add.
func accumulate(_ values: inout [String: LayerValue], _ more: [String: LayerValue]) {
  for (key, value) in more {
    if let existing = values[key] {
      if let sum = existing.adding(value) { values[key] = sum }
    } else {
      values[key] = value
    }
  }
}
