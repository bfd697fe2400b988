import SwellGeometry
import SwellLayers
import SwellMotion
import SwellScenes
import Testing

/// Temporary: the file scene against the code-built HomeScreenScene it replaces.
@Suite("homescreen: file scene vs code scene")
struct HomeScreenComparisonTests {
  @Test(
    arguments: [
      (
        "hold 0.5s; rotate 25deg about y over 0.5s; hold 2s; tilt 30deg forward over 1s", 60.0,
        false
      ),
      (
        "hold 0.3s; rotate 35deg about x over 0.3s; rotate 20deg about y over 0.4s; hold 1s", 30,
        false
      ),
      ("shake x 3Hz 4rad/s for 2s; hold 1s", 120, false),
      ("tilt 60deg forward over 0.5s; shake y 3Hz 4rad/s for 1s", 60, true),
    ])
  func sameTrace(script: String, fps: Double, reduceMotion: Bool) throws {
    let motion = try MotionScript(parsing: script).samples(rate: 100)
    var options = SceneOptions()
    options.reduceMotion = reduceMotion
    let old = HomeScreenScene(options: options)
    let new = try #require(BuiltInScenes.make("homescreen", options: options))
    #expect(new.traceKeys == old.traceKeys)
    var a = SceneDriver(scene: old, motion: motion, framesPerSecond: fps)
    var b = SceneDriver(scene: new, motion: motion, framesPerSecond: fps)
    let n = a.frameCount(duration: (motion.last?.timestamp ?? 0) - (motion.first?.timestamp ?? 0))
    let ra = a.trace(frames: n)
    let rb = b.trace(frames: n)
    #expect(ra.count == n)
    #expect(ra == rb)
    for i in stride(from: 0, to: n, by: max(1, n / 8)) { print("ROW", script, fps, ra[i]) }
  }

  @Test(arguments: [(390.0, 844.0, 3.0), (320, 568, 2)])
  func sameLayers(w: Double, h: Double, s: Double) throws {
    var o = SceneOptions()
    o.width = w
    o.height = h
    o.scale = s
    let old = HomeScreenScene(options: o)
    let new = FileScene(file: .homescreen(width: w, height: h, scale: s), options: o)
    func all(_ l: Layer) -> [Layer] { [l] + l.sublayers.flatMap(all) }
    let la = all(old.root)
    let lb = all(new.root)
    #expect(la.map(\.name) == lb.map(\.name))
    for (x, y) in zip(la, lb) {
      #expect(x.frame == y.frame, "\(x.name ?? "")")
      #expect(x.cornerRadius == y.cornerRadius, "\(x.name ?? "")")
      #expect(x.contentsScale == y.contentsScale, "\(x.name ?? "")")
      #expect(type(of: x) == type(of: y), "\(x.name ?? "")")
      #expect((x.backgroundColor == nil) == (y.backgroundColor == nil), "\(x.name ?? "")")
      if let sx = x as? ShapeLayer, let sy = y as? ShapeLayer {
        #expect(sx.path?.elements.count == sy.path?.elements.count, "\(x.name ?? "")")
        #expect((sx.fillGradient == nil) == (sy.fillGradient == nil), "\(x.name ?? "")")
      }
    }
  }
}
