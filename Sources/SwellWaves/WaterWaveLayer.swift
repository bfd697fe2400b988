import Foundation
import SwellGeometry
import SwellLayers

/// The water of the WaterWave demo: a container layer (conventionally named `water`) holding one
/// ``WaveLayer`` per sine layer, which tilts as a whole through `transform.rotation.z` about the
/// centre of the visible area.
///
/// Its bounds space is the visible space (points, origin at the visible top left, y down), its
/// bounds extend ``overscan`` beyond it on every side, and its `position` is the visible centre,
/// so with an identity transform it lines up with the canvas. The overscan comes from the
/// diagonal (``WaterWave/overscan(for:)``), so any tilt still covers the screen's corners.
///
/// Key paths for traces: `amplitude` (the front wave's drawn amplitude, points, base + extra
/// within the fold limit ``maximumSlope``),
/// `phase` (the front wave's phase at the presentation time, radians in (−π, π]), `fillLevel`
/// (0...1) and `extraAmplitude` (points). `fillLevel` and `extraAmplitude` are settable model
/// values; they are pushed to the wave sublayers at once (they are not animatable through
/// `Layer.animate(keyPath:to:duration:timingFunction:at:)`).
public final class WaterWaveLayer: Layer {
  /// The model: sine layers and fill level.
  public private(set) var model: WaterWave
  /// The visible size, points.
  public let visibleSize: Size
  /// The margin beyond every visible edge, points.
  public let overscan: Double
  /// The time of the last presentation, seconds.
  public private(set) var presentationTime: Double = 0

  /// The fill level, 0...1; setting it moves every wave's surface.
  public var fillLevel: Double {
    get { model.fillLevel }
    set {
      model.fillLevel = newValue.isFinite ? min(max(newValue, 0), 1) : model.fillLevel
      let offset = model.surfaceOffset(height: visibleSize.height)
      for w in waveLayers { w.surfaceOffset = offset }
    }
  }

  /// Points added to every wave's base amplitude (the motion response).
  public var extraAmplitude: Double = 0 {
    didSet {
      if !extraAmplitude.isFinite { extraAmplitude = 0 }
      for w in waveLayers { w.extraAmplitude = extraAmplitude }
    }
  }

  /// The steepest slope `|dy/dx|` the motion response may give any wave, dimensionless
  /// (`.infinity`, the default: no limit); pushed to every ``WaveLayer/maximumSlope``. The
  /// motion response sets it from the tilt (``TiltRule/maximumSurfaceSlope(tilt:)``) so that
  /// its extra amplitude never makes a wave fold.
  public var maximumSlope: Double = .infinity {
    didSet {
      if maximumSlope.isNaN { maximumSlope = .infinity }
      for w in waveLayers { w.maximumSlope = maximumSlope }
    }
  }

  /// The front wave's drawn amplitude, points: its base plus ``extraAmplitude``, limited by
  /// ``maximumSlope`` (0 without waves).
  public var frontAmplitude: Double {
    guard let w = model.frontWave else { return 0 }
    return WaveLayer.limitedAmplitude(
      base: w.amplitude, extra: extraAmplitude, wavenumber: w.wavenumber,
      maximumSlope: maximumSlope)
  }

  /// When set, the phases stay at their initial values (Reduce Motion).
  public var isPhaseFrozen = false {
    didSet { for w in waveLayers { w.isPhaseFrozen = isPhaseFrozen } }
  }

  /// The wave sublayers, back to front.
  public var waveLayers: [WaveLayer] { sublayers.compactMap { $0 as? WaveLayer } }

  /// The classic water layers in a layer tree (the root included), in the tree's order: what a
  /// program outside SwellWaves asks instead of casting each layer.
  ///
  /// - Parameter tree: The root of the tree.
  /// - Returns: The water layers.
  public static func all(in tree: Layer) -> [WaterWaveLayer] {
    tree.allLayers.compactMap { $0 as? WaterWaveLayer }
  }

  /// Creates the water for a visible area.
  ///
  /// - Parameters:
  ///   - name: The layer's name (default `water`, which traces look up).
  ///   - model: The sine layers and fill level.
  ///   - visibleSize: The visible size, points (the canvas).
  public init(name: String = "water", model: WaterWave, visibleSize: Size) {
    self.model = model
    self.visibleSize = visibleSize
    overscan = WaterWave.overscan(for: visibleSize)
    super.init()
    self.name = name
    bounds = Rect(
      x: -overscan, y: -overscan, width: visibleSize.width + 2 * overscan,
      height: visibleSize.height + 2 * overscan)
    position = Point(x: visibleSize.width / 2, y: visibleSize.height / 2)
    let offset = model.surfaceOffset(height: visibleSize.height)
    for (i, w) in model.waves.enumerated() {
      let l = WaveLayer(
        wave: w, visibleSize: visibleSize, overscan: overscan, surfaceOffset: offset,
        sampleSpacing: model.sampleSpacing)
      l.name = "\(name).wave\(i)"
      addSublayer(l)
    }
  }

  /// The front wave's phase at a time, radians (not wrapped); frozen under Reduce Motion.
  ///
  /// - Parameter time: Seconds.
  /// - Returns: The phase, or 0 without waves.
  public func frontPhase(at time: Double) -> Double {
    guard let w = model.frontWave else { return 0 }
    return SineSurfaceLayer.phase(of: w, at: time, frozen: isPhaseFrozen)
  }

  /// Records the presentation time (the phases are taken at it).
  ///
  /// - Parameter time: Seconds on the tree's clock.
  public override func prepareForPresentation(at time: Double) {
    presentationTime = time
  }

  /// A copy of the container's own properties (the wave sublayers are copied by the tree).
  ///
  /// - Returns: A detached container without sublayers.
  public override func copyLayer() -> Layer {
    let l = WaterWaveLayer(copying: self)
    copyProperties(to: l)
    return l
  }

  private init(copying other: WaterWaveLayer) {
    model = other.model
    visibleSize = other.visibleSize
    overscan = other.overscan
    presentationTime = other.presentationTime
    extraAmplitude = other.extraAmplitude
    maximumSlope = other.maximumSlope
    isPhaseFrozen = other.isPhaseFrozen
    super.init()
  }

  /// Adds `amplitude`, `phase`, `fillLevel` and `extraAmplitude` to the layer key paths.
  ///
  /// - Parameter keyPath: The key path.
  /// - Returns: The value, or `nil`.
  public override func value(forKeyPath keyPath: String) -> LayerValue? {
    switch keyPath {
    case "amplitude": .number(frontAmplitude)
    case "extraAmplitude": .number(extraAmplitude)
    case "phase": .number(wrappedAngle(frontPhase(at: presentationTime)))
    case "fillLevel": .number(fillLevel)
    default: super.value(forKeyPath: keyPath)
    }
  }

  /// The layer key paths with `fillLevel` (0...1) and `extraAmplitude` (points).
  public override var supportedKeyPaths: [String: LayerValueKind] {
    super.supportedKeyPaths.merging(["fillLevel": .number, "extraAmplitude": .number]) { a, _ in a }
  }

  /// Sets `fillLevel` (0...1), `extraAmplitude` (points) or a layer key path.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - keyPath: The key path.
  /// - Returns: Whether it was set.
  @discardableResult
  public override func setValue(_ value: LayerValue, forKeyPath keyPath: String) -> Bool {
    switch (keyPath, value) {
    case ("fillLevel", .number(let v)) where v.isFinite: fillLevel = v
    case ("extraAmplitude", .number(let v)) where v.isFinite: extraAmplitude = v
    default: return super.setValue(value, forKeyPath: keyPath)
    }
    return true
  }
}
