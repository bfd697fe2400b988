import Foundation
import Glibc
import SwellGeometry
import SwellMotion
import SwellRecordings
import SwellTestSupport
import Testing

@Suite("swell record")
private struct RecordCommandTests {
  @Test("records buffered IIO scans from the FIFO into a raw IMU CSV")
  func buffered() throws {
    let tree = try FakeIIOTree()
    try tree.addBMI160()
    var bytes: [UInt8] = []
    for i in 0..<30 {
      bytes += scanBytes(
        [Int16(i), 0, 16150, 0, 0, Int16(-i)], timestampNs: 5_000_000_000 + Int64(i) * 5_000_000)
    }
    let writer = FIFOWriter(
      path: tree.dev + "/iio:device0", bytes: bytes, chunk: bytes.count, drainBeforeClose: true)
    let out = tree.root + "/rec.csv"
    let r = try runSwell([
      "record", "iio:bmi160", "--sysfs-root", tree.sysfs, "--dev-root", tree.dev, "--mode",
      "buffered", "-o", out, "--duration", "20", "--samples", "30",
    ])
    writer.wait()
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out == "recorded 30 samples (6D) from iio:bmi160 over 0.145 s: \(out)\n")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.hasPrefix("t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n"))
    let samples = try RawIMUCSV.read(from: URL(fileURLWithPath: out))
    #expect(samples.count == 30)
    for (i, s) in samples.enumerated() {
      let d = Double(i)
      #expect(isApproximatelyEqual(s.timestamp, d * 0.005, absolute: 1e-9))
      // Mount matrix rows (0,1,0; -1,0,0; 0,0,1): device = (y, -x, z).
      #expect(
        isApproximatelyEqual(s.accelerometer, Vector3(0, -d * 0.000598, 9.6577), tolerance: 1e-9))
      #expect(isApproximatelyEqual(s.gyroscope, Vector3(0, 0, -d * 0.001065), tolerance: 1e-9))
      #expect(s.magnetometer == nil)
    }
    #expect(try tree.read("iio:device0/buffer/enable") == "0")
  }

  @Test("records polled IIO values, with --absolute-time")
  func polled() throws {
    let tree = try FakeIIOTree()
    try tree.addBMI160(raw: [100, 0, 16150, 0, 0, 1000])
    let out = tree.root + "/polled.csv"
    let r = try runSwell([
      "record", "iio", "--sysfs-root", tree.sysfs, "--mode", "polled", "--rate", "200", "-o", out,
      "--duration", "20", "--samples", "5",
    ])
    #expect(r.status == 0, "\(r.err)")
    #expect(try tree.read("iio:device0/sampling_frequency") == "200")
    let samples = try RawIMUCSV.read(from: URL(fileURLWithPath: out))
    #expect(samples.count == 5)
    #expect(samples.first?.timestamp == 0)
    for s in samples {
      #expect(isApproximatelyEqual(s.accelerometer, Vector3(0, -0.0598, 9.6577), tolerance: 1e-9))
      #expect(isApproximatelyEqual(s.gyroscope, Vector3(0, 0, 1.065), tolerance: 1e-9))
    }
  }

  @Test("no sensor, bad sources and missing options are one-line errors")
  func errors() throws {
    let tree = try FakeIIOTree()
    let out = tree.root + "/x.csv"
    let none = try runSwell([
      "record", "iio", "--sysfs-root", tree.root + "/none", "-o", out, "--duration", "1",
    ])
    #expect(none.status == 1)
    #expect(none.err.hasPrefix("swell record: no IIO devices:"))
    #expect(!FileManager.default.fileExists(atPath: out))
    let bad = try runSwell(["record", "carrier-pigeon", "-o", out, "--duration", "1"])
    #expect(bad.status == 64)
    #expect(bad.err.contains("unknown SOURCE 'carrier-pigeon'"))
    let noDuration = try runSwell(["record", "iio", "-o", out])
    #expect(noDuration.status == 64)
    #expect(noDuration.err == "swell record: needs --duration S\n")
    let badPort = try runSwell(["record", "udp:99999", "-o", out, "--duration", "1"])
    #expect(badPort.status == 64)
  }

  @Test("records a UDP stream; nothing received writes nothing")
  func udp() throws {
    let out = NSTemporaryDirectory() + "/swell-udp-\(UInt64.random(in: 0...UInt64.max)).csv"
    defer { try? FileManager.default.removeItem(atPath: out) }
    let r = try runSwell(["record", "udp:0", "-o", out, "--duration", "0.3"])
    #expect(r.status == 1)
    #expect(r.err.contains("no samples from udp:127.0.0.1:"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
