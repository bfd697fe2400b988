import Foundation
import Glibc
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

@testable import SwellSensors

/// Sends datagrams to 127.0.0.1:port.
private func send(_ datagrams: [[UInt8]], to port: UInt16) throws {
  let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
  try #require(fd >= 0)
  defer { close(fd) }
  var addr = sockaddr_in()
  addr.sin_family = sa_family_t(AF_INET)
  addr.sin_port = port.bigEndian
  addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
  for d in datagrams {
    let n = withUnsafePointer(to: &addr) { a in
      a.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
        d.withUnsafeBytes {
          sendto(fd, $0.baseAddress, d.count, 0, sa, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    try #require(n == d.count, "sendto failed: \(String(cString: strerror(errno)))")
  }
}

private func lines(_ s: String) -> [UInt8] { Array(s.utf8) }

@Suite("Phone stream decoding")
private struct PhoneStreamDecoderTests {
  @Test(
    "decodes JSON and CSV lines",
    arguments: [
      (
        #"{"t": 12.34, "gyro": [0.1, -0.2, 0.3], "accel": [0, 0, 9.81], "magn": [20, -5, -40]}"#,
        IMUSample(
          timestamp: 12.34, gyroscope: Vector3(0.1, -0.2, 0.3),
          accelerometer: Vector3(0, 0, 9.81), magnetometer: Vector3(20, -5, -40))
      ),
      (
        #"{"accel":[1,2,3],"gyro":[4,5,6],"t":7}"#,
        IMUSample(timestamp: 7, gyroscope: Vector3(4, 5, 6), accelerometer: Vector3(1, 2, 3))
      ),
      (
        #"{"t": 1e-3, "gyro": [0, 0, 0], "accel": [0, 9.8, 0], "magn": null}"#,
        IMUSample(timestamp: 0.001, gyroscope: .zero, accelerometer: Vector3(0, 9.8, 0))
      ),
      (
        "0.5,0.1,0.2,9.7,0.01,0.02,0.03",
        IMUSample(
          timestamp: 0.5, gyroscope: Vector3(0.01, 0.02, 0.03),
          accelerometer: Vector3(0.1, 0.2, 9.7))
      ),
      (
        " 1.5 , 1, 2, 3, 4, 5, 6, 7, 8, 9 ",
        IMUSample(
          timestamp: 1.5, gyroscope: Vector3(4, 5, 6), accelerometer: Vector3(1, 2, 3),
          magnetometer: Vector3(7, 8, 9))
      ),
      (
        "890.71558, 3,   0.076,  9.559,  0.809, 4,  -0.038,  0.032,  0.016, 5, -21.000, -27.375, -32.375",
        IMUSample(
          timestamp: 890.71558, gyroscope: Vector3(-0.038, 0.032, 0.016),
          accelerometer: Vector3(0.076, 9.559, 0.809), magnetometer: Vector3(-21, -27.375, -32.375))
      ),
      (
        "3.0, 1, 50.1, 6.2, 120, 4, 1, 2, 3, 3, 4, 5, 6",
        IMUSample(timestamp: 3, gyroscope: Vector3(1, 2, 3), accelerometer: Vector3(4, 5, 6))
      ),
    ])
  func decode(line: String, expected: IMUSample) throws {
    var decoder = PhoneStreamDecoder()
    #expect(try decoder.decode(Substring(line)) == expected)
  }

  @Test(
    "rejects malformed lines",
    arguments: [
      "garbage", #"{"t": 1, "gyro": [1, 2"#, #"{"t": NaN, "gyro": [1,2,3], "accel": [1,2,3]}"#,
      #"{"t": 1, "gyro": [1, 2], "accel": [1, 2, 3]}"#, #"{"t": 1, "accel": [1, 2, 3]}"#,
      #"{"t": "1", "gyro": [1,2,3], "accel": [1,2,3]}"#,
      #"{"t": true, "gyro": [1,2,3], "accel": [1,2,3]}"#,
      #"{"t": 1, "gyro": [1,2,"x"], "accel": [1,2,3]}"#, #"[1, 2, 3]"#, "1,2,3",
      "1,2,3,4,5,6,nan", "1,2,3,4,5,6,inf", "1,2,3,4,5,6,", "1, 3.5, 1, 2, 3", "1,,2,3,4,5,6",
      "1e999,1,2,3,4,5,6", "   ",
    ])
  func reject(line: String) {
    var decoder = PhoneStreamDecoder()
    #expect(throws: PhoneStreamError.self) { try decoder.decode(Substring(line)) }
  }

  @Test("format restrictions")
  func formats() throws {
    var json = PhoneStreamDecoder(format: .json)
    #expect(throws: PhoneStreamError.self) { try json.decode("1,2,3,4,5,6,7") }
    var csv = PhoneStreamDecoder(format: .csv)
    #expect(throws: PhoneStreamError.self) {
      try csv.decode(#"{"t": 1, "gyro": [1,2,3], "accel": [1,2,3]}"#)
    }
  }

  @Test("sensor-id lines hold the latest value of each sensor")
  func sampleAndHold() throws {
    var d = PhoneStreamDecoder(format: .csv)
    #expect(try d.decode("1.0, 3, 0, 0, 9.8") == nil)
    let s1 = try #require(try d.decode("1.1, 4, 0.1, 0.2, 0.3"))
    #expect(s1.accelerometer == Vector3(0, 0, 9.8))
    #expect(s1.gyroscope == Vector3(0.1, 0.2, 0.3))
    #expect(s1.magnetometer == nil)
    #expect(try d.decode("1.15, 5, 10, 20, 30") == nil)
    let s2 = try #require(try d.decode("1.2, 3, 1, 1, 1"))
    #expect(s2.timestamp == 1.2)
    #expect(s2.accelerometer == Vector3(1, 1, 1))
    #expect(s2.gyroscope == Vector3(0.1, 0.2, 0.3))
    #expect(s2.magnetometer == Vector3(10, 20, 30))
  }
}

@Suite("UDP phone stream over loopback")
private struct UDPMotionSourceTests {
  @Test("real datagrams: samples decoded, garbage and huge packets counted and skipped")
  func datagrams() async throws {
    let source = try UDPMotionSource(port: 0, maxDatagramBytes: 2048)
    defer { source.stop() }
    #expect(source.port != 0)
    #expect(source.name == "udp:127.0.0.1:\(source.port)")
    #expect(!source.hasMagnetometer)
    let datagrams: [[UInt8]] = [
      lines(#"{"t": 1.0, "gyro": [0.1, 0.2, 0.3], "accel": [0, 0, 9.81]}"#),
      [0xFF, 0x00, 0xC3, 0x28],  // binary garbage
      lines(#"{"t": 1.01, "gyro": [0.1, 0.2"#),  // truncated JSON
      lines("1.02,0,0,NaN,0,0,0"),
      lines(String(repeating: "9", count: 4000)),  // over the 2048-byte limit
      lines("1.03,0,0,9.8,0,0,1\n1.04,0,0,9.8,0,0,2\r\nbad line\n1.05,0,0,9.8,0,0,3,7,8,9\n"),
      lines("1.00,0,0,9.8,0,0,9"),  // out of order
      lines(#"{"t": 2.0, "gyro": [1, 1, 1], "accel": [2, 2, 2], "magn": [3, 3, 3]}"#),
    ]
    try send(datagrams, to: source.port)
    let samples = try await withDeadline(10) {
      var out: [IMUSample] = []
      for _ in 0..<5 {
        guard case .sample(let s) = try await source.next() else { break }
        out.append(s)
      }
      return out
    }
    #expect(samples.map(\.timestamp) == [1.0, 1.03, 1.04, 1.05, 2.0])
    #expect(samples[0].gyroscope == Vector3(0.1, 0.2, 0.3))
    #expect(samples[3].magnetometer == Vector3(7, 8, 9))
    #expect(samples[4].accelerometer == Vector3(2, 2, 2))
    #expect(source.hasMagnetometer)
    let stats = source.statistics
    #expect(stats.received == 8)
    #expect(stats.samples == 5)
    #expect(stats.malformed == 4)
    #expect(stats.oversized == 1)
    #expect(stats.outOfOrder == 1)
  }

  @Test("stop ends the stream")
  func stop() async throws {
    let source = try UDPMotionSource(port: 0)
    let pending = Task { try await source.next() }
    source.stop()
    let event = try await withDeadline { try await pending.value }
    #expect(event == nil)
    #expect(try await source.next() == nil)
  }

  @Test("bad addresses and busy ports are one-line errors")
  func bindErrors() throws {
    let error = #expect(throws: NetworkSourceError.self) {
      try UDPMotionSource(port: 0, address: "banana")
    }
    #expect(error?.message.contains("banana") == true)
    let first = try UDPMotionSource(port: 0)
    defer { first.stop() }
    let busy = #expect(throws: NetworkSourceError.self) {
      try UDPMotionSource(port: first.port)
    }
    #expect(busy?.message.contains("Address already in use") == true)
  }
}
