import Foundation
import SwellMotion
import SwellRecordings
import Testing

/// Sensor Logger exports whose `time` (nanoseconds) and `seconds_elapsed` cannot be nanoseconds
/// and seconds of one clock: the time origin (the gyroscope's first time less its
/// seconds_elapsed) or a time measured from it does not fit in 64 bits. Found reading the code
/// that the Sensor Logger zip fuzz target reaches, then by libFuzzer through the folder target
/// (a seconds_elapsed that lost its decimal point; `Tests/Fuzz/Corpus/sensor-logger-*/crash-*`
/// replay them): the importer trapped converting 1e20 ns to `Int64` and on the subtraction
/// below `Int64.min`, and wrapped a time too far from the origin silently.
@Suite("Sensor Logger time alignment")
private struct SensorLoggerTimeAlignmentTests {
  /// A gyroscope and an accelerometer file, one row each, with the given time columns.
  static func export(
    gyroscope: (time: String, elapsed: String), accelerometer: (time: String, elapsed: String)
  ) -> [String: String] {
    [
      "Gyroscope.csv": "time,seconds_elapsed,z,y,x\n\(gyroscope.time),\(gyroscope.elapsed),0,0,0\n",
      "TotalAcceleration.csv":
        "time,seconds_elapsed,z,y,x\n\(accelerometer.time),\(accelerometer.elapsed),9.8,0,0\n",
    ]
  }

  static func folder(_ files: [String: String]) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swell-sensorlogger-align-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for (name, text) in files {
      try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }
    return url
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var gyroscope: (time: String, elapsed: String)
    var accelerometer: (time: String, elapsed: String)
    /// Words the error must contain.
    var message: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "seconds_elapsed beyond the time limit (crash-elapsed-1e11.zip)",
      gyroscope: ("1699734109846237400", "1e11"),
      accelerometer: ("1699734109846237400", "1e11"), message: "out of range"),
    Case(
      name: "a seconds_elapsed that lost its decimal point (libFuzzer's input)",
      gyroscope: ("1699734109846237400", "0150297119140625"),
      accelerometer: ("1699734109846237400", "0.15"), message: "out of range"),
    Case(
      name: "a plausible seconds_elapsed that is more nanoseconds than 64 bits hold",
      gyroscope: ("1699734109846237400", "9500000000"),
      accelerometer: ("1699734109846237400", "9500000000"), message: "too far"),
    Case(
      name: "an origin below the 64-bit limit",
      gyroscope: ("-9223372036854775800", "1"),
      accelerometer: ("-9223372036854775800", "1"), message: "too far"),
    Case(
      name: "a time too far from the origin",
      gyroscope: ("-9000000000000000000", "0"),
      accelerometer: ("9000000000000000000", "0"), message: "too far"),
  ]

  @Test("times that cannot be aligned are refused with the file", arguments: cases)
  func refused(_ c: Case) throws {
    let url = try Self.folder(
      Self.export(gyroscope: c.gyroscope, accelerometer: c.accelerometer))
    defer { try? FileManager.default.removeItem(at: url) }
    let error = #expect(throws: RecordingError.self) { try MotionRecording.load(from: url) }
    #expect(error?.description.contains(c.message) == true, "\(String(describing: error))")
    #expect(error?.description.contains(".csv") == true, "\(String(describing: error))")
  }

  @Test("an ordinary export still aligns its files on the gyroscope's origin")
  func ordinary() throws {
    let header = "time,seconds_elapsed,z,y,x\n"
    let url = try Self.folder([
      "Gyroscope.csv": header + "1699734109846237400,0.5,0,0,0\n",
      "TotalAcceleration.csv": header + "1699734109836237400,0.49,9.8,0,0\n"
        + "1699734109856237400,0.51,9.8,0,0\n",
    ])
    defer { try? FileManager.default.removeItem(at: url) }
    let recording = try MotionRecording.load(from: url)
    guard case .samples(let samples) = recording.content, let first = samples.first else {
      Issue.record("expected raw samples")
      return
    }
    #expect(abs(first.timestamp - 0.5) < 1e-9)
    #expect(abs(first.accelerometer.length - 9.8) < 1e-9)
  }
}
