import Foundation
import SwellGeometry
import SwellLayers

/// A shape layer that draws one ``SineWave`` of a water wave; its path is computed for the
/// presentation time in ``SineSurfaceLayer/prepareForPresentation(at:)``
/// (φ = φ0 + phaseSpeed·t) with a constant number of points.
///
/// Its bounds space is the **visible space** of the water (points, origin at the visible top
/// left, y down), extended by ``overscan`` on the left, right and bottom.
public final class WaveLayer: SineSurfaceLayer {
  /// The visible size, points.
  public var visibleSize: Size
  /// The margin beyond the left, right and bottom edges, points.
  public var overscan: Double
  /// The mean surface position, points from the visible top (the seed's `k`).
  public var surfaceOffset: Double
  /// Points added to the base amplitude (the motion response).
  public var extraAmplitude: Double = 0
  /// The steepest slope `|dy/dx|` the motion response may give the surface (dimensionless,
  /// `.infinity`: no limit): the extra amplitude is cut so that the drawn amplitude is at most
  /// `max(|A|, maximumSlope / k)` (``drawnAmplitude``), so the response never makes the wave
  /// fold over itself on screen at its water's tilt (``TiltRule/maximumSurfaceSlope(tilt:)``).
  public var maximumSlope: Double = .infinity

  /// The amplitude drawn, points: base + extra, within the slope limit
  /// (``limitedAmplitude(base:extra:wavenumber:maximumSlope:)``).
  public var drawnAmplitude: Double {
    Self.limitedAmplitude(
      base: wave.amplitude, extra: extraAmplitude, wavenumber: wave.wavenumber,
      maximumSlope: maximumSlope)
  }

  /// A wave's amplitude with the motion response's extra limited so that a sine of wavenumber
  /// `k` gets no steeper than a bound: `A + e` with its magnitude at most
  /// `max(|A|, maximumSlope / k)`. The base amplitude `A` is the scene's own and is never cut
  /// (with the classic response's ±45° tilt the built-in waves' own slopes, at most 0.27, stay
  /// far below the bound's 0.7).
  ///
  /// - Parameters:
  ///   - base: The wave's own amplitude `A`, points.
  ///   - extra: The response's extra amplitude `e`, points (non-finite counts as 0).
  ///   - wavenumber: `k`, radians per point.
  ///   - maximumSlope: The bound on `|dy/dx|`, dimensionless (`.infinity`: none; negative or
  ///     NaN count as 0).
  /// - Returns: The drawn amplitude, points.
  public static func limitedAmplitude(
    base: Double, extra: Double, wavenumber: Double, maximumSlope: Double
  ) -> Double {
    let a = base.isFinite ? base : 0
    let total = a + (extra.isFinite ? extra : 0)
    guard total.isFinite else { return a }
    guard maximumSlope < .infinity, wavenumber > 0 else { return total }
    let bound = max(abs(a), max(maximumSlope.isNaN ? 0 : maximumSlope, 0) / wavenumber)
    return min(max(total, -bound), bound)
  }
  /// The largest distance between path samples, points.
  public var sampleSpacing: Double

  /// Creates a wave layer whose bounds cover the visible area plus the overscan.
  ///
  /// - Parameters:
  ///   - wave: The sine layer.
  ///   - visibleSize: The visible size, points.
  ///   - overscan: The margin, points.
  ///   - surfaceOffset: The mean surface position, points from the top.
  ///   - sampleSpacing: Points between samples.
  public init(
    wave: SineWave, visibleSize: Size, overscan: Double, surfaceOffset: Double,
    sampleSpacing: Double
  ) {
    self.visibleSize = visibleSize
    self.overscan = overscan
    self.surfaceOffset = surfaceOffset
    self.sampleSpacing = sampleSpacing
    super.init(wave: wave)
    bounds = Rect(
      x: -overscan, y: -overscan, width: visibleSize.width + 2 * overscan,
      height: visibleSize.height + 2 * overscan)
    position = Point(x: visibleSize.width / 2, y: visibleSize.height / 2)
    applyFill()
    updatePath(at: 0)
  }

  /// The fill below the wave for a phase (``WaterWave/fillPath(wave:phase:size:offset:extraAmplitude:overscan:sampleSpacing:)``).
  ///
  /// - Parameter phase: The phase, radians.
  /// - Returns: The path.
  public override func surfacePath(phase: Double) -> Path {
    WaterWave.fillPath(
      wave: wave, phase: phase, size: visibleSize, offset: surfaceOffset,
      extraAmplitude: drawnAmplitude - wave.amplitude, overscan: overscan,
      sampleSpacing: sampleSpacing)
  }

  /// A copy of the wave layer's properties.
  ///
  /// - Returns: A detached wave layer.
  public override func copyLayer() -> Layer {
    let l = WaveLayer(
      wave: wave, visibleSize: visibleSize, overscan: overscan, surfaceOffset: surfaceOffset,
      sampleSpacing: sampleSpacing)
    copySineSurfaceProperties(to: l)
    l.extraAmplitude = extraAmplitude
    l.maximumSlope = maximumSlope
    return l
  }

  /// Adds `amplitude` (points, the drawn amplitude: base + extra within the slope limit),
  /// `phase` (radians in (−π, π], at the time the path was computed) and `extraAmplitude` to
  /// the shape key paths.
  ///
  /// - Parameter keyPath: The key path.
  /// - Returns: The value, or `nil`.
  public override func value(forKeyPath keyPath: String) -> LayerValue? {
    switch keyPath {
    case "amplitude": .number(drawnAmplitude)
    case "extraAmplitude": .number(extraAmplitude)
    default: super.value(forKeyPath: keyPath)
    }
  }

  /// The layer key paths with `extraAmplitude` (points).
  public override var supportedKeyPaths: [String: LayerValueKind] {
    super.supportedKeyPaths.merging(["extraAmplitude": .number]) { a, _ in a }
  }

  /// Sets `extraAmplitude` (number, points) or a shape key path.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - keyPath: The key path.
  /// - Returns: Whether it was set.
  @discardableResult
  public override func setValue(_ value: LayerValue, forKeyPath keyPath: String) -> Bool {
    switch (keyPath, value) {
    case ("extraAmplitude", .number(let v)) where v.isFinite: extraAmplitude = v
    default: return super.setValue(value, forKeyPath: keyPath)
    }
    return true
  }
}
