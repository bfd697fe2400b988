import SwellLayers

/// Several motion effects applied together, like UIKit's `UIMotionEffectGroup`
/// (https://developer.apple.com/documentation/uikit/uimotioneffectgroup/motioneffects: the
/// values are applied simultaneously; the header says it merges like `CAAnimationGroup`, and
/// the iOS 26.1 UIKit binary sums a repeated key path with `CA_addValue:multipliedBy:`).
///
/// Each child is asked in order; values for the same key path are **summed** with Core
/// Animation's addition (numbers, points, sizes, rectangles and colours component-wise,
/// transforms concatenated; `LayerValue.adding(_:)`). A later value whose kind cannot be added
/// to the earlier one is dropped.
public struct MotionEffectGroup: MotionEffect {
  /// The child effects, asked in order.
  public var motionEffects: [AnyMotionEffect]

  /// Creates a group.
  ///
  /// - Parameter motionEffects: The child effects.
  public init(_ motionEffects: [any MotionEffect] = []) {
    self.motionEffects = motionEffects.map(AnyMotionEffect.init)
  }

  /// `group`.
  public static var effectTypeName: String { "group" }

  /// The children's values, summed per key path.
  ///
  /// - Parameter viewerOffset: The viewer offset, −1...1.
  /// - Returns: The merged values, or `nil` when no child returns any.
  public func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset)
    -> [String: LayerValue]?
  {
    var values: [String: LayerValue] = [:]
    var any = false
    for effect in motionEffects {
      guard let v = effect.keyPathsAndRelativeValues(forViewerOffset: viewerOffset) else {
        continue
      }
      any = true
      accumulate(&values, v)
    }
    return any ? values : nil
  }
}
