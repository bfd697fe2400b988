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
          channels: accel x y z, anglvel x y z
          rate: 100 Hz (available: 25 50 100 200)
          accel: scale 0.000598 m/s² per count, offset 0, mount matrix 0, 1, 0; -1, 0, 0; 0, 0, 1
          anglvel: scale 0.001065 rad/s per count, offset 0, mount matrix identity
          buffered: yes (buffer/), \(tree.dev)/iio:device0 readable

        """)
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
