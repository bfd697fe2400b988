import Foundation
import SwellGeometry
import SwellMotion

/// Reads Sensor Logger (Kelvin Choi) CSV exports, iOS and Android, from a folder or zip.
///
/// Files are `NAME.csv` with header `time,seconds_elapsed,z,y,x` (read by name, any order):
/// `time` in nanoseconds since the Unix epoch (read as a 64-bit integer), `seconds_elapsed` in
/// seconds. Timestamps become `(time − t₀)·10⁻⁹` s with t₀ chosen so that they equal
/// `seconds_elapsed` at the gyroscope's first row.
///
/// Older exports (metadata schema `version` 2 and earlier) have no `seconds_elapsed` column:
/// their files are `time,x,y,z` (any order), and timestamps are `(time − t₀)·10⁻⁹` s with t₀
/// the gyroscope's first `time`, so the first gyroscope row is at 0 s.
///
/// Sensors used (first found wins):
/// - rotation rate: `Gyroscope.csv`, else `GyroscopeUncalibrated.csv` (rad/s);
/// - specific force: `TotalAcceleration.csv` (Android, with gravity, m/s², used as is); else
///   `AccelerometerUncalibrated.csv`, whose unit decides its convention: a median magnitude
///   below 4 means g, which Sensor Logger writes only for iOS with "Standardise Units & Frames"
///   off, in CoreMotion's sign (−1 g on z face up), so it is negated and multiplied by
///   9.80665; otherwise it is m/s² in the specific-force sign (Android, or iOS standardised),
///   used as is; else `Accelerometer.csv` (user acceleration, without gravity) plus
///   `Gravity.csv`, negated when the platform is iOS without standardisation — and also when
///   no `metadata.csv` names the platform, because Android always writes
///   `TotalAcceleration.csv`;
/// - magnetic field (optional): `Magnetometer.csv`, else `MagnetometerUncalibrated.csv` (µT).
///
/// The platform comes from `metadata.csv`'s `platform` column when present (and a
/// `standardisation` column, when present and true, marks iOS files as already converted);
/// otherwise it is inferred: g units mean iOS, `TotalAcceleration.csv` means Android. Older
/// exports predate the standardisation option, so their iOS files always have CoreMotion's
/// signs. `Accelerometer.csv` and `Gravity.csv` are m/s² in every version; should `Gravity.csv`
/// read about 1 in magnitude (g), both are scaled by 9.80665.
/// Sensors are merged onto the gyroscope's timestamps by linear interpolation.
public enum SensorLoggerImporter {
  private static let gyroscopeFiles = ["Gyroscope.csv", "GyroscopeUncalibrated.csv"]
  private static let accelerometerFiles = [
    "TotalAcceleration.csv", "AccelerometerUncalibrated.csv", "Accelerometer.csv",
  ]
  private static let magnetometerFiles = ["Magnetometer.csv", "MagnetometerUncalibrated.csv"]

  /// True when a header is a Sensor Logger sensor file's (`time,seconds_elapsed,...`).
  ///
  /// - Parameter fields: The header's field names.
  /// - Returns: Whether it looks like one file of a Sensor Logger export.
  public static func matches(header fields: [String]) -> Bool {
    if fields.contains("seconds_elapsed") {
      return fields.contains("time") || fields.contains("x")
    }
    // Older exports: nanosecond times and the three axes only.
    return fields.contains("time") && fields.contains("x") && fields.contains("y")
      && fields.contains("z")
  }

  static func recognises(_ files: RecordingFiles) -> Bool {
    for name in gyroscopeFiles + accelerometerFiles {
      guard let entry = files.entry(named: name) else { continue }
      guard let data = try? files.data(entry),
        let header = try? MotionRecording.headerFields(data, fileName: entry.path)
      else { return false }
      return matches(header: header)
    }
    return false
  }

  private struct Metadata {
    var platform: SensorLoggerPlatform = .unknown
    var standardised = false
    /// The export's schema version (`version` column), when given.
    var version: Int?
  }

  private static func metadata(_ files: RecordingFiles) throws(RecordingError) -> Metadata {
    guard let entry = files.entry(named: "metadata.csv") else { return Metadata() }
    var scanner = CSVScanner(bytes: try files.data(entry), fileName: entry.path)
    guard let header = scanner.nextRecord(), let row = scanner.nextRecord() else {
      return Metadata()
    }
    var fields: [Range<Int>] = []
    scanner.split(header, into: &fields)
    let names = fields.map { scanner.text($0).lowercased() }
    scanner.split(row, into: &fields)
    let values = fields.map { scanner.text($0).lowercased() }
    var m = Metadata()
    for (n, v) in zip(names, values) {
      if n == "platform" {
        if v.contains("ios") || v.contains("iphone") {
          m.platform = .iOS
        } else if v.contains("android") {
          m.platform = .android
        }
      }
      if n.contains("standardi") { m.standardised = ["true", "1", "yes", "on"].contains(v) }
      if n == "version" {
        // A version such as "1.34.0" reads as 1; "1e300", "nan" or a huge number as unknown.
        let major = v.split(separator: ".").first.map(String.init) ?? v
        m.version = Int(major).flatMap { (0...1_000_000).contains($0) ? $0 : nil }
      }
    }
    return m
  }

  /// One sensor file's columns: nanosecond times and elapsed seconds (at least one of the two),
  /// and the x, y, z values.
  private typealias SensorFile = (nanos: [Int64]?, elapsed: [Double]?, values: [Vector3])

  /// Reads one sensor file: nanosecond times (when present), elapsed seconds (when present)
  /// and x, y, z.
  private static func readFile(
    _ files: RecordingFiles, _ entry: RecordingFiles.Entry
  ) throws(RecordingError) -> SensorFile {
    var scanner = CSVScanner(bytes: try files.data(entry), fileName: entry.path)
    guard let header = scanner.nextRecord() else {
      throw scanner.error(nil, nil, "empty file")
    }
    var fields: [Range<Int>] = []
    scanner.split(header, into: &fields)
    let names = fields.map { scanner.text($0) }
    func column(_ n: String) throws(RecordingError) -> Int {
      guard let i = names.firstIndex(of: n) else {
        throw scanner.error(
          header.number, nil,
          "no column '\(n)'; expected time,seconds_elapsed,z,y,x, found '\(scanner.preview(header))'"
        )
      }
      return i
    }
    let ix = try column("x")
    let iy = try column("y")
    let iz = try column("z")
    let iTime = names.firstIndex(of: "time")
    // Older exports have nanosecond times only; newer ones also elapsed seconds.
    let iElapsed =
      iTime == nil ? try column("seconds_elapsed") : names.firstIndex(of: "seconds_elapsed")
    var nanos: [Int64]? = iTime == nil ? nil : []
    var elapsed: [Double]? = iElapsed == nil ? nil : []
    var values: [Vector3] = []
    let needed = max(ix, iy, iz, iElapsed ?? 0, iTime ?? 0) + 1
    while let line = scanner.nextRecord() {
      scanner.split(line, into: &fields)
      guard fields.count >= needed else {
        throw scanner.error(
          line.number, nil, "expected \(names.count) fields, found \(fields.count)")
      }
      if let iTime {
        guard let t = scanner.int64(fields[iTime]) else {
          throw scanner.error(
            line.number, "time", "'\(scanner.text(fields[iTime]))' is not an integer (nanoseconds)")
        }
        nanos?.append(t)
      }
      var v = [0.0, 0, 0, 0]
      for (k, (i, n)) in [(iElapsed, "seconds_elapsed"), (ix, "x"), (iy, "y"), (iz, "z")]
        .enumerated()
      {
        guard let i else { continue }
        guard let x = scanner.double(fields[i]), x.isFinite else {
          let t = scanner.text(fields[i])
          throw scanner.error(
            line.number, n, t.isEmpty ? "missing value" : "'\(t)' is not a finite number")
        }
        if k == 0, !RecordingLimits.isPlausibleTime(x) {
          throw scanner.error(
            line.number, n,
            "'\(scanner.shown(fields[i]))' is out of range (at most "
              + "±\(RecordingLimits.maximumTimeMagnitude))")
        }
        v[k] = x
      }
      elapsed?.append(v[0])
      values.append(Vector3(v[1], v[2], v[3]))
    }
    guard !values.isEmpty else { throw scanner.error(nil, nil, "no samples") }
    return (nanos, elapsed, values)
  }

  static func load(files: RecordingFiles, name: String) throws(RecordingError) -> MotionRecording {
    let found = files.entries.map(\.name).sorted().joined(separator: ", ")
    func need(_ what: String) -> RecordingError {
      RecordingError(
        file: name, message: "Sensor Logger export without \(what); found \(found)")
    }
    guard let gyroEntry = gyroscopeFiles.lazy.compactMap({ files.entry(named: $0) }).first else {
      throw need("a gyroscope (Gyroscope.csv or GyroscopeUncalibrated.csv)")
    }
    let meta = try metadata(files)
    let gyro = try readFile(files, gyroEntry)
    // Time origin: t = (time − reference)·1e-9 equals seconds_elapsed at the first gyro row
    // (0 at the first gyro row in older exports, which have no seconds_elapsed). A time and a
    // seconds_elapsed that are not nanoseconds and seconds of the same clock (a first time near
    // the 64-bit limit, say) can put the origin or a time beyond 64 bits: refused, not wrapped.
    func unaligned(_ source: String, _ time: Int64) -> RecordingError {
      RecordingError(
        file: name,
        message:
          "\(source): time \(time) ns is too far from the \(gyroEntry.name) time origin "
          + "(its first time less its seconds_elapsed) to align: not nanoseconds of one clock")
    }
    var reference: Int64?
    if let first = gyro.nanos?.first {
      let elapsedNanos = ((gyro.elapsed?[0] ?? 0) * 1e9).rounded()
      guard let offset = Int64(exactly: elapsedNanos) else {
        throw unaligned(gyroEntry.name, first)
      }
      let (origin, overflow) = first.subtractingReportingOverflow(offset)
      guard !overflow else { throw unaligned(gyroEntry.name, first) }
      reference = origin
    }
    func series(
      _ raw: SensorFile, _ source: String, scale: Double = 1
    ) throws(RecordingError) -> SensorSeries {
      var s = SensorSeries(source: source)
      if let reference, let nanos = raw.nanos {
        s.times.reserveCapacity(nanos.count)
        for time in nanos {
          let (nanoseconds, overflow) = time.subtractingReportingOverflow(reference)
          guard !overflow else { throw unaligned(source, time) }
          s.times.append(Double(nanoseconds) * 1e-9)
        }
      } else if let elapsed = raw.elapsed {
        s.times = elapsed
      } else {
        throw RecordingError(
          file: name,
          message: "\(source) has nanosecond times but \(gyroEntry.name) has none to align them")
      }
      s.values = scale == 1 ? raw.values : raw.values.map { $0 * scale }
      s.sortAndDeduplicate()
      return s
    }
    let gyroscope = try series(gyro, gyroEntry.name)
    var platform = meta.platform
    let accelerometer: SensorSeries
    if let e = files.entry(named: "TotalAcceleration.csv") {
      accelerometer = try series(try readFile(files, e), e.name)
      if platform == .unknown { platform = .android }
    } else if let e = files.entry(named: "AccelerometerUncalibrated.csv") {
      let raw = try readFile(files, e)
      let magnitudes = raw.values.map(\.length).sorted()
      let median = magnitudes[magnitudes.count / 2]
      if median < 4 {
        // g with CoreMotion's sign: specific force = −a·g₀.
        accelerometer = try series(raw, e.name, scale: -standardGravity)
        if platform == .unknown { platform = .iOS }
      } else {
        accelerometer = try series(raw, e.name)
      }
    } else if let e = files.entry(named: "Accelerometer.csv") {
      guard let g = files.entry(named: "Gravity.csv") else {
        throw need(
          "gravity: Accelerometer.csv is acceleration without gravity, so Gravity.csv, "
            + "TotalAcceleration.csv or AccelerometerUncalibrated.csv is needed")
      }
      let gravityFile = try readFile(files, g)
      // m/s² in every documented version; a gravity of about 1 in magnitude means g.
      let magnitudes = gravityFile.values.map(\.length).sorted()
      let unit = magnitudes[magnitudes.count / 2] < 4 ? standardGravity : 1
      let user = try series(try readFile(files, e), e.name, scale: unit)
      let gravity = try series(gravityFile, g.name, scale: unit)
      // iOS files have CoreMotion's signs unless standardised (an option that older schema
      // versions did not have).
      let standardised = meta.standardised && (meta.version ?? 3) > 2
      let iOSSigns = (platform == .iOS && !standardised) || platform == .unknown
      if platform == .unknown { platform = .iOS }
      var total = SensorSeries(source: "\(e.name)+\(g.name)")
      var hint = 0
      for (i, t) in user.times.enumerated() {
        guard let gv = gravity.value(at: t, hint: &hint) else { continue }
        total.times.append(t)
        total.values.append(iOSSigns ? -(user.values[i] + gv) : user.values[i] + gv)
      }
      accelerometer = total
    } else {
      throw need(
        "an accelerometer (TotalAcceleration.csv, AccelerometerUncalibrated.csv, or "
          + "Accelerometer.csv with Gravity.csv)")
    }
    var magnetometer: SensorSeries?
    if let e = magnetometerFiles.lazy.compactMap({ files.entry(named: $0) }).first {
      magnetometer = try series(try readFile(files, e), e.name)
    }
    let samples = try mergeOntoGyroscope(
      gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer, name: name)
    return MotionRecording(
      name: name, format: .sensorLogger(platform: platform), content: .samples(samples))
  }
}
