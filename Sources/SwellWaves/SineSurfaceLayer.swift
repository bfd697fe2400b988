import Foundation
import SwellGeometry
import SwellLayers

/// A shape layer that draws one ``SineWave`` ripple on a surface, its path computed for the
/// presentation time in ``prepareForPresentation(at:)`` (φ = φ₀ + phaseSpeed·t, frozen at φ₀
/// under Reduce Motion): what ``WaveLayer`` (the classic water wave's sine layers) and
/// ``FreeSurfaceLayer`` (the sloshing water's ripple) share. A subclass gives the path for a
/// phase (``surfacePath(phase:)``).
open class SineSurfaceLayer: ShapeLayer {
  /// The sine layer drawn; setting it sets the fill.
  public var wave: SineWave {
    didSet { applyFill() }
  }
  /// When set, the phase stays at ``SineWave/initialPhase`` (Reduce Motion).
  public var isPhaseFrozen = false
  /// The time the path was last computed for, seconds.
  public internal(set) var pathTime: Double = 0

  /// Creates the layer; the subclass sets its bounds, then calls ``applyFill()`` and
  /// ``updatePath(at:)``.
  ///
  /// - Parameter wave: The sine layer.
  public init(wave: SineWave) {
    self.wave = wave
    super.init()
  }

  /// Sets the fill from ``wave``.
  open func applyFill() { setFill(wave.fill) }

  /// The phase drawn at a time, radians (not wrapped): frozen at φ₀ under Reduce Motion.
  ///
  /// - Parameter time: Seconds.
  /// - Returns: The phase.
  public func phase(at time: Double) -> Double {
    Self.phase(of: wave, at: time, frozen: isPhaseFrozen)
  }

  /// The phase of a sine layer at a time, radians (not wrapped): φ₀ + phaseSpeed·t, or φ₀ when
  /// frozen (Reduce Motion). The one rule for the phase a surface layer draws and the phase the
  /// water layers holding them report (``WaterWaveLayer``, ``WaterBodyLayer``).
  ///
  /// - Parameters:
  ///   - wave: The sine layer.
  ///   - time: Seconds.
  ///   - frozen: Whether the phase stays at ``SineWave/initialPhase``.
  /// - Returns: The phase.
  static func phase(of wave: SineWave, at time: Double, frozen: Bool) -> Double {
    frozen ? wave.initialPhase : wave.phase(at: time)
  }

  /// Copies the shape layer properties and the phase state (``isPhaseFrozen``, ``pathTime``)
  /// to another surface layer (for a subclass's `copyLayer()`).
  ///
  /// - Parameter l: The copy.
  public final func copySineSurfaceProperties(to l: SineSurfaceLayer) {
    copyShapeProperties(to: l)
    l.isPhaseFrozen = isPhaseFrozen
    l.pathTime = pathTime
  }

  /// The fill path for a phase (the subclass's geometry).
  ///
  /// - Parameter phase: The ripple's phase, radians.
  /// - Returns: The path, in the layer's bounds space.
  open func surfacePath(phase: Double) -> Path { Path() }

  /// Recomputes `ShapeLayer.path` for a time.
  ///
  /// - Parameter time: Seconds.
  public func updatePath(at time: Double) {
    pathTime = time
    path = surfacePath(phase: phase(at: time))
  }

  /// Computes the path for the presentation time.
  ///
  /// - Parameter time: Seconds on the tree's clock.
  public override func prepareForPresentation(at time: Double) {
    updatePath(at: time)
  }

  /// Adds `phase` (radians in (−π, π], at the time the path was computed) to the shape key
  /// paths.
  ///
  /// - Parameter keyPath: The key path.
  /// - Returns: The value, or `nil`.
  open override func value(forKeyPath keyPath: String) -> LayerValue? {
    switch keyPath {
    case "phase": .number(wrappedAngle(phase(at: pathTime)))
    default: super.value(forKeyPath: keyPath)
    }
  }
}
