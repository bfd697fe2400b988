import Foundation
import SwellCairo
import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellPlayback
import SwellRender
import SwellScenes
import Testing

/// A scene written outside the package: a plain layer tree that records what the player asks
/// of it.
private final class CustomScene: Scene {
  let name = "custom"
  private(set) var size = Size(width: 40, height: 20)
  private(set) var scale = 1.0
  let background = Color(red: 0, green: 0, blue: 0)
  let root = Layer()
  let traceKeys: [String] = []
  var orientation: InterfaceOrientation { .landscapeLeft }
  var isResizable: Bool { true }
  private(set) var layouts: [(Size, Double)] = []
  private(set) var recentred: [Double] = []
  private(set) var reduceMotion: [Bool] = []

  init() { root.bounds = Rect(x: 0, y: 0, width: 40, height: 20) }

  func receive(_ motion: DeviceMotion) {}
  func advance(to frame: DisplayLinkFrame) {}
  func traceValue(_ key: String, at time: Double) -> Double? { nil }
  func layOut(size: Size, scale: Double) {
    layouts.append((size, scale))
    (self.size, self.scale) = (size, scale)
    root.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
  }
  func recenterViewerOffset(at time: Double) { recentred.append(time) }
  func setSystemReduceMotion(_ enabled: Bool) { reduceMotion.append(enabled) }
}

/// A motion feed written outside the package: a live-like source that records the keys, the
/// pointer and the orientation it is given, and has arrivals to report.
private final class CustomFeed: SceneMotionFeed {
  let name = "custom feed"
  let startTime = 0.0
  private(set) var presses: [TiltDirection] = []
  private(set) var points: [(Double, Double)] = []
  private(set) var orientations: [InterfaceOrientation] = []
  var pendingArrivals: [Double] = [10, 10.5]

  func motions(upTo time: Double) throws -> [DeviceMotion] { [] }
  func statusLine(at time: Double) -> String { "custom" }
  var latchesLate: Bool { true }
  func takeArrivals() -> [Double] {
    defer { pendingArrivals = [] }
    return pendingArrivals
  }
  func press(_ direction: TiltDirection, at time: Double) { presses.append(direction) }
  func point(x: Double, y: Double, at time: Double) { points.append((x, y)) }
  func setInterfaceOrientation(_ orientation: InterfaceOrientation) {
    orientations.append(orientation)
  }
}

/// A feed that implements nothing optional.
private final class PlainFeed: SceneMotionFeed {
  let name = "plain"
  let startTime = 0.0
  func motions(upTo time: Double) throws -> [DeviceMotion] { [] }
  func statusLine(at time: Double) -> String { "plain" }
}

@Suite("A scene and a feed written outside the package get every capability of the player")
private struct SceneCapabilityTests {
  @Test("orientation, resizing, re-centring, keys, pointer, late latching, latency, Reduce Motion")
  func everyCapability() throws {
    let scene = CustomScene()
    let feed = CustomFeed()
    let player = ScenePlayer(scene: scene, motion: feed)
    #expect(feed.orientations == [.landscapeLeft], "the feed is told the scene's orientation")

    // Resizing: drawn into a buffer of another size, the scene is laid out to fill it.
    let image = try ImageSurface(pixelWidth: 90, pixelHeight: 30)
    try player.draw(at: 0, into: image)
    let layout = try #require(scene.layouts.last)
    #expect(
      layout.0
        == ScenePlayer.layoutSize(for: Size(width: 40, height: 20), pixelWidth: 90, pixelHeight: 30)
    )
    #expect(abs(layout.1 * layout.0.width - 90) < 1e-9)

    player.recenterViewerOffset(at: 1.5)
    #expect(scene.recentred == [1.5])
    player.tilt(.left, at: 2)
    player.point(x: 0.25, y: 0.75, at: 2)
    #expect(feed.presses == [.left])
    #expect(feed.points.count == 1 && feed.points[0] == (0.25, 0.75))

    #expect(player.latchesLate)
    #expect(player.motionLatencies(presentedAt: 11) == [1, 0.5])
    #expect(player.motionLatencies(presentedAt: 12).isEmpty, "each arrival counted once")

    player.systemReduceMotion = { true }
    try player.advance(toTimestamp: 3)
    #expect(scene.reduceMotion == [true])
  }

  @Test("a feed without the optional capabilities keeps the defaults")
  func defaults() throws {
    let player = ScenePlayer(scene: CustomScene(), motion: PlainFeed())
    #expect(!player.latchesLate)
    #expect(player.motionLatencies(presentedAt: 5).isEmpty)
    player.tilt(.up, at: 0)  // ignored, no crash
  }
}
