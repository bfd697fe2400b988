import SwellLayers

/// Applies a viewer offset to every layer with motion effects in a tree, as UIKit's
/// `_UIMotionEffectApplicator` does in iOS 26.1 (measured from the UIKit binary; its
/// `_animationForValueAndKeyPath` makes an additive, forward-filling animation per key path):
///
/// 1. the device-frame offset is rotated for the interface orientation (±90° in landscape, 180°
///    upside down);
/// 2. each layer's effects are evaluated and their values, summed per key path, are set as an
///    **additive overlay** on the layer (`Layer.setOverlay(_:forKey:)`): presentation value =
///    model value + effect values + running animations; model values never change;
/// 3. `center` maps to `position`, a `layer.` prefix is stripped, and presentation positions snap
///    to whole pixels at the layer's `contentsScale` (done by `Layer.presentation(at:)`).
public struct MotionEffectApplicator: Hashable, Sendable {
  /// The orientation of the interface the layers belong to.
  public var interfaceOrientation: InterfaceOrientation

  /// Creates an applicator.
  ///
  /// - Parameter interfaceOrientation: The interface orientation (default portrait).
  public init(interfaceOrientation: InterfaceOrientation = .portrait) {
    self.interfaceOrientation = interfaceOrientation
  }

  /// The offset the effects see for a device-frame offset.
  ///
  /// - Parameter deviceOffset: The offset along the device's axes.
  /// - Returns: The offset along the interface's axes.
  public func pose(for deviceOffset: ViewerOffset) -> ViewerOffset {
    deviceOffset.rotated(for: interfaceOrientation)
  }

  /// Applies an offset to every layer of a tree that has motion effects.
  ///
  /// - Parameters:
  ///   - deviceOffset: The viewer offset along the device's axes, −1...1 (from
  ///     ``ViewerOffsetEngine``).
  ///   - root: The root of the layer tree.
  /// - Returns: The number of layers updated.
  @discardableResult
  public func apply(_ deviceOffset: ViewerOffset, to root: Layer) -> Int {
    let p = pose(for: deviceOffset)
    var n = 0
    for layer in root.allLayers where layer.hasMotionEffects {
      layer.applyMotionEffects(for: p)
      n += 1
    }
    return n
  }
}
