import SwellEffects
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

@testable import SwellScenes

/// The water's tilt (radians) after a second of keyboard motion in an orientation, with `right`
/// pressed three times at 0.2 s when `press` is set.
private func waterTilt(_ orientation: InterfaceOrientation, press: Bool) throws -> Double {
  var o = SceneOptions()
  o.orientation = orientation
  let scene = try #require(BuiltInScenes.make("waterwave", options: o) as? FileScene)
  let feed = TiltMotionFeed(kind: .keyboard)
  feed.orientation = scene.orientation
  var driver = SceneDriver(scene: scene, motion: feed, framesPerSecond: 60)
  var time = 0.0
  for i in 0..<90 {
    let frame = try #require(try driver.step())
    time = frame.targetTimestamp
    if press && i == 12 { for _ in 0..<3 { feed.press(.right, at: frame.timestamp) } }
  }
  let row = driver.traceRow(at: time)
  let column = try #require(scene.traceKeys.firstIndex(of: "water.transform.rotation.z")) + 1
  return row[column]
}

@Suite("Keyboard and mouse tilt in every interface orientation")
private struct TiltOrientationTests {
  @Test(
    "a held motion keeps the attitude's gravity and reads back as the portrait motion",
    arguments: InterfaceOrientation.allCases)
  func heldMotion(orientation: InterfaceOrientation) {
    var rng = SplitMix64(seed: 7)
    var controller = TiltController()
    for k in 0..<20 {
      let t = Double(k) * 0.1
      controller.setTarget(
        pitch: Double.random(in: -0.6...0.6, using: &rng),
        roll: Double.random(in: -0.6...0.6, using: &rng), at: t)
      let m = controller.motion(at: t + 0.05)
      let h = TiltMotionFeed.held(m, in: orientation)
      let before = m.attitude.quaternion.rotate(m.gravity)
      let after = h.attitude.quaternion.rotate(h.gravity)
      #expect((before - after).length < 1e-12, "\(orientation) step \(k)")
      for (a, b) in [
        (m.gravity, h.gravity), (m.rotationRate, h.rotationRate),
        (m.userAcceleration, h.userAcceleration),
      ] {
        #expect((orientation.interfaceVector(fromDevice: b) - a).length < 1e-12)
      }
    }
  }

  @Test(
    "at rest the water is level in every orientation, and the arrows tilt it as in portrait",
    arguments: InterfaceOrientation.allCases)
  func levelAndArrows(orientation: InterfaceOrientation) throws {
    #expect(abs(try waterTilt(orientation, press: false)) < 1e-9)
    let portrait = try waterTilt(.portrait, press: true)
    #expect(abs(portrait) > 0.1, "three 5° steps tilt the water: \(portrait)")
    #expect(abs(try waterTilt(orientation, press: true) - portrait) < 1e-9)
  }
}
