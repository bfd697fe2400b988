import Foundation
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellScenes
import Testing

/// A scene with motion effects: a card whose `center.x` follows the horizontal offset ±40 pt.
private func effectScene() throws -> FileScene {
  let json = """
    {"swellScene": 1, "name": "fx",
     "canvas": {"width": 300, "height": 300, "scale": 1, "background": "#000000"},
     "layers": [{"type": "shape", "name": "card", "frame": [100, 100, 100, 100], "fill": "#FFFFFF",
                 "motionEffects": [{"effect": "interpolating", "keyPath": "center.x",
                                    "type": "tiltAlongHorizontalAxis",
                                    "minimumRelativeValue": -40, "maximumRelativeValue": 40}]}]}
    """
  return FileScene(file: try SceneFile.decode(Data(json.utf8), source: "fx.json"))
}

/// Drives a scene at 60 fps through `motion` (timestamps from 0), calling `recenter` once at
/// the first frame at or after `recenterAt`; returns (time, horizontal offset) per frame.
private func drive(
  _ scene: any Scene, motion: [DeviceMotion], duration: Double, recenterAt: Double?,
  recenter: (Double) -> Void
) -> [(time: Double, horizontal: Double)] {
  var link = DisplayLink(preferredFramesPerSecond: 60)
  var next = 0
  var done = recenterAt == nil
  var rows: [(time: Double, horizontal: Double)] = []
  while let frame = link.step(), frame.targetTimestamp <= duration + 1e-9 {
    let t = frame.targetTimestamp
    while next < motion.count && motion[next].timestamp <= t + 1e-9 {
      scene.receive(motion[next])
      next += 1
    }
    scene.advance(to: frame)
    if !done, let at = recenterAt, t >= at - 1e-9 {
      recenter(t)
      done = true
    }
    rows.append((t, scene.traceValue("offset.horizontal", at: t) ?? .nan))
  }
  return rows
}

/// Still for 0.5 s, a 20° turn about the device y axis over 0.5 s, held to 2 s, back to 0°
/// over 0.5 s, then still to 3 s.
private func tiltAndBack() -> [DeviceMotion] {
  (0...300).map { i in
    let t = Double(i) / 100
    let up = min(1, max(0, (t - 0.5) / 0.5))
    let down = min(1, max(0, (t - 2) / 0.5))
    let q = Quaternion(axis: .unitY, angle: (up - down) * 20 * .pi / 180)
    return DeviceMotion.resting(timestamp: t, attitude: Attitude(quaternion: q))
  }
}

@Suite("re-centring the viewer offset (the live view's r key)")
private struct RecenteringTests {
  /// Checks one scene kind: without re-centring a held 20° tilt keeps an offset near 20/90;
  /// after re-centring at 1.5 s it is 0 at once and stays within the dead-band while held;
  /// turning back to the old neutral pose then gives about −20/90.
  private func check(make: () throws -> any Scene, recenter: (any Scene, Double) -> Void) throws {
    let motion = tiltAndBack()
    let plain = drive(try make(), motion: motion, duration: 3, recenterAt: nil) { _ in }
    let scene = try make()
    let rows = drive(scene, motion: motion, duration: 3, recenterAt: 1.5) { recenter(scene, $0) }
    #expect(plain.count == rows.count)
    for (a, b) in zip(plain, rows) where b.time < 1.5 - 1e-9 {
      #expect(a.horizontal == b.horizontal, "t = \(b.time): identical before re-centring")
    }
    let heldPlain = try #require(plain.first { abs($0.time - 1.9) < 0.01 })
    #expect(heldPlain.horizontal > 0.18, "no re-centring: still tilted \(heldPlain.horizontal)")
    for row in rows where row.time >= 1.5 - 1e-9 && row.time <= 2 {
      #expect(abs(row.horizontal) < 0.015, "t = \(row.time): \(row.horizontal)")
    }
    let atRecenter = try #require(rows.first { $0.time >= 1.5 - 1e-9 })
    #expect(atRecenter.horizontal == 0)
    let back = try #require(rows.last)
    #expect(
      back.horizontal < -0.18 && back.horizontal > -20.0 / 90 - 1e-9,
      "back at the old neutral pose: \(back.horizontal)")
  }

  @Test("homescreen: recenterViewerOffset(at:) makes the held tilt neutral")
  func homescreen() throws {
    try check(
      make: { FileScene(file: .homescreen) },
      recenter: { scene, t in (scene as? FileScene)?.recenterViewerOffset(at: t) })
  }

  @Test("scene file with motion effects: recenterViewerOffset(at:) makes the held tilt neutral")
  func fileScene() throws {
    try check(
      make: { try effectScene() },
      recenter: { scene, t in (scene as? FileScene)?.recenterViewerOffset(at: t) })
    // The card follows: after re-centring it is back at its model position.
    let scene = try effectScene()
    _ = drive(scene, motion: tiltAndBack(), duration: 1.6, recenterAt: 1.5) { t in
      scene.recenterViewerOffset(at: t)
    }
    let card = try #require(scene.traceValue("card.position.x", at: 1.6))
    #expect(card == 150)
  }
}
