import Foundation
import SwellGeometry
import SwellLayers
import SwellTestSupport
import SwellWaves
import Testing

@Suite("Wave model")
private struct WaveModelTests {
  private static let size = Size(width: 390, height: 844)

  private func surfacePoints(_ path: Path) -> [Point] {
    var pts: [Point] = []
    for e in path.elements {
      switch e {
      case .move(let p), .line(let p): pts.append(p)
      default: break
      }
    }
    // The last two line-tos close the fill along the bottom.
    return Array(pts.dropLast(2))
  }

  @Test("path points follow the sine formula") func pathPointsFollowTheSineFormula() {
    var rng = SplitMix64(seed: 0xA11C_E5ED)
    for _ in 0..<50 {
      let a = Double.random(in: 0...40, using: &rng)
      let lambda = Double.random(in: 50...800, using: &rng)
      let speed = Double.random(in: -5...5, using: &rng)
      let phi0 = Double.random(in: -3...3, using: &rng)
      let fill = Double.random(in: 0...1, using: &rng)
      let t = Double.random(in: 0...1000, using: &rng)
      let extra = Double.random(in: 0...40, using: &rng)
      let wave = SineWave(
        amplitude: a, wavelength: lambda, phaseSpeed: speed, initialPhase: phi0,
        fill: .color(.black))
      let model = WaterWave(waves: [wave], fillLevel: fill)
      let path = model.fillPath(wave: 0, size: Self.size, time: t, extraAmplitude: extra)
      let k = (1 - fill) * Self.size.height
      let omega = 2 * Double.pi / lambda
      let phi = phi0 + speed * t
      for p in surfacePoints(path) {
        let expected = (a + extra) * sin(omega * p.x + phi) + k
        #expect(abs(p.y - expected) < 1e-7, "seed 0xA11CE5ED: x \(p.x) y \(p.y) vs \(expected)")
      }
    }
  }

  @Test("samples are fine and cover the overscan") func samplesAreFineAndCoverTheOverscan() throws {
    let wave = SineWave(amplitude: 8, wavelength: 390, phaseSpeed: 3, fill: .color(.black))
    let model = WaterWave(waves: [wave], fillLevel: 0.5)
    let o = WaterWave.overscan(for: Self.size)
    let pts = surfacePoints(model.fillPath(wave: 0, size: Self.size, time: 0))
    let first = try #require(pts.first)
    let last = try #require(pts.last)
    #expect(first.x == -o)
    #expect(abs(last.x - (Self.size.width + o)) < 1e-9)
    for (p, q) in zip(pts, pts.dropFirst()) {
      #expect(q.x - p.x <= 2.5 + 1e-9)
      #expect(q.x > p.x)
    }
  }

  @Test("point count is constant over time") func pointCountIsConstantOverTime() {
    let wave = SineWave(amplitude: 8, wavelength: 123, phaseSpeed: 2.7, fill: .color(.black))
    let model = WaterWave(waves: [wave], fillLevel: 0.3)
    let counts = Set(
      stride(from: 0.0, to: 10, by: 0.37).map {
        model.fillPath(wave: 0, size: Self.size, time: $0, extraAmplitude: $0).elements.count
      })
    #expect(counts.count == 1)
  }

  @Test("fill level sets the mean surface", arguments: [0.0, 0.25, 0.5, 1.0])
  func fillLevelSetsTheMeanSurface(level: Double) {
    let model = WaterWave(
      waves: [SineWave(amplitude: 0, wavelength: 100, phaseSpeed: 0, fill: .color(.black))],
      fillLevel: level)
    #expect(model.surfaceOffset(height: 844) == (1 - level) * 844)
    let ys = Set(surfacePoints(model.fillPath(wave: 0, size: Self.size, time: 5)).map(\.y))
    #expect(ys == [(1 - level) * 844])
  }

  @Test("phase advances per second not per frame") func phaseAdvancesPerSecondNotPerFrame() {
    let wave = SineWave(
      amplitude: 8, wavelength: 390, phaseSpeed: 3, initialPhase: 0.25, fill: .color(.black))
    // The phase at a time is the same whatever frames came before it.
    for t in [0.0, 0.5, 1, 2.25] {
      #expect(abs(wave.phase(at: t) - (0.25 + 3 * t)) < 1e-12)
    }
    let layer = WaveLayer(
      wave: wave, visibleSize: Self.size, overscan: 10, surfaceOffset: 422, sampleSpacing: 2.5)
    var at60: [Double] = []
    var at120: [Double] = []
    for i in 0...60 {
      at60.append(
        layer.presentationCopy(at: Double(i) / 60).value(forKeyPath: "phase")?.number ?? .nan)
    }
    for i in 0...120 {
      at120.append(
        layer.presentationCopy(at: Double(i) / 120).value(forKeyPath: "phase")?.number ?? .nan)
    }
    for i in 0...60 { #expect(at60[i] == at120[2 * i]) }
    #expect(abs(at60[60] - wrappedAngle(3.25)) < 1e-12)
  }

  @Test(
    "wrapped angle is in half open range",
    arguments: [-3 * Double.pi, -Double.pi, 0, Double.pi, 7.5, -7.5])
  func wrappedAngleIsInHalfOpenRange(a: Double) {
    let w = wrappedAngle(a)
    #expect(w > -.pi && w <= .pi)
    #expect(abs(sin(w) - sin(a)) < 1e-12 && abs(cos(w) - cos(a)) < 1e-12)
  }
}

@Suite("Water layer")
private struct WaterLayerTests {
  @Test(
    "tilted water still covers the screen corners",
    arguments: [-90.0, -45, -30, 0, 30, 44, 45, 60, 135, 180])
  func tiltedWaterStillCoversTheScreenCorners(tiltDegrees: Double) throws {
    let size = Size(width: 390, height: 844)
    let water = WaterWaveLayer(
      model: WaterWave(
        waves: [SineWave(amplitude: 8, wavelength: 390, phaseSpeed: 3, fill: .color(.black))],
        fillLevel: 0.5),
      visibleSize: size)
    water.setValue(.number(radians(tiltDegrees)), forKeyPath: "transform.rotation.z")
    let wave = try #require(water.waveLayers.first)
    let xs = water.transformToSuperlayer
    let inverse = try #require(xs.inverted)
    // Every screen corner, mapped into the water's space, lies inside the wave layer's
    // horizontal span and above its bottom edge (so the fill reaches it when it is under water).
    let b = wave.bounds
    for corner in [(0.0, 0.0), (390, 0), (0, 844), (390, 844)] {
      let p = inverse.apply(to: Point(x: corner.0, y: corner.1))
      #expect(p.x >= b.minX && p.x <= b.maxX, "tilt \(tiltDegrees): \(p)")
      #expect(p.y <= b.maxY, "tilt \(tiltDegrees): \(p)")
    }
    // At zero tilt the water's space is the screen's.
    if tiltDegrees == 0 {
      let p = xs.apply(to: Point(x: 10, y: 20))
      #expect(abs(p.x - 10) < 1e-9 && abs(p.y - 20) < 1e-9)
    }
  }

  @Test("key paths report the front wave") func keyPathsReportTheFrontWave() throws {
    let water = WaterWaveLayer(
      model: WaterWave(
        waves: [
          SineWave(amplitude: 12, wavelength: 300, phaseSpeed: 1.6, fill: .color(.black)),
          SineWave(
            amplitude: 8, wavelength: 390, phaseSpeed: 3, initialPhase: 1, fill: .color(.white)),
        ], fillLevel: 0.4),
      visibleSize: Size(width: 390, height: 844))
    water.extraAmplitude = 5
    let p = water.presentationCopy(at: 2)
    #expect(p.value(forKeyPath: "amplitude") == .number(13))
    #expect(p.value(forKeyPath: "fillLevel") == .number(0.4))
    #expect(p.value(forKeyPath: "phase") == .number(wrappedAngle(1 + 3 * 2)))
    water.fillLevel = 0.7
    #expect(water.waveLayers.allSatisfy { abs($0.surfaceOffset - 0.3 * 844) < 1e-9 })
    let tree = water.presentation(at: 2)
    let front = try #require(tree.sublayers.last as? WaveLayer)
    #expect(front.value(forKeyPath: "amplitude") == .number(13))
    #expect(front.path != nil)
    #expect(front.fillGradient == nil && front.fillColor == .white)
  }
}
