import Foundation
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellTestSupport
import Testing

@testable import SwellWaves

/// A random tilting script: holds, tilts and turns of random sizes.
private func randomScript(_ rng: inout SplitMix64) -> String {
  var steps = ["hold 0.2s"]
  for _ in 0..<6 {
    let angle = Int.random(in: 5...80, using: &rng)
    let over = Double(Int.random(in: 1...8, using: &rng)) / 10
    let words = [
      "tilt \(angle)deg right", "tilt \(angle)deg left", "tilt \(angle)deg forward",
      "turn \(angle)deg left", "rotate \(angle)deg about y",
    ]
    steps.append("\(words[Int.random(in: 0..<words.count, using: &rng)]) over \(over)s")
    steps.append("hold \(Double(Int.random(in: 0...6, using: &rng)) / 10)s")
  }
  return steps.joined(separator: "; ")
}

private func makeLayer() -> WaterWaveLayer {
  WaterWaveLayer(
    model: WaterWave(
      waves: [SineWave(amplitude: 6, wavelength: 200, phaseSpeed: 1, fill: .color(.white))],
      fillLevel: 0.5),
    visibleSize: Size(width: 390, height: 844))
}

@Suite("The water's response is a value: motion and time in, presentation out")
private struct ResponseShapeTests {
  @Test(
    "classic: the value response shows exactly what UIKit-style additive animations on the layer show",
    arguments: [1, 2, 3, 4, 5] as [UInt64])
  func sameAsLayerAnimations(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let text = randomScript(&rng)
    let motion = try MotionScript(parsing: text).samples(rate: [50.0, 100, 200][Int(seed % 3)])
    var options = WaterWaveOptions()
    options.tiltRule = seed.isMultiple(of: 2) ? .seedExact : .corrected
    let viaValue = makeLayer()
    let viaLayer = makeLayer()
    var response = WaterMotionResponse(for: viaValue, options: options)
    let applicator = WaterWaveApplicator()
    let reference = LayerAnimatedReference(layer: viaLayer, options: options)
    var next = 0
    let fps = 60.0
    let start = motion[0].timestamp
    for i in 0..<Int((motion.last?.timestamp ?? 0 - start) * fps) {
      let t = start + Double(i) / fps
      while next < motion.count && motion[next].timestamp <= t + 1e-9 {
        response.receive(motion[next])
        reference.receive(motion[next])
        next += 1
      }
      applicator.apply(response.advance(to: t), to: viaValue)
      reference.advance(to: t)
      let a = viaValue.presentationCopy(at: t)
      let b = viaLayer.presentationCopy(at: t)
      for key in ["transform.rotation.z", "amplitude", "phase"] {
        #expect(
          a.value(forKeyPath: key) == b.value(forKeyPath: key),
          "seed \(seed) t \(t) \(key): \(text)")
      }
      #expect(a.transform == b.transform, "seed \(seed) t \(t)")
    }
    // The value response leaves nothing animating on the layer: its model value is what shows.
    #expect(viaValue.animations.isEmpty)
    #expect(response.tiltTarget != nil)
  }

  @Test("before any motion the response leaves the layer as it is; Reduce Motion freezes it")
  func beforeMotionAndReduceMotion() {
    let layer = makeLayer()
    layer[.rotationZ] = 0.25
    var response = WaterMotionResponse(for: layer)
    let shown = response.advance(to: 1)
    #expect(shown.tilt == nil)
    #expect(shown.extraAmplitude == 0)
    WaterWaveApplicator().apply(shown, to: layer)
    #expect(layer[.rotationZ] == 0.25)

    var options = WaterWaveOptions()
    options.reduceMotion = true
    var still = WaterMotionResponse(for: layer, options: options)
    still.receive(
      DeviceMotion.resting(
        timestamp: 0, attitude: Attitude(quaternion: Quaternion(axis: .unitY, angle: 0.5))))
    let frozen = still.advance(to: 1)
    // At rest: the layer's own tilt, no extra amplitude, whatever the motion says.
    #expect(frozen == WaterPresentation(tilt: 0.25, extraAmplitude: 0, isPhaseFrozen: true))
    WaterWaveApplicator().apply(frozen, to: layer)
    #expect(layer.isPhaseFrozen)
    #expect(layer[.rotationZ] == 0.25)
  }

  @Test("typed key paths read and write model values")
  func typedKeyPaths() {
    let layer = Layer()
    layer[.positionX] = 12
    layer[.rotationZ] = -0.5
    #expect(layer.position.x == 12)
    #expect(layer[.rotationZ] == -0.5)
    #expect(layer[.position] == Point(x: 12, y: 0))
    #expect(TypedLayerKeyPath<Double>("center.x").name == "position.x")
  }
}
