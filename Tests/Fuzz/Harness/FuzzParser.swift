import Foundation
import SwellEvdev
import SwellMotion
import SwellRecordings
import SwellScenes
import SwellSensors

/// A parser that the harness can run, named as in `Tests/Fuzz/Corpus/NAME/`.
enum FuzzParser: String, CaseIterable, Sendable {
  case rawIMUCSV = "raw-imu-csv"
  case deviceMotionCSV = "device-motion-csv"
  case phyphoxCSV = "phyphox-csv"
  case sensorLoggerZip = "sensor-logger-zip"
  case sensorLoggerFolder = "sensor-logger-folder"
  case sceneJSON = "scene-json"
  case svgPath = "svg-path"
  case motionScript = "motion-script"
  case iioScanType = "iio-scan-type"
  case iioSysfsValue = "iio-sysfs-value"
  case evemu = "evemu"
  case phonePacket = "phone-packet"
  case dsuPacket = "dsu-packet"

  /// Runs one input through the parser and whatever uses its result. Thrown errors are the
  /// expected outcome of a bad input; a trap, an ASan report or a broken round trip is a finding.
  func run(_ input: [UInt8]) {
    let data = Data(input)
    let text = String(decoding: input, as: UTF8.self)
    switch self {
    case .rawIMUCSV:
      // In the format's units and in the other extreme (`swell fuse --units ns,g,deg/s`).
      let other = RecordingUnits(
        time: .nanoseconds, acceleration: .g, angularVelocity: .degreesPerSecond)
      for units in [RecordingUnits.standard, other] {
        if let samples = try? RawIMUCSV.parse(input, fileName: "f.csv", units: units) {
          expect(samples.allSatisfy(\.isFinite), self, "a sample holds a non-finite number")
        }
      }
    case .deviceMotionCSV:
      if let file = try? DeviceMotionCSV.parse(data, fileName: "f.csv") {
        expect(file.motions.allSatisfy(\.isFinite), self, "a motion holds a non-finite number")
      }
    case .phyphoxCSV:
      // The format-detecting loader, as `swell` reads any CSV file.
      if let recording = try? MotionRecording.load(file: data, name: "f.csv") {
        expect(recording.isFinite, self, "the recording holds a non-finite number")
      }
    case .sensorLoggerZip:
      // Through a file, as `swell` reads an export: the archive, then its CSV files.
      let file = FuzzScratch.zipFile
      guard (try? data.write(to: file)) != nil else { return }
      if let recording = try? MotionRecording.load(from: file) {
        expect(recording.isFinite, self, "the recording holds a non-finite number")
      }
    case .sensorLoggerFolder:
      // An export's files without the zip around them (whose checksums a mutation breaks):
      // `== NAME` lines start each file.
      guard let folder = FuzzScratch.folder(files: Self.files(in: text)) else { return }
      if let recording = try? MotionRecording.load(from: folder) {
        expect(recording.isFinite, self, "the recording holds a non-finite number")
      }
    case .sceneJSON:
      // Decoded, validated and built, then checked as `swell scene check` does; what decodes
      // must encode to a file that decodes.
      guard let scene = try? SceneFile.decode(data, source: "f.json") else { return }
      _ = scene.makeLayerTree(baseDirectory: nil)
      _ = SceneFileCheck.effectProblems(in: FileScene(file: scene))
      _ = SceneFile.unknownKeys(in: data, decoded: scene)
      let encoded = try? scene.encoded()
      expect(
        encoded.flatMap { try? SceneFile.decode($0, source: "again.json") } != nil, self,
        "a decoded scene does not survive encoding")
    case .svgPath: _ = try? SVGPathData.parse(text)
    case .motionScript:
      guard let script = try? MotionScript(parsing: text) else { return }
      for t in [0, 0.5, 1, script.duration / 2, script.duration] {
        expect(script.motion(at: t).isFinite, self, "the motion at \(t) s is not finite")
      }
    case .iioScanType: _ = try? IIOScanType(parsing: text)
    case .iioSysfsValue: _ = try? IIOSysfs.parseMountMatrix(text, file: "m")
    case .evemu:
      // Parsed, decoded into samples and written back (which must parse), then loaded.
      if let recording = try? EvemuRecording.parse(text, fileName: "f.evemu") {
        _ = try? recording.samples()
        expect(
          (try? EvemuRecording.parse(recording.text(), fileName: "again.evemu")) != nil, self,
          "a parsed recording does not survive writing")
      }
      if let recording = try? MotionRecording.load(file: data, name: "f.evemu") {
        expect(recording.isFinite, self, "the recording holds a non-finite number")
      }
    case .phonePacket:
      var decoder = PhoneStreamDecoder()
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if let sample = try? decoder.decode(line) {
          expect(sample.isFinite, self, "a sample holds a non-finite number")
        }
      }
    case .dsuPacket:
      // Unchecked too, so mutated payloads get past the CRC to the field decoding; what
      // decodes must encode to bytes that decode to the same packet.
      if let lenient = try? DSUPacket.decode(input, verifyingChecksum: false) {
        expect(
          (try? DSUPacket.decode(lenient.encoded())) == lenient, self,
          "a decoded packet does not survive encoding")
      }
      _ = try? DSUPacket.decode(input)
    }
  }
}

extension FuzzParser {
  /// The files of a `sensor-logger-folder` input: each `== NAME` line starts a file (at most 8;
  /// names cut to 40 letters, digits, `.`, `_` or `-`, and never `.` or `..`).
  static func files(in text: String) -> [(name: String, contents: String)] {
    var files: [(name: String, contents: String)] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("== ") {
        let name = String(
          line.dropFirst(3).filter {
            $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0))
          }
          .prefix(40))
        guard files.count < 8, !name.isEmpty, name != ".", name != ".." else { continue }
        files.append((name, ""))
      } else if !files.isEmpty {
        files[files.count - 1].contents += line + "\n"
      }
    }
    return files
  }
}

/// The scratch files and folder the Sensor Logger targets write each input to (one per process).
enum FuzzScratch {
  /// `TMPDIR/swell-fuzz-PID.zip`.
  static let zipFile = FileManager.default.temporaryDirectory.appendingPathComponent(
    "swell-fuzz-\(getpid()).zip")
  /// `TMPDIR/swell-fuzz-PID/`.
  static let folderURL = FileManager.default.temporaryDirectory.appendingPathComponent(
    "swell-fuzz-\(getpid())")

  /// Empties the folder and writes `files` into it; `nil` when it cannot.
  static func folder(files: [(name: String, contents: String)]) -> URL? {
    let manager = FileManager.default
    try? manager.removeItem(at: folderURL)
    guard (try? manager.createDirectory(at: folderURL, withIntermediateDirectories: true)) != nil
    else { return nil }
    for file in files {
      try? Data(file.contents.utf8).write(to: folderURL.appendingPathComponent(file.name))
    }
    return folderURL
  }

  /// Removes the scratch file and folder.
  static func remove() {
    try? FileManager.default.removeItem(at: zipFile)
    try? FileManager.default.removeItem(at: folderURL)
  }
}
