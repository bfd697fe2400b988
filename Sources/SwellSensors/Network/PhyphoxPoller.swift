import SwellGeometry
import SwellMotion

/// The four phyphox buffers of one 3-axis sensor: its x, y and z values and its time buffer
/// (seconds of experiment time).
public struct PhyphoxSensorBuffers: Hashable, Sendable {
  /// The buffer of x values.
  public var x: String
  /// The buffer of y values.
  public var y: String
  /// The buffer of z values.
  public var z: String
  /// The buffer of reading times, seconds since the experiment started.
  public var time: String

  /// Names the buffers.
  ///
  /// - Parameters:
  ///   - x: The buffer of x values.
  ///   - y: The buffer of y values.
  ///   - z: The buffer of z values.
  ///   - time: The time buffer.
  public init(x: String, y: String, z: String, time: String) {
    self.x = x
    self.y = y
    self.z = z
    self.time = time
  }

  /// The four names in `x, y, z, time` order.
  public var all: [String] { [x, y, z, time] }
}

/// Which phyphox buffers hold the motion sensors.
///
/// The defaults are the names phyphox gives its sensors in a "simple experiment" (the app's
/// **+** → *New simple experiment* with Accelerometer, Gyroscope and Magnetometer ticked) and in
/// its built-in "Acceleration (with g)", "Gyroscope (rotation rate)" and "Magnetometer"
/// experiments: `accX accY accZ acc_time` (m/s², specific force, Android sign),
/// `gyrX gyrY gyrZ gyr_time` (rad/s) and `magX magY magZ mag_time` (µT).
public struct PhyphoxBufferNames: Hashable, Sendable {
  /// The accelerometer ("acceleration with g"), m/s². Required.
  public var accelerometer: PhyphoxSensorBuffers
  /// The gyroscope, rad/s. Required.
  public var gyroscope: PhyphoxSensorBuffers
  /// The magnetometer, µT; used when the experiment has these buffers, `nil` never to ask.
  public var magnetometer: PhyphoxSensorBuffers?

  /// Names the buffers; the defaults are phyphox's own.
  ///
  /// - Parameters:
  ///   - accelerometer: The accelerometer buffers.
  ///   - gyroscope: The gyroscope buffers.
  ///   - magnetometer: The magnetometer buffers, or `nil`.
  public init(
    accelerometer: PhyphoxSensorBuffers = .init(x: "accX", y: "accY", z: "accZ", time: "acc_time"),
    gyroscope: PhyphoxSensorBuffers = .init(x: "gyrX", y: "gyrY", z: "gyrZ", time: "gyr_time"),
    magnetometer: PhyphoxSensorBuffers? = .init(x: "magX", y: "magY", z: "magZ", time: "mag_time")
  ) {
    self.accelerometer = accelerometer
    self.gyroscope = gyroscope
    self.magnetometer = magnetometer
  }

  /// Parses `ACC;GYR[;MAG]` where each group is `X,Y,Z,TIME`, e.g.
  /// `accX,accY,accZ,acc_time;gyrX,gyrY,gyrZ,gyr_time`; a missing or `none` third group means
  /// no magnetometer.
  ///
  /// - Parameter text: The specification.
  /// - Throws: ``NetworkSourceError`` naming the bad group.
  public init(parsing text: String) throws(NetworkSourceError) {
    let groups = text.split(separator: ";", omittingEmptySubsequences: false)
    guard groups.count == 2 || groups.count == 3 else {
      throw NetworkSourceError(
        "buffer names '\(text)': expected X,Y,Z,TIME;X,Y,Z,TIME[;X,Y,Z,TIME] "
          + "(accelerometer; gyroscope; magnetometer)")
    }
    func sensor(_ group: Substring, _ what: String) throws(NetworkSourceError)
      -> PhyphoxSensorBuffers
    {
      let names = group.split(separator: ",", omittingEmptySubsequences: false).map {
        String($0.filter { !$0.isWhitespace })
      }
      guard names.count == 4, names.allSatisfy({ !$0.isEmpty }) else {
        throw NetworkSourceError(
          "buffer names '\(text)': the \(what) group '\(group)' needs four names X,Y,Z,TIME")
      }
      return PhyphoxSensorBuffers(x: names[0], y: names[1], z: names[2], time: names[3])
    }
    let magnetometer: PhyphoxSensorBuffers?
    if groups.count == 3 && groups[2].trimmingCharacters() != "none" {
      magnetometer = try sensor(groups[2], "magnetometer")
    } else {
      magnetometer = nil
    }
    self.init(
      accelerometer: try sensor(groups[0], "accelerometer"),
      gyroscope: try sensor(groups[1], "gyroscope"), magnetometer: magnetometer)
  }
}

extension Substring {
  fileprivate func trimmingCharacters() -> String { String(filter { !$0.isWhitespace }) }
}

/// What one `/get` answer brought.
struct PhyphoxPollOutcome: Sendable {
  /// New samples, timestamps in experiment seconds.
  var samples: [IMUSample] = []
  /// The experiment reported `measuring: false`.
  var notMeasuring = false
  /// The phone's buffers were cleared or the experiment reloaded: times restarted.
  var reset = false
  /// Readings skipped because a value was `null` or not finite.
  var invalidValues = 0
}

/// The answer lacks a buffer the source needs (the wrong experiment is loaded).
struct PhyphoxMissingBuffers: Error, Sendable {
  var missing: [String]
  var available: [String]
}

/// The request and bookkeeping side of polling phyphox's `/get`, without any I/O.
///
/// The first request asks for the last value of every buffer (`NAME=`), which tells which
/// buffers exist and where the time buffers stand, so recording starts from now rather than
/// downloading the whole history. Every later request asks, per sensor, for the values after
/// the last time seen: `acc_time=T&accX=T|acc_time&accY=T|acc_time&accZ=T|acc_time` (phyphox's
/// threshold form: the values at indices where the time buffer exceeds `T`), or `=full` while
/// no time is known yet. A `full` answer to a threshold request means phyphox's buffers were
/// cleared (phyphox then sends everything once); a changed `status.session` means the
/// experiment was reloaded. Both restart the bookkeeping.
struct PhyphoxPoller: Sendable {
  let names: PhyphoxBufferNames
  private(set) var merger: PhyphoxMerger
  private var primed = false
  private var session: String?
  private var accelerometerSince: Double?
  private var gyroscopeSince: Double?
  private var magnetometerSince: Double?
  /// Whether the experiment has all magnetometer buffers (known after the first answer).
  private(set) var hasMagnetometer = false

  init(names: PhyphoxBufferNames, holdLimit: Double) {
    self.names = names
    merger = PhyphoxMerger(holdLimit: holdLimit)
  }

  /// The request target for the next poll, percent-encoded, starting with `/get?`.
  var requestTarget: String {
    var items: [(String, String)] = []
    func add(_ sensor: PhyphoxSensorBuffers, since: Double?) {
      if !primed {
        for name in sensor.all { items.append((name, "")) }
        return
      }
      let value = since.map(PhyphoxPoller.format) ?? "full"
      items.append((sensor.time, value))
      for name in [sensor.x, sensor.y, sensor.z] {
        items.append((name, since == nil ? "full" : value + "|" + sensor.time))
      }
    }
    add(names.accelerometer, since: accelerometerSince)
    add(names.gyroscope, since: gyroscopeSince)
    if let m = names.magnetometer, !primed || hasMagnetometer { add(m, since: magnetometerSince) }
    return "/get?"
      + items.map { PhyphoxPoller.encode($0.0) + "=" + PhyphoxPoller.encode($0.1) }
      .joined(separator: "&")
  }

  /// Takes in one decoded answer.
  ///
  /// - Parameter response: The answer to ``requestTarget``.
  /// - Returns: The samples and events it brought.
  /// - Throws: ``PhyphoxMissingBuffers`` when a required buffer is absent.
  mutating func handle(_ response: PhyphoxResponse) throws(PhyphoxMissingBuffers)
    -> PhyphoxPollOutcome
  {
    let required = names.accelerometer.all + names.gyroscope.all
    let missing = required.filter { response.buffer[$0] == nil }
    guard missing.isEmpty else {
      throw PhyphoxMissingBuffers(missing: missing, available: response.buffer.keys.sorted())
    }
    var outcome = PhyphoxPollOutcome()
    outcome.notMeasuring = response.status?.measuring == false
    if !primed {
      hasMagnetometer =
        names.magnetometer.map { $0.all.allSatisfy { response.buffer[$0] != nil } }
        ?? false
      merger.hasMagnetometer = hasMagnetometer
      session = response.status?.session
      accelerometerSince = lastTime(response, names.accelerometer)
      gyroscopeSince = lastTime(response, names.gyroscope)
      magnetometerSince = names.magnetometer.flatMap { lastTime(response, $0) }
      primed = true
      return outcome
    }
    if let s = response.status?.session, let old = session, s != old { outcome.reset = true }
    if let s = response.status?.session { session = s }
    let sensors: [(PhyphoxSensorBuffers, Double?)] =
      [(names.accelerometer, accelerometerSince), (names.gyroscope, gyroscopeSince)]
      + (hasMagnetometer ? names.magnetometer.map { [($0, magnetometerSince)] } ?? [] : [])
    for (sensor, since) in sensors
    where since != nil && response.buffer[sensor.time]?.updateMode == "full" {
      outcome.reset = true
    }
    if outcome.reset {
      accelerometerSince = nil
      gyroscopeSince = nil
      magnetometerSince = nil
      merger.reset()
    }
    let a = readings(response, names.accelerometer, since: &accelerometerSince, &outcome)
    let g = readings(response, names.gyroscope, since: &gyroscopeSince, &outcome)
    var m: [TimedVector] = []
    if hasMagnetometer, let names = names.magnetometer {
      if names.all.allSatisfy({ response.buffer[$0] != nil }) {
        m = readings(response, names, since: &magnetometerSince, &outcome)
      }
    }
    merger.append(accelerometer: a, gyroscope: g, magnetometer: m)
    outcome.samples = merger.drain()
    return outcome
  }

  private func lastTime(_ response: PhyphoxResponse, _ sensor: PhyphoxSensorBuffers) -> Double? {
    guard let t = response.buffer[sensor.time]?.buffer.last, let t,
      RecordingLimits.isPlausibleTime(t)
    else { return nil }
    return t
  }

  /// The largest step of a buffer's time between two readings, seconds (600): a later reading
  /// beyond it is dropped as invalid (the phone's clock does not jump within an experiment).
  static let maximumJump = 600.0

  /// The readings of one sensor after `since`, aligned by index; advances `since`. Times must be
  /// plausible (`RecordingLimits.isPlausibleTime(_:)`) and within ``maximumJump`` of the last.
  private func readings(
    _ response: PhyphoxResponse, _ sensor: PhyphoxSensorBuffers, since: inout Double?,
    _ outcome: inout PhyphoxPollOutcome
  ) -> [TimedVector] {
    guard let time = response.buffer[sensor.time]?.buffer,
      let x = response.buffer[sensor.x]?.buffer,
      let y = response.buffer[sensor.y]?.buffer, let z = response.buffer[sensor.z]?.buffer
    else { return [] }
    let n = min(time.count, x.count, y.count, z.count)
    var out: [TimedVector] = []
    out.reserveCapacity(n)
    for i in 0..<n {
      guard let t = time[i], RecordingLimits.isPlausibleTime(t) else {
        outcome.invalidValues += 1
        continue
      }
      if let s = since, t <= s { continue }
      // phyphox's experiment time runs with the phone's sensors: a reading far beyond the last
      // one is a wild value, and adopting it would make every later reading look old.
      if let s = since, t - s > Self.maximumJump {
        outcome.invalidValues += 1
        continue
      }
      since = t
      guard let vx = x[i], let vy = y[i], let vz = z[i], vx.isFinite, vy.isFinite, vz.isFinite
      else {
        outcome.invalidValues += 1
        continue
      }
      out.append(TimedVector(t: t, v: Vector3(vx, vy, vz)))
    }
    return out
  }

  /// A threshold as text phyphox parses (`Double.valueOf` / `Double(_:)`), round-tripping.
  static func format(_ t: Double) -> String { "\(t)" }

  /// Percent-encodes a query name or value: everything but RFC 3986 unreserved characters
  /// (so `|` becomes `%7C`; phyphox decodes query parameters).
  static func encode(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".utf8)
        out += "%"
        out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
        out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 15)]))
      }
    }
    return out
  }
}
