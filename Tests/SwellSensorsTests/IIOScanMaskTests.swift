import Foundation
import Glibc
import SwellGeometry
import SwellMotion
import SwellTestSupport
import SwellTime
import Synchronization
import Testing

@testable import SwellSensors

/// A driver in front of the fake sysfs tree: the real system calls, except that writing 1 to a
/// device's `buffer/enable` (or an `_en` file) fails with `EINVAL` when `refuses` says so of the
/// scan mask the tree holds at that moment. The mask is read from the tree's own files here
/// (`_en` and `_index`), not through Swell's code.
private final class DriverSeam: Sendable {
  /// Decides whether the driver refuses: the scan indices enabled (for an `_en` write, with
  /// the written channel's index added) and the file written.
  let refuses: @Sendable (_ enabled: Set<Int>, _ file: String) -> Bool
  private let paths = Mutex<[Int32: String]>([:])
  /// How many writes were refused.
  let refusals = Atomic<Int>(0)

  init(refuses: @escaping @Sendable (_ enabled: Set<Int>, _ file: String) -> Bool) {
    self.refuses = refuses
  }

  /// The enabled scan indices of the device folder `device` as its files say.
  static func enabledIndices(_ device: String) -> Set<Int> {
    let folder = device + "/scan_elements/"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    var out: Set<Int> = []
    for f in files where f.hasSuffix("_en") {
      let base = String(f.dropLast(3))
      let on = (try? String(contentsOfFile: folder + f, encoding: .utf8))?.hasPrefix("1") == true
      if on, let i = index(folder + base + "_index") { out.insert(i) }
    }
    return out
  }

  static func index(_ file: String) -> Int? {
    (try? String(contentsOfFile: file, encoding: .utf8)).flatMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
  }

  var system: SystemCalls {
    var s = SystemCalls.live
    // A refused sysfs write leaves the attribute as it was: the file is opened without O_TRUNC
    // and truncated only when the write is accepted.
    s.open = { [self] path, flags in
      let r = SystemCalls.live.open(path, flags & ~O_TRUNC)
      if r.fd >= 0 { paths.withLock { $0[r.fd] = path } }
      return r
    }
    s.close = { [self] fd in
      paths.withLock { _ = $0.removeValue(forKey: fd) }
      SystemCalls.live.close(fd)
    }
    s.write = { [self] fd, bytes in
      let path = paths.withLock { $0[fd] } ?? ""
      let text = String(decoding: bytes, as: UTF8.self)
      if text.hasPrefix("1") {
        var enabled: Set<Int>?
        if path.hasSuffix("/buffer/enable") {
          enabled = DriverSeam.enabledIndices(String(path.dropLast("/buffer/enable".count)))
        } else if path.hasSuffix("_en"), let slash = path.range(of: "/scan_elements/") {
          var e = DriverSeam.enabledIndices(String(path[..<slash.lowerBound]))
          if let i = DriverSeam.index(String(path.dropLast(3)) + "_index") { e.insert(i) }
          enabled = e
        }
        if let enabled, refuses(enabled, path) {
          refusals.add(1, ordering: .relaxed)
          return (-1, EINVAL)
        }
      }
      _ = ftruncate(fd, 0)
      return SystemCalls.live.write(fd, bytes)
    }
    return s
  }

  /// The ADIS16475 family with burst delta data, as `adis16475_update_scan_mode` decides when
  /// the buffer is enabled: -EINVAL when the mask has bits of both
  /// `ADIS16500_BURST_DATA_SEL_0_CHN_MASK` (`GENMASK(5, 0)`: gyroscope, accelerometer) and
  /// `ADIS16500_BURST_DATA_SEL_1_CHN_MASK` (`GENMASK(12, 7)`: delta angle, delta velocity).
  static func adis16505() -> DriverSeam {
    DriverSeam { enabled, file in
      file.hasSuffix("/buffer/enable") && enabled.contains { $0 <= 5 }
        && enabled.contains { (7...12).contains($0) }
    }
  }
}

private func configuration(
  _ tree: FakeIIOTree, mode: IIOReadMode, channels: IIOChannelSelection = .automatic
) -> IIOSourceConfiguration {
  var c = IIOSourceConfiguration()
  c.sysfsRoot = tree.sysfs
  c.devRoot = tree.dev
  c.mode = mode
  c.channels = channels
  c.firstScanTimeout = 30
  return c
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

/// The `_en` values of every scan element of `iio:device0`, by channel name.
private func mask(_ tree: FakeIIOTree) throws -> [String: String] {
  let folder = tree.sysfs + "/iio:device0/scan_elements"
  var out: [String: String] = [:]
  for f in try FileManager.default.contentsOfDirectory(atPath: folder) where f.hasSuffix("_en") {
    out[String(f.dropLast(3))] = try tree.read("iio:device0/scan_elements/" + f)
  }
  return out
}

private let axes = ["x", "y", "z"]
private let s32 = "be:s32/32>>0"
private let ts = "le:s64/64>>0"

@Suite("IIO: Swell owns the scan mask, and reads delta channels")
private struct IIOScanMaskTests {
  @Test("the driver-like fake refuses a mixed mask and accepts either half (its rule, checked)")
  func fakeDriverRule() throws {
    let tree = try FakeIIOTree()
    try tree.addADIS16505()
    let seam = DriverSeam.adis16505()
    let sysfs = IIOSysfs(root: tree.sysfs, system: seam.system)
    let enable = tree.sysfs + "/iio:device0/buffer/enable"
    // As the kernel documentation's example leaves it (delta velocity and temperature): accepted.
    try sysfs.writeAttribute("1", to: enable)
    try sysfs.writeAttribute("0", to: enable)
    // Add a gyroscope channel: gyroscope with delta velocity is refused.
    try tree.write("iio:device0/scan_elements/in_anglvel_x_en", "1")
    let error = #expect(throws: IIOError.self) { try sysfs.writeAttribute("1", to: enable) }
    #expect(error?.code == EINVAL)
    #expect(try tree.read("iio:device0/buffer/enable") == "0")
  }

  @Test("extra channels left enabled: exactly gyro, accel and timestamp while reading; restored")
  func ownsAndRestores() async throws {
    let tree = try FakeIIOTree()
    try tree.addADIS16505()
    try tree.write("iio:device0/buffer/length", "10")
    let before = try mask(tree)
    #expect(before["in_deltavelocity_x"] == "1" && before["in_temp0"] == "1")
    let seam = DriverSeam.adis16505()
    // The bytes the driver delivers for the mask Swell sets: gyro 0...2, accel 3...5 and the
    // timestamp 13 (six words at 0...20, the timestamp at 24: 32 bytes).
    let gyro: [Int64] = [1_000_000, -2_000_000, 300_000_000]
    let accel: [Int64] = [0, -5_000, 265_000_000]
    var bytes: [UInt8] = []
    for k in 0..<3 {
      var channels: [(index: Int, type: String, value: Int64)] = []
      for a in 0..<3 { channels.append((a, s32, gyro[a] * Int64(k + 1))) }
      for a in 0..<3 { channels.append((3 + a, s32, accel[a])) }
      channels.append((13, ts, 5_000_000_000 + Int64(k) * 500_000))
      let scan = encodeScan(channels)
      #expect(scan.count == 32)
      bytes += scan
    }
    let writer = FIFOWriter(
      path: tree.dev + "/iio:device0", bytes: bytes, chunk: bytes.count, holdOpen: true)
    defer { writer.release() }
    let source = try IIOSource(
      configuration: configuration(tree, mode: .buffered), clock: .continuous,
      sysfs: IIOSysfs(root: tree.sysfs, system: seam.system))
    let got = try await samples(source, count: 3)
    #expect(source.activeMode == .buffered)
    #expect(seam.refusals.load(ordering: .relaxed) == 0)
    let reading = try mask(tree)
    for (name, value) in reading {
      let wanted =
        name.hasPrefix("in_anglvel_") || name.hasPrefix("in_accel_") || name == "in_timestamp"
      #expect(value == (wanted ? "1" : "0"), "\(name)")
    }
    #expect(try tree.read("iio:device0/buffer/enable") == "1")
    for (k, s) in got.enumerated() {
      let m = Double(k + 1)
      #expect(isApproximatelyEqual(s.timestamp, 5 + Double(k) * 0.0005, absolute: 1e-12))
      #expect(
        isApproximatelyEqual(
          s.gyroscope, Vector3(1e6 * m * 6e-9, -2e6 * m * 6e-9, 3e8 * m * 6e-9), tolerance: 1e-12))
      #expect(
        isApproximatelyEqual(
          s.accelerometer, Vector3(0, -5_000 * 3.7e-8, 265e6 * 3.7e-8), tolerance: 1e-12))
    }
    await source.stop()
    #expect(try mask(tree) == before)
    #expect(try tree.read("iio:device0/buffer/enable") == "0")
    #expect(try tree.read("iio:device0/buffer/length") == "10")
  }

  @Test(
    "a refused mask is one line naming the channels (on buffer/enable, or on an _en), not a timeout",
    arguments: ["enable", "second _en"])
  func refusedMask(where refusal: String) async throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(0, name: "onehot", types: ["accel"], scales: ["accel": "0.01"])
    // A driver whose update_scan_mode takes no mask at all, or one validating masks as one-hot
    // (`iio_validate_scan_mask_onehot`: a second enabled channel is -EINVAL).
    let seam =
      refusal == "enable"
      ? DriverSeam { _, file in file.hasSuffix("/buffer/enable") }
      : DriverSeam { enabled, file in file.hasSuffix("_en") && enabled.count > 1 }
    let sysfs = IIOSysfs(root: tree.sysfs, system: seam.system)
    let source = try IIOSource(
      configuration: configuration(tree, mode: .buffered), clock: .continuous, sysfs: sysfs)
    let error = await #expect(throws: MotionSourceError.self) {
      try await withDeadline { try await source.next() }
    }
    let message = try #require(error?.message)
    #expect(!message.contains("\n"))
    #expect(
      message.contains("refused the channel set in_accel_x, in_accel_y, in_accel_z, in_timestamp"))
    #expect(message.contains("Invalid argument"))
    #expect(!message.contains("no buffered scan"))
    // What was found is back.
    #expect(try mask(tree).values.allSatisfy { $0 == "0" })
    #expect(try tree.read("iio:device0/buffer/enable") == "0")
    // Automatic mode says the same line as the reason it polls.
    let auto = try IIOSource(
      configuration: configuration(tree, mode: .automatic), clock: .continuous, sysfs: sysfs)
    _ = try await withDeadline { try await auto.next() }
    #expect(auto.activeMode == .polled)
    #expect(auto.fallbackReason?.contains("refused the channel set in_accel_x") == true)
  }

  @Test("channel selection: rates by default, deltas when asked or when that is all there is")
  func selection() throws {
    let tree = try FakeIIOTree()
    try tree.addADIS16505()
    let devices = try IIOSysfs(root: tree.sysfs).devices()
    #expect(devices.first?.types == [.accel, .anglvel, .deltaAngle, .deltaVelocity])
    let auto = try IIOSource.select(from: devices, named: nil, root: tree.sysfs)
    #expect(auto.map(\.types) == [[.accel, .anglvel]])
    let deltas = try IIOSource.select(from: devices, named: nil, channels: .deltas, root: "r")
    #expect(deltas.map(\.types) == [[.deltaVelocity, .deltaAngle]])
    let only = try FakeIIOTree()
    try only.addDevice(
      0, name: "deltas",
      channels: axes.map { FakeIIOChannel("in_deltaangl_\($0)", index: 0, type: s32) },
      attributes: [:])
    let onlyDevices = try IIOSysfs(root: only.sysfs).devices()
    #expect(throws: IIOError.self) {
      try IIOSource.select(from: onlyDevices, named: nil, root: "r")
    }
    try only.write("iio:device0/in_deltavelocity_x_raw", "0")
    let withVelocity = try IIOSysfs(root: only.sysfs).devices()
    let picked = try IIOSource.select(from: withVelocity, named: nil, root: "r")
    #expect(picked.map(\.types) == [[.deltaVelocity, .deltaAngle]])
    let error = #expect(throws: IIOError.self) {
      try IIOSource.select(from: withVelocity, named: nil, channels: .rates, root: "r")
    }
    #expect(error?.message.contains("delta-velocity and delta-angle channels only") == true)
  }

  @Test(
    "adis16505 deltas at 2000 Hz: rate = Δangle·f and specific force = Δvelocity·f from the bytes",
    arguments: [IIOReadMode.buffered, .automatic])
  func deltasWithFrequency(mode: IIOReadMode) async throws {
    let tree = try FakeIIOTree()
    try tree.addADIS16505()
    let seam = DriverSeam.adis16505()
    var random = SplitMix64(seed: 32)
    // The mask Swell sets: delta angle 7...9, delta velocity 10...12 and the timestamp 13:
    // six words at 0...20, the timestamp at 24.
    var raw: [[Int64]] = []
    var bytes: [UInt8] = []
    for k in 0..<6 {
      let v = (0..<6).map { _ in Int64(Int32(truncatingIfNeeded: random.next() >> 33)) }
      raw.append(v)
      var channels: [(index: Int, type: String, value: Int64)] = []
      for i in 0..<6 { channels.append((7 + i, s32, v[i])) }
      channels.append((13, ts, 9_000_000_000 + Int64(k) * 500_000))
      bytes += encodeScan(channels)
    }
    #expect(bytes.count == 6 * 32)
    let writer = FIFOWriter(
      path: tree.dev + "/iio:device0", bytes: bytes, chunk: 40, holdOpen: true)
    defer { writer.release() }
    let source = try IIOSource(
      configuration: configuration(tree, mode: mode, channels: .deltas), clock: .continuous,
      sysfs: IIOSysfs(root: tree.sysfs, system: seam.system))
    #expect(source.hasGyroscope)
    let got = try await samples(source, count: 6)
    #expect(seam.refusals.load(ordering: .relaxed) == 0)
    #expect(try tree.read("iio:device0/scan_elements/in_temp0_en") == "0")
    #expect(try tree.read("iio:device0/scan_elements/in_deltaangl_x_en") == "1")
    for (k, s) in got.enumerated() {
      // in_deltaangl_scale 0.000000006 rad, in_deltavelocity_scale 0.000000046 m/s, 2000 Hz.
      let rate = raw[k][0..<3].map { Double($0) * 0.000000006 * 2000 }
      let force = raw[k][3..<6].map { Double($0) * 0.000000046 * 2000 }
      #expect(isApproximatelyEqual(s.timestamp, 9 + Double(k) * 0.0005, absolute: 1e-12))
      #expect(
        isApproximatelyEqual(s.gyroscope, Vector3(rate[0], rate[1], rate[2]), tolerance: 1e-12))
      #expect(
        isApproximatelyEqual(
          s.accelerometer, Vector3(force[0], force[1], force[2]), tolerance: 1e-12))
    }
    await source.stop()
    #expect(try tree.read("iio:device0/scan_elements/in_temp0_en") == "1")
    #expect(try tree.read("iio:device0/scan_elements/in_deltaangl_x_en") == "0")
    #expect(try tree.read("iio:device0/scan_elements/in_deltavelocity_x_en") == "1")
  }

  @Test("deltas without a sampling frequency: Δt between timestamps; the first scan gives none")
  func deltasWithTimestamps() async throws {
    let tree = try FakeIIOTree()
    var channels: [FakeIIOChannel] = []
    for (i, a) in axes.enumerated() {
      channels.append(FakeIIOChannel("in_deltaangl_\(a)", index: i, type: "le:s16/16>>0"))
      channels.append(FakeIIOChannel("in_deltavelocity_\(a)", index: 3 + i, type: "le:s16/16>>0"))
    }
    channels.append(FakeIIOChannel("in_timestamp", index: 6, type: ts))
    try tree.addDevice(
      0, name: "deltaimu", channels: channels,
      attributes: [
        "in_deltaangl_scale": "0.0001", "in_deltavelocity_scale": "0.001",
        // The delta channels take the gyroscope's matrix when they have none of their own.
        "in_anglvel_mount_matrix": "0, -1, 0; 1, 0, 0; 0, 0, 1",
      ])
    let stamps: [Int64] = [1_000_000_000, 1_010_000_000, 1_030_000_000, 1_035_000_000]
    let raw: [[Int64]] = [
      [10, 20, 30, 40, 50, 60], [1, -2, 3, -4, 5, 9810], [7, 0, 0, 0, 0, 0], [0, 0, 100, 0, 49, 0],
    ]
    var bytes: [UInt8] = []
    for (k, v) in raw.enumerated() {
      var c: [(index: Int, type: String, value: Int64)] = []
      for i in 0..<6 { c.append((i, "le:s16/16>>0", v[i])) }
      c.append((6, ts, stamps[k]))
      bytes += encodeScan(c)
    }
    let writer = FIFOWriter(
      path: tree.dev + "/iio:device0", bytes: bytes, chunk: bytes.count, holdOpen: true)
    defer { writer.release() }
    let source = try IIOSource(configuration: configuration(tree, mode: .buffered))
    #expect(source.parts.map(\.types) == [[.deltaVelocity, .deltaAngle]])
    let got = try await samples(source, count: 3)
    for (j, s) in got.enumerated() {
      let k = j + 1
      let dt = Double(stamps[k] - stamps[k - 1]) * 1e-9
      let a = raw[k][0..<3].map { Double($0) * 0.0001 / dt }
      let v = raw[k][3..<6].map { Double($0) * 0.001 / dt }
      #expect(isApproximatelyEqual(s.timestamp, Double(stamps[k]) * 1e-9, absolute: 1e-12))
      // v_device = M · v_sensor with M = [0 -1 0; 1 0 0; 0 0 1] for the angle.
      #expect(isApproximatelyEqual(s.gyroscope, Vector3(-a[1], a[0], a[2]), tolerance: 1e-9))
      #expect(isApproximatelyEqual(s.accelerometer, Vector3(v[0], v[1], v[2]), tolerance: 1e-9))
    }
  }

  @Test("adis16470's deltas are polled only: read as Δ·f from the _raw files")
  func polledDeltas() async throws {
    let tree = try FakeIIOTree()
    try tree.addADIS16475()
    for (i, a) in axes.enumerated() {
      try tree.write("iio:device0/in_deltaangl_\(a)_raw", String(1000 * (i + 1)))
      try tree.write("iio:device0/in_deltavelocity_\(a)_raw", String(-7 * (i + 1)))
    }
    let clock = ManualMonotonicClock()
    let source = try IIOSource(
      configuration: configuration(tree, mode: .automatic, channels: .deltas), clock: clock.clock)
    let s = try #require(try await withDeadline { try await source.next() })
    guard case .sample(let sample) = s else { throw TimedOut() }
    #expect(source.activeMode == .polled)
    #expect(source.fallbackReason?.contains("cannot be buffered") == true)
    // in_deltaangl_scale 0.000000017 rad, in_deltavelocity_scale 0.000000186 m/s, 2000 Hz.
    #expect(
      isApproximatelyEqual(
        sample.gyroscope, Vector3(1000 * 1.7e-8 * 2000, 2000 * 1.7e-8 * 2000, 3000 * 1.7e-8 * 2000),
        tolerance: 1e-12))
    #expect(
      isApproximatelyEqual(
        sample.accelerometer,
        Vector3(-7 * 1.86e-7 * 2000, -14 * 1.86e-7 * 2000, -21 * 1.86e-7 * 2000), tolerance: 1e-12))
  }
}
