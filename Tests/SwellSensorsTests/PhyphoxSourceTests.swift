import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

@testable import SwellSensors

@Suite("phyphox remote access over a scripted HTTP server")
private struct PhyphoxSourceTests {
  @Test("incremental polls: thresholds per time buffer, accelerometer interpolated at gyro times")
  func incremental() async throws {
    let server = try ScriptedHTTPServer([
      primeAnswer(acc: 10.0, gyr: 10.0),
      dataAnswer(
        acc: readings([10.01, 10.02, 10.03], accel),
        gyr: readings([10.005, 10.015, 10.025, 10.035], gyro)),
      dataAnswer(acc: readings([10.04, 10.05], accel), gyr: readings([10.045], gyro)),
    ])
    let source = phyphoxSource(server)
    #expect(source.name == "phone:http://127.0.0.1:\(server.port)")
    let c = try await collect(source, samples: 5)
    #expect(c.fatal == nil)
    #expect(c.transient.isEmpty, "\(c.transient)")
    let times = c.samples.map(\.timestamp)
    #expect(times == [10.005, 10.015, 10.025, 10.035, 10.045])
    for s in c.samples {
      #expect(s.gyroscope == gyro(s.timestamp))
      #expect(s.magnetometer == nil)
      // Before the first accelerometer reading (10.01) the first one is used; after it the
      // linear specific force is interpolated exactly.
      let expected = accel(max(s.timestamp, 10.01))
      #expect(isApproximatelyEqual(s.accelerometer, expected, tolerance: 1e-9), "\(s)")
    }
    #expect(!source.hasMagnetometer)
    let targets = server.requestTargets
    #expect(
      targets.first
        == "/get?accX=&accY=&accZ=&acc_time=&gyrX=&gyrY=&gyrZ=&gyr_time=&magX=&magY=&magZ=&mag_time="
    )
    #expect(
      targets.dropFirst().first
        == "/get?acc_time=10.0&accX=10.0%7Cacc_time&accY=10.0%7Cacc_time&accZ=10.0%7Cacc_time"
        + "&gyr_time=10.0&gyrX=10.0%7Cgyr_time&gyrY=10.0%7Cgyr_time&gyrZ=10.0%7Cgyr_time")
    #expect(
      targets.dropFirst(2).first
        == "/get?acc_time=10.03&accX=10.03%7Cacc_time&accY=10.03%7Cacc_time"
        + "&accZ=10.03%7Cacc_time&gyr_time=10.035&gyrX=10.035%7Cgyr_time"
        + "&gyrY=10.035%7Cgyr_time&gyrZ=10.035%7Cgyr_time")
    let s = source.statistics
    #expect(s.samples == 5)
    #expect(s.responses == 3)
    #expect(s.malformed + s.httpErrors + s.connectionFailures + s.oversized == 0)
  }

  @Test("with magnetometer buffers the samples are 9D, the field interpolated too")
  func magnetometer() async throws {
    let field: (Double) -> Vector3 = { t in Vector3(20 + 10 * t, -5, -40 + t) }
    let server = try ScriptedHTTPServer([
      primeAnswer(acc: 1.0, gyr: 1.0, mag: 1.0),
      dataAnswer(
        acc: readings([1.01, 1.02, 1.03, 1.04], accel), gyr: readings([1.012, 1.022], gyro),
        mag: readings([1.005, 1.05], field)),
    ])
    let source = phyphoxSource(server)
    let c = try await collect(source, samples: 2)
    #expect(c.samples.map(\.timestamp) == [1.012, 1.022])
    for s in c.samples {
      let m = try #require(s.magnetometer)
      #expect(isApproximatelyEqual(m, field(s.timestamp), tolerance: 1e-9))
      #expect(isApproximatelyEqual(s.accelerometer, accel(s.timestamp), tolerance: 1e-9))
    }
    #expect(source.hasMagnetometer)
    #expect(
      server.requestTargets.dropFirst().first?.contains("&mag_time=1.0&magX=1.0%7Cmag_time") == true
    )
  }

  @Test("garbage, truncated bodies, HTTP 500, bad JSON, huge bodies: counted, reported, survived")
  func failures() async throws {
    let huge =
      Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n".utf8)
      + [UInt8](repeating: UInt8(ascii: " "), count: (8 << 20) + 100_000)
    let server = try ScriptedHTTPServer([
      primeAnswer(acc: 5.0, gyr: 5.0),
      .raw(Array("garbage, not HTTP at all\r\n\r\n".utf8)),
      .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{\"buffer\":{\"accX\"".utf8)),
      ScriptedHTTPServer.response(
        status: 500, reason: "Internal Server Error", body: "{\"error\": \"boom\"}"),
      ScriptedHTTPServer.response(body: "{\"buffer\": [1, 2, 3]}"),
      ScriptedHTTPServer.response(body: "{\"buffer\": {\"accX\": {\"buffer\": [1,"),
      .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 9437184\r\n\r\n".utf8)),
      .raw(huge),
      .close,
      dataAnswer(acc: readings([5.01, 5.02], accel), gyr: readings([5.015], gyro)),
    ])
    let source = phyphoxSource(server)
    let c = try await collect(source, samples: 1, errorsAfter: 1)
    #expect(c.fatal == nil)
    #expect(c.samples.map(\.timestamp) == [5.015])
    let name = "phyphox at http://127.0.0.1:\(server.port)"
    let expected = [
      "\(name): not an HTTP response",
      "\(name): truncated response: 17 of 500 body bytes",
      "\(name) answered HTTP 500 Internal Server Error",
      "\(name) sent a malformed answer (wrong type at buffer)",
      "\(name) sent a malformed answer (invalid JSON)",
      "\(name): response larger than 8388608 bytes",
      // The second oversized answer repeats the message within 5 s: not reported again.
      "\(name): the server closed the connection without a response",
      "\(name): cannot connect to 127.0.0.1:\(server.port): Connection refused "
        + "(is remote access on, and the phone on this network?)",
    ]
    #expect(c.transient == expected)
    let s = source.statistics
    #expect(s.malformed == 5)
    #expect(s.httpErrors == 1)
    #expect(s.oversized == 2)
    #expect(s.connectionFailures == 1)
    #expect(s.responses == 2)
    #expect(s.samples == 1)
    #expect(s.requests == 11)
    // After a failure the same request is retried: the data poll still asks from 5.0.
    #expect(server.requestTargets.last?.hasPrefix("/get?acc_time=5.0&") == true)
  }

  @Test("a server that never answers times out; the error is transient")
  func timeout() async throws {
    let server = try ScriptedHTTPServer([primeAnswer(acc: 1, gyr: 1), .silence(0.6)])
    let source = phyphoxSource(server) { $0.timeout = 0.2 }
    let c = try await collect(source, samples: 0, errorsAfter: 1)
    #expect(
      c.transient.contains { $0.hasSuffix("no complete response within 0.2 s") },
      "\(c.transient)")
    #expect(source.statistics.connectionFailures == 1)
    server.waitUntilFinished()
  }

  @Test("not measuring is reported once, then data flows from the start of the buffers")
  func notMeasuring() async throws {
    let empty = sensorBuffers("acc", [], mode: "full") + sensorBuffers("gyr", [], mode: "full")
    let server = try ScriptedHTTPServer([
      primeAnswer(acc: nil, gyr: nil, measuring: false),
      ScriptedHTTPServer.response(body: getBody(empty, measuring: false)),
      ScriptedHTTPServer.response(body: getBody(empty, measuring: false)),
      dataAnswer(
        acc: readings([0.01, 0.02, 0.03], accel), gyr: readings([0.011, 0.021], gyro),
        mode: "full"),
    ])
    let source = phyphoxSource(server)
    let c = try await collect(source, samples: 2)
    #expect(
      c.transient == [
        "phyphox at http://127.0.0.1:\(server.port) is not measuring (start "
          + "the experiment on the phone)"
      ])
    #expect(c.samples.map(\.timestamp) == [0.011, 0.021])
    #expect(source.statistics.notMeasuring == 3)
    #expect(
      server.requestTargets.dropFirst().first
        == "/get?acc_time=full&accX=full&accY=full&accZ=full&gyr_time=full&gyrX=full&gyrY=full"
        + "&gyrZ=full")
  }

  @Test(
    "cleared data or a reloaded experiment: timestamps continue increasing",
    arguments: [
      "cleared", "reloaded",
    ])
  func reset(kind: String) async throws {
    let cleared = kind == "cleared"
    let server = try ScriptedHTTPServer([
      primeAnswer(acc: 20, gyr: 20),
      dataAnswer(acc: readings([20.01, 20.02], accel), gyr: readings([20.012], gyro)),
      dataAnswer(
        acc: readings([0.01, 0.02, 0.03], accel), gyr: readings([0.015, 0.025], gyro),
        mode: cleared ? "full" : "partial", session: cleared ? "a1b2c3" : "d4e5f6"),
    ])
    let source = phyphoxSource(server)
    let c = try await collect(source, samples: 3)
    let times = c.samples.map(\.timestamp)
    try #require(times.count == 3, "\(c)")
    #expect(times[0] == 20.012)
    // The first sample after the reset comes one poll interval (0.05 s) after the last one.
    #expect(isApproximatelyEqual(times[1], 20.062, absolute: 1e-9))
    #expect(isApproximatelyEqual(times[2], 20.072, absolute: 1e-9))
    #expect(isApproximatelyEqual(c.samples[2].accelerometer, accel(0.025), tolerance: 1e-9))
    #expect(c.transient.count == 1)
    #expect(
      c.transient.first?.hasSuffix("the phone's data was cleared; timestamps continue") == true)
    #expect(source.statistics.resets == 1)
  }

  @Test("an experiment without the gyroscope is a clear, non-transient error")
  func missingBuffers() async throws {
    let body = getBody(sensorBuffers("acc", [(1, Vector3(0, 0, 9.8))], mode: "single"))
    let server = try ScriptedHTTPServer([ScriptedHTTPServer.response(body: body)])
    let source = phyphoxSource(server)
    let c = try await collect(source, samples: 1)
    #expect(
      c.fatal
        == "phyphox at http://127.0.0.1:\(server.port): the experiment has no buffer gyrX, gyrY, "
        + "gyrZ, gyr_time (it has: accX accY accZ acc_time); load one with accelerometer and "
        + "gyroscope (see docs/sensors.md)")
    #expect(c.samples.isEmpty)
  }

  @Test("null values (NaN on the phone) skip their reading; chunked answers decode")
  func nullsAndChunked() async throws {
    var buffers =
      sensorBuffers("acc", readings([3.01, 3.02, 3.03], accel))
      + sensorBuffers("gyr", readings([3.015, 3.025], gyro))
    buffers[0].values[1] = nil  // accX at 3.02
    let server = try ScriptedHTTPServer([
      primeAnswer(acc: 3, gyr: 3),
      ScriptedHTTPServer.chunkedResponse(body: getBody(buffers), chunkSize: 7),
    ])
    let source = phyphoxSource(server)
    let c = try await collect(source, samples: 2)
    #expect(c.samples.map(\.timestamp) == [3.015, 3.025])
    // Without 3.02, both gyro times interpolate between 3.01 and 3.03: still exact (linear).
    for s in c.samples {
      #expect(isApproximatelyEqual(s.accelerometer, accel(s.timestamp), tolerance: 1e-9))
    }
    #expect(source.statistics.invalidValues == 1)
  }

  @Test("stop() ends the source")
  func stop() async throws {
    let server = try ScriptedHTTPServer([primeAnswer(acc: 1, gyr: 1)])
    let source = phyphoxSource(server)
    source.stop()
    #expect(try await source.next() == nil)
    #expect(source.statistics.requests == 0)
  }
}
