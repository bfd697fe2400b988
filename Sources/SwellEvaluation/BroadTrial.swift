import Foundation
import SwellGeometry
import SwellMotion

/// One trial of BROAD (Laidig, Caruso, Cereatti & Seel, "BROAD - A Benchmark for Robust
/// Inertial Orientation Estimation", Data 6(7):72, 2021, CC BY 4.0) as CSV:
/// `t_s,gx,gy,gz,ax,ay,az,mx,my,mz,qw,qx,qy,qz,movement`.
///
/// Units: seconds, rad/s, m/s² (specific force), µT; the truth takes sensor-frame vectors to ENU
/// (NaN where the optical markers were occluded); `movement` is 1 in the scored motion phase.
public struct BroadTrial: Sendable {
  /// The columns of a BROAD trial CSV, in order.
  public static let columnNames = [
    "t_s", "gx", "gy", "gz", "ax", "ay", "az", "mx", "my", "mz", "qw", "qx", "qy", "qz",
    "movement",
  ]

  /// The trial's name (its file name without extension).
  public var name: String
  /// Sample times, seconds.
  public var timestamps: [Double]
  /// Gyroscope, rad/s, sensor frame, flat (x, y, z per sample).
  public var gyroscope: [Double]
  /// Accelerometer, m/s², sensor frame, flat.
  public var accelerometer: [Double]
  /// Magnetometer, µT, sensor frame, flat.
  public var magnetometer: [Double]
  /// Ground truth, sensor → ENU; not finite where occluded.
  public var truth: [Quaternion]
  /// True where the sample is in the scored motion phase (`movement == 1`).
  public var movement: [Bool]

  /// The number of samples.
  public var count: Int { timestamps.count }

  /// The BROAD category, from the trial number at the start of the name.
  public var category: BroadCategory { BroadCategory(trialName: name) }

  /// Loads a trial CSV.
  ///
  /// - Parameter url: The file.
  /// - Throws: ``NumericTableError`` naming file, line and column for bad input.
  public init(contentsOf url: URL) throws {
    let table = try NumericTable(contentsOf: url, required: BroadTrial.columnNames)
    try self.init(table: table, name: url.deletingPathExtension().lastPathComponent, file: url.path)
  }

  /// Builds a trial from a parsed table.
  ///
  /// - Parameters:
  ///   - table: A table read with ``columnNames`` as the required columns.
  ///   - name: The trial's name.
  ///   - file: The file name for error messages.
  /// - Throws: ``NumericTableError`` for non-increasing timestamps or a missing column.
  public init(table: NumericTable, name: String, file: String) throws {
    guard table.columns.count >= 15 else {
      throw NumericTableError(file: file, line: 0, reason: "not a BROAD trial table")
    }
    self.name = name
    let c = table.columns
    let n = table.rowCount
    timestamps = c[0]
    gyroscope = [Double](repeating: 0, count: 3 * n)
    accelerometer = [Double](repeating: 0, count: 3 * n)
    magnetometer = [Double](repeating: 0, count: 3 * n)
    truth = []
    truth.reserveCapacity(n)
    movement = []
    movement.reserveCapacity(n)
    for i in 0..<n {
      if !c[0][i].isFinite {
        throw NumericTableError(
          file: file, line: table.lines[i], column: "t_s", reason: "time is not a finite number")
      }
      if i > 0 && c[0][i] <= c[0][i - 1] {
        throw NumericTableError(
          file: file, line: table.lines[i], column: "t_s", reason: "time does not increase")
      }
      for k in 0..<3 {
        gyroscope[3 * i + k] = c[1 + k][i]
        accelerometer[3 * i + k] = c[4 + k][i]
        magnetometer[3 * i + k] = c[7 + k][i]
      }
      truth.append(Quaternion(w: c[10][i], x: c[11][i], y: c[12][i], z: c[13][i]))
      movement.append(c[14][i] == 1)
    }
  }

  /// The samples as `IMUSample`s (magnetometer included only when finite).
  public var samples: [IMUSample] {
    (0..<count).map { i in
      let m = Vector3(magnetometer[3 * i], magnetometer[3 * i + 1], magnetometer[3 * i + 2])
      return IMUSample(
        timestamp: timestamps[i],
        gyroscope: Vector3(gyroscope[3 * i], gyroscope[3 * i + 1], gyroscope[3 * i + 2]),
        accelerometer: Vector3(
          accelerometer[3 * i], accelerometer[3 * i + 1], accelerometer[3 * i + 2]),
        magnetometer: m.x.isFinite && m.y.isFinite && m.z.isFinite ? m : nil)
    }
  }

  /// Runs an estimator over the trial and scores it as BROAD does (9D unaligned, 6D after
  /// removing the best constant heading offset).
  ///
  /// - Parameters:
  ///   - mode: 6D or 9D fusion.
  ///   - settings: The estimator's settings.
  /// - Returns: The RMSEs, degrees.
  public func evaluate(
    mode: AttitudeEstimator.Mode, settings: AttitudeEstimator.Settings = .init()
  ) -> OrientationRMSE {
    let estimates = fuse(mode: mode, settings: settings)
    return OrientationEvaluation.score(
      estimates: estimates, truths: truth, scored: movement, alignHeading: mode == .sixD
    ).rmse
  }

  /// Runs an estimator over the trial.
  ///
  /// - Parameters:
  ///   - mode: 6D or 9D fusion.
  ///   - settings: The estimator's settings.
  /// - Returns: The estimated attitudes, sensor → ENU, one per sample.
  public func fuse(
    mode: AttitudeEstimator.Mode, settings: AttitudeEstimator.Settings = .init()
  ) -> [Quaternion] {
    var est = AttitudeEstimator(mode: mode, settings: settings)
    var out = [Double](repeating: 0, count: 4 * count)
    timestamps.withUnsafeBufferPointer { t in
      gyroscope.withUnsafeBufferPointer { g in
        accelerometer.withUnsafeBufferPointer { a in
          magnetometer.withUnsafeBufferPointer { m in
            out.withUnsafeMutableBufferPointer { o in
              est.attitudes(
                timestamps: t, gyroscope: g, accelerometer: a,
                magnetometer: mode == .nineD ? m : nil, output: o)
            }
          }
        }
      }
    }
    let r = OrientationEvaluation.nwuToENU
    return (0..<count).map { i in
      r * Quaternion(w: out[4 * i], x: out[4 * i + 1], y: out[4 * i + 2], z: out[4 * i + 3])
    }
  }
}

/// The BROAD trial categories.
public enum BroadCategory: String, Sendable, Hashable, CaseIterable, Codable {
  /// Trials 1-23: slow and fast rotation and translation, with and without breaks.
  case undisturbed
  /// Trials 24-25: the IMU is tapped.
  case tapping
  /// Trials 26-27: a phone vibrates against the IMU.
  case vibration
  /// Trials 28-31: a magnet near the stationary IMU.
  case stationaryMagnet = "stationary magnet"
  /// Trials 32-36: a magnet attached to the IMU.
  case attachedMagnet = "attached magnet"
  /// Trials 37-39 (mixed disturbances), scored but outside the five anchor categories.
  case other

  /// The category of a trial from the first number in its name (e.g. `26_disturbed_...`).
  ///
  /// - Parameter trialName: The trial's name.
  public init(trialName: String) {
    let digits = trialName.drop { !$0.isNumber }.prefix { $0.isNumber }
    let number = Int(digits) ?? 0
    switch number {
    case 24...25: self = .tapping
    case 26...27: self = .vibration
    case 28...31: self = .stationaryMagnet
    case 32...36: self = .attachedMagnet
    case 37...: self = .other
    default: self = .undisturbed
    }
  }
}
