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
///
/// Figures, milliseconds per frame, each over the same frames:
/// - `water.classic.1170x2532.frame_ms`, `water.physical.1170x2532.frame_ms`: the built-in
///   `waterwave` scene with the classic and the physical response, step plus drawing;
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
    var figures: [BenchmarkFigure] = []
    let cases: [(label: String, scene: String, response: WaterWaveResponse)] = [
      ("classic", "waterwave", .classic), ("physical", "waterwave", .physical),
      ("glass", "glass", .physical),
    ]
    for c in cases {
      progress("water: \(c.label), step")
      var options = SceneOptions()
      options.waterResponse = c.response
      if let scene = BuiltInScenes.make(c.scene, options: options) {
        let step = measureFrames(scene: scene, motion: motion, frames: frames, draw: false)
        progress("water: \(c.label), step and drawing")
        if let fresh = BuiltInScenes.make(c.scene, options: options) {
          let frame = measureFrames(scene: fresh, motion: motion, frames: frames, draw: true)
          let stem = "water.\(c.label).1170x2532"
          if c.label != "glass" {
            figures.append(BenchmarkFigure(name: "\(stem).step_ms", unit: "ms", values: step))
          }
          figures.append(BenchmarkFigure(name: "\(stem).frame_ms", unit: "ms", values: frame))
        }
      }
    }
    return figures
  }

  /// Plays a scene at 120 fps (after 1 s of warm-up) and times each of `frames` frames,
  /// milliseconds.
  static func measureFrames(scene: any Scene, motion: [DeviceMotion], frames: Int, draw: Bool)
    -> [Double]
  {
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: 120)
    for _ in 0..<120 { _ = try? driver.step() }
    let renderer = LayerRenderer()
    return measureSeconds(repetitions: frames) {
      guard let frame = (try? driver.step()) ?? nil else { return 0 }
      guard draw else { return frame.targetTimestamp }
      let tree = scene.root.presentation(at: frame.targetTimestamp)
      let image = try? renderer.render(
        tree, size: scene.size, scale: scene.scale, background: scene.background)
      return Double(image?.pixel(x: 585, y: 2000)?.blue ?? 0)
    }.map { $0 * 1000 }
  }
}
