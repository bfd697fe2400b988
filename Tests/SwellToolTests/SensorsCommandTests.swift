import Foundation
import SwellTestSupport
import Testing

@Suite("swell sensors")
private struct SensorsCommandTests {
  @Test("lists a fake bmi160 with channels, rate, scale and mount matrix")
  func lists() throws {
    let tree = try FakeIIOTree()
    try tree.addBMI160()
    let r = try runSwell([
      "sensors", "--sysfs-root", tree.sysfs, "--dev-root", tree.dev, "--measure", "0", "--no-dsu",
      "--input-sysfs-root", tree.root + "/no-input",
    ])
    #expect(r.status == 0, "\(r.err)")
    // The IIO block, then a note that no evdev node was found (this tree has none).
    let notes = r.out.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { $0.hasPrefix("note: ") }
    #expect(notes.count == 1 && notes[0].hasPrefix("note: no evdev input devices: "), "\(notes)")
    let report = r.out.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("note: ") }.joined(separator: "\n")
    #expect(
      report == """
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
          timestamps: hardware (in_timestamp, buffered)

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

  @Test("the doctor: --json reads each sensor, measures its rate and names the unit mistake")
  func doctorJSON() throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(
      0, name: "lis3dh", types: ["accel"], raw: ["accel_z": 1000], scales: ["accel": "0.001"],
      buffered: false)
    let r = try runSwell([
      "sensors", "--sysfs-root", tree.sysfs, "--dev-root", tree.dev, "--json", "--measure", "0.3",
      "--no-dsu", "--input-sysfs-root", tree.root + "/no-input",
    ])
    #expect(r.status == 0, "\(r.err)")
    let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
    let sensors = try #require(json?["sensors"] as? [[String: Any]])
    try #require(sensors.count == 1)
    #expect(sensors[0]["kind"] as? String == "iio")
    #expect(sensors[0]["mountMatrix"] as? String == "missing")
    let measurement = try #require(sensors[0]["measurement"] as? [String: Any])
    #expect((measurement["samples"] as? Int ?? 0) > 0)
    #expect(abs((measurement["accelerometerMagnitude"] as? Double ?? 0) - 1) < 1e-9)
    let problems = try #require(sensors[0]["problems"] as? [[String: Any]])
    #expect(problems.contains { ($0["message"] as? String ?? "").contains("its scale is in g") })
    #expect(problems.contains { ($0["fix"] as? String ?? "").contains("9.80665") })
    let text = try runSwell([
      "sensors", "--sysfs-root", tree.sysfs, "--dev-root", tree.dev, "--measure", "0.3",
    ])
    #expect(text.out.contains("  problem: the accelerometer reads 1 at rest instead of 9.81 m/s²"))
    #expect(text.out.contains("  measured: "))
  }

  @Test("--guided-tilt: two poses give the mount matrix and the hwdb line")
  func guidedTilt() throws {
    let tree = try FakeIIOTree()
    // A sensor mounted turned a quarter turn: its y axis is the screen's -x, its x the screen's y.
    try tree.addDevice(
      0, name: "mxc4005", types: ["accel"], raw: ["accel_z": 981], scales: ["accel": "0.01"],
      buffered: false)
    try tree.write("modalias", "i2c:mxc4005")
    let process = Process()
    process.executableURL = try swellExecutable()
    process.arguments = [
      "sensors", "--sysfs-root", tree.sysfs, "--guided-tilt", "iio:device0", "--measure", "0.5",
    ]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data("\n".utf8))
    // Wait for the second prompt (the flat pose is measured), then stand the device upright:
    // gravity along the screen's +y, which this sensor reads on its x axis.
    var prompts = ""
    while !prompts.contains("upright"), process.isRunning {
      prompts += String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
    }
    try tree.write("iio:device0/in_accel_z_raw", "0")
    try tree.write("iio:device0/in_accel_x_raw", "981")
    input.fileHandleForWriting.write(Data("\n".utf8))
    try input.fileHandleForWriting.close()
    let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(prompts)")
    // Rows: x = y × z = (0, -1, 0); y = the sensor's +x; z = the sensor's +z.
    #expect(out.contains("mount matrix: 0, -1, 0; 1, 0, 0; 0, 0, 1\n"), "\(out)")
    #expect(out.contains(" ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1\n"), "\(out)")
    #expect(out.contains("sensor:modalias:i2c:mxc4005*\n"), "\(out)")
  }

  @Test("the doctor asks a DSU server on loopback and reads its connected slot")
  func doctorDSU() throws {
    let folder = try scratchFolder("doctor-dsu")
    defer { try? FileManager.default.removeItem(at: folder) }
    let errPath = folder.appendingPathComponent("serve-err.txt").path
    #expect(FileManager.default.createFile(atPath: errPath, contents: nil))
    let server = Process()
    server.executableURL = try swellExecutable()
    server.arguments = ["serve", "dsu", "--motion", "script:hold 120s", "--port", "0"]
    server.standardOutput = FileHandle.nullDevice
    server.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    try server.run()
    defer {
      server.terminate()
      server.waitUntilExit()
    }
    var port = ""
    _ = waitFor(seconds: 60) {
      let text = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
      port = text.split(separator: ":").last.map { String($0.prefix { $0.isNumber }) } ?? ""
      return text.contains("serving") && !port.isEmpty
    }
    try #require(!port.isEmpty)
    let tree = try FakeIIOTree()
    let r = try runSwell([
      "sensors", "--sysfs-root", tree.root + "/none", "--dsu", "127.0.0.1:\(port)", "--json",
      "--measure", "0.5", "--input-sysfs-root", tree.root + "/no-input",
    ])
    #expect(r.status == 0, "\(r.err)")
    let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
    let sensors = try #require(json?["sensors"] as? [[String: Any]])
    try #require(sensors.count == 1)
    #expect(sensors[0]["kind"] as? String == "dsu")
    #expect(sensors[0]["id"] as? String == "dsu:127.0.0.1:\(port)#0")
    let measurement = try #require(sensors[0]["measurement"] as? [String: Any])
    #expect((measurement["samples"] as? Int ?? 0) > 0)
    // A still script: specific force of 1 g, whatever the pose.
    #expect(abs((measurement["accelerometerMagnitude"] as? Double ?? 0) - 9.80665) < 1e-3)
    let notes = try #require(json?["notes"] as? [String])
    #expect(notes.contains { $0.contains("no IIO devices") })
    // No server: a note, and with nothing else found, exit 1 naming both places.
    let none = try runSwell([
      "sensors", "--sysfs-root", tree.root + "/none", "--dsu", "127.0.0.1:9", "--measure", "0",
    ])
    #expect(none.status == 1)
    #expect(none.err.contains("no DSU server answered on 127.0.0.1:9"), "\(none.err)")
    let usage = try runSwell(["sensors", "--dsu", "host:port"])
    #expect(usage.status == 64 && usage.err.contains("--dsu"), "\(usage.err)")
  }

  @Test("rejects unknown options")
  func usage() throws {
    let r = try runSwell(["sensors", "--bogus"])
    #expect(r.status == 64)
    #expect(r.err == "swell sensors: unknown option --bogus\n")
  }
}
