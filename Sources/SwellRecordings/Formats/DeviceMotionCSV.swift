import Foundation
import SwellGeometry
import SwellMotion

/// The device-motion format (docs/formats.md): `swell fuse` output and the `--motion` input of every
/// scene command.
///
/// Header, in this order: `time,attitude.w,attitude.x,attitude.y,attitude.z,gravity.x,gravity.y,`
/// `gravity.z,userAcceleration.x,userAcceleration.y,userAcceleration.z,rotationRate.x,`
/// `rotationRate.y,rotationRate.z`, optionally followed by `magneticField.x,magneticField.y,`
/// `magneticField.z,magneticField.accuracy,heading`. Time in seconds, strictly increasing; the
/// attitude a unit quaternion (w first) taking device-frame vectors to the reference frame;
/// gravity and user acceleration in g, device frame, CoreMotion signs; rotation rate in rad/s;
/// magnetic field in µT with accuracy −1...2; heading in degrees (−1 when not north-referenced).
/// A comment line `# referenceFrame: NAME` names the frame (default `xArbitraryZVertical`).
public enum DeviceMotionCSV {
  /// The fourteen required header columns, in order.
  public static let columns = [
    "time", "attitude.w", "attitude.x", "attitude.y", "attitude.z", "gravity.x", "gravity.y",
    "gravity.z", "userAcceleration.x", "userAcceleration.y", "userAcceleration.z",
    "rotationRate.x", "rotationRate.y", "rotationRate.z",
  ]

  /// The optional magnetic-field columns `swell fuse` appends in 9D, in order.
  public static let magneticColumns = [
    "magneticField.x", "magneticField.y", "magneticField.z", "magneticField.accuracy", "heading",
  ]

  /// What a device-motion file holds.
  public struct Contents: Sendable, Hashable {
    /// The reference frame named by the `# referenceFrame:` comment.
    public var referenceFrame: AttitudeReferenceFrame
    /// The rows, in time order, each tagged with ``referenceFrame``.
    public var motions: [DeviceMotion]
    /// True when the file has the magnetic-field and heading columns.
    public var hasMagneticField: Bool

    /// Creates contents.
    ///
    /// - Parameters:
    ///   - referenceFrame: The frame of the attitudes.
    ///   - motions: The rows.
    ///   - hasMagneticField: Whether the magnetic columns are present.
    public init(
      referenceFrame: AttitudeReferenceFrame, motions: [DeviceMotion], hasMagneticField: Bool
    ) {
      self.referenceFrame = referenceFrame
      self.motions = motions
      self.hasMagneticField = hasMagneticField
    }
  }

  /// True when a header line (its fields) starts with the device-motion columns.
  ///
  /// - Parameter fields: The header's field names.
  /// - Returns: Whether the file is a device-motion recording.
  public static func matches(header fields: [String]) -> Bool {
    fields.count >= columns.count && Array(fields.prefix(columns.count)) == columns
  }

  /// Reads a device-motion file.
  ///
  /// - Parameter url: The file.
  /// - Returns: The frame and rows.
  /// - Throws: `RecordingError` naming the file, line and column of the first problem.
  public static func read(from url: URL) throws(RecordingError) -> Contents {
    try parse(readBytes(url), fileName: url.lastPathComponent)
  }

  /// Parses a device-motion file from its bytes.
  ///
  /// - Parameters:
  ///   - bytes: The file's contents (UTF-8).
  ///   - fileName: The name used in errors.
  /// - Returns: The frame and rows.
  /// - Throws: `RecordingError` naming the file, line and column of the first problem: a
  ///   non-number or non-finite value, a zero quaternion, a time that does not increase, an
  ///   accuracy outside −1...2 or an unknown reference frame.
  public static func parse(
    _ bytes: some Collection<UInt8>, fileName: String
  ) throws(RecordingError) -> Contents {
    var scanner = CSVScanner(bytes: bytes, fileName: fileName)
    var frame = FrameComment()
    let headerLine = scanner.nextRecord(comment: { frame.read($0, $1) })
    let layout = try Layout(headerLine, frame: frame, scanner: scanner)
    var fields: [Range<Int>] = []
    var motions: [DeviceMotion] = []
    var previous = -Double.infinity
    while let line = scanner.nextRecord() {
      let motion = try layout.row(line, scanner: scanner, fields: &fields, previous: previous)
      previous = motion.timestamp
      motions.append(motion)
    }
    return Contents(
      referenceFrame: layout.referenceFrame, motions: motions,
      hasMagneticField: layout.hasMagneticField)
  }

  /// Reads a device-motion file row by row, holding about one block of the file (1 MiB)
  /// whatever its length: the streaming form of ``read(from:)``, with the same checks and errors.
  public struct Reader {
    private var file: CSVFileReader
    private let layout: Layout
    private var fields: [Range<Int>] = []
    private var previous = -Double.infinity

    /// Opens a file and reads its reference-frame comment and header.
    ///
    /// - Parameter url: The file.
    /// - Throws: `RecordingError` when it cannot be read or its header is not a device-motion
    ///   one.
    public init(url: URL) throws(RecordingError) {
      file = try CSVFileReader(url: url, fileName: url.lastPathComponent)
      var frame = FrameComment()
      let headerLine = try file.nextRecord(comment: { frame.read($0, $1) })
      layout = try Layout(headerLine, frame: frame, scanner: file.scanner)
    }

    /// The frame named by the file's `# referenceFrame:` comment (default `xArbitraryZVertical`).
    public var referenceFrame: AttitudeReferenceFrame { layout.referenceFrame }

    /// Whether the file has the magnetic-field and heading columns.
    public var hasMagneticField: Bool { layout.hasMagneticField }

    /// The next row, or `nil` at the end of the file.
    ///
    /// - Returns: The device motion.
    /// - Throws: `RecordingError` naming the line and column of a malformed row.
    public mutating func next() throws(RecordingError) -> DeviceMotion? {
      guard let line = try file.nextRecord() else { return nil }
      let motion = try layout.row(line, scanner: file.scanner, fields: &fields, previous: previous)
      previous = motion.timestamp
      return motion
    }
  }

  /// The `# referenceFrame: NAME` comment read before the header.
  private struct FrameComment {
    var frame = AttitudeReferenceFrame.xArbitraryZVertical
    var error: (line: Int, message: String)?

    mutating func read(_ number: Int, _ text: String) {
      let t = text.trimmingCharacters(in: .whitespaces)
      guard t.hasPrefix("referenceFrame:") else { return }
      let name = t.dropFirst("referenceFrame:".count).trimmingCharacters(in: .whitespaces)
      if let f = AttitudeReferenceFrame(name: name) {
        frame = f
      } else {
        error = (number, "unknown reference frame '\(name)'")
      }
    }
  }

  /// A checked header: the frame and where the optional magnetic columns are.
  private struct Layout {
    let referenceFrame: AttitudeReferenceFrame
    let magneticIndex: [Int?]
    let hasMagneticField: Bool

    init(_ headerLine: CSVScanner.Line?, frame: FrameComment, scanner: CSVScanner)
      throws(RecordingError)
    {
      if let e = frame.error {
        throw scanner.error(
          e.line, nil,
          "\(e.message); expected one of "
            + AttitudeReferenceFrame.allCases.map(\.name).joined(separator: ", "))
      }
      guard let headerLine else {
        throw scanner.error(nil, nil, "empty file: expected the device-motion header")
      }
      var fields: [Range<Int>] = []
      let names = try scanner.header(
        headerLine, into: &fields, expected: columns.joined(separator: ","),
        matches: matches(header:))
      referenceFrame = frame.frame
      // Optional magnetic columns, by name.
      magneticIndex = magneticColumns.map { name in names.firstIndex(of: name) }
      hasMagneticField = magneticIndex.allSatisfy { $0 != nil }
    }

    func row(
      _ line: CSVScanner.Line, scanner: CSVScanner, fields: inout [Range<Int>], previous: Double
    ) throws(RecordingError) -> DeviceMotion {
      scanner.split(line, into: &fields)
      guard fields.count >= columns.count else {
        throw scanner.error(
          line.number, nil, "expected \(columns.count) fields, found \(fields.count)")
      }
      var v = [Double](repeating: 0, count: columns.count)
      for c in 0..<columns.count {
        v[c] = try number(fields[c], columns[c], scanner, line.number)
      }
      guard v[0] > previous else {
        throw scanner.error(
          line.number, "time",
          "time \(scanner.shown(fields[0])) does not increase (previous \(formatNumber(previous)))"
        )
      }
      let q = Quaternion(w: v[1], x: v[2], y: v[3], z: v[4])
      guard q.norm > 1e-6 else {
        throw scanner.error(line.number, "attitude.w", "the attitude quaternion is zero")
      }
      // Components near 1e300 overflow the norm, and normalising would silently give the
      // identity: refuse them instead.
      guard q.norm.isFinite else {
        throw scanner.error(
          line.number, "attitude.w", "the attitude quaternion is too large to normalise")
      }
      var motion = DeviceMotion(
        timestamp: v[0], attitude: Attitude(quaternion: q),
        rotationRate: Vector3(v[11], v[12], v[13]), gravity: Vector3(v[5], v[6], v[7]),
        userAcceleration: Vector3(v[8], v[9], v[10]), referenceFrame: referenceFrame)
      if hasMagneticField {
        var m = [Double](repeating: 0, count: 5)
        for k in 0..<5 {
          guard let index = magneticIndex[k], index < fields.count else {
            throw scanner.error(line.number, magneticColumns[k], "missing value")
          }
          m[k] = try number(fields[index], magneticColumns[k], scanner, line.number)
        }
        guard (-1...2).contains(m[3]), m[3] == m[3].rounded(),
          let accuracy = MagneticFieldCalibrationAccuracy(rawValue: Int(m[3]))
        else {
          throw scanner.error(
            line.number, "magneticField.accuracy",
            "'\(scanner.shown(fields[magneticIndex[3] ?? 0]))' is not one of -1, 0, 1, 2")
        }
        motion.magneticField = CalibratedMagneticField(
          field: Vector3(m[0], m[1], m[2]), accuracy: accuracy)
        motion.heading = m[4]
      }
      return motion
    }
  }

  private static func number(
    _ r: Range<Int>, _ column: String, _ scanner: CSVScanner, _ line: Int
  ) throws(RecordingError) -> Double {
    guard let x = scanner.double(r) else {
      let t = scanner.shown(r)
      throw scanner.error(line, column, t.isEmpty ? "missing value" : "'\(t)' is not a number")
    }
    guard x.isFinite else {
      throw scanner.error(line, column, "'\(scanner.shown(r))' is not finite")
    }
    // Times are bounded (a span computed from them must stay a sane count); other values need
    // only be finite: the scene engine takes even 1e300 without harm.
    let limit = column == "time" ? RecordingLimits.maximumTimeMagnitude : Double.infinity
    guard abs(x) <= limit else {
      throw scanner.error(
        line, column, "'\(scanner.shown(r))' is out of range (at most ±\(limit))")
    }
    return x
  }

  /// Encodes device motion: the `# referenceFrame:` comment, the header and one row per
  /// element. Numbers use the shortest text that reads back exactly.
  ///
  /// - Parameters:
  ///   - motions: The rows, in time order.
  ///   - referenceFrame: The frame named in the comment (default: the first row's, else
  ///     `xArbitraryZVertical`).
  ///   - includeMagneticField: Whether to append the magnetic-field and heading columns.
  /// - Returns: The file's contents.
  public static func encode(
    _ motions: [DeviceMotion], referenceFrame: AttitudeReferenceFrame? = nil,
    includeMagneticField: Bool = false
  ) -> Data {
    let frame = referenceFrame ?? motions.first?.referenceFrame ?? .xArbitraryZVertical
    var out = headerText(referenceFrame: frame, includeMagneticField: includeMagneticField)
    out.reserveCapacity(motions.count * 300 + 512)
    for m in motions { appendRow(m, includeMagneticField: includeMagneticField, to: &out) }
    return Data(out.utf8)
  }

  /// The reference-frame comment and the header line, each ending in a line break.
  ///
  /// - Parameters:
  ///   - referenceFrame: The frame named in the comment.
  ///   - includeMagneticField: Whether the magnetic-field and heading columns follow.
  /// - Returns: The text.
  public static func headerText(
    referenceFrame: AttitudeReferenceFrame, includeMagneticField: Bool
  ) -> String {
    var out = "# referenceFrame: \(referenceFrame.name)\n"
    out += columns.joined(separator: ",")
    if includeMagneticField { out += "," + magneticColumns.joined(separator: ",") }
    return out + "\n"
  }

  /// Appends one row (with its line break) in the shortest text that reads back exactly.
  ///
  /// - Parameters:
  ///   - m: The device motion.
  ///   - includeMagneticField: Whether to write the magnetic-field and heading columns.
  ///   - out: The text to append to.
  public static func appendRow(
    _ m: DeviceMotion, includeMagneticField: Bool, to out: inout String
  ) {
    var values = [m.timestamp]
    let q = m.attitude.quaternion
    values += [q.w, q.x, q.y, q.z]
    values += [m.gravity.x, m.gravity.y, m.gravity.z]
    values += [m.userAcceleration.x, m.userAcceleration.y, m.userAcceleration.z]
    values += [m.rotationRate.x, m.rotationRate.y, m.rotationRate.z]
    if includeMagneticField {
      let f = m.magneticField.field
      values += [f.x, f.y, f.z, Double(m.magneticField.accuracy.rawValue), m.heading]
    }
    out += values.map(formatNumber).joined(separator: ",")
    out += "\n"
  }

  /// Writes device motion atomically (temporary file, then rename).
  ///
  /// - Parameters:
  ///   - motions: The rows, in time order.
  ///   - url: The destination file.
  ///   - referenceFrame: The frame named in the comment (default: the first row's).
  ///   - includeMagneticField: Whether to append the magnetic-field and heading columns.
  /// - Throws: `RecordingError` when the file cannot be written.
  public static func write(
    _ motions: [DeviceMotion], to url: URL, referenceFrame: AttitudeReferenceFrame? = nil,
    includeMagneticField: Bool = false
  ) throws(RecordingError) {
    try AtomicWrite.write(
      encode(motions, referenceFrame: referenceFrame, includeMagneticField: includeMagneticField),
      to: url)
  }
}
