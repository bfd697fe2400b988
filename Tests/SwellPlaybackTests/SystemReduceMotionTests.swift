import Foundation
import SwellMotion
import SwellPlayback
import SwellScenes
import Synchronization
import Testing

/// A setting the test flips, read by the player before each frame as a desktop's would be.
private final class Setting: Sendable {
  let value = Atomic<Bool>(false)
  var read: @Sendable () -> Bool { { self.value.load(ordering: .relaxed) } }
}

/// A built-in scene at a small size under a script (a 30° turn in the screen's plane held for
/// 10 s: the water turns −30°, level with the world), with a player that
/// reads `setting` before each frame.
private func player(
  _ name: String, setting: Setting, script: String = "tilt 30deg right over 0.2s; hold 10s"
) throws -> ScenePlayer {
  var options = SceneOptions()
  (options.width, options.height, options.scale) = (120, 240, 1)
  let scene = try BuiltInScenes.load(name, options: options)
  let motion = try SceneMotionInput.script(script, rate: 100)
  let player = ScenePlayer(scene: scene, motion: motion.feed)
  player.systemReduceMotion = setting.read
  return player
}

/// Advances a player at 60 fps from `start` to `end` seconds and returns `key` at each frame.
private func values(
  _ key: String, of player: ScenePlayer, from start: Double, to end: Double
) throws -> [Double] {
  var out: [Double] = []
  var i = Int((start * 60).rounded())
  while Double(i) / 60 <= end + 1e-9 {
    let t = Double(i) / 60
    try player.advance(toTimestamp: t)
    out.append(try #require(player.scene.traceValue(key, at: t)))
    i += 1
  }
  return out
}

private let thirty = -30 * Double.pi / 180

@Suite("the system's Reduce Motion followed by a running scene (ScenePlayer.systemReduceMotion)")
private struct SystemReduceMotionTests {
  @Test("water: tilted, then at rest at once while reduced, then starting again from rest")
  func water() throws {
    let setting = Setting()
    let p = try player("waterwave", setting: setting)
    let tilt = "water.transform.rotation.z"
    let moving = try values(tilt, of: p, from: 0, to: 2)
    #expect(abs(try #require(moving.last) - thirty) < 0.02, "tilted before: \(moving.last ?? 0)")
    #expect(p.isSystemReduceMotionEnabled == false)

    setting.value.store(true, ordering: .relaxed)
    let reduced = try values(tilt, of: p, from: 2 + 1 / 60.0, to: 3)
    #expect(reduced.allSatisfy { $0 == 0 }, "level from the first reduced frame")
    let phases = try values("water.phase", of: p, from: 3 + 1 / 60.0, to: 3.5)
    #expect(Set(phases).count == 1, "the phase stands still")
    #expect(p.isSystemReduceMotionEnabled == true)
    #expect(p.hudLines(at: 3.5).contains("Reduce Motion"))

    setting.value.store(false, ordering: .relaxed)
    let again = try values(tilt, of: p, from: 3.5 + 1 / 60.0, to: 6)
    // From rest: the first frames are still near level, then the 1 s animation to 30°.
    #expect(
      abs(try #require(again.first)) < 0.1 * abs(thirty), "starts at rest: \(again.first ?? 0)")
    #expect(abs(try #require(again.last) - thirty) < 0.02, "tilted again: \(again.last ?? 0)")
    #expect(Set(try values("water.phase", of: p, from: 6 + 1 / 60.0, to: 6.2)).count > 1)
    #expect(!p.hudLines(at: 6.2).contains("Reduce Motion"))
  }

  @Test("motion effects: the viewer offset goes to (0, 0) while reduced and moves again after")
  func viewerOffset() throws {
    let setting = Setting()
    // A 10° turn about the device's y axis moves the horizontal offset (by about 0.1).
    let p = try player(
      "homescreen", setting: setting,
      script: "hold 0.5s; rotate 10deg about y over 0.5s; hold 10s")
    let before = try values("offset.horizontal", of: p, from: 0, to: 1.5)
    #expect(abs(try #require(before.last)) > 0.05, "the turn moves the offset")
    setting.value.store(true, ordering: .relaxed)
    let h = try values("offset.horizontal", of: p, from: 1.5 + 1 / 60.0, to: 2.5)
    let v = try values("offset.vertical", of: p, from: 2.5 + 1 / 60.0, to: 3)
    #expect((h + v).allSatisfy { $0 == 0 })
    setting.value.store(false, ordering: .relaxed)
    // The engine takes samples again: the held pose is still turned from the neutral pose it
    // had, so the offset is away from (0, 0) again.
    let after = try values("offset.horizontal", of: p, from: 3 + 1 / 60.0, to: 3.5)
    #expect(abs(try #require(after.last)) > 0.02, "moves again: \(after.last ?? 0)")
    #expect(p.isSystemReduceMotionEnabled == false)
  }

  @Test("a physical water: at rest while reduced, full again when motion returns")
  func physicalWater() throws {
    let setting = Setting()
    let p = try player("glass", setting: setting)
    let angles = try values("water.surface.angle", of: p, from: 0, to: 2)
    #expect(abs(try #require(angles.last)) > 0.2, "the surface turns: \(angles.last ?? 0)")
    let rest = try values("water.volume", of: p, from: 2, to: 2).first
    setting.value.store(true, ordering: .relaxed)
    let reduced = try values("water.surface.angle", of: p, from: 2 + 1 / 60.0, to: 3)
    #expect(reduced.allSatisfy { abs($0) < 1e-9 }, "level while reduced")
    setting.value.store(false, ordering: .relaxed)
    let volume = try values("water.volume", of: p, from: 3 + 1 / 60.0, to: 3 + 1 / 60.0)
    #expect(abs(try #require(volume.first) - 0.5) < 1e-6, "full again (was \(rest ?? 0))")
    let moving = try values("water.surface.angle", of: p, from: 3 + 2 / 60.0, to: 5)
    #expect(abs(try #require(moving.last)) > 0.2, "follows the motion again")
  }

  @Test("the HUD: motion first, then the offset and the water's angle (a physical water's surface)")
  func hudOrder() throws {
    let setting = Setting()
    let glass = try player("glass", setting: setting)
    _ = try values("water.surface.angle", of: glass, from: 0, to: 2)
    let g = glass.hudLines(at: 2)
    #expect(g.first?.hasPrefix("script") == true, "\(g)")
    let surface = try #require(g.first { $0.hasPrefix("surface ") }, "\(g)")
    // The surface angle, not the layer's rotation (0 for a physical water).
    let shown = try #require(Double(surface.dropFirst(8).dropLast()))
    let angle = try #require(glass.scene.traceValue("water.surface.angle", at: 2)) * 180 / .pi
    #expect(abs(shown - angle) < 0.051 && abs(shown) > 5, "\(surface) vs \(angle)")
    #expect(!g.contains { $0.hasPrefix("water ") })

    let home = try player("homescreen", setting: setting)
    _ = try values("offset.horizontal", of: home, from: 0, to: 1)
    let h = home.hudLines(at: 1)
    #expect(h.count == 2 && h[1].hasPrefix("offset "), "\(h)")
  }
}
