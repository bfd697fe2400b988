import Foundation
import SwellCairo
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes
import SwellTestSupport
import Testing

@Suite("Frames drawn in bands on several threads")
private struct BandedRendererTests {
  /// Every built-in scene under seeded random motion, at the full phone size and at an odd one:
  /// the banded frame equals the single-threaded frame byte for byte (waterwave), or within one
  /// level of 255 on at most 2 % of the rows (gradients that pixman rounds from the band's
  /// first row; 4 % for `glass`, whose water's depth gradient turns with gravity, a slanted axis
  /// that pixman steps on more rows).
  @Test(
    "banded frames equal single-threaded frames: exactly, or within 1/255 on a few rows",
    arguments: ["waterwave", "homescreen", "glass"], [2, 3])
  func samePixels(name: String, bands: Int) throws {
    var generator = SplitMix64(seed: 0x5EED_0000 + UInt64(bands))
    var script = "hold 0.1s"
    for _ in 0..<4 {
      let degrees = Int.random(in: 5...60, using: &generator)
      let side = ["left", "right", "forward", "back"].randomElement(using: &generator)!
      script += "; tilt \(degrees)deg \(side) over 0.3s"
    }
    let motion = try MotionScript(parsing: script).samples(rate: 100)
    for (w, h, scale) in [(390.0, 844.0, 3.0), (333.0, 517.0, 1.37)] {
      var options = SceneOptions()
      (options.width, options.height, options.scale) = (w, h, scale)
      let scene = try #require(BuiltInScenes.make(name, options: options))
      var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: 10)
      let rows = try driver.trace(frames: driver.frameCount(duration: 1.3))
      let banded = BandedFrameRenderer(bands: bands)
      banded.minimumPixelsPerBand = 1
      let single = LayerRenderer()
      let pixels = (Int((w * scale).rounded()), Int((h * scale).rounded()))
      let a = try ImageSurface(pixelWidth: pixels.0, pixelHeight: pixels.1)
      let b = try ImageSurface(pixelWidth: pixels.0, pixelHeight: pixels.1)
      for t in [rows[rows.count / 2][0], rows[rows.count - 1][0]] {
        let tree = scene.root.presentation(at: t)
        let placement = FramePlacement(scale: scale)
        try banded.drawFrame(tree, background: scene.background, placement: placement, into: a)
        try single.drawFrame(tree, background: scene.background, placement: placement, into: b)
        var differing = 0
        var largest = 0
        var rows = Set<Int>()
        a.withFramePixels { pa in
          b.withFramePixels { pb in
            for y in 0..<pixels.1 {
              for i in (y * pa.bytesPerRow)..<(y * pa.bytesPerRow + 4 * pixels.0)
              where pa.bytes[i] != pb.bytes[i] {
                differing += 1
                largest = max(largest, abs(Int(pa.bytes[i]) - Int(pb.bytes[i])))
                rows.insert(y)
              }
            }
          }
        }
        let what =
          "\(name) \(w)x\(h)@\(scale) t \(t): \(differing) bytes differ, by up to "
          + "\(largest), rows \(rows.sorted().prefix(20))"
        if name == "waterwave" {
          #expect(differing == 0, "\(what)")
        } else {
          // pixman steps gradients from each span's start, so a band that starts on another
          // row can round a gradient's pixel the other way: one level of 255, on a few rows.
          #expect(largest <= 1, "\(what)")
          #expect(rows.count * (name == "glass" ? 25 : 50) <= pixels.1, "\(what)")
        }
      }
    }
  }

  @Test("small frames are drawn on the calling thread; a bad scale fails as it does unbanded")
  func smallAndErrors() throws {
    let banded = BandedFrameRenderer(bands: 2)
    #expect(banded.bandCount == 2)
    #expect(BandedFrameRenderer(bands: 0).bandCount == 1)
    let layer = Layer(name: "box", frame: Rect(x: 0, y: 0, width: 10, height: 10))
    layer.backgroundColor = Color(red: 1, green: 0, blue: 0)
    let image = try ImageSurface(pixelWidth: 20, pixelHeight: 20)
    try banded.drawFrame(
      layer, background: nil, placement: FramePlacement(scale: 1), into: image)
    #expect(image.pixel(x: 5, y: 5)?.red == 255)
    #expect(image.pixel(x: 15, y: 15)?.alpha == 0)
    banded.minimumPixelsPerBand = 1
    #expect(throws: RenderError.self) {
      try banded.drawFrame(
        layer, background: nil, placement: FramePlacement(scale: .nan), into: image)
    }
  }
}
