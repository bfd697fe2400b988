import Foundation
import SwellGeometry
import SwellMotion
import SwellRecordings
import SwellTestSupport
import Testing

@testable import SwellTool

/// A raw IMU CSV of a device lying still, face up, for `seconds` at `rate` Hz.
private func stillRecording(seconds: Double, rate: Double, magnetometer: Bool) -> String {
  var s = "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n"
  let n = Int(seconds * rate)
  for i in 0..<n {
    let t = Double(i) / rate
    s += "\(t),0,0,0,0,0,9.80665," + (magnetometer ? "20,0,-40\n" : ",,\n")
  }
  return s
}

@Suite("swell fuse")
private struct FuseCommandTests {
  @Test("fuses the bundled Sensor Logger recording into a device-motion CSV")
  func bundledRecording() throws {
    let folder = try scratchFolder("fuse-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = packageRoot.appendingPathComponent(
      "Sources/SwellTool/Resources/sensorlogger-ios-rotation")
    let output = folder.appendingPathComponent("motion.csv")
    let r = try runSwell(["fuse", input.path, "-o", output.path])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.err.isEmpty)
    #expect(
      r.out == "fused 2704 samples (6D, xArbitraryZVertical) into 2704 rows: \(output.path)\n")
    let c = try DeviceMotionCSV.read(from: output)
    #expect(c.referenceFrame == .xArbitraryZVertical)
    #expect(!c.hasMagneticField)
    #expect(c.motions.count == 2704)
    for m in c.motions {
      #expect(m.attitude.quaternion.isFinite && m.gravity.isFinite && m.userAcceleration.isFinite)
      #expect(abs(m.gravity.length - 1) < 1e-6)
    }
  }

  @Test("--9d appends the magnetic columns and --rate resamples the output")
  func nineDAndRate() throws {
    let folder = try scratchFolder("fuse-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("still.csv")
    try Data(stillRecording(seconds: 2, rate: 100, magnetometer: true).utf8).write(to: input)
    let output = folder.appendingPathComponent("out.csv")
    let status = SwellTool.main(["fuse", input.path, "--9d", "--rate", "25", "-o", output.path])
    #expect(status == 0)
    let text = try String(contentsOf: output, encoding: .utf8)
    #expect(
      text.contains(
        ",magneticField.x,magneticField.y,magneticField.z,magneticField.accuracy,heading\n"))
    let c = try DeviceMotionCSV.read(from: output)
    #expect(c.hasMagneticField)
    // Input spans 0...1.99 s: 25 Hz gives t = 0, 0.04, ..., 1.96 (50 rows).
    #expect(c.motions.count == 50)
    for (k, m) in c.motions.enumerated() {
      #expect(isApproximatelyEqual(m.timestamp, Double(k) / 25, absolute: 1e-12))
      // Still and face up: gravity straight down the device's −z.
      #expect(isApproximatelyEqual(m.gravity, Vector3(0, 0, -1), tolerance: 1e-6))
    }
  }

  @Test("true north needs a declination, and names its frame in the output")
  func trueNorth() throws {
    let folder = try scratchFolder("fuse-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("still.csv")
    try Data(stillRecording(seconds: 0.5, rate: 100, magnetometer: true).utf8).write(to: input)
    let output = folder.appendingPathComponent("out.csv")
    let bad = try runSwell([
      "fuse", input.path, "--reference-frame", "xTrueNorthZVertical", "-o", output.path,
    ])
    #expect(bad.status == 64)
    #expect(
      bad.err
        == "swell fuse: --reference-frame xTrueNorthZVertical needs --declination DEG (degrees east)\n"
    )
    #expect(!FileManager.default.fileExists(atPath: output.path))
    let good = SwellTool.main([
      "fuse", input.path, "--reference-frame", "xTrueNorthZVertical", "--declination", "3",
      "-o", output.path,
    ])
    #expect(good == 0)
    let c = try DeviceMotionCSV.read(from: output)
    #expect(c.referenceFrame == .xTrueNorthZVertical)
    #expect(c.hasMagneticField)
  }

  @Test("bad input: one line naming file, line and column; no output written")
  func badInput() throws {
    let folder = try scratchFolder("fuse-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("bad.csv")
    try Data("t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0,0,0,0,0,0,9.8\n0.01,0,abc,0,0,0,9.8\n".utf8)
      .write(to: input)
    let output = folder.appendingPathComponent("out.csv")
    let r = try runSwell(["fuse", input.path, "-o", output.path])
    #expect(r.status == 1)
    #expect(r.err == "swell fuse: bad.csv:3: column 'gy': 'abc' is not a number\n")
    #expect(r.out.isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["bad.csv"])
  }

  @Test(
    "usage errors exit 64, failures exit 1",
    arguments: [
      (["fuse"], 64),
      (["fuse", "IN"], 64),
      (["fuse", "IN", "-o", "OUT", "--6d", "--9d"], 64),
      (["fuse", "IN", "-o", "OUT", "--6d", "--reference-frame", "xMagneticNorthZVertical"], 64),
      (["fuse", "IN", "-o", "OUT", "--reference-frame", "sideways"], 64),
      (["fuse", "IN", "-o", "OUT", "--rate", "0"], 64),
      (["fuse", "IN", "-o", "OUT", "--bogus"], 64),
      (["fuse", "IN", "-o", "OUT", "--9d"], 1),
      (["fuse", "MISSING", "-o", "OUT"], 1),
    ] as [([String], Int32)])
  func exitCodes(arguments: [String], expected: Int32) throws {
    let folder = try scratchFolder("fuse-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("six.csv")
    try Data(stillRecording(seconds: 0.2, rate: 100, magnetometer: false).utf8).write(to: input)
    let words = arguments.map {
      $0 == "IN"
        ? input.path
        : $0 == "OUT"
          ? folder.appendingPathComponent("out.csv").path
          : $0 == "MISSING" ? folder.appendingPathComponent("missing.csv").path : $0
    }
    #expect(SwellTool.main(words) == expected, "\(arguments)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.csv").path))
  }
}
