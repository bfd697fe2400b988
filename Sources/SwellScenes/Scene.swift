import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion

/// A playable scene: a layer tree that motion and a display link drive, which renderers draw and
/// `swell trace` records.
///
/// A driver feeds it every `DeviceMotion` sample with a timestamp up to the frame's target time
/// (``receive(_:)``), then calls ``advance(to:)`` once per display-link frame, in increasing
/// order. Given the same motion and frames, a scene produces the same presentation values every
/// time: it never reads the wall clock.
public protocol Scene: AnyObject {
  /// The scene's name (`waterwave`, `homescreen`, or a file's name).
  var name: String { get }
  /// The canvas size, points.
  var size: Size { get }
  /// Pixels per point for rendering (@2x, @3x).
  var scale: Double { get }
  /// The canvas background colour.
  var background: Color { get }
  /// The root of the model layer tree; its bounds are the canvas.
  var root: Layer { get }
  /// The traced values, in column order after `time` (docs/formats.md: `LAYER.KEYPATH`).
  var traceKeys: [String] { get }

  /// Takes one device-motion sample (timestamps increase across calls).
  ///
  /// - Parameter motion: The sample, CoreMotion units.
  func receive(_ motion: DeviceMotion)

  /// Moves the scene to a frame: updates animations and time-dependent state for
  /// `frame.targetTimestamp`.
  ///
  /// - Parameter frame: The display-link frame being prepared.
  func advance(to frame: DisplayLinkFrame)

  /// A traced value at a time: a presentation value, angles in radians normalised to (−π, π],
  /// lengths in points.
  ///
  /// - Parameters:
  ///   - key: One of ``traceKeys``.
  ///   - time: Seconds (the frame's target timestamp).
  /// - Returns: The value, or `nil` for an unknown key.
  func traceValue(_ key: String, at time: Double) -> Double?

  /// Follows the system's Reduce Motion setting (on Linux the desktop's, read by
  /// `SwellDesktop/DesktopReduceMotion`; the counterpart of
  /// `UIAccessibility.isReduceMotionEnabled`): while it is on the scene behaves as with
  /// ``SceneOptions/reduceMotion``; off returns to the scene's own settings. Takes effect at the
  /// next frame. The default implementation ignores it.
  ///
  /// - Parameter enabled: Whether the system asks for reduced motion.
  func setSystemReduceMotion(_ enabled: Bool)

  /// The interface orientation the scene is shown in. The default is portrait.
  var orientation: InterfaceOrientation { get }
  /// Whether ``layOut(size:scale:)`` can lay the scene out for another canvas (a window resized
  /// by hand, a terminal grid). The default is `false`: the host fits the scene instead.
  var isResizable: Bool { get }
  /// Lays the scene out for another canvas, keeping what motion has done. The default does
  /// nothing.
  ///
  /// - Parameters:
  ///   - size: The canvas, points (positive, finite).
  ///   - scale: Pixels per point (positive, finite).
  func layOut(size: Size, scale: Double)
  /// Makes the current attitude the viewer offset's neutral pose (the live view's `r` key). The
  /// default does nothing.
  ///
  /// - Parameter time: The scene time of the request, seconds.
  func recenterViewerOffset(at time: Double)
}

extension Scene {
  /// Ignores the setting (a scene with nothing to reduce).
  ///
  /// - Parameter enabled: Whether the system asks for reduced motion.
  public func setSystemReduceMotion(_ enabled: Bool) {}
  /// Portrait.
  public var orientation: InterfaceOrientation { .portrait }
  /// `false`.
  public var isResizable: Bool { false }
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - size: The canvas, points.
  ///   - scale: Pixels per point.
  public func layOut(size: Size, scale: Double) {}
  /// Does nothing.
  ///
  /// - Parameter time: The scene time, seconds.
  public func recenterViewerOffset(at time: Double) {}

  /// The presentation value of `LAYER.KEYPATH` (the layer found by name, the rest as a key path),
  /// as a number; angles normalised to (−π, π] for rotation key paths.
  ///
  /// - Parameters:
  ///   - key: `LAYER.KEYPATH`, such as `water.transform.rotation.z`.
  ///   - time: Seconds.
  /// - Returns: The number, or `nil` when the layer or key path is unknown or not a number.
  public func layerTraceValue(_ key: String, at time: Double) -> Double? {
    guard let dot = key.firstIndex(of: ".") else { return nil }
    let layerName = String(key[..<dot])
    let path = String(key[key.index(after: dot)...])
    guard let layer = root.layer(named: layerName),
      case .number(let v) = layer.presentationValue(forKeyPath: path, at: time)
    else { return nil }
    if path.contains("rotation") { return wrappedAngle(v) }
    return v
  }
}
