import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@testable import SwellMotion
@testable import SwellRecordings

private func makeFolder(_ files: [String: String]) throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "swell-import-tests-\(UInt64.random(in: 0...UInt64.max))")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  for (name, text) in files {
    try Data(text.utf8).write(to: url.appendingPathComponent(name))
  }
  return url
}

private func expectError(_ body: () throws -> Void, _ expected: String) {
  do {
    try body()
    Issue.record("expected the error: \(expected)")
  } catch {
    #expect("\(error)" == expected)
  }
}

/// A Sensor Logger file with the z,y,x column order; the value of axis k at time t is
/// `f(t)[k]`.
private func sensorLoggerFile(
  start: Int64, periodNanos: Int64, count: Int, _ f: (Double) -> Vector3
) -> String {
  var s = "time,seconds_elapsed,z,y,x\n"
  for i in 0..<count {
    let t = start + Int64(i) * periodNanos
    let elapsed = Double(t - 1_700_000_000_000_000_000) * 1e-9
    let v = f(elapsed)
    s += "\(t),\(elapsed),\(v.z),\(v.y),\(v.x)\n"
  }
  return s
}

@Suite("Importers")
private struct ImportTests {
  private let realFolder = fixtures.appendingPathComponent("sensorlogger-ios-rotation")

  @Test("the real Sensor Logger iOS export: platform, merge, units and signs")
  func realSensorLogger() throws {
    let r = try MotionRecording.load(from: realFolder)
    #expect(r.format == .sensorLogger(platform: .iOS))
    guard case .samples(let s) = r.content else {
      Issue.record("expected samples")
      return
    }
    // Golden values computed independently (Python, csv module): 2706 gyroscope rows, of
    // which 2704 lie inside the accelerometer's and magnetometer's spans; accelerometer
    // interpolated at the gyroscope's times and turned into specific force (× −9.80665).
    #expect(s.count == 2704)
    let first = try #require(s.first)
    #expect(isApproximatelyEqual(first.timestamp, 0.120_237_549, absolute: 1e-12))
    #expect(
      isApproximatelyEqual(
        first.gyroscope,
        Vector3(0.062139272689819336, -0.16851603984832764, 0.0007491472060792148)))
    #expect(
      isApproximatelyEqual(
        first.accelerometer, Vector3(-0.6806591453132826, 2.521954339272022, 9.116907653488026),
        tolerance: 1e-9))
    let m = try #require(first.magnetometer)
    #expect(
      isApproximatelyEqual(
        m, Vector3(215.0507419594318, 70.34799827428911, -583.3687025786224), tolerance: 1e-9))
    let last = try #require(s.last)
    #expect(isApproximatelyEqual(last.timestamp, 27.216_927_549, absolute: 1e-9))
    #expect(
      isApproximatelyEqual(
        last.accelerometer,
        Vector3(-0.0006621532152146022, 0.14846941668067454, 9.902811506546811),
        tolerance: 1e-9))
    // Lying face up for the last second (README): specific force about +1 g on z.
    let rest = s.filter { $0.timestamp > 26.5 }
    let mean = rest.reduce(Vector3.zero) { $0 + $1.accelerometer } / Double(rest.count)
    #expect(isApproximatelyEqual(mean, Vector3(0, 0, 9.7), tolerance: 0.25))
  }

  @Test("the zip of the real export loads the same samples as its folder")
  func realZip() throws {
    let folder = try MotionRecording.load(from: realFolder)
    let zip = try MotionRecording.load(
      from: fixtures.appendingPathComponent("sensorlogger-ios-rotation.zip"))
    #expect(zip.content == folder.content)
    #expect(zip.format == .sensorLogger(platform: .iOS))
    #expect(zip.name == "sensorlogger-ios-rotation.zip")
  }

  @Test("Android export: TotalAcceleration as is, metadata platform, exact linear merge")
  func android() throws {
    let t0: Int64 = 1_700_000_000_000_000_000
    // Linear signals: linear interpolation must reproduce them exactly (up to rounding).
    let folder = try makeFolder([
      "Metadata.csv": "version,device name,recording time,platform\n3,Pixel,2024-01-01,android\n",
      "Gyroscope.csv": sensorLoggerFile(start: t0 + 5_000_000, periodNanos: 10_000_000, count: 50) {
        Vector3(0.1 * $0, -0.2, 0.3)
      },
      "TotalAcceleration.csv": sensorLoggerFile(start: t0, periodNanos: 7_000_000, count: 80) {
        Vector3(1, 2 * $0, 9.81)
      },
      "Accelerometer.csv": sensorLoggerFile(start: t0, periodNanos: 7_000_000, count: 80) { _ in
        Vector3(100, 100, 100)
      },
      "Magnetometer.csv": sensorLoggerFile(start: t0, periodNanos: 20_000_000, count: 30) {
        Vector3(20, -5 * $0, -40)
      },
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let r = try MotionRecording.load(from: folder)
    #expect(r.format == .sensorLogger(platform: .android))
    guard case .samples(let s) = r.content else {
      Issue.record("expected samples")
      return
    }
    // Gyro 0.005...0.495; accel ends at 0.553, magnetometer at 0.58: all 50 kept.
    #expect(s.count == 50)
    for sample in s {
      let t = sample.timestamp
      #expect(isApproximatelyEqual(sample.accelerometer, Vector3(1, 2 * t, 9.81), tolerance: 1e-9))
      let m = try #require(sample.magnetometer)
      #expect(isApproximatelyEqual(m, Vector3(20, -5 * t, -40), tolerance: 1e-9))
      #expect(isApproximatelyEqual(sample.gyroscope, Vector3(0.1 * t, -0.2, 0.3), tolerance: 1e-12))
    }
    #expect(isApproximatelyEqual(s[0].timestamp, 0.005, absolute: 1e-12))
  }

  @Test("iOS export with Accelerometer + Gravity: summed and negated into specific force")
  func iOSUserAccelerationPlusGravity() throws {
    let t0: Int64 = 1_700_000_000_000_000_000
    let folder = try makeFolder([
      "Gyroscope.csv": sensorLoggerFile(start: t0, periodNanos: 10_000_000, count: 20) { _ in
        .zero
      },
      // iOS signs, m/s²: lying face up, gravity −9.80665 on z; user acceleration +1 on x.
      "Gravity.csv": sensorLoggerFile(start: t0, periodNanos: 10_000_000, count: 20) { _ in
        Vector3(0, 0, -9.80665)
      },
      "Accelerometer.csv": sensorLoggerFile(start: t0, periodNanos: 10_000_000, count: 20) { _ in
        Vector3(1, 0, 0)
      },
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let r = try MotionRecording.load(from: folder)
    #expect(r.format == .sensorLogger(platform: .iOS))
    guard case .samples(let s) = r.content else {
      Issue.record("expected samples")
      return
    }
    #expect(s.count == 20)
    #expect(isApproximatelyEqual(s[3].accelerometer, Vector3(-1, 0, 9.80665), tolerance: 1e-12))
    #expect(s[3].magnetometer == nil)
    #expect(!r.hasMagnetometer)
  }

  @Test("Sensor Logger exports missing a sensor say what was found and what is needed")
  func missingSensors() throws {
    let t0: Int64 = 1_700_000_000_000_000_000
    let gyro = sensorLoggerFile(start: t0, periodNanos: 10_000_000, count: 3) { _ in .zero }
    let a = try makeFolder(["Accelerometer.csv": gyro, "Gravity.csv": gyro])
    defer { try? FileManager.default.removeItem(at: a) }
    expectError(
      { _ = try MotionRecording.load(from: a) },
      "\(a.lastPathComponent): Sensor Logger export without a gyroscope (Gyroscope.csv or "
        + "GyroscopeUncalibrated.csv); found Accelerometer.csv, Gravity.csv")
    let b = try makeFolder(["Gyroscope.csv": gyro, "Accelerometer.csv": gyro])
    defer { try? FileManager.default.removeItem(at: b) }
    expectError(
      { _ = try MotionRecording.load(from: b) },
      "\(b.lastPathComponent): Sensor Logger export without gravity: Accelerometer.csv is "
        + "acceleration without gravity, so Gravity.csv, TotalAcceleration.csv or "
        + "AccelerometerUncalibrated.csv is needed; found Accelerometer.csv, Gyroscope.csv")
    let c = try makeFolder([
      "Gyroscope.csv": gyro,
      "TotalAcceleration.csv": "time,seconds_elapsed,z,y,x\n1700000000000000000,0,1,2,x\n",
    ])
    defer { try? FileManager.default.removeItem(at: c) }
    expectError(
      { _ = try MotionRecording.load(from: c) },
      "\(c.lastPathComponent)/TotalAcceleration.csv:2: column 'x': 'x' is not a finite number")
  }

  @Test("phyphox: quoted comma export, and a semicolon export with decimal commas")
  func phyphox() throws {
    let comma = """
      "Time (s)","Gyroscope x (rad/s)","Gyroscope y (rad/s)","Gyroscope z (rad/s)","Absolute (rad/s)"
      0.00,0.1,0.2,0.3,0.37
      0.01,0.1,0.2,0.3,0.37
      0.02,0.1,0.2,0.3,0.37
      0.03,0.1,0.2,0.3,0.37

      """
    let semicolon = """
      "Time (s)";"Acceleration x (m/s^2)";"Acceleration y (m/s^2)";"Acceleration z (m/s^2)";\
      "Absolute acceleration (m/s^2)"
      0,005;0;1,5;9,8;9,9
      0,025;0;2,5;9,8;10,1

      """
    let folder = try makeFolder(["Gyroscope.csv": comma, "Accelerometer.csv": semicolon])
    defer { try? FileManager.default.removeItem(at: folder) }
    let r = try MotionRecording.load(from: folder)
    #expect(r.format == .phyphox)
    guard case .samples(let s) = r.content else {
      Issue.record("expected samples")
      return
    }
    // Gyro times 0.01 and 0.02 fall inside the accelerometer's 0.005...0.025.
    #expect(s.map(\.timestamp) == [0.01, 0.02])
    #expect(isApproximatelyEqual(s[0].accelerometer, Vector3(0, 1.75, 9.8), tolerance: 1e-12))
    #expect(isApproximatelyEqual(s[1].accelerometer, Vector3(0, 2.25, 9.8), tolerance: 1e-12))
    #expect(s[0].gyroscope == Vector3(0.1, 0.2, 0.3))
  }

  @Test("phyphox: one tab-separated table with sets side by side, and magnetometer")
  func phyphoxOneTable() throws {
    let text =
      "Time (s)\tAcceleration x (m/s^2)\tAcceleration y (m/s^2)\tAcceleration z (m/s^2)\t"
      + "Time (s)\tGyroscope x (rad/s)\tGyroscope y (rad/s)\tGyroscope z (rad/s)\t"
      + "Time (s)\tMagnetic field x (µT)\tMagnetic field y (µT)\tMagnetic field z (µT)\n"
      + "0\t0\t0\t9\t0.1\t1\t2\t3\t0\t10\t20\t30\n"
      + "0.2\t0\t0\t11\t0.15\t1\t2\t3\t0.3\t40\t20\t30\n"
      + "\t\t\t\t0.3\t1\t2\t3\t\t\t\t\n"
    let r = try MotionRecording.load(file: Data(text.utf8), name: "table.csv")
    guard case .samples(let s) = r.content else {
      Issue.record("expected samples")
      return
    }
    // The gyro row at 0.3 lies after the accelerometer's last time (0.2): dropped.
    #expect(s.count == 2)
    #expect(isApproximatelyEqual(s[0].accelerometer, Vector3(0, 0, 10), tolerance: 1e-12))
    #expect(isApproximatelyEqual(try #require(s[1].magnetometer), Vector3(25, 20, 30)))
    #expect(r.hasMagnetometer)
  }

  @Test("phyphox without a gyroscope says so")
  func phyphoxMissingGyro() {
    let text =
      "\"Time (s)\",\"Acceleration x (m/s^2)\",\"Acceleration y (m/s^2)\",\"Acceleration z (m/s^2)\"\n0,0,0,9.8\n"
    expectError(
      { _ = try MotionRecording.load(file: Data(text.utf8), name: "acc.csv") },
      "acc.csv: phyphox export without gyroscope (Gyroscope x/y/z (rad/s)) columns; found "
        + "Time (s), Acceleration x (m/s^2), Acceleration y (m/s^2), Acceleration z (m/s^2)")
  }

  @Test("single files: raw IMU and device-motion CSVs are detected; unknown layouts are not")
  func singleFiles() throws {
    let samples = [
      IMUSample(timestamp: 0, gyroscope: .zero, accelerometer: Vector3(0, 0, 9.8)),
      IMUSample(timestamp: 0.01, gyroscope: .unitX, accelerometer: Vector3(0, 0, 9.8)),
    ]
    let motions = [DeviceMotion.resting(timestamp: 1, attitude: .identity)]
    let folder = try makeFolder([
      "raw.csv": String(decoding: RawIMUCSV.encode(samples), as: UTF8.self),
      "dm.csv": String(
        decoding: DeviceMotionCSV.encode(motions, referenceFrame: .xMagneticNorthZVertical),
        as: UTF8.self),
      "other.csv": "a,b,c\n1,2,3\n",
      "Gyroscope.csv": "time,seconds_elapsed,z,y,x\n1,0,0,0,0\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let raw = try MotionRecording.load(from: folder.appendingPathComponent("raw.csv"))
    #expect(raw.format == .rawIMU)
    #expect(raw.content == .samples(samples))
    let dm = try MotionRecording.load(from: folder.appendingPathComponent("dm.csv"))
    #expect(dm.format == .deviceMotion)
    guard case .deviceMotion(let m, let frame) = dm.content else {
      Issue.record("expected device motion")
      return
    }
    #expect(frame == .xMagneticNorthZVertical)
    #expect(m.count == 1)
    #expect(dm.deviceMotion(mode: .nineD).count == 1)
    expectError(
      { _ = try MotionRecording.load(from: folder.appendingPathComponent("other.csv")) },
      "other.csv: unknown layout (header 'a,b,c'); expected a raw IMU CSV "
        + "(t_s,gx,gy,gz,ax,ay,az,mx,my,mz), a device-motion CSV (time,attitude.w,...), a "
        + "phyphox CSV, an evemu recording, or a Sensor Logger folder or .zip")
    expectError(
      { _ = try MotionRecording.load(from: folder.appendingPathComponent("Gyroscope.csv")) },
      "Gyroscope.csv: a single Sensor Logger file; load the export's folder or .zip, which "
        + "holds Gyroscope and Accelerometer files")
    expectError(
      { _ = try MotionRecording.load(from: folder.appendingPathComponent("none.csv")) },
      "\(folder.path)/none.csv: no such file or folder")
  }
}

@Suite("Fusion helpers")
private struct FusionHelperTests {
  @Test("resampling hits the requested times and interpolates linearly")
  func resample() throws {
    var motions: [DeviceMotion] = []
    for i in 0...100 {
      let t = Double(i) * 0.01
      var m = DeviceMotion.resting(
        timestamp: t, attitude: Attitude(quaternion: Quaternion(axis: .unitZ, angle: t)))
      m.rotationRate = Vector3(t, 2 * t, 0)
      motions.append(m)
    }
    let out = DeviceMotion.resample(motions, rate: 30)
    #expect(out.count == 31)
    for (k, m) in out.enumerated() {
      let t = Double(k) / 30
      #expect(isApproximatelyEqual(m.timestamp, t))
      #expect(isApproximatelyEqual(m.rotationRate, Vector3(t, 2 * t, 0), tolerance: 1e-12))
      #expect(
        isSameRotation(
          m.attitude.quaternion, Quaternion(axis: .unitZ, angle: t), tolerance: 1e-7))
    }
  }

  @Test("true north turns the magnetic attitude by the declination")
  func trueNorth() throws {
    // Device lying flat, x toward magnetic north (field along +x, down component −z).
    let sample = IMUSample(
      timestamp: 0, gyroscope: .zero, accelerometer: Vector3(0, 0, 9.81),
      magnetometer: Vector3(20, 0, -40))
    var magnetic = DeviceMotionFuser(mode: .nineD, referenceFrame: .xMagneticNorthZVertical)
    var geographic = DeviceMotionFuser(
      mode: .nineD, referenceFrame: .xTrueNorthZVertical, declinationDegrees: 10)
    let a = magnetic.update(sample)
    let b = geographic.update(sample)
    #expect(b.referenceFrame == .xTrueNorthZVertical)
    // q_true = R_z(−10°) ⊗ q_magnetic: yaw 10° smaller (device x points 10° east of true north).
    let expected = Quaternion(axis: .unitZ, angle: -10 * .pi / 180) * a.attitude.quaternion
    #expect(isSameRotation(b.attitude.quaternion, expected, tolerance: 1e-12))
    #expect(isApproximatelyEqual(b.attitude.yaw, a.attitude.yaw - 10 * .pi / 180, absolute: 1e-9))
  }
}
