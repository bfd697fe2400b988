import Foundation
import SwellEvdev
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

@Suite("evdev motion decoder")
private struct DecoderTests {
  @Test("an axis that did not change keeps its last value; the description gives the first")
  func partialFrames() throws {
    // absinfo.value: 8192 on ABS_Y (1 g in SDL's y, the device's z), 1024 on ABS_RX (1 °/s).
    var decoder = try EvdevMotionDecoder(
      description: dualSenseDescription(values: [0, 8192, 0, 1024, 0, 0]))
    var s = EventScript()
    s.abs(EvdevCode.absX, 4096, at: 1000)
    s.syn(at: 1000)
    s.abs(EvdevCode.absRZ, -2048, at: 5000)
    s.syn(at: 5000)
    let samples = decoder.feed(all: s.events)
    try #require(samples.count == 2)
    let g = standardGravity
    // Device = (x, −z, y) of SDL's frame.
    #expect(isApproximatelyEqual(samples[0].accelerometer, Vector3(0.5 * g, 0, g)))
    #expect(isApproximatelyEqual(samples[0].gyroscope, Vector3(radiansPerDegree, 0, 0)))
    #expect(isApproximatelyEqual(samples[1].accelerometer, Vector3(0.5 * g, 0, g)))
    #expect(
      isApproximatelyEqual(samples[1].gyroscope, Vector3(radiansPerDegree, 2 * radiansPerDegree, 0))
    )
    #expect(samples.map(\.timestamp) == [0.001, 0.005])
  }

  @Test("a SYN_REPORT with no motion events makes no sample; other codes are ignored")
  func emptyFrames() throws {
    var decoder = try EvdevMotionDecoder(description: dualSenseDescription())
    var s = EventScript()
    s.syn(at: 10)
    s.events.append(s.event(20, .absolute, 0x10, 5))  // ABS_HAT0X: not a motion axis
    s.events.append(s.event(20, .key, 0x130, 1))
    s.syn(at: 20)
    #expect(decoder.feed(all: s.events).isEmpty)
    #expect(decoder.statistics.frames == 0)
  }

  @Test(
    "SYN_DROPPED discards up to and including the next SYN_REPORT, then takes the re-read state")
  func droppedSynchronization() throws {
    var decoder = try EvdevMotionDecoder(description: dualSenseDescription())
    var s = EventScript()
    s.abs(EvdevCode.absY, 8192, at: 1000)
    s.msc(1000, at: 1000)
    s.syn(at: 1000)
    s.syn(at: 2000, code: EvdevCode.synDropped)
    s.abs(EvdevCode.absX, 999, at: 2000)  // part of a frame whose start was lost
    s.msc(2000, at: 2000)
    s.syn(at: 2000)
    var samples = decoder.feed(all: s.events)
    #expect(samples.count == 1)
    #expect(decoder.statistics.droppedSynchronizations == 1)
    #expect(decoder.statistics.discardedEvents == 3)
    // The owner re-reads the axes (EVIOCGABS) and installs them.
    decoder.resynchronize(values: [EvdevCode.absX: 2048, EvdevCode.absRY: 1024, 0x10: 7])
    var t = EventScript()
    t.msc(3000, at: 3000)
    t.syn(at: 3000)
    samples += decoder.feed(all: t.events)
    try #require(samples.count == 2)
    let g = standardGravity
    #expect(isApproximatelyEqual(samples[1].accelerometer, Vector3(0.25 * g, 0, g)))
    #expect(isApproximatelyEqual(samples[1].gyroscope, Vector3(0, 0, radiansPerDegree)))
    #expect(decoder.statistics.frames == 2)
  }

  @Test("MSC_TIMESTAMP wraps at 2^32 and may read negative: spacing is kept across the wrap")
  func timestampWrap() throws {
    var decoder = try EvdevMotionDecoder(description: dualSenseDescription())
    var s = EventScript()
    // Device times (as unsigned): 4294959296, 4294963296, 704, 4704 (signed −8000, −4000, ...);
    // the reports arrive with the same spacing: 4, 4.704 and 4 ms.
    let device: [Int32] = [-8000, -4000, 704, 4704]
    let arrivals: [Int64] = [100_000, 104_000, 108_704, 112_704]
    for (d, arrival) in zip(device, arrivals) {
      s.abs(EvdevCode.absY, 8192, at: arrival)
      s.msc(d, at: arrival)
      s.syn(at: arrival)
    }
    let samples = decoder.feed(all: s.events)
    try #require(samples.count == 4)
    let steps = zip(samples, samples.dropFirst()).map { $1.timestamp - $0.timestamp }
    #expect(isApproximatelyEqual(steps[0], 0.004))
    #expect(isApproximatelyEqual(steps[1], 0.004704))
    #expect(isApproximatelyEqual(steps[2], 0.004))
    #expect(decoder.statistics.timestampWraps == 1)
  }

  @Test("the device clock is mapped onto the event clock without drift (seeded latencies)")
  func noDrift() throws {
    // A device clock 100 ppm slow against the host, 10 minutes at 250 Hz, with a transport
    // delay of 0...2 ms on every report (SplitMix64, seed 26).
    var rng = SplitMix64(seed: 26)
    var decoder = try EvdevMotionDecoder(description: dualSenseDescription())
    var worst = 0.0
    var worstStep = 0.0
    var previous: Double?
    for k in 0..<150_000 {
      let deviceMicros = Int64(k) * 4000
      let hostTrue = 50.0 + Double(deviceMicros) * 1e-6 * (1 + 100e-6)
      let arrival = hostTrue + Double.random(in: 0...0.002, using: &rng)
      let micros = Int64((arrival * 1e6).rounded())
      var s = EventScript()
      s.abs(EvdevCode.absY, k % 2 == 0 ? 8192 : 8193, at: micros)
      s.msc(Int32(truncatingIfNeeded: deviceMicros), at: micros)
      s.syn(at: micros)
      let sample = try #require(decoder.feed(all: s.events).first)
      worst = max(worst, abs(sample.timestamp - hostTrue))
      // After the first block (1 s, where the delay floor is being found), the spacing holds.
      if let previous, k > 250 {
        worstStep = max(worstStep, abs(sample.timestamp - previous - 0.004))
      }
      previous = sample.timestamp
    }
    // Following the host: 10 minutes of 100 ppm is 60 ms; the mapping stays within the delay.
    #expect(worst < 0.0025)
    // Keeping the device's spacing: a step moves by at most 2000 ppm of 4 ms (8 µs), far inside
    // the 2 ms of arrival jitter.
    #expect(worstStep <= 8.001e-6)
    #expect(decoder.statistics.timestampWraps == 0)
  }

  @Test("a device clock that jumps (a reset) restarts the mapping and is counted")
  func clockReset() throws {
    var decoder = try EvdevMotionDecoder(description: dualSenseDescription())
    var s = EventScript()
    s.msc(1_000_000, at: 10_000)
    s.syn(at: 10_000)
    s.msc(1_004_000, at: 14_000)
    s.syn(at: 14_000)
    s.msc(500, at: 18_000)  // forward by 2^32 − 1 003 500 µs as a 32-bit delta
    s.syn(at: 18_000)
    let samples = decoder.feed(all: s.events)
    #expect(decoder.statistics.deviceClockResets == 1)
    #expect(decoder.statistics.timestampWraps == 0)
    #expect(isApproximatelyEqual(samples[2].timestamp, 0.018))
  }

  @Test("without MSC_TIMESTAMP the event time is used, made strictly increasing")
  func eventTime() throws {
    var decoder = try EvdevMotionDecoder(description: dualSenseDescription())
    var s = EventScript()
    for k in 0..<3 {
      s.abs(EvdevCode.absY, Int32(8000 + k), at: 7_000_000)
      s.syn(at: 7_000_000)
    }
    let t = decoder.feed(all: s.events).map(\.timestamp)
    #expect(t.count == 3)
    #expect(isApproximatelyEqual(t[0], 7) && isApproximatelyEqual(t[1], 7.000001))
    #expect(isApproximatelyEqual(t[2], 7.000002))
  }

  @Test("the Steam Deck's synthesised timestamp is counted but not used as the clock")
  func steamDeckClock() throws {
    var decoder = try EvdevMotionDecoder(description: steamDeckDescription())
    #expect(decoder.family == .steamDeck && !decoder.usesDeviceClock)
    var s = EventScript()
    let arrivals: [Int64] = [1000, 3000, 9000, 12_000]
    for (k, a) in arrivals.enumerated() {
      s.msc(Int32(4000 * (k + 1)), at: a)
      s.abs(EvdevCode.absY, 16384, at: a)
      s.syn(at: a)
    }
    let samples = decoder.feed(all: s.events)
    #expect(samples.map(\.timestamp) == [0.001, 0.003, 0.009, 0.012])
    #expect(decoder.statistics.declaredIntervalSeconds == 0.004)
    #expect(isApproximatelyEqual(try #require(decoder.statistics.measuredRateHertz), 3 / 0.011))
    #expect(isApproximatelyEqual(samples[0].accelerometer, Vector3(0, 0, standardGravity)))
  }

  @Test("a family given explicitly overrides the one the ids suggest")
  func explicitFamily() throws {
    var decoder = try EvdevMotionDecoder(description: dualSenseDescription(), family: .switchPro)
    var s = EventScript()
    s.abs(EvdevCode.absX, 8192, at: 1)  // hid-nintendo x: toward the triggers = device +y
    s.syn(at: 1)
    let sample = try #require(decoder.feed(all: s.events).first)
    #expect(isApproximatelyEqual(sample.accelerometer, Vector3(0, standardGravity, 0)))
  }

  @Test("every family's mapping is a rotation")
  func rotations() {
    for family in EvdevDriverFamily.allCases {
      #expect(family.axisMapping.accelerometer.determinant == 1)
      #expect(family.axisMapping.gyroscope.determinant == 1)
    }
  }

  @Test("descriptions that cannot be decoded say why")
  func errors() {
    var gamepad = dualSenseDescription()
    gamepad.properties = []
    gamepad.name = "Sony Interactive Entertainment DualSense Wireless Controller"
    #expect(throws: EvdevDecodeError.notMotionSensor(device: gamepad.name)) {
      try EvdevMotionDecoder(description: gamepad)
    }
    var noResolution = dualSenseDescription()
    noResolution.absoluteAxes[EvdevCode.absRY]?.resolution = 0
    #expect(throws: EvdevDecodeError.missingResolution(device: noResolution.name, code: 4)) {
      try EvdevMotionDecoder(description: noResolution)
    }
    var noAxis = dualSenseDescription()
    noAxis.absoluteAxes[EvdevCode.absZ] = nil
    #expect(throws: EvdevDecodeError.missingAxis(device: noAxis.name, code: 2)) {
      try EvdevMotionDecoder(description: noAxis)
    }
    #expect(
      EvdevDecodeError.missingResolution(device: "pad", code: 4).description
        == "'pad': axis ABS_RY has no resolution, so its units are unknown")
  }

  @Test("families from names when the ids are unknown")
  func familiesFromNames() {
    let names: [(String, EvdevDriverFamily)] = [
      (
        "Sony Interactive Entertainment DualSense Edge Wireless Controller Motion Sensors",
        .dualSense
      ),
      ("Sony Interactive Entertainment Wireless Controller Motion Sensors", .dualShock4),
      ("Nintendo Switch Pro Controller (IMU)", .switchPro),
      ("Nintendo Switch Left Joy-Con (IMU)", .joyConLeft),
      ("Nintendo Switch Right Joy-Con IMU", .joyConRight),
      ("Steam Deck Motion Sensors", .steamDeck),
      ("Some Phone Accelerometer", .generic),
    ]
    for (name, family) in names {
      #expect(EvdevDriverFamily(description: EvdevDeviceDescription(name: name)) == family)
    }
  }
}
