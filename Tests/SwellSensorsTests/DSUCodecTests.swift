import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

@testable import SwellSensors

private let mac: [UInt8] = [0xA0, 0x5A, 0x5D, 0x11, 0x22, 0x33]

@Suite("DSU packets against bytes built from the protocol text")
private struct DSUCodecTests {
  @Test("CRC-32 is zlib's: 0xCBF43926 for \"123456789\", and agrees with a bitwise one")
  func crc() {
    let digits = Array("123456789".utf8)
    #expect(referenceCRC32(digits) == 0xCBF4_3926)
    #expect(DSUChecksum.crc32(digits) == 0xCBF4_3926)
    var rng = SplitMix64(seed: 26)
    for _ in 0..<200 {
      let bytes = (0..<Int.random(in: 0...120, using: &rng)).map { _ in
        UInt8.random(in: 0...255, using: &rng)
      }
      #expect(DSUChecksum.crc32(bytes) == referenceCRC32(bytes))
    }
  }

  @Test(
    "client requests encode byte for byte as the protocol's tables say",
    arguments: [
      (DSUMessage.versionRequest, UInt32(0x10_0000), [UInt8]()),
      (.portInfoRequest(slots: [0, 3]), 0x10_0001, le(Int32(2)) + [0, 3]),
      (.padDataRequest(.all), 0x10_0002, [0, 0, 0, 0, 0, 0, 0, 0]),
      (.padDataRequest(.slot(2)), 0x10_0002, [1, 2, 0, 0, 0, 0, 0, 0]),
      (.padDataRequest(.mac(mac)), 0x10_0002, [2, 0] + mac),
    ])
  func requests(message: DSUMessage, type: UInt32, payload: [UInt8]) throws {
    let encoded = DSUPacket(message, senderID: 0xDEAD_BEEF).encoded()
    #expect(
      encoded == handBuiltDatagram(magic: "DSUC", sender: 0xDEAD_BEEF, type: type, payload: payload)
    )
    #expect(try DSUPacket.decode(encoded).message == message)
  }

  @Test("a pad-data response encodes to the 100 bytes of the table, and decodes back")
  func padData() throws {
    var pad = DSUPadData(
      controller: DSUController(slot: 1, state: 2, model: 2, connection: 1, mac: mac, battery: 5),
      isConnected: true, packetNumber: 77, motionTimestamp: 123_456_789,
      accelerometer: [0.25, -1, 0.5], gyroscope: [10, -20, 30.5])
    pad.sticks = [128, 128, 128, 128]
    let hand = handBuiltDatagram(
      magic: "DSUS", sender: 42, type: 0x10_0002,
      payload: handBuiltPadPayload(
        slot: 1, mac: mac, packet: 77, timestamp: 123_456_789, accel: [0.25, -1, 0.5],
        gyro: [10, -20, 30.5]))
    #expect(hand.count == 100)
    #expect(DSUPacket(.padData(pad), senderID: 42).encoded() == hand)
    let decoded = try DSUPacket.decode(hand)
    #expect(decoded.senderID == 42 && decoded.protocolVersion == 1001)
    guard case .padData(let p) = decoded.message else {
      Issue.record("not pad data: \(decoded.message)")
      return
    }
    #expect(p == pad)
    #expect(p.controller.macText == "a0:5a:5d:11:22:33")
  }

  @Test("port info (32 bytes) and DS4Windows' version answer (24 bytes, 2 padding) decode")
  func responses() throws {
    let info = handBuiltDatagram(
      magic: "DSUS", sender: 7, type: 0x10_0001, payload: [0, 2, 2, 2] + mac + [0xEE, 0])
    #expect(info.count == 32)
    let c = DSUController(slot: 0, state: 2, model: 2, connection: 2, mac: mac, battery: 0xEE)
    #expect(try DSUPacket.decode(info).message == .portInfo(c))
    #expect(DSUPacket(.portInfo(c), senderID: 7).encoded() == info)
    #expect(c.batteryText == "charging" && c.modelText == "full gyroscope")
    let version = handBuiltDatagram(
      magic: "DSUS", sender: 7, type: 0x10_0000, payload: le(UInt16(1001)) + [0, 0])
    #expect(version.count == 24)
    #expect(try DSUPacket.decode(version).message == .version(1001))
    #expect(DSUPacket(.version(1001), senderID: 7).encoded() == version)
  }

  @Test("seeded random pad data round-trips through the bytes")
  func roundTrip() throws {
    var rng = SplitMix64(seed: 1001)
    for _ in 0..<300 {
      let f = { (r: inout SplitMix64) in Float(Double.random(in: -2000...2000, using: &r)) }
      var p = DSUPadData(
        controller: DSUController(
          slot: UInt8.random(in: 0...3, using: &rng), state: 2, model: 2,
          mac: (0..<6).map { _ in UInt8.random(in: 0...255, using: &rng) }),
        packetNumber: UInt32.random(in: 0...UInt32.max, using: &rng),
        motionTimestamp: UInt64.random(in: 0...UInt64.max, using: &rng),
        accelerometer: [f(&rng), f(&rng), f(&rng)], gyroscope: [f(&rng), f(&rng), f(&rng)])
      p.buttons = [UInt8.random(in: 0...255, using: &rng), 3]
      p.touches = [DSUTouch(isActive: true, id: 9, x: 1919, y: 941), DSUTouch()]
      let bytes = DSUPacket(.padData(p), senderID: 1).encoded()
      #expect(checksumMatches(bytes))
      #expect(try DSUPacket.decode(bytes).message == .padData(p))
    }
  }

  @Test("a datagram longer than its length field is cut to it (the CRC covers the cut part)")
  func longerDatagram() throws {
    let d = handBuiltDatagram(magic: "DSUS", sender: 1, type: 0x10_0000, payload: le(UInt16(1001)))
    #expect(try DSUPacket.decode(d + [0xFF, 0xFE, 0xFD]).message == .version(1001))
  }

  @Test("every prefix shorter than the length field is refused, never a crash")
  func truncated() throws {
    let d = DSUPacket(.padData(DSUPadData(controller: DSUController(slot: 0))), senderID: 1)
      .encoded()
    for n in 0..<d.count {
      #expect(throws: DSUPacketError.self) { try DSUPacket.decode(Array(d.prefix(n))) }
      if n >= 20 {
        do {
          _ = try DSUPacket.decode(Array(d.prefix(n)))
        } catch {
          #expect(error.kind == .truncated)
        }
      }
    }
  }

  /// Hostile edits of a valid pad-data datagram (resealed with a correct CRC unless the CRC
  /// is what is broken).
  enum Hostile: String, CaseIterable, Sendable {
    case flippedByte, magic, version, type, shortLength, padLength, nanAccelerometer

    var kind: DSUPacketError.Kind {
      switch self {
      case .flippedByte: return .badChecksum
      case .magic: return .badMagic
      case .version: return .unsupportedVersion
      case .type: return .unknownType
      case .shortLength, .padLength: return .badLength
      case .nanAccelerometer: return .invalidField
      }
    }

    func apply(_ d: [UInt8]) -> [UInt8] {
      var x = d
      switch self {
      case .flippedByte:
        x[60] ^= 0x40
        return x
      case .magic: x.replaceSubrange(0..<4, with: Array("XXXX".utf8))
      case .version: x.replaceSubrange(4..<6, with: le(UInt16(1002)))
      case .type: x.replaceSubrange(16..<20, with: le(UInt32(0x20_0000)))
      case .shortLength: x.replaceSubrange(6..<8, with: le(UInt16(2)))
      case .padLength:
        x.replaceSubrange(6..<8, with: le(UInt16(40)))
        x = Array(x.prefix(56))
      case .nanAccelerometer: x.replaceSubrange(76..<80, with: le(Float.nan))
      }
      return resealed(x)
    }
  }

  @Test("hostile datagrams are refused with the kind of problem", arguments: Hostile.allCases)
  func hostile(edit: Hostile) {
    let d = handBuiltDatagram(
      magic: "DSUS", sender: 3, type: 0x10_0002,
      payload: handBuiltPadPayload(
        slot: 0, mac: mac, packet: 1, timestamp: 5, accel: [0, -1, 0], gyro: [0, 0, 0]))
    do {
      _ = try DSUPacket.decode(edit.apply(d))
      Issue.record("\(edit) was accepted")
    } catch {
      #expect(error.kind == edit.kind, "\(edit): \(error)")
    }
  }

  @Test("a wrong CRC is accepted when checking is off; a port-info count of 5 is refused")
  func leniency() throws {
    var d = DSUPacket(.version(1001), senderID: 1).encoded()
    d[8] ^= 1
    #expect(throws: DSUPacketError.self) { try DSUPacket.decode(d) }
    #expect(try DSUPacket.decode(d, verifyingChecksum: false).message == .version(1001))
    let five = handBuiltDatagram(
      magic: "DSUC", sender: 1, type: 0x10_0001, payload: le(Int32(5)) + [0, 1, 2, 3, 0])
    #expect(throws: DSUPacketError.self) { try DSUPacket.decode(five) }
  }
}

/// Recomputes the CRC by hand, so only the edited field is wrong.
private func resealed(_ d: [UInt8]) -> [UInt8] {
  var x = d
  x.replaceSubrange(8..<12, with: [0, 0, 0, 0])
  x.replaceSubrange(8..<12, with: le(referenceCRC32(x)))
  return x
}
