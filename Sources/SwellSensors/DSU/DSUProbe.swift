import Foundation
import Glibc
import SwellTime

/// One slot a DSU server reported, for `swell sensors`.
public struct DSUProbeSlot: Hashable, Sendable, Codable {
  /// The slot, 0...3.
  public var slot: Int
  /// Whether a controller is connected there.
  public var connected: Bool
  /// The device model in words ("full gyroscope").
  public var model: String
  /// "USB", "Bluetooth" or "not applicable".
  public var connection: String
  /// The MAC address, `aa:bb:cc:dd:ee:ff`.
  public var mac: String
  /// The battery in words ("full", "charging").
  public var battery: String
}

/// What a DSU server answered a probe: its protocol version and its slots.
public struct DSUProbeReport: Hashable, Sendable, Codable {
  /// `HOST:PORT`.
  public var server: String
  /// Whether anything valid came back.
  public var reachable: Bool
  /// The version the server answered, or `nil` (many servers ignore version requests:
  /// cemuhook-protocol, "doesn't seem to be ever requested").
  public var protocolVersion: Int?
  /// The slots it reported, in slot order (each once).
  public var slots: [DSUProbeSlot]
  /// Why nothing came back, or `nil`.
  public var problem: String?

  /// The connected slots.
  public var connectedSlots: [DSUProbeSlot] { slots.filter(\.connected) }
}

/// Asks a DSU server what it serves: the doctor's check of a DSU stream.
public enum DSUProbe {
  /// Sends a version request and a port-info request for the 4 slots and collects the answers
  /// for `timeout` seconds (or until all 4 slots answered).
  ///
  /// - Parameters:
  ///   - host: The server's address (default 127.0.0.1).
  ///   - port: Its port (default 26760).
  ///   - timeout: Seconds to wait, at most (default 0.5).
  /// - Returns: The report; a server that does not answer is `reachable == false` with the
  ///   problem in words, never an error.
  public static func query(
    host: String = "127.0.0.1", port: UInt16 = DSUProtocol.defaultPort, timeout: Double = 0.5
  ) -> DSUProbeReport {
    var report = DSUProbeReport(
      server: "\(host):\(port)", reachable: false, protocolVersion: nil, slots: [], problem: nil)
    let endpoint: UDPEndpoint
    let fd: Int32
    do {
      endpoint = try UDPEndpoint.resolve(host, port: port)
      fd = try bindUDP(address: "0.0.0.0", port: 0)
    } catch {
      report.problem = error.message
      return report
    }
    defer { close(fd) }
    let id = UInt32.random(in: 0...UInt32.max)
    sendDatagram(fd, DSUPacket(.versionRequest, senderID: id).encoded(), to: endpoint)
    sendDatagram(
      fd, DSUPacket(.portInfoRequest(slots: [0, 1, 2, 3]), senderID: id).encoded(), to: endpoint)
    let clock = MonotonicClock.continuous
    let deadline = clock.now() + max(0.01, min(timeout, 30))
    var buffer = [UInt8](repeating: 0, count: DSUProtocol.maximumDatagramSize + 1)
    var slots: [Int: DSUProbeSlot] = [:]
    while clock.now() < deadline && slots.count < DSUProtocol.slotCount {
      guard let (n, from) = receiveDatagram(fd, into: &buffer), from == endpoint,
        n <= DSUProtocol.maximumDatagramSize,
        let packet = try? DSUPacket.decode(Array(buffer[0..<n]))
      else { continue }
      switch packet.message {
      case .version(let v):
        report.reachable = true
        report.protocolVersion = Int(v)
      case .portInfo(let c) where Int(c.slot) < DSUProtocol.slotCount:
        report.reachable = true
        slots[Int(c.slot)] = DSUProbeSlot(
          slot: Int(c.slot), connected: c.isConnected, model: c.modelText,
          connection: c.connection == 1
            ? "USB" : c.connection == 2 ? "Bluetooth" : "not applicable",
          mac: c.macText, battery: c.batteryText)
      default: break
      }
    }
    report.slots = slots.keys.sorted().compactMap { slots[$0] }
    if !report.reachable {
      report.problem =
        "no DSU server answered at \(host):\(port) within \(timeout) s (start one, e.g. "
        + "DS4Windows, BetterJoy or `swell serve dsu`)"
    }
    return report
  }
}
