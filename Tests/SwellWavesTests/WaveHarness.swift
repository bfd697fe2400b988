import Foundation
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellWaves

/// Plays motion into a water layer and samples presentation values at frame times.
struct WaveHarness {
  let layer: WaterWaveLayer
  let controller: WaterWaveController

  init(options: WaterWaveOptions = WaterWaveOptions(), fillLevel: Double = 0.5) {
    layer = WaterWaveLayer(
      model: WaterWave(
        waves: [
          SineWave(amplitude: 6, wavelength: 200, phaseSpeed: 1, fill: .color(.white)),
          SineWave(
            amplitude: 8, wavelength: 390, phaseSpeed: 3, initialPhase: 0.5, fill: .color(.black)),
        ], fillLevel: fillLevel),
      visibleSize: Size(width: 390, height: 844))
    controller = WaterWaveController(layer: layer, options: options)
  }

  struct Row {
    var time: Double
    var tilt: Double
    var amplitude: Double
    var phase: Double
  }

  /// Feeds the motion and samples every frame at `fps` up to `duration` seconds after the first
  /// sample.
  func run(_ motion: [DeviceMotion], fps: Double, duration: Double) -> [Row] {
    let start = motion.first?.timestamp ?? 0
    var next = 0
    var rows: [Row] = []
    let n = Int((duration * fps + 1e-9).rounded(.down))
    for i in 0...n {
      let t = start + Double(i) / fps
      while next < motion.count && motion[next].timestamp <= t + 1e-9 {
        controller.receive(motion[next])
        next += 1
      }
      controller.advance(to: t)
      let p = layer.presentationCopy(at: t)
      rows.append(
        Row(
          time: t, tilt: p.value(forKeyPath: "transform.rotation.z")?.number ?? .nan,
          amplitude: p.value(forKeyPath: "amplitude")?.number ?? .nan,
          phase: p.value(forKeyPath: "phase")?.number ?? .nan))
    }
    return rows
  }

  static func script(_ text: String, rate: Double = 100) throws -> [DeviceMotion] {
    try MotionScript(parsing: text).samples(rate: rate)
  }
}

func degrees(_ r: Double) -> Double { r * 180 / .pi }
func radians(_ d: Double) -> Double { d * .pi / 180 }
