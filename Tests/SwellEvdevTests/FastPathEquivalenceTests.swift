import SwellEvdev
import SwellMotion
import SwellTestSupport
import Testing

/// The batch entry point decodes the common frame on a fast path (no optional state, a signed
/// permutation for the axes, samples staged on the stack): it must give, bit for bit, what
/// feeding the same events one at a time gives, and what the decoder gave before the fast path
/// (each case's digest of samples and statistics was taken from that decoder).
@Suite("evdev fast path, bit for bit")
private struct FastPathEquivalenceTests {
  /// A family's node as its driver describes it (the resolutions of `FakeEvdevDevice`).
  enum Family: String, CaseIterable, Sendable {
    case dualSense, dualShock4, switchPro, steamDeck

    var description: EvdevDeviceDescription {
      var d = dualSenseDescription(values: [120, -8192, 3, 0, -5, 7])
      switch self {
      case .dualSense: break
      case .dualShock4:
        d.name = "Sony Interactive Entertainment Wireless Controller Motion Sensors"
        d.product = 0x09cc
      case .switchPro:
        d.name = "Nintendo Switch Pro Controller (IMU)"
        d.vendor = 0x057e
        d.product = 0x2009
        for code in 0..<3 { d.absoluteAxes[UInt16(code)] = axis(32767, 10, 4096) }
        for code in 3..<6 { d.absoluteAxes[UInt16(code)] = axis(32_767_000, 10, 14247) }
      case .steamDeck:
        d = steamDeckDescription()
      }
      return d
    }
  }

  /// One case: a family and a seed, with the digest the decoder gave before the fast path.
  struct Case: Sendable, CustomTestStringConvertible {
    var family: Family
    var seed: UInt64
    var digest: UInt64
    var testDescription: String { "\(family.rawValue) seed \(seed)" }
  }

  static let cases: [Case] = [
    Case(family: .dualSense, seed: 1, digest: 0x45ea_217e_b774_2fe6),
    Case(family: .dualSense, seed: 2, digest: 0x6533_2c2d_cf89_403d),
    Case(family: .dualShock4, seed: 3, digest: 0xbca2_56c5_2dce_c566),
    Case(family: .dualShock4, seed: 4, digest: 0x4ef5_334f_3b44_6587),
    Case(family: .switchPro, seed: 5, digest: 0x560b_0f99_50d9_0579),
    Case(family: .switchPro, seed: 6, digest: 0xc515_e16f_e1c9_e8ce),
    Case(family: .steamDeck, seed: 7, digest: 0xea36_4f84_42ad_f229),
    Case(family: .steamDeck, seed: 8, digest: 0x8c52_8599_9f06_ea0e),
  ]

  /// A random stream: mostly whole frames in the driver's order (the fast path), and around them
  /// partial frames, axes out of order, small and zero values (signed zeros through the axis
  /// mapping), `MSC_TIMESTAMP` before, after or missing, other event types and codes, empty
  /// frames, repeated event times, gaps of more than a second, 32-bit wraps, device-clock resets
  /// and `SYN_DROPPED`.
  static func stream(_ c: Case, frames: Int) -> [EvdevEvent] {
    var random = SplitMix64(seed: c.seed)
    var events: [EvdevEvent] = []
    var micros: Int64 = 7_000_000
    // Wraps the 32-bit counter within the first 50 frames, and resets only after frame 200.
    var device = UInt32.max &- 180_000 &+ UInt32.random(in: 0...1_000, using: &random)
    let after = c.family == .dualSense
    for index in 0..<frames {
      let roll = Int.random(in: 0..<100, using: &random)
      micros +=
        roll == 0
        ? Int64.random(in: 1_000_000...2_500_000, using: &random)
        : roll == 1 ? 0 : Int64.random(in: 1_000...7_000, using: &random)
      device &+=
        roll == 2 && index > 200
        ? UInt32.random(in: 2_000_000...9_000_000, using: &random)
        : UInt32.random(in: 3_900...4_100, using: &random)
      func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> EvdevEvent {
        EvdevEvent(
          seconds: micros / 1_000_000, microseconds: micros % 1_000_000,
          type: EvdevEventType(rawValue: type), code: code, value: value)
      }
      func value() -> Int32 {
        Bool.random(using: &random)
          ? Int32.random(in: -1...1, using: &random)
          : Int32.random(in: -40_000...40_000, using: &random)
      }
      let timestamp = event(4, 5, Int32(bitPattern: device))
      if Int.random(in: 0..<4, using: &random) > 0 {
        // A whole frame in the driver's order.
        if !after { events.append(timestamp) }
        for code in UInt16(0)..<6 { events.append(event(3, code, value())) }
        if after { events.append(timestamp) }
      } else {
        let placement = Int.random(in: 0..<3, using: &random)
        if placement == 0 { events.append(timestamp) }
        for code in UInt16(0)..<6 where Bool.random(using: &random) {
          events.append(event(3, (code + UInt16.random(in: 0..<6, using: &random)) % 6, value()))
        }
        if Int.random(in: 0..<6, using: &random) == 0 { events.append(event(1, 0x130, 1)) }
        if Int.random(in: 0..<6, using: &random) == 0 { events.append(event(3, 0x10, 9)) }
        if Int.random(in: 0..<6, using: &random) == 0 { events.append(event(4, 4, 9)) }
        if placement == 1 { events.append(timestamp) }
        if Int.random(in: 0..<12, using: &random) == 0 { events.append(event(0, 3, 0)) }
        if Int.random(in: 0..<12, using: &random) == 0 { events.append(event(0, 2, 0)) }
      }
      events.append(event(0, 0, 0))
    }
    return events
  }

  /// Every bit of the samples and the statistics, in order.
  static func bits(_ samples: [IMUSample], _ s: EvdevDecoderStatistics) -> [UInt64] {
    var out: [UInt64] = []
    for x in samples {
      out.append(x.timestamp.bitPattern)
      for v in [x.gyroscope, x.accelerometer] {
        out += [v.x.bitPattern, v.y.bitPattern, v.z.bitPattern]
      }
      out.append(x.magnetometer == nil ? 0 : 1)
    }
    out += [s.frames, s.droppedSynchronizations, s.discardedEvents, s.timestampWraps]
      .map { UInt64(bitPattern: Int64($0)) }
    out.append(UInt64(bitPattern: Int64(s.deviceClockResets)))
    for d in [s.measuredRateHertz, s.jitterSeconds, s.declaredIntervalSeconds] {
      out.append(d?.bitPattern ?? 0x7FF8_DEAD_0000_0001)
    }
    return out
  }

  /// FNV-1a over the bits.
  static func digest(_ bits: [UInt64]) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for word in bits {
      for k in 0..<8 {
        h ^= (word >> (8 * UInt64(k))) & 0xff
        h = h &* 0x0000_0100_0000_01b3
      }
    }
    return h
  }

  @Test(
    "batches, cut anywhere or whole, equal one-at-a-time feeding and the old decoder's digest",
    arguments: cases)
  func fastPathMatchesSingleEvents(_ c: Case) throws {
    let description = c.family.description
    let events = Self.stream(c, frames: 1_500)
    var single = try EvdevMotionDecoder(description: description)
    let expected = Self.bits(events.compactMap { single.feed($0) }, single.statistics)

    // Random batches of 1-70 events, as reads of a live node come.
    var batched = try EvdevMotionDecoder(description: description)
    let samples = decodeInRandomBatches(events, with: &batched, seed: c.seed ^ 0xFA57)
    #expect(Self.bits(samples, batched.statistics) == expected)

    // The whole stream in one call, appended after a sample already there.
    var whole = try EvdevMotionDecoder(description: description)
    let first = IMUSample(timestamp: -1, gyroscope: .zero, accelerometer: .zero)
    var all = [first]
    whole.feed(contentsOf: events, into: &all)
    #expect(all.first == first)
    #expect(Self.bits(Array(all.dropFirst()), whole.statistics) == expected)

    #expect(single.statistics.droppedSynchronizations > 0)
    #expect(single.statistics.timestampWraps > 0 || c.family == .steamDeck)
    #expect(single.statistics.deviceClockResets > 0)
    #expect(Self.digest(expected) == c.digest, "digest \(String(Self.digest(expected), radix: 16))")
  }
}
