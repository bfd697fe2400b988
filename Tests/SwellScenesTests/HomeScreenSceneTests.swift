import Foundation
import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellScenes
import SwellTestSupport
import Testing

/// Hand-built motion at 100 Hz: still (identity) for `still` seconds, then a turn about the
/// device y axis to `degrees` over `ramp` seconds, held until `duration`.
func heldTilt(
  degrees: Double, axis: Vector3 = .unitY, still: Double = 0.5, ramp: Double = 0.5,
  duration: Double
) -> [DeviceMotion] {
  (0...Int(duration * 100)).map { i in
    let t = Double(i) / 100
    let f = min(1, max(0, (t - still) / ramp))
    let q = Quaternion(axis: axis, angle: f * degrees * .pi / 180)
    return DeviceMotion.resting(timestamp: t, attitude: Attitude(quaternion: q))
  }
}

/// The built-in `homescreen` scene (a ``FileScene`` of ``SceneFile/homescreen``).
private func homescreen(_ options: SceneOptions = SceneOptions()) throws -> FileScene {
  try #require(BuiltInScenes.make("homescreen", options: options) as? FileScene)
}

extension FileScene {
  /// The star-field wallpaper, `wallpaper`.
  fileprivate var wallpaper: Layer {
    get throws { try #require(root.layer(named: "wallpaper")) }
  }

  /// The app icons of the grid and the dock, `icon-ROW-COLUMN` and `dock-N`.
  fileprivate var icons: [Layer] {
    root.allLayers.filter { layer in
      guard let name = layer.name, !name.hasSuffix("-glyph") else { return false }
      return name.hasPrefix("icon-") || name.hasPrefix("dock-")
    }
  }

  /// The dock, `dock`.
  fileprivate var dock: Layer {
    get throws { try #require(root.layer(named: "dock")) }
  }
}

@Suite("homescreen scene")
private struct HomeScreenSceneTests {
  @Test("is registered and traces the docs/formats.md keys")
  func registered() throws {
    #expect(BuiltInScenes.names.contains("homescreen"))
    let scene = try #require(BuiltInScenes.make("homescreen"))
    #expect(scene.name == "homescreen")
    #expect(
      scene.traceKeys == [
        "offset.horizontal", "offset.vertical", "wallpaper.position.x", "wallpaper.position.y",
      ])
    #expect(scene.size == Size(width: 390, height: 844))
    #expect(scene.scale == 3)
  }

  @Test("a held 20° tilt: the trace follows the offset formula, then re-centres")
  func heldTiltTrace() throws {
    let scene = try homescreen()
    let motion = heldTilt(degrees: 20, duration: 12)
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: 60)
    let rows = try driver.trace(frames: driver.frameCount(duration: 12))
    let model = try scene.wallpaper.position
    #expect(model == Point(x: 195, y: 422))
    var peak = 0.0
    for row in rows {
      let (t, h, v, x, y) = (row[0], row[1], row[2], row[3], row[4])
      // The recessed wallpaper sits at model − 40·offset, snapped to whole pixels at 3×.
      #expect(abs(x - (195 - 40 * h)) <= 1.0 / 6 + 1e-9, "t = \(t)")
      #expect(abs(y - (422 - 40 * v)) <= 1.0 / 6 + 1e-9, "t = \(t)")
      #expect(abs(x * 3 - (x * 3).rounded()) < 1e-9)
      #expect(abs(v) < 1e-9, "a turn about y has no vertical offset")
      peak = max(peak, h)
      if t >= 1.5 {
        // Held since t = 1 s at 20°: θ(t) re-centres from its value when the ramp ended.
        let thetaAtHold = 20 * Double.pi / 180
        let want = integrateRecentering(theta0: thetaAtHold, until: t - 1.0) / (.pi / 2)
        #expect(abs(h - want) < 0.015 + 0.01, "t = \(t): \(h) vs \(want)")
      }
    }
    // The formula at first: 20° of 90° (less what re-centering took during the ramp).
    #expect(peak > 0.2 && peak <= 20.0 / 90 + 1e-9, "peak \(peak)")
    let last = try #require(rows.last)
    #expect(abs(last[1]) < 0.015 + 1e-9, "re-centred after 11 s of holding: \(last[1])")
    #expect(abs(last[3] - 195) <= 1)
  }

  @Test(
    "the wallpaper is recessed: tipped right it moves left, top edge toward the viewer it moves up")
  func recessedWallpaper() throws {
    // +20° about device y tips the right edge away: the screen turns to the viewer's right.
    let right = try homescreen()
    var a = SceneDriver(
      scene: right, motion: heldTilt(degrees: 20, duration: 1.5), framesPerSecond: 60)
    let r = try #require(try a.trace(frames: a.frameCount(duration: 1.5)).last)
    #expect(r[1] > 0.15, "offset.horizontal \(r[1])")
    #expect(r[3] < 195 - 5, "wallpaper.position.x \(r[3]): it must move left, against the offset")
    // +20° about device x tips the top edge toward the viewer: the screen turns down.
    let back = try homescreen()
    var b = SceneDriver(
      scene: back, motion: heldTilt(degrees: 20, axis: .unitX, duration: 1.5), framesPerSecond: 60)
    let u = try #require(try b.trace(frames: b.frameCount(duration: 1.5)).last)
    #expect(u[2] > 0.15, "offset.vertical \(u[2])")
    #expect(u[4] < 422 - 5, "wallpaper.position.y \(u[4]): it must move up, against the offset")
  }

  @Test("icons and the dock stay put while the wallpaper moves")
  func iconsStayPut() throws {
    let scene = try homescreen()
    var driver = SceneDriver(
      scene: scene, motion: heldTilt(degrees: 30, axis: Vector3(1, 1, 0), duration: 1.5),
      framesPerSecond: 60)
    _ = try driver.trace(frames: driver.frameCount(duration: 1.5))
    let t = 1.5
    let p = scene.root.presentation(at: t)
    for icon in scene.icons {
      let name = try #require(icon.name)
      let presented = try #require(p.layer(named: name))
      #expect(presented.position == icon.position, "\(name)")
    }
    #expect(p.layer(named: "dock")?.position == (try scene.dock.position))
    let wp = try #require(p.layer(named: "wallpaper"))
    #expect(wp.position != (try scene.wallpaper.position))
    #expect(try scene.wallpaper.position == Point(x: 195, y: 422), "model untouched")
    #expect(scene.icons.count == 28)
  }

  @Test("the wallpaper covers the screen at every offset")
  func wallpaperCovers() throws {
    let scene = try homescreen()
    for h in stride(from: -1.0, through: 1, by: 0.25) {
      for v in stride(from: -1.0, through: 1, by: 0.25) {
        scene.applicator.apply(ViewerOffset(horizontal: h, vertical: v), to: scene.root)
        let f = try scene.wallpaper.presentationCopy(at: 0).frame
        #expect(f.minX <= 0 && f.minY <= 0 && f.maxX >= 390 && f.maxY >= 844, "h \(h) v \(v)")
      }
    }
  }

  @Test("Reduce Motion: the offset stays (0, 0) and the wallpaper at its model position")
  func reduceMotion() throws {
    var options = SceneOptions()
    options.reduceMotion = true
    let scene = try homescreen(options)
    var driver = SceneDriver(
      scene: scene, motion: heldTilt(degrees: 40, duration: 2), framesPerSecond: 60)
    for row in try driver.trace(frames: 120) {
      #expect(row[1] == 0 && row[2] == 0)
      #expect(row[3] == 195 && row[4] == 422)
    }
  }

  @Test("the same motion gives the same trace; the star field is seeded")
  func deterministic() throws {
    let motion = heldTilt(degrees: 25, axis: Vector3(0.3, 1, 0), duration: 2)
    var a = SceneDriver(scene: try homescreen(), motion: motion, framesPerSecond: 60)
    var b = SceneDriver(scene: try homescreen(), motion: motion, framesPerSecond: 60)
    #expect(try a.trace(frames: 121) == b.trace(frames: 121))
    let s1 = try homescreen()
    let s2 = try homescreen()
    let stars1 = (try s1.wallpaper.layer(named: "stars") as? ShapeLayer)?.path
    let stars2 = (try s2.wallpaper.layer(named: "stars") as? ShapeLayer)?.path
    #expect(stars1 != nil && stars1 == stars2)
    #expect((stars1?.elements.count ?? 0) > 50)
  }

  @Test("the canvas follows the size and scale options")
  func options() throws {
    var o = SceneOptions()
    o.width = 320
    o.height = 568
    o.scale = 2
    let s = try homescreen(o)
    #expect(s.size == Size(width: 320, height: 568))
    #expect(try s.wallpaper.frame == Rect(x: -40, y: -40, width: 400, height: 648))
    #expect(try s.wallpaper.contentsScale == 2)
    for icon in s.icons where icon.superlayer === s.root {
      #expect(icon.frame.maxX <= 320 && icon.frame.minX >= 0)
    }
  }
}
