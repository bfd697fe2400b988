import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import SwellTime
import Testing

@testable import SwellSensors

private func buffered(_ tree: FakeIIOTree, clock: MonotonicClock = .continuous) throws
  -> IIOSource
{
  var c = IIOSourceConfiguration()
  c.sysfsRoot = tree.sysfs
  c.devRoot = tree.dev
  c.mode = .buffered
  return try IIOSource(configuration: c, clock: clock)
}

private func samples(_ source: IIOSource, count: Int) async throws -> [IMUSample] {
  try await withDeadline {
    var out: [IMUSample] = []
    while out.count < count {
      guard case .sample(let s) = try await source.next() else { continue }
      out.append(s)
    }
    return out
  }
}

private let timestamp = (index: 0, type: "le:s64/64>>0")

/// Layouts real drivers publish, each read from its buffer bytes through the FIFO standing in
/// for `/dev/iio:deviceN` (the same code path as the character device).
@Suite("IIO: real drivers' buffer layouts")
private struct IIORealLayoutTests {
  @Test(
    "adis16470 (adis16475 driver): be:s32/32 gyro and accel at 0...5; the temperature turned off")
  func adis16475() async throws {
    let tree = try FakeIIOTree()
    try tree.addADIS16475()
    let gyro: [Int64] = [6_553_600, -6_553_600, 123_456_789]
    let accel: [Int64] = [-1, 0, 52_443_022]
    var bytes: [UInt8] = []
    for i in 0..<4 {
      // The mask Swell sets: gyro 0...2, accel 3...5, the timestamp 7 (the temperature at 6,
      // left enabled, is turned off while Swell reads).
      var channels: [(index: Int, type: String, value: Int64)] = []
      for a in 0..<3 { channels.append((a, "be:s32/32>>0", gyro[a] * Int64(i + 1))) }
      for a in 0..<3 { channels.append((3 + a, "be:s32/32>>0", accel[a])) }
      channels.append((7, timestamp.type, 7_000_000_000 + Int64(i) * 500_000))
      let scan = encodeScan(channels)
      // Six words at 0...20, the timestamp at 24.
      #expect(scan.count == 32)
      bytes += scan
    }
    let writer = FIFOWriter(
      path: tree.dev + "/iio:device0", bytes: bytes, chunk: bytes.count, holdOpen: true)
    defer { writer.release() }
    let source = try buffered(tree)
    let device = try #require(source.parts.first?.device)
    #expect(device.channels(of: .anglvel).allSatisfy { $0.scale == 0.000000026 })
    #expect(device.channels(of: .anglvel).map(\.scanIndex) == [0, 1, 2])
    #expect(device.channels(of: .deltaAngle).allSatisfy { $0.scanIndex == nil && $0.hasRawFile })
    let got = try await samples(source, count: 4)
    for (i, s) in got.enumerated() {
      let k = Double(i + 1)
      #expect(isApproximatelyEqual(s.timestamp, 7 + Double(i) * 0.0005, absolute: 1e-12))
      #expect(
        isApproximatelyEqual(
          s.gyroscope,
          Vector3(6_553_600 * k * 2.6e-8, -6_553_600 * k * 2.6e-8, 123_456_789 * k * 2.6e-8),
          tolerance: 1e-12))
      #expect(
        isApproximatelyEqual(
          s.accelerometer, Vector3(-1.87e-7, 0, 52_443_022 * 1.87e-7), tolerance: 1e-12))
    }
    #expect(try tree.read("iio:device0/scan_elements/in_temp0_en") == "0")
    await source.stop()
    // The temperature was enabled when Swell came: it is again.
    #expect(try tree.read("iio:device0/scan_elements/in_temp0_en") == "1")
    #expect(try tree.read("iio:device0/scan_elements/in_accel_x_en") == "0")
  }

  @Test("st_accel LNG2DM: le:s8/8 channels, then a 64-bit timestamp after padding to 8")
  func lng2dm() async throws {
    let tree = try FakeIIOTree()
    try tree.addLNG2DM()
    let values: [[Int64]] = [[-128, 127, 64], [1, -1, 0], [-7, 100, -100]]
    var bytes: [UInt8] = []
    for (i, v) in values.enumerated() {
      let scan = encodeScan([
        (0, "le:s8/8>>0", v[0]), (1, "le:s8/8>>0", v[1]), (2, "le:s8/8>>0", v[2]),
        (3, timestamp.type, 1_000_000 * Int64(i + 1)),
      ])
      #expect(scan.count == 16)
      bytes += scan
    }
    #expect(Array(bytes[0..<3]) == [0x80, 0x7F, 0x40])
    let writer = FIFOWriter(
      path: tree.dev + "/iio:device0", bytes: bytes, chunk: bytes.count, holdOpen: true)
    defer { writer.release() }
    let source = try buffered(tree)
    #expect(!source.hasGyroscope)
    let got = try await samples(source, count: 3)
    for (i, s) in got.enumerated() {
      let v = values[i].map { Double($0) * 0.152983 }
      #expect(isApproximatelyEqual(s.timestamp, Double(i + 1) * 1e-3, absolute: 1e-12))
      #expect(isApproximatelyEqual(s.accelerometer, Vector3(v[0], v[1], v[2]), tolerance: 1e-12))
      #expect(s.gyroscope == .zero)
    }
  }

  @Test("adxl345: le:s13/16 without a timestamp, buffer0/ only; stamped on the source's clock")
  func adxl345() async throws {
    let tree = try FakeIIOTree()
    try tree.addADXL345()
    // Storage bits above the 13 significant ones are set to noise, as a driver may leave them.
    let values: [[Int64]] = [[-4096, 4095, 256], [1, -1, 0], [-300, 0x6000 | 12, 4000]]
    var bytes: [UInt8] = []
    for v in values {
      bytes += encodeScan([
        (0, "le:s13/16>>0", v[0]), (1, "le:s13/16>>0", v[1]), (2, "le:s13/16>>0", v[2]),
      ])
    }
    #expect(bytes.count == 18)
    let manual = ManualMonotonicClock(start: 50)
    // One write: the reader takes the three scans in one read at 50 s, so they are stamped one
    // sampling period (100 Hz) apart, the last at 50 s.
    let writer = FIFOWriter(
      path: tree.dev + "/iio:device0", bytes: bytes, chunk: bytes.count, holdOpen: true)
    defer { writer.release() }
    let source = try buffered(tree, clock: manual.clock)
    #expect(source.parts.first?.device.bufferDirectory == "buffer0")
    #expect(source.parts.first?.device.timestamp == nil)
    let got = try await samples(source, count: 3)
    #expect(try tree.read("iio:device0/buffer0/enable") == "1")
    let expected: [[Double]] = [[-4096, 4095, 256], [1, -1, 0], [-300, 12, 4000]]
    for (i, s) in got.enumerated() {
      let v = expected[i].map { $0 * 0.0383 }
      #expect(isApproximatelyEqual(s.timestamp, 50 - Double(2 - i) * 0.01, absolute: 1e-9))
      #expect(isApproximatelyEqual(s.accelerometer, Vector3(v[0], v[1], v[2]), tolerance: 1e-12))
    }
  }

  @Test("Nexus 5: big-endian mpu6515 accel+gyro beside a little-endian ak8963 with per-axis scales")
  func nexus5() async throws {
    let tree = try FakeIIOTree()
    try tree.addNexus5()
    let source = try buffered(tree)
    #expect(source.name == "iio:mpu6515+ak8963")
    #expect(source.hasMagnetometer)
    let magnetometer = try #require(source.parts.last?.device)
    #expect(
      magnetometer.channels(of: .magn).map(\.scale) == [0.001763672, 0.001769531, 0.001693359])
    let started = Task { try await source.next() }
    var magnBytes: [UInt8] = []
    for i in 0..<3 {
      magnBytes += encodeScan([
        (0, "le:s16/16>>0", 100), (1, "le:s16/16>>0", -200), (2, "le:s16/16>>0", 300),
        (3, timestamp.type, 1_000 + Int64(i)),
      ])
    }
    #expect(Array(magnBytes[0..<2]) == [100, 0])
    let magn = FIFOWriter(path: tree.dev + "/iio:device1", bytes: magnBytes, holdOpen: true)
    defer { magn.release() }
    await magn.drained()
    var mpuBytes: [UInt8] = []
    for i in 0..<10 {
      mpuBytes += encodeScan([
        (0, "be:s16/16>>0", -2), (1, "be:s16/16>>0", 0), (2, "be:s16/16>>0", 16393),
        (4, "be:s16/16>>0", Int64(i) - 5), (5, "be:s16/16>>0", 0), (6, "be:s16/16>>0", 1000),
        (7, timestamp.type, 2_000_000 + Int64(i) * 5_000_000),
      ])
    }
    #expect(Array(mpuBytes[0..<2]) == [0xFF, 0xFE])
    let mpu = FIFOWriter(path: tree.dev + "/iio:device0", bytes: mpuBytes, holdOpen: true)
    defer { mpu.release() }
    var got = [try await withDeadline { try await started.value }].compactMap { e -> IMUSample? in
      if case .sample(let s) = e { return s }
      return nil
    }
    let lastTime = 0.002 + 9 * 0.005
    while let last = got.last, last.timestamp < lastTime - 1e-9 {
      got += try await samples(source, count: 1)
    }
    let expectedMagn = Vector3(100 * 0.1763672, -200 * 0.1769531, 300 * 0.1693359)
    for s in got {
      let i = ((s.timestamp - 0.002) / 0.005).rounded()
      #expect(
        isApproximatelyEqual(
          s.gyroscope, Vector3((i - 5) * 0.001064724, 0, 1000 * 0.001064724), tolerance: 1e-12))
      #expect(
        isApproximatelyEqual(
          s.accelerometer, Vector3(-2 * 0.000598, 0, 16393 * 0.000598), tolerance: 1e-12))
      if let m = s.magnetometer { #expect(isApproximatelyEqual(m, expectedMagn, tolerance: 1e-9)) }
    }
    #expect(got.last?.magnetometer != nil)
  }

  @Test(
    "mpu9250: the magnetometer mount matrix is applied as published (rotation or reflection)",
    arguments: [
      ("0, 1, 0; 1, 0, 0; 0, 0, -1", Vector3(30, 15, -45)),
      ("0, 1, 0; 1, 0, 0; 0, 0, 1", Vector3(30, 15, 45)),
    ])
  func mpu9250(matrix: String, expected: Vector3) async throws {
    let tree = try FakeIIOTree()
    try tree.addMPU9250(magnetometerMatrix: matrix)
    let scan = encodeScan([
      (0, "be:s16/16>>0", 0), (1, "be:s16/16>>0", 0), (2, "be:s16/16>>0", 16393),
      (4, "be:s16/16>>0", 0), (5, "be:s16/16>>0", 0), (6, "be:s16/16>>0", 0),
      (7, "be:s16/16>>0", 100), (8, "be:s16/16>>0", 200), (9, "be:s16/16>>0", 300),
      (10, timestamp.type, 42),
    ])
    #expect(scan.count == 32)
    let writer = FIFOWriter(path: tree.dev + "/iio:device0", bytes: scan, holdOpen: true)
    defer { writer.release() }
    let source = try buffered(tree)
    let got = try #require(try await samples(source, count: 1).first)
    // Sensor frame: (100, 200, 300) × 0.0015 Gauss × 100 = (15, 30, 45) µT; then M · v.
    #expect(isApproximatelyEqual(try #require(got.magnetometer), expected, tolerance: 1e-9))
    #expect(isApproximatelyEqual(got.accelerometer.z, 16393 * 0.000598, absolute: 1e-12))
  }

  @Test("HID sensor hub accel_3d: scan order y, x, z, le:s16/32 storage with noisy high bits")
  func hidAccel3D() async throws {
    let tree = try FakeIIOTree()
    try tree.addHIDAccel3D()
    let values: [(x: Int64, y: Int64, z: Int64)] = [(5, -981, 1000), (0x7FFF_0005, -1, -32768)]
    var bytes: [UInt8] = []
    for (i, v) in values.enumerated() {
      let scan = encodeScan([
        (0, "le:s16/32>>0", v.y), (1, "le:s16/32>>0", v.x), (2, "le:s16/32>>0", v.z),
        (3, timestamp.type, 10 + Int64(i)),
      ])
      #expect(scan.count == 24)
      bytes += scan
    }
    // y comes first: -981 as a sign-extended little-endian 32-bit word.
    #expect(Array(bytes[0..<4]) == [0x2B, 0xFC, 0xFF, 0xFF])
    let writer = FIFOWriter(
      path: tree.dev + "/iio:device0", bytes: bytes, chunk: bytes.count, holdOpen: true)
    defer { writer.release() }
    let source = try buffered(tree)
    let got = try await samples(source, count: 2)
    let g = 0.00980665
    #expect(
      isApproximatelyEqual(
        got[0].accelerometer, Vector3(5 * g, -981 * g, 1000 * g), tolerance: 1e-12))
    #expect(
      isApproximatelyEqual(got[1].accelerometer, Vector3(5 * g, -g, -32768 * g), tolerance: 1e-12))
  }

  @Test("a read that ends in the middle of a scan keeps the partial bytes for the next read")
  func partialScans() async throws {
    let tree = try FakeIIOTree()
    try tree.addLNG2DM()
    var bytes: [UInt8] = []
    for i in 0..<4 {
      bytes += encodeScan([
        (0, "le:s8/8>>0", Int64(i)), (1, "le:s8/8>>0", -Int64(i)), (2, "le:s8/8>>0", 50),
        (3, timestamp.type, 1_000 * Int64(i + 1)),
      ])
    }
    // Pieces ending 5 bytes into scan 1, 13 bytes into scan 2 (inside its timestamp), then 1
    // byte short of the end.
    let cuts = [21, 45, 63, 64]
    var pieces: [[UInt8]] = []
    var from = 0
    for c in cuts {
      pieces.append(Array(bytes[from..<c]))
      from = c
    }
    let writer = PiecewiseFIFOWriter(path: tree.dev + "/iio:device0", pieces: pieces)
    defer { writer.release() }
    let source = try buffered(tree)
    let got = try await samples(source, count: 4)
    for (i, s) in got.enumerated() {
      let d = Double(i)
      #expect(isApproximatelyEqual(s.timestamp, Double(i + 1) * 1e-6, absolute: 1e-15))
      #expect(
        isApproximatelyEqual(
          s.accelerometer, Vector3(d * 0.152983, -d * 0.152983, 50 * 0.152983), tolerance: 1e-12))
    }
  }
}
