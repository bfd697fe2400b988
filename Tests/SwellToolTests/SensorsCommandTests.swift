import Foundation
import SwellTestSupport
import Testing

@Suite("swell sensors")
struct SensorsCommandTests {
  @Test("lists a fake bmi160 with channels, rate, scale and mount matrix")
  func lists() throws {
    let tree = try FakeIIOTree()
    try tree.addBMI160()
    let r = try runSwell(["sensors", "--sysfs-root", tree.sysfs, "--dev-root", tree.dev])
    #expect(r.status == 0, "\(r.err)")
    #expect(
      r.out == """
        iio:device0  bmi160
          rate: 100 Hz (available: 25 50 100 200)
          channels:
            in_accel_x    accel    index 0  le:s16/16>>0  scale 0.000598  offset 0
            in_accel_y    accel    index 1  le:s16/16>>0  scale 0.000598  offset 0
            in_accel_z    accel    index 2  le:s16/16>>0  scale 0.000598  offset 0
            in_anglvel_x  anglvel  index 3  le:s16/16>>0  scale 0.001065  offset 0
            in_anglvel_y  anglvel  index 4  le:s16/16>>0  scale 0.001065  offset 0
            in_anglvel_z  anglvel  index 5  le:s16/16>>0  scale 0.001065  offset 0
            in_timestamp  time     index 6  le:s64/64>>0  ns
          enabled now: none
          Swell reads: in_accel_x/y/z, in_anglvel_x/y/z, in_timestamp (rates)
          accel: m/s² per count, mount matrix 0, 1, 0; -1, 0, 0; 0, 0, 1 (a rotation, determinant 1)
          anglvel: rad/s per count, mount matrix identity
          buffered: yes (buffer/), 24 bytes per scan, \(tree.dev)/iio:device0 readable

        """)
  }

  @Test("real layouts: a reflection is named, tiny scales print in full, scan sizes")
  func realLayouts() throws {
    let mirrored = try FakeIIOTree()
    try mirrored.addMPU9250(magnetometerMatrix: "-1, 0, 0; 0, 1, 0; 0, 0, 1")
    let m = try runSwell(["sensors", "--sysfs-root", mirrored.sysfs, "--dev-root", mirrored.dev])
    #expect(m.status == 0, "\(m.err)")
    #expect(
      m.out.contains(
        "  magn: Gauss per count (×100 for µT), mount matrix -1, 0, 0; 0, 1, 0; 0, 0, 1 "
          + "(a reflection, determinant -1: one axis mirrored; applied as published)\n"))
    #expect(
      m.out.contains("    in_magn_x     magn     index 7   be:s16/16>>0  scale 0.0015  offset 0\n"))
    let adis = try FakeIIOTree()
    try adis.addADIS16475()
    let a = try runSwell(["sensors", "--sysfs-root", adis.sysfs, "--dev-root", adis.dev])
    #expect(a.status == 0, "\(a.err)")
    #expect(
      a.out.contains(
        "    in_anglvel_x        anglvel        index 0      be:s32/32>>0  scale 0.000000026  offset 0\n"
      ))
    #expect(
      a.out.contains(
        "    in_temp0            other          index 6      be:s16/16>>0  not read by Swell\n"))
    #expect(a.out.contains("  enabled now: in_temp0\n"))
    #expect(
      a.out.contains("  Swell reads: in_accel_x/y/z, in_anglvel_x/y/z, in_timestamp (rates; "))
    #expect(a.out.contains("  buffered: yes (buffer/), 32 bytes per scan, "))
  }

  @Test("says clearly when there are no sensors, and why")
  func none() throws {
    let tree = try FakeIIOTree()
    let missing = try runSwell(["sensors", "--sysfs-root", tree.root + "/no-such-dir"])
    #expect(missing.status == 1)
    #expect(missing.out.isEmpty)
    #expect(missing.err.hasPrefix("swell sensors: no motion sensors: no IIO devices:"))
    #expect(missing.err.contains("does not exist"))
    try tree.write("iio:device0/name", "als")
    try tree.write("iio:device0/in_illuminance_raw", "12")
    let empty = try runSwell(["sensors", "--sysfs-root", tree.sysfs])
    #expect(empty.status == 1)
    #expect(empty.err.contains("has no device with accel, anglvel or magn channels"))
  }

  @Test("rejects unknown options")
  func usage() throws {
    let r = try runSwell(["sensors", "--bogus"])
    #expect(r.status == 64)
    #expect(r.err == "swell sensors: unknown option --bogus\n")
  }
}
