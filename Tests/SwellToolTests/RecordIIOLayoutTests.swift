import Foundation
import SwellGeometry
import SwellMotion
import SwellRecordings
import SwellTestSupport
import Synchronization
import Testing

/// Records `count` samples of a fake tree whose FIFOs the writers feed.
private func record(_ tree: FakeIIOTree, count: Int) throws -> [IMUSample] {
  let out = tree.root + "/rec.csv"
  let r = try runSwell([
    "record", "iio", "--sysfs-root", tree.sysfs, "--dev-root", tree.dev, "--mode", "buffered",
    "-o", out, "--duration", "30", "--samples", "\(count)",
  ])
  #expect(r.status == 0, "\(r.err)")
  return try RawIMUCSV.read(from: URL(fileURLWithPath: out))
}

private let ts = "le:s64/64>>0"

@Suite("swell record iio on real drivers' layouts")
private struct RecordIIOLayoutTests {
  @Test("adis16470 (adis16475 driver): gyro and accel at 0...5, the enabled temperature off")
  func adis16475() throws {
    let tree = try FakeIIOTree()
    try tree.addADIS16475()
    var bytes: [UInt8] = []
    for i in 0..<5 {
      // The mask Swell sets (drivers/iio/imu/adis16475.c, adis16475_channels[]): gyro 0...2,
      // accel 3...5, timestamp 7; the temperature at 6 is turned off while it reads.
      var channels: [(index: Int, type: String, value: Int64)] = []
      for a in 0..<3 {
        channels.append((a, "be:s32/32>>0", Int64(i + 1) * 1_000_000 * Int64(a + 1)))
      }
      for a in 0..<3 { channels.append((3 + a, "be:s32/32>>0", a == 2 ? 52_443_022 : 0)) }
      channels.append((7, ts, 3_000_000_000 + Int64(i) * 500_000))
      bytes += encodeScan(channels)
    }
    let writer = FIFOWriter(
      path: tree.dev + "/iio:device0", bytes: bytes, chunk: bytes.count, drainBeforeClose: true)
    let samples = try record(tree, count: 5)
    writer.wait()
    #expect(samples.count == 5)
    for (i, s) in samples.enumerated() {
      let k = Double(i + 1) * 1e6 * 2.6e-8
      #expect(isApproximatelyEqual(s.timestamp, Double(i) * 0.0005, absolute: 1e-9))
      #expect(isApproximatelyEqual(s.gyroscope, Vector3(k, 2 * k, 3 * k), tolerance: 1e-9))
      #expect(
        isApproximatelyEqual(s.accelerometer, Vector3(0, 0, 52_443_022 * 1.87e-7), tolerance: 1e-9))
    }
    #expect(try tree.read("iio:device0/scan_elements/in_temp0_en") == "1")
  }

  @Test(
    "adis16505-2 deltas: rate and specific force are Δ·f from the bytes; Ctrl-C restores the mask")
  func deltasInterrupted() throws {
    let tree = try FakeIIOTree()
    // As the kernel documentation's buffer example leaves it: delta velocity and temperature.
    try tree.addADIS16505()
    let folder = tree.sysfs + "/iio:device0/scan_elements/"
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.hasSuffix("_en")
    }
    let before = try files.map { try tree.read("iio:device0/scan_elements/" + $0) }
    // Deltas at 7...12 and the timestamp at 13: six words, the timestamp at 24.
    let raw: [[Int64]] = (0..<20).map { k in
      [1_000 * Int64(k), -2_000, 3_000_000, 10_000, 0, 100_000_000 + Int64(k)]
    }
    var bytes: [UInt8] = []
    for (k, v) in raw.enumerated() {
      var c: [(index: Int, type: String, value: Int64)] = []
      for i in 0..<6 { c.append((7 + i, "be:s32/32>>0", v[i])) }
      c.append((13, ts, 4_000_000_000 + Int64(k) * 500_000))
      bytes += encodeScan(c)
    }
    let writer = FIFOWriter(
      path: tree.dev + "/iio:device0", bytes: bytes, chunk: 64, holdOpen: true)
    defer { writer.release() }
    let out = tree.root + "/deltas.csv"
    let swell = try swellExecutable().path
    let result = Mutex<(status: Int32, out: String, err: String)?>(nil)
    let done = DispatchSemaphore(value: 0)
    let arguments = [
      "--preserve-status", "-s", "INT", "8", swell, "record", "iio", "--sysfs-root", tree.sysfs,
      "--dev-root", tree.dev, "--mode", "buffered", "--iio-channels", "deltas", "-o", out,
      "--duration", "60",
    ]
    DispatchQueue.global().async {
      let r = try? runProgram("timeout", arguments)
      result.withLock { $0 = r }
      done.signal()
    }
    // While it records: the delta channels and the timestamp, nothing else.
    writer.waitDrained()
    for f in files {
      let on = f.hasPrefix("in_delta") || f == "in_timestamp_en"
      #expect(try tree.read("iio:device0/scan_elements/" + f) == (on ? "1" : "0"), "\(f)")
    }
    done.wait()
    let r = try #require(result.withLock { $0 })
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.contains("stopped by Ctrl-C"), "\(r.out)")
    // After Ctrl-C the mask is as it was found, the buffer off.
    #expect(try files.map { try tree.read("iio:device0/scan_elements/" + $0) } == before)
    #expect(try tree.read("iio:device0/buffer/enable") == "0")
    let samples = try RawIMUCSV.read(from: URL(fileURLWithPath: out))
    #expect(samples.count == raw.count)
    for (k, s) in samples.enumerated() {
      // in_deltaangl_scale 0.000000006 rad, in_deltavelocity_scale 0.000000046 m/s, 2000 Hz.
      let v = raw[k].map(Double.init)
      #expect(isApproximatelyEqual(s.timestamp, Double(k) * 0.0005, absolute: 1e-9))
      #expect(
        isApproximatelyEqual(
          s.gyroscope, Vector3(v[0], v[1], v[2]) * (0.000000006 * 2000), tolerance: 1e-9))
      #expect(
        isApproximatelyEqual(
          s.accelerometer, Vector3(v[3], v[4], v[5]) * (0.000000046 * 2000), tolerance: 1e-9))
    }
  }

  @Test("LNG2DM (8-bit + timestamp), adxl345 (13-bit, no timestamp) and a HID hub (y, x, z)")
  func accelerometerOnly() throws {
    let raw: [[Int64]] = [[-128, 127, 64], [3, -3, 100], [10, 20, 30]]
    let layouts:
      [(add: (FakeIIOTree) throws -> Void, scale: Double, scan: ([Int64], Int) -> [UInt8])] = [
        (
          { try $0.addLNG2DM() }, 0.152983,
          { v, i in
            encodeScan([
              (0, "le:s8/8>>0", v[0]), (1, "le:s8/8>>0", v[1]), (2, "le:s8/8>>0", v[2]),
              (3, ts, 1_000_000 * Int64(i)),
            ])
          }
        ),
        (
          { try $0.addADXL345() }, 0.0383,
          { v, _ in
            encodeScan([
              (0, "le:s13/16>>0", v[0]), (1, "le:s13/16>>0", v[1]), (2, "le:s13/16>>0", v[2]),
            ])
          }
        ),
        (
          { try $0.addHIDAccel3D() }, 0.00980665,
          { v, i in
            encodeScan([
              (0, "le:s16/32>>0", v[1]), (1, "le:s16/32>>0", v[0]), (2, "le:s16/32>>0", v[2]),
              (3, ts, 1_000_000 * Int64(i)),
            ])
          }
        ),
      ]
    for layout in layouts {
      let tree = try FakeIIOTree()
      try layout.add(tree)
      var bytes: [UInt8] = []
      for (i, v) in raw.enumerated() { bytes += layout.scan(v, i) }
      let writer = FIFOWriter(
        path: tree.dev + "/iio:device0", bytes: bytes, chunk: bytes.count, drainBeforeClose: true)
      let samples = try record(tree, count: 3)
      writer.wait()
      #expect(samples.count == 3)
      #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
      for (s, v) in zip(samples, raw) {
        let e = Vector3(Double(v[0]), Double(v[1]), Double(v[2])) * layout.scale
        #expect(isApproximatelyEqual(s.accelerometer, e, tolerance: 1e-9), "\(s)")
        #expect(s.gyroscope == .zero)
      }
    }
  }

  @Test("mpu9250: the magnetometer's published matrix applied; 9D rows")
  func mpu9250() throws {
    let tree = try FakeIIOTree()
    try tree.addMPU9250()
    var bytes: [UInt8] = []
    for i in 0..<4 {
      bytes += encodeScan([
        (0, "be:s16/16>>0", 0), (1, "be:s16/16>>0", 0), (2, "be:s16/16>>0", 16393),
        (4, "be:s16/16>>0", Int64(i)), (5, "be:s16/16>>0", 0), (6, "be:s16/16>>0", 0),
        (7, "be:s16/16>>0", 100), (8, "be:s16/16>>0", 200), (9, "be:s16/16>>0", 300),
        (10, ts, 5_000_000 * Int64(i)),
      ])
    }
    let writer = FIFOWriter(
      path: tree.dev + "/iio:device0", bytes: bytes, chunk: bytes.count, drainBeforeClose: true)
    let samples = try record(tree, count: 4)
    writer.wait()
    #expect(samples.count == 4)
    for (i, s) in samples.enumerated() {
      #expect(isApproximatelyEqual(s.timestamp, Double(i) * 0.005, absolute: 1e-9))
      #expect(isApproximatelyEqual(s.gyroscope.x, Double(i) * 0.001064724, absolute: 1e-12))
      #expect(
        isApproximatelyEqual(try #require(s.magnetometer), Vector3(30, 15, -45), tolerance: 1e-9))
    }
  }

  @Test(
    "Nexus 5: mpu6515 (big-endian) and ak8963 (little-endian, per-axis scales) in one recording")
  func nexus5() throws {
    let tree = try FakeIIOTree()
    try tree.addNexus5()
    var magnBytes: [UInt8] = []
    for i in 0..<2 {
      magnBytes += encodeScan([
        (0, "le:s16/16>>0", 100), (1, "le:s16/16>>0", -200), (2, "le:s16/16>>0", 300),
        (3, ts, Int64(i)),
      ])
    }
    var mpuBytes: [UInt8] = []
    for i in 0..<8 {
      mpuBytes += encodeScan([
        (0, "be:s16/16>>0", 0), (1, "be:s16/16>>0", 0), (2, "be:s16/16>>0", 16393),
        (4, "be:s16/16>>0", Int64(i)), (5, "be:s16/16>>0", 0), (6, "be:s16/16>>0", 0),
        (7, ts, 1_000_000 + Int64(i) * 5_000_000),
      ])
    }
    let magn = FIFOWriter(path: tree.dev + "/iio:device1", bytes: magnBytes, holdOpen: true)
    defer { magn.release() }
    // The accelerometer and gyroscope scans start once the magnetometer's were read.
    let mpuDone = DispatchSemaphore(value: 0)
    let mpuPath = tree.dev + "/iio:device0"
    let mpuScans = mpuBytes
    let feeder = Thread {
      magn.waitDrained()
      let mpu = FIFOWriter(
        path: mpuPath, bytes: mpuScans, chunk: mpuScans.count, drainBeforeClose: true)
      mpu.wait()
      mpuDone.signal()
    }
    feeder.start()
    let samples = try record(tree, count: 8)
    _ = mpuDone.wait(timeout: .now() + 30)
    #expect(samples.count == 8)
    let magnExpected = Vector3(100 * 0.1763672, -200 * 0.1769531, 300 * 0.1693359)
    for s in samples {
      let i = (s.timestamp / 0.005).rounded()
      #expect(isApproximatelyEqual(s.gyroscope.x, i * 0.001064724, absolute: 1e-12))
      #expect(isApproximatelyEqual(s.accelerometer.z, 16393 * 0.000598, absolute: 1e-12))
      if let m = s.magnetometer { #expect(isApproximatelyEqual(m, magnExpected, tolerance: 1e-9)) }
    }
    #expect(samples.last?.magnetometer != nil)
  }
}
