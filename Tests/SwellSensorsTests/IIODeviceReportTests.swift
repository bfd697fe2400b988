import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@testable import SwellSensors

private func report(_ tree: FakeIIOTree) throws -> String {
  let sysfs = IIOSysfs(root: tree.sysfs)
  return IIODeviceReport(devices: try sysfs.devices(), sysfs: sysfs, devRoot: tree.dev).text
}

@Suite("IIO device reports (swell sensors)")
private struct IIODeviceReportTests {
  @Test(
    "adis16470: the driver's scan order, polled-only deltas, what is enabled and what Swell reads")
  func adis16475() throws {
    let tree = try FakeIIOTree()
    try tree.addADIS16475()
    #expect(
      try report(tree) == """
        iio:device0  adis16470
          rate: 2000 Hz
          channels:
            in_anglvel_x        anglvel        index 0      be:s32/32>>0  scale 0.000000026  offset 0
            in_anglvel_y        anglvel        index 1      be:s32/32>>0  scale 0.000000026  offset 0
            in_anglvel_z        anglvel        index 2      be:s32/32>>0  scale 0.000000026  offset 0
            in_accel_x          accel          index 3      be:s32/32>>0  scale 0.000000187  offset 0
            in_accel_y          accel          index 4      be:s32/32>>0  scale 0.000000187  offset 0
            in_accel_z          accel          index 5      be:s32/32>>0  scale 0.000000187  offset 0
            in_temp0            other          index 6      be:s16/16>>0  not read by Swell
            in_timestamp        time           index 7      le:s64/64>>0  ns
            in_deltaangl_x      deltaangl      polled only                scale 0.000000017  offset 0
            in_deltaangl_y      deltaangl      polled only                scale 0.000000017  offset 0
            in_deltaangl_z      deltaangl      polled only                scale 0.000000017  offset 0
            in_deltavelocity_x  deltavelocity  polled only                scale 0.000000186  offset 0
            in_deltavelocity_y  deltavelocity  polled only                scale 0.000000186  offset 0
            in_deltavelocity_z  deltavelocity  polled only                scale 0.000000186  offset 0
          enabled now: in_temp0
          Swell reads: in_accel_x/y/z, in_anglvel_x/y/z, in_timestamp (rates; deltas on request); turns off in_temp0 while it reads
          accel: m/s² per count, mount matrix identity
          anglvel: rad/s per count, mount matrix identity
          deltaangl: rad per count (÷ sample interval for rad/s), mount matrix identity
          deltavelocity: m/s per count (÷ sample interval for m/s²), mount matrix identity
          buffered: yes (buffer/), 32 bytes per scan, \(tree.dev)/iio:device0 readable

        """)
  }

  @Test(
    "adis16505-2 as the kernel documentation leaves it: enabled deltas and temperature; rates or deltas",
    arguments: [
      (
        IIOChannelSelection.automatic,
        "in_accel_x/y/z, in_anglvel_x/y/z, in_timestamp (rates; deltas on request); turns off in_temp0, in_deltavelocity_x, in_deltavelocity_y, in_deltavelocity_z while it reads"
      ),
      (
        .deltas,
        "in_deltaangl_x/y/z, in_deltavelocity_x/y/z, in_timestamp (deltas; rates on request); turns off in_temp0 while it reads"
      ),
    ])
  func adis16505(selection: IIOChannelSelection, reads: String) throws {
    let tree = try FakeIIOTree()
    try tree.addADIS16505()
    let sysfs = IIOSysfs(root: tree.sysfs)
    let text = IIODeviceReport(
      devices: try sysfs.devices(), sysfs: sysfs, devRoot: tree.dev, selection: selection
    ).text
    #expect(
      text.contains(
        "  enabled now: in_temp0, in_deltavelocity_x, in_deltavelocity_y, in_deltavelocity_z\n"))
    #expect(text.contains("  Swell reads: \(reads)\n"), "\(text)")
    #expect(
      text.contains(
        "    in_deltaangl_x      deltaangl      index 7   be:s32/32>>0  scale 0.000000006  offset 0\n"
      ), "\(text)")
    // Six 32-bit words and the timestamp at 24, whichever half is read.
    #expect(text.contains("  buffered: yes (buffer/), 32 bytes per scan, "))
  }

  @Test("Nexus 5: per-axis magnetometer scales, both devices, scan sizes")
  func nexus5() throws {
    let tree = try FakeIIOTree()
    try tree.addNexus5()
    let text = try report(tree)
    #expect(
      text.contains("    in_magn_x     magn  index 0  le:s16/16>>0  scale 0.001763672  offset 0\n"))
    #expect(
      text.contains("    in_magn_y     magn  index 1  le:s16/16>>0  scale 0.001769531  offset 0\n"))
    #expect(
      text.contains("    in_magn_z     magn  index 2  le:s16/16>>0  scale 0.001693359  offset 0\n"))
    #expect(text.contains("  magn: Gauss per count (×100 for µT), mount matrix identity\n"))
    #expect(text.contains("iio:device0  mpu6515\n"))
    #expect(text.contains("iio:device1  ak8963\n"))
    // mpu6515: six 16-bit words at 0...10 (the absent index 3 leaves no gap), the timestamp
    // at 16.
    #expect(text.contains("  buffered: yes (buffer/), 24 bytes per scan, \(tree.dev)/iio:device0"))
    #expect(text.contains("  buffered: yes (buffer/), 16 bytes per scan, \(tree.dev)/iio:device1"))
  }

  @Test("HID accel_3d: channels listed in scan order (y first), 32-bit storage")
  func hidOrder() throws {
    let tree = try FakeIIOTree()
    try tree.addHIDAccel3D()
    let lines = try report(tree).split(separator: "\n").map(String.init)
    let channels = lines.filter { $0.hasPrefix("    in_") }.map { $0.split(separator: " ")[0] }
    #expect(channels == ["in_accel_y", "in_accel_x", "in_accel_z", "in_timestamp"])
    #expect(
      lines.contains("    in_accel_y    accel  index 0  le:s16/32>>0  scale 0.00980665  offset 0"))
    #expect(
      lines.contains(
        "  buffered: yes (buffer/), 24 bytes per scan, \(tree.dev)/iio:device0 readable"))
  }

  @Test(
    "mount matrices are named for what they are: rotation, reflection or neither",
    arguments: [
      ("0, 1, 0; 1, 0, 0; 0, 0, -1", "(a rotation, determinant 1)"),
      (
        "0, 1, 0; 1, 0, 0; 0, 0, 1",
        "(a reflection, determinant -1: one axis mirrored; applied as published)"
      ),
      ("2, 0, 0; 0, 1, 0; 0, 0, 1", "(not a rotation, determinant 2; applied as published)"),
    ])
  func matrixKinds(matrix: String, words: String) throws {
    let tree = try FakeIIOTree()
    try tree.addMPU9250(magnetometerMatrix: matrix)
    let text = try report(tree)
    #expect(
      text.contains("  magn: Gauss per count (×100 for µT), mount matrix \(matrix) \(words)\n"))
    #expect(text.contains("  accel: m/s² per count, mount matrix identity\n"))
  }

  @Test("plain decimals: 12 significant digits at most, no exponent, integers bare")
  func decimals() {
    #expect(IIODeviceReport.decimal(2.6e-8) == "0.000000026")
    #expect(IIODeviceReport.decimal(0.000598) == "0.000598")
    #expect(IIODeviceReport.decimal(0.152983) == "0.152983")
    #expect(IIODeviceReport.decimal(-0.0383) == "-0.0383")
    #expect(IIODeviceReport.decimal(100) == "100")
    #expect(IIODeviceReport.decimal(12.5) == "12.5")
    #expect(IIODeviceReport.decimal(1.0 / 3) == "0.333333333333")
    #expect(IIODeviceReport.decimal(-1) == "-1")
  }

  @Test("a channel without _raw and one that cannot be buffered say so")
  func rawAndPolled() throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(0, name: "accel_only", types: ["accel"], buffered: false)
    let text = try report(tree)
    #expect(text.contains("    in_accel_x  accel  polled only  scale 1  offset 0\n"))
    #expect(text.contains("  buffered: no, \(tree.dev)/iio:device0 missing\n"))
    let scanned = try FakeIIOTree()
    try scanned.addLNG2DM()
    try FileManager.default.removeItem(atPath: scanned.sysfs + "/iio:device0/in_accel_y_raw")
    #expect(
      try report(scanned).contains(
        "in_accel_y    accel  index 1  le:s8/8>>0    scale 0.152983  offset 0  (no _raw file)\n"))
  }
}

@Suite("IIODeviceReport(scanning:): the report of a sysfs root, or why there is none")
private struct IIODeviceScanTests {
  @Test("a root with a motion sensor gives the same report as describing its devices")
  func scanned() throws {
    let tree = try FakeIIOTree()
    try tree.addMPU9250(magnetometerMatrix: "0, 1, 0; 1, 0, 0; 0, 0, -1")
    #expect(try IIODeviceReport(scanning: tree.sysfs, devRoot: tree.dev).text == report(tree))
  }

  @Test("an empty root and a missing root each fail in one line starting 'no motion sensors: '")
  func none() throws {
    let tree = try FakeIIOTree()
    #expect(
      throws: IIOError(
        "no motion sensors: \(tree.sysfs) has no device with accel, anglvel or magn channels",
        path: tree.sysfs)
    ) { try IIODeviceReport(scanning: tree.sysfs, devRoot: tree.dev) }
    let missing = tree.sysfs + "/absent"
    do {
      _ = try IIODeviceReport(scanning: missing)
      Issue.record("a missing root gave a report")
    } catch {
      #expect(error.message.hasPrefix("no motion sensors: "))
      #expect(error.message.contains(missing))
    }
  }
}
