import Foundation
import SwellGeometry
import SwellMotion

/// The raw IMU recording format (docs/formats.md): `t_s,gx,gy,gz,ax,ay,az,mx,my,mz`.
///
/// - `t_s`: seconds, strictly increasing;
/// - `gx,gy,gz`: gyroscope, rad/s, device frame;
/// - `ax,ay,az`: accelerometer, specific force, m/s² (+9.81 on the up axis at rest);
/// - `mx,my,mz`: magnetometer, µT; all three empty or `nan` where there is none (6D).
///
/// Reading: `#` comment lines and blank lines are skipped; columns after the tenth are ignored
/// (the BROAD trials carry ground truth there); a row may stop after `az` (no magnetometer).
/// Every malformed value is an error naming the line and column: a non-number, NaN or infinity
/// in `t_s`, gyroscope or accelerometer (no sample is silently skipped, so no NaN can reach the
/// fusion), an infinity or a partly missing magnetometer, a timestamp that does not increase, and
/// a value outside `RecordingLimits` (a time beyond ±1e10 s, a component beyond ±1e6).
///
/// A file in other units (milliseconds, g, °/s) is read with ``RecordingUnits``, which converts
/// as it reads; ``RecordingUnitCheck`` tells from the data when the units look wrong.
public enum RawIMUCSV {
  /// The first ten header columns, in order.
  public static let columns = ["t_s", "gx", "gy", "gz", "ax", "ay", "az", "mx", "my", "mz"]

  /// The header line written by ``encode(_:)``.
  public static let header = columns.joined(separator: ",")

  /// True when a header line (its fields) starts with the ten raw IMU columns.
  ///
  /// - Parameter fields: The header's field names.
  /// - Returns: Whether the file is a raw IMU recording.
  public static func matches(header fields: [String]) -> Bool {
    fields.count >= columns.count && Array(fields.prefix(columns.count)) == columns
  }

  /// Reads a raw IMU recording file.
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - units: The units of its columns (default the format's: s, rad/s, m/s²); values are
  ///     converted to the format's units.
  /// - Returns: The samples, in file order.
  /// - Throws: `RecordingError` naming the file, line and column of the first problem.
  public static func read(from url: URL, units: RecordingUnits = .standard) throws(RecordingError)
    -> [IMUSample]
  {
    try parse(readBytes(url), fileName: url.lastPathComponent, units: units)
  }

  /// Parses a raw IMU recording from its bytes.
  ///
  /// - Parameters:
  ///   - bytes: The file's contents (UTF-8).
  ///   - fileName: The name used in errors.
  ///   - units: The units of its columns (default the format's: s, rad/s, m/s²); values are
  ///     converted to the format's units.
  /// - Returns: The samples, in file order.
  /// - Throws: `RecordingError` naming the file, line and column of the first problem.
  public static func parse(
    _ bytes: some Collection<UInt8>, fileName: String, units: RecordingUnits = .standard
  ) throws(RecordingError) -> [IMUSample] {
    var scanner = CSVScanner(bytes: bytes, fileName: fileName)
    guard let headerLine = scanner.nextRecord() else {
      throw scanner.error(nil, nil, "empty file: expected the header '\(header)'")
    }
    var fields: [Range<Int>] = []
    _ = try scanner.header(headerLine, into: &fields, expected: header, matches: matches(header:))
    var samples: [IMUSample] = []
    var previous = -Double.infinity
    while let line = scanner.nextRecord() {
      let sample = try row(
        line, scanner: scanner, fields: &fields, previous: previous, units: units)
      previous = sample.timestamp
      samples.append(sample)
    }
    return samples
  }

  /// Reads a raw IMU recording file sample by sample, holding about one block of the file
  /// (1 MiB) whatever its length: the streaming form of ``RawIMUCSV/read(from:units:)``, with
  /// the same checks and errors.
  public struct Reader {
    private var file: CSVFileReader
    private var fields: [Range<Int>] = []
    private var previous = -Double.infinity
    private let units: RecordingUnits

    /// Opens a file and checks its header.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - units: The units of its columns (default the format's: s, rad/s, m/s²); values are
    ///     converted to the format's units.
    /// - Throws: `RecordingError` when it cannot be read or its header is not a raw IMU one.
    public init(url: URL, units: RecordingUnits = .standard) throws(RecordingError) {
      self.units = units
      file = try CSVFileReader(url: url, fileName: url.lastPathComponent)
      guard let headerLine = try file.nextRecord() else {
        throw file.scanner.error(nil, nil, "empty file: expected the header '\(header)'")
      }
      _ = try file.scanner.header(
        headerLine, into: &fields, expected: header, matches: matches(header:))
    }

    /// The next sample, or `nil` at the end of the file.
    ///
    /// - Returns: The sample (device frame, SI units).
    /// - Throws: `RecordingError` naming the line and column of a malformed row.
    public mutating func next() throws(RecordingError) -> IMUSample? {
      guard let line = try file.nextRecord() else { return nil }
      let sample = try row(
        line, scanner: file.scanner, fields: &fields, previous: previous, units: units)
      previous = sample.timestamp
      return sample
    }
  }

  /// Parses one data row.
  ///
  /// - Parameters:
  ///   - line: The row.
  ///   - scanner: The scanner the row belongs to.
  ///   - fields: Scratch storage for the field ranges.
  ///   - previous: The previous row's time, seconds (the row's must be larger).
  ///   - units: The units of the columns; values are converted to seconds, rad/s and m/s²
  ///     before the range checks.
  /// - Returns: The sample.
  /// - Throws: `RecordingError` naming the line and column of the first bad value.
  static func row(
    _ line: CSVScanner.Line, scanner: CSVScanner, fields: inout [Range<Int>], previous: Double,
    units: RecordingUnits = .standard
  ) throws(RecordingError) -> IMUSample {
    scanner.split(line, into: &fields)
    guard fields.count >= 7 else {
      throw scanner.error(
        line.number, nil, "expected at least 7 fields (t_s to az), found \(fields.count)")
    }
    var v = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    func value(_ c: Int) throws(RecordingError) -> Double {
      let r = fields[c]
      guard let raw = scanner.double(r) else {
        let t = scanner.shown(r)
        throw scanner.error(
          line.number, columns[c], t.isEmpty ? "missing value" : "'\(t)' is not a number")
      }
      guard raw.isFinite else {
        throw scanner.error(line.number, columns[c], "'\(scanner.shown(r))' is not finite")
      }
      let x = raw * units.factor(column: c)
      guard
        c == 0
          ? RecordingLimits.isPlausibleTime(x) : RecordingLimits.isPlausibleComponent(x)
      else {
        let limit =
          c == 0 ? RecordingLimits.maximumTimeMagnitude : RecordingLimits.maximumComponentMagnitude
        throw scanner.error(
          line.number, columns[c], "'\(scanner.shown(r))' is out of range (at most ±\(limit))")
      }
      return x
    }
    v = (
      try value(0), try value(1), try value(2), try value(3), try value(4), try value(5),
      try value(6)
    )
    guard v.0 > previous else {
      let scale = units.time.seconds
      throw scanner.error(
        line.number, "t_s",
        "time \(scanner.shown(fields[0])) does not increase (previous "
          + "\(formatNumber(previous / scale)))"
      )
    }
    let magnetometer = try readMagnetometer(fields, scanner: scanner, line: line.number)
    return IMUSample(
      timestamp: v.0, gyroscope: Vector3(v.1, v.2, v.3), accelerometer: Vector3(v.4, v.5, v.6),
      magnetometer: magnetometer)
  }

  private static func readMagnetometer(
    _ fields: [Range<Int>], scanner: CSVScanner, line: Int
  ) throws(RecordingError) -> Vector3? {
    var m = [Double](repeating: .nan, count: 3)
    var present = 0
    for c in 0..<3 {
      let index = 7 + c
      guard index < fields.count, !scanner.isBlank(fields[index]) else { continue }
      guard let x = scanner.double(fields[index]) else {
        throw scanner.error(
          line, columns[index], "'\(scanner.shown(fields[index]))' is not a number")
      }
      if x.isNaN { continue }
      guard RecordingLimits.isPlausibleComponent(x) else {
        throw scanner.error(
          line, columns[index],
          "'\(scanner.shown(fields[index]))' is not finite or out of range (at most ±"
            + "\(RecordingLimits.maximumComponentMagnitude))")
      }
      m[c] = x
      present += 1
    }
    if present == 0 { return nil }
    guard present == 3 else {
      let missing = (0..<3).first { m[$0].isNaN } ?? 0
      throw scanner.error(
        line, columns[7 + missing], "magnetometer must have all of mx,my,mz or none")
    }
    return Vector3(m[0], m[1], m[2])
  }

  /// Encodes samples as a raw IMU recording (header and one row per sample; a sample without
  /// magnetometer has empty `mx,my,mz`). Numbers use the shortest text that reads back exactly.
  ///
  /// - Parameter samples: The samples, in time order.
  /// - Returns: The file's contents.
  public static func encode(_ samples: [IMUSample]) -> Data {
    var out = header + "\n"
    out.reserveCapacity(samples.count * 160 + 64)
    for s in samples { out += row(s) }
    return Data(out.utf8)
  }

  /// One data row, with its line break.
  static func row(_ s: IMUSample) -> String {
    let values = [
      s.timestamp, s.gyroscope.x, s.gyroscope.y, s.gyroscope.z, s.accelerometer.x,
      s.accelerometer.y, s.accelerometer.z,
    ]
    var out = values.map(formatNumber).joined(separator: ",")
    if let m = s.magnetometer {
      out += "," + [m.x, m.y, m.z].map(formatNumber).joined(separator: ",") + "\n"
    } else {
      out += ",,,\n"
    }
    return out
  }

  /// Writes a raw IMU recording row by row, holding about one block (1 MiB) in memory whatever
  /// the recording's length: the streaming form of ``write(_:to:)`` for live recording. The file
  /// appears under its name only on ``commit()`` (`AtomicFileWriter`); a special destination
  /// (`-`, a FIFO) receives the rows as they are written.
  public final class StreamWriter {
    private let file: AtomicFileWriter
    private var text = ""
    /// The rows written so far.
    public private(set) var count = 0

    /// Opens the destination and writes the header.
    ///
    /// - Parameter url: The destination (`-` for standard output).
    /// - Throws: `RecordingError` when it cannot be written.
    public init(url: URL) throws(RecordingError) {
      file = try AtomicFileWriter(url: url)
      try file.write(header + "\n")
    }

    /// Appends one sample as a row.
    ///
    /// - Parameter sample: The sample (seconds, rad/s, m/s², µT).
    /// - Throws: `RecordingError` when the file cannot be written (a full disk).
    public func append(_ sample: IMUSample) throws(RecordingError) {
      text += row(sample)
      count += 1
      if text.utf8.count >= 1 << 16 { try flush() }
    }

    /// Writes the rows appended so far to the file (the destination sees them at once when it
    /// is a special file; a regular file still appears only on ``commit()``).
    ///
    /// - Throws: `RecordingError` when the file cannot be written.
    public func flush() throws(RecordingError) {
      if !text.isEmpty {
        try file.write(text)
        text = ""
      }
      try file.flush()
    }

    /// Writes the last rows and moves the file into place.
    ///
    /// - Throws: `RecordingError` when the file cannot be written or renamed.
    public func commit() throws(RecordingError) {
      try flush()
      try file.commit()
    }
  }

  /// Writes samples as a raw IMU recording, atomically (temporary file, then rename).
  ///
  /// - Parameters:
  ///   - samples: The samples, in time order.
  ///   - url: The destination file.
  /// - Throws: `RecordingError` when the file cannot be written.
  public static func write(_ samples: [IMUSample], to url: URL) throws(RecordingError) {
    try AtomicWrite.write(encode(samples), to: url)
  }
}

/// The largest recording file read whole, bytes (1 GiB; `docs/limits.md`).
let maximumRecordingFileSize = 1 << 30

/// Reads a whole file, turning failures into a `RecordingError` naming it.
///
/// Only regular files are read: a FIFO, a device or a socket would block or never end, so it is
/// refused (the file is opened without blocking and checked with `fstat` before any read). A
/// file larger than ``maximumRecordingFileSize`` is refused before it is read.
func readBytes(_ url: URL) throws(RecordingError) -> Data {
  let shown = UntrustedText.escaped(url.path)
  let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
  guard fd >= 0 else {
    let code = errno
    throw RecordingError(
      file: shown,
      message: code == ENOENT ? "no such file" : "cannot read (\(String(cString: strerror(code))))")
  }
  let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
  var info = stat()
  guard fstat(fd, &info) == 0 else {
    throw RecordingError(file: shown, message: "cannot read (\(String(cString: strerror(errno))))")
  }
  guard (info.st_mode & S_IFMT) == S_IFREG else {
    throw RecordingError(
      file: shown, message: "not a regular file (a FIFO, device or socket is not read)")
  }
  guard Int(info.st_size) <= maximumRecordingFileSize else {
    // A large file is most often a video given by mistake: name it (a ZIP may be a recording).
    var head = [UInt8](repeating: 0, count: BinaryFileKind.prefixLength)
    let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    if n > 0, let kind = BinaryFileKind.describe(head[0..<n]), kind != "a ZIP archive" {
      throw RecordingError(file: shown, message: BinaryFileKind.message(kind))
    }
    throw RecordingError(
      file: shown,
      message: "\(info.st_size) bytes is larger than the limit of \(maximumRecordingFileSize)")
  }
  do {
    return try handle.readToEnd() ?? Data()
  } catch {
    throw RecordingError(file: shown, message: "cannot read (\(error.localizedDescription))")
  }
}
