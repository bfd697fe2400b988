import Foundation
import SwellGeometry
import SwellMotion

/// One sensor's readings over time: timestamps in seconds (strictly increasing) and vectors.
struct SensorSeries {
  var times: [Double] = []
  var values: [Vector3] = []
  /// Where it came from, for errors.
  var source: String

  /// Sorts by time and drops rows whose time repeats an earlier one (phone exports can hold
  /// buffered or duplicated rows).
  mutating func sortAndDeduplicate() {
    var sorted = true
    for i in times.indices.dropFirst() where times[i] <= times[i - 1] {
      sorted = false
      break
    }
    if sorted { return }
    let order = times.indices.sorted { times[$0] < times[$1] }
    var t: [Double] = []
    var v: [Vector3] = []
    for i in order where t.last.map({ times[i] > $0 }) ?? true {
      t.append(times[i])
      v.append(values[i])
    }
    times = t
    values = v
  }

  /// The value at time `t` by linear interpolation, or `nil` outside the series' span.
  /// `hint` is the index to start searching from; it is advanced (calls must come in time order).
  func value(at t: Double, hint: inout Int) -> Vector3? {
    guard let first = times.first, let last = times.last, t >= first, t <= last else {
      return nil
    }
    while hint + 1 < times.count && times[hint + 1] < t { hint += 1 }
    if hint + 1 >= times.count { return values[times.count - 1] }
    let t0 = times[hint]
    let t1 = times[hint + 1]
    if t <= t0 { return values[hint] }
    let f = (t - t0) / (t1 - t0)
    return values[hint] + (values[hint + 1] - values[hint]) * f
  }
}

/// Merges separately sampled sensors onto the gyroscope's timestamps: the accelerometer (and
/// magnetometer) are interpolated linearly at each gyroscope time. Gyroscope samples outside
/// the time span of the other sensors are dropped (nothing is extrapolated).
///
/// - Throws: `RecordingError` when the sensors do not overlap in time.
func mergeOntoGyroscope(
  gyroscope: SensorSeries, accelerometer: SensorSeries, magnetometer: SensorSeries?, name: String
) throws(RecordingError) -> [IMUSample] {
  var samples: [IMUSample] = []
  samples.reserveCapacity(gyroscope.times.count)
  var accelHint = 0
  var magHint = 0
  for (i, t) in gyroscope.times.enumerated() {
    guard let a = accelerometer.value(at: t, hint: &accelHint) else { continue }
    var m: Vector3?
    if let magnetometer {
      guard let v = magnetometer.value(at: t, hint: &magHint) else { continue }
      m = v
    }
    samples.append(
      IMUSample(timestamp: t, gyroscope: gyroscope.values[i], accelerometer: a, magnetometer: m))
  }
  guard !samples.isEmpty else {
    func span(_ s: SensorSeries?) -> String {
      guard let s, let a = s.times.first, let b = s.times.last else { return "empty" }
      return "\(formatNumber(a))...\(formatNumber(b)) s"
    }
    var message =
      "the sensors do not overlap in time: \(gyroscope.source) \(span(gyroscope)), "
      + "\(accelerometer.source) \(span(accelerometer))"
    if let magnetometer { message += ", \(magnetometer.source) \(span(magnetometer))" }
    throw RecordingError(file: name, message: message)
  }
  return samples
}
