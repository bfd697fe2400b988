import Foundation
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes
import SwellWaves
import Testing

/// Renders a scene after a script, at its last frame, and returns the image and the trace row.
private func renderAfter(
  _ scene: FileScene, script: String, seconds: Double
) throws -> (image: ImageSurface, row: [Double]) {
  let motion = try MotionScript(parsing: script).samples(rate: 100)
  var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: 30)
  let rows = try driver.trace(frames: driver.frameCount(duration: seconds))
  let row = try #require(rows.last)
  let image = try LayerRenderer().render(
    scene.root.presentation(at: row[0]), size: scene.size, scale: 1,
    background: scene.background)
  return (image, row)
}

/// Relative luminance of a pixel, 0...1 (Rec. 709 weights on the stored values).
private func luminance(_ image: ImageSurface, _ x: Int, _ y: Int) -> Double {
  guard let p = image.pixel(x: x, y: y) else { return -1 }
  return (0.2126 * Double(p.red) + 0.7152 * Double(p.green) + 0.0722 * Double(p.blue)) / 255
}

/// Whether a pixel differs from a colour by more than a tenth (summed over the channels).
private func differs(_ image: ImageSurface, _ x: Int, _ y: Int, from c: Color) -> Bool {
  guard let p = image.pixel(x: x, y: y) else { return false }
  return abs(Double(p.red) / 255 - c.red) + abs(Double(p.green) / 255 - c.green)
    + abs(Double(p.blue) / 255 - c.blue) > 0.1
}

@Suite("Water with the phone upside down")
private struct UpsideDownWaterTests {
  @Test(
    "closed (waterwave --response physical): the water falls to the top of the screen, light at its surface, dark at its bottom"
  )
  func closedContainer() throws {
    var options = SceneOptions()
    options.waterResponse = .physical
    (options.width, options.height, options.scale) = (195, 422, 1)
    let scene = try #require(BuiltInScenes.make("waterwave", options: options) as? FileScene)
    let (image, row) = try renderAfter(
      scene, script: "hold 0.2s; tilt 180deg right over 1s; hold 4s", seconds: 5)
    let volume = try #require(scene.traceKeys.firstIndex(of: "water.volume")) + 1
    #expect(abs(row[volume] - 0.5) < 1e-6)
    let sky = scene.background
    let w = image.pixelWidth
    let h = image.pixelHeight
    // Each column: water from the top (gravity's side) down to the surface, sky below it.
    var surface: [Int] = []
    for x in 1..<(w - 1) {
      let edge = (0..<h).first { !differs(image, x, $0, from: sky) } ?? h
      surface.append(edge)
      for y in 0..<edge { #expect(differs(image, x, y, from: sky), "dry at \(x),\(y)") }
      for y in edge..<h where y > edge + 4 {
        #expect(!differs(image, x, y, from: sky), "water under the surface at \(x),\(y)")
      }
    }
    // Half full: the surface near the middle, level with the world.
    let mean = Double(surface.reduce(0, +)) / Double(surface.count)
    #expect(abs(mean - Double(h) / 2) < 12, "surface at \(mean)")
    // The depth gradient follows gravity: darker deeper, i.e. toward the top of the screen.
    let deep = luminance(image, w / 2, 4)
    let shallow = luminance(image, w / 2, Int(mean) - 30)
    #expect(deep < shallow - 0.05, "deep \(deep), near the surface \(shallow)")
  }

  @Test("open (the glass): turned over it spills, upright again it refills")
  func openGlass() throws {
    func blue(_ image: ImageSurface) -> Int {
      var n = 0
      for y in 0..<image.pixelHeight {
        for x in 0..<image.pixelWidth {
          if let p = image.pixel(x: x, y: y), Int(p.blue) > Int(p.red) + 60 { n += 1 }
        }
      }
      return n
    }
    var options = SceneOptions()
    (options.width, options.height, options.scale) = (195, 422, 1)
    func glass() throws -> FileScene {
      try #require(BuiltInScenes.make("glass", options: options) as? FileScene)
    }
    let upright = try glass()
    let volume = try #require(upright.traceKeys.firstIndex(of: "water.volume")) + 1
    let before = try renderAfter(upright, script: "hold 1s", seconds: 1)
    #expect(abs(before.row[volume] - 0.5) < 1e-6)
    let water = blue(before.image)
    #expect(water > 2000, "\(water) water pixels upright")
    let over = try renderAfter(
      try glass(),
      script: "hold 0.2s; tilt 180deg right over 1s; hold 6s", seconds: 7)
    // It pours over the rim as weir flow, whose last film drains ever slower (WeirFlowTests):
    // under a thousandth of the glass 6 s upside down.
    #expect(over.row[volume] < 1e-3)
    #expect(blue(over.image) < water / 100, "\(blue(over.image)) water pixels upside down")
    let back = try renderAfter(
      try glass(),
      script: "hold 0.2s; tilt 180deg right over 1s; hold 2s; tilt 180deg right over 1s; hold 3s",
      seconds: 7)
    #expect(abs(back.row[volume] - 0.5) < 1e-6)
    #expect(abs(Double(blue(back.image) - water)) < 0.05 * Double(water))
  }
}
