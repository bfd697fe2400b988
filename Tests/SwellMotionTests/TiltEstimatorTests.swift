import Foundation
import SwellGeometry
import SwellMotion
import SwellRecordings
import SwellTestSupport
import Testing

/// A device turning at a constant rate about an axis fixed in the device, seen by an
/// accelerometer alone: its attitude (device to world), its gravity (g, device frame), and the
/// accelerometer's reading (specific force, m/s²).
private struct TurningDevice {
  var attitude: Quaternion
  let rate: Vector3  // rad/s, device frame

  var gravity: Vector3 { attitude.inverseRotate(Vector3(0, 0, -1)) }

  /// The sample at `time`, with a zero gyroscope.
  func sample(at time: Double) -> IMUSample {
    IMUSample(timestamp: time, gyroscope: .zero, accelerometer: gravity * -standardGravity)
  }

  /// Turns for `dt` seconds (a device-frame rate multiplies on the right).
  mutating func advance(_ dt: Double) {
    attitude = (attitude * Quaternion(rotationVector: rate * dt)).normalized()
  }
}

/// A random unit vector (from a cube, normalised).
private func randomUnit(_ random: inout SplitMix64) -> Vector3 {
  Vector3(
    Double.random(in: -1...1, using: &random), Double.random(in: -1...1, using: &random),
    Double.random(in: -1...1, using: &random)
  ).normalized()
}

private func angle(_ a: Vector3, _ b: Vector3) -> Double {
  acos(min(max(a.normalized().dot(b.normalized()), -1), 1))
}

@Suite("Device motion from an accelerometer alone (TiltEstimator)")
private struct TiltEstimatorTests {
  @Test(
    "a turning device: gravity within its lag, the rate across gravity, the tilt as attitude",
    arguments: 0..<16)
  func turning(seed: Int) {
    var random = SplitMix64(seed: UInt64(0x7117 + seed))
    func unit() -> Vector3 { randomUnit(&random) }
    let start = Quaternion(axis: unit(), angle: Double.random(in: 0...Double.pi, using: &random))
    let speed = Double.random(in: 0.1...0.5, using: &random)
    var device = TurningDevice(attitude: start, rate: unit() * speed)
    var tilt = TiltEstimator()
    let rate = 100.0
    for i in 0..<300 {
      let t = Double(i) / rate
      let m = tilt.update(device.sample(at: t))
      if t > 1.5 {
        // Across gravity the device's rate is seen in full; along it, not at all.
        let g = device.gravity
        let across = device.rate - g * device.rate.dot(g)
        // A first-order lag of time constant τ trails a steady turn by about |ω⊥|·τ.
        #expect(
          angle(m.gravity, g) <= 1.3 * across.length * tilt.timeConstant + 1e-3,
          "seed \(seed) t \(t)")
        #expect((m.rotationRate - across).length <= 0.1 * speed + 0.005, "seed \(seed) t \(t)")
        #expect(abs(m.gravity.length - 1) < 1e-12)
        // The attitude is the tilt of that gravity: it takes it onto −z, and it has no part
        // about the gravity (the shortest arc).
        let q = m.attitude.quaternion
        #expect(isApproximatelyEqual(q.rotate(m.gravity), Vector3(0, 0, -1), tolerance: 1e-9))
        #expect(abs(Vector3(q.x, q.y, q.z).dot(m.gravity)) < 1e-9)
        // The reading is 1 g along the true gravity: what is left over is the lag.
        #expect(m.userAcceleration.length <= 1.3 * across.length * tilt.timeConstant + 1e-3)
        #expect(m.heading == -1)
      }
      device.advance(1 / rate)
    }
  }

  @Test("a step of 30°: the fusion filter fed a zero gyroscope takes seconds, this half a second")
  func step() {
    let degrees = 30.0 * Double.pi / 180
    func sample(_ i: Int) -> IMUSample {
      let t = Double(i) / 100
      let a = t < 1 ? 0 : degrees
      return IMUSample(
        timestamp: t, gyroscope: .zero,
        accelerometer: Vector3(sin(a), 0, cos(a)) * standardGravity)
    }
    var tilt = DeviceMotionFuser(
      mode: .sixD, referenceFrame: .xArbitraryZVertical, hasGyroscope: false)
    var fusion = DeviceMotionFuser(mode: .sixD, referenceFrame: .xArbitraryZVertical)
    let truth = Vector3(-sin(degrees), 0, -cos(degrees))
    var tiltError = 0.0
    var fusionError = 0.0
    for i in 0..<200 {
      let s = sample(i)
      let a = tilt.update(s)
      let b = fusion.update(s)
      if i == 150 {
        tiltError = angle(a.gravity, truth)
        fusionError = angle(b.gravity, truth)
      }
    }
    #expect(tilt.tilt != nil && fusion.tilt == nil)
    // 0.5 s after the step: e^(−0.5/0.15) of 30° is left, about 1°.
    #expect(tiltError < 1.2 * Double.pi / 180, "\(tiltError * 180 / .pi)°")
    #expect(fusionError > 10 * Double.pi / 180, "\(fusionError * 180 / .pi)°")
  }

  @Test("at rest nothing moves; a push shows as user acceleration; bad readings are skipped")
  func restPushAndBadReadings() throws {
    var tilt = TiltEstimator()
    let rest = Vector3(0, 0, standardGravity)
    var last: DeviceMotion?
    for i in 0..<100 {
      last = tilt.update(
        IMUSample(timestamp: Double(i) / 100, gyroscope: .zero, accelerometer: rest))
    }
    let still = try #require(last)
    #expect(isApproximatelyEqual(still.gravity, Vector3(0, 0, -1), tolerance: 1e-12))
    #expect(isApproximatelyEqual(still.userAcceleration, .zero, tolerance: 1e-12))
    #expect(still.rotationRate == .zero)
    // A push of 0.5 g along x for one sample: nearly all of it is user acceleration.
    let push = tilt.update(
      IMUSample(
        timestamp: 1, gyroscope: .zero,
        accelerometer: rest + Vector3(0.5 * standardGravity, 0, 0)))
    #expect(push.userAcceleration.x < -0.4 && push.userAcceleration.x > -0.5)
    // Not finite, zero, or beyond 10⁴ m/s²: the estimate stays, and stays finite.
    let before = tilt.gravity
    for (i, bad) in [
      Vector3(.nan, 0, 9.8), .zero, Vector3(0, 0, 2e4), Vector3(.infinity, 1, 1),
    ].enumerated() {
      let m = tilt.update(
        IMUSample(timestamp: 1.01 + Double(i) / 100, gyroscope: .zero, accelerometer: bad))
      #expect(m.gravity == before)
      #expect(m.attitude.quaternion.isFinite && m.rotationRate.isFinite)
      #expect(m.userAcceleration.isFinite)
    }
    // The first reading face down: a half turn, still finite.
    var down = TiltEstimator()
    let m = down.update(
      IMUSample(timestamp: 0, gyroscope: .zero, accelerometer: Vector3(0, 0, -standardGravity)))
    #expect(isApproximatelyEqual(m.attitude.quaternion.rotate(m.gravity), Vector3(0, 0, -1)))
  }

  /// The compass heading of a device-to-NWU attitude, worked out here: the device's top (+y)
  /// in the world, clockwise from north (+x), east being −y.
  private static func heading(_ q: Quaternion) -> Double {
    let v = q.rotate(Vector3(0, 1, 0))
    var h = atan2(-v.y, v.x) * 180 / .pi
    if h < 0 { h += 360 }
    return h
  }

  @Test(
    "with a magnetometer: a tilt-compensated compass gives the whole attitude and the heading",
    arguments: 0..<12)
  func compass(seed: Int) {
    var random = SplitMix64(seed: UInt64(0xC0A5 + seed))
    func unit() -> Vector3 { randomUnit(&random) }
    // A pose within 70° of face up (a compass needs the field's horizontal part), at any yaw.
    let yaw = Quaternion(
      axis: Vector3(0, 0, 1), angle: Double.random(in: 0..<(2 * .pi), using: &random))
    let lean = Quaternion(
      axis: Vector3(unit().x, unit().y, 0), angle: Double.random(in: 0...1.2, using: &random))
    let pose = (yaw * lean).normalized()
    // The field in NWU: north and down by the inclination, 50 µT.
    let inclination = Double.random(in: 0.3...1.2, using: &random)
    let field = Vector3(cos(inclination), 0, -sin(inclination)) * 50
    let declination = Double.random(in: -20...20, using: &random)
    func sample(_ q: Quaternion, _ t: Double) -> IMUSample {
      IMUSample(
        timestamp: t, gyroscope: .zero,
        accelerometer: q.inverseRotate(Vector3(0, 0, standardGravity)),
        magnetometer: q.inverseRotate(field))
    }
    var magnetic = TiltEstimator(usesMagnetometer: true)
    var trueNorth = TiltEstimator(usesMagnetometer: true, declinationDegrees: declination)
    var corrected = TiltEstimator(usesMagnetometer: true)
    var m = magnetic.update(sample(pose, 0), referenceFrame: .xMagneticNorthZVertical)
    var t = trueNorth.update(sample(pose, 0), referenceFrame: .xTrueNorthZVertical)
    let start = corrected.update(sample(pose, 0), referenceFrame: .xArbitraryCorrectedZVertical)
    // Still: the whole attitude at once.
    #expect(m.attitude.quaternion.angularDistance(to: pose) < 1e-9, "seed \(seed)")
    #expect(abs(m.heading - Self.heading(pose)) < 1e-6, "seed \(seed)")
    let truePose = Quaternion(axis: Vector3(0, 0, 1), angle: -declination * .pi / 180) * pose
    #expect(t.attitude.quaternion.angularDistance(to: truePose) < 1e-9, "seed \(seed)")
    var expected = (Self.heading(pose) + declination).truncatingRemainder(dividingBy: 360)
    if expected < 0 { expected += 360 }
    #expect(abs(t.heading - expected) < 1e-6 || abs(abs(t.heading - expected) - 360) < 1e-6)
    #expect(m.magneticField.accuracy == .low)
    // Turned 40° about the vertical and held for 2 s: the compass follows, and the corrected
    // frame turns by the same 40° from where it started.
    let turn = Quaternion(axis: Vector3(0, 0, 1), angle: 40 * Double.pi / 180)
    let turned = (turn * pose).normalized()
    var end = start
    for i in 1...200 {
      let time = Double(i) / 100
      m = magnetic.update(sample(turned, time), referenceFrame: .xMagneticNorthZVertical)
      t = trueNorth.update(sample(turned, time), referenceFrame: .xTrueNorthZVertical)
      end = corrected.update(sample(turned, time), referenceFrame: .xArbitraryCorrectedZVertical)
    }
    #expect(m.attitude.quaternion.angularDistance(to: turned) < 1e-4, "seed \(seed)")
    let relative = end.attitude.quaternion * start.attitude.quaternion.conjugate
    #expect(relative.angularDistance(to: turn) < 1e-4, "seed \(seed)")
    // A magnetometer reading that is not finite is skipped: nothing in the output is NaN.
    let bad = magnetic.update(
      IMUSample(
        timestamp: 2.01, gyroscope: .zero,
        accelerometer: turned.inverseRotate(Vector3(0, 0, standardGravity)),
        magnetometer: Vector3(.nan, 0, 1)), referenceFrame: .xMagneticNorthZVertical)
    #expect(bad.magneticField.field.isFinite && bad.attitude.quaternion.isFinite)
    #expect(bad.attitude.quaternion.angularDistance(to: turned) < 1e-4)
    // Without the magnetometer the attitude is the tilt alone, whatever the yaw.
    var tiltOnly = TiltEstimator()
    let level = tiltOnly.update(sample(turned, 0), referenceFrame: .xMagneticNorthZVertical)
    #expect(level.heading == -1)
    #expect(
      isApproximatelyEqual(
        level.attitude.quaternion.rotate(level.gravity), Vector3(0, 0, -1), tolerance: 1e-9))
  }

  /// A raw recording of a device tilting 30° about y at 1 s, its gyroscope column zero except,
  /// when given, one sample.
  private static func recording(gyroscopeAt index: Int? = nil) -> MotionRecording {
    let samples = (0..<300).map { i -> IMUSample in
      let t = Double(i) / 100
      let a = t < 1 ? 0 : 30.0 * Double.pi / 180
      return IMUSample(
        timestamp: t, gyroscope: i == index ? Vector3(0, 0.001, 0) : .zero,
        accelerometer: Vector3(sin(a), 0, cos(a)) * standardGravity)
    }
    return MotionRecording(name: "tilt", format: .rawIMU, content: .samples(samples))
  }

  @Test("a recording and a manager without a gyroscope estimate from the accelerometer")
  func recordingAndManager() async throws {
    let gyroless = Self.recording()
    #expect(!gyroless.hasGyroscope)
    #expect(Self.recording(gyroscopeAt: 250).hasGyroscope)
    let truth = Vector3(-0.5, 0, -(0.75).squareRoot())
    let motion = gyroless.deviceMotion()
    #expect(angle(motion[160].gravity, truth) < 1.2 * Double.pi / 180)
    // The same recording with one gyroscope reading is fused, and lags far behind at 1.6 s.
    let fused = Self.recording(gyroscopeAt: 250).deviceMotion()
    #expect(angle(fused[160].gravity, truth) > 10 * Double.pi / 180)
    // Through a MotionManager, from the source's own word.
    let source = RecordingSource(gyroless)
    #expect(!source.hasGyroscope)
    let manager = MotionManager(source: source)
    var delivered: [DeviceMotion] = []
    for try await m in manager.deviceMotionUpdates(using: .xArbitraryZVertical) {
      delivered.append(m)
    }
    #expect(delivered.count == 300)
    #expect(angle(delivered[160].gravity, truth) < 1.2 * Double.pi / 180)
  }

  @Test("a raw CSV streamed from disk: zero gyroscope columns are no gyroscope, one reading is one")
  func streamedFile() throws {
    let folder = try scratchFolder("tilt-csv")
    defer { try? FileManager.default.removeItem(at: folder) }
    for late in [nil, 280] as [Int?] {
      let url = folder.appendingPathComponent("tilt-\(late ?? 0).csv")
      var text = "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n"
      for i in 0..<300 {
        let gy = i == late ? "0.002" : "0"
        text += "\(Double(i) / 100),0,\(gy),0,0,0,9.80665,,,\n"
      }
      try Data(text.utf8).write(to: url)
      let source = try RecordingSource(contentsOf: url)
      #expect(source.hasGyroscope == (late != nil))
      let report = try RecordingFusion().run(
        source, to: folder.appendingPathComponent("out-\(late ?? 0).csv"))
      #expect(report.accelerometerOnly == (late == nil))
      #expect(report.summary(output: "o.csv").contains("accelerometer only") == (late == nil))
    }
  }
}
