import Foundation
import SwellGeometry
import SwellLayers

/// How one sine layer of a water wave is filled.
public enum WaveFill: Hashable, Sendable {
  /// A solid colour.
  case color(Color)
  /// A linear gradient; use `space: .screenVertical` so the fill stays vertical on screen when
  /// the water tilts (Cairo's fast path, and how water looks: darker with depth).
  case gradient(LinearGradient)
}

/// One sine layer of a water wave: the surface `y = A·sin(k·x + φ(t)) + offset` in layer space
/// (points, y down), with `k = 2π / wavelength` and `φ(t) = initialPhase + phaseSpeed · t`.
///
/// The phase advances per **second**, not per frame, so a wave looks the same at 60 Hz and at
/// 120 Hz (a phase step added on every display-link callback would run twice as fast at 120 Hz;
/// Apple's `CADisplayLink` page gives the frame's `timestamp` to step by). A positive ``phaseSpeed`` moves the crests toward −x (left).
public struct SineWave: Hashable, Sendable {
  /// The base amplitude `A`, points.
  public var amplitude: Double
  /// The distance between crests, points (positive).
  public var wavelength: Double
  /// The phase speed `dφ/dt`, radians per second.
  public var phaseSpeed: Double
  /// The phase at time 0, radians.
  public var initialPhase: Double
  /// The fill below the surface.
  public var fill: WaveFill

  /// Creates a sine layer.
  ///
  /// - Parameters:
  ///   - amplitude: The base amplitude, points.
  ///   - wavelength: The crest-to-crest distance, points; must be positive.
  ///   - phaseSpeed: Radians per second.
  ///   - initialPhase: The phase at time 0, radians (default 0).
  ///   - fill: A colour or a gradient.
  public init(
    amplitude: Double, wavelength: Double, phaseSpeed: Double, initialPhase: Double = 0,
    fill: WaveFill
  ) {
    precondition(wavelength > 0 && wavelength.isFinite, "wavelength must be positive")
    self.amplitude = amplitude
    self.wavelength = wavelength
    self.phaseSpeed = phaseSpeed
    self.initialPhase = initialPhase
    self.fill = fill
  }

  /// The spatial angular frequency `k = 2π / wavelength`, radians per point (the seed's ω).
  public var wavenumber: Double { 2 * .pi / wavelength }

  /// The phase at a time: `initialPhase + phaseSpeed · time`, radians (not wrapped).
  ///
  /// - Parameter time: Seconds.
  /// - Returns: The phase, radians.
  public func phase(at time: Double) -> Double { initialPhase + phaseSpeed * time }

  /// The surface height at a point: `A·sin(k·x + φ) + offset`, points, layer space (y down).
  ///
  /// - Parameters:
  ///   - x: The horizontal position, points.
  ///   - phase: The phase φ, radians.
  ///   - offset: The mean surface position `k` of the seed formula, points from the top.
  ///   - extraAmplitude: Points added to the base amplitude (the motion response).
  /// - Returns: The surface's y, points.
  public func surfaceY(x: Double, phase: Double, offset: Double, extraAmplitude: Double = 0)
    -> Double
  {
    (amplitude + extraAmplitude) * sin(wavenumber * x + phase) + offset
  }
}

extension ShapeLayer {
  /// Sets the fill colour or gradient from a wave's fill (the other one cleared).
  ///
  /// - Parameter fill: The fill.
  func setFill(_ fill: WaveFill) {
    switch fill {
    case .color(let c):
      fillColor = c
      fillGradient = nil
    case .gradient(let g):
      fillColor = nil
      fillGradient = g
    }
  }
}
