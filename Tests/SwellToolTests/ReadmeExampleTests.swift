import Foundation
import Glibc
import SwellEffects
import SwellEvdev
import SwellGeometry
import SwellLayers
import SwellLive
import SwellMotion
import SwellScenes
import SwellSensors
import SwellTestSupport
import Synchronization
import Testing

/// The library examples of README.md, compiled and checked, so the README stays true.
@Suite("README examples")
private struct ReadmeExampleTests {
  @Test("device motion from raw samples: a device lying still reads gravity (0, 0, -1) g")
  func fusionExample() {
    // docs/porting.md: "Device motion from raw IMU samples"
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
    // docs/porting.md: "The layer tree"
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
    // docs/porting.md: "Scripted motion"
    let script = try MotionScript(parsing: "hold 1s; tilt 30deg right over 0.5s; hold 1s")
    let motion = script.motion(at: 2)
    #expect(
      isApproximatelyEqual(
        motion.gravity, Vector3(0.5, -0.866_025_403_784_438_6, 0), tolerance: 1e-9))
  }

  @Test(
    "device motion from a game controller: a DualSense lying face up reads gravity (0, 0, -1) g")
  func padExample() async throws {
    // README: "Device motion from a game controller", on a fake tree (a FIFO for the node, the
    // axes from its evemu description, since a FIFO cannot answer EVIOCGABS).
    let tree = try FakeEvdevTree()
    try tree.addPad(5, .dualSense)
    var pad = EvdevSourceConfiguration()
    pad.device = "dualsense"  // nil: the first motion sensor found
    pad.sysfsRoot = tree.sysfs
    pad.devRoot = tree.dev
    for a in FakeEvdevDevice.dualSense.axes {
      pad.axisOverrides[a.code] = EvdevAbsInfo(
        minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz, resolution: a.resolution)
    }
    let manager = MotionManager(source: try EvdevSource(configuration: pad))
    let seen = Mutex<[DeviceMotion]>([])
    manager.startDeviceMotionUpdates(to: OperationQueue()) { motion, error in
      guard let motion else { return }
      let tilt = motion.gravity
      #expect(tilt.x.isFinite && motion.rotationRate.x.isFinite)
      seen.withLock { $0.append(motion) }
    }
    defer { manager.stopDeviceMotionUpdates() }
    signal(SIGPIPE, SIG_IGN)
    let fd = open(tree.node(5), O_WRONLY | O_NONBLOCK)
    try #require(fd >= 0)
    defer { close(fd) }
    // Face up: device +z up is ABS_Y (SDL's frame), 8192 per g; MSC_TIMESTAMP every 4 ms.
    let deadline = TestDeadline(seconds: 30)
    var k: Int64 = 0
    while seen.withLock({ $0.count }) < 50, !deadline.hasPassed {
      let bytes = inputEventBytes(
        motionFrame(
          time: 1_000_000 + 4000 * k, axes: [(0, 0), (1, 8192), (2, 0)],
          deviceMicroseconds: UInt32(4000 * k)))
      _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      k += 1
      try await Task.sleep(for: .milliseconds(4))
    }
    let last = try #require(seen.withLock { $0.last })
    #expect(isApproximatelyEqual(last.gravity, Vector3(0, 0, -1), tolerance: 0.01))
  }

  @Test("the water wave in a window: the README's lines build the session the example runs")
  func windowExample() throws {
    // README: "The water wave in your own window". `session.run()` opens the SDL window; the
    // same calls run under Xvfb in Examples/waterwave-window (ExamplesTests).
    let scene = FileScene(file: .waterwave, options: SceneOptions())
    var session = LiveSession(
      scene: scene, motion: TiltMotionFeed(kind: .keyboard), title: "WaterWave")
    #expect(session.options.frameLimit == nil, "runs until the window is closed")
    session.onMessage = { print($0) }
    let example = try String(
      contentsOf: LiveTool.package.appendingPathComponent("Examples/waterwave-window/main.swift"),
      encoding: .utf8)
    for line in [
      "FileScene(file: .waterwave", "TiltMotionFeed(kind: .keyboard)", "LiveSession(",
      "session.run()",
    ] {
      #expect(example.contains(line), "the example uses \(line)")
    }
  }

  @Test("the viewer-offset engine drives the effect: tilted to the right, the wallpaper moves")
  func engineExample() {
    // README: "A motion effect", the engine's lines.
    struct Frame { var targetTimestamp: Double }
    let wallpaper = Layer(name: "wallpaper", frame: Rect(x: 0, y: 0, width: 100, height: 100))
    var effect = InterpolatingMotionEffect(keyPath: "center.x", type: .tiltAlongHorizontalAxis)
    effect.minimumRelativeValue = .number(-40)
    effect.maximumRelativeValue = .number(40)
    wallpaper.addMotionEffect(effect)
    var engine = ViewerOffsetEngine()
    var moved = false
    for i in 0..<120 {
      let t = Double(i) / 60
      // Still, then turned 20° about the device's y axis (as ViewerOffsetEngineTests do).
      let angle = t < 0.5 ? 0 : 20 * Double.pi / 180
      let attitude = Attitude(quaternion: Quaternion(axis: .unitY, angle: angle))
      let motion = DeviceMotion.resting(timestamp: t, attitude: attitude)
      let frame = Frame(targetTimestamp: t)
      engine.receive(motion)
      if let offset = engine.advance(to: frame.targetTimestamp) {
        wallpaper.applyMotionEffects(for: offset)
        if offset.horizontal != 0 { moved = true }
      }
    }
    let x = wallpaper.presentationValue(forKeyPath: "position.x", at: 2)?.number ?? 50
    #expect(moved)
    #expect(x != 50, "the effect moved the wallpaper: \(x)")
  }

  @Test(
    "every line of a document's Swift snippets is in these tests or the example they name",
    arguments: [
      (
        "README.md", 3,
        ["Tests/SwellToolTests/ReadmeExampleTests.swift", "Examples/waterwave-window/main.swift"]
      ),
      (
        "docs/embedding.md", 8,
        [
          "Tests/SwellToolTests/EmbeddingGuideTests.swift",
          "Examples/gtk-waterwave/Sources/gtk-waterwave/GtkWaterwave.swift",
        ]
      ),
    ])
  func documentInSync(document: String, snippets: Int, compiledIn: [String]) throws {
    let readme = try String(
      contentsOf: LiveTool.package.appendingPathComponent(document), encoding: .utf8)
    let sources = try compiledIn.map {
      try String(contentsOf: LiveTool.package.appendingPathComponent($0), encoding: .utf8)
    }.joined()
    func squeeze(_ s: some StringProtocol) -> String { String(s.filter { !$0.isWhitespace }) }
    let code = squeeze(sources)
    let blocks = readme.components(separatedBy: "```swift\n").dropFirst()
      .map { $0.components(separatedBy: "```")[0] }
      .filter { !$0.contains("Package.swift") }
    #expect(blocks.count == snippets)
    for block in blocks {
      for line in block.split(separator: "\n") {
        let codePart = line.components(separatedBy: "//")[0]
        let s = squeeze(codePart)
        if s.isEmpty || s == "}" { continue }
        let found = code.contains(s)
        #expect(found, "\(document) line not compiled by a test: \(line)")
      }
    }
  }
}
