import Foundation
import SwellGeometry
import SwellMotion
import SwellRecordings

/// Checks of Swell's fusion on a real recording without ground truth (fusion v4): how well the
/// 6D and 9D gravity directions agree, and how still the estimate stays while the device rests.
///
/// - **Gravity agreement**: the angle between the gravity directions of the 6D and the 9D fusion
///   at every sample. The magnetometer never touches the inclination (`docs/fusion.md`), so the
///   two differ only through what the magnetometer changes elsewhere (bias, scale and the rest
///   of the filter); a large angle means one of them is wrong.
/// - **Rest**: runs of at least ``minimumRest`` seconds in which every raw gyroscope reading is
///   below ``restRate`` and every accelerometer norm within ``restAcceleration`` of standard
///   gravity. There the specific force is the negative of gravity, so the angle between the
///   fused gravity direction and the run's mean accelerometer direction measures the
///   inclination error, and the largest total rotation of the 6D attitude from the run's first
///   sample measures how still the estimate stays.
public struct RecordingConsistency: Sendable {
  /// Largest raw gyroscope norm of a rest sample, rad/s (3 °/s: above the bias of a phone's
  /// uncalibrated gyroscope, below any hand motion).
  public static let restRate = 3 * Double.pi / 180
  /// Largest difference between a rest sample's accelerometer norm and standard gravity, m/s²
  /// (1 m/s²: a phone's uncalibrated accelerometer reads 2 % low with ±0.3 m/s² of noise at
  /// rest in the bundled recording; the gyroscope tells rest from motion).
  public static let restAcceleration = 1.0
  /// Shortest rest run, seconds.
  public static let minimumRest = 0.5

  /// The angle between the 6D and the 9D gravity directions, every sample; `nil` without a
  /// magnetometer.
  public var gravityAgreement: DeviceReferenceEvaluation.Statistics?
  /// The angle between the 6D gravity direction and the rest run's mean accelerometer
  /// direction, rest samples; `nil` without a rest run.
  public var restGravity6D: DeviceReferenceEvaluation.Statistics?
  /// The same for the 9D gravity direction; `nil` without a rest run or a magnetometer.
  public var restGravity9D: DeviceReferenceEvaluation.Statistics?
  /// The largest total rotation of the 6D attitude from each rest run's first sample, degrees;
  /// `nil` without a rest run.
  public var restWanderDegrees: Double?
  /// The rest runs found, seconds from the first sample to the last (start, end).
  public var restRuns: [(start: Double, end: Double)]
  /// The number of samples fused.
  public var sampleCount: Int

  /// Fuses a raw recording (any format `MotionRecording` reads) in 6D and 9D and checks it.
  ///
  /// - Parameters:
  ///   - url: The recording (a file or an export folder).
  ///   - settings: Swell's estimator settings.
  /// - Throws: `RecordingError` for an unreadable recording, ``NumericTableError`` when it is
  ///   already fused device motion.
  public init(contentsOf url: URL, settings: AttitudeEstimator.Settings = .init()) throws {
    let recording = try MotionRecording.load(from: url)
    guard case .samples(let samples) = recording.content else {
      throw NumericTableError(
        file: url.path, line: 0, reason: "not a raw sensor recording (already fused)")
    }
    self.init(samples: samples, settings: settings)
  }

  /// Fuses raw samples in 6D and 9D and checks them.
  ///
  /// - Parameters:
  ///   - samples: Raw samples (device frame, SI units), time order.
  ///   - settings: Swell's estimator settings.
  public init(samples: [IMUSample], settings: AttitudeEstimator.Settings = .init()) {
    sampleCount = samples.count
    var six = AttitudeEstimator(mode: .sixD, settings: settings)
    let q6 = six.attitudes(for: samples)
    let hasMagnetometer = samples.contains { $0.magnetometer != nil }
    var q9: [Quaternion] = []
    if hasMagnetometer {
      var nine = AttitudeEstimator(mode: .nineD, settings: settings)
      q9 = nine.attitudes(for: samples)
    }
    /// The gravity direction in the device frame: R⁻¹ · (0, 0, −1).
    func down(_ q: Quaternion) -> Vector3 { q.conjugate.rotate(Vector3(0, 0, -1)) }
    func degrees(_ a: Vector3, _ b: Vector3) -> Double {
      let c = a.x * b.x + a.y * b.y + a.z * b.z
      let l = a.length * b.length
      guard l > 0 else { return .nan }
      return acos(min(1, max(-1, c / l))) * 180 / Double.pi
    }
    gravityAgreement =
      hasMagnetometer
      ? DeviceReferenceEvaluation.Statistics(
        degrees: zip(q6, q9).map { degrees(down($0.0), down($0.1)) }) : nil

    // Rest runs from the raw readings alone.
    var runs: [Range<Int>] = []
    var start: Int?
    func still(_ s: IMUSample) -> Bool {
      s.gyroscope.length < Self.restRate
        && abs(s.accelerometer.length - standardGravity) < Self.restAcceleration
    }
    for i in 0...samples.count {
      if i < samples.count && still(samples[i]) {
        if start == nil { start = i }
        continue
      }
      if let s = start, i - 1 > s,
        samples[i - 1].timestamp - samples[s].timestamp >= Self.minimumRest
      {
        runs.append(s..<i)
      }
      start = nil
    }
    let t0 = samples.first?.timestamp ?? 0
    restRuns = runs.map {
      (samples[$0.lowerBound].timestamp - t0, samples[$0.upperBound - 1].timestamp - t0)
    }
    var angles6: [Double] = []
    var angles9: [Double] = []
    var wander: Double?
    for run in runs {
      var mean = Vector3.zero
      for i in run { mean = mean + samples[i].accelerometer }
      let reference = -mean
      for i in run {
        angles6.append(degrees(down(q6[i]), reference))
        if hasMagnetometer { angles9.append(degrees(down(q9[i]), reference)) }
        let turn =
          OrientationError.radians(estimate: q6[i], truth: q6[run.lowerBound]).total * 180
          / Double.pi
        wander = max(wander ?? 0, turn)
      }
    }
    restGravity6D = DeviceReferenceEvaluation.Statistics(degrees: angles6)
    restGravity9D = DeviceReferenceEvaluation.Statistics(degrees: angles9)
    restWanderDegrees = wander
  }

  /// The results as text: one line per figure, degrees.
  public var text: String {
    func line(_ name: String, _ s: DeviceReferenceEvaluation.Statistics?) -> String {
      guard let s else { return name + ": n/a\n" }
      return name
        + String(
          format: ": median %.3f, p95 %.3f, max %.3f deg (%d samples)\n", s.median, s.p95,
          s.maximum, s.count)
    }
    var out = "\(sampleCount) samples; rest runs (s): "
    out +=
      restRuns.isEmpty
      ? "none"
      : restRuns.map { String(format: "%.2f-%.2f", $0.start, $0.end) }.joined(separator: ", ")
    out += "\n"
    out += line("gravity, 6D against 9D", gravityAgreement)
    out += line("gravity at rest against the accelerometer, 6D", restGravity6D)
    out += line("gravity at rest against the accelerometer, 9D", restGravity9D)
    out +=
      restWanderDegrees.map { String(format: "6D attitude wander at rest: %.3f deg\n", $0) }
      ?? "6D attitude wander at rest: n/a\n"
    return out
  }
}
