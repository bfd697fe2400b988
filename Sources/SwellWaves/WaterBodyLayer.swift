import Foundation
import SwellGeometry
import SwellLayers

/// The physical water (`--response physical`): a layer (conventionally named `water`) whose
/// bounds space holds a ``WaterContainer`` and one ``FreeSurfaceLayer`` per sine layer, each
/// filling the container below the ``FreeSurface`` plus its own ripple. The layer itself never
/// turns: the surface moves inside it.
///
/// Key paths for traces: `surface.angle` (radians in (−π, π], the least-squares line of the free
/// surface on screen, UIKit's sign), `volume` (the water drawn as a fraction of the container's
/// area), `surface.roughness` (points from the least-squares line), `amplitude` (the front
/// ripple's amplitude, points), `phase` (the front ripple's phase at the presentation time,
/// radians in (−π, π]) and `fillLevel` (the water's area fraction).
public final class WaterBodyLayer: Layer {
  /// The vessel, in this layer's bounds space.
  public let container: WaterContainer
  /// The water's constants (fill fraction, sample spacing, damping, ...).
  public let parameters: WaterBody.Parameters
  /// The sine layers that ride on the surface as ripples, back to front.
  public let waves: [SineWave]
  /// The time of the last presentation, seconds.
  public private(set) var presentationTime: Double = 0

  /// The surface shown; setting it passes it to every surface layer.
  public var surface: FreeSurface {
    didSet {
      for l in surfaceLayers { l.surface = surface }
      updateSpill()
    }
  }

  /// The spill of an open container, a sheet falling from its lip (``FreeSurface/spillPath(drop:)``),
  /// drawn in front of the water with the front ripple's colour; its path is empty while
  /// nothing pours. Named `NAME.spill`.
  public var spillLayer: ShapeLayer? {
    let spill = sublayers.first { $0.name == "\(name ?? "water").spill" }
    if case .shape(let shape) = spill?.drawnContent { return shape }
    return nil
  }

  /// When set, the ripples' phases stay at their initial values (Reduce Motion).
  public var isPhaseFrozen = false {
    didSet { for l in surfaceLayers { l.isPhaseFrozen = isPhaseFrozen } }
  }

  /// The surface sublayers, back to front.
  public var surfaceLayers: [FreeSurfaceLayer] { sublayers.compactMap { $0 as? FreeSurfaceLayer } }

  /// Creates the water at rest in a container.
  ///
  /// - Parameters:
  ///   - name: The layer's name (default `water`, which traces look up).
  ///   - container: The vessel, in the bounds space of a layer of `size`.
  ///   - parameters: The water's constants.
  ///   - waves: The ripples, back to front (their `amplitude` and `wavelength` in points along
  ///     the surface; their fill is the water's).
  ///   - size: The layer's size, points (its bounds are `(0, 0, width, height)`).
  public init(
    name: String = "water", container: WaterContainer, parameters: WaterBody.Parameters,
    waves: [SineWave], size: Size
  ) {
    self.container = container
    self.parameters = parameters
    self.waves = waves
    surface = WaterBody(container: container, parameters: parameters).surface()
    super.init()
    self.name = name
    bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
    for (i, w) in waves.enumerated() {
      let l = FreeSurfaceLayer(wave: w, surface: surface, size: size)
      l.name = "\(name).wave\(i)"
      l.position = Point(x: size.width / 2, y: size.height / 2)
      addSublayer(l)
    }
    let spill = ShapeLayer()
    spill.name = "\(name).spill"
    spill.bounds = bounds
    spill.position = Point(x: size.width / 2, y: size.height / 2)
    spill.fillColor =
      waves.last.map { Self.spillColor($0.fill) }
      ?? Color(red: 0.3, green: 0.55, blue: 0.9, alpha: 0.8)
    addSublayer(spill)
    updateSpill()
  }

  /// The colour of the spill for a fill: the colour itself, or a gradient's first stop (its
  /// surface side).
  static func spillColor(_ fill: WaveFill) -> Color {
    switch fill {
    case .color(let c): c
    case .gradient(let g): g.stops.first?.color ?? .black
    }
  }

  /// Draws the spill for the current surface: the sheet falls twice the container's radius
  /// below the lip.
  private func updateSpill() {
    guard let spill = spillLayer else { return }
    let path = surface.spillPath(drop: 2 * container.radius)
    spill.path = path.elements.isEmpty ? nil : path
  }

  private init(copying other: WaterBodyLayer) {
    container = other.container
    parameters = other.parameters
    waves = other.waves
    surface = other.surface
    presentationTime = other.presentationTime
    isPhaseFrozen = other.isPhaseFrozen
    super.init()
  }

  /// Records the presentation time (the ripples' phases are taken at it).
  ///
  /// - Parameter time: Seconds on the tree's clock.
  public override func prepareForPresentation(at time: Double) {
    presentationTime = time
  }

  /// A copy of the layer's own properties, its surface included (the surface sublayers are
  /// copied by the tree).
  ///
  /// - Returns: A detached layer without sublayers.
  public override func copyLayer() -> Layer {
    let l = WaterBodyLayer(copying: self)
    copyProperties(to: l)
    return l
  }

  /// Adds `surface.angle`, `volume`, `surface.roughness`, `amplitude`, `phase` and `fillLevel`
  /// to the layer key paths.
  ///
  /// - Parameter keyPath: The key path.
  /// - Returns: The value, or `nil`.
  public override func value(forKeyPath keyPath: String) -> LayerValue? {
    switch keyPath {
    case "surface.angle": .number(wrappedAngle(surface.angle))
    case "volume": .number(surface.volumeFraction)
    case "surface.roughness": .number(surface.roughness)
    case "fillLevel": .number(parameters.fillFraction)
    case "amplitude": .number(waves.last?.amplitude ?? 0)
    case "phase":
      .number(
        wrappedAngle(
          waves.last.map {
            SineSurfaceLayer.phase(of: $0, at: presentationTime, frozen: isPhaseFrozen)
          } ?? 0))
    default: super.value(forKeyPath: keyPath)
    }
  }
}

/// A shape layer that fills a container below a ``FreeSurface`` plus one ``SineWave`` ripple
/// (`z = surface + A·sin(2π·s/wavelength + φ)`, `s` along the world's horizontal; `A` fades to 0
/// as the water drops under 2 % of the container), clipped to the container; its path is computed for the presentation time in
/// ``SineSurfaceLayer/prepareForPresentation(at:)`` (φ = φ₀ + phaseSpeed·t).
///
/// A gradient fill in the `screenVertical` space ("darker with depth") follows gravity: its
/// axis runs along the surface's ``FreeSurface/down`` across the layer's bounds, so the water
/// is light at its surface and dark at its bottom whichever way the device is turned (upright,
/// it is the screen-vertical gradient exactly). Other fills are drawn as given.
public final class FreeSurfaceLayer: SineSurfaceLayer {
  /// The surface it rides on; setting it turns a depth gradient to its gravity.
  public var surface: FreeSurface {
    didSet { if surface.down != oldValue.down { applyFill() } }
  }

  /// Creates a surface layer whose bounds are `(0, 0, width, height)`.
  ///
  /// - Parameters:
  ///   - wave: The ripple and fill.
  ///   - surface: The surface.
  ///   - size: The size, points (the water layer's).
  public init(wave: SineWave, surface: FreeSurface, size: Size) {
    self.surface = surface
    super.init(wave: wave)
    bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
    applyFill()
    updatePath(at: 0)
  }

  /// Sets the fill from ``SineSurfaceLayer/wave``: a `screenVertical` gradient is turned to
  /// the surface's gravity (`depthGradient(_:down:size:)`).
  public override func applyFill() {
    guard case .gradient(let g) = wave.fill, g.space == .screenVertical else {
      setFill(wave.fill)
      return
    }
    setFill(.gradient(Self.depthGradient(g, down: surface.down, size: bounds.size)))
  }

  /// A `screenVertical` gradient turned to gravity: its axis along `down` through the centre of
  /// a layer of `size`, spanning the layer's extent along `down` (the gradient's start and end
  /// y pick the part of that span, as they pick part of the height on screen), in the `layer`
  /// space. With `down` the screen's down, the gradient is returned unchanged.
  ///
  /// - Parameters:
  ///   - gradient: A gradient whose `space` is `screenVertical`.
  ///   - down: The frame of gravity's down, a unit vector in the layer's bounds space (y down).
  ///   - size: The layer's size, points.
  /// - Returns: The gradient that darkens with depth along `down`.
  static func depthGradient(_ gradient: LinearGradient, down: Point, size: Size)
    -> LinearGradient
  {
    let w = size.width
    let h = size.height
    guard abs(down.x) > 1e-9 || down.y <= 0, w > 0, h > 0, down.x.isFinite, down.y.isFinite
    else { return gradient }
    // The layer's extent along `down`, from its centre: half its projected width and height.
    let half = (abs(down.x) * w + abs(down.y) * h) / 2
    func point(_ u: Double) -> Point {
      let along = -half + 2 * half * u
      return Point(x: 0.5 + along * down.x / w, y: 0.5 + along * down.y / h)
    }
    return LinearGradient(
      stops: gradient.stops, startPoint: point(gradient.startPoint.y),
      endPoint: point(gradient.endPoint.y), space: .layer)
  }

  /// The container's water below the surface plus the ripple, for a phase.
  ///
  /// - Parameter phase: The ripple's phase, radians.
  /// - Returns: The path.
  public override func surfacePath(phase: Double) -> Path {
    // Ripples need water under them: they fade out as an open glass empties (below 2 % of the
    // container), so an empty glass shows no blue slivers along its walls.
    let a = wave.amplitude * min(max(surface.volumeFraction / 0.02, 0), 1)
    let k = wave.wavenumber
    return surface.fillPath { s in a * sin(k * s + phase) }
  }

  /// A copy of the layer's properties.
  ///
  /// - Returns: A detached surface layer.
  public override func copyLayer() -> Layer {
    let l = FreeSurfaceLayer(copying: self)
    copySineSurfaceProperties(to: l)
    return l
  }

  private init(copying other: FreeSurfaceLayer) {
    surface = other.surface
    super.init(wave: other.wave)
  }

  /// Adds `amplitude` (points) to the key paths of ``SineSurfaceLayer``.
  ///
  /// - Parameter keyPath: The key path.
  /// - Returns: The value, or `nil`.
  public override func value(forKeyPath keyPath: String) -> LayerValue? {
    switch keyPath {
    case "amplitude": .number(wave.amplitude)
    default: super.value(forKeyPath: keyPath)
    }
  }
}
