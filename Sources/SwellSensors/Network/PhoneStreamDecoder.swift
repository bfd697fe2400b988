import Foundation
import SwellGeometry
import SwellMotion

/// The line formats a phone stream may use (see `docs/sensors.md` for the exact grammar).
public enum PhoneStreamFormat: String, Hashable, Sendable, CaseIterable {
  /// Decide per line: `{` starts JSON, anything else is CSV.
  case automatic
  /// Swell's JSON lines: `{"t": s, "gyro": [x, y, z], "accel": [x, y, z], "magn": [x, y, z]}`.
  case json
  /// CSV: either `t,ax,ay,az,gx,gy,gz[,mx,my,mz]` or the sensor-id form of
  /// "Sensorstream IMU+GPS", `t, 3, ax, ay, az, 4, gx, gy, gz, 5, mx, my, mz`.
  case csv
}

/// Why a phone-stream line was rejected.
public struct PhoneStreamError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A one-line reason naming the field.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: The reason.
  public init(_ message: String) { self.message = message }

  /// The reason.
  public var description: String { message }
}

/// Decodes phone-stream lines into `IMUSample`s.
///
/// Units on the wire are Android's and Swell's: seconds, rad/s, specific force in m/s² (about
/// +9.81 on the up axis at rest), µT, all in the device frame. The sensor-id CSV form may carry
/// only some sensors per line; the decoder holds the latest value of each and emits a sample for
/// every line that carries the gyroscope or the accelerometer once both have been seen.
public struct PhoneStreamDecoder: Sendable {
  /// The accepted line format.
  public var format: PhoneStreamFormat

  private var heldGyro: Vector3?
  private var heldAccel: Vector3?
  private var heldMagn: Vector3?

  /// Creates a decoder.
  ///
  /// - Parameter format: The accepted line format.
  public init(format: PhoneStreamFormat = .automatic) { self.format = format }

  /// Decodes one line.
  ///
  /// - Parameter line: One line (no newline), JSON or CSV.
  /// - Returns: A sample, or `nil` for a partial sensor-id line that completes no sample yet.
  /// - Throws: ``PhoneStreamError`` naming the bad field (non-numbers, NaN, infinities, wrong
  ///   counts, truncated JSON).
  public mutating func decode(_ line: Substring) throws(PhoneStreamError) -> IMUSample? {
    let text = line.trimmingWhitespace()
    guard !text.isEmpty else { throw PhoneStreamError("empty line") }
    let isJSON = text.first == "{"
    switch format {
    case .json where !isJSON: throw PhoneStreamError("expected a JSON object")
    case .csv where isJSON: throw PhoneStreamError("expected CSV, got JSON")
    default: break
    }
    return isJSON ? try PhoneStreamDecoder.decodeJSON(text) : try decodeCSV(text)
  }

  static func decodeJSON(_ text: String) throws(PhoneStreamError) -> IMUSample {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [])
    } catch {
      throw PhoneStreamError("malformed JSON")
    }
    guard let dict = object as? [String: Any] else { throw PhoneStreamError("expected an object") }
    func number(_ value: Any?, _ field: String) throws(PhoneStreamError) -> Double {
      guard let n = value as? NSNumber, !isBoolean(n)
      else { throw PhoneStreamError("field '\(field)': expected a number") }
      let d = n.doubleValue
      guard d.isFinite else { throw PhoneStreamError("field '\(field)': not finite") }
      return d
    }
    func vector(_ field: String, required: Bool) throws(PhoneStreamError) -> Vector3? {
      guard let raw = dict[field] else {
        if required { throw PhoneStreamError("field '\(field)': missing") }
        return nil
      }
      if raw is NSNull && !required { return nil }
      guard let a = raw as? [Any], a.count == 3 else {
        throw PhoneStreamError("field '\(field)': expected [x, y, z]")
      }
      return Vector3(
        try number(a[0], field + "[0]"), try number(a[1], field + "[1]"),
        try number(a[2], field + "[2]"))
    }
    let t = try number(dict["t"], "t")
    guard let gyro = try vector("gyro", required: true),
      let accel = try vector("accel", required: true)
    else { throw PhoneStreamError("field 'gyro': missing") }
    return IMUSample(
      timestamp: t, gyroscope: gyro, accelerometer: accel,
      magnetometer: try vector("magn", required: false))
  }

  private mutating func decodeCSV(_ text: String) throws(PhoneStreamError) -> IMUSample? {
    let fields = text.split(separator: ",", omittingEmptySubsequences: false)
    var values: [Double] = []
    values.reserveCapacity(fields.count)
    for (i, f) in fields.enumerated() {
      guard let v = Double(f.trimmingWhitespace()), v.isFinite else {
        throw PhoneStreamError(
          "column \(i + 1): expected a finite number, got '\(UntrustedText.clipped(f, limit: 24))'")
      }
      values.append(v)
    }
    let t = values[0]
    switch values.count {
    case 7, 10:
      return IMUSample(
        timestamp: t, gyroscope: Vector3(values[4], values[5], values[6]),
        accelerometer: Vector3(values[1], values[2], values[3]),
        magnetometer: values.count == 10 ? Vector3(values[7], values[8], values[9]) : nil)
    case let n where n >= 5 && (n - 1) % 4 == 0:
      var gyro: Vector3?
      var accel: Vector3?
      var i = 1
      while i < n {
        let id = values[i]
        guard id == id.rounded(), id >= 0, id < 1000 else {
          throw PhoneStreamError("column \(i + 1): expected a sensor id, got \(id)")
        }
        let v = Vector3(values[i + 1], values[i + 2], values[i + 3])
        switch Int(id) {
        case 3:
          accel = v
          heldAccel = v
        case 4:
          gyro = v
          heldGyro = v
        case 5: heldMagn = v
        default: break  // GPS (1), orientation and others: ignored
        }
        i += 4
      }
      guard gyro != nil || accel != nil, let g = heldGyro, let a = heldAccel else { return nil }
      return IMUSample(timestamp: t, gyroscope: g, accelerometer: a, magnetometer: heldMagn)
    default:
      throw PhoneStreamError(
        "expected 7 or 10 columns (t,ax,ay,az,gx,gy,gz[,mx,my,mz]) or t followed by groups of "
          + "sensor id and x, y, z; got \(values.count)")
    }
  }
}

private func isBoolean(_ n: NSNumber) -> Bool {
  // JSONSerialization returns booleans as NSNumber; their objCType is "c".
  String(cString: n.objCType) == "c"
}
