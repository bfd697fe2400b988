import Foundation
import SwellGeometry
import SwellMotion
import SwellTime

/// A problem the sensor doctor found, with the fix to apply.
public struct SensorProblem: Codable, Hashable, Sendable {
  /// What is wrong, in one line.
  public var message: String
  /// What to do about it (a command, a udev rule, a hwdb line), possibly several lines.
  public var fix: String

  /// Creates a problem.
  ///
  /// - Parameters:
  ///   - message: What is wrong.
  ///   - fix: What to do.
  public init(_ message: String, fix: String) {
    self.message = message
    self.fix = fix
  }
}

/// What a short read of a sensor measured.
public struct SensorMeasurement: Codable, Hashable, Sendable {
  /// Samples received.
  public var samples: Int
  /// Seconds between the first and the last sample's timestamp.
  public var seconds: Double
  /// Samples per second from the timestamps, `nil` with fewer than two samples.
  public var rateHertz: Double?
  /// The mean accelerometer reading, m/s², device frame (specific force: about +9.81 on the
  /// up axis at rest).
  public var meanAccelerometer: [Double]
  /// The magnitude of ``meanAccelerometer``, m/s².
  public var accelerometerMagnitude: Double
  /// The largest deviation of one accelerometer reading from the mean, m/s².
  public var accelerometerSpread: Double
  /// The magnitude of the mean gyroscope reading, rad/s.
  public var gyroscopeMagnitude: Double

  /// True when the accelerometer barely moved (spread under 0.5 m/s²): the device was still,
  /// so the readings can be judged against gravity.
  public var isStill: Bool { samples >= 2 && accelerometerSpread < 0.5 }

  /// Summarises samples.
  ///
  /// - Parameter samples: The samples, in order.
  public init(samples: [IMUSample]) {
    self.samples = samples.count
    let first = samples.first?.timestamp ?? 0
    let last = samples.last?.timestamp ?? 0
    seconds = last - first
    rateHertz =
      samples.count >= 2 && last > first ? Double(samples.count - 1) / (last - first) : nil
    var a = Vector3.zero
    var g = Vector3.zero
    for s in samples {
      a = a + s.accelerometer
      g = g + s.gyroscope
    }
    let n = Double(max(1, samples.count))
    let mean = a / n
    meanAccelerometer = [mean.x, mean.y, mean.z]
    accelerometerMagnitude = mean.length
    accelerometerSpread = samples.map { ($0.accelerometer - mean).length }.max() ?? 0
    gyroscopeMagnitude = (g / n).length
  }
}

/// One sensor as the doctor sees it: a Linux IIO device, an evdev motion node or a DSU slot.
public struct SensorCheck: Codable, Hashable, Sendable {
  /// The kind of sensor.
  public enum Kind: String, Codable, Hashable, Sendable {
    /// A Linux Industrial I/O device (`iio:deviceN`).
    case iio
    /// An evdev motion-sensor node of a game controller or handheld (`/dev/input/eventN`).
    case evdev
    /// A slot of a DSU (cemuhook) server.
    case dsu
  }

  /// The kind of sensor.
  public var kind: Kind
  /// Where it is: `iio:device0`, `/dev/input/event7`, `dsu:127.0.0.1:26760#0`.
  public var id: String
  /// The device's own name (chip, controller or model).
  public var name: String
  /// For an evdev motion node: the name of the gamepad node it belongs to.
  public var pad: String?
  /// The units the device reports in, in words.
  public var units: String
  /// The rate the device is set to, Hz, when it says.
  public var rateRequestedHertz: Double?
  /// Where sample times come from: `hardware` (the device's own clock), or `synthesised`
  /// (stamped on arrival).
  public var timestamps: String
  /// `present`, `missing` (axes assumed to match the screen) or `not applicable`.
  public var mountMatrix: String
  /// Whether Swell can read it as this user.
  public var readable: Bool
  /// What a short read measured, when the doctor read it.
  public var measurement: SensorMeasurement?
  /// The problems found, each with its fix.
  public var problems: [SensorProblem]

  /// Creates a check.
  ///
  /// - Parameters:
  ///   - kind: The kind.
  ///   - id: Where it is.
  ///   - name: Its name.
  ///   - pad: The gamepad's name (evdev).
  ///   - units: The units in words.
  ///   - rateRequestedHertz: The configured rate.
  ///   - timestamps: `hardware` or `synthesised`.
  ///   - mountMatrix: `present`, `missing` or `not applicable`.
  ///   - readable: Whether it can be read.
  ///   - measurement: What a read measured.
  ///   - problems: The problems found.
  public init(
    kind: Kind, id: String, name: String, pad: String? = nil, units: String,
    rateRequestedHertz: Double? = nil, timestamps: String, mountMatrix: String, readable: Bool,
    measurement: SensorMeasurement? = nil, problems: [SensorProblem] = []
  ) {
    self.kind = kind
    self.id = id
    self.name = name
    self.pad = pad
    self.units = units
    self.rateRequestedHertz = rateRequestedHertz
    self.timestamps = timestamps
    self.mountMatrix = mountMatrix
    self.readable = readable
    self.measurement = measurement
    self.problems = problems
  }
}

/// What `swell sensors` reports: every motion sensor found, what a short read measured, and the
/// fix for what is wrong.
public struct SensorDoctorReport: Codable, Hashable, Sendable {
  /// The sensors found, IIO devices first, then evdev nodes, then DSU slots.
  public var sensors: [SensorCheck]
  /// Places looked at that held nothing, and why (`no DSU server answered on 127.0.0.1:26760`).
  public var notes: [String]

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - sensors: The sensors.
  ///   - notes: What was looked at and not found.
  public init(sensors: [SensorCheck], notes: [String] = []) {
    self.sensors = sensors
    self.notes = notes
  }

  /// The report as pretty-printed JSON with sorted keys, ending in a newline.
  public var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self) else { return "{}\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// The report for people: a block per sensor, each problem with its fix indented under it.
  public var text: String { text(details: [:]) }

  /// The report for people, with a longer description in place of the first lines of some
  /// sensors (the channel table of an IIO device, ``IIODeviceReport``).
  ///
  /// - Parameter details: Blocks by ``SensorCheck/id``, each ending in a newline; such a block
  ///   replaces the sensor's name, units, requested rate and mount-matrix lines.
  /// - Returns: The text, each line ending in a newline.
  public func text(details: [String: String]) -> String {
    var out = ""
    for s in sensors {
      if let block = details[s.id] {
        out += block
      } else {
        out += "\(s.kind.rawValue)  \(s.id)  \(s.name)\n"
        if let pad = s.pad { out += "  pad: \(pad)\n" }
        out += "  units: \(s.units)\n"
        out +=
          "  rate: \(s.rateRequestedHertz.map { "\(IIODeviceReport.decimal($0)) Hz" } ?? "not reported")\n"
        out += "  mount matrix: \(s.mountMatrix)\n"
      }
      out += "  timestamps: \(s.timestamps)\n"
      if !s.readable { out += "  readable: no\n" }
      if let m = s.measurement {
        if let hz = m.rateHertz {
          let g = IIODeviceReport.decimal((m.accelerometerMagnitude * 100).rounded() / 100)
          out += "  measured: \(IIODeviceReport.decimal((hz * 10).rounded() / 10)) Hz over "
          out +=
            "\(m.samples) samples, accelerometer \(g) m/s² (\(m.isStill ? "still" : "moving"))\n"
        } else {
          out += "  measured: \(m.samples) samples\n"
        }
      }
      for p in s.problems {
        out += "  problem: \(p.message)\n"
        for line in p.fix.split(separator: "\n", omittingEmptySubsequences: false) {
          out += "    \(line)\n"
        }
      }
    }
    for n in notes { out += "note: \(n)\n" }
    return out
  }
}

/// The checks behind `swell sensors`: reading a sensor briefly, judging its units from the data,
/// and the mount matrix a guided tilt gives.
public enum SensorDoctor {
  /// Reads a source for a while and summarises what came.
  ///
  /// The source is stopped when the time is up, so a source that delivers nothing still ends.
  ///
  /// - Parameters:
  ///   - source: An opened source.
  ///   - seconds: How long to read, seconds on `clock`.
  ///   - clock: The clock the deadline is on.
  /// - Returns: The measurement, or the error the source ended with (a transient error ends the
  ///   read too: a sensor that comes and goes is reported, not waited for).
  public static func measure(
    _ source: any MotionSource, seconds: Double, clock: MonotonicClock = .continuous
  ) async -> Result<SensorMeasurement, MotionSourceError> {
    let deadline = clock.now() + max(0, seconds)
    let stopper = Task {
      try? await clock.sleep(until: deadline)
      await source.stop()
    }
    defer { stopper.cancel() }
    var samples: [IMUSample] = []
    do {
      while samples.count < 100_000, let event = try await source.next() {
        if case .sample(let s) = event { samples.append(s) }
        if clock.now() >= deadline { break }
      }
    } catch let error as MotionSourceError {
      await source.stop()
      if samples.isEmpty { return .failure(error) }
    } catch {
      await source.stop()
      if samples.isEmpty { return .failure(MotionSourceError("\(error)")) }
    }
    await source.stop()
    return .success(SensorMeasurement(samples: samples))
  }

  /// Judges a still device's readings against gravity: an accelerometer reading about 1 (g) or
  /// about 1000 (milli-g) instead of 9.81 m/s², or far from 9.81 at all, and a gyroscope that
  /// turns fast while the accelerometer is steady (°/s read as rad/s, or a large bias).
  ///
  /// - Parameters:
  ///   - m: The measurement (judged only when ``SensorMeasurement/isStill``).
  ///   - scaleHint: Where the scale comes from, for the fix (`in_accel_scale`, the
  ///     `ABS_X` resolution).
  /// - Returns: The problems, empty when the readings are plausible or the device moved.
  public static func unitProblems(_ m: SensorMeasurement, scaleHint: String) -> [SensorProblem] {
    guard m.isStill else { return [] }
    var problems: [SensorProblem] = []
    let a = m.accelerometerMagnitude
    let shown = IIODeviceReport.decimal((a * 1000).rounded() / 1000)
    if a > 0.8 && a < 1.2 {
      problems.append(
        SensorProblem(
          "the accelerometer reads \(shown) at rest instead of 9.81 m/s²: its scale is in g",
          fix: "multiply \(scaleHint) by 9.80665 (standard gravity), or declare the unit as g"))
    } else if a > 800 && a < 1200 {
      problems.append(
        SensorProblem(
          "the accelerometer reads \(shown) at rest instead of 9.81 m/s²: its scale is in milli-g",
          fix: "multiply \(scaleHint) by 0.00980665"))
    } else if a < 9.81 * 0.85 || a > 9.81 * 1.15 {
      problems.append(
        SensorProblem(
          "the accelerometer reads \(shown) m/s² at rest, more than 15 % from 9.81",
          fix: "check \(scaleHint) and the offset; lay the device still and run this again"))
    }
    if m.gyroscopeMagnitude > 0.1 {
      let g = IIODeviceReport.decimal((m.gyroscopeMagnitude * 1000).rounded() / 1000)
      problems.append(
        SensorProblem(
          "the gyroscope reads \(g) rad/s while the accelerometer is steady",
          fix: "a gyroscope in °/s read as rad/s, or a large bias: check the gyroscope's scale"))
    }
    return problems
  }

  /// The mount matrix that two still readings give: one lying flat, face up, and one standing
  /// upright in portrait (the top of the screen up).
  ///
  /// Lying face up the specific force points out of the screen (+z of the device frame); upright
  /// it points to the top of the screen (+y). Each reading must lie close to one sensor axis
  /// (within 25°), and the two axes must differ; x is then y × z, so the matrix is a rotation
  /// (determinant +1) with entries -1, 0 and 1, in the `v_device = M · v_sensor` convention of
  /// the kernel's `mount_matrix` and systemd's `ACCEL_MOUNT_MATRIX`.
  ///
  /// - Parameters:
  ///   - flatFaceUp: The mean accelerometer reading lying face up, in sensor axes.
  ///   - uprightPortrait: The mean reading standing upright in portrait, in sensor axes.
  /// - Returns: The matrix, or `nil` when a reading is not along one axis or both are the same.
  public static func mountMatrix(flatFaceUp: Vector3, uprightPortrait: Vector3) -> Matrix3? {
    guard let z = nearestAxis(flatFaceUp), let y = nearestAxis(uprightPortrait),
      abs(z.dot(y)) < 0.5
    else { return nil }
    let x = y.cross(z)
    return Matrix3(rows: x, y, z)
  }

  /// The line for systemd's hwdb that gives a device this accelerometer mount matrix
  /// (`/etc/udev/hwdb.d/61-sensor-local.hwdb`, format of systemd's `hwdb.d/60-sensor.hwdb`),
  /// with the commands that load it.
  ///
  /// - Parameters:
  ///   - matrix: The matrix.
  ///   - modalias: The device's modalias (its sysfs `modalias`), or `nil` for a placeholder.
  /// - Returns: The lines.
  public static func hwdbEntry(_ matrix: Matrix3, modalias: String?) -> String {
    let rows = [matrix.row0, matrix.row1, matrix.row2].map { r in
      [r.x, r.y, r.z].map { IIODeviceReport.decimal($0) }.joined(separator: ", ")
    }
    return """
      add to /etc/udev/hwdb.d/61-sensor-local.hwdb:
      sensor:modalias:\(modalias ?? "MODALIAS")*
       ACCEL_MOUNT_MATRIX=\(rows.joined(separator: "; "))
      then: systemd-hwdb update && udevadm trigger
      """
  }

  private static func nearestAxis(_ v: Vector3) -> Vector3? {
    let n = v.length
    guard n.isFinite, n > 0 else { return nil }
    let u = v / n
    let axes = [Vector3.unitX, .unitY, .unitZ]
    for axis in axes {
      let c = u.dot(axis)
      if abs(c) >= cos(25 * Double.pi / 180) { return c > 0 ? axis : axis * -1 }
    }
    return nil
  }
}
