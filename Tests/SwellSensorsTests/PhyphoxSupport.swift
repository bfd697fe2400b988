import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import SwellTime
import Synchronization

@testable import SwellSensors

/// A clock whose sleeps return at once, moving its time to the deadline: polls run back to back
/// and deterministically, and no test waits on the wall clock.
final class InstantClock: Sendable {
  private let time = Mutex(0.0)

  /// The clock as the sources take it.
  var clock: MonotonicClock {
    MonotonicClock(
      now: { [self] in time.withLock { $0 } },
      sleepUntil: { [self] t in
        try Task.checkCancellation()
        time.withLock { $0 = max($0, t) }
        await Task.yield()
      },
      waitUntil: { [self] t in time.withLock { $0 = max($0, t) } })
  }
}

/// A number as phyphox writes it (Java `DecimalFormat("0.#######E0")`: 8 significant digits,
/// exponent without `+`), or `null`.
func phyphoxNumber(_ value: Double?) -> String {
  guard let v = value, v.isFinite else { return "null" }
  if v == 0 { return "0E0" }
  var e = Int((log10(abs(v))).rounded(.down))
  var m = v / pow(10, Double(e))
  if abs((m * 1e7).rounded() / 1e7) >= 10 {
    e += 1
    m /= 10
  }
  var text = String(format: "%.7f", m)
  while text.hasSuffix("0") { text.removeLast() }
  if text.hasSuffix(".") { text.removeLast() }
  return "\(text)E\(e)"
}

/// One buffer of a canned `/get` answer.
struct CannedBuffer {
  var name: String
  var mode: String
  var values: [Double?]
}

/// A `/get` answer body shaped like phyphox's.
func getBody(_ buffers: [CannedBuffer], measuring: Bool = true, session: String = "a1b2c3")
  -> String
{
  let items = buffers.map { b in
    "\"\(b.name)\":{\"size\":0,\"updateMode\":\"\(b.mode)\", \"buffer\":["
      + b.values.map(phyphoxNumber).joined(separator: ",") + "]}"
  }
  return "{\"buffer\":{\n" + items.joined(separator: ",\n") + "\n},\n\"status\":{\n"
    + "\"session\":\"\(session)\", \"measuring\":\(measuring), \"timedRun\":false, "
    + "\"countDown\":0\n}\n}\n"
}

/// The buffers of one sensor from readings.
func sensorBuffers(
  _ prefix: String, _ readings: [(Double, Vector3)], mode: String = "partial"
) -> [CannedBuffer] {
  [
    CannedBuffer(name: prefix + "X", mode: mode, values: readings.map { $0.1.x }),
    CannedBuffer(name: prefix + "Y", mode: mode, values: readings.map { $0.1.y }),
    CannedBuffer(name: prefix + "Z", mode: mode, values: readings.map { $0.1.z }),
    CannedBuffer(name: prefix + "_time", mode: mode, values: readings.map { $0.0 }),
  ]
}

/// The first answer (every buffer's last value), for sensors at the given times (`nil`: empty).
func primeAnswer(
  acc: Double?, gyr: Double?, mag: Double?? = .none, measuring: Bool = true,
  session: String = "a1b2c3"
) -> ScriptedHTTPServer.Answer {
  var buffers: [CannedBuffer] = []
  func add(_ prefix: String, _ t: Double?) {
    for axis in ["X", "Y", "Z"] {
      buffers.append(
        CannedBuffer(name: prefix + axis, mode: "single", values: [t.map { _ in 0.5 }]))
    }
    buffers.append(CannedBuffer(name: prefix + "_time", mode: "single", values: [t]))
  }
  add("acc", acc)
  add("gyr", gyr)
  if case .some(let m) = mag { add("mag", m) }
  return ScriptedHTTPServer.response(
    body: getBody(buffers, measuring: measuring, session: session))
}

/// A data answer.
func dataAnswer(
  acc: [(Double, Vector3)], gyr: [(Double, Vector3)], mag: [(Double, Vector3)]? = nil,
  mode: String = "partial", measuring: Bool = true, session: String = "a1b2c3"
) -> ScriptedHTTPServer.Answer {
  var buffers = sensorBuffers("acc", acc, mode: mode) + sensorBuffers("gyr", gyr, mode: mode)
  if let mag { buffers += sensorBuffers("mag", mag, mode: mode) }
  return ScriptedHTTPServer.response(
    body: getBody(buffers, measuring: measuring, session: session))
}

/// Specific force that is linear in time (so interpolation is exact): (2t, −t, 9.81) m/s².
func accel(_ t: Double) -> Vector3 { Vector3(2 * t, -t, 9.81) }

/// A gyroscope reading that encodes its time: (t, 0.5, −0.25) rad/s.
func gyro(_ t: Double) -> Vector3 { Vector3(t, 0.5, -0.25) }

/// Readings at the given times.
func readings(_ times: [Double], _ f: (Double) -> Vector3) -> [(Double, Vector3)] {
  times.map { ($0, f($0)) }
}

/// What a run of ``PhyphoxSource/next()`` produced.
struct Collected: Sendable {
  var samples: [IMUSample] = []
  var transient: [String] = []
  var fatal: String?
}

/// Pulls from the source until `samples` samples arrived and then `errorsAfter` more transient
/// errors (or a non-transient one, or `maxCalls` calls), under a wall-clock guard against hangs.
func collect(
  _ source: PhyphoxSource, samples: Int, errorsAfter: Int = 0, maxCalls: Int = 2000
) async throws -> Collected {
  try await withDeadline(90) {
    var c = Collected()
    var after = 0
    for _ in 0..<maxCalls {
      if c.samples.count >= samples && after >= errorsAfter { break }
      do {
        guard let event = try await source.next() else { break }
        if case .sample(let s) = event { c.samples.append(s) }
      } catch let e as MotionSourceError {
        if !e.isTransient {
          c.fatal = e.message
          break
        }
        c.transient.append(e.message)
        if c.samples.count >= samples { after += 1 }
      }
    }
    return c
  }
}

/// A source for a scripted server.
func phyphoxSource(
  _ server: ScriptedHTTPServer, _ configure: (inout PhyphoxConfiguration) -> Void = { _ in }
) -> PhyphoxSource {
  var c = PhyphoxConfiguration(address: PhyphoxAddress(host: "127.0.0.1", port: server.port))
  // A generous exchange timeout: the whole test suite runs in parallel on two cores, and a slow
  // scheduler must not turn a scripted answer into a timeout (tests of the timeout set their own).
  c.timeout = 15
  configure(&c)
  return PhyphoxSource(configuration: c, clock: InstantClock().clock)
}
