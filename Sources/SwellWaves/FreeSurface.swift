import Foundation
import SwellGeometry

/// What a ``WaterBody`` shows at a frame: its free surface sampled across the container in the
/// frame of gravity, with the container's vertical sections, ready to draw and to trace.
///
/// **Frame.** Positions `s` run along the world's horizontal (the direction a quarter turn from
/// ``down``), heights `z` up against it, both in points from ``origin`` (the container's
/// centroid). ``point(position:height:)`` maps them into the water layer's bounds space (points,
/// y down).
///
/// The heights are the physical surface, shifted (uniformly, by a small amount) so that the
/// water drawn inside the container, the area between each section's bottom and
/// `min(surface, top)`, is the water's volume exactly.
public struct FreeSurface: Hashable, Sendable {
  /// The container's centroid, points in the layer's bounds space.
  public var origin: Point
  /// The frame's down (the true gravity in the screen plane), unit vector in the layer's bounds
  /// space (y down).
  public var down: Point
  /// The sample positions along the world's horizontal, points from the origin, increasing.
  public var positions: [Double]
  /// The surface height at each sample, points up from the origin (it may leave the container:
  /// drawing clips it to ``bottoms`` and ``tops``).
  public var heights: [Double]
  /// The container's lower edge at each sample, points up from the origin.
  public var bottoms: [Double]
  /// The container's upper edge at each sample, points up from the origin.
  public var tops: [Double]
  /// The free surface's extent between the walls at rest, positions, points.
  public var surfaceRange: ClosedRange<Double>
  /// The least-squares line of the free surface on screen, radians in (−π, π], UIKit's sign
  /// (positive turns clockwise on screen): a device turned 30° clockwise and held gives
  /// about −0.524 (level with the world).
  public var angle: Double
  /// The water drawn inside the container as a fraction of the container's area, 0...1.
  public var volumeFraction: Double
  /// The largest displacement of the free surface from its least-squares line, points.
  public var roughness: Double
  /// The weir flow leaving an open container over its lip, points² per second (0 when nothing
  /// pours; ``WaterBody/outflowRate``).
  public var spillRate = 0.0
  /// The lip the water leaves over (the rim's lower end): position and height in the frame,
  /// points from the origin.
  public var lipPosition = 0.0
  /// The lip's height, points up from the origin.
  public var lipHeight = 0.0
  /// The side the spill leaves toward along the world's horizontal: +1 or −1.
  public var spillSide = 1.0
  /// The in-plane gravity that pulls the spill, points per second².
  public var spillGravity = 0.0

  /// The spill as a falling sheet (the nappe of a free overfall), points in the layer's bounds
  /// space, or an empty path when nothing pours or the sheet would be thinner than a tenth of
  /// a point.
  ///
  /// The sheet leaves the lip in critical flow (over a free overfall the flow passes through
  /// critical depth, critical flow in a rectangular section, Chow, *Open-Channel Hydraulics*,
  /// ch. 3: `y_c = (q²/g)^{1/3}`, at speed
  /// `√(g·y_c)`), then falls freely: both its edges are the parabola `s = u·τ`,
  /// `z = −g·τ²/2` from the lip and from `y_c` above it. The vertical gap stays `y_c`, so the
  /// flow through any vertical line stays `q` and the sheet thins as it speeds up.
  ///
  /// - Parameter drop: How far below the lip the sheet is drawn, points (at most 10⁴).
  /// - Returns: A closed path.
  public func spillPath(drop: Double) -> Path {
    let q = spillRate
    let g = spillGravity
    let fall = min(max(drop.isFinite ? drop : 0, 0), 10_000)
    guard q > 0, g > 0, q.isFinite, g.isFinite, fall > 0 else { return Path() }
    let yc = pow(q * q / g, 1.0 / 3.0)
    guard yc >= 0.1, yc.isFinite else { return Path() }
    let u = (g * yc).squareRoot()
    // Time to fall `drop` below the lip (the lower edge).
    let end = (2 * fall / g).squareRoot()
    let count = 24
    var lower: [Point] = []
    var upper: [Point] = []
    for i in 0...count {
      let t = end * Double(i) / Double(count)
      let ds = spillSide * u * t
      let dz = -0.5 * g * t * t
      lower.append(point(position: lipPosition + ds, height: lipHeight + dz))
      upper.append(point(position: lipPosition + ds, height: lipHeight + yc + dz))
    }
    var path = Path()
    path.move(to: upper[0])
    for p in upper.dropFirst() { path.line(to: p) }
    for p in lower.reversed() { path.line(to: p) }
    path.close()
    return path
  }

  /// The point of a position and height, points in the layer's bounds space.
  ///
  /// - Parameters:
  ///   - s: Points along the world's horizontal from the origin.
  ///   - z: Points up from the origin.
  /// - Returns: `origin + s·right − z·down`, with `right = (down.y, −down.x)`.
  public func point(position s: Double, height z: Double) -> Point {
    Point(x: origin.x + s * down.y - z * down.x, y: origin.y - s * down.x - z * down.y)
  }

  /// The water's outline below the surface plus a ripple, clipped to the container: the
  /// surface from the left wall to the right (each height clamped between the section's bottom
  /// and top), then the container's bottom back; points in the layer's bounds space.
  ///
  /// - Parameter ripple: Points added to the surface height (up) at a position (points along
  ///   the world's horizontal from the origin).
  /// - Returns: A closed path with `2·positions.count` points (empty without samples).
  public func fillPath(ripple: (Double) -> Double = { _ in 0 }) -> Path {
    guard !positions.isEmpty else { return Path() }
    var path = Path()
    for j in positions.indices {
      let r = ripple(positions[j])
      let z = min(max(heights[j] + (r.isFinite ? r : 0), bottoms[j]), tops[j])
      let p = point(position: positions[j], height: z)
      if j == 0 { path.move(to: p) } else { path.line(to: p) }
    }
    for j in positions.indices.reversed() {
      path.line(to: point(position: positions[j], height: bottoms[j]))
    }
    path.close()
    return path
  }

  /// The surface line only (no clipping to the container): the free surface's samples within
  /// ``surfaceRange``, points in the layer's bounds space.
  public var surfacePoints: [Point] {
    positions.indices.filter { surfaceRange.contains(positions[$0]) }.map {
      point(position: positions[$0], height: heights[$0])
    }
  }
}

extension WaterBody {
  /// The free surface at a time, predicted from the state with the newest input held and the
  /// newest turn of the gravity carried on for at most 50 ms (the state is not changed, so a
  /// frame's value does not depend on which frames came before).
  ///
  /// - Parameter time: Seconds on the motion clock; `nil` (or a time at or before ``time``)
  ///   gives the state's own time; before any motion, the water at rest.
  /// - Returns: The surface, volume-exact.
  public func surface(at time: Double? = nil) -> FreeSurface {
    let a = predictedAmplitudes(at: time)
    let c = makeColumns()
    let left = geometry.left
    let length = max(geometry.length, 1e-9)
    var z = [Double](repeating: 0, count: c.positions.count)
    for j in c.positions.indices {
      let u = min(max((c.positions[j] - left) / length, 0), 1)
      let x = cos(.pi * u)
      var previous = 1.0
      var current = x
      var sum = 0.0
      for n in 0..<a.count {
        sum += a[n] * current
        let next = 2 * x * current - previous
        previous = current
        current = next
      }
      z[j] = geometry.level + (sum.isFinite ? sum : 0)
    }
    let shift = Self.volumeShift(heights: z, columns: c, volume: volume)
    for j in z.indices { z[j] += shift }
    let drawn = Self.drawnArea(heights: z, columns: c, shift: 0)
    let lip = lip()
    // The least-squares line of the free surface in the frame, then on screen.
    var n = 0.0
    var ms = 0.0
    var mz = 0.0
    for j in c.positions.indices where c.positions[j] >= left && c.positions[j] <= geometry.right {
      n += 1
      ms += c.positions[j]
      mz += z[j]
    }
    var slope = 0.0
    var rough = 0.0
    if n >= 2 {
      ms /= n
      mz /= n
      var sxx = 0.0
      var sxz = 0.0
      for j in c.positions.indices
      where c.positions[j] >= left && c.positions[j] <= geometry.right {
        sxx += (c.positions[j] - ms) * (c.positions[j] - ms)
        sxz += (c.positions[j] - ms) * (z[j] - mz)
      }
      slope = sxx > 0 ? sxz / sxx : 0
      for j in c.positions.indices
      where c.positions[j] >= left && c.positions[j] <= geometry.right {
        rough = max(rough, abs(z[j] - (mz + slope * (c.positions[j] - ms))))
      }
    }
    let dx = down.y - slope * down.x
    let dy = -down.x - slope * down.y
    let angle = atan2(dy, dx)
    return FreeSurface(
      origin: container.centroid, down: down, positions: c.positions, heights: z,
      bottoms: c.bottoms, tops: c.tops,
      surfaceRange: min(left, geometry.right)...max(left, geometry.right),
      angle: angle.isFinite ? angle : 0,
      volumeFraction: container.area > 0 ? drawn / container.area : 0,
      roughness: rough.isFinite ? rough : 0,
      spillRate: outflowRate, lipPosition: lip.position, lipHeight: lip.height,
      spillSide: lip.side,
      spillGravity: inPlaneGravity * Self.standardGravity / container.metresPerPoint)
  }

  /// The rim's lower end in the current frame (position, height) and the side it faces, away
  /// from the centroid; the centroid for a closed container.
  func lip() -> (position: Double, height: Double, side: Double) {
    let c = container.centroid
    let frame = rim.map { p -> (Double, Double) in
      let dx = p.x - c.x
      let dy = p.y - c.y
      return (dx * down.y - dy * down.x, -(dx * down.x + dy * down.y))
    }
    guard let low = frame.min(by: { $0.1 < $1.1 }), let high = frame.max(by: { $0.1 < $1.1 })
    else { return (0, 0, 1) }
    // Outward: away from the centroid along the horizontal (from the opening's other end when
    // the lip is straight below the centroid).
    let side = abs(low.0) > 1e-9 ? low.0 : low.0 - high.0
    return (low.0, low.1, side >= 0 ? 1 : -1)
  }

  /// The area of water between each section's bottom and `min(height + shift, top)`, points²
  /// (the trapezoid rule over the samples, which is the drawn polygon's area).
  static func drawnArea(heights: [Double], columns c: Columns, shift: Double) -> Double {
    var area = 0.0
    for j in heights.indices {
      let h = min(max(heights[j] + shift - c.bottoms[j], 0), c.tops[j] - c.bottoms[j])
      area += c.weights[j] * h
    }
    return area
  }

  /// The uniform shift that makes the drawn area the volume (safeguarded Newton on a
  /// non-decreasing piecewise-linear function).
  static func volumeShift(heights: [Double], columns c: Columns, volume: Double) -> Double {
    guard !heights.isEmpty else { return 0 }
    var lo = Double.infinity
    var hi = -Double.infinity
    for j in heights.indices {
      lo = min(lo, c.bottoms[j] - heights[j])
      hi = max(hi, c.tops[j] - heights[j])
    }
    guard lo.isFinite, hi.isFinite, hi > lo else { return 0 }
    var x = min(max(0, lo), hi)
    let tolerance = 1e-13 * max(volume, 1)
    for _ in 0..<100 {
      var f = -volume
      var slope = 0.0
      for j in heights.indices {
        let h = heights[j] + x - c.bottoms[j]
        let full = c.tops[j] - c.bottoms[j]
        if h <= 0 { continue }
        if h >= full {
          f += c.weights[j] * full
        } else {
          f += c.weights[j] * h
          slope += c.weights[j]
        }
      }
      if abs(f) <= tolerance { return x }
      if f < 0 { lo = x } else { hi = x }
      var next = slope > 0 ? x - f / slope : (lo + hi) / 2
      if !(next > lo && next < hi) { next = (lo + hi) / 2 }
      if next == x { return x }
      x = next
    }
    return x
  }
}
