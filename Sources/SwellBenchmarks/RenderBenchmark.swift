import Foundation
import SwellCairo
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes
import SwellWaves

/// Rendering one frame of the built-in `waterwave` scene at 1170×2532 pixels (390×844 points
/// @3x), the water tilted by 20°, through the layer renderer, against a baseline that fills the
/// same three wave paths with Cairo directly (same surface size, same background, same colours
/// and on-screen-vertical gradient) in the same run.
///
/// Figures: `render.waterwave.1170x2532.ms` (the layer renderer drawing the presentation tree,
/// surface included), `render.waterwave.1170x2532.baseline_ms` (the direct Cairo fill),
/// `render.waterwave.1170x2532.frame_ms` and `.banded_ms` (into one reused image, as the live
/// window draws: on one thread, and in bands on every core with `BandedFrameRenderer`) and
/// `render.waterwave.1170x2532.presentation_ms` (building the presentation tree: wave paths for
/// the frame time).
package enum RenderBenchmark: Benchmark {
  package static let name = "render"

  package static func run(quick: Bool, progress: (String) -> Void) -> [BenchmarkFigure] {
    let reps = quick ? 3 : 25
    progress("render: preparing the waterwave scene")
    let scene = FileScene(file: .waterwave)
    let script = (try? MotionScript(parsing: "tilt 20deg right over 0.5s; hold 1.5s"))
    var driver = SceneDriver(
      scene: scene, motion: script?.samples(rate: 100) ?? [], framesPerSecond: 60)
    var time = 0.0
    for _ in 0..<121 { time = (try? driver.step())??.targetTimestamp ?? time }
    let tree = scene.root.presentation(at: time)
    let renderer = LayerRenderer()

    progress("render: layer renderer")
    let ms = measureSeconds(repetitions: reps) {
      let image = try? renderer.render(
        tree, size: scene.size, scale: scene.scale, background: scene.background)
      return Double(image?.pixel(x: 585, y: 2000)?.blue ?? 0)
    }.map { $0 * 1000 }

    // The live window's way: one reused image, drawn on one thread and in bands on every core.
    let image = try? ImageSurface(pixelWidth: 1170, pixelHeight: 2532)
    let placement = FramePlacement(scale: scene.scale)
    /// Milliseconds per frame drawn by `draw` into the reused image.
    func reusedImageMs(_ draw: (ImageSurface) throws -> Void) -> [Double] {
      measureSeconds(repetitions: reps) {
        guard let image, (try? draw(image)) != nil else { return 0 }
        return Double(image.pixel(x: 585, y: 2000)?.blue ?? 0)
      }.map { $0 * 1000 }
    }
    progress("render: one thread, reused image")
    let frameMs = reusedImageMs {
      try renderer.drawFrame(tree, background: scene.background, placement: placement, into: $0)
    }
    let banded = BandedFrameRenderer()
    progress("render: \(banded.bandCount) bands, reused image")
    let bandedMs = reusedImageMs {
      try banded.drawFrame(tree, background: scene.background, placement: placement, into: $0)
    }

    progress("render: Cairo baseline")
    let waves = Self.waves(in: tree)
    let base = measureSeconds(repetitions: reps) {
      Self.baseline(waves: waves, scene: scene)
    }.map { $0 * 1000 }

    progress("render: presentation tree")
    let presentation = measureSeconds(repetitions: reps) {
      Double(scene.root.presentation(at: time + 0.5).sublayers.count)
    }.map { $0 * 1000 }

    return [
      BenchmarkFigure(name: "render.waterwave.1170x2532.ms", unit: "ms", values: ms),
      BenchmarkFigure(name: "render.waterwave.1170x2532.baseline_ms", unit: "ms", values: base),
      BenchmarkFigure(name: "render.waterwave.1170x2532.frame_ms", unit: "ms", values: frameMs),
      BenchmarkFigure(
        name: "render.waterwave.1170x2532.banded_ms", unit: "ms", values: bandedMs),
      BenchmarkFigure(
        name: "render.waterwave.1170x2532.presentation_ms", unit: "ms", values: presentation),
    ]
  }

  /// A wave path with its fill and the water's on-screen tilt about the visible centre.
  struct Wave {
    var path: Path
    var fill: WaveFill
    var tilt: Double
    var center: Point
  }

  static func waves(in tree: Layer) -> [Wave] {
    var out: [Wave] = []
    for water in WaterWaveLayer.all(in: tree) {
      var tilt = 0.0
      if case .number(let v) = water.value(forKeyPath: "transform.rotation.z") { tilt = v }
      for w in water.waveLayers {
        out.append(
          Wave(path: w.path ?? Path(), fill: w.wave.fill, tilt: tilt, center: water.position))
      }
    }
    return out
  }

  /// Fills the wave paths with Cairo directly; returns a pixel value so the work is kept.
  static func baseline(waves: [Wave], scene: FileScene) -> Double {
    let w = Int(scene.size.width * scene.scale)
    let h = Int(scene.size.height * scene.scale)
    guard let image = try? ImageSurface(pixelWidth: w, pixelHeight: h),
      let cr = try? CairoContext(surface: image)
    else { return 0 }
    try? cr.scale(x: scene.scale, y: scene.scale)
    cr.setSource(scene.background)
    cr.paint()
    for wave in waves {
      cr.save()
      switch wave.fill {
      case .color(let c): cr.setSource(c)
      case .gradient(let g):
        // Vertical on screen from the surface to the bottom, set before the rotation so the
        // pattern stays axis-aligned (pixman's fast path), as the renderer does.
        let top = wave.path.bounds.minY
        cr.setSource(
          LinearGradientPattern(
            start: Point(x: 0, y: top), end: Point(x: 0, y: scene.size.height),
            colors: g.stops.map(\.color)))
      }
      cr.translate(x: wave.center.x, y: wave.center.y)
      cr.rotate(radians: wave.tilt)
      cr.translate(x: -wave.center.x, y: -wave.center.y)
      cr.addPath(wave.path)
      cr.fill()
      cr.restore()
    }
    image.flush()
    return Double(image.pixel(x: w / 2, y: h - 10)?.blue ?? 0)
  }
}
