import Foundation
import SwellGeometry
import SwellMotion

/// The units of a raw IMU recording's columns (``RawIMUCSV``), when they are not the format's
/// own (seconds, rad/s, m/s²): CoreMotion's accelerometer reads g, many loggers write
/// milliseconds or nanoseconds, many gyroscope APIs read °/s. Values are converted to the
/// format's units as they are read; the limits of `RecordingLimits` apply to the converted
/// values.
public struct RecordingUnits: Hashable, Sendable {
  /// The unit of `t_s`.
  public enum Time: String, Hashable, Sendable, CaseIterable {
    /// Seconds (the format's unit).
    case seconds = "s"
    /// Milliseconds.
    case milliseconds = "ms"
    /// Microseconds.
    case microseconds = "us"
    /// Nanoseconds.
    case nanoseconds = "ns"

    /// Seconds per unit.
    public var seconds: Double {
      switch self {
      case .seconds: 1
      case .milliseconds: 1e-3
      case .microseconds: 1e-6
      case .nanoseconds: 1e-9
      }
    }
  }

  /// The unit of `ax,ay,az`.
  public enum Acceleration: String, Hashable, Sendable, CaseIterable {
    /// Metres per second squared (the format's unit).
    case metersPerSecondSquared = "m/s2"
    /// Standard gravity, 9.80665 m/s² (CoreMotion's `CMAccelerometerData`).
    case g

    /// m/s² per unit.
    public var metersPerSecondSquared: Double { self == .g ? RecordingUnits.standardGravity : 1 }
  }

  /// The unit of `gx,gy,gz`.
  public enum AngularVelocity: String, Hashable, Sendable, CaseIterable {
    /// Radians per second (the format's unit).
    case radiansPerSecond = "rad/s"
    /// Degrees per second.
    case degreesPerSecond = "deg/s"

    /// rad/s per unit.
    public var radiansPerSecond: Double { self == .degreesPerSecond ? Double.pi / 180 : 1 }
  }

  /// Standard gravity, m/s².
  public static let standardGravity = 9.80665

  /// The unit of the times.
  public var time: Time
  /// The unit of the accelerometer.
  public var acceleration: Acceleration
  /// The unit of the gyroscope.
  public var angularVelocity: AngularVelocity

  /// The format's own units: seconds, m/s², rad/s.
  public static let standard = RecordingUnits()

  /// Creates units (the format's own by default).
  ///
  /// - Parameters:
  ///   - time: The unit of `t_s`.
  ///   - acceleration: The unit of `ax,ay,az`.
  ///   - angularVelocity: The unit of `gx,gy,gz`.
  public init(
    time: Time = .seconds, acceleration: Acceleration = .metersPerSecondSquared,
    angularVelocity: AngularVelocity = .radiansPerSecond
  ) {
    self.time = time
    self.acceleration = acceleration
    self.angularVelocity = angularVelocity
  }

  /// True for the format's own units (nothing to convert).
  public var isStandard: Bool { self == .standard }

  /// The factor that converts a raw IMU CSV column to the format's unit.
  ///
  /// - Parameter column: The column index in ``RawIMUCSV/columns`` (0 is `t_s`, 1...3 the
  ///   gyroscope, 4...6 the accelerometer; the magnetometer stays in µT).
  /// - Returns: The factor.
  func factor(column: Int) -> Double {
    switch column {
    case 0: time.seconds
    case 1...3: angularVelocity.radiansPerSecond
    case 4...6: acceleration.metersPerSecondSquared
    default: 1
    }
  }
}

/// A sign in a raw recording's values that a column is in another unit than the one it was read
/// in (``RecordingUnitCheck``), with the unit it looks like.
public struct RecordingUnitWarning: Hashable, Sendable, CustomStringConvertible {
  /// The quantity whose unit looks wrong.
  public enum Quantity: String, Hashable, Sendable {
    /// `t_s`.
    case time
    /// `ax,ay,az`.
    case acceleration
    /// `gx,gy,gz`.
    case angularVelocity
  }

  /// The quantity.
  public var quantity: Quantity
  /// The unit the values look like (a raw value of one of the ``RecordingUnits`` enumerations:
  /// `g`, `ms`, `deg/s`).
  public var suggestedUnit: String
  /// What was measured and what it means, one line, without the file's name.
  public var message: String

  /// The message.
  public var description: String { message }
}

/// Detects, from the data, a raw recording read in the wrong units (docs/formats.md, "Units"):
///
/// - **accelerometer**: the median magnitude of the specific force is gravity, 9.81 m/s² (a
///   device is at rest or moving gently most of the time). A median within
///   ``gravityBand`` × 1/9.81 (0.05...0.2 of gravity) is a recording in g read as m/s²; within
///   ``gravityBand`` × 9.81, one in m/s² read as g.
/// - **time**: the median spacing of samples must be a motion sensor's, 0.1 ms to 0.5 s
///   (``samplePeriodBand``, 2 Hz to 10 kHz); outside it, the unit among s, ms, µs and ns that
///   brings it nearest 100 Hz inside the band is suggested.
/// - **gyroscope**: the direction of the accelerometer (gravity, mostly) turns as fast as the
///   gyroscope says the device turns about the axes across it. Over windows of
///   ``gyroscopeWindow`` seconds, the angle the gyroscope integrates across the gravity
///   direction is summed and divided by the angle the accelerometer's direction turned; the
///   ratio is at most 1 in the right unit (linear acceleration and noise turn the accelerometer
///   without the device turning: 0.17 to 0.84 over the BROAD trials), 57.3 times that for °/s
///   read as rad/s and 1/57.3 of it the other way. A ratio above ``degreesRatio`` (3), or
///   below ``radiansRatio`` (0.05) when °/s was declared, is reported, when the accelerometer
///   turned by at least ``minimumTurn`` in total (a recording at rest says nothing).
public enum RecordingUnitCheck {
  /// The band of the accelerometer's median magnitude, in g, taken as gravity.
  public static let gravityBand = 0.5...2.0
  /// The band of median sample spacings, seconds, taken as a motion sensor's.
  public static let samplePeriodBand = 1e-4...0.5
  /// The length of the gyroscope windows, seconds.
  public static let gyroscopeWindow = 0.1
  /// The gyroscope-to-accelerometer turning ratio above which a gyroscope read in rad/s looks
  /// like °/s: between the largest ratio of the BROAD trials in rad/s (0.84) and the smallest
  /// in °/s (0.17 × 57.3 = 9.5), a margin of about 3 each way.
  public static let degreesRatio = 3.0
  /// The turning ratio below which a gyroscope read in °/s looks like rad/s: between the
  /// smallest BROAD ratio (0.17) and the largest read the wrong way (0.84 / 57.3 = 0.015).
  public static let radiansRatio = 0.05
  /// The total turn of the accelerometer's direction needed to judge the gyroscope, radians.
  public static let minimumTurn = 0.5
  /// The most samples the file check reads (``warnings(contentsOf:units:)``).
  public static let maximumSamples = 100_000

  /// The warnings for samples read in some units.
  ///
  /// - Parameters:
  ///   - samples: The samples as read (converted from `units`), in time order.
  ///   - units: The units they were read in.
  /// - Returns: The warnings, time first, then accelerometer, then gyroscope.
  public static func warnings(_ samples: [IMUSample], units: RecordingUnits = .standard)
    -> [RecordingUnitWarning]
  {
    guard samples.count >= 3 else { return [] }
    var out: [RecordingUnitWarning] = []
    // Time first: the gyroscope check integrates over time, so it uses corrected times.
    var timeScale = 1.0
    let spacing = median(zip(samples.dropFirst(), samples).map { $0.timestamp - $1.timestamp })
    if !samplePeriodBand.contains(spacing), spacing > 0 {
      let raw = spacing / units.time.seconds
      let fits = RecordingUnits.Time.allCases.filter { samplePeriodBand.contains(raw * $0.seconds) }
      if let best = fits.min(by: {
        abs(log10(raw * $0.seconds / 0.01)) < abs(log10(raw * $1.seconds / 0.01))
      }),
        best != units.time
      {
        timeScale = best.seconds / units.time.seconds
        out.append(
          RecordingUnitWarning(
            quantity: .time, suggestedUnit: best.rawValue,
            message:
              "samples are a median \(shown(spacing)) s apart (\(shown(1 / spacing)) Hz): the "
              + "times look like \(name(best)) (\(shown(1 / (raw * best.seconds))) Hz), not "
              + name(units.time)))
      }
    }
    let g = RecordingUnits.standardGravity
    let magnitude = median(samples.map(\.accelerometer.length))
    let inG = magnitude / g
    if inG < gravityBand.lowerBound, units.acceleration == .metersPerSecondSquared,
      gravityBand.contains(magnitude)
    {
      out.append(
        RecordingUnitWarning(
          quantity: .acceleration, suggestedUnit: RecordingUnits.Acceleration.g.rawValue,
          message:
            "the accelerometer's median magnitude is \(shown(magnitude)) m/s² (gravity is "
            + "9.81): the values look like g, not m/s²"))
    } else if inG > gravityBand.upperBound, units.acceleration == .g,
      gravityBand.contains(inG / g)
    {
      out.append(
        RecordingUnitWarning(
          quantity: .acceleration,
          suggestedUnit: RecordingUnits.Acceleration.metersPerSecondSquared.rawValue,
          message:
            "the accelerometer's median magnitude is \(shown(inG)) g (gravity is 1): the values "
            + "look like m/s², not g"))
    }
    if let ratio = turningRatio(samples, timeScale: timeScale) {
      if ratio > degreesRatio, units.angularVelocity == .radiansPerSecond {
        out.append(
          RecordingUnitWarning(
            quantity: .angularVelocity,
            suggestedUnit: RecordingUnits.AngularVelocity.degreesPerSecond.rawValue,
            message:
              "the gyroscope turns \(shown(ratio)) times as far as the accelerometer's direction "
              + "(at most 1 in rad/s): the values look like °/s, not rad/s"))
      } else if ratio < radiansRatio, units.angularVelocity == .degreesPerSecond {
        out.append(
          RecordingUnitWarning(
            quantity: .angularVelocity,
            suggestedUnit: RecordingUnits.AngularVelocity.radiansPerSecond.rawValue,
            message:
              "the gyroscope turns \(shown(ratio)) times as far as the accelerometer's direction "
              + "(about 1 in °/s): the values look like rad/s, not °/s"))
      }
    }
    return out
  }

  /// The warnings for a raw IMU CSV file, from its first ``maximumSamples`` rows; none for
  /// another format (whose units its importer knows) or a file that cannot be read (reading it
  /// reports that).
  ///
  /// - Parameters:
  ///   - url: The recording.
  ///   - units: The units it is read in.
  /// - Returns: The warnings.
  public static func warnings(contentsOf url: URL, units: RecordingUnits = .standard)
    -> [RecordingUnitWarning]
  {
    guard var reader = try? RawIMUCSV.Reader(url: url, units: units) else { return [] }
    var samples: [IMUSample] = []
    while samples.count < maximumSamples, let s = try? reader.next() {
      samples.append(s)
    }
    return warnings(samples, units: units)
  }

  /// The gyroscope's turn across gravity over the accelerometer direction's turn (see the
  /// type's discussion), or `nil` when the accelerometer did not turn enough to tell.
  static func turningRatio(_ samples: [IMUSample], timeScale: Double) -> Double? {
    let typical = median(samples.map(\.accelerometer.length))
    guard typical > 0 else { return nil }
    func steady(_ s: IMUSample) -> Bool {
      abs(s.accelerometer.length / typical - 1) < 0.2
    }
    var gyroTurn = 0.0
    var accelTurn = 0.0
    var start = 0
    while start < samples.count - 1 {
      var end = start
      var integral = Vector3.zero
      while end < samples.count - 1,
        (samples[end].timestamp - samples[start].timestamp) * timeScale < gyroscopeWindow
      {
        let dt = (samples[end + 1].timestamp - samples[end].timestamp) * timeScale
        integral = integral + samples[end].gyroscope * dt
        end += 1
      }
      let a = samples[start]
      let b = samples[end]
      if steady(a), steady(b) {
        let u = a.accelerometer / a.accelerometer.length
        let across = integral - u * integral.dot(u)
        let cosine = min(1, max(-1, u.dot(b.accelerometer / b.accelerometer.length)))
        gyroTurn += across.length
        accelTurn += acos(cosine)
      }
      start = end
    }
    guard accelTurn >= minimumTurn, accelTurn > 0 else { return nil }
    return gyroTurn / accelTurn
  }

  private static func median(_ values: [Double]) -> Double {
    let v = values.filter(\.isFinite).sorted()
    guard !v.isEmpty else { return 0 }
    return v.count % 2 == 1 ? v[v.count / 2] : (v[v.count / 2 - 1] + v[v.count / 2]) / 2
  }

  private static func name(_ t: RecordingUnits.Time) -> String {
    switch t {
    case .seconds: "seconds"
    case .milliseconds: "milliseconds"
    case .microseconds: "microseconds"
    case .nanoseconds: "nanoseconds"
    }
  }

  private static func shown(_ x: Double) -> String {
    String(format: abs(x) >= 100 || x == 0 ? "%.0f" : (abs(x) >= 1 ? "%.2f" : "%.3g"), x)
  }
}
