import Foundation
import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellScenes
import SwellTestSupport
import SwellWaves
import Testing

/// Plays a script through a scene and returns the last trace row.
private func lastRow(_ scene: any Scene, script: String, fps: Double = 60) throws -> [Double] {
  let motion = try MotionScript(parsing: script).samples(rate: 100)
  var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: fps)
  let span = (motion.last?.timestamp ?? 0) - (motion.first?.timestamp ?? 0)
  return try #require(try driver.trace(frames: driver.frameCount(duration: span)).last)
}

private func options(_ orientation: InterfaceOrientation?) -> SceneOptions {
  var o = SceneOptions()
  o.orientation = orientation
  return o
}

@Suite("Interface orientation")
private struct OrientationTests {
  @Test(
    "landscape swaps the canvas; portrait and upside down keep it",
    arguments: InterfaceOrientation.allCases)
  func canvas(orientation: InterfaceOrientation) throws {
    let landscape = orientation == .landscapeLeft || orientation == .landscapeRight
    let want = landscape ? Size(width: 844, height: 390) : Size(width: 390, height: 844)
    for name in BuiltInScenes.names {
      let scene = try #require(BuiltInScenes.make(name, options: options(orientation)))
      #expect(scene.size == want, "\(name) \(orientation)")
      #expect(scene.root.bounds.size == want, "\(name) \(orientation)")
    }
    var o = options(orientation)
    (o.width, o.height) = (300, 500)
    let sized = try #require(BuiltInScenes.make("waterwave", options: o))
    #expect(
      sized.size == (landscape ? Size(width: 500, height: 300) : Size(width: 300, height: 500)))
    let water = try #require((sized as? FileScene)?.waterLayers.first)
    #expect(water.visibleSize == sized.size)
  }

  @Test("the home screen in landscape is laid out for 844 × 390: a 6 × 4 grid inside the canvas")
  func homescreenLandscape() throws {
    let scene = try #require(
      BuiltInScenes.make("homescreen", options: options(.landscapeLeft)) as? FileScene)
    let bounds = Rect(x: 0, y: 0, width: 844, height: 390)
    let icons = scene.root.sublayers.filter { ($0.name ?? "").hasPrefix("icon-") }
    #expect(icons.count == 24)
    #expect(
      scene.root.layer(named: "icon-3-5") != nil && scene.root.layer(named: "icon-4-0") == nil)
    for icon in icons + [try #require(scene.root.layer(named: "dock"))] {
      #expect(
        icon.frame.minX >= 0 && icon.frame.maxX <= bounds.maxX && icon.frame.minY >= 0
          && icon.frame.maxY <= bounds.maxY, "\(icon.name ?? "")")
    }
    #expect(
      scene.root.layer(named: "wallpaper")?.frame == Rect(x: -40, y: -40, width: 924, height: 470))
    // The file keeps the device's portrait canvas and says the orientation.
    #expect(scene.file.canvas.width == 390 && scene.file.orientation == .landscapeLeft)
  }

  @Test("a scene file's \"orientation\" key: read, written back, applied; unknown values named")
  func sceneFileKey() throws {
    var file = SceneFile.waterwave
    file.orientation = .landscapeRight
    let data = try file.encoded()
    #expect(String(decoding: data, as: UTF8.self).contains(#""orientation" : "landscapeRight""#))
    let back = try SceneFile.decode(data, source: "o.json")
    #expect(back == file)
    #expect(FileScene(file: back).size == Size(width: 844, height: 390))
    // The option overrides the file's; portrait leaves no key behind.
    #expect(FileScene(file: back, options: options(.portrait)).file.orientation == nil)
    #expect(
      !String(decoding: try SceneFile.waterwave.encoded(), as: UTF8.self).contains("orientation"))
    let bad = String(decoding: data, as: UTF8.self).replacingOccurrences(
      of: "landscapeRight", with: "sideways")
    #expect {
      try SceneFile.decode(Data(bad.utf8), source: "bad.json")
    } throws: { error in
      "\(error)".contains("bad.json: orientation") && "\(error)".contains("sideways")
    }
  }

  @Test(
    "the viewer offset is rotated as MotionEffectApplicator defines, and the wallpaper follows it",
    arguments: InterfaceOrientation.allCases)
  func viewerOffset(orientation: InterfaceOrientation) throws {
    let scene = try #require(
      BuiltInScenes.make("homescreen", options: options(orientation)) as? FileScene)
    #expect(scene.applicator.interfaceOrientation == orientation)
    // Tip the right edge away by 20° (device frame: horizontal > 0), then the top edge by 10°.
    let row = try lastRow(
      scene, script: "hold 0.2s; rotate 20deg about y over 0.3s; rotate 10deg about x over 0.3s")
    let device = scene.engine.appliedOffset
    #expect(device.horizontal > 0.1 && device.vertical > 0.02, "\(device)")
    let want = device.rotated(for: orientation)
    #expect(abs(row[1] - want.horizontal) < 1e-12 && abs(row[2] - want.vertical) < 1e-12)
    // The recessed wallpaper moves against the interface's offset, snapped to whole pixels.
    let centre = Point(x: scene.size.width / 2, y: scene.size.height / 2)
    #expect(abs(row[3] - (centre.x - 40 * want.horizontal)) <= 1.0 / 6 + 1e-9, "\(row)")
    #expect(abs(row[4] - (centre.y - 40 * want.vertical)) <= 1.0 / 6 + 1e-9, "\(row)")
    switch orientation {
    case .portrait: #expect(row[1] == device.horizontal && row[2] == device.vertical)
    case .portraitUpsideDown: #expect(row[1] == -device.horizontal && row[2] == -device.vertical)
    case .landscapeLeft: #expect(row[1] == -device.vertical && row[2] == device.horizontal)
    case .landscapeRight: #expect(row[1] == device.vertical && row[2] == -device.horizontal)
    }
  }

  @Test(
    "the water stays level with the world in landscape: gravity in the interface's axes",
    arguments: [
      (InterfaceOrientation.landscapeLeft, "landscape right"),
      (.landscapeRight, "landscape left"),
      (.portraitUpsideDown, "portrait; rotate 180deg about z over 0s"),
    ])
  func waterLevelInLandscape(orientation: InterfaceOrientation, pose: String) throws {
    for response in [WaterWaveResponse.classic, .sloshing] {
      var o = options(orientation)
      o.waterResponse = response
      // Held in the interface's own upright pose: the water is level, no tilt.
      let held = try lastRow(
        try #require(BuiltInScenes.make("waterwave", options: o)), script: "\(pose); hold 2s")
      #expect(abs(held[1]) < 0.01, "\(orientation) \(response): tilt \(held[1])")
      // Turned 30° clockwise from it: the water turns back 30° to stay level.
      let turned = try lastRow(
        try #require(BuiltInScenes.make("waterwave", options: o)),
        script: "\(pose); tilt 30deg right over 0.5s; hold 2.5s")
      // The sloshing mode still rings a little (1/(ζω) ≈ 1.4 s in an 844-point tank).
      #expect(
        abs(turned[1] + 30 * Double.pi / 180) < (response == .classic ? 0.01 : 0.05),
        "\(orientation) \(response): tilt \(turned[1] * 180 / .pi)°")
    }
    // A portrait interface on the same landscape device clamps at the corrected rule's 45°.
    if orientation != .portraitUpsideDown {
      let portrait = try lastRow(
        try #require(BuiltInScenes.make("waterwave")), script: "\(pose); hold 2s")
      #expect(abs(abs(portrait[1]) - .pi / 4) < 1e-6, "portrait interface: \(portrait[1])")
    }
  }

  @Test("device vectors in the interface's axes: the same turn as the viewer offset's")
  func interfaceVectors() {
    let g = Vector3(0.3, -0.9, 0.1)
    for o in InterfaceOrientation.allCases {
      let v = o.interfaceVector(fromDevice: g)
      #expect(abs(v.z - g.z) < 1e-15 && abs(v.length - g.length) < 1e-12)
      // A rotation about device y (offset horizontal) and about x (offset vertical) map like
      // the offset: the interface's x-axis component follows its horizontal offset axis.
      let offset = ViewerOffset(horizontal: 0.4, vertical: -0.2).rotated(for: o)
      let rate = o.interfaceVector(fromDevice: Vector3(-0.2, 0.4, 0))
      #expect(
        abs(rate.y - offset.horizontal) < 1e-15 && abs(rate.x - offset.vertical) < 1e-15, "\(o)")
    }
    #expect(
      InterfaceOrientation.landscapeLeft.interfaceVector(fromDevice: Vector3(1, 0, 0))
        == Vector3(0, -1, 0))
    #expect(
      InterfaceOrientation.landscapeRight.interfaceVector(fromDevice: Vector3(-1, 0, 0))
        == Vector3(0, -1, 0))
  }
}
