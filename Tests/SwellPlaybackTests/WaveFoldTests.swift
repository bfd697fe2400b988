import Foundation
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes
import SwellTestSupport
import SwellWaves
import Testing

/// The bundled iPhone recording (Sensor Logger, MIT) that `swell demo` plays.
private let bundledRecording = packageRoot.appendingPathComponent(
  "Sources/SwellTool/Resources/sensorlogger-ios-rotation")

/// One frame of the water under the bundled recording.
private struct FoldFrame {
  var time: Double
  var tilt: Double
  /// The front wave's amplitude without the fold limit (base + eased extra), points.
  var unlimited: Double
  /// The front wave's drawn amplitude, points.
  var drawn: Double
  /// The largest `−min(dX/dx)·…` excess: how far the steepest drawn wave goes past a graph over
  /// the screen's horizontal (> 0 means it folds).
  var foldExcess: Double
  /// Whether some wave, drawn without the limit (base + eased extra), would fold on screen:
  /// `(Aᵢ + e)·kᵢ·|tan θ| ≥ 1`.
  var wouldFold: Bool
}

/// How far a wave layer's surface, drawn rotated by `tilt`, is from folding: the largest
/// `−ΔX` between neighbouring surface samples in screen space (positive when the surface runs
/// backwards on screen, i.e. folds), points.
private func foldExcess(of wave: WaveLayer, tilt: Double) -> Double {
  guard let path = wave.path else { return 0 }
  let count = WaterWave(waves: [], fillLevel: 0, sampleSpacing: wave.sampleSpacing).sampleCount(
    width: wave.visibleSize.width, overscan: wave.overscan)
  var points: [Point] = []
  for e in path.elements.prefix(count) {
    switch e {
    case .move(let p), .line(let p): points.append(p)
    default: break
    }
  }
  let c = cos(tilt)
  let s = sin(tilt)
  let sign = c >= 0 ? 1.0 : -1.0
  var worst = -Double.infinity
  for (a, b) in zip(points, points.dropFirst()) {
    let dx = (b.x - a.x) * c - (b.y - a.y) * s
    worst = max(worst, -sign * dx)
  }
  return worst
}

/// Plays the waterwave scene over the bundled recording and measures every frame.
private func playRecording(
  options: SceneOptions, fps: Double = 30, render: (Double, FileScene) throws -> Void = { _, _ in }
) throws -> [FoldFrame] {
  let input = try SceneMotionInput.recording(bundledRecording)
  let scene = FileScene(file: .waterwave, options: options)
  var driver = SceneDriver(scene: scene, motion: input.feed, framesPerSecond: fps)
  let water = try #require(scene.waterLayers.first)
  var frames: [FoldFrame] = []
  for _ in 0..<driver.frameCount(duration: input.span) {
    guard let f = try driver.step() else { break }
    let t = f.targetTimestamp
    let copy = scene.root.presentation(at: t)
    let w = try #require(copy.layer(named: "water") as? WaterWaveLayer)
    let tilt = w[.rotationZ] ?? 0
    let excess = w.waveLayers.map { foldExcess(of: $0, tilt: tilt) }.max() ?? 0
    let wouldFold = water.model.waves.contains { wave in
      (wave.amplitude + water.extraAmplitude) * wave.wavenumber * abs(tan(tilt)) >= 1
    }
    frames.append(
      FoldFrame(
        time: t - driver.startTime, tilt: tilt,
        unlimited: (water.model.frontWave?.amplitude ?? 0) + water.extraAmplitude,
        drawn: water.frontAmplitude, foldExcess: excess, wouldFold: wouldFold))
    try render(t - driver.startTime, scene)
  }
  return frames
}

/// Renders the scene at a time and counts, per pixel column, how often a scan from the top
/// crosses between sky (the background) and water; returns the largest count.
private func largestColumnCrossings(_ scene: FileScene, at time: Double, scale: Double) throws
  -> Int
{
  let image = try LayerRenderer().render(
    scene.root.presentation(at: time), size: scene.size, scale: scale,
    background: scene.background)
  let sky = scene.background
  var worst = 0
  for x in 0..<image.pixelWidth {
    var crossings = 0
    var wasWater = false
    for y in 0..<image.pixelHeight {
      guard let p = image.pixel(x: x, y: y) else { continue }
      let d =
        abs(Double(p.red) - sky.red * 255) + abs(Double(p.green) - sky.green * 255)
        + abs(Double(p.blue) - sky.blue * 255)
      let water = d > 24
      if y > 0 && water != wasWater { crossings += 1 }
      wasWater = water
    }
    worst = max(worst, crossings)
  }
  return worst
}

@Suite("Waves never fold")
private struct WaveFoldTests {
  @Test("the fold bound: A·k·|tan θ| < 1 keeps a rotated sine a graph over the screen's x")
  func boundFormula() {
    #expect(TiltRule.maximumSurfaceSlope(tilt: 0) == .infinity)
    #expect(abs(TiltRule.maximumSurfaceSlope(tilt: .pi / 4) - TiltRule.foldMargin) < 1e-12)
    #expect(abs(TiltRule.maximumSurfaceSlope(tilt: -.pi / 4) - TiltRule.foldMargin) < 1e-12)
    #expect(TiltRule.maximumSurfaceSlope(tilt: .pi / 2) < 1e-12)
    // A wave at the bound, rotated, never runs backwards on screen; 10 % past |cot θ| does.
    let k = 2 * Double.pi / 240
    for degrees in stride(from: 5.0, through: 85, by: 5) {
      let theta = degrees * .pi / 180
      let cot = 1 / tan(theta)
      func minimumDX(amplitude: Double) -> Double {
        (0..<2000).map { i -> Double in
          let x = Double(i) * 0.25
          return cos(theta) - amplitude * k * cos(k * x) * sin(theta)
        }.min() ?? 0
      }
      let bound = TiltRule.maximumSurfaceSlope(tilt: theta) / k
      #expect(minimumDX(amplitude: bound) > 0, "\(degrees)°")
      #expect(minimumDX(amplitude: 1.1 * cot / k) < 0, "\(degrees)°")
    }
  }

  @Test(
    "over the bundled recording the corrected rule's surface never folds, though the amplitude is large"
  )
  func bundledRecordingNeverFolds() throws {
    var sampled: [(Double, Int)] = []
    let frames = try playRecording(options: SceneOptions()) { t, scene in
      // The demo's fast turns (7.0 s and 8.5 s): a column scan of the rendered frame.
      for mark in [7.0, 8.5] where abs(t - mark) < 0.2 {
        sampled.append((t, try largestColumnCrossings(scene, at: t, scale: 0.5)))
      }
    }
    let unlimited = frames.map(\.unlimited).max() ?? 0
    let drawn = frames.map(\.drawn).max() ?? 0
    let limited = frames.filter { $0.drawn < $0.unlimited - 1e-9 }
    let folding = frames.filter(\.wouldFold)
    print(
      "bundled recording: front amplitude before the limit up to \(unlimited) pt, drawn up to "
        + "\(drawn) pt; the limit binds in \(limited.count) of \(frames.count) frames (largest cut "
        + "\(limited.map { $0.unlimited - $0.drawn }.max() ?? 0) pt); without it \(folding.count) "
        + "frames would fold, at \(folding.map { String(format: "%.2f", $0.time) })")
    #expect(unlimited > 100, "the recording's fast turns ask for large waves: \(unlimited)")
    // The scan below is meaningful: without the limit the waves fold near both marks.
    for mark in [7.0, 8.5] {
      #expect(folding.contains { abs($0.time - mark) < 0.2 }, "no fold to prevent near \(mark) s")
    }
    for f in frames {
      #expect(f.foldExcess <= 1e-9, "t \(f.time): tilt \(f.tilt), drawn \(f.drawn)")
      let bound = WaveLayer.limitedAmplitude(
        base: 8, extra: f.unlimited - 8, wavenumber: 2 * .pi / 390,
        maximumSlope: TiltRule.maximumSurfaceSlope(tilt: f.tilt))
      #expect(abs(f.drawn - bound) < 1e-9, "t \(f.time)")
    }
    #expect(sampled.count >= 10)
    for (t, crossings) in sampled {
      #expect(crossings <= 1, "t \(t): a column crosses the surface \(crossings) times")
    }
  }

  @Test("the seed's literal rule assigns 20·ω_x (or 0) directly: no easing, hold or limit")
  func seedExactAssignsDirectly() throws {
    let feed = try SceneMotionInput.recording(bundledRecording).feed
    let motion = try feed.motions(upTo: .infinity)
    var options = SceneOptions()
    options.seedExact = true
    let scene = FileScene(file: .waterwave, options: options)
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: 30)
    let water = try #require(scene.waterLayers.first)
    let span = (motion.last?.timestamp ?? 0) - (motion.first?.timestamp ?? 0)
    var next = 0
    var latest: DeviceMotion?
    var largest = 0.0
    var folds = 0
    var frames = 0
    for _ in 0..<driver.frameCount(duration: span) {
      guard let f = try driver.step() else { break }
      while next < motion.count && motion[next].timestamp <= f.targetTimestamp + 1e-9 {
        latest = motion[next]
        next += 1
      }
      let rate = latest?.rotationRate.x ?? 0
      let seed = rate > 0.7 ? 20 * rate : 0
      #expect(water.extraAmplitude == seed, "t \(f.targetTimestamp): \(water.extraAmplitude)")
      #expect(water.frontAmplitude == 8 + seed, "no limit at t \(f.targetTimestamp)")
      largest = max(largest, water.frontAmplitude)
      let copy = scene.root.presentation(at: f.targetTimestamp)
      let w = try #require(copy.layer(named: "water") as? WaterWaveLayer)
      let tilt = w[.rotationZ] ?? 0
      if (w.waveLayers.map { foldExcess(of: $0, tilt: tilt) }.max() ?? 0) > 0 { folds += 1 }
      frames += 1
    }
    #expect(frames > 600 && largest > 8 + 14)
    print(
      "seed-exact over the bundled recording: largest \(largest) pt, \(folds) of \(frames) frames fold"
    )
  }
}
