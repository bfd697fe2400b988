import Foundation
import SwellEvdev
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

/// The DualShock 3 (`hid-sony`): an accelerometer alone.
@Suite("DualShock 3: an accelerometer alone")
private struct DualShock3Tests {
  /// The report words of one tilt and the `EV_ABS` values `sixaxis_parse_report` makes of them:
  /// `ABS_X = x − 511`, `ABS_Y = 511 − word 45`, `ABS_Z = 511 − word 43`.
  static func absValues(x: Int32, word43: Int32, word45: Int32) -> [Int32] {
    [x - 511, 511 - word45, 511 - word43]
  }

  @Test(
    "reports decode in SDL's frame at 113 per g, on the event clock, with a zero gyroscope",
    arguments: [
      // Report words of the accelerometer (x, word 43, word 45): at rest face up SDL's y reads
      // +1 g (word 45 = 511 − 113); tilted, standing, and a seeded few.
      (Int32(511), Int32(511), Int32(398)), (624, 511, 511), (511, 398, 511), (450, 560, 420),
    ])
  func decodes(x: Int32, word43: Int32, word45: Int32) throws {
    var decoder = try EvdevMotionDecoder(description: dualShock3Description())
    #expect(decoder.family == .dualShock3 && !decoder.hasGyroscope)
    let v = Self.absValues(x: x, word43: word43, word45: word45)
    var s = EventScript()
    for t: Int64 in [1_000, 11_000] {
      s.abs(EvdevCode.absX, v[0], at: t)
      s.abs(EvdevCode.absY, v[1], at: t)
      s.abs(EvdevCode.absZ, v[2], at: t)
      s.syn(at: t)
    }
    var batch = decoder
    let samples = decoder.feed(all: s.events)
    var batched: [IMUSample] = []
    batch.feed(contentsOf: s.events, into: &batched)
    #expect(batched == samples)
    try #require(samples.count == 2)
    // SDL's frame (x, y, z) = (x − 511, 511 − word 45, 511 − word 43) / 113 g
    // (SDL_hidapi_ps3.c), and the device frame is (x, −z, y) of SDL's.
    let g = standardGravity
    let sdl = Vector3(Double(x - 511), Double(511 - word45), Double(511 - word43)) * (g / 113)
    let expected = Vector3(sdl.x, -sdl.z, sdl.y)
    for sample in samples {
      #expect(isApproximatelyEqual(sample.accelerometer, expected, tolerance: 1e-12))
      #expect(sample.gyroscope == .zero)
    }
    // No MSC_TIMESTAMP: the event times, 10 ms apart.
    #expect(isApproximatelyEqual(samples[1].timestamp - samples[0].timestamp, 0.01, absolute: 1e-9))
  }

  @Test("a family from the ids or the name; some gyroscope axes without the rest is an error")
  func familyAndPartialGyroscope() throws {
    var byName = dualShock3Description()
    byName.vendor = 0x1234
    #expect(EvdevDriverFamily(description: byName) == .dualShock3)
    #expect(EvdevDriverFamily.dualShock3.axisMapping == EvdevDriverFamily.dualShock4.axisMapping)
    var partial = dualShock3Description()
    partial.absoluteAxes[EvdevCode.absRX] = EvdevAbsInfo(
      value: 0, minimum: -512, maximum: 511, fuzz: 0, flat: 0, resolution: 1)
    #expect(throws: EvdevDecodeError.missingAxis(device: partial.name, code: 4)) {
      try EvdevMotionDecoder(description: partial)
    }
    #expect(try EvdevMotionDecoder(description: dualSenseDescription()).hasGyroscope)
  }
}
