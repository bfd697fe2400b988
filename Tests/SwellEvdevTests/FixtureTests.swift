import Foundation
import SwellEvdev
import SwellGeometry
import SwellMotion
import SwellRecordings
import SwellTestSupport
import Testing

/// What each fixture's driver publishes and how it times its frames (Fixtures/make_fixtures.py
/// writes the files from the same facts; docs/sensors.md cites each).
struct FixtureCase: Sendable, CustomTestStringConvertible {
  var file: String
  var family: EvdevDriverFamily
  /// Frames in the file (one second).
  var frames: Int
  /// Spacing of the device's MSC_TIMESTAMP, seconds.
  var deviceStep: Double
  /// 32-bit wraps of MSC_TIMESTAMP in the file.
  var wraps: Int
  /// Whether the samples follow the device clock (all but the Steam Deck).
  var deviceClock: Bool
  /// The evdev axis that carries the device's z rotation (ABS_RY in SDL's frame, ABS_RZ in
  /// hid-nintendo's).
  var yawCode: UInt16

  var testDescription: String { file }
}

let fixtureCases: [FixtureCase] = [
  FixtureCase(
    file: "dualsense.evemu", family: .dualSense, frames: 250, deviceStep: 0.004, wraps: 1,
    deviceClock: true, yawCode: 4),
  FixtureCase(
    file: "dualshock4-playstation.evemu", family: .dualShock4, frames: 250, deviceStep: 0.004,
    wraps: 0, deviceClock: true, yawCode: 4),
  FixtureCase(
    file: "dualshock4-sony.evemu", family: .dualShock4, frames: 250, deviceStep: 0.004,
    wraps: 0, deviceClock: true, yawCode: 4),
  FixtureCase(
    file: "switch-pro.evemu", family: .switchPro, frames: 200, deviceStep: 0.005, wraps: 0,
    deviceClock: true, yawCode: 5),
  FixtureCase(
    file: "joycon-left.evemu", family: .joyConLeft, frames: 200, deviceStep: 0.005, wraps: 1,
    deviceClock: true, yawCode: 5),
  FixtureCase(
    file: "joycon-right.evemu", family: .joyConRight, frames: 200, deviceStep: 0.005, wraps: 0,
    deviceClock: true, yawCode: 5),
  FixtureCase(
    file: "steam-deck.evemu", family: .steamDeck, frames: 250, deviceStep: 0.004, wraps: 0,
    deviceClock: false, yawCode: 4),
]

@Suite("evdev driver families, through their evemu fixtures")
private struct FixtureTests {
  @Test("the family is recognised from the ids the driver publishes", arguments: fixtureCases)
  func family(_ c: FixtureCase) throws {
    let r = try fixture(c.file)
    #expect(EvdevDriverFamily(description: r.description) == c.family)
    #expect(r.description.isMotionSensor)
    #expect(r.description.hasTimestamp)
  }

  @Test(
    "units come from the resolution and axes land in the device frame", arguments: fixtureCases)
  func unitsAndAxes(_ c: FixtureCase) throws {
    let samples = try fixture(c.file).samples()
    try #require(samples.count == c.frames)
    let g = standardGravity
    // Frame 0: at rest, face up.
    #expect(isApproximatelyEqual(samples[0].accelerometer, Vector3(0, 0, g), tolerance: 1e-12))
    #expect(samples[0].gyroscope == .zero)
    // Frames N/4 ..< N/2: a yaw turn of +30 °/s about the device's z; only one axis changed.
    let yaw = Vector3(0, 0, 30 * radiansPerDegree)
    for k in [c.frames / 4, c.frames / 3, c.frames / 2 - 1] {
      #expect(isApproximatelyEqual(samples[k].gyroscope, yaw, tolerance: 1e-12))
      #expect(isApproximatelyEqual(samples[k].accelerometer, Vector3(0, 0, g), tolerance: 1e-12))
    }
    #expect(samples[c.frames / 2].gyroscope == .zero)
    // The last frame: accelerometer (0.25, −0.5, 0.75) g, gyroscope (10, −20, 40) °/s.
    let last = try #require(samples.last)
    #expect(
      isApproximatelyEqual(
        last.accelerometer, Vector3(0.25 * g, -0.5 * g, 0.75 * g), tolerance: 1e-12))
    #expect(
      isApproximatelyEqual(
        last.gyroscope,
        Vector3(10 * radiansPerDegree, -20 * radiansPerDegree, 40 * radiansPerDegree),
        tolerance: 1e-12))
  }

  @Test("the yaw turn is sent on the axis the driver's frame puts it on", arguments: fixtureCases)
  func yawAxis(_ c: FixtureCase) throws {
    let r = try fixture(c.file)
    let changes = r.events.filter { $0.type == .absolute && $0.value != 0 }
    // Between the first and the last frame, only the yaw axis changes (to 30 °/s and back).
    let middle = changes.dropFirst().dropLast(6)
    #expect(middle.allSatisfy { $0.code == c.yawCode })
    let resolution = try #require(r.description.absoluteAxes[c.yawCode]).resolution
    #expect(middle.first?.value == 30 * resolution)
  }

  @Test("timestamps: the device clock's spacing, or the arrival times", arguments: fixtureCases)
  func timestamps(_ c: FixtureCase) throws {
    let r = try fixture(c.file)
    let (samples, stats) = try r.decode()
    let arrivals = r.events.compactMap { e in
      e.type == .synchronization && e.code == EvdevCode.synReport ? e.time : nil
    }
    try #require(arrivals.count == samples.count)
    for (a, b) in zip(samples, samples.dropFirst()) { #expect(b.timestamp > a.timestamp) }
    #expect(stats.timestampWraps == c.wraps)
    #expect(stats.frames == c.frames)
    #expect(stats.droppedSynchronizations == 0)
    #expect(isApproximatelyEqual(try #require(stats.declaredIntervalSeconds), c.deviceStep))
    if c.deviceClock {
      // The device's fine spacing survives the arrival jitter (up to 0.5 ms in the fixtures)...
      // (The first report's samples come before any offset is known: hid-nintendo's first
      // three samples all take their arrival time, the later ones their device spacing.)
      let settled =
        c.family == .switchPro || c.family == .joyConLeft || c.family == .joyConRight
        ? 3 : 0
      for (a, b) in zip(samples.dropFirst(settled), samples.dropFirst(settled + 1)) {
        #expect(abs(b.timestamp - a.timestamp - c.deviceStep) < 20e-6)
      }
      // ...and the samples stay on the event clock: never after their arrival, and no earlier
      // than the report's span (hid-nintendo's three samples cover the 10 ms before it) plus
      // 1 ms.
      let span =
        c.family == .switchPro || c.family == .joyConLeft || c.family == .joyConRight
        ? 2 * c.deviceStep : 0
      for (s, t) in zip(samples.dropFirst(settled), arrivals.dropFirst(settled)) {
        #expect(s.timestamp <= t + 1e-6 && s.timestamp > t - span - 1e-3)
      }
    } else {
      // hid-steam's MSC_TIMESTAMP is a fixed +4000 µs per report: the arrival time is used.
      for (s, t) in zip(samples, arrivals) { #expect(s.timestamp == t) }
    }
  }

  @Test("the Steam Deck: 4 ms declared, the true rate and jitter measured from arrivals")
  func steamDeckRate() throws {
    let stats = try fixture("steam-deck.evemu").decode().statistics
    #expect(stats.declaredIntervalSeconds == 0.004)
    // Arrival intervals cycle 2, 6, 3, 5, 4.5, 3.5 ms (mean 4 ms): 249 intervals over
    // 41 cycles plus 2, 6, 3 ms = 41 × 24 + 11 = 995 ms.
    let span = 0.995
    #expect(isApproximatelyEqual(try #require(stats.measuredRateHertz), 249 / span, relative: 1e-9))
    // The intervals' sample standard deviation, computed from the cycle by hand.
    var intervals: [Double] = []
    let cycle = [2.0, 6, 3, 5, 4.5, 3.5].map { $0 * 1e-3 }
    for k in 0..<249 { intervals.append(cycle[k % 6]) }
    let mean = intervals.reduce(0, +) / 249
    let sd = (intervals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 248).squareRoot()
    #expect(isApproximatelyEqual(try #require(stats.jitterSeconds), sd, relative: 1e-6))
    #expect(try #require(stats.jitterSeconds) > 1e-3)
  }

  @Test("a Switch Pro report's three samples share an arrival time but not a timestamp")
  func threeSamplesPerReport() throws {
    let r = try fixture("switch-pro.evemu")
    let samples = try r.samples()
    let synTimes = r.events.filter { $0.type == .synchronization }.map(\.time)
    #expect(synTimes[3] == synTimes[4] && synTimes[4] == synTimes[5] && synTimes[6] > synTimes[5])
    // The second report (the first one's samples precede any known offset).
    #expect(isApproximatelyEqual(samples[4].timestamp - samples[3].timestamp, 0.005))
    #expect(isApproximatelyEqual(samples[5].timestamp - samples[4].timestamp, 0.005))
    // The report's last sample is the newest: it is placed at (no later than) the arrival.
    #expect(samples[5].timestamp <= synTimes[5] && samples[3].timestamp < synTimes[3] - 0.009)
  }

  @Test("MSC_TIMESTAMP before the axes (hid-sony) or after them (hid-playstation) decodes alike")
  func timestampOrder() throws {
    let sony = try fixture("dualshock4-sony.evemu")
    let playstation = try fixture("dualshock4-playstation.evemu")
    func firstFrame(_ r: EvemuRecording) -> [EvdevEventType] {
      Array(r.events.prefix { $0.type != .synchronization }.map(\.type))
    }
    #expect(firstFrame(sony).first == .miscellaneous)
    #expect(firstFrame(playstation).last == .miscellaneous)
    let a = try sony.samples()
    let b = try playstation.samples()
    #expect(a.map(\.accelerometer) == b.map(\.accelerometer))
    #expect(a.map(\.gyroscope) == b.map(\.gyroscope))
    // hid-sony's counter crosses 2^31 in the file: it reads negative as a signed value.
    #expect(sony.events.contains { $0.type == .miscellaneous && $0.value < 0 })
  }

  @Test("MotionRecording.load reads an evemu file as raw samples", arguments: fixtureCases)
  func load(_ c: FixtureCase) throws {
    let recording = try MotionRecording.load(from: fixtureFolder.appendingPathComponent(c.file))
    #expect(recording.format == .evemu)
    #expect(recording.count == c.frames)
    guard case .samples(let s) = recording.content else {
      Issue.record("expected samples")
      return
    }
    #expect(s == (try fixture(c.file).samples()))
  }
}
