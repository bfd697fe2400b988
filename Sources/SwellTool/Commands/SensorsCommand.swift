import Dispatch
import Foundation
import SwellGeometry
import SwellMotion
import SwellRecordings
import SwellSensors
import Synchronization

/// `swell sensors`: the sensor doctor. Lists the Linux motion sensors, reads each briefly, and
/// says what is wrong with the fix.
struct SensorsCommand: TypedToolCommand {
  static let about = CommandAbout(
    "sensors", summary: "list Linux motion sensors and what is wrong with them (a sensor doctor)",
    discussion: """
      Lists the Industrial I/O devices with accelerometer, gyroscope or magnetometer channels \
      (name, device, channels, sampling rate, scale, offset, mount matrix, and whether buffered \
      reads are possible), the evdev motion-sensor nodes of game controllers and handhelds \
      (with their pad, units from the axes' resolutions, the driver family) and the pads a DSU \
      (cemuhook) server serves. It reads each for a moment (--measure) and reports the rate measured, \
      where timestamps come from, whether a mount matrix is present, and each problem with its \
      fix: no permission (the udev rule), no mount matrix (--guided-tilt prints the hwdb line), \
      an accelerometer reading about 1 instead of 9.81 at rest (units). --json prints the same \
      as JSON for scripts. Exits with status 1 and says why when there are no sensors.
      """,
    examples: [
      "sensors", "sensors --json", "sensors --measure 0", "sensors --guided-tilt iio:device0",
      "sensors --sysfs-root /tmp/fake-iio",
      "sensors --no-dsu --input-sysfs-root /tmp/fake-input/sys",
    ])

  struct Options: ParsableOptions {
    var sysfsRoot: String
    var devRoot: String
    var json: Bool
    var measure: Double
    var guidedTilt: String?
    var dsu: String
    var noDSU: Bool
    var inputSysfsRoot: String
    var inputDevRoot: String
    var inputAxes: String?

    init(_ p: inout OptionParser) throws(UsageError) {
      sysfsRoot = p.option(
        "--sysfs-root", value: "DIR", kind: .directory, default: IIOSysfs.defaultRoot,
        help: "where the iio:deviceN folders are")
      devRoot = p.option(
        "--dev-root", value: "DIR", kind: .directory, default: "/dev",
        help: "where the iio:deviceN character devices are")
      json = p.flag("--json", help: "print the report as JSON")
      measure = try p.option(
        "--measure", value: "S", default: 1.0, in: 0...30,
        help: "read each sensor for S seconds (0: read nothing)")
      guidedTilt = p.option(
        "--guided-tilt", value: "DEVICE",
        help: "find the mount matrix of an IIO accelerometer from two poses (asks on the terminal)")
      dsu = p.option(
        "--dsu", value: "HOST[:PORT]", default: "127.0.0.1:26760",
        help: "the DSU (cemuhook) server to ask")
      noDSU = p.flag("--no-dsu", help: "do not ask a DSU server")
      inputSysfsRoot = p.option(
        "--input-sysfs-root", value: "DIR", kind: .directory,
        default: EvdevDiscovery.defaultSysfsRoot, help: "where the eventN sysfs entries are")
      inputDevRoot = p.option(
        "--input-dev-root", value: "DIR", kind: .directory, default: EvdevDiscovery.defaultDevRoot,
        help: "where the eventN character devices are")
      inputAxes = p.option(
        "--input-axes", value: "FILE", kind: .file,
        help: "an evemu description whose A: lines give the evdev axes' ranges and resolutions, "
          + "for nodes that cannot report them")
    }

    func validate() throws(UsageError) { _ = try dsuAddress() }

    /// The DSU server's host and port.
    func dsuAddress() throws(UsageError) -> (host: String, port: UInt16) {
      let parts = dsu.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count <= 2, let host = parts.first, !host.isEmpty else {
        throw UsageError("--dsu needs HOST or HOST:PORT, got '\(UntrustedText.clipped(dsu))'")
      }
      guard parts.count == 2 else { return (String(host), 26760) }
      guard let port = UInt16(parts[1]), port > 0 else {
        throw UsageError(
          "--dsu: the port must be 1...65535, got '\(UntrustedText.clipped(parts[1]))'")
      }
      return (String(host), port)
    }
  }

  static func run(_ options: Options, console: Console) throws -> Int32 {
    if let device = options.guidedTilt {
      return try guidedTilt(device, options: options, console: console)
    }
    let (sysfsRoot, devRoot, seconds) = (options.sysfsRoot, options.devRoot, options.measure)
    let dsu = options.noDSU ? nil : try options.dsuAddress()
    var input = EvdevSourceConfiguration()
    input.sysfsRoot = options.inputSysfsRoot
    input.devRoot = options.inputDevRoot
    if let file = options.inputAxes {
      input.axisOverrides = try EvemuDescriptionFile.read(file).absoluteAxes
    }
    let (checks, details, notes) = waitFor { [input] in
      var (checks, details, notes) = await SensorDoctor.iioChecks(
        sysfsRoot: sysfsRoot, devRoot: devRoot, measureSeconds: seconds)
      let evdev = await SensorDoctor.evdevChecks(configuration: input, measureSeconds: seconds)
      checks += evdev.checks
      notes += evdev.notes
      if let dsu {
        let found = await SensorDoctor.dsuChecks(
          host: dsu.host, port: dsu.port, measureSeconds: seconds)
        checks += found.checks
        notes += found.notes
      }
      return (checks, details, notes)
    }
    let report = SensorDoctorReport(sensors: checks, notes: notes)
    guard !checks.isEmpty else {
      throw ToolError("no motion sensors: " + notes.joined(separator: "; "))
    }
    console.out(options.json ? report.json : report.text(details: details))
    return 0
  }

  /// Two poses, each read for a second, give the accelerometer's mount matrix.
  private static func guidedTilt(_ device: String, options: Options, console: Console) throws
    -> Int32
  {
    let sysfsRoot = options.sysfsRoot
    let seconds = max(options.measure, 0.5)
    let poses = [
      ("flat", "Lay the device flat on a table, screen up, and press Enter."),
      ("upright", "Stand it upright in portrait, top of the screen up, and press Enter."),
    ]
    var readings: [Vector3] = []
    for (pose, prompt) in poses {
      console.err(prompt + "\n")
      guard readLine() != nil else {
        throw ToolError("guided tilt: standard input ended before the \(pose) pose")
      }
      let result: Result<SensorMeasurement, any Error> = waitFor {
        do {
          return .success(
            try await SensorDoctor.measureIIO(device, sysfsRoot: sysfsRoot, seconds: seconds))
        } catch {
          return .failure(error)
        }
      }
      let m: SensorMeasurement
      do { m = try result.get() } catch { throw ToolError("guided tilt: \(error)") }
      guard m.isStill else {
        throw ToolError("guided tilt: the device moved during the \(pose) pose; hold it still")
      }
      readings.append(
        Vector3(m.meanAccelerometer[0], m.meanAccelerometer[1], m.meanAccelerometer[2]))
    }
    guard
      let correction = SensorDoctor.mountMatrix(
        flatFaceUp: readings[0], uprightPortrait: readings[1])
    else {
      throw ToolError(
        "guided tilt: the two poses did not each put gravity along one axis (flat "
          + "\(describe(readings[0])), upright \(describe(readings[1]))); try again")
    }
    let found = try IIOSysfs(root: sysfsRoot).devices().first {
      $0.id == device || $0.name == device
    }
    let current = found?.mountMatrices[.accel] ?? .identity
    let matrix = correction * current
    console.out(
      "mount matrix: \(rows(matrix))\n"
        + SensorDoctor.hwdbEntry(
          matrix, modalias: found.flatMap { SensorDoctor.modalias(ofDeviceAt: $0.path) }) + "\n")
    return 0
  }

  private static func describe(_ v: Vector3) -> String {
    [v.x, v.y, v.z].map { String(format: "%.2f", $0) }.joined(separator: ", ")
  }

  private static func rows(_ m: Matrix3) -> String {
    [m.row0, m.row1, m.row2].map { r in
      [r.x, r.y, r.z].map { IIODeviceReport.decimal($0) }.joined(separator: ", ")
    }.joined(separator: "; ")
  }
}

/// Runs async work to its end from synchronous code (a command's `run`).
func waitFor<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
  let box = Mutex<[T]>([])
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    let value = await work()
    box.withLock { $0 = [value] }
    done.signal()
  }
  done.wait()
  return box.withLock { $0[0] }
}
