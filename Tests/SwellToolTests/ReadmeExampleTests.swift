import Foundation
import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellTestSupport
import Testing

/// The library examples of README.md, compiled and checked, so the README stays true.
@Suite("README examples")
struct ReadmeExampleTests {
  @Test("device motion from raw samples: a device lying still reads gravity (0, 0, -1) g")
  func fusionExample() {
    // README: "Device motion from raw IMU samples"
    var estimator = AttitudeEstimator(mode: .sixD)
    var motion: DeviceMotion?
    for i in 0..<400 {
      let sample = IMUSample(
        timestamp: Double(i) / 100, gyroscope: Vector3(0.002, -0.001, 0.0005),
        accelerometer: Vector3(0, 0, 9.81))
      motion = estimator.update(sample, referenceFrame: .xArbitraryZVertical)
    }
    let m = motion ?? .resting(timestamp: 0, attitude: .identity)
    #expect(isApproximatelyEqual(m.gravity, Vector3(0, 0, -1), tolerance: 0.01))
    #expect(abs(m.attitude.pitch) < 0.01 && abs(m.attitude.roll) < 0.01)
  }

  @Test("an interpolating motion effect moves center.x by ±40 points, presentation only")
  func effectExample() {
    // README: "Motion effects"
    let layer = Layer(name: "wallpaper", frame: Rect(x: 0, y: 0, width: 100, height: 100))
    var effect = InterpolatingMotionEffect(keyPath: "center.x", type: .tiltAlongHorizontalAxis)
    effect.minimumRelativeValue = .number(-40)
    effect.maximumRelativeValue = .number(40)
    layer.addMotionEffect(effect)
    layer.applyMotionEffects(for: ViewerOffset(horizontal: 0.5, vertical: 0))
    #expect(layer.position.x == 50)
    #expect(layer.presentationValue(forKeyPath: "position.x", at: 0) == .number(70))
    layer.removeMotionEffect(effect)
  }

  @Test("UIView.animate-style retargeting blends instead of jumping")
  func animationExample() {
    // README: "The layer tree"
    let water = Layer(name: "water", frame: Rect(x: 0, y: 0, width: 390, height: 844))
    water.animate(keyPath: "transform.rotation.z", to: .number(-0.5), duration: 1, at: 0)
    water.animate(keyPath: "transform.rotation.z", to: .number(0.2), duration: 1, at: 0.5)
    let halfway = water.presentationValue(forKeyPath: "transform.rotation.z", at: 0.5)?.number
    #expect(halfway.map { abs($0 + 0.25) < 1e-9 } == true)
    #expect(
      water.value(forKeyPath: "transform.rotation.z")?.number.map { abs($0 - 0.2) < 1e-12 } == true)
  }

  @Test("a motion script gives consistent device motion")
  func scriptExample() throws {
    // README: "Scripted motion"
    let script = try MotionScript(parsing: "hold 1s; tilt 30deg right over 0.5s; hold 1s")
    let motion = script.motion(at: 2)
    #expect(
      isApproximatelyEqual(
        motion.gravity, Vector3(0.5, -0.866_025_403_784_438_6, 0), tolerance: 1e-9))
  }
}
