import SwellGeometry
import SwellLayers
import SwellMotion
import SwellWaves

/// The built-in `waterwave` scene: the WaterWave demo on an iPhone-like canvas (390 × 844
/// points @3x), three sine layers over a fill level of 0.5, driven by a
/// ``WaterWaveController``.
///
/// Traced values: `water.transform.rotation.z` (the water's tilt, radians in (−π, π]),
/// `water.amplitude` (the front wave's drawn amplitude, points, base included) and
/// `water.phase` (the front wave's phase, radians in (−π, π]).
public final class WaterWaveScene: Scene {
  /// `waterwave`.
  public let name = "waterwave"
  /// The canvas size, points.
  public let size: Size
  /// Pixels per point.
  public let scale: Double
  /// A pale sky behind the water.
  public let background = Color(red: 0.93, green: 0.96, blue: 1.0)
  /// The root layer; its bounds are the canvas.
  public let root: Layer
  /// The water container, named `water`.
  public let water: WaterWaveLayer
  /// The motion response.
  public let controller: WaterWaveController
  /// The traced values.
  public let traceKeys = ["water.transform.rotation.z", "water.amplitude", "water.phase"]
  private var cache: (time: Double, layer: Layer)?

  /// The three sine layers of the demo, back to front: amplitudes 12, 10 and 8 points,
  /// wavelengths 300, 240 and 390 points, phase speeds 1.6, −2.2 and 3 rad/s, increasingly
  /// opaque blues; the front one has a screen-vertical gradient.
  public static let defaultWaves: [SineWave] = [
    SineWave(
      amplitude: 12, wavelength: 300, phaseSpeed: 1.6, initialPhase: 1.2,
      fill: .color(Color(red: 0.35, green: 0.62, blue: 0.98, alpha: 0.35))),
    SineWave(
      amplitude: 10, wavelength: 240, phaseSpeed: -2.2, initialPhase: 2.4,
      fill: .color(Color(red: 0.2, green: 0.5, blue: 0.95, alpha: 0.5))),
    SineWave(
      amplitude: 8, wavelength: 390, phaseSpeed: 3, initialPhase: 0,
      fill: .gradient(
        .vertical(
          from: Color(red: 0.12, green: 0.45, blue: 0.92, alpha: 0.92),
          to: Color(red: 0.02, green: 0.14, blue: 0.45, alpha: 1), space: .screenVertical))),
  ]

  /// Creates the scene.
  ///
  /// - Parameter options: Canvas overrides, the seed-exact rule, the response model and
  ///   Reduce Motion.
  public init(options: SceneOptions = SceneOptions()) {
    size = Size(width: options.width ?? 390, height: options.height ?? 844)
    scale = options.scale ?? 3
    root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
    root.contentsScale = scale
    water = WaterWaveLayer(
      name: "water", model: WaterWave(waves: Self.defaultWaves, fillLevel: 0.5),
      visibleSize: size)
    water.contentsScale = scale
    root.addSublayer(water)
    var o = WaterWaveOptions()
    o.tiltRule = options.seedExact ? .seedExact : .corrected
    o.response = options.waterResponse
    o.reduceMotion = options.reduceMotion
    controller = WaterWaveController(layer: water, options: o)
  }

  /// Takes one device-motion sample.
  ///
  /// - Parameter motion: The sample.
  public func receive(_ motion: DeviceMotion) {
    controller.receive(motion)
    cache = nil
  }

  /// Moves the water to a frame's target time.
  ///
  /// - Parameter frame: The frame.
  public func advance(to frame: DisplayLinkFrame) {
    controller.advance(to: frame.targetTimestamp)
    cache = nil
  }

  /// A traced value: the presentation value of `water.*` at a time (one presentation copy of
  /// the water per time), angles wrapped to (−π, π].
  ///
  /// - Parameters:
  ///   - key: One of ``traceKeys`` (or any `LAYER.KEYPATH`).
  ///   - time: Seconds.
  /// - Returns: The value, or `nil` for an unknown key.
  public func traceValue(_ key: String, at time: Double) -> Double? {
    let prefix = "water."
    guard key.hasPrefix(prefix) else { return layerTraceValue(key, at: time) }
    let copy: Layer
    if let c = cache, c.time == time {
      copy = c.layer
    } else {
      copy = water.presentationCopy(at: time)
      cache = (time, copy)
    }
    let path = String(key.dropFirst(prefix.count))
    guard case .number(let v) = copy.value(forKeyPath: path) else { return nil }
    return path.contains("rotation") ? normalizedAngle(v) : v
  }
}
