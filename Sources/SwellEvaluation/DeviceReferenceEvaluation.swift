import Foundation
import SwellGeometry
import SwellMotion
import SwellRecordings

/// Swell's fusion against the phone's own: the gravity direction and the 6D attitude that the
/// device's operating system fused from the same sensors, as a Sensor Logger export carries
/// them (`Gravity.csv`, `Orientation.csv`).
///
/// Conventions (docs/fusion.md, "The phone as the reference"):
/// - `Orientation.csv` holds `qw, qx, qy, qz`: on iOS CoreMotion's `CMAttitude.quaternion`,
///   which maps device-frame vectors into the reference frame (z up; x arbitrary or magnetic
///   north, depending on the frame the app asked for); on Android the rotation vector, device →
///   ENU (x east, y north, z up). Both are device → a z-up frame, so after one constant heading
///   offset they compare directly with Swell's 6D attitude (device → E, z up).
/// - `Gravity.csv` holds `x, y, z` in the device frame. In g (median norm below 4) it is
///   CoreMotion's gravity, pointing down (face up: (0, 0, −1)); in m/s² it is Android's (or iOS
///   standardised by the app), pointing up (face up: (0, 0, +9.81)). Only the direction is
///   compared.
///
/// Each device row takes Swell's estimate at the raw sample nearest in time; rows farther than
/// half the raw samples' median period from every sample are skipped. The first `skip` seconds
/// (default 0) can be left out while both filters settle.
public struct DeviceReferenceEvaluation: Sendable {
  /// Median, 95th percentile and maximum of an angle over the compared rows, degrees.
  public struct Statistics: Sendable, Hashable {
    /// The median, degrees.
    public var median: Double
    /// The 95th percentile (nearest rank), degrees.
    public var p95: Double
    /// The largest angle, degrees.
    public var maximum: Double
    /// The root-mean-square angle, degrees.
    public var rms: Double
    /// The number of rows compared.
    public var count: Int

    /// The statistics of a list of angles in degrees, or `nil` when it is empty.
    ///
    /// - Parameter angles: The angles, degrees (non-finite ones are left out).
    public init?(degrees angles: [Double]) {
      let a = angles.filter(\.isFinite).sorted()
      guard !a.isEmpty else { return nil }
      let n = a.count
      median = n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2
      p95 = a[min(n - 1, max(0, Int((0.95 * Double(n)).rounded(.up)) - 1))]
      maximum = a[n - 1]
      rms = (a.reduce(0) { $0 + $1 * $1 } / Double(n)).squareRoot()
      count = n
    }
  }

  /// The angle between Swell's and the device's gravity directions, or `nil` without
  /// `Gravity.csv`.
  public var gravity: Statistics?
  /// The total angle between Swell's 6D attitude and the device's after the one constant
  /// heading offset that minimises the squared heading error, or `nil` without
  /// `Orientation.csv`.
  public var attitude: Statistics?
  /// The heading offset removed from the attitudes, degrees.
  public var headingOffsetDegrees: Double
  /// True when the device's gravity was read as pointing up (m/s², Android's convention).
  public var gravityPointsUp: Bool

  /// Compares Swell's 6D fusion of a Sensor Logger export folder with the phone's own.
  ///
  /// - Parameters:
  ///   - folder: The export folder (with `Gravity.csv` and/or `Orientation.csv`).
  ///   - settings: Swell's estimator settings.
  ///   - skip: Seconds at the start that are not compared.
  /// - Throws: `RecordingError` for an unreadable export, ``NumericTableError`` for a bad
  ///   device file, or ``NumericTableError`` when the folder has neither device file.
  public init(
    folder: URL, settings: AttitudeEstimator.Settings = .init(), skip: Double = 0
  ) throws {
    let recording = try MotionRecording.load(from: folder)
    guard case .samples(let samples) = recording.content else {
      throw NumericTableError(
        file: folder.path, line: 0, reason: "not a raw sensor export (already fused)")
    }
    let files = try DeviceReferenceEvaluation.deviceFiles(folder: folder)
    guard files.gravity != nil || files.attitude != nil else {
      throw NumericTableError(
        file: folder.path, line: 0,
        reason: "no Gravity.csv or Orientation.csv: the export has no fused output of the phone")
    }
    self.init(
      samples: samples, deviceGravity: files.gravity, deviceAttitude: files.attitude,
      settings: settings, skip: skip)
  }

  /// Compares Swell's 6D fusion of raw samples with a device's fused gravity and attitude.
  ///
  /// - Parameters:
  ///   - samples: Raw samples (device frame, SI units, CoreMotion-style frame), time order.
  ///   - deviceGravity: The device's gravity (seconds, device-frame vector in either sign
  ///     convention, see the type's documentation), or `nil`.
  ///   - deviceAttitude: The device's attitude (seconds, device → a z-up frame), or `nil`.
  ///   - settings: Swell's estimator settings.
  ///   - skip: Seconds after the first sample that are not compared.
  public init(
    samples: [IMUSample], deviceGravity: [(time: Double, vector: Vector3)]?,
    deviceAttitude: [(time: Double, quaternion: Quaternion)]?,
    settings: AttitudeEstimator.Settings = .init(), skip: Double = 0
  ) {
    var estimator = AttitudeEstimator(mode: .sixD, settings: settings)
    let estimates = estimator.attitudes(for: samples)
    let times = samples.map(\.timestamp)
    let periods = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
    let tolerance = periods.isEmpty ? 0 : periods[periods.count / 2] / 2
    let start = (times.first ?? 0) + max(skip, 0)
    /// The index of the sample nearest to `t` (times are increasing), if close enough.
    func nearest(_ t: Double) -> Int? {
      guard !times.isEmpty, t.isFinite, t >= start else { return nil }
      var lo = 0
      var hi = times.count - 1
      while hi - lo > 1 {
        let mid = (lo + hi) / 2
        if times[mid] <= t { lo = mid } else { hi = mid }
      }
      let i = abs(times[lo] - t) <= abs(times[hi] - t) ? lo : hi
      return abs(times[i] - t) <= tolerance ? i : nil
    }

    gravityPointsUp = false
    gravity = nil
    if let deviceGravity, !deviceGravity.isEmpty {
      let norms = deviceGravity.map(\.vector.length).filter(\.isFinite).sorted()
      let up = !norms.isEmpty && norms[norms.count / 2] >= 4
      gravityPointsUp = up
      var angles: [Double] = []
      for (t, v) in deviceGravity {
        guard let i = nearest(t), v.length > 0 else { continue }
        // Swell's gravity direction in the device frame: R⁻¹ · (0, 0, −1).
        let g = estimates[i].conjugate.rotate(Vector3(0, 0, -1))
        let d = (up ? -v : v) / v.length
        let c = min(1, max(-1, g.x * d.x + g.y * d.y + g.z * d.z))
        angles.append(acos(c) * 180 / Double.pi)
      }
      gravity = Statistics(degrees: angles)
    }

    attitude = nil
    headingOffsetDegrees = 0
    if let deviceAttitude, !deviceAttitude.isEmpty {
      var pairs: [(Quaternion, Quaternion)] = []
      for (t, q) in deviceAttitude where q.isFinite {
        guard let i = nearest(t) else { continue }
        pairs.append((estimates[i], q.normalized()))
      }
      let psi = pairs.map { OrientationError.signedHeading(estimate: $0.0, truth: $0.1) }
      let offset = OrientationEvaluation.optimalHeadingOffset(signedHeadingErrors: psi)
      let r = Quaternion(w: cos(offset / 2), x: 0, y: 0, z: sin(offset / 2))
      attitude = Statistics(
        degrees: pairs.map {
          OrientationError.radians(estimate: r * $0.0, truth: $0.1).total * 180 / Double.pi
        })
      headingOffsetDegrees = offset * 180 / Double.pi
    }
  }

  /// Reads `Gravity.csv` and `Orientation.csv` of a Sensor Logger export folder, each when
  /// present, on the time base of `SensorLoggerImporter` (`seconds_elapsed`; for older
  /// exports without it, nanoseconds since the gyroscope's first row).
  ///
  /// - Parameter folder: The export folder.
  /// - Returns: The device's gravity and attitude rows, seconds.
  /// - Throws: ``NumericTableError`` for a malformed file.
  public static func deviceFiles(folder: URL) throws -> (
    gravity: [(time: Double, vector: Vector3)]?, attitude: [(time: Double, quaternion: Quaternion)]?
  ) {
    let fm = FileManager.default
    let names = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
    func find(_ name: String) -> URL? {
      names.first { $0.lowercased() == name.lowercased() }.map {
        folder.appendingPathComponent($0)
      }
    }
    // Older exports have no seconds_elapsed: their times count from the gyroscope's first row.
    var origin: Double?
    for name in ["Gyroscope.csv", "GyroscopeUncalibrated.csv"] {
      if let url = find(name),
        let table = try? NumericTable(contentsOf: url, required: ["time"]),
        let first = table.columns[0].first
      {
        origin = first
        break
      }
    }
    func times(_ table: NumericTable, elapsed: Int) -> [Double] {
      let e = table.columns[elapsed]
      if e.contains(where: \.isFinite) { return e }
      let o = origin ?? table.columns[0].first ?? 0
      return table.columns[0].map { ($0 - o) * 1e-9 }
    }
    var gravity: [(time: Double, vector: Vector3)]?
    if let url = find("Gravity.csv") {
      let t = try NumericTable(
        contentsOf: url, required: ["time", "x", "y", "z"], optional: ["seconds_elapsed"])
      let ts = times(t, elapsed: 4)
      gravity = (0..<t.rowCount).map {
        (ts[$0], Vector3(t.columns[1][$0], t.columns[2][$0], t.columns[3][$0]))
      }
    }
    var attitude: [(time: Double, quaternion: Quaternion)]?
    if let url = find("Orientation.csv") {
      let t = try NumericTable(
        contentsOf: url, required: ["time", "qw", "qx", "qy", "qz"],
        optional: ["seconds_elapsed"])
      let ts = times(t, elapsed: 5)
      attitude = (0..<t.rowCount).map {
        (
          ts[$0],
          Quaternion(
            w: t.columns[1][$0], x: t.columns[2][$0], y: t.columns[3][$0], z: t.columns[4][$0])
        )
      }
    }
    return (gravity, attitude)
  }
}
