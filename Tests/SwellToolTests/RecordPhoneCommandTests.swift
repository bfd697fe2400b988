import Foundation
import SwellGeometry
import SwellMotion
import SwellRecordings
import SwellTestSupport
import Testing

/// A phyphox `/get` body with the given buffers (name, update mode, values).
private func body(_ buffers: [(String, String, [Double])], measuring: Bool = true) -> String {
  let items = buffers.map { name, mode, values in
    "\"\(name)\":{\"size\":0,\"updateMode\":\"\(mode)\",\"buffer\":["
      + values.map { "\($0)" }.joined(separator: ",") + "]}"
  }
  return "{\"buffer\":{" + items.joined(separator: ",")
    + "},\"status\":{\"session\":\"s\",\"measuring\":\(measuring),\"timedRun\":false,\"countDown\":0}}"
}

@Suite("swell record phone:URL")
private struct RecordPhoneCommandTests {
  @Test("records phyphox remote access into a raw IMU CSV")
  func records() throws {
    let accTimes = [2.01, 2.02, 2.03, 2.04, 2.05]
    let gyrTimes = [2.011, 2.021, 2.031, 2.041]
    let prime = body([
      ("accX", "single", [0]), ("accY", "single", [0]), ("accZ", "single", [9.8]),
      ("acc_time", "single", [2]), ("gyrX", "single", [0]), ("gyrY", "single", [0]),
      ("gyrZ", "single", [0]), ("gyr_time", "single", [2]),
    ])
    // Specific force (t, 0, 9.81) m/s² and rotation rate (0.1, −t, 0) rad/s.
    let data = body([
      ("accX", "partial", accTimes), ("accY", "partial", accTimes.map { _ in 0 }),
      ("accZ", "partial", accTimes.map { _ in 9.81 }), ("acc_time", "partial", accTimes),
      ("gyrX", "partial", gyrTimes.map { _ in 0.1 }), ("gyrY", "partial", gyrTimes.map { -$0 }),
      ("gyrZ", "partial", gyrTimes.map { _ in 0 }), ("gyr_time", "partial", gyrTimes),
    ])
    let server = try ScriptedHTTPServer([
      ScriptedHTTPServer.response(body: prime), ScriptedHTTPServer.response(body: data),
    ])
    let tree = try FakeIIOTree()
    let out = tree.root + "/phone.csv"
    let url = "http://127.0.0.1:\(server.port)"
    let r = try runSwell([
      "record", "phone:\(url)", "-o", out, "--duration", "20", "--samples", "4",
    ])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out == "recorded 4 samples (6D) from phone:\(url) over 0.030 s: \(out)\n")
    let samples = try RawIMUCSV.read(from: URL(fileURLWithPath: out))
    #expect(samples.count == 4)
    for (s, t) in zip(samples, gyrTimes) {
      #expect(isApproximatelyEqual(s.timestamp, t - 2.011, absolute: 1e-9))
      #expect(isApproximatelyEqual(s.accelerometer, Vector3(t, 0, 9.81), tolerance: 1e-9))
      #expect(isApproximatelyEqual(s.gyroscope, Vector3(0.1, -t, 0), tolerance: 1e-9))
    }
    #expect(server.requestTargets.first?.hasPrefix("/get?accX=&accY=&accZ=&acc_time=&") == true)
  }

  @Test(
    "bad phone URLs and misplaced options are usage errors; an unreachable phone writes nothing")
  func errors() throws {
    let tree = try FakeIIOTree()
    let out = tree.root + "/x.csv"
    let https = try runSwell(["record", "phone:https://10.0.0.2", "-o", out, "--duration", "1"])
    #expect(https.status == 64)
    #expect(https.err == "swell record: 'https://10.0.0.2': phyphox serves plain http, not https\n")
    let port = try runSwell(["record", "phone:10.0.0.2:99999", "-o", out, "--duration", "1"])
    #expect(port.status == 64)
    #expect(port.err.contains("the port must be 1...65535, got '99999'"))
    let buffers = try runSwell([
      "record", "phone:10.0.0.2", "--buffers", "a,b,c", "-o", out, "--duration", "1",
    ])
    #expect(buffers.status == 64)
    #expect(buffers.err.contains("buffer names 'a,b,c'"))
    let misplaced = try runSwell(["record", "iio", "--buffers", "x", "-o", out, "--duration", "1"])
    #expect(misplaced.status == 64)
    #expect(misplaced.err == "swell record: --buffers applies to phone: sources\n")
    // A closed port on this machine: refused, reported, and no file.
    let server = try ScriptedHTTPServer([], acceptTimeout: 0)
    server.waitUntilFinished()
    let refused = try runSwell([
      "record", "phone:127.0.0.1:\(server.port)", "-o", out, "--duration", "0.3",
    ])
    #expect(refused.status == 1)
    #expect(refused.err.contains("Connection refused (is remote access on"))
    #expect(refused.err.contains("no samples from phone:http://127.0.0.1:\(server.port)"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
