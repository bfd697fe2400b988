import Foundation
import SwellGeometry

/// A motion recording loaded from any supported file, folder or zip: raw IMU samples to be
/// fused, or device motion that is already fused.
///
/// ``load(from:)`` detects the format (see `docs/recordings.md`):
/// - a raw IMU CSV (`t_s,gx,gy,gz,ax,ay,az,mx,my,mz`, FORMATS.md);
/// - a device-motion CSV (`time,attitude.w,...`, FORMATS.md);
/// - a Sensor Logger export (iOS or Android), as its folder or its `.zip`;
/// - a phyphox CSV export (one file, or several in a folder or `.zip`).
public struct MotionRecording: Sendable {
  /// Where a recording came from.
  public enum Format: Sendable, Hashable {
    /// Swell's raw IMU CSV.
    case rawIMU
    /// Swell's device-motion CSV.
    case deviceMotion
    /// A Sensor Logger export.
    case sensorLogger(platform: SensorLoggerPlatform)
    /// A phyphox CSV export.
    case phyphox
  }

  /// What a recording holds.
  public enum Content: Sendable, Hashable {
    /// Raw samples (device frame, SI units), in time order.
    case samples([IMUSample])
    /// Fused device motion, in time order, in the given reference frame.
    case deviceMotion([DeviceMotion], referenceFrame: AttitudeReferenceFrame)
  }

  /// A short name: the file or folder name.
  public var name: String
  /// The detected format.
  public var format: Format
  /// The samples or device motion.
  public var content: Content

  /// Creates a recording.
  ///
  /// - Parameters:
  ///   - name: A short name.
  ///   - format: The source format.
  ///   - content: The samples or device motion.
  public init(name: String, format: Format, content: Content) {
    self.name = name
    self.format = format
    self.content = content
  }

  /// True when raw samples carry magnetometer readings (9D fusion possible), or device motion
  /// carries a calibrated magnetic field.
  public var hasMagnetometer: Bool {
    switch content {
    case .samples(let s): return s.contains { $0.magnetometer != nil }
    case .deviceMotion(let m, _): return m.contains { $0.magneticField.accuracy != .uncalibrated }
    }
  }

  /// The number of samples or device-motion rows.
  public var count: Int {
    switch content {
    case .samples(let s): s.count
    case .deviceMotion(let m, _): m.count
    }
  }

  /// The timestamps of the first and last events, seconds (`nil` when empty).
  public var timeSpan: ClosedRange<Double>? {
    switch content {
    case .samples(let s):
      guard let a = s.first?.timestamp, let b = s.last?.timestamp else { return nil }
      return a...b
    case .deviceMotion(let m, _):
      guard let a = m.first?.timestamp, let b = m.last?.timestamp else { return nil }
      return a...b
    }
  }

  /// The recording as source events, in time order.
  public var events: [MotionEvent] {
    switch content {
    case .samples(let s): s.map { .sample($0) }
    case .deviceMotion(let m, _): m.map { .deviceMotion($0) }
    }
  }

  /// Loads a recording, detecting its format.
  ///
  /// - Parameter url: A CSV file, a folder, or a `.zip`.
  /// - Returns: The recording.
  /// - Throws: ``RecordingError`` naming the file (and line and column) of the first problem,
  ///   or saying what was found and what is needed when the layout is not recognised.
  public static func load(from url: URL) throws(RecordingError) -> MotionRecording {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw RecordingError(file: url.path, message: "no such file or folder")
    }
    let name = url.lastPathComponent
    if isDirectory.boolValue {
      return try load(files: RecordingFiles.folder(url), name: name)
    }
    let data = try readBytes(url)
    if ZipArchive.isZip(data) {
      let archive = try ZipArchive(data: data, name: name)
      do {
        return try load(files: RecordingFiles.zip(archive, name: name), name: name)
      } catch  where error.message.hasPrefix("no recognised recording") {
        var named = error
        named.message = "a ZIP archive that is not a recording: " + error.message
        throw named
      }
    }
    return try load(file: data, name: name)
  }

  /// Loads a single CSV file from its bytes, detecting its format.
  ///
  /// - Parameters:
  ///   - data: The file's contents.
  ///   - name: The file's name, for errors.
  /// - Returns: The recording.
  /// - Throws: ``RecordingError`` for malformed or unrecognised contents; a binary file (a video,
  ///   an image, an archive, ...) is named from its first bytes instead of read as CSV.
  public static func load(file data: Data, name: String) throws(RecordingError) -> MotionRecording {
    if let kind = BinaryFileKind.describe(data) {
      throw RecordingError(file: name, message: BinaryFileKind.message(kind))
    }
    let header = try headerFields(data, fileName: name)
    if RawIMUCSV.matches(header: header) {
      return MotionRecording(
        name: name, format: .rawIMU, content: .samples(try RawIMUCSV.parse(data, fileName: name)))
    }
    if DeviceMotionCSV.matches(header: header) {
      let c = try DeviceMotionCSV.parse(data, fileName: name)
      return MotionRecording(
        name: name, format: .deviceMotion,
        content: .deviceMotion(c.motions, referenceFrame: c.referenceFrame))
    }
    if PhyphoxImporter.matches(header: header) {
      return try PhyphoxImporter.load(files: [(name, data)], name: name)
    }
    if SensorLoggerImporter.matches(header: header) {
      throw RecordingError(
        file: name,
        message:
          "a single Sensor Logger file; load the export's folder or .zip, which holds "
          + "Gyroscope and Accelerometer files")
    }
    throw RecordingError(
      file: name, line: nil,
      message:
        "unknown layout (header "
        + "'\(UntrustedText.clipped(header.prefix(6).joined(separator: ",")))'); expected a raw IMU "
        + "CSV (t_s,gx,gy,gz,ax,ay,az,mx,my,mz), a device-motion CSV (time,attitude.w,...), a "
        + "phyphox CSV, or a Sensor Logger folder or .zip")
  }

  static func load(files: RecordingFiles, name: String) throws(RecordingError) -> MotionRecording {
    if SensorLoggerImporter.recognises(files) {
      return try SensorLoggerImporter.load(files: files, name: name)
    }
    let csv = files.entries.filter { $0.name.lowercased().hasSuffix(".csv") }
    var phyphox: [(String, Data)] = []
    for entry in csv {
      let data = try files.data(entry)
      if let header = try? headerFields(data, fileName: entry.name),
        PhyphoxImporter.matches(header: header)
      {
        phyphox.append((entry.name, data))
      }
    }
    if !phyphox.isEmpty {
      return try PhyphoxImporter.load(files: phyphox, name: name)
    }
    if csv.count == 1, let only = csv.first {
      return try load(file: files.data(only), name: "\(name)/\(only.name)")
    }
    let found = csv.isEmpty ? "no CSV files" : csv.map(\.name).sorted().joined(separator: ", ")
    throw RecordingError(
      file: name,
      message:
        "no recognised recording: found \(found); expected a Sensor Logger export "
        + "(Gyroscope.csv with Accelerometer*.csv or TotalAcceleration.csv), phyphox CSV files, "
        + "or one raw IMU or device-motion CSV")
  }

  /// The first non-comment line's fields (quotes removed, delimiter guessed).
  static func headerFields(_ data: Data, fileName: String) throws(RecordingError) -> [String] {
    var scanner = CSVScanner(bytes: data, fileName: fileName)
    guard let line = scanner.nextRecord() else {
      throw scanner.error(nil, nil, "empty file")
    }
    scanner.delimiter = scanner.guessDelimiter(line)
    var fields: [Range<Int>] = []
    scanner.split(line, into: &fields)
    return fields.map { scanner.text($0) }
  }
}
