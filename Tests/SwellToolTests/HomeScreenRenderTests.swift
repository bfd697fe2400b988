import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes
import Testing

/// Grey levels of a rendered frame, row major.
private struct Grey {
  let width: Int
  let height: Int
  let values: [Double]

  init(_ image: ImageSurface) {
    width = image.pixelWidth
    height = image.pixelHeight
    var v = [Double](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        if let p = image.pixel(x: x, y: y) {
          v[y * width + x] = 0.3 * Double(p.red) + 0.59 * Double(p.green) + 0.11 * Double(p.blue)
        }
      }
    }
    values = v
  }

  subscript(x: Int, y: Int) -> Double { values[y * width + x] }
}

/// The mean absolute difference between `b` and `a` shifted by (dx, dy) over a region of `a`.
private func mismatch(
  _ a: Grey, _ b: Grey, region: (x: Range<Int>, y: Range<Int>), dx: Int, dy: Int
)
  -> Double
{
  var sum = 0.0
  var n = 0
  for y in region.y {
    for x in region.x {
      sum += abs(b[x + dx, y + dy] - a[x, y])
      n += 1
    }
  }
  return sum / Double(n)
}

/// Still for 0.3 s, then a turn about an axis to `degrees` over 0.4 s, held.
private func motion(degrees: Double, axis: Vector3, duration: Double) -> [DeviceMotion] {
  (0...Int(duration * 100)).map { i in
    let t = Double(i) / 100
    let f = min(1, max(0, (t - 0.3) / 0.4))
    return DeviceMotion.resting(
      timestamp: t,
      attitude: Attitude(quaternion: Quaternion(axis: axis, angle: f * degrees * .pi / 180)))
  }
}

@Suite("homescreen rendering")
private struct HomeScreenRenderTests {
  @Test("a rendered frame shows the wallpaper displaced against the icons by the traced amount")
  func wallpaperShiftMatchesTrace() throws {
    var options = SceneOptions()
    options.scale = 1
    let scene = try #require(BuiltInScenes.make("homescreen", options: options) as? FileScene)
    var driver = SceneDriver(
      scene: scene, motion: motion(degrees: 27, axis: Vector3(0.6, 1, 0), duration: 1),
      framesPerSecond: 30)
    let renderer = LayerRenderer()
    var frames: [(time: Double, image: ImageSurface, x: Double, y: Double)] = []
    for i in 0..<31 {
      let stepped = try driver.step()
      let f = try #require(stepped)
      guard i == 0 || i == 30 else { continue }
      let t = f.targetTimestamp
      let image = try renderer.render(
        scene.root.presentation(at: t), size: scene.size, scale: 1, background: scene.background)
      let x = try #require(scene.traceValue("wallpaper.position.x", at: t))
      let y = try #require(scene.traceValue("wallpaper.position.y", at: t))
      frames.append((t, image, x, y))
    }
    let a = Grey(frames[0].image)
    let b = Grey(frames[1].image)
    let traced = (dx: frames[1].x - frames[0].x, dy: frames[1].y - frames[0].y)
    #expect(abs(traced.dx) >= 5 && abs(traced.dy) >= 5, "the tilt moved the wallpaper: \(traced)")

    // A band between the icon grid and the page dots that only the wallpaper covers.
    let region = (x: 50..<340, y: 610..<690)
    // Search x over the whole effect range with y at the traced shift, then y with that x.
    let ty = Int(traced.dy.rounded())
    let bestX = try #require(
      (-45...45).min {
        mismatch(a, b, region: region, dx: $0, dy: ty)
          < mismatch(a, b, region: region, dx: $1, dy: ty)
      })
    let bestY = try #require(
      (-45...45).min {
        mismatch(a, b, region: region, dx: bestX, dy: $0)
          < mismatch(a, b, region: region, dx: bestX, dy: $1)
      })
    #expect(Double(bestX) == traced.dx, "measured \(bestX) px, traced \(traced.dx)")
    #expect(Double(bestY) == traced.dy, "measured \(bestY) px, traced \(traced.dy)")
    let best = mismatch(a, b, region: region, dx: bestX, dy: bestY)
    let unshifted = mismatch(a, b, region: region, dx: 0, dy: 0)
    #expect(best < 0.05 && unshifted > 10 * best + 0.2, "best \(best), unshifted \(unshifted)")

    // The icons did not move: their pixels are the same in both frames.
    let icons = scene.root.allLayers.filter { layer in
      guard let name = layer.name, !name.hasSuffix("-glyph") else { return false }
      return name.hasPrefix("icon-") || name.hasPrefix("dock-")
    }
    #expect(icons.count == 28)
    for icon in icons where icon.superlayer === scene.root {
      let c = icon.frame.center
      let p0 = frames[0].image.pixel(x: Int(c.x), y: Int(c.y + icon.frame.height * 0.4))
      let p1 = frames[1].image.pixel(x: Int(c.x), y: Int(c.y + icon.frame.height * 0.4))
      #expect(p0 == p1, "\(icon.name ?? "icon")")
    }
  }
}
