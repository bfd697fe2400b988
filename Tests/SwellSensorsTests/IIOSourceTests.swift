import Foundation
import Glibc
import SwellGeometry
import SwellMotion
import SwellTestSupport
import SwellTime
import Synchronization
import Testing

@testable import SwellSensors

private func configuration(
  _ tree: FakeIIOTree, mode: IIOReadMode, name: String? = nil, firstScanTimeout: Double = 30
) -> IIOSourceConfiguration {
  var c = IIOSourceConfiguration()
  // Long by default: the suite runs in parallel on two cores, and a slow FIFO writer thread
  // must not look like a buffer that never delivers (the fallback test sets 2 s).
  c.firstScanTimeout = firstScanTimeout
  c.sysfsRoot = tree.sysfs
  c.devRoot = tree.dev
  c.mode = mode
  c.deviceName = name
  return c
}

/// Yields until a task sleeps on the clock (bounded).
private func waitForSleeper(_ clock: ManualMonotonicClock) async {
  for _ in 0..<200_000 where clock.sleeperCount == 0 { await Task.yield() }
}

private func sample(_ event: MotionEvent?) throws -> IMUSample {
  guard case .sample(let s) = try #require(event) else {
    Issue.record("expected a sample")
    throw TimedOut()
  }
  return s
}

@Suite("IIO sources over a fake sysfs tree")
private struct IIOSourceTests {
  @Test("polled values: (raw + offset) × scale, per-channel scale first, Gauss to µT")
  func polledConversion() throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(
      0, name: "bmi160", types: ["accel", "anglvel", "magn"],
      raw: [
        "accel_x": 1100, "accel_y": 0, "accel_z": 16150, "anglvel_x": 1000, "magn_x": 10,
        "magn_y": 20, "magn_z": 30,
      ],
      scales: ["accel": "0.000598", "anglvel": "0.001065", "magn": "0.001"])
    try tree.write("iio:device0/in_accel_x_scale", "0.01")
    try tree.write("iio:device0/in_accel_x_offset", "-100")
    let sysfs = IIOSysfs(root: tree.sysfs)
    let device = try #require(try sysfs.devices().first)
    #expect(device.name == "bmi160")
    #expect(device.types == [.accel, .anglvel, .magn])
    #expect(device.samplingFrequency == 100)
    #expect(device.availableFrequencies == [12.5, 26, 52, 104, 208, 416])
    #expect(device.bufferDirectory == "buffer")
    #expect(device.timestamp?.index == 9)
    let a = try sysfs.readVector(.accel, of: device)
    #expect(isApproximatelyEqual(a, Vector3(10, 0, 9.6577), tolerance: 1e-12))
    let g = try sysfs.readVector(.anglvel, of: device)
    #expect(isApproximatelyEqual(g, Vector3(1.065, 0, 0), tolerance: 1e-12))
    let m = try sysfs.readVector(.magn, of: device)
    #expect(isApproximatelyEqual(m, Vector3(1, 2, 3), tolerance: 1e-12))
  }

  @Test(
    "mount matrix applied: v_device = M · v_sensor",
    arguments: ["in_accel_mount_matrix", "mount_matrix", "in_accel_matrix"])
  func mountMatrix(file: String) throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(
      0, name: "mpu6050", types: ["accel"], raw: ["accel_x": 100, "accel_y": 200, "accel_z": 300],
      scales: ["accel": "0.01"])
    try tree.write("iio:device0/\(file)", "0, 1, 0; -1, 0, 0; 0, 0, 1")
    let sysfs = IIOSysfs(root: tree.sysfs)
    let device = try #require(try sysfs.devices().first)
    let a = try sysfs.readVector(.accel, of: device)
    #expect(isApproximatelyEqual(a, Vector3(2, -1, 3), tolerance: 1e-12))
  }

  @Test("a malformed attribute is an error naming the file")
  func malformed() throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(0, name: "bmi160", types: ["accel"], scales: ["accel": "lots"])
    let error = #expect(throws: IIOError.self) { try IIOSysfs(root: tree.sysfs).devices() }
    #expect(error?.message.contains("in_accel_scale") == true)
    #expect(error?.message.contains("lots") == true)
  }

  @Test("a missing root says there are no IIO devices and why")
  func missingRoot() throws {
    let tree = try FakeIIOTree()
    let error = #expect(throws: IIOError.self) {
      try IIOSysfs(root: tree.root + "/nothing").devices()
    }
    #expect(error?.message.contains("does not exist") == true)
    #expect(throws: IIOError.self) {
      try IIOSource(configuration: configuration(tree, mode: .polled))
    }
  }

  @Test("sampling frequency is written and read back")
  func samplingFrequency() throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(0, name: "bmi160", types: ["accel", "anglvel"])
    let sysfs = IIOSysfs(root: tree.sysfs)
    let device = try #require(try sysfs.devices().first)
    #expect(try sysfs.setSamplingFrequency(208, of: device) == 208)
    #expect(try tree.read("iio:device0/sampling_frequency") == "208")
    var c = configuration(tree, mode: .polled)
    c.samplingFrequency = 52
    let source = try IIOSource(configuration: c)
    #expect(source.parts.first?.device.samplingFrequency == 52)
  }

  @Test("split accel and gyro devices (st_lsm6dsx style) combine; polled on the clock")
  func polledSplitDevices() async throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(
      0, name: "lsm6dsm_accel", types: ["accel"], raw: ["accel_z": 16150],
      scales: ["accel": "0.000598"])
    try tree.addDevice(1, name: "other_gyro", types: ["anglvel"], raw: ["anglvel_x": 7])
    try tree.addDevice(
      2, name: "lsm6dsm_gyro", types: ["anglvel"], raw: ["anglvel_z": -1000],
      scales: ["anglvel": "0.000152716"])
    let clock = ManualMonotonicClock()
    let source = try IIOSource(
      configuration: configuration(tree, mode: .automatic, firstScanTimeout: 2), clock: clock.clock)
    #expect(source.name == "iio:lsm6dsm_accel+lsm6dsm_gyro")
    #expect(source.hasGyroscope)
    #expect(!source.hasMagnetometer)
    // The buffers open (the FIFOs exist) but no scan ever arrives: after the first-scan
    // timeout on the source's clock, automatic mode falls back to polling.
    let first = Task { try await source.next() }
    await waitForSleeper(clock)
    #expect(source.activeMode == .buffered)
    clock.advance(by: 2)
    let s0 = try sample(try await first.value)
    #expect(source.activeMode == .polled)
    #expect(source.fallbackReason?.contains("no buffered scan arrived") == true)
    #expect(try tree.read("iio:device0/buffer/enable") == "0")
    #expect(isApproximatelyEqual(s0.accelerometer, Vector3(0, 0, 9.6577), tolerance: 1e-12))
    #expect(isApproximatelyEqual(s0.gyroscope, Vector3(0, 0, -0.152716), tolerance: 1e-12))
    #expect(s0.magnetometer == nil)
  }

  @Test("polled samples are paced and timestamped by the injected clock")
  func polledPacing() async throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(
      0, name: "bmi160", types: ["accel", "anglvel"], raw: ["accel_z": 16150],
      scales: ["accel": "0.000598"], buffered: false)
    let clock = ManualMonotonicClock()
    let source = try IIOSource(
      configuration: configuration(tree, mode: .automatic), clock: clock.clock)
    let s0 = try sample(try await source.next())
    #expect(source.activeMode == .polled)
    #expect(source.fallbackReason?.contains("cannot be buffered") == true)
    #expect(s0.timestamp == 0)
    try tree.write("iio:device0/in_accel_z_raw", "-16150")
    let next = Task { try await source.next() }
    await waitForSleeper(clock)
    #expect(clock.sleeperCount == 1)
    clock.advance(by: 0.01)
    let s1 = try sample(try await next.value)
    #expect(isApproximatelyEqual(s1.timestamp, 0.01, absolute: 1e-12))
    #expect(isApproximatelyEqual(s1.accelerometer.z, -9.6577, absolute: 1e-12))
  }

  @Test("a polled device that disappears is a transient error, and the source resumes")
  func polledUnplug() async throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(
      0, name: "bmi160", types: ["accel", "anglvel"], raw: ["accel_z": 1000], buffered: false)
    let clock = ManualMonotonicClock()
    let source = try IIOSource(
      configuration: configuration(tree, mode: .polled), clock: clock.clock)
    _ = try sample(try await source.next())
    try tree.remove("iio:device0")
    let failing = Task { try await source.next() }
    await waitForSleeper(clock)
    clock.advance(by: 0.01)
    let error = await #expect(throws: MotionSourceError.self) { try await failing.value }
    #expect(error?.isTransient == true)
    #expect(error?.message.contains("iio:device0") == true)
    // Still gone: the source polls for its return every reconnect interval.
    let resumed = Task { try await source.next() }
    await waitForSleeper(clock)
    #expect(clock.sleeperCount == 1)
    try tree.addDevice(
      4, name: "bmi160", types: ["accel", "anglvel"], raw: ["accel_z": 2000], buffered: false)
    clock.advance(by: 0.5)
    let s = try sample(try await resumed.value)
    #expect(s.accelerometer.z == 2000)
    #expect(source.activeMode == .polled)
  }

  @Test("ENODEV from a read is a transient error; the source comes back")
  func injectedENODEV() async throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(0, name: "bmi160", types: ["accel", "anglvel"], raw: ["accel_z": 5])
    let broken = Atomic<Bool>(false)
    var system = SystemCalls.live
    system.open = { path, flags in
      if broken.load(ordering: .relaxed) && path.hasSuffix("_raw") { return (-1, ENODEV) }
      return SystemCalls.live.open(path, flags)
    }
    let clock = ManualMonotonicClock()
    let source = try IIOSource(
      configuration: configuration(tree, mode: .polled), clock: clock.clock,
      sysfs: IIOSysfs(root: tree.sysfs, system: system))
    _ = try sample(try await source.next())
    broken.store(true, ordering: .relaxed)
    let failing = Task { try await source.next() }
    await waitForSleeper(clock)
    clock.advance(by: 0.01)
    let error = await #expect(throws: MotionSourceError.self) { try await failing.value }
    #expect(error?.isTransient == true)
    #expect(error?.message.contains("No such device") == true)
    broken.store(false, ordering: .relaxed)
    let s = try sample(try await source.next())
    #expect(s.accelerometer.z == 5)
  }

  @Test("buffered scans from the character device decode, then end of stream is transient")
  func bufferedSingleDevice() async throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(
      0, name: "bmi160", types: ["accel", "anglvel"],
      scales: ["accel": "0.000598", "anglvel": "0.001065"])
    let source = try IIOSource(configuration: configuration(tree, mode: .buffered))
    var bytes: [UInt8] = []
    let count = 50
    for i in 0..<count {
      let v = Int16(i)
      bytes += scanBytes(
        [v, 2 * v, 16150, -v, 3, Int16(-32768 + i)],
        timestampNs: 1_000_000_000_000 + Int64(i) * 10_000_000)
    }
    #expect(bytes.count == count * 24)
    let writer = FIFOWriter(path: tree.dev + "/iio:device0", bytes: bytes, chunk: 40)
    let samples = try await withDeadline {
      var out: [IMUSample] = []
      for _ in 0..<count { out.append(try sample(try await source.next())) }
      return out
    }
    #expect(source.activeMode == .buffered)
    #expect(try tree.read("iio:device0/buffer/enable") == "1")
    #expect(try tree.read("iio:device0/buffer/length") == "128")
    #expect(try tree.read("iio:device0/scan_elements/in_anglvel_z_en") == "1")
    #expect(try tree.read("iio:device0/scan_elements/in_timestamp_en") == "1")
    for (i, s) in samples.enumerated() {
      let d = Double(i)
      #expect(isApproximatelyEqual(s.timestamp, 1000 + d * 0.01, absolute: 1e-9))
      #expect(
        isApproximatelyEqual(
          s.accelerometer, Vector3(d * 0.000598, 2 * d * 0.000598, 9.6577), tolerance: 1e-12))
      #expect(
        isApproximatelyEqual(
          s.gyroscope, Vector3(-d * 0.001065, 3 * 0.001065, (-32768 + d) * 0.001065),
          tolerance: 1e-12))
    }
    writer.wait()
    let error = await #expect(throws: MotionSourceError.self) {
      try await withDeadline { try await source.next() }
    }
    #expect(error?.isTransient == true)
    #expect(try tree.read("iio:device0/buffer/enable") == "0")
  }

  @Test("buffered 12-bit big-endian scans with shifts, in buffer0/")
  func bufferedShifted() async throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(
      0, name: "adxl345", types: ["accel"], scales: ["accel": "0.0383"],
      scanType: "be:s12/16>>4", timestamp: false, bufferDir: "buffer0")
    let source = try IIOSource(configuration: configuration(tree, mode: .automatic))
    // x = -5, y = 2047, z = 256, stored big-endian shifted left by 4 with noise in the low bits.
    let words: [UInt16] = [UInt16(bitPattern: -5 << 4) | 0x3, 2047 << 4, 256 << 4 | 0xF]
    var bytes: [UInt8] = []
    for _ in 0..<3 { for w in words { bytes += [UInt8(w >> 8), UInt8(w & 0xFF)] } }
    let writer = FIFOWriter(path: tree.dev + "/iio:device0", bytes: bytes, holdOpen: true)
    defer { writer.release() }
    let s = try await withDeadline { try sample(try await source.next()) }
    #expect(source.activeMode == .buffered)
    #expect(try tree.read("iio:device0/buffer0/enable") == "1")
    #expect(
      isApproximatelyEqual(
        s.accelerometer, Vector3(-5 * 0.0383, 2047 * 0.0383, 256 * 0.0383), tolerance: 1e-12))
    #expect(s.gyroscope == .zero)
  }

  @Test("buffered split accel and gyro devices combine, one sample per gyro scan")
  func bufferedSplitDevices() async throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(
      0, name: "lsm6dsm_accel", types: ["accel"], scales: ["accel": "0.000598205"])
    try tree.addDevice(
      1, name: "lsm6dsm_gyro", types: ["anglvel"], scales: ["anglvel": "0.000152716"])
    let source = try IIOSource(configuration: configuration(tree, mode: .buffered))
    let started = Task { try await source.next() }
    var accelBytes: [UInt8] = []
    for i in 0..<5 { accelBytes += scanBytes([0, 0, 16393], timestampNs: 5_000 + Int64(i)) }
    let accel = FIFOWriter(path: tree.dev + "/iio:device0", bytes: accelBytes, holdOpen: true)
    defer { accel.release() }
    await accel.drained()
    var gyroBytes: [UInt8] = []
    for i in 0..<20 {
      gyroBytes += scanBytes([Int16(i), 0, 0], timestampNs: 10_000 + Int64(i) * 1000)
    }
    let gyro = FIFOWriter(path: tree.dev + "/iio:device1", bytes: gyroBytes, holdOpen: true)
    defer { gyro.release() }
    var samples = [try sample(try await withDeadline { try await started.value })]
    while let last = samples.last, last.timestamp < 10_000e-9 + 19_000e-9 - 1e-12 {
      samples.append(try await withDeadline { try sample(try await source.next()) })
    }
    #expect(samples.count >= 1 && samples.count <= 20)
    for s in samples {
      let i = ((s.timestamp - 10_000e-9) / 1000e-9).rounded()
      #expect(isApproximatelyEqual(s.gyroscope.x, i * 0.000152716, absolute: 1e-12))
      #expect(isApproximatelyEqual(s.accelerometer.z, 16393 * 0.000598205, absolute: 1e-12))
    }
    #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
  }

  @Test("no permission for the buffer: automatic falls back to polling and says how to fix it")
  func permissionFallback() async throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(0, name: "bmi160", types: ["accel", "anglvel"], raw: ["accel_z": 7])
    var system = SystemCalls.live
    system.open = { path, flags in
      if path.hasSuffix("/buffer/enable") && flags & O_WRONLY != 0 { return (-1, EACCES) }
      return SystemCalls.live.open(path, flags)
    }
    let sysfs = IIOSysfs(root: tree.sysfs, system: system)
    let clock = ManualMonotonicClock()
    let auto = try IIOSource(
      configuration: configuration(tree, mode: .automatic), clock: clock.clock,
      sysfs: sysfs)
    let s = try sample(try await auto.next())
    #expect(s.accelerometer.z == 7)
    #expect(auto.activeMode == .polled)
    let reason = try #require(auto.fallbackReason)
    #expect(reason.contains("iio:device0/buffer/enable"))
    #expect(reason.contains("Permission denied"))
    #expect(reason.contains("udev"))
    let strict = try IIOSource(
      configuration: configuration(tree, mode: .buffered), clock: clock.clock,
      sysfs: sysfs)
    let error = await #expect(throws: MotionSourceError.self) { try await strict.next() }
    #expect(error?.isTransient == false)
    #expect(error?.message.contains("run as root") == true)
  }

  @Test("device selection by name, prefix and directory; unknown names list what exists")
  func selection() throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(0, name: "accel_3d", types: ["accel"], buffered: false)
    try tree.addDevice(1, name: "bmi160", types: ["accel", "anglvel"], buffered: false)
    try tree.addDevice(2, name: "magn_3d", types: ["magn"], buffered: false)
    let first = try IIOSource(configuration: configuration(tree, mode: .polled))
    #expect(first.parts.map(\.device.id) == ["iio:device0", "iio:device1", "iio:device2"])
    #expect(first.parts.map(\.types) == [[.accel], [.anglvel], [.magn]])
    #expect(first.hasMagnetometer)
    let named = try IIOSource(configuration: configuration(tree, mode: .polled, name: "bmi160"))
    #expect(named.parts.map(\.device.id) == ["iio:device1"])
    #expect(named.parts.first?.types == [.accel, .anglvel])
    let byID = try IIOSource(configuration: configuration(tree, mode: .polled, name: "iio:device0"))
    #expect(byID.name == "iio:accel_3d")
    #expect(!byID.hasGyroscope)
    let error = #expect(throws: IIOError.self) {
      try IIOSource(configuration: configuration(tree, mode: .polled, name: "lsm6"))
    }
    #expect(error?.message.contains("bmi160 (iio:device1)") == true)
  }
}

@Suite("IIO buffer set-up")
private struct IIOBufferSetupTests {
  @Test("an unset trigger gets the device's own data-ready trigger")
  func trigger() async throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(0, name: "bmi160", types: ["accel", "anglvel"])
    try tree.write("iio:device0/trigger/current_trigger", "")
    try tree.write("trigger0/name", "hrtimer0")
    try tree.write("trigger1/name", "bmi160-dev0")
    let source = try IIOSource(configuration: configuration(tree, mode: .buffered))
    let writer = FIFOWriter(
      path: tree.dev + "/iio:device0", bytes: scanBytes([1, 2, 3, 4, 5, 6], timestampNs: 9),
      holdOpen: true)
    defer { writer.release() }
    let s = try await withDeadline { try sample(try await source.next()) }
    #expect(s.gyroscope == Vector3(4, 5, 6))
    #expect(s.timestamp == 9e-9)
    #expect(try tree.read("iio:device0/trigger/current_trigger") == "bmi160-dev0")
  }
}
