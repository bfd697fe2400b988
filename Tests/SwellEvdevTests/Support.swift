import Foundation
import SwellEvdev
import SwellGeometry
import SwellMotion

/// The folder of the evemu fixtures (built by Fixtures/make_fixtures.py from a known motion).
let fixtureFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Fixtures")

/// Reads and parses one fixture.
func fixture(_ name: String) throws -> EvemuRecording {
  let url = fixtureFolder.appendingPathComponent(name)
  return try EvemuRecording.parse(String(contentsOf: url, encoding: .utf8), fileName: name)
}

/// One degree in radians, written out so that no expected value goes through the decoder.
let radiansPerDegree = Double.pi / 180

/// An axis description as a driver publishes it: ±`range`, `fuzz`, `resolution`.
func axis(_ range: Int32, _ fuzz: Int32, _ resolution: Int32, value: Int32 = 0) -> EvdevAbsInfo {
  EvdevAbsInfo(
    value: value, minimum: -range, maximum: range, fuzz: fuzz, flat: 0, resolution: resolution)
}

/// A DualSense motion node as `hid-playstation` describes it (ps_sensors_create with
/// DS_ACC_RANGE, DS_ACC_RES_PER_G = 8192, DS_GYRO_RANGE, DS_GYRO_RES_PER_DEG_S = 1024).
func dualSenseDescription(values: [Int32] = [0, 0, 0, 0, 0, 0]) -> EvdevDeviceDescription {
  var axes: [UInt16: EvdevAbsInfo] = [:]
  for code in 0..<3 { axes[UInt16(code)] = axis(32768, 16, 8192, value: values[code]) }
  for code in 3..<6 { axes[UInt16(code)] = axis(2_097_152, 16, 1024, value: values[code]) }
  return EvdevDeviceDescription(
    name: "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors",
    bus: 0x03, vendor: 0x054c, product: 0x0ce6, version: 0x8111, properties: [6],
    absoluteAxes: axes,
    eventCodes: [
      .synchronization: [0, 1, 3], .absolute: [0, 1, 2, 3, 4, 5], .miscellaneous: [5],
    ],
    uniq: "a0:ab:51:12:34:56")
}

/// A Steam Deck motion node as `hid-steam` describes it (STEAM_DECK_ACCEL_RES_PER_G = 16384,
/// STEAM_DECK_GYRO_RES_PER_DPS = 16).
func steamDeckDescription() -> EvdevDeviceDescription {
  var d = dualSenseDescription()
  d.name = "Steam Deck Motion Sensors"
  d.vendor = 0x28de
  d.product = 0x1205
  for code in 0..<3 { d.absoluteAxes[UInt16(code)] = axis(32768, 32, 16384) }
  for code in 3..<6 { d.absoluteAxes[UInt16(code)] = axis(32768, 1, 16) }
  return d
}

/// Builds events the way a driver sends them: `time` in microseconds.
struct EventScript {
  var events: [EvdevEvent] = []

  mutating func abs(_ code: UInt16, _ value: Int32, at time: Int64) {
    events.append(event(time, .absolute, code, value))
  }

  mutating func msc(_ value: Int32, at time: Int64) {
    events.append(event(time, .miscellaneous, EvdevCode.mscTimestamp, value))
  }

  mutating func syn(at time: Int64, code: UInt16 = EvdevCode.synReport) {
    events.append(event(time, .synchronization, code, 0))
  }

  func event(_ time: Int64, _ type: EvdevEventType, _ code: UInt16, _ value: Int32)
    -> EvdevEvent
  {
    EvdevEvent(
      seconds: time / 1_000_000, microseconds: time % 1_000_000, type: type, code: code,
      value: value)
  }
}

extension EvdevMotionDecoder {
  /// Feeds every event, returning the samples.
  mutating func feed(all events: [EvdevEvent]) -> [IMUSample] {
    events.compactMap { feed($0) }
  }
}

/// A DualShock 3 motion node as `hid-sony` describes it (`sony_register_sensors`): `ABS_X`,
/// `ABS_Y` and `ABS_Z` over −512...511, fuzz 4, `SIXAXIS_ACC_RES_PER_G` 113, no gyroscope axes
/// and no `MSC_TIMESTAMP`; Sony 054c:0268.
func dualShock3Description() -> EvdevDeviceDescription {
  var axes: [UInt16: EvdevAbsInfo] = [:]
  for code in 0..<3 {
    axes[UInt16(code)] = EvdevAbsInfo(
      value: 0, minimum: -512, maximum: 511, fuzz: 4, flat: 0, resolution: 113)
  }
  return EvdevDeviceDescription(
    name: "Sony PLAYSTATION(R)3 Controller Motion Sensors", bus: 0x03, vendor: 0x054c,
    product: 0x0268, version: 0x8111, properties: [6], absoluteAxes: axes,
    eventCodes: [.synchronization: [0, 1, 3], .absolute: [0, 1, 2]],
    uniq: "00:1b:fb:12:34:56")
}
