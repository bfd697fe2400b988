import Foundation
import SwellGeometry
import SwellMotion

/// Reads phyphox (RWTH Aachen) CSV exports: one file, or several files (one per sensor set) in
/// a folder or zip.
///
/// Columns are found by name, case-insensitively, with or without quotes: `Time (s)`;
/// `Acceleration x (m/s^2)`... (with gravity, specific-force sign, m/s²; *linear* acceleration
/// columns are not used because they lack gravity); `Gyroscope x (rad/s)`...; and optionally
/// `Magnetic field x (µT)`.... Each sensor column belongs to the nearest `Time` column to its
/// left, so a table holding several sets side by side works too. The delimiter is guessed from
/// the header (comma, tab or semicolon); with tab or semicolon a decimal comma is accepted.
/// Sensors are merged onto the gyroscope's timestamps by linear interpolation.
public enum PhyphoxImporter {
  private enum Sensor: CaseIterable {
    case accelerometer
    case gyroscope
    case magnetometer

    var prefix: String {
      switch self {
      case .accelerometer: "acceleration "
      case .gyroscope: "gyroscope "
      case .magnetometer: "magnetic field "
      }
    }

    var label: String {
      switch self {
      case .accelerometer: "acceleration (Acceleration x/y/z (m/s^2))"
      case .gyroscope: "gyroscope (Gyroscope x/y/z (rad/s))"
      case .magnetometer: "magnetic field"
      }
    }
  }

  private static func isTime(_ name: String) -> Bool {
    let n = name.lowercased()
    return n.hasPrefix("time") && n.contains("(s)")
  }

  /// The sensor and axis (0, 1, 2) a column holds, if any.
  private static func classify(_ name: String) -> (Sensor, Int)? {
    let n = name.lowercased()
    for s in Sensor.allCases where n.hasPrefix(s.prefix) {
      let rest = n.dropFirst(s.prefix.count)
      guard let axis = rest.first, let i = ["x", "y", "z"].firstIndex(of: String(axis)) else {
        continue
      }
      let after = rest.dropFirst()
      guard after.isEmpty || after.first == " " else { continue }
      return (s, i)
    }
    return nil
  }

  /// True when a header has a phyphox time column and an acceleration, gyroscope or
  /// magnetic-field column.
  ///
  /// - Parameter fields: The header's field names.
  /// - Returns: Whether it looks like a phyphox export.
  public static func matches(header fields: [String]) -> Bool {
    fields.contains(where: isTime) && fields.contains { classify($0) != nil }
  }

  /// Loads phyphox CSV files and merges their sensors.
  ///
  /// - Parameters:
  ///   - files: Each file's name and contents.
  ///   - name: The recording's name, for errors.
  /// - Returns: A recording of raw samples.
  /// - Throws: `RecordingError` for malformed files or a missing gyroscope or accelerometer.
  public static func load(
    files: [(name: String, data: Data)], name: String
  ) throws(RecordingError) -> MotionRecording {
    var found: [Sensor: SensorSeries] = [:]
    var columnsSeen: [String] = []
    for (fileName, data) in files {
      var scanner = CSVScanner(bytes: data, fileName: fileName)
      guard let header = scanner.nextRecord() else { continue }
      scanner.delimiter = scanner.guessDelimiter(header)
      if scanner.delimiter != UInt8(ascii: ",") { scanner = scanner.withDecimalComma() }
      var fields: [Range<Int>] = []
      scanner.split(header, into: &fields)
      let names = fields.map { scanner.text($0) }
      columnsSeen += names
      // Group columns: each sensor's x, y, z with the time column on their left.
      var groups: [Sensor: (time: Int, axes: [Int?])] = [:]
      var currentTime: Int?
      for (i, n) in names.enumerated() {
        if isTime(n) {
          currentTime = i
        } else if let (sensor, axis) = classify(n), let t = currentTime,
          found[sensor] == nil
        {
          var g = groups[sensor] ?? (t, [nil, nil, nil])
          if g.time == t { g.axes[axis] = i }
          groups[sensor] = g
        }
      }
      var series: [Sensor: SensorSeries] = [:]
      for (sensor, g) in groups where g.axes.allSatisfy({ $0 != nil }) {
        series[sensor] = SensorSeries(source: fileName)
      }
      guard !series.isEmpty else { continue }
      while let line = scanner.nextRecord() {
        scanner.split(line, into: &fields)
        for (sensor, g) in groups {
          guard series[sensor] != nil else { continue }
          let indices = [g.time] + g.axes.compactMap { $0 }
          // A set shorter than the others leaves its cells empty at the end.
          if indices.allSatisfy({ $0 >= fields.count || scanner.isBlank(fields[$0]) }) {
            continue
          }
          var v = [0.0, 0, 0, 0]
          for (k, i) in indices.enumerated() {
            guard i < fields.count, let x = scanner.double(fields[i]),
              k == 0
                ? RecordingLimits.isPlausibleTime(x) : RecordingLimits.isPlausibleComponent(x)
            else {
              let t = i < fields.count ? scanner.shown(fields[i]) : ""
              throw scanner.error(
                line.number, names[i],
                t.isEmpty
                  ? "missing value"
                  : "'\(t)' is not a finite number in range (docs/limits.md)")
            }
            v[k] = x
          }
          series[sensor]?.times.append(v[0])
          series[sensor]?.values.append(Vector3(v[1], v[2], v[3]))
        }
      }
      for (sensor, s) in series where !s.times.isEmpty {
        var s = s
        s.sortAndDeduplicate()
        found[sensor] = s
      }
    }
    func missing(_ s: Sensor) -> RecordingError {
      let seen =
        columnsSeen.isEmpty
        ? "no columns" : UntrustedText.clipped(columnsSeen.joined(separator: ", "), limit: 200)
      return RecordingError(
        file: name,
        message: "phyphox export without \(s.label) columns; found \(seen)")
    }
    guard let gyroscope = found[.gyroscope] else { throw missing(.gyroscope) }
    guard let accelerometer = found[.accelerometer] else { throw missing(.accelerometer) }
    let samples = try mergeOntoGyroscope(
      gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: found[.magnetometer],
      name: name)
    return MotionRecording(name: name, format: .phyphox, content: .samples(samples))
  }
}
