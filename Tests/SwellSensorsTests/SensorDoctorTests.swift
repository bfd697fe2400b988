import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

@testable import SwellSensors

/// The 24 rotations among the signed permutation matrices (determinant +1): every way a sensor
/// can be mounted square to the screen.
private let squareRotations: [Matrix3] = {
  let axes = [Vector3.unitX, .unitY, .unitZ]
  var found: [Matrix3] = []
  for i in 0..<3 {
    for j in 0..<3 where j != i {
      for si in [1.0, -1.0] {
        for sj in [1.0, -1.0] {
          let r0 = axes[i] * si
          let r1 = axes[j] * sj
          let m = Matrix3(rows: r0, r1, r0.cross(r1))
          found.append(m)
        }
      }
    }
  }
  return found
}()

private func still(_ accelerometer: Vector3, gyroscope: Vector3 = .zero, count: Int = 50)
  -> SensorMeasurement
{
  SensorMeasurement(
    samples: (0..<count).map {
      IMUSample(timestamp: Double($0) * 0.01, gyroscope: gyroscope, accelerometer: accelerometer)
    })
}

@Suite("Sensor doctor: units, mount matrix from two poses, short reads")
private struct SensorDoctorTests {
  @Test("two poses give back every square mounting (24 rotations, readings with noise)")
  func mountMatrixFromPoses() {
    var rng = SplitMix64(seed: 26)
    #expect(squareRotations.count == 24)
    for m in squareRotations {
      // The sensor reads Mᵀ·f for a specific force f in device axes (v_device = M·v_sensor).
      func noise() -> Vector3 {
        Vector3(
          Double.random(in: -0.4...0.4, using: &rng), Double.random(in: -0.4...0.4, using: &rng),
          Double.random(in: -0.4...0.4, using: &rng))
      }
      let flat = m.transposed * Vector3(0, 0, 9.81) + noise()
      let upright = m.transposed * Vector3(0, 9.81, 0) + noise()
      #expect(SensorDoctor.mountMatrix(flatFaceUp: flat, uprightPortrait: upright) == m)
    }
  }

  @Test("poses that are not along one axis, or the same axis twice, give no matrix")
  func mountMatrixRefused() {
    let tilted = Vector3(0, 9.81 * sin(0.6), 9.81 * cos(0.6))  // 34° off +z
    #expect(
      SensorDoctor.mountMatrix(flatFaceUp: tilted, uprightPortrait: Vector3(0, 9.81, 0)) == nil)
    #expect(
      SensorDoctor.mountMatrix(flatFaceUp: Vector3(0, 0, 9.8), uprightPortrait: Vector3(0, 0, -9.8))
        == nil)
    #expect(SensorDoctor.mountMatrix(flatFaceUp: .zero, uprightPortrait: Vector3(0, 9.8, 0)) == nil)
  }

  @Test(
    "units judged from a still reading",
    arguments: [
      (9.80665, nil), (1.0, "its scale is in g"), (1000.0, "milli-g"), (7.0, "more than 15 %"),
      (12.0, "more than 15 %"),
    ] as [(Double, String?)])
  func units(magnitude: Double, expected: String?) {
    let problems = SensorDoctor.unitProblems(
      still(Vector3(0, 0, magnitude)), scaleHint: "in_accel_scale")
    if let expected {
      #expect(problems.count == 1)
      #expect(problems.first?.message.contains(expected) == true, "\(problems)")
    } else {
      #expect(problems.isEmpty, "\(problems)")
    }
  }

  @Test(
    "a gyroscope turning while the accelerometer is steady is named; a moving device is not judged")
  func gyroscopeAndMotion() {
    let turning = SensorDoctor.unitProblems(
      still(Vector3(0, 0, 9.81), gyroscope: Vector3(0.5, 0, 0)), scaleHint: "s")
    #expect(turning.count == 1 && turning[0].message.contains("gyroscope"))
    let moving = SensorMeasurement(
      samples: (0..<20).map {
        IMUSample(
          timestamp: Double($0) * 0.01, gyroscope: .zero,
          accelerometer: Vector3(0, 0, $0 % 2 == 0 ? 1 : 20))
      })
    #expect(!moving.isStill)
    #expect(SensorDoctor.unitProblems(moving, scaleHint: "s").isEmpty)
  }

  @Test("a measurement's rate and mean come from the samples")
  func measurementSummary() {
    let m = SensorMeasurement(
      samples: (0...200).map {
        IMUSample(
          timestamp: 5 + Double($0) / 200, gyroscope: Vector3(0.01, 0, 0),
          accelerometer: Vector3(0, 9.81, 0))
      })
    #expect(abs((m.rateHertz ?? 0) - 200) < 1e-9)
    #expect(m.samples == 201 && abs(m.seconds - 1) < 1e-12)
    #expect(
      abs(m.accelerometerMagnitude - 9.81) < 1e-12 && abs(m.gyroscopeMagnitude - 0.01) < 1e-12)
    #expect(SensorMeasurement(samples: []).rateHertz == nil)
  }

  @Test("the hwdb entry is systemd's format, with the modalias")
  func hwdb() {
    let m = Matrix3(rows: Vector3(0, 1, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1))
    let text = SensorDoctor.hwdbEntry(m, modalias: "acpi:BOSC0200:BOSC0200:")
    #expect(text.contains("sensor:modalias:acpi:BOSC0200:BOSC0200:*\n"))
    #expect(text.contains("\n ACCEL_MOUNT_MATRIX=0, 1, 0; -1, 0, 0; 0, 0, 1\n"))
  }

  @Test("IIO checks on a fake tree: a g-scaled accelerometer without a mount matrix")
  func iioChecks() async throws {
    let tree = try FakeIIOTree()
    // 1.0 g read through a scale in g per count: the accelerometer reads about 1 at rest.
    try tree.addDevice(
      0, name: "lis3dh", types: ["accel"], raw: ["accel_z": 1000], scales: ["accel": "0.001"],
      buffered: false)
    let (checks, details, notes) = await SensorDoctor.iioChecks(
      sysfsRoot: tree.sysfs, devRoot: tree.dev, measureSeconds: 0.2)
    #expect(notes.isEmpty)
    try #require(checks.count == 1)
    let c = checks[0]
    #expect(c.kind == .iio && c.id == "iio:device0" && c.name == "lis3dh")
    #expect(c.mountMatrix == "missing" && c.timestamps.hasPrefix("synthesised"))
    #expect((c.measurement?.samples ?? 0) > 0)
    #expect(c.problems.contains { $0.message.contains("its scale is in g") })
    #expect(c.problems.contains { $0.message.contains("no mount matrix") })
    #expect(details["iio:device0"]?.hasPrefix("iio:device0  lis3dh\n") == true)
    let empty = await SensorDoctor.iioChecks(sysfsRoot: tree.root + "/none", measureSeconds: 0)
    #expect(empty.checks.isEmpty && empty.notes.first?.contains("does not exist") == true)
  }

  @Test("the JSON report decodes back to the same report")
  func jsonRoundTrip() throws {
    let report = SensorDoctorReport(
      sensors: [
        SensorCheck(
          kind: .evdev, id: "/dev/input/event7",
          name: "DualSense Wireless Controller Motion Sensors",
          pad: "DualSense Wireless Controller", units: "8192 per g; 1024 per °/s",
          timestamps: "hardware (MSC_TIMESTAMP)", mountMatrix: "not applicable", readable: false,
          measurement: still(Vector3(0, 0, 9.81)),
          problems: [SensorProblem("no permission", fix: "a udev rule")])
      ], notes: ["no DSU server answered"])
    let decoded = try JSONDecoder().decode(
      SensorDoctorReport.self, from: Data(report.json.utf8))
    #expect(decoded == report)
    #expect(report.text.contains("  problem: no permission\n    a udev rule\n"))
    #expect(report.text.contains("  pad: DualSense Wireless Controller\n"))
  }
}
