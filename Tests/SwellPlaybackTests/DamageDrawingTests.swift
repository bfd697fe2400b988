import Foundation
import SwellCairo
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellPlayback
import SwellRender
import SwellScenes
import SwellTestSupport
import Testing

@Suite("ScenePlayer.drawsOnlyDamage: frames drawn over the frame before")
private struct DamageDrawingTests {
  /// Each built-in scene under motion that rests, tilts, rests tilted and shakes, at 60 frames a
  /// second: one player draws only what changed over its own last frame, another draws every
  /// frame whole. Every frame matches within one level of 255 (on at most 2 % of its rows:
  /// Cairo clips an outline to the region before rasterising it), and the resting water wave
  /// draws most frames as a band of a few wave heights.
  @Test(
    "every frame equals the frame drawn whole; the resting wave draws a band",
    arguments: ["waterwave", "homescreen", "glass"])
  func sameFrames(name: String) throws {
    let script = "hold 0.5s; tilt 25deg right over 0.3s; hold 0.4s; shake x 3Hz 2rad/s for 0.3s"
    var options = SceneOptions()
    (options.width, options.height, options.scale) = (130, 281, 2)
    func player() throws -> ScenePlayer {
      let scene = try BuiltInScenes.load(name, options: options)
      return ScenePlayer(scene: scene, motion: try SceneMotionInput.script(script, rate: 100).feed)
    }
    let partial = try player()
    partial.drawsOnlyDamage = true
    let whole = try player()
    let (w, h) = partial.pixelSize
    let a = try ImageSurface(pixelWidth: w, pixelHeight: h)
    let b = try ImageSurface(pixelWidth: w, pixelHeight: h)
    var link = DisplayLink(preferredFramesPerSecond: 60, startTime: 0)
    var regions: [PixelRect] = []
    var frames = 0
    for i in 0..<90 {
      guard let frame = link.tick(presentedAt: Double(i) / 60) else { continue }
      try partial.render(frame, into: a, force: false)
      try whole.render(frame, into: b, force: true)
      #expect(whole.lastRenderRegion == nil)
      if let r = partial.lastRenderRegion { regions.append(r) }
      frames += 1
      var rows = Set<Int>()
      var worst = 0
      a.withFramePixels { pa in
        b.withFramePixels { pb in
          for y in 0..<h {
            let ra = pa.bytes[(y * pa.bytesPerRow)..<(y * pa.bytesPerRow + 4 * w)]
            let rb = pb.bytes[(y * pb.bytesPerRow)..<(y * pb.bytesPerRow + 4 * w)]
            guard !ra.elementsEqual(rb) else { continue }
            rows.insert(y)
            for (u, v) in zip(ra, rb) { worst = max(worst, abs(Int(u) - Int(v))) }
          }
        }
      }
      #expect(worst <= 1, "\(name) frame \(i): a pixel \(worst) levels off")
      #expect(rows.count * 50 <= h, "\(name) frame \(i): \(rows.count) rows differ")
    }
    if name == "waterwave" {
      // At rest (the first half second, and once the tilt has settled) only the crest moves.
      #expect(regions.count >= 20, "\(regions.count) of \(frames) frames drawn as a region")
      #expect(regions.allSatisfy { $0.area * 4 < w * h })
    }
  }
}
