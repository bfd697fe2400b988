import Foundation
import SwellCairo
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes
import SwellWaves
import Testing

/// The physical water's frames drawn the fast way equal the frames drawn with pixman's own
/// gradients: the depth gradient turns with gravity, and on a tilted device it is drawn through
/// a device-aligned image of it (`LayerRenderer.rastersRotatedGradients`).
@Suite("Physical water pixels")
struct PhysicalWaterPixelTests {
  /// `swell bench`'s motion (a tilt, turning, pushes) and three frames of it, at the full phone
  /// size: every byte within one level of 255 of pixman's drawing, the water turned each time.
  @Test(
    "the physical water drawn fast matches pixman's drawing within 1/255",
    arguments: ["waterwave", "glass"])
  func fastFramesMatch(name: String) throws {
    let script =
      "tilt 20deg right over 0.5s; shake z 1.3Hz 2.5rad/s for 2s; push x 0.4g for 0.2s;"
      + " tilt 40deg left over 1s"
    let motion = try MotionScript(parsing: script).samples(rate: 100)
    var options = SceneOptions()
    options.waterResponse = .physical
    let scene = try #require(BuiltInScenes.make(name, options: options))
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: 20)
    let fast = LayerRenderer()
    let reference = LayerRenderer()
    reference.rastersRotatedGradients = false
    let count = driver.frameCount(duration: 3.5)
    for index in 0..<count {
      let frame = try #require(try driver.step())
      guard [10, 40, count - 1].contains(index) else { continue }
      let t = frame.targetTimestamp
      let angle = try #require(scene.traceValue("water.surface.angle", at: t))
      #expect(abs(angle) > 0.05, "\(name) at \(t): the water is level on screen")
      let tree = scene.root.presentation(at: t)
      let a = try fast.render(tree, size: scene.size, scale: scene.scale, background: .white)
      let b = try reference.render(tree, size: scene.size, scale: scene.scale, background: .white)
      var largest = 0
      var differing = 0
      a.withFramePixels { pa in
        b.withFramePixels { pb in
          for i in 0..<(pa.bytesPerRow * a.pixelHeight) where pa.bytes[i] != pb.bytes[i] {
            differing += 1
            largest = max(largest, abs(Int(pa.bytes[i]) - Int(pb.bytes[i])))
          }
        }
      }
      #expect(largest <= 1, "\(name) at \(t): \(differing) bytes differ, by up to \(largest)")
    }
  }
}
