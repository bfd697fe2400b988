import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

// Shared helpers of the adversarial end-to-end suites (Adversarial*Tests.swift): generators of
// device-motion and raw IMU CSVs with motion nobody tuned for, a trace parser, and the invariants
// every trace must keep.

/// The device-motion CSV header (docs/formats.md "Device motion").
let deviceMotionHeader =
  "time,attitude.w,attitude.x,attitude.y,attitude.z,gravity.x,gravity.y,gravity.z,"
  + "userAcceleration.x,userAcceleration.y,userAcceleration.z,"
  + "rotationRate.x,rotationRate.y,rotationRate.z"

/// The raw IMU CSV header (docs/formats.md "Raw IMU recording").
let rawIMUHeader = "t_s,gx,gy,gz,ax,ay,az,mx,my,mz"

/// Standard gravity, m/s², used to turn gravity in g into a specific force.
let standardGravity = 9.806_65

/// Writes text to a file in a folder.
///
/// - Parameters:
///   - text: The file's contents (UTF-8).
///   - name: The file name.
///   - folder: The folder.
/// - Returns: The file's path.
/// - Throws: An error writing it.
@discardableResult
func writeFile(_ text: String, named name: String, in folder: URL) throws -> String {
  let url = folder.appendingPathComponent(name)
  try Data(text.utf8).write(to: url)
  return url.path
}

/// The attitude of a device held upright in portrait and turned clockwise (as the user sees it)
/// by `beta` radians: a quarter turn about reference x (device y up), then −β about device z.
///
/// - Parameter beta: The clockwise turn, radians.
/// - Returns: The unit quaternion taking device-frame vectors to the reference frame.
func uprightAttitude(turnedClockwiseBy beta: Double) -> Quaternion {
  Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2)
    * Quaternion(axis: Vector3(0, 0, 1), angle: -beta)
}

/// One row of a device-motion CSV; gravity is derived from the attitude
/// (`attitude⁻¹ · (0, 0, −1)`, g, device frame) unless given.
struct MotionRow {
  /// Seconds.
  var time: Double
  /// Device → reference frame.
  var attitude: Quaternion
  /// rad/s, device frame.
  var rotationRate = Vector3.zero
  /// g, device frame; `nil` derives it from the attitude.
  var gravity: Vector3?
  /// g, device frame.
  var userAcceleration = Vector3.zero

  /// The CSV fields, in header order.
  var fields: [Double] {
    let g = gravity ?? attitude.inverseRotate(Vector3(0, 0, -1))
    return [
      time, attitude.w, attitude.x, attitude.y, attitude.z, g.x, g.y, g.z,
      userAcceleration.x, userAcceleration.y, userAcceleration.z, rotationRate.x,
      rotationRate.y, rotationRate.z,
    ]
  }
}

/// A device-motion CSV of rows.
///
/// - Parameters:
///   - rows: The rows.
///   - lineEnding: `"\n"` or `"\r\n"`.
/// - Returns: The CSV text with its header.
func deviceMotionCSV(_ rows: [MotionRow], lineEnding: String = "\n") -> String {
  var s = deviceMotionHeader + lineEnding
  s.reserveCapacity(rows.count * 200)
  for r in rows {
    s += r.fields.map { "\($0)" }.joined(separator: ",") + lineEnding
  }
  return s
}

/// Timestamps at a nominal rate from a start time, each moved by up to `jitter` periods
/// (uniform, seeded) but always increasing.
///
/// - Parameters:
///   - start: The first nominal timestamp, seconds.
///   - rate: Nominal samples per second.
///   - duration: Seconds covered.
///   - jitter: Fraction of a period each timestamp may move (0 ..< 0.5).
///   - rng: The seeded generator.
/// - Returns: Increasing timestamps.
func jitteredTimes(
  start: Double, rate: Double, duration: Double, jitter: Double, rng: inout SplitMix64
) -> [Double] {
  let n = Int((duration * rate).rounded(.down))
  var out: [Double] = []
  out.reserveCapacity(n + 1)
  for i in 0...n {
    let j = jitter > 0 ? Double.random(in: -jitter...jitter, using: &rng) : 0
    let t = start + (Double(i) + j) / rate
    if let last = out.last, t <= last { continue }
    out.append(t)
  }
  return out
}

/// A script sampled at given timestamps (times relative to the first one).
///
/// - Parameters:
///   - script: The motion script text.
///   - times: Increasing timestamps, seconds.
/// - Returns: Rows with the script's consistent attitude, gravity and rates.
/// - Throws: A script parse error.
func scriptRows(_ script: String, at times: [Double]) throws -> [MotionRow] {
  let s = try MotionScript(parsing: script)
  let t0 = times.first ?? 0
  return times.map { t in
    let m = s.motion(at: t - t0, timestamp: t)
    return MotionRow(
      time: t, attitude: m.attitude.quaternion, rotationRate: m.rotationRate,
      gravity: m.gravity, userAcceleration: m.userAcceleration)
  }
}

/// A parsed trace: header and rows, from CSV or JSON.
struct TraceTable {
  /// Column names.
  var header: [String]
  /// One row of values per frame.
  var rows: [[Double]]

  /// Parses a CSV trace (every field must be a number).
  ///
  /// - Parameter csv: The text.
  /// - Throws: When a field is not a number or a row has the wrong width.
  init(csv: String) throws {
    var lines = csv.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    header = lines.isEmpty ? [] : lines.removeFirst().split(separator: ",").map(String.init)
    let width = header.count
    rows = try lines.map { line in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      try #require(fields.count == width, "row width \(fields.count) != \(width): \(line)")
      return try fields.map { try #require(Double($0), "not a number: '\($0)' in \(line)") }
    }
  }

  /// Parses a JSON trace (an array of objects with the keys of `header`).
  ///
  /// - Parameters:
  ///   - json: The text.
  ///   - header: The expected keys, in column order.
  /// - Throws: When the text is not such an array.
  init(json: String, header: [String]) throws {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
    let array = try #require(object as? [[String: Any]], "not an array of objects")
    self.header = header
    rows = try array.map { o in
      try #require(Set(o.keys) == Set(header), "keys \(o.keys.sorted()) != \(header.sorted())")
      return try header.map { k in try #require((o[k] as? NSNumber)?.doubleValue, "key \(k)") }
    }
  }

  /// The values of one column.
  ///
  /// - Parameter name: The column name.
  /// - Returns: One value per row.
  /// - Throws: When there is no such column.
  func column(_ name: String) throws -> [Double] {
    let i = try #require(header.firstIndex(of: name), "no column \(name) in \(header)")
    return rows.map { $0[i] }
  }
}

/// Trace column names.
enum Key {
  static let tilt = "water.transform.rotation.z"
  static let amplitude = "water.amplitude"
  static let phase = "water.phase"
  static let horizontal = "offset.horizontal"
  static let vertical = "offset.vertical"
  static let wallpaperX = "wallpaper.position.x"
  static let wallpaperY = "wallpaper.position.y"
}

/// The front wave's base amplitude in the built-in waterwave scene, points (docs/waterwave.md).
let baseAmplitude = 8.0

/// The wallpaper's model position in the built-in homescreen scene: the centre of the
/// 390 × 844-point canvas, points.
let wallpaperModel = (x: 195.0, y: 422.0)

/// The documented row count: `round(duration · fps)`, at least 1 (frames at `i / fps` for
/// `i = 0 ..< round(duration · fps)`).
///
/// - Parameters:
///   - duration: Seconds.
///   - fps: Frames per second.
/// - Returns: The number of rows.
func documentedRowCount(duration: Double, fps: Double) -> Int {
  max(1, Int((duration * fps).rounded()))
}

/// Runs `swell trace SCENE ...` and parses its CSV, requiring success and a silent stderr.
///
/// - Parameters:
///   - arguments: The words after `trace`.
///   - comment: Context for failures.
/// - Returns: The parsed trace.
/// - Throws: When the run fails or the output does not parse.
func traceTable(_ arguments: [String], _ comment: String = "") throws -> TraceTable {
  let r = try runSwell(["trace"] + arguments)
  try #require(r.status == 0, "\(comment) swell trace \(arguments): \(r.err)")
  // Progress lines ("swell trace: 40% (row 400/1000)") may appear when the run is slow.
  let messages = r.err.split(separator: "\n").filter {
    !($0.hasPrefix("swell trace: ") && $0.contains("% (row "))
  }
  #expect(messages.isEmpty, "\(comment) stderr not empty: \(r.err)")
  return try TraceTable(csv: r.out)
}

/// Checks the invariants of every trace: finite values, frame times `t₀ + i/fps`, angles in
/// (−π, π], and the scene's own bounds (waterwave: tilt within ±45° unless seed-exact, amplitude
/// at least the base; homescreen: offsets in −1...1 and the wallpaper at model − 40·offset (recessed)
/// within a pixel snap at @3x).
///
/// - Parameters:
///   - table: The trace.
///   - fps: Frames per second of the run.
///   - rows: The expected row count, when known.
///   - seedExact: Whether `--seed-exact` was given (tilt bound is ±π then).
///   - sloshing: Whether `--response sloshing` was given (tilt bound is ±π then).
///   - comment: Context for failures.
/// - Throws: When a required column is missing.
func checkTraceInvariants(
  _ table: TraceTable, fps: Double, rows: Int? = nil, seedExact: Bool = false,
  sloshing: Bool = false, _ comment: String
) throws {
  if let rows { #expect(table.rows.count == rows, "\(comment): row count") }
  try #require(!table.rows.isEmpty, "\(comment): no rows")
  for (i, row) in table.rows.enumerated() {
    let finite = row.allSatisfy { $0.isFinite }
    #expect(finite, "\(comment): row \(i) not finite: \(row)")
  }
  let times = try table.column("time")
  let t0 = times[0]
  let spacing = 1 / fps
  // Frame times are t₀ + i/fps; at epoch-sized times a double resolves about 2.4e-7 s.
  let tolerance = 1e-9 + abs(t0) * 4e-16 + Double(times.count) * 1e-12
  for (i, t) in times.enumerated() where abs(t - (t0 + Double(i) * spacing)) > tolerance {
    Issue.record("\(comment): frame \(i) at \(t), expected \(t0 + Double(i) * spacing)")
    break
  }
  if table.header.contains(Key.tilt) {
    let tilt = try table.column(Key.tilt)
    let amplitude = try table.column(Key.amplitude)
    let phase = try table.column(Key.phase)
    // ±45° for the corrected classic rule; the seed's rule draws wrapped angles, and the
    // sloshing response has no clamp (docs/waterwave.md).
    let limit = seedExact || sloshing ? Double.pi : Double.pi / 4 + 1e-9
    for (i, a) in tilt.enumerated() where !(a > -Double.pi && a <= limit && a >= -limit) {
      Issue.record("\(comment): tilt \(a) at frame \(i) outside the bound \(limit)")
      break
    }
    for (i, p) in phase.enumerated() where !(p > -Double.pi && p <= Double.pi) {
      Issue.record("\(comment): phase \(p) at frame \(i) outside (-π, π]")
      break
    }
    for (i, a) in amplitude.enumerated() where a < baseAmplitude - 1e-9 {
      Issue.record("\(comment): amplitude \(a) at frame \(i) below the base")
      break
    }
  }
  if table.header.contains(Key.horizontal) {
    let h = try table.column(Key.horizontal)
    let v = try table.column(Key.vertical)
    let x = try table.column(Key.wallpaperX)
    let y = try table.column(Key.wallpaperY)
    let snap = 0.5 / 3 + 1e-6  // positions are snapped to whole pixels at @3x
    for i in h.indices {
      let ok =
        abs(h[i]) <= 1 && abs(v[i]) <= 1
        && abs(x[i] - wallpaperModel.x) <= 40 + snap && abs(y[i] - wallpaperModel.y) <= 40 + snap
        && abs(x[i] - (wallpaperModel.x - 40 * h[i])) <= snap
        && abs(y[i] - (wallpaperModel.y - 40 * v[i])) <= snap
      if !ok {
        Issue.record(
          "\(comment): frame \(i): offset (\(h[i]), \(v[i])), wallpaper (\(x[i]), \(y[i]))")
        break
      }
    }
  }
}

/// Checks that a failed run follows the rules: non-zero exit, exactly one line on stderr that
/// starts with `swell COMMAND:`, and (when given) names a word.
///
/// - Parameters:
///   - result: The run's result.
///   - command: The command name.
///   - mentioning: Words the line must contain.
///   - comment: Context for failures.
func expectOneLineFailure(
  _ result: (status: Int32, out: String, err: String), command: String,
  mentioning: [String] = [], _ comment: String
) {
  #expect(result.status != 0, "\(comment): exit status 0")
  #expect(result.status == 1 || result.status == 64, "\(comment): status \(result.status)")
  let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false)
  #expect(
    lines.count == 2 && lines[1].isEmpty,
    "\(comment): stderr is not exactly one line: \(result.err.debugDescription)")
  #expect(result.err.hasPrefix("swell \(command): "), "\(comment): \(result.err)")
  for w in mentioning {
    #expect(result.err.contains(w), "\(comment): '\(w)' not in \(result.err)")
  }
}

/// The names in a folder, sorted.
///
/// - Parameter folder: The folder.
/// - Returns: The entries' names.
/// - Throws: An error listing it.
func folderNames(_ folder: URL) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
}
