import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

@testable import SwellRecordings

/// A raw IMU CSV (SI units) of a device rocking about its x axis, ±0.8 rad at 0.5 Hz, for four
/// seconds at 100 Hz, then written with its columns scaled: `time` seconds per unit of t_s,
/// `gyro` rad/s per unit, `accel` m/s² per unit.
private func rocking(time: Double = 1, gyro: Double = 1, accel: Double = 1) -> String {
  var s = "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n"
  let g = 9.80665
  for i in 0..<400 {
    let t = Double(i) / 100
    let w = 2 * Double.pi * 0.5
    let angle = 0.8 * sin(w * t)
    let rate = 0.8 * w * cos(w * t)
    let a = Vector3(0, g * sin(angle), g * cos(angle))
    s += "\(t / time),\(rate / gyro),0,0,\(a.x / accel),\(a.y / accel),\(a.z / accel),,,\n"
  }
  return s
}

private func samples(_ text: String, _ units: RecordingUnits = .standard) throws -> [IMUSample] {
  try RawIMUCSV.parse(Array(text.utf8), fileName: "r.csv", units: units)
}

@Suite("Recording units")
private struct RecordingUnitsTests {
  @Test("declared units convert to seconds, rad/s and m/s² (values by hand)")
  func conversion() throws {
    let text = "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n1500,180,-90,0,0,0.5,1,20,0,-40\n"
    let units = RecordingUnits(
      time: .milliseconds, acceleration: .g, angularVelocity: .degreesPerSecond)
    let s = try #require(try samples(text, units).first)
    #expect(s.timestamp == 1.5)
    #expect(s.gyroscope == Vector3(Double.pi, -Double.pi / 2, 0))
    #expect(s.accelerometer == Vector3(0, 4.903325, 9.80665))
    #expect(s.magnetometer == Vector3(20, 0, -40))
    // Nanosecond boot times are beyond the time limit in seconds, but fine once converted.
    let ns = "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n1700000000000000000,0,0,0,0,0,9.8,,,\n"
    #expect(throws: RecordingError.self) { try samples(ns) }
    let t = try #require(try samples(ns, RecordingUnits(time: .nanoseconds)).first).timestamp
    #expect(t == 1.7e9)
    let us = try #require(
      try samples(
        "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n2500000,0,0,0,0,0,9.8\n",
        RecordingUnits(time: .microseconds)
      ).first)
    #expect(us.timestamp == 2.5)
  }

  @Test("a recording in SI units raises no warning")
  func standardIsQuiet() throws {
    #expect(RecordingUnitCheck.warnings(try samples(rocking())).isEmpty)
  }

  @Test("an accelerometer in g is detected from its magnitude at rest")
  func accelerationInG() throws {
    let w = RecordingUnitCheck.warnings(try samples(rocking(accel: 9.80665)))
    #expect(w.map(\.quantity) == [.acceleration])
    #expect(w.first?.suggestedUnit == "g")
    #expect(
      w.first?.message
        == "the accelerometer's median magnitude is 1.00 m/s² (gravity is 9.81): the values look "
        + "like g, not m/s²")
    // Declared, it converts and nothing is said.
    let g = RecordingUnits(acceleration: .g)
    let declared = try samples(rocking(accel: 9.80665), g)
    #expect(RecordingUnitCheck.warnings(declared, units: g).isEmpty)
    #expect(abs(declared[0].accelerometer.length - 9.80665) < 1e-9)
    // Declared g for a file in m/s²: the other way round.
    let wrong = RecordingUnitCheck.warnings(try samples(rocking(), g), units: g)
    #expect(wrong.map(\.suggestedUnit) == ["m/s2"])
  }

  @Test("times in milliseconds, microseconds or nanoseconds are detected from the spacing")
  func timeUnits() throws {
    for (scale, unit) in [(1e-3, "ms"), (1e-6, "us"), (1e-9, "ns")] {
      // Four seconds of nanoseconds from 0 stay within the time limit.
      let w = RecordingUnitCheck.warnings(try samples(rocking(time: scale)))
      #expect(w.map(\.quantity) == [.time], "\(unit)")
      #expect(w.first?.suggestedUnit == unit)
    }
    let ms = RecordingUnitCheck.warnings(try samples(rocking(time: 1e-3)))
    #expect(
      ms.first?.message
        == "samples are a median 10.00 s apart (0.1 Hz): the times look like milliseconds "
        + "(100 Hz), not seconds")
    let declared = RecordingUnits(time: .milliseconds)
    let s = try samples(rocking(time: 1e-3), declared)
    #expect(RecordingUnitCheck.warnings(s, units: declared).isEmpty)
    #expect(abs(s[100].timestamp - 1) < 1e-12)
    // Declared milliseconds for a file in seconds.
    let wrong = RecordingUnitCheck.warnings(try samples(rocking(), declared), units: declared)
    #expect(wrong.map(\.suggestedUnit) == ["s"])
  }

  @Test("a gyroscope in °/s is detected against the accelerometer's change of direction")
  func gyroscopeInDegrees() throws {
    let degrees = Double.pi / 180
    let w = RecordingUnitCheck.warnings(try samples(rocking(gyro: degrees)))
    #expect(w.map(\.quantity) == [.angularVelocity])
    #expect(w.first?.suggestedUnit == "deg/s")
    #expect(w.first?.message.hasSuffix("the values look like °/s, not rad/s") == true)
    let ratio = try #require(
      RecordingUnitCheck.turningRatio(try samples(rocking(gyro: degrees)), timeScale: 1))
    #expect(abs(ratio - 180 / Double.pi) < 2)
    let right = try #require(RecordingUnitCheck.turningRatio(try samples(rocking()), timeScale: 1))
    #expect(abs(right - 1) < 0.05)
    let declared = RecordingUnits(angularVelocity: .degreesPerSecond)
    let s = try samples(rocking(gyro: degrees), declared)
    #expect(RecordingUnitCheck.warnings(s, units: declared).isEmpty)
    #expect(
      RecordingUnitCheck.warnings(try samples(rocking(), declared), units: declared)
        .map(\.suggestedUnit) == ["rad/s"])
    // Times in milliseconds and a gyroscope in °/s together: both found, the gyroscope judged
    // on the corrected times.
    let both = RecordingUnitCheck.warnings(try samples(rocking(time: 1e-3, gyro: degrees)))
    #expect(both.map(\.quantity) == [.time, .angularVelocity])
  }

  @Test("a real recording (a BROAD excerpt) is quiet in its units and caught in the wrong ones")
  func realRecording() throws {
    let url = packageRoot.appendingPathComponent(
      "Tests/SwellRecordingsTests/Fixtures/broad_24_excerpt.csv")
    let si = try RawIMUCSV.read(from: url)
    #expect(RecordingUnitCheck.warnings(si).isEmpty)
    let ratio = try #require(RecordingUnitCheck.turningRatio(si, timeScale: 1))
    #expect(ratio < RecordingUnitCheck.degreesRatio)
    // The same rows as CoreMotion or a logger might have written them.
    func rewritten(_ f: (IMUSample) -> IMUSample) -> [IMUSample] { si.map(f) }
    let degrees = rewritten {
      IMUSample(
        timestamp: $0.timestamp, gyroscope: $0.gyroscope * (180 / Double.pi),
        accelerometer: $0.accelerometer)
    }
    #expect(RecordingUnitCheck.warnings(degrees).map(\.suggestedUnit) == ["deg/s"])
    let g = rewritten {
      IMUSample(
        timestamp: $0.timestamp, gyroscope: $0.gyroscope,
        accelerometer: $0.accelerometer * (1 / 9.80665))
    }
    #expect(RecordingUnitCheck.warnings(g).map(\.suggestedUnit) == ["g"])
    let ms = rewritten {
      IMUSample(
        timestamp: $0.timestamp * 1000, gyroscope: $0.gyroscope, accelerometer: $0.accelerometer)
    }
    #expect(RecordingUnitCheck.warnings(ms).map(\.suggestedUnit) == ["ms"])
  }

  @Test("a recording at rest says nothing about its gyroscope")
  func restIsUndecided() throws {
    var text = "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n"
    for i in 0..<300 { text += "\(Double(i) / 100),0.5,0,0,0,0,9.80665,,,\n" }
    let s = try samples(text)
    #expect(RecordingUnitCheck.turningRatio(s, timeScale: 1) == nil)
    #expect(RecordingUnitCheck.warnings(s).isEmpty)
  }

  @Test("the file check reads raw IMU CSVs and the source converts declared units")
  func fileCheck() throws {
    let folder = try scratchFolder("recording-units")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("g.csv")
    try Data(rocking(accel: 9.80665).utf8).write(to: url)
    #expect(RecordingUnitCheck.warnings(contentsOf: url).map(\.suggestedUnit) == ["g"])
    #expect(
      RecordingUnitCheck.warnings(contentsOf: url, units: RecordingUnits(acceleration: .g))
        .isEmpty)
    let ms = folder.appendingPathComponent("ms.csv")
    try Data(rocking(time: 1e-3).utf8).write(to: ms)
    let source = try RecordingSource(contentsOf: ms, units: RecordingUnits(time: .milliseconds))
    let span = try #require(source.timeSpan)
    #expect(span.lowerBound == 0)
    #expect(abs(span.upperBound - 3.99) < 1e-9)
  }
}
