import Foundation
import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellTestSupport
import SwellWaves
import Testing

@testable import SwellScenes

private func script(_ text: String) throws -> [DeviceMotion] {
  try MotionScript(parsing: text).samples(rate: 100)
}

/// Drives a water layer and controller built straight from SwellWaves (no scene file) and
/// returns its trace rows, the independent reference for the file scene.
private func referenceTrace(
  motion: [DeviceMotion], options: WaterWaveOptions, frames: Int, fps: Double
) -> [[Double]] {
  let size = Size(width: 390, height: 844)
  let model = WaterWave(
    waves: SceneFile.waterwave.layers[0].water?.waves.map(\.sineWave) ?? [], fillLevel: 0.5)
  let water = WaterWaveLayer(name: "water", model: model, visibleSize: size)
  var response = WaterMotionResponse(for: water, options: options)
  let applicator = WaterWaveApplicator()
  water.isPhaseFrozen = options.reduceMotion
  var link = DisplayLink(preferredFramesPerSecond: fps, startTime: motion.first?.timestamp ?? 0)
  var next = 0
  var rows: [[Double]] = []
  for _ in 0..<frames {
    guard let f = link.step() else { break }
    while next < motion.count && motion[next].timestamp <= f.targetTimestamp + 1e-9 {
      response.receive(motion[next])
      next += 1
    }
    applicator.apply(response.advance(to: f.targetTimestamp), to: water)
    let copy = water.presentationCopy(at: f.targetTimestamp)
    var row = [f.targetTimestamp]
    for key in ["transform.rotation.z", "amplitude", "phase"] {
      guard case .number(let v) = copy.value(forKeyPath: key) else { return [] }
      row.append(key.contains("rotation") ? wrappedAngle(v) : v)
    }
    rows.append(row)
  }
  return rows
}

@Suite("FileScene")
private struct FileSceneTests {
  @Test(
    "the waterwave file scene traces exactly like a hand-built water and controller",
    arguments: [
      (
        "tilt 30deg right over 0.5s; hold 1s; shake x 3Hz 2rad/s for 1s", false,
        WaterWaveResponse.classic
      ),
      ("tilt 50deg left over 0.3s; hold 1s", true, .classic),
      ("tilt 20deg right over 0.2s; push x 0.3g for 0.5s; hold 1s", false, .sloshing),
    ])
  func matchesReference(text: String, seedExact: Bool, response: WaterWaveResponse) throws {
    let motion = try script(text)
    var options = SceneOptions()
    options.seedExact = seedExact
    options.waterResponse = response
    let scene = FileScene(file: .waterwave, options: options)
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: 60)
    let rows = try driver.trace(frames: 150)
    var o = WaterWaveOptions()
    o.tiltRule = seedExact ? .seedExact : .corrected
    o.response = response
    let expected = referenceTrace(motion: motion, options: o, frames: 150, fps: 60)
    #expect(rows.count == 150)
    #expect(rows == expected)
    // The motion did something: the water tilted.
    #expect(rows.map { abs($0[1]) }.max() ?? 0 > 0.1)
  }

  @Test("a device turned 30° clockwise settles the water at −30° (level with the world)")
  func tiltSettles() throws {
    let scene = try #require(BuiltInScenes.make("waterwave"))
    var driver = SceneDriver(
      scene: scene, motion: try script("tilt 30deg right over 0.5s; hold 2s"), framesPerSecond: 60)
    let rows = try driver.trace(frames: 151)
    let last = try #require(rows.last)
    #expect(abs(last[1] + Double.pi / 6) < 1e-6, "tilt \(last[1])")
  }

  @Test("Reduce Motion keeps the water still and upright")
  func reduceMotion() throws {
    var options = SceneOptions()
    options.reduceMotion = true
    let scene = FileScene(file: .waterwave, options: options)
    var driver = SceneDriver(
      scene: scene, motion: try script("tilt 30deg right over 0.5s; shake x 3Hz 3rad/s for 1s"),
      framesPerSecond: 30)
    let rows = try driver.trace(frames: 45)
    #expect(rows.allSatisfy { $0[1] == 0 && $0[2] == 8 && $0[3] == rows[0][3] })
  }

  @Test("a size override resizes frameless layers; the water follows the canvas")
  func sizeOverride() throws {
    var options = SceneOptions()
    options.width = 200
    options.height = 300
    options.scale = 1
    let scene = FileScene(file: .waterwave, options: options)
    #expect(scene.size == Size(width: 200, height: 300))
    #expect(scene.scale == 1)
    let water = try #require(scene.root.layer(named: "water") as? WaterWaveLayer)
    #expect(water.visibleSize == Size(width: 200, height: 300))
    #expect(water.position == Point(x: 100, y: 150))
  }

  @Test("motion effects in a file follow the viewer offset: position.x = 40 · horizontal")
  func motionEffects() throws {
    let json = """
      {"swellScene": 1, "name": "fx",
       "canvas": {"width": 300, "height": 300, "scale": 1, "background": "#000000"},
       "layers": [{"type": "shape", "name": "card", "frame": [100, 100, 100, 100], "fill": "#FFFFFF",
                   "motionEffects": [{"effect": "interpolating", "keyPath": "center.x",
                                      "type": "tiltAlongHorizontalAxis",
                                      "minimumRelativeValue": -40, "maximumRelativeValue": 40}]}]}
      """
    let file = try SceneFile.decode(Data(json.utf8), source: "fx.json")
    let scene = FileScene(file: file)
    #expect(
      scene.traceKeys == [
        "offset.horizontal", "offset.vertical", "card.position.x", "card.position.y",
      ])
    var driver = SceneDriver(
      scene: scene, motion: try script("hold 0.2s; turn 25deg left over 0.6s; hold 0.5s"),
      framesPerSecond: 60)
    let rows = try driver.trace(frames: 70)
    var moved = false
    for row in rows {
      let h = row[1]
      // Interpolated by the effect, then snapped to whole pixels at scale 1.
      #expect(abs(row[3] - (150 + 40 * h).rounded()) <= 0.5 + 1e-9, "\(row)")
      #expect(row[4] == 150)
      if abs(h) > 0.05 { moved = true }
    }
    #expect(moved, "the viewer offset never moved: \(rows.last ?? [])")
  }

  @Test("images resolve against the scene file's folder")
  func imagePaths() throws {
    let json = """
      {"swellScene": 1, "name": "img",
       "canvas": {"width": 10, "height": 10, "scale": 1, "background": "#000"},
       "layers": [{"type": "image", "name": "pic", "image": "art/pic.png", "gravity": "resizeAspect"}]}
      """
    let file = try SceneFile.decode(Data(json.utf8), source: "img.json")
    let scene = FileScene(file: file, baseDirectory: URL(fileURLWithPath: "/scenes/demo"))
    let image = try #require(scene.root.layer(named: "pic") as? ImageLayer)
    #expect(image.imagePath == "/scenes/demo/art/pic.png")
    #expect(image.gravity == .resizeAspect)
    #expect(image.frame == Rect(x: 0, y: 0, width: 10, height: 10))
  }
}
