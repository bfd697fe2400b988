import Foundation
import SwellGeometry

/// The water-wave model of the WaterWave demo: any number of ``SineWave`` layers (back to front)
/// over a common fill level.
///
/// Geometry is in **visible space**: points, origin at the top left of the visible area
/// (`size`), y down. The fill level `f` in 0...1 puts the mean surface at
/// `offset = (1 − f) · height`, the seed's `k`. Paths extend `overscan` points beyond the
/// left, right and bottom edges so that the water still covers the screen when it is rotated
/// about the centre of the visible area (see ``overscan(for:)``).
public struct WaterWave: Hashable, Sendable {
  /// The sine layers, back to front; the last is the front wave.
  public var waves: [SineWave]
  /// The fill level, 0 (empty) ... 1 (full).
  public var fillLevel: Double
  /// The horizontal distance between path samples, points (about 2.5 is smooth at @3x).
  public var sampleSpacing: Double

  /// Creates a model.
  ///
  /// - Parameters:
  ///   - waves: The sine layers, back to front.
  ///   - fillLevel: 0...1 (clamped).
  ///   - sampleSpacing: Points between samples, positive (default 2.5).
  public init(waves: [SineWave], fillLevel: Double, sampleSpacing: Double = 2.5) {
    precondition(sampleSpacing > 0 && sampleSpacing.isFinite, "sampleSpacing must be positive")
    self.waves = waves
    self.fillLevel = fillLevel.isFinite ? min(max(fillLevel, 0), 1) : 0.5
    self.sampleSpacing = sampleSpacing
  }

  /// The front wave (the last one), or `nil` when there is none.
  public var frontWave: SineWave? { waves.last }

  /// The mean surface position for a visible height, points from the top: `(1 − fillLevel)·h`.
  ///
  /// - Parameter height: The visible height, points.
  /// - Returns: The seed's offset `k`, points.
  public func surfaceOffset(height: Double) -> Double { (1 - fillLevel) * height }

  /// The margin the paths need beyond the visible edges so that the water, rotated by **any**
  /// angle about the centre of the visible area, still covers every visible point below its
  /// surface: `½·√(w² + h²) − ½·min(w, h)` plus 2 points.
  ///
  /// Every visible point lies within half the diagonal of the centre, so the rotated visible
  /// area stays inside `[−m, w + m] × [.., h + m]`.
  ///
  /// - Parameter size: The visible size, points.
  /// - Returns: The overscan, points.
  public static func overscan(for size: Size) -> Double {
    let r = (size.width * size.width + size.height * size.height).squareRoot() / 2
    return max(0, r - min(size.width, size.height) / 2) + 2
  }

  /// The number of surface samples of a path for a visible width; it depends only on the
  /// width, so wave paths keep a constant number of points over time (Core Animation leaves the
  /// interpolation of paths with different numbers of points undefined: Apple's
  /// `CAShapeLayer.path` page, https://developer.apple.com/documentation/quartzcore/cashapelayer/path).
  ///
  /// - Parameters:
  ///   - width: The visible width, points.
  ///   - overscan: The margin on each side, points.
  /// - Returns: The number of surface points.
  public func sampleCount(width: Double, overscan: Double) -> Int {
    let span = max(width + 2 * overscan, 0)
    let n = (span / sampleSpacing).rounded(.up)
    guard n.isFinite else { return 2 }
    return max(Int(n), 1) + 1
  }

  /// The closed fill path of one sine layer at a time: the surface sampled from `−overscan` to
  /// `width + overscan`, then down to `height + overscan` and back.
  ///
  /// - Parameters:
  ///   - index: The wave's index in ``waves``.
  ///   - size: The visible size, points.
  ///   - time: Seconds; the phase is `φ0 + phaseSpeed·time`.
  ///   - extraAmplitude: Points added to the wave's base amplitude (the motion response).
  ///   - overscan: The margin, points (default ``overscan(for:)``).
  /// - Returns: The path in visible space, points.
  public func fillPath(
    wave index: Int, size: Size, time: Double, extraAmplitude: Double = 0,
    overscan: Double? = nil
  ) -> Path {
    let wave = waves[index]
    return Self.fillPath(
      wave: wave, phase: wave.phase(at: time), size: size,
      offset: surfaceOffset(height: size.height), extraAmplitude: extraAmplitude,
      overscan: overscan ?? Self.overscan(for: size), sampleSpacing: sampleSpacing)
  }

  /// The closed fill path of a sine layer for an explicit phase and offset.
  ///
  /// - Parameters:
  ///   - wave: The sine layer.
  ///   - phase: The phase φ, radians.
  ///   - size: The visible size, points.
  ///   - offset: The mean surface position, points from the top.
  ///   - extraAmplitude: Points added to the base amplitude.
  ///   - overscan: The margin beyond the left, right and bottom edges, points.
  ///   - sampleSpacing: The largest distance between samples, points.
  /// - Returns: The path in visible space, points.
  public static func fillPath(
    wave: SineWave, phase: Double, size: Size, offset: Double, extraAmplitude: Double,
    overscan: Double, sampleSpacing: Double
  ) -> Path {
    let model = WaterWave(waves: [], fillLevel: 0, sampleSpacing: sampleSpacing)
    let count = model.sampleCount(width: size.width, overscan: overscan)
    let x0 = -overscan
    let x1 = size.width + overscan
    let dx = (x1 - x0) / Double(max(count - 1, 1))
    let a = (wave.amplitude + extraAmplitude).isFinite ? wave.amplitude + extraAmplitude : 0
    let k = wave.wavenumber
    let p = phase.isFinite ? phase : 0
    var path = Path()
    for i in 0..<count {
      let x = i == count - 1 ? x1 : x0 + Double(i) * dx
      let y = a * sin(k * x + p) + offset
      if i == 0 {
        path.move(to: Point(x: x, y: y))
      } else {
        path.line(to: Point(x: x, y: y))
      }
    }
    let bottom = size.height + overscan
    path.line(to: Point(x: x1, y: bottom))
    path.line(to: Point(x: x0, y: bottom))
    path.close()
    return path
  }
}
