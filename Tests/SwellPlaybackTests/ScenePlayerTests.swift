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

let script = "hold 0.2s; tilt 30deg right over 0.5s; shake x 3Hz 2rad/s for 0.5s"

/// A small water-wave scene with its scripted motion.
func smallWave(width: Double = 60, height: Double = 120, scale: Double = 1) throws -> (
  any Scene, any SceneMotionFeed
) {
  var options = SceneOptions()
  (options.width, options.height, options.scale) = (width, height, scale)
  let scene = try BuiltInScenes.load("waterwave", options: options)
  return (scene, try SceneMotionInput.script(script, rate: 100).feed)
}

/// The differing pixels of two ARGB32 images of one size (`Int.max` for different sizes).
func differingPixels(_ a: ImageSurface, _ b: ImageSurface) -> Int {
  guard a.pixelSize == b.pixelSize else { return Int.max }
  var count = 0
  for y in 0..<a.pixelHeight {
    for x in 0..<a.pixelWidth where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { count += 1 }
  }
  return count
}

@Suite("ScenePlayer: a scene drawn into pixels the host owns")
private struct ScenePlayerTests {
  @Test(
    "advanced to host timestamps and drawn into a caller's buffer, Cairo context or image: the pixels of an export of the same frame",
    arguments: [(60.0, 120.0, 1.0), (50, 90, 2)])
  func matchesExport(width: Double, height: Double, scale: Double) throws {
    let folder = try scratchFolder("player-vs-export")
    defer { try? FileManager.default.removeItem(at: folder) }
    let fps = 30.0
    let frameIndex = 25
    let (exportScene, exportMotion) = try smallWave(width: width, height: height, scale: scale)
    var export = SceneExport(
      scene: exportScene, motion: exportMotion, framesPerSecond: fps, duration: 2,
      output: folder.appendingPathComponent("frame.png").path)
    export.singleTime = Double(frameIndex) / fps
    let report = try export.run()
    #expect(report.frames == 1)
    let png = try ImageSurface.load(contentsOfPNGFile: export.output)

    let (scene, motion) = try smallWave(width: width, height: height, scale: scale)
    let player = ScenePlayer(scene: scene, motion: motion)
    let t0 = motion.startTime
    for i in 0...frameIndex { try player.advance(toTimestamp: t0 + Double(i) / fps) }
    let time = try #require(player.currentTime)
    let (w, h) = player.pixelSize
    #expect((w, h) == png.pixelSize)

    // A caller-owned buffer with a padded stride.
    let stride = 4 * w + 16
    var bytes = [UInt8](repeating: 0xAB, count: stride * h)
    try bytes.withUnsafeMutableBytes { buffer in
      let base = try #require(buffer.baseAddress)
      try player.draw(
        at: time, into: PixelBuffer(baseAddress: base, width: w, height: h, bytesPerRow: stride))
    }
    let fromBuffer = try ImageSurface(pixelWidth: w, pixelHeight: h)
    fromBuffer.withUnsafeMutableBytes { dst in
      bytes.withUnsafeBytes { src in
        for y in 0..<h {
          UnsafeMutableRawBufferPointer(rebasing: dst[(y * fromBuffer.bytesPerRow)...])
            .copyMemory(
              from: UnsafeRawBufferPointer(rebasing: src[(y * stride)..<(y * stride + 4 * w)]))
        }
      }
    }
    fromBuffer.markDirty()
    #expect(differingPixels(fromBuffer, png) == 0)
    // The padding past each row is untouched.
    #expect(bytes[4 * w] == 0xAB && bytes[stride * (h - 1) + 4 * w + 15] == 0xAB)

    // A caller-owned Cairo context.
    let target = try ImageSurface(pixelWidth: w, pixelHeight: h)
    let context = try CairoContext(surface: target)
    try player.draw(at: time, in: context, pixelWidth: w, pixelHeight: h)
    target.flush()
    #expect(differingPixels(target, png) == 0)

    // An image.
    let image = try ImageSurface(pixelWidth: w, pixelHeight: h)
    try player.draw(at: time, into: image)
    #expect(differingPixels(image, png) == 0)
  }

  @Test("a timestamp at or before the last one advances nothing; frames count up")
  func monotonicTimestamps() throws {
    let (scene, motion) = try smallWave()
    let player = ScenePlayer(scene: scene, motion: motion)
    player.tracing = true
    let t0 = motion.startTime
    let a = try player.advance(toTimestamp: t0)
    let b = try player.advance(toTimestamp: t0 + 0.1)
    let c = try player.advance(toTimestamp: t0 + 0.05)
    #expect(a.index == 0 && b.index == 1 && c.index == 2)
    #expect(c.targetTimestamp == t0 + 0.1)
    #expect(player.currentTime == t0 + 0.1)
    // Two traced frames (the repeated time is not a frame).
    #expect(player.traceText().split(separator: "\n").count == 3)
  }

  @Test("render skips drawing when the presentation is unchanged, unless forced")
  func unchangedFrames() throws {
    var options = SceneOptions()
    (options.width, options.height, options.scale) = (40, 80, 1)
    let scene = try BuiltInScenes.load("homescreen", options: options)
    let player = ScenePlayer(scene: scene, motion: SceneMotionInput.resting.feed)
    let image = try ImageSurface(pixelWidth: 40, pixelHeight: 80)
    var link = DisplayLink(preferredFramesPerSecond: 30)
    var changed: [Bool] = []
    for i in 0..<4 {
      let step = link.step()
      let frame = try #require(step)
      try player.render(frame, into: image, force: i == 3)
      changed.append(player.lastRenderChangedPixels)
    }
    #expect(changed.first == true)
    #expect(changed.last == true)
    #expect(changed.contains(false))
  }

  @Test("keyboard tilt plumbing: arrows through the player tilt a keyboard feed")
  func keyboardTilt() throws {
    var options = SceneOptions()
    (options.width, options.height, options.scale) = (40, 80, 1)
    let scene = try BuiltInScenes.load("waterwave", options: options)
    let feed = TiltMotionFeed(kind: .keyboard)
    let player = ScenePlayer(scene: scene, motion: feed)
    try player.advance(toTimestamp: 0)
    for _ in 0..<3 { player.tilt(.right, at: 0) }
    for i in 1...60 { try player.advance(toTimestamp: Double(i) / 60) }
    let roll = feed.controller.currentMotion.attitude.roll
    #expect(abs(roll - 15 * .pi / 180) < 0.01 * 15 * .pi / 180, "roll \(roll)")
    let tilt = try #require(scene.traceValue("water.transform.rotation.z", at: 1))
    #expect(abs(tilt) > 0.1, "the water tilts: \(tilt)")
  }

  @Test("a layer tree drawn into a caller's buffer has the pixels of the renderer's own image")
  func layerTreeIntoBuffer() throws {
    let root = Layer(name: nil, frame: Rect(x: 0, y: 0, width: 30, height: 20))
    let square = Layer(name: nil, frame: Rect(x: 5, y: 4, width: 10, height: 8))
    square.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 1)
    root.addSublayer(square)
    let expected = try LayerRenderer().render(
      root, size: Size(width: 30, height: 20), scale: 2, background: .white)
    let stride = 4 * 60 + 8
    var bytes = [UInt8](repeating: 0, count: stride * 40)
    try bytes.withUnsafeMutableBytes { buffer in
      let base = try #require(buffer.baseAddress)
      let pixels = PixelBuffer(baseAddress: base, width: 60, height: 40, bytesPerRow: stride)
      try pixels.draw(root, background: .white, placement: FramePlacement(scale: 2))
      try pixels.withImage { image in #expect(differingPixels(image, expected) == 0) }
    }
    #expect(bytes[4 * 60] == 0, "the padding is untouched")
  }
}
