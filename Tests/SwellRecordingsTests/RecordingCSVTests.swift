import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@testable import SwellMotion
@testable import SwellRecordings

private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

private func randomValue(_ rng: inout SplitMix64) -> Double {
  // Mix of scales, signs, exact integers and tiny numbers, to exercise the round trip.
  switch rng.next() % 4 {
  case 0: return Double.random(in: -20...20, using: &rng)
  case 1: return Double(Int.random(in: -5...5, using: &rng))
  case 2: return Double.random(in: -1e-7...1e-7, using: &rng)
  default: return Double.random(in: -1e6...1e6, using: &rng)
  }
}

@Suite("Raw IMU CSV")
private struct RawIMUCSVTests {
  @Test("reads the documented layout: comments, extra columns, CRLF, 6D rows")
  func readsLayout() throws {
    let text =
      "# a comment\r\n"
      + "t_s,gx,gy,gz,ax,ay,az,mx,my,mz,qw,qx,qy,qz,movement\r\n"
      + "0,0.1,-0.2,3e-1,0,0,9.81,10,-20,30.5,1,0,0,0,0\r\n"
      + "\r\n"
      + "# another\r\n"
      + "0.0035,1,2,3,4,5,6,,,,nan,nan,nan,nan,1\r\n"
      + "0.007,1,2,3,4,5,6,nan,NaN,nan\r\n"
      + "0.01,1,2,3,4,5,6\n"
    let samples = try RawIMUCSV.parse(bytes(text), fileName: "t.csv")
    #expect(samples.count == 4)
    #expect(
      samples[0]
        == IMUSample(
          timestamp: 0, gyroscope: Vector3(0.1, -0.2, 0.3), accelerometer: Vector3(0, 0, 9.81),
          magnetometer: Vector3(10, -20, 30.5)))
    #expect(samples[1].timestamp == 0.0035)
    #expect(samples[1].magnetometer == nil)
    #expect(samples[2].magnetometer == nil)
    #expect(samples[3].accelerometer == Vector3(4, 5, 6))
    #expect(samples[3].magnetometer == nil)
  }

  @Test("encode then parse gives back the same samples bit for bit")
  func roundTrip() throws {
    let seed: UInt64 = 0x5EED_0001
    var rng = SplitMix64(seed: seed)
    var samples: [IMUSample] = []
    var t = Double.random(in: -5...5, using: &rng)
    for _ in 0..<500 {
      t += Double.random(in: 1e-6...0.1, using: &rng)
      let m: Vector3? =
        rng.next() % 3 == 0
        ? nil
        : Vector3(randomValue(&rng), randomValue(&rng), randomValue(&rng))
      samples.append(
        IMUSample(
          timestamp: t,
          gyroscope: Vector3(randomValue(&rng), randomValue(&rng), randomValue(&rng)),
          accelerometer: Vector3(randomValue(&rng), randomValue(&rng), randomValue(&rng)),
          magnetometer: m))
    }
    let decoded = try RawIMUCSV.parse(RawIMUCSV.encode(samples), fileName: "r.csv")
    #expect(decoded == samples, "seed \(seed)")
  }

  @Test(
    "bad input is one error naming file, line and column",
    arguments: [
      (
        "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0,1,abc,3,4,5,6,,,\n",
        "t.csv:2: column 'gy': 'abc' is not a number"
      ),
      (
        "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0,1,2,3,4,5,nan,,,\n",
        "t.csv:2: column 'az': 'nan' is not finite"
      ),
      (
        "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0,1,2,3,inf,5,6,,,\n",
        "t.csv:2: column 'ax': 'inf' is not finite"
      ),
      (
        "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0,1,2,3,4,5,6\n# c\n0,1,2,3,4,5,6\n",
        "t.csv:4: column 't_s': time 0 does not increase (previous 0)"
      ),
      (
        "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n1,1,2,3,4,5,6\n0.5,1,2,3,4,5,6\n",
        "t.csv:3: column 't_s': time 0.5 does not increase (previous 1)"
      ),
      (
        "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0,1,2,3,4,5\n",
        "t.csv:2: expected at least 7 fields (t_s to az), found 6"
      ),
      (
        "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0,1,2,3,4,5,6,1,,3\n",
        "t.csv:2: column 'my': magnetometer must have all of mx,my,mz or none"
      ),
      (
        "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0,1,2,3,4,5,6,1,2,x\n",
        "t.csv:2: column 'mz': 'x' is not a number"
      ),
      ("t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0,1,2,3,4,5,,,,\n", "t.csv:2: column 'az': missing value"),
      (
        "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0,0x10,2,3,4,5,6\n",
        "t.csv:2: column 'gx': '0x10' is not a number"
      ),
      (
        "time,gx,gy,gz,ax,ay,az,mx,my,mz\n",
        "t.csv:1: header must start with 't_s,gx,gy,gz,ax,ay,az,mx,my,mz', found 'time,gx,gy,gz,ax,ay,az,mx,my,mz'"
      ),
      (
        "# only a comment\n",
        "t.csv: empty file: expected the header 't_s,gx,gy,gz,ax,ay,az,mx,my,mz'"
      ),
    ])
  func errors(text: String, expected: String) {
    do {
      _ = try RawIMUCSV.parse(bytes(text), fileName: "t.csv")
      Issue.record("expected an error for \(text)")
    } catch {
      #expect(error.description == expected)
    }
  }

  @Test("write is atomic: replaces the file, leaves no temporary, fails cleanly")
  func atomicWrite() throws {
    let folder = try scratchFolder("recording-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("out.csv")
    try Data("old".utf8).write(to: url)
    let samples = [
      IMUSample(timestamp: 1, gyroscope: .unitX, accelerometer: .unitZ * 9.8)
    ]
    try RawIMUCSV.write(samples, to: url)
    #expect(try RawIMUCSV.read(from: url) == samples)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.csv"])
    let missing = folder.appendingPathComponent("no-such-folder/out.csv")
    #expect(throws: RecordingError.self) { try RawIMUCSV.write(samples, to: missing) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.csv"])
  }

  @Test("reading a missing file names it")
  func missingFile() throws {
    do {
      _ = try RawIMUCSV.read(from: URL(fileURLWithPath: "/nonexistent/trial.csv"))
      Issue.record("expected an error")
    } catch {
      #expect(error.description == "/nonexistent/trial.csv: no such file")
    }
  }
}

@Suite("Device-motion CSV")
private struct DeviceMotionCSVTests {
  private func randomMotions(
    _ rng: inout SplitMix64, count: Int, frame: AttitudeReferenceFrame, magnetic: Bool
  ) -> [DeviceMotion] {
    var t = 0.0
    var out: [DeviceMotion] = []
    for _ in 0..<count {
      t += Double.random(in: 0.001...0.05, using: &rng)
      let q = rng.rotation()
      var m = DeviceMotion(
        timestamp: t, attitude: Attitude(quaternion: q),
        rotationRate: Vector3(randomValue(&rng), randomValue(&rng), randomValue(&rng)),
        gravity: q.inverseRotate(Vector3(0, 0, -1)),
        userAcceleration: Vector3(randomValue(&rng), randomValue(&rng), randomValue(&rng)),
        referenceFrame: frame)
      if magnetic {
        m.magneticField = CalibratedMagneticField(
          field: Vector3(randomValue(&rng), randomValue(&rng), randomValue(&rng)),
          accuracy: MagneticFieldCalibrationAccuracy(rawValue: Int(rng.next() % 4) - 1) ?? .low)
        m.heading = Double.random(in: 0..<360, using: &rng)
      }
      out.append(m)
    }
    return out
  }

  @Test(
    "encode then parse gives back the same motions", arguments: AttitudeReferenceFrame.allCases)
  func roundTrip(frame: AttitudeReferenceFrame) throws {
    let seed: UInt64 = 0xD00D + UInt64(frame.rawValue)
    var rng = SplitMix64(seed: seed)
    for magnetic in [false, true] {
      let motions = randomMotions(&rng, count: 300, frame: frame, magnetic: magnetic)
      let data = DeviceMotionCSV.encode(motions, includeMagneticField: magnetic)
      let text = String(decoding: data, as: UTF8.self)
      #expect(text.hasPrefix("# referenceFrame: \(frame.name)\ntime,attitude.w,"))
      let decoded = try DeviceMotionCSV.parse(data, fileName: "m.csv")
      #expect(decoded.referenceFrame == frame)
      #expect(decoded.hasMagneticField == magnetic)
      #expect(decoded.motions.count == motions.count)
      for (a, b) in zip(decoded.motions, motions) {
        // The attitude is re-normalised on reading: equal to within rounding.
        #expect(isSameRotation(a.attitude.quaternion, b.attitude.quaternion, tolerance: 1e-12))
        #expect(a.timestamp == b.timestamp, "seed \(seed)")
        #expect(a.gravity == b.gravity && a.userAcceleration == b.userAcceleration)
        #expect(a.rotationRate == b.rotationRate)
        #expect(a.magneticField == b.magneticField && a.heading == b.heading)
        #expect(a.referenceFrame == frame)
      }
    }
  }

  @Test("reads a hand-written file: default frame, extra columns, exponent numbers")
  func handWritten() throws {
    let text = """
      time,attitude.w,attitude.x,attitude.y,attitude.z,gravity.x,gravity.y,gravity.z,\
      userAcceleration.x,userAcceleration.y,userAcceleration.z,rotationRate.x,rotationRate.y,\
      rotationRate.z,note
      0.5,1,0,0,0,0,0,-1,1e-3,0,0,0.25,0,-2.5E+0,x
      0.6,0,0,0,2,0,-1,0,0,0,0,0,0,0,y

      """
    let c = try DeviceMotionCSV.parse(bytes(text), fileName: "m.csv")
    #expect(c.referenceFrame == .xArbitraryZVertical)
    #expect(!c.hasMagneticField)
    #expect(c.motions.count == 2)
    #expect(c.motions[0].userAcceleration == Vector3(0.001, 0, 0))
    #expect(c.motions[0].rotationRate == Vector3(0.25, 0, -2.5))
    #expect(c.motions[0].heading == -1)
    #expect(c.motions[1].attitude.quaternion == Quaternion(w: 0, x: 0, y: 0, z: 1))
  }

  @Test(
    "bad input is one error naming file, line and column",
    arguments: [
      (
        "# referenceFrame: xSideways\ntime",
        "m.csv:1: unknown reference frame 'xSideways'; expected one of xArbitraryZVertical, xArbitraryCorrectedZVertical, xMagneticNorthZVertical, xTrueNorthZVertical"
      ),
      (
        "time,attitude.w\n",
        "m.csv:1: header must start with 'time,attitude.w,attitude.x,attitude.y,attitude.z,gravity.x,gravity.y,gravity.z,userAcceleration.x,userAcceleration.y,userAcceleration.z,rotationRate.x,rotationRate.y,rotationRate.z', found 'time,attitude.w'"
      ),
      (
        "HEADER\n0,0,0,0,0,0,0,-1,0,0,0,0,0,0\n",
        "m.csv:2: column 'attitude.w': the attitude quaternion is zero"
      ),
      (
        "HEADER\n0,1,0,0,0,0,0,-1,0,0,0,0,0,0\n0,1,0,0,0,0,0,-1,0,0,0,0,0,0\n",
        "m.csv:3: column 'time': time 0 does not increase (previous 0)"
      ),
      (
        "HEADER\n0,1,0,0,0,0,0,-1,0,nan,0,0,0,0\n",
        "m.csv:2: column 'userAcceleration.y': 'nan' is not finite"
      ),
      ("HEADER\n0,1,0,0,0,0,0,-1,0,0,0,0,0\n", "m.csv:2: expected 14 fields, found 13"),
      (
        "HEADER,MAG\n0,1,0,0,0,0,0,-1,0,0,0,0,0,0,1,2,3,5,10\n",
        "m.csv:2: column 'magneticField.accuracy': '5' is not one of -1, 0, 1, 2"
      ),
      (
        "HEADER,MAG\n0,1,0,0,0,0,0,-1,0,0,0,0,0,0,1,2,3,1\n",
        "m.csv:2: column 'heading': missing value"
      ),
    ])
  func errors(text: String, expected: String) {
    let header = DeviceMotionCSV.columns.joined(separator: ",")
    let mag = DeviceMotionCSV.magneticColumns.joined(separator: ",")
    let full = text.replacingOccurrences(of: "HEADER", with: header)
      .replacingOccurrences(of: "MAG", with: mag)
    do {
      _ = try DeviceMotionCSV.parse(bytes(full), fileName: "m.csv")
      Issue.record("expected an error for \(text)")
    } catch {
      #expect(error.description == expected)
    }
  }
}
