import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@testable import SwellMotion
@testable import SwellRecordings

/// An older (schema version 2) iOS Sensor Logger export of a known motion, as files: nanosecond
/// `time` and no `seconds_elapsed`; `Accelerometer.csv` user acceleration and `Gravity.csv`
/// gravity, both m/s² in CoreMotion's signs; no uncalibrated files.
private func versionTwoExport(
  _ m: SyntheticMotion, gravityInG: Bool = false, platform: String = "ios"
) -> [String: String] {
  let t0: Int64 = 1_646_128_800_000_000_000
  var gyro = "time,x,y,z\n"
  var user = "time,x,y,z\n"
  var gravity = "time,x,y,z\n"
  var mag = "time,x,y,z\n"
  let g0 = standardGravity
  for (s, q) in zip(m.samples, m.truth) {
    let t = t0 + Int64((s.timestamp * 1e9).rounded())
    // The accelerometer and gravity are sampled 3 ms after the gyroscope.
    let ta = t + 3_000_000
    gyro += "\(t),\(s.gyroscope.x),\(s.gyroscope.y),\(s.gyroscope.z)\n"
    // CoreMotion: gravity points to the Earth; user acceleration is the measured total
    // (the negative of specific force) minus gravity.
    let down = q.inverseRotate(Vector3(0, 0, -g0))
    let u = s.accelerometer * -1 - down
    let gScale = gravityInG ? 1 / g0 : 1
    user += "\(ta),\(u.x * gScale),\(u.y * gScale),\(u.z * gScale)\n"
    gravity += "\(ta),\(down.x * gScale),\(down.y * gScale),\(down.z * gScale)\n"
    if let b = s.magnetometer { mag += "\(t),\(b.x),\(b.y),\(b.z)\n" }
  }
  return [
    "Metadata.csv": "version,device name,recording time,platform\n2,iPhone,2022-03-01_10-00-00,"
      + "\(platform)\n",
    "Gyroscope.csv": gyro, "Accelerometer.csv": user, "Gravity.csv": gravity,
    "Magnetometer.csv": mag,
  ]
}

private func folder(_ files: [String: String]) throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "swell-sensorlogger-v2-\(UInt64.random(in: 0...UInt64.max))")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  for (name, text) in files {
    try Data(text.utf8).write(to: url.appendingPathComponent(name))
  }
  return url
}

@Suite("Sensor Logger versions")
private struct SensorLoggerVersionTests {
  /// Hand motion with translation: the user acceleration is not zero.
  static func motion() -> SyntheticMotion {
    var o = SyntheticMotion.Options()
    o.rateHz = 100
    o.duration = 40
    o.restDuration = 3
    o.extraAcceleration = { t in Vector3(0.6 * sin(6 * t), 0.4 * cos(4.3 * t), 0.3 * sin(9 * t)) }
    return SyntheticMotion(seed: 9, options: o)
  }

  @Test(
    "a version 2 iOS export (time only, user acceleration + gravity) has gravity within 1°",
    arguments: [false, true])
  func versionTwo(gravityInG: Bool) throws {
    let m = Self.motion()
    let url = try folder(versionTwoExport(m, gravityInG: gravityInG))
    defer { try? FileManager.default.removeItem(at: url) }
    let r = try MotionRecording.load(from: url)
    #expect(r.format == .sensorLogger(platform: .iOS))
    #expect(r.hasMagnetometer)
    guard case .samples(let s) = r.content else {
      Issue.record("expected samples")
      return
    }
    // Times from the first gyroscope row; the last gyroscope row is past the accelerometer's
    // span (3 ms later) only at the start, so one row is dropped there.
    #expect(abs(s[0].timestamp - 0.01) < 1e-9, "first sample at \(s[0].timestamp) s")
    #expect(s.count == m.samples.count - 1)
    // Specific force is rebuilt exactly: −(user + gravity), interpolated to the gyroscope's
    // time from the rows 3 ms later (weights 0.3 and 0.7 at 100 Hz).
    var largest = 0.0
    for k in 0..<s.count {
      let a = m.samples[k].accelerometer
      let b = m.samples[k + 1].accelerometer
      largest = max(largest, (s[k].accelerometer - (a * 0.3 + b * 0.7)).length)
    }
    #expect(largest < 1e-6, "specific force off by up to \(largest) m/s²")
    let motions = r.deviceMotion(mode: .sixD, referenceFrame: .xArbitraryZVertical)
    var worst = 0.0
    for dm in motions where dm.timestamp > 5 {
      let i = Int((dm.timestamp * 100).rounded())
      let truth = m.truth[i].inverseRotate(Vector3(0, 0, -1))
      let c = max(-1, min(1, dm.gravity.dot(truth) / dm.gravity.length))
      worst = max(worst, acos(c) * 180 / Double.pi)
    }
    #expect(worst < 1, "gravity off by up to \(worst)°")
  }

  @Test(
    "a metadata version that is not a plain number (1e300, nan, -1, huge) is read as unknown, not a crash",
    arguments: ["1e300", "nan", "-1", "99999999999999999999", "2.0", "1.34.0"])
  func oddVersions(version: String) throws {
    let m = Self.motion()
    var files = versionTwoExport(m)
    files["Metadata.csv"] = "version,device name,platform\n\(version),iPhone,ios\n"
    let url = try folder(files)
    defer { try? FileManager.default.removeItem(at: url) }
    let r = try MotionRecording.load(from: url)
    #expect(r.format == .sensorLogger(platform: .iOS))
    guard case .samples(let s) = r.content else {
      Issue.record("expected samples")
      return
    }
    #expect(s.count == m.samples.count - 1)
  }

  @Test("the same export with Android's platform is taken in Android's signs")
  func versionTwoAndroid() throws {
    let m = Self.motion()
    let url = try folder(versionTwoExport(m, platform: "android"))
    defer { try? FileManager.default.removeItem(at: url) }
    let r = try MotionRecording.load(from: url)
    #expect(r.format == .sensorLogger(platform: .android))
    guard case .samples(let s) = r.content else { return }
    // Not negated: the sum is the (iOS-signed) total acceleration, the negative of the force.
    let f = m.samples[3].accelerometer * 0.3 + m.samples[4].accelerometer * 0.7
    #expect((s[3].accelerometer + f).length < 1e-6, "\(s[3].accelerometer) vs \(f)")
  }

  @Test("a file with times but no seconds_elapsed next to a gyroscope without times is refused")
  func unalignable() throws {
    let url = try folder([
      "Gyroscope.csv": "seconds_elapsed,x,y,z\n0,0,0,0\n0.01,0,0,0\n",
      "TotalAcceleration.csv": "time,x,y,z\n1646128800000000000,0,0,9.8\n",
    ])
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(throws: RecordingError.self) { _ = try MotionRecording.load(from: url) }
  }
}
