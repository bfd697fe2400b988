import Foundation
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellWaves

/// Plays motion into a water layer and samples presentation values at frame times.
struct WaveHarness {
  let layer: WaterWaveLayer
  let controller: WaterController

  init(options: WaterWaveOptions = WaterWaveOptions(), fillLevel: Double = 0.5) {
    layer = WaterWaveLayer(
      model: WaterWave(
        waves: [
          SineWave(amplitude: 6, wavelength: 200, phaseSpeed: 1, fill: .color(.white)),
          SineWave(
            amplitude: 8, wavelength: 390, phaseSpeed: 3, initialPhase: 0.5, fill: .color(.black)),
        ], fillLevel: fillLevel),
      visibleSize: Size(width: 390, height: 844))
    controller = WaterController(layer: layer, options: options)
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

/// A water layer driven by ``WaterMotionResponse`` and ``WaterWaveApplicator``, the way a scene
/// drives it.
final class WaterController {
  let layer: WaterWaveLayer
  private(set) var response: WaterMotionResponse
  let applicator = WaterWaveApplicator()

  init(layer: WaterWaveLayer, options: WaterWaveOptions) {
    self.layer = layer
    response = WaterMotionResponse(for: layer, options: options)
    layer.isPhaseFrozen = options.reduceMotion
  }

  func receive(_ motion: DeviceMotion) { response.receive(motion) }

  func advance(to time: Double) { applicator.apply(response.advance(to: time), to: layer) }

  var tiltTarget: Double? { response.tiltTarget }
}

/// An independent reference for the classic response: the tilt re-targeted through the layer's
/// own `Layer.animate` (UIKit's additive animations kept on the layer and summed by
/// `presentationCopy`), as Swell did before the response became a value.
final class LayerAnimatedReference {
  let layer: WaterWaveLayer
  let options: WaterWaveOptions
  private var tilt: TiltSampler
  private var amplitude: AmplitudeSmoother
  private var lastMotionTime: Double?
  private var heldTarget = 0.0
  private var heldSince = -Double.infinity
  private var assigned = 0.0

  init(layer: WaterWaveLayer, options: WaterWaveOptions) {
    self.layer = layer
    self.options = options
    tilt = TiltSampler(rule: options.tiltRule, updateRate: options.tiltUpdateRate)
    amplitude = AmplitudeSmoother(
      riseTime: options.amplitudeRiseTime, releaseTime: options.amplitudeReleaseTime)
  }

  func receive(_ motion: DeviceMotion) {
    let t = motion.timestamp
    if let last = lastMotionTime, t <= last { return }
    lastMotionTime = t
    for u in tilt.receive(time: t, gravity: motion.gravity) {
      layer.animate(
        keyPath: "transform.rotation.z", to: .number(u.target), duration: options.tiltDuration,
        timingFunction: .easeInEaseOut, at: u.time)
    }
    let raw = options.tiltRule.amplitudeTarget(rotationRate: motion.rotationRate)
    // The seed assigns its amplitude directly.
    assigned = raw
    if raw >= heldTarget || t - heldSince >= options.amplitudePeakHold {
      heldTarget = raw.isFinite ? raw : 0
      heldSince = t
    }
    amplitude.setTarget(heldTarget, at: t)
  }

  func advance(to time: Double) {
    let seed = options.tiltRule == .seedExact
    layer.extraAmplitude = seed ? assigned : amplitude.value(at: time)
    // The corrected rule keeps the extra amplitude from folding a wave at the shown tilt.
    if !seed,
      case .number(let shown)? = layer.presentationValue(
        forKeyPath: "transform.rotation.z", at: time)
    {
      layer.maximumSlope = TiltRule.maximumSurfaceSlope(tilt: shown)
    }
    layer.removeFinishedAnimations(at: time)
  }
}
