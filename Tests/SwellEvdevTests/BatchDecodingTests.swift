import SwellEvdev
import SwellMotion
import SwellTestSupport
import Testing

/// The batch entry point keeps the frame's state in locals: it must give exactly what feeding the
/// same events one at a time gives, wherever the batches are cut (inside a frame, at a
/// `SYN_DROPPED`, in the discarded span after it).
@Suite("evdev decoding in batches")
private struct BatchDecodingTests {
  /// A random stream of a DualSense node: frames with some axes changed, an `MSC_TIMESTAMP`
  /// before or after the axes or none, events of other types, empty frames, and `SYN_DROPPED`.
  private static func stream(seed: UInt64, frames: Int) -> [EvdevEvent] {
    var random = SplitMix64(seed: seed)
    var events: [EvdevEvent] = []
    var micros: Int64 = 5_000_000
    var device = UInt32.random(in: 0...UInt32.max, using: &random)
    for _ in 0..<frames {
      micros += Int64.random(in: 1_000...6_000, using: &random)
      device &+= UInt32.random(in: 3_000...5_000, using: &random)
      func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> EvdevEvent {
        EvdevEvent(
          seconds: micros / 1_000_000, microseconds: micros % 1_000_000,
          type: EvdevEventType(rawValue: type), code: code, value: value)
      }
      let placement = Int.random(in: 0..<3, using: &random)
      if placement == 0 { events.append(event(4, 5, Int32(bitPattern: device))) }
      for code in UInt16(0)..<6 where Bool.random(using: &random) {
        events.append(event(3, code, Int32.random(in: -30_000...30_000, using: &random)))
      }
      if Int.random(in: 0..<10, using: &random) == 0 { events.append(event(1, 0x130, 1)) }
      if placement == 1 { events.append(event(4, 5, Int32(bitPattern: device))) }
      if Int.random(in: 0..<25, using: &random) == 0 { events.append(event(0, 3, 0)) }
      events.append(event(0, 0, 0))
    }
    return events
  }

  @Test(
    "batches cut anywhere give the samples and statistics of one-at-a-time feeding",
    arguments: [1, 2, 3, 4, 5] as [UInt64])
  func batchesMatchSingleEvents(seed: UInt64) throws {
    let events = Self.stream(seed: seed, frames: 600)
    var single = try EvdevMotionDecoder(description: dualSenseDescription())
    let expected = events.compactMap { single.feed($0) }

    var batched = try EvdevMotionDecoder(description: dualSenseDescription())
    let samples = decodeInRandomBatches(events, with: &batched, seed: seed ^ 0xBA7C4)
    #expect(single.statistics.droppedSynchronizations > 0)
    #expect(expected.count > 400)
    #expect(samples == expected)
    #expect(batched.statistics == single.statistics)
  }
}

/// Feeds events in random batches of 1-70, as reads of a live node come.
///
/// - Parameters:
///   - events: The stream.
///   - decoder: The decoder fed.
///   - seed: The seed of the batch sizes.
/// - Returns: The samples decoded, in order.
func decodeInRandomBatches(
  _ events: [EvdevEvent], with decoder: inout EvdevMotionDecoder, seed: UInt64
) -> [IMUSample] {
  var random = SplitMix64(seed: seed)
  var samples: [IMUSample] = []
  var start = 0
  while start < events.count {
    let end = min(start + Int.random(in: 1...70, using: &random), events.count)
    decoder.feed(contentsOf: Array(events[start..<end]), into: &samples)
    start = end
  }
  return samples
}
