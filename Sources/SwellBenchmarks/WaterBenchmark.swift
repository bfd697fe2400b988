import Foundation
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes
import SwellWaves

/// One 120 Hz frame of the water at 1170×2532 pixels (390×844 points @3x) under a shaken,
/// turning device, for each motion response in the same run: the motion due by the frame fed
/// to the scene, the scene advanced to the frame (for the physical water: the surface step and
/// the surface at the frame time), the presentation tree built and drawn by the layer renderer.
/// The responses take turns frame by frame (classic, physical, glass, classic, ...), so other
/// work on the machine weighs on each alike and their ratio holds under load.
///
/// Figures, milliseconds per frame, each over the same frames:
/// - `water.classic.1170x2532.frame_ms`, `water.physical.1170x2532.frame_ms`: the built-in
///   `waterwave` scene with the classic and the physical response, step plus drawing;
/// - `water.physical.1170x2532.ratio_to_classic` (x): each physical frame over the classic
///   frames' median, so its median is the ratio of the two medians;
/// - `water.classic.1170x2532.step_ms`, `water.physical.1170x2532.step_ms`: the step alone
///   (motion fed, scene advanced, no presentation or drawing);
/// - `water.glass.1170x2532.frame_ms`: the built-in `glass` scene (physical water in a
///   round-bottomed glass), step plus drawing.
package enum WaterBenchmark: Benchmark {
  package static let name = "water"

  /// The motion: a tilt, then turning back and forth with pushes, 100 Hz.
  static let script =
    "tilt 20deg right over 0.5s; shake z 1.3Hz 2.5rad/s for 4s; push x 0.4g for 0.2s;"
    + " shake x 3Hz 2rad/s for 4s; tilt 40deg left over 1s; hold 2s"

  package static func run(quick: Bool, progress: (String) -> Void) -> [BenchmarkFigure] {
    let frames = quick ? 4 : 120
    let motion = (try? MotionScript(parsing: script))?.samples(rate: 100) ?? []
    let cases: [(label: String, scene: String, response: WaterWaveResponse)] = [
      ("classic", "waterwave", .classic), ("physical", "waterwave", .physical),
      ("glass", "glass", .physical),
    ]
    func scenes() -> [any Scene] {
      cases.compactMap { c in
        var options = SceneOptions()
        options.waterResponse = c.response
        return BuiltInScenes.make(c.scene, options: options)
      }
    }
    progress("water: step, the responses in turn")
    let first = scenes()
    guard first.count == cases.count else { return [] }
    let step = measureInTurn(first, motion: motion, frames: frames, draw: false)
    progress("water: step and drawing, the responses in turn")
    let frame = measureInTurn(scenes(), motion: motion, frames: frames, draw: true)
    var figures: [BenchmarkFigure] = []
    for (i, c) in cases.enumerated() {
      let stem = "water.\(c.label).1170x2532"
      if c.label != "glass" {
        figures.append(BenchmarkFigure(name: "\(stem).step_ms", unit: "ms", values: step[i]))
      }
      figures.append(BenchmarkFigure(name: "\(stem).frame_ms", unit: "ms", values: frame[i]))
      if c.label == "physical" {
        let classic = BenchmarkFigure(name: "", unit: "ms", values: frame[0]).median
        figures.append(
          BenchmarkFigure(
            name: "\(stem).ratio_to_classic", unit: "x", values: frame[i].map { $0 / classic }))
      }
    }
    return figures
  }

  /// Plays scenes at 120 fps (after 1 s of warm-up each) and times `frames` frames of each,
  /// the scenes taking turns frame by frame; milliseconds, one array per scene.
  static func measureInTurn(_ scenes: [any Scene], motion: [DeviceMotion], frames: Int, draw: Bool)
    -> [[Double]]
  {
    var drivers = scenes.map { SceneDriver(scene: $0, motion: motion, framesPerSecond: 120) }
    for i in drivers.indices {
      for _ in 0..<120 { _ = try? drivers[i].step() }
    }
    let renderers = scenes.map { _ in LayerRenderer() }
    var times = Array(repeating: [Double](), count: scenes.count)
    for _ in 0..<frames {
      for i in scenes.indices {
        let scene = scenes[i]
        times[i] += measureSeconds(repetitions: 1) {
          guard let frame = (try? drivers[i].step()) ?? nil else { return 0 }
          guard draw else { return frame.targetTimestamp }
          let tree = scene.root.presentation(at: frame.targetTimestamp)
          let image = try? renderers[i].render(
            tree, size: scene.size, scale: scene.scale, background: scene.background)
          return Double(image?.pixel(x: 585, y: 2000)?.blue ?? 0)
        }.map { $0 * 1000 }
      }
    }
    return times
  }
}
