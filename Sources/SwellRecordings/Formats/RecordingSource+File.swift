import Foundation
import SwellMotion

extension RecordingSource {
  /// Opens a recording file, folder or zip: a raw IMU or device-motion CSV is streamed from
  /// disk (about 1 MiB of it held at a time, whatever its length); any other format
  /// (`MotionRecording/load(from:)`) is loaded whole.
  ///
  /// The first sample is read here, so a file without samples, or with a bad first row, fails
  /// now with the file, line and column. The span (`timeSpan`) is read from the file's last
  /// row.
  ///
  /// - Parameters:
  ///   - url: The recording.
  ///   - loops: Start again when it ends (default false).
  ///   - units: The units of a raw IMU CSV's columns (default the format's: s, rad/s, m/s²);
  ///     other formats carry their own units and ignore this.
  /// - Throws: `RecordingError` naming the file (and line and column) of the problem.
  public convenience init(
    contentsOf url: URL, loops: Bool = false, units: RecordingUnits = .standard
  ) throws(RecordingError) {
    let name = url.lastPathComponent
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw RecordingError(file: url.path, message: "no such file or folder")
    }
    if !isDirectory.boolValue, let isRaw = try Self.streamableKind(url) {
      let open: @Sendable () throws(RecordingError) -> any RecordingEventReader = {
        () throws(RecordingError) -> any RecordingEventReader in
        isRaw
          ? RawEvents(reader: try RawIMUCSV.Reader(url: url, units: units))
          : DeviceMotionEvents(reader: try DeviceMotionCSV.Reader(url: url))
      }
      var first = try open()
      guard let event = try first.next() else {
        throw RecordingError(file: name, message: "the recording has no samples")
      }
      let hasMagnetometer: Bool
      switch event {
      case .sample(let s): hasMagnetometer = s.magnetometer != nil
      case .deviceMotion(let m): hasMagnetometer = m.magneticField.accuracy != .uncalibrated
      }
      // A device without a gyroscope records zeros in its columns: read on until a sample
      // has one (at once for a real gyroscope, whose noise is never exactly zero).
      var hasGyroscope = true
      if case .sample(let s) = event, s.gyroscope == .zero {
        hasGyroscope = false
        while let e = try first.next() {
          if case .sample(let s) = e, s.gyroscope != .zero {
            hasGyroscope = true
            break
          }
        }
      }
      let frame = isRaw ? nil : try DeviceMotionCSV.Reader(url: url).referenceFrame
      let t0 = event.timestamp
      let last = try Self.lastTimestamp(url).map { isRaw ? $0 * units.time.seconds : $0 } ?? t0
      try self.init(
        streaming: name, hasMagnetometer: hasMagnetometer, hasGyroscope: hasGyroscope,
        deviceMotionReferenceFrame: frame,
        timeSpan: t0...max(t0, last), loops: loops, open: open)
      return
    }
    let recording = try MotionRecording.load(from: url, units: units)
    guard recording.count > 0 else {
      throw RecordingError(file: name, message: "the recording has no samples")
    }
    self.init(recording, loops: loops)
  }

  /// Whether a file is a raw IMU CSV (true), a device-motion CSV (false), or neither (`nil`),
  /// from its first record.
  private static func streamableKind(_ url: URL) throws(RecordingError) -> Bool? {
    var file = try CSVFileReader(url: url, fileName: url.lastPathComponent)
    guard let line = try file.nextRecord() else { return nil }
    var fields: [Range<Int>] = []
    file.scanner.split(line, into: &fields)
    let names = fields.map { file.scanner.text($0) }
    if RawIMUCSV.matches(header: names) { return true }
    if DeviceMotionCSV.matches(header: names) { return false }
    return nil
  }

  /// The time of the last row of a CSV recording, read from the end of the file (the last 64
  /// KiB); `nil` when it cannot be read there.
  private static func lastTimestamp(_ url: URL) throws(RecordingError) -> Double? {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    defer { try? handle.close() }
    guard let size = try? handle.seekToEnd() else { return nil }
    let start = size > 65_536 ? size - 65_536 : 0
    guard (try? handle.seek(toOffset: start)) != nil,
      let data = try? handle.readToEnd()
    else { return nil }
    // Bytes, not Characters: in a String "\r\n" is one Character.
    let lines = data.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D })
    for line in lines.reversed() {
      let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
      if text.isEmpty || text.hasPrefix("#") { continue }
      let first =
        text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        .first.map(String.init) ?? ""
      return Double(first.trimmingCharacters(in: .whitespaces))
    }
    return nil
  }
}

/// A raw IMU CSV's rows as source events.
private struct RawEvents: RecordingEventReader {
  var reader: RawIMUCSV.Reader
  mutating func next() throws(RecordingError) -> MotionEvent? {
    try reader.next().map(MotionEvent.sample)
  }
}

/// A device-motion CSV's rows as source events.
private struct DeviceMotionEvents: RecordingEventReader {
  var reader: DeviceMotionCSV.Reader
  mutating func next() throws(RecordingError) -> MotionEvent? {
    try reader.next().map(MotionEvent.deviceMotion)
  }
}
