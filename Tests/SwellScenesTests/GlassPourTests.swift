import Foundation
import SwellGeometry
import SwellMotion
import SwellScenes
import SwellTestSupport
import SwellWaves
import Testing

/// The bundled iPhone recording (Sensor Logger, MIT) that `swell demo` plays.
private let bundledRecording = packageRoot.appendingPathComponent(
  "Sources/SwellTool/Resources/sensorlogger-ios-rotation")

/// The built-in glass and its water layer.
private func glass() throws -> (FileScene, WaterBodyLayer) {
  let scene = try #require(BuiltInScenes.make("glass", options: SceneOptions()) as? FileScene)
  let water = try #require(scene.root.layer(named: "water") as? WaterBodyLayer)
  return (scene, water)
}

/// The most volume, as a fraction of the container, the weir law lets leave in `seconds`
/// under an in-plane gravity of at most `gravity` g: `C_d·(2/3)·√(2g)·h^{3/2}` (Rehbock's
/// `C_d` = 0.602) with the head at its largest possible value, the container's extent along
/// gravity (at most twice its radius about the centroid).
private func weirBound(_ c: WaterContainer, gravity: Double, seconds: Double) -> Double {
  let m = c.metresPerPoint
  let h = 2 * c.radius * m
  let q = 0.602 * 2 / 3 * (2 * 9.806_65 * gravity).squareRoot() * pow(h, 1.5)
  return q * seconds / (c.area * m * m)
}

/// The trace's `water.volume` column of a driver at 60 fps.
private func volumes(_ scene: FileScene, _ driver: SceneDriver, duration: Double) throws
  -> [(time: Double, volume: Double)]
{
  let column = try #require(scene.traceKeys.firstIndex(of: "water.volume")) + 1
  var driver = driver
  let rows = try driver.trace(frames: driver.frameCount(duration: duration))
  return rows.map { (time: $0[0], volume: $0[column]) }
}

@Suite("The glass scene pours over its rim")
private struct GlassPourTests {
  @Test(
    "lying flat and turned 3° about x, the glass keeps its water",
    arguments: [
      "flat; hold 0.5s; rotate -3deg about x over 0.5s; hold 3s",
      "flat; hold 0.5s; rotate 4.5deg about y over 0.5s; hold 10s",
    ])
  func nearlyFlatKeepsTheWater(script: String) throws {
    let (scene, _) = try glass()
    let motion = try MotionScript(parsing: script).samples(rate: 100)
    let rows = try volumes(
      scene, SceneDriver(scene: scene, motion: motion, framesPerSecond: 60), duration: 12)
    // The in-plane gravity stays below sin 5° (sin 3° = 0.052 g, sin 4.5° = 0.078 g): the
    // model gives the surface no in-plane pull, so nothing pours and the volume stays 0.5.
    let last = try #require(rows.last)
    let lowest = rows.map(\.volume).min() ?? 0
    print("\(script): volume at the end \(last.volume), lowest \(lowest)")
    #expect(lowest >= 0.5 - 1e-9, "lowest volume \(lowest)")
  }

  @Test("turned past its rim, the glass pours: the volume falls every frame, within the weir law")
  func realTiltPours() throws {
    let (scene, water) = try glass()
    let motion = try MotionScript(parsing: "tilt 120deg right over 1s; hold 3s").samples(rate: 100)
    let rows = try volumes(
      scene, SceneDriver(scene: scene, motion: motion, framesPerSecond: 60), duration: 4)
    let bound = weirBound(water.container, gravity: 1, seconds: 1 / 60.0)
    var worst = 0.0
    for (a, b) in zip(rows, rows.dropFirst()) {
      #expect(b.volume <= a.volume + 1e-12, "the volume rose at \(b.time) s")
      worst = max(worst, a.volume - b.volume)
    }
    print("tilt 120°: worst loss per frame \(worst), weir bound \(bound); end \(rows.last!.volume)")
    #expect(worst <= bound, "lost \(worst) in a frame, the weir law allows \(bound)")
    // It took more than a few frames: never half the glass in one frame.
    #expect(worst < 0.1)
    #expect((rows.last?.volume ?? 1) < 0.02, "still \(rows.last?.volume ?? 1)")
    // Still pouring a second after the turn began, not empty at once.
    let early = try #require(rows.first { $0.time >= 0.9 })
    #expect(early.volume > 0.05, "at \(early.time) s: \(early.volume)")
  }

  @Test("under the bundled recording no frame loses more than the weir law allows")
  func bundledRecordingWithinTheWeirLaw() throws {
    let (scene, water) = try glass()
    let input = try SceneMotionInput.recording(bundledRecording)
    let rows = try volumes(
      scene, SceneDriver(scene: scene, motion: input.feed, framesPerSecond: 60),
      duration: input.span)
    let bound = weirBound(water.container, gravity: 1, seconds: 1 / 60.0)
    var worst = (loss: 0.0, time: 0.0)
    for (a, b) in zip(rows, rows.dropFirst()) where a.volume - b.volume > worst.loss {
      worst = (a.volume - b.volume, b.time)
    }
    print(
      "bundled recording: worst loss per frame \(worst.loss) at \(worst.time) s, bound \(bound)")
    #expect(rows.count > 1500)
    #expect(worst.loss <= bound, "lost \(worst.loss) at \(worst.time) s; the weir allows \(bound)")
    // The recording turns the phone over: the glass does pour (and refills upright).
    #expect(rows.contains { $0.volume < 0.2 })
    #expect(abs((rows.last?.volume ?? 0) - 0.5) < 1e-6)
  }
}
