import Glibc
import SwellGeometry
import SwellMotion
import SwellTime

extension SensorDoctor {
  /// Checks every IIO motion device under a sysfs root: its units, rate, timestamps and mount
  /// matrix, and, when `measureSeconds` is above zero, a short read (polled, so that the check
  /// changes nothing in the device's buffer settings) judged against gravity.
  ///
  /// - Parameters:
  ///   - sysfsRoot: The folder of the `iio:deviceN` entries.
  ///   - devRoot: The folder of their character devices.
  ///   - measureSeconds: How long to read each device, seconds; 0 reads nothing.
  ///   - clock: The clock of the reads.
  /// - Returns: One check per device; each device's ``IIODeviceReport`` block by its id (for
  ///   ``SensorDoctorReport/text(details:)``); and a note when there are none (with the reason).
  public static func iioChecks(
    sysfsRoot: String, devRoot: String = "/dev", measureSeconds: Double = 1,
    clock: MonotonicClock = .continuous
  ) async -> (checks: [SensorCheck], details: [String: String], notes: [String]) {
    let sysfs = IIOSysfs(root: sysfsRoot)
    let devices: [IIODevice]
    do {
      devices = try sysfs.devices()
    } catch {
      return ([], [:], [error.message])
    }
    if devices.isEmpty {
      return ([], [:], ["\(sysfsRoot) has no device with accel, anglvel or magn channels"])
    }
    var checks: [SensorCheck] = []
    var details: [String: String] = [:]
    for d in devices {
      details[d.id] = IIODeviceReport(devices: [d], sysfs: sysfs, devRoot: devRoot).text
      checks.append(
        await iioCheck(
          d, sysfsRoot: sysfsRoot, devRoot: devRoot, seconds: measureSeconds, clock: clock))
    }
    return (checks, details, [])
  }

  /// The mean accelerometer reading of one IIO device over a short polled read, device frame
  /// (after its mount matrix), for a guided tilt.
  ///
  /// - Parameters:
  ///   - device: The device (`iio:deviceN` or a name), on `sysfsRoot`.
  ///   - sysfsRoot: The folder of the `iio:deviceN` entries.
  ///   - seconds: How long to read.
  ///   - clock: The clock of the read.
  /// - Returns: The measurement.
  /// - Throws: ``IIOError`` when the device cannot be opened, `MotionSourceError` when it
  ///   delivers nothing.
  public static func measureIIO(
    _ device: String, sysfsRoot: String, seconds: Double, clock: MonotonicClock = .continuous
  ) async throws -> SensorMeasurement {
    var c = IIOSourceConfiguration()
    c.sysfsRoot = sysfsRoot
    c.deviceName = device
    c.mode = .polled
    let source = try IIOSource(configuration: c, clock: clock)
    let m = try await measure(source, seconds: seconds, clock: clock).get()
    guard m.samples > 0 else {
      throw MotionSourceError("\(device): no samples within \(seconds) s")
    }
    return m
  }

  private static func iioCheck(
    _ d: IIODevice, sysfsRoot: String, devRoot: String, seconds: Double, clock: MonotonicClock
  ) async -> SensorCheck {
    let units = d.types.map { t in
      switch t {
      case .accel: "accel m/s² per count (scale × raw)"
      case .anglvel: "anglvel rad/s per count"
      case .magn: "magn Gauss per count (×100 for µT)"
      case .deltaAngle: "deltaangl rad per count (× sampling frequency for rad/s)"
      case .deltaVelocity: "deltavelocity m/s per count (× sampling frequency for m/s²)"
      }
    }.joined(separator: "; ")
    let charDev = devRoot + "/" + d.id
    let buffered = d.types.allSatisfy { d.canBuffer($0) } && access(charDev, R_OK) == 0
    // The same files, in the same order, as IIOSysfs reads (identity when none exists).
    let hasMatrix = ["in_accel_mount_matrix", "mount_matrix", "in_mount_matrix", "in_accel_matrix"]
      .contains { access(d.path + "/" + $0, F_OK) == 0 }
    var check = SensorCheck(
      kind: .iio, id: d.id, name: d.name, units: units, rateRequestedHertz: d.samplingFrequency,
      timestamps: d.timestamp != nil && buffered
        ? "hardware (in_timestamp, buffered)" : "synthesised (stamped when read)",
      mountMatrix: hasMatrix ? "present" : "missing", readable: true)
    if !hasMatrix && d.types.contains(.accel) {
      check.problems.append(
        SensorProblem(
          "no mount matrix: Swell takes the sensor's axes to be the screen's",
          fix: "if the water tilts the wrong way, run `swell sensors --guided-tilt \(d.id)`: it "
            + "asks for two poses and prints the hwdb line that sets ACCEL_MOUNT_MATRIX"))
    }
    guard seconds > 0 else { return check }
    do {
      let m = try await measureIIO(d.id, sysfsRoot: sysfsRoot, seconds: seconds, clock: clock)
      check.measurement = m
      if d.types.contains(.accel) {
        check.problems += unitProblems(m, scaleHint: "in_accel_scale")
      }
    } catch let error as IIOError {
      check.readable = !error.isPermissionDenied
      check.problems.append(
        SensorProblem(
          error.message,
          fix: error.isPermissionDenied
            ? "install the udev rule as /etc/udev/rules.d/99-iio.rules:\n\(IIOError.udevRule)"
            : "check the device's driver (dmesg) and that \(d.path) is readable"))
    } catch {
      check.problems.append(
        SensorProblem("\(error)", fix: "check the device's driver (dmesg) and its sampling rate"))
    }
    return check
  }

  /// The device's modalias (`modalias` beside or above its sysfs folder), for a hwdb line.
  ///
  /// - Parameter path: The device's sysfs folder.
  /// - Returns: The modalias, or `nil`.
  public static func modalias(ofDeviceAt path: String) -> String? {
    for candidate in [path + "/modalias", path + "/../modalias", path + "/device/modalias"] {
      let fd = open(candidate, O_RDONLY | O_NONBLOCK)
      guard fd >= 0 else { continue }
      defer { close(fd) }
      var bytes = [UInt8](repeating: 0, count: 512)
      let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard n > 0 else { continue }
      let text = String(decoding: bytes[0..<n], as: UTF8.self).trimmingWhitespace()
      if !text.isEmpty { return UntrustedText.clipped(text, limit: 200) }
    }
    return nil
  }
}
