import SwellGeometry
import SwellMotion

/// One reading of a phyphox sensor: experiment time in seconds and a 3-vector.
struct TimedVector: Hashable, Sendable {
  /// Seconds of phyphox experiment time.
  var t: Double
  /// The reading (m/s², rad/s or µT).
  var v: Vector3
}

/// Merges phyphox's separate accelerometer, gyroscope and magnetometer streams (each with its
/// own time buffer) into `IMUSample`s.
///
/// One sample is made per gyroscope reading, at its time. The accelerometer (and magnetometer)
/// value at that time is interpolated linearly between the two readings around it, so a
/// gyroscope reading waits until a later accelerometer reading has arrived. If none arrives
/// within `holdLimit` seconds of gyroscope data, the latest accelerometer reading is held
/// instead (a sensor that stalls or runs much slower). Gyroscope readings before the first
/// accelerometer reading by more than `holdLimit` are dropped and counted; the magnetometer is
/// optional and simply `nil` when it has no reading near enough.
struct PhyphoxMerger: Sendable {
  /// Seconds of gyroscope data to wait for a bracketing accelerometer reading.
  var holdLimit: Double
  /// Whether a magnetometer stream exists (readings are awaited like the accelerometer's).
  var hasMagnetometer = false

  private var accelerometer: [TimedVector] = []
  private var gyroscope: [TimedVector] = []
  private var magnetometer: [TimedVector] = []
  /// The time of the last sample made, seconds of experiment time.
  private(set) var lastTimestamp = -Double.infinity
  /// Readings dropped because their time did not increase within their stream.
  private(set) var outOfOrder = 0
  /// Gyroscope readings dropped because no accelerometer reading was near them.
  private(set) var unpaired = 0

  /// The most readings kept per stream while waiting (a stream that never pairs).
  static let maxBuffered = 20_000

  init(holdLimit: Double) { self.holdLimit = max(0, holdLimit) }

  /// Adds new readings, each stream in increasing time.
  ///
  /// - Parameters:
  ///   - a: Accelerometer readings (specific force, m/s²).
  ///   - g: Gyroscope readings (angular velocity, rad/s).
  ///   - m: Magnetometer readings (µT).
  mutating func append(
    accelerometer a: [TimedVector], gyroscope g: [TimedVector], magnetometer m: [TimedVector]
  ) {
    outOfOrder += PhyphoxMerger.append(a, to: &accelerometer, after: -Double.infinity)
    outOfOrder += PhyphoxMerger.append(g, to: &gyroscope, after: lastTimestamp)
    outOfOrder += PhyphoxMerger.append(m, to: &magnetometer, after: -Double.infinity)
  }

  /// Appends readings later than the stream's last (and `floor`); returns how many were not.
  private static func append(
    _ readings: [TimedVector], to stream: inout [TimedVector], after floor: Double
  ) -> Int {
    var dropped = 0
    var last = max(stream.last?.t ?? -Double.infinity, floor)
    for r in readings {
      guard r.t > last else {
        dropped += 1
        continue
      }
      stream.append(r)
      last = r.t
    }
    if stream.count > PhyphoxMerger.maxBuffered {
      stream.removeFirst(stream.count - PhyphoxMerger.maxBuffered)
    }
    return dropped
  }

  /// Makes every sample that can be made now.
  ///
  /// - Returns: Samples in increasing time, timestamps in experiment seconds.
  mutating func drain() -> [IMUSample] {
    var out: [IMUSample] = []
    var used = 0
    let newest = gyroscope.last?.t ?? -Double.infinity
    loop: while used < gyroscope.count {
      let g = gyroscope[used]
      let a: Vector3
      switch lookup(accelerometer, at: g.t, newest: newest) {
      case .wait: break loop
      case .none:
        unpaired += 1
        used += 1
        continue loop
      case .value(let v): a = v
      }
      var m: Vector3?
      if hasMagnetometer {
        switch lookup(magnetometer, at: g.t, newest: newest) {
        case .wait: break loop
        case .none: m = nil
        case .value(let v): m = v
        }
      }
      out.append(IMUSample(timestamp: g.t, gyroscope: g.v, accelerometer: a, magnetometer: m))
      lastTimestamp = g.t
      used += 1
      prune(&accelerometer, before: g.t)
      prune(&magnetometer, before: g.t)
    }
    gyroscope.removeFirst(used)
    return out
  }

  /// Forgets every reading (the phone's buffers were cleared).
  mutating func reset() {
    accelerometer = []
    gyroscope = []
    magnetometer = []
    lastTimestamp = -Double.infinity
  }

  private enum Lookup {
    case value(Vector3)
    case wait
    case none
  }

  private func lookup(_ s: [TimedVector], at t: Double, newest: Double) -> Lookup {
    guard let last = s.last else { return newest - t > holdLimit ? .none : .wait }
    guard last.t >= t else { return newest - t > holdLimit ? .value(last.v) : .wait }
    // First reading at or after t (the streams are short: pruned to the pending span).
    var lo = 0
    var hi = s.count - 1
    while lo < hi {
      let mid = (lo + hi) / 2
      if s[mid].t >= t { hi = mid } else { lo = mid + 1 }
    }
    if lo == 0 { return s[0].t - t > holdLimit ? .none : .value(s[0].v) }
    let before = s[lo - 1]
    let after = s[lo]
    let f = (t - before.t) / (after.t - before.t)
    return .value(before.v + (after.v - before.v) * f)
  }

  /// Drops readings no longer needed: keeps the last one at or before `t` and all later ones.
  private func prune(_ s: inout [TimedVector], before t: Double) {
    var k = 0
    while k + 1 < s.count && s[k + 1].t <= t { k += 1 }
    if k > 0 { s.removeFirst(k) }
  }
}
