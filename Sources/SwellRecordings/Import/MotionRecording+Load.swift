import Foundation
import SwellEvdev
import SwellMotion

extension MotionRecording {
  /// Loads a recording, detecting its format.
  ///
  /// - Parameters:
  ///   - url: A CSV file, an evemu recording (`.evemu`, or text starting `# EVEMU`), a folder,
  ///     or a `.zip`.
  ///   - units: The units of a raw IMU CSV's columns (default the format's: s, rad/s, m/s²);
  ///     other formats carry their own.
  /// - Returns: The recording.
  /// - Throws: `RecordingError` naming the file (and line and column) of the first problem,
  ///   or saying what was found and what is needed when the layout is not recognised.
  public static func load(from url: URL, units: RecordingUnits = .standard)
    throws(RecordingError) -> MotionRecording
  {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw RecordingError(file: url.path, message: "no such file or folder")
    }
    let name = url.lastPathComponent
    if isDirectory.boolValue {
      return try load(files: RecordingFiles.folder(url), name: name, units: units)
    }
    let data = try readBytes(url)
    if ZipArchive.isZip(data) {
      let archive = try ZipArchive(data: data, name: name)
      do {
        return try load(files: RecordingFiles.zip(archive, name: name), name: name, units: units)
      } catch  where error.message.hasPrefix("no recognised recording") {
        var named = error
        named.message = "a ZIP archive that is not a recording: " + error.message
        throw named
      }
    }
    return try load(file: data, name: name, units: units)
  }

  /// Loads a single CSV file from its bytes, detecting its format.
  ///
  /// - Parameters:
  ///   - data: The file's contents.
  ///   - name: The file's name, for errors.
  ///   - units: The units of a raw IMU CSV's columns (default the format's).
  /// - Returns: The recording.
  /// - Throws: `RecordingError` for malformed or unrecognised contents; a binary file (a video,
  ///   an image, an archive, ...) is named from its first bytes instead of read as CSV.
  public static func load(file data: Data, name: String, units: RecordingUnits = .standard)
    throws(RecordingError) -> MotionRecording
  {
    if let kind = BinaryFileKind.describe(data) {
      throw RecordingError(file: name, message: BinaryFileKind.message(kind))
    }
    if name.lowercased().hasSuffix(".evemu") || EvemuRecording.matches(prefix: data) {
      return try loadEvemu(data, name: name)
    }
    let header = try headerFields(data, fileName: name)
    if RawIMUCSV.matches(header: header) {
      return MotionRecording(
        name: name, format: .rawIMU,
        content: .samples(try RawIMUCSV.parse(data, fileName: name, units: units)))
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
        + "phyphox CSV, an evemu recording, or a Sensor Logger folder or .zip")
  }

  /// Decodes an evemu recording into raw samples through `EvdevMotionDecoder`, the decoder of
  /// the live evdev source.
  static func loadEvemu(_ data: Data, name: String) throws(RecordingError) -> MotionRecording {
    guard let text = String(data: data, encoding: .utf8) else {
      throw RecordingError(file: name, message: "an evemu recording that is not UTF-8 text")
    }
    let recording = try EvemuRecording.parse(text, fileName: name)
    do throws(EvdevDecodeError) {
      return MotionRecording(name: name, format: .evemu, content: .samples(try recording.samples()))
    } catch {
      throw RecordingError(file: name, message: error.description)
    }
  }

  static func load(files: RecordingFiles, name: String, units: RecordingUnits = .standard)
    throws(RecordingError) -> MotionRecording
  {
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
      return try load(file: files.data(only), name: "\(name)/\(only.name)", units: units)
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

  /// Device motion for a recording file: loads any importable recording; raw recordings are
  /// fused in the mode `MotionManager/fusionMode(for:override:sourceName:hasMagnetometer:)`
  /// decides (9D for the frames that refer to north, which then need a magnetometer; 6D for
  /// `xArbitraryZVertical`), device-motion files pass through.
  ///
  /// - Parameters:
  ///   - url: The recording (CSV file, folder or zip).
  ///   - referenceFrame: The frame for fused attitudes.
  /// - Returns: Device motion in time order.
  /// - Throws: `RecordingError` when the file cannot be loaded, is empty, or lacks the
  ///   magnetometer the frame needs (the manager's message).
  public static func deviceMotion(
    from url: URL, referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical
  ) throws(RecordingError) -> [DeviceMotion] {
    let recording = try load(from: url)
    let name = url.lastPathComponent
    guard recording.count > 0 else {
      throw RecordingError(file: name, message: "the recording has no samples")
    }
    guard case .samples = recording.content else { return recording.deviceMotion() }
    let mode: AttitudeEstimator.Mode
    do throws(MotionManagerError) {
      mode = try MotionManager.fusionMode(
        for: referenceFrame, sourceName: "recording:\(name)",
        hasMagnetometer: recording.hasMagnetometer)
    } catch {
      throw RecordingError(file: name, message: error.message)
    }
    return recording.deviceMotion(mode: mode, referenceFrame: referenceFrame)
  }
}
