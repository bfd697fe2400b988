import Foundation
import Glibc
import SwellGeometry
import SwellMotion
import SwellTime
import Synchronization

/// Where a ``DSUServer`` listens and how it treats its clients.
public struct DSUServerConfiguration: Hashable, Sendable {
  /// The IPv4 address to listen on (default 127.0.0.1; 0.0.0.0 for every interface).
  public var address: String
  /// The UDP port (default 26760; 0 picks a free one).
  public var port: UInt16
  /// Seconds a subscription lasts without being asked again (5, DS4Windows `UdpServer.cs`
  /// `TimeoutLimit`; cemuhook-protocol: "implement some kind of timeout").
  public var clientTimeout: Double = 5
  /// The most clients served at once (16); a new one beyond replaces the least recent.
  public var maximumClients = 16
  /// Refuse requests whose CRC-32 does not match (true, as DS4Windows does).
  public var verifiesChecksum = true
  /// The MAC address reported for slot 0 (6 bytes); `nil` derives a stable, locally
  /// administered one (first byte 0x02) from the source's name.
  public var mac: [UInt8]?

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - address: The IPv4 address to listen on.
  ///   - port: The UDP port.
  public init(address: String = "127.0.0.1", port: UInt16 = DSUProtocol.defaultPort) {
    self.address = address
    self.port = port
  }
}

/// Counters of a ``DSUServer``.
public struct DSUServerStatistics: Hashable, Sendable, Codable {
  /// Datagrams received, including bad ones.
  public var received = 0
  /// Version requests answered.
  public var versionRequests = 0
  /// Port-info requests answered.
  public var portInfoRequests = 0
  /// Data subscriptions (and renewals) for slot 0.
  public var subscriptions = 0
  /// Subscriptions for a slot or MAC address the server does not serve (ignored, as the
  /// protocol asks).
  public var ignoredSubscriptions = 0
  /// Datagrams that are not DSU client packets.
  public var malformed = 0
  /// Datagrams whose CRC-32 did not match.
  public var badChecksum = 0
  /// Motion events read from the source.
  public var events = 0
  /// Pad-data datagrams sent (one per event and client).
  public var sent = 0
  /// Clients dropped because their subscription timed out (or the client table was full).
  public var expiredClients = 0

  /// Creates zeroed counters.
  public init() {}
}

/// A DSU (cemuhook) server serving one `MotionSource` as the controller in slot 0, so that
/// emulators (Dolphin, Cemu, Citra, yuzu) and other DSU clients can use a Linux tablet's
/// sensors, a recording or a script.
///
/// A receiver thread answers version requests (1001), port-info requests (slot 0 connected,
/// full gyroscope; slots 1...3 not connected) and data subscriptions (all controllers, slot 0,
/// or slot 0's MAC), each client's kept for ``DSUServerConfiguration/clientTimeout``. ``run()``
/// pulls the source and sends one pad-data datagram per event to every subscribed client, with
/// a per-client packet number, the event's time as the µs motion timestamp (from 1 µs at the
/// first event, always increasing), and its motion in DSU's units and axes
/// (``DSUMotionAxes/dsu(specificForce:rotationRate:)``). Device motion (a script, a
/// device-motion recording) has no raw sample: its specific force is (userAcceleration −
/// gravity) · g₀ and its rotation rate the bias-corrected one
/// (``DSUMotionAxes/rawEquivalent(of:)``).
public final class DSUServer: Sendable {
  /// The port actually bound.
  public let port: UInt16
  /// The address listened on.
  public let address: String
  /// What slot 0 reports: connected, full gyroscope, the MAC address.
  public let controller: DSUController

  private let source: any MotionSource
  private let fd: Int32
  private let configuration: DSUServerConfiguration
  private let pacing: MonotonicClock?
  private let clock: MonotonicClock
  private let serverID = UInt32.random(in: 0...UInt32.max)
  private let clients = Mutex<[UDPEndpoint: DSUServerClient]>([:])
  private let stats = Mutex(DSUServerStatistics())
  private let stopped = Atomic<Bool>(false)
  private let receiverDone = DispatchSemaphore(value: 0)

  /// Binds the socket and starts answering requests.
  ///
  /// - Parameters:
  ///   - source: The motion served.
  ///   - configuration: Address, port, timeouts.
  ///   - pacing: For a source that does not pace itself (a recording, a script), the clock
  ///     its events are sent on at their recorded times; `nil` for a live source.
  ///   - clock: The clock subscriptions time out on (`MonotonicClock.continuous`).
  /// - Throws: ``NetworkSourceError`` when the address is invalid or the port cannot be bound.
  public init(
    source: any MotionSource, configuration: DSUServerConfiguration = DSUServerConfiguration(),
    pacing: MonotonicClock? = nil, clock: MonotonicClock = .continuous
  ) throws(NetworkSourceError) {
    self.source = source
    self.configuration = configuration
    self.pacing = pacing
    self.clock = clock
    fd = try bindUDP(address: configuration.address, port: configuration.port)
    port = boundPort(fd)
    address = configuration.address
    controller = DSUController(
      slot: 0, state: DSUProtocol.stateConnected, model: DSUProtocol.modelFullGyro,
      mac: configuration.mac ?? Self.derivedMAC(source.name))
    let thread = Thread { [self] in
      defer { receiverDone.signal() }
      receive()
    }
    thread.name = "swell.dsu-server"
    thread.start()
  }

  deinit {
    stopped.store(true, ordering: .releasing)
    receiverDone.wait()
    close(fd)
  }

  /// The counters so far.
  public var statistics: DSUServerStatistics { stats.withLock { $0 } }

  /// The number of clients subscribed now.
  public var clientCount: Int {
    let now = clock.now()
    return clients.withLock { $0.values.filter { $0.isSubscribed(at: now, timeout: timeout) } }
      .count
  }

  private var timeout: Double { configuration.clientTimeout }

  /// Serves the source until it ends or ``stop()`` is called.
  ///
  /// Transient source errors (a sensor that went away) are waited out (0.5 s) and serving goes
  /// on.
  ///
  /// - Throws: A non-transient source error, or `CancellationError`.
  public func run() async throws {
    var first: Double?
    var origin: Double?
    var lastMicroseconds: UInt64 = 0
    while !stopped.load(ordering: .acquiring) {
      let event: MotionEvent?
      do {
        event = try await source.next()
      } catch let e as MotionSourceError where e.isTransient {
        try await clock.sleep(until: clock.now() + 0.5)
        continue
      }
      guard let event, !stopped.load(ordering: .acquiring) else { return }
      stats.withLock { $0.events += 1 }
      let t = event.timestamp
      let t0 = first ?? t
      first = t0
      if let pacing {
        let start = origin ?? pacing.now()
        origin = start
        try await pacing.sleep(until: start + (t - t0))
      }
      let elapsed = max(0, t - t0) * 1e6
      let micros = max(
        lastMicroseconds + 1, elapsed < 1e15 ? UInt64(elapsed.rounded()) + 1 : lastMicroseconds + 1)
      lastMicroseconds = micros
      send(event, microseconds: micros)
    }
  }

  /// Stops serving: ``run()`` returns, the source is stopped, the receiver thread ends and the
  /// socket closes when the server is released (the receiver thread holds the server until
  /// then, so a server is stopped before it is let go).
  public func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let source = self.source
    Task { await source.stop() }
  }

  private func send(_ event: MotionEvent, microseconds: UInt64) {
    let force: Vector3
    let rate: Vector3
    switch event {
    case .sample(let s): (force, rate) = (s.accelerometer, s.gyroscope)
    case .deviceMotion(let m): (force, rate) = DSUMotionAxes.rawEquivalent(of: m)
    }
    let (a, g) = DSUMotionAxes.dsu(specificForce: force, rotationRate: rate)
    let now = clock.now()
    let targets: [(UDPEndpoint, UInt32)] = clients.withLock { table in
      var out: [(UDPEndpoint, UInt32)] = []
      for (endpoint, var client) in table where client.isSubscribed(at: now, timeout: timeout) {
        client.packetNumber &+= 1
        table[endpoint] = client
        out.append((endpoint, client.packetNumber))
      }
      return out
    }
    for (endpoint, number) in targets {
      let pad = DSUPadData(
        controller: controller, isConnected: true, packetNumber: number,
        motionTimestamp: microseconds, accelerometer: a, gyroscope: g)
      sendDatagram(fd, DSUPacket(.padData(pad), senderID: serverID).encoded(), to: endpoint)
    }
    if !targets.isEmpty { stats.withLock { $0.sent += targets.count } }
  }

  private func reply(_ message: DSUMessage, to endpoint: UDPEndpoint) {
    sendDatagram(fd, DSUPacket(message, senderID: serverID).encoded(), to: endpoint)
  }

  private func receive() {
    var buffer = [UInt8](repeating: 0, count: DSUProtocol.maximumDatagramSize + 1)
    while !stopped.load(ordering: .acquiring) {
      guard let (n, from) = receiveDatagram(fd, into: &buffer) else { continue }
      stats.withLock { $0.received += 1 }
      let packet: DSUPacket
      do throws(DSUPacketError) {
        guard n <= DSUProtocol.maximumDatagramSize else {
          throw DSUPacketError(.truncated, "oversized")
        }
        packet = try DSUPacket.decode(
          Array(buffer[0..<n]), verifyingChecksum: configuration.verifiesChecksum)
      } catch {
        stats.withLock {
          if error.kind == .badChecksum { $0.badChecksum += 1 } else { $0.malformed += 1 }
        }
        continue
      }
      handle(packet.message, from: from)
    }
  }

  private func handle(_ message: DSUMessage, from: UDPEndpoint) {
    switch message {
    case .versionRequest:
      stats.withLock { $0.versionRequests += 1 }
      reply(.version(DSUProtocol.version), to: from)
    case .portInfoRequest(let slots):
      stats.withLock { $0.portInfoRequests += 1 }
      for slot in slots where slot < UInt8(DSUProtocol.slotCount) {
        reply(.portInfo(slot == 0 ? controller : DSUController(slot: slot)), to: from)
      }
    case .padDataRequest(let subscription):
      switch subscription {
      case .all, .slot(0): break
      case .mac(let mac) where mac == controller.mac: break
      case .slot, .mac:
        stats.withLock { $0.ignoredSubscriptions += 1 }
        return
      }
      let now = clock.now()
      let expired: Int = clients.withLock { table in
        let before = table.count
        table = table.filter { $0.value.isSubscribed(at: now, timeout: timeout) }
        var removed = before - table.count
        if table[from] == nil && table.count >= max(1, configuration.maximumClients),
          let oldest = table.min(by: { $0.value.lastRequest < $1.value.lastRequest })?.key
        {
          table[oldest] = nil
          removed += 1
        }
        table[from, default: DSUServerClient()].lastRequest = now
        return removed
      }
      stats.withLock {
        $0.subscriptions += 1
        $0.expiredClients += expired
      }
    case .version, .portInfo, .padData:
      stats.withLock { $0.malformed += 1 }  // a server's message sent to the server
    }
  }

  /// A locally administered MAC address (0x02 first) from an FNV-1a hash of a name, so the
  /// same source is the same device to an emulator from run to run.
  static func derivedMAC(_ name: String) -> [UInt8] {
    var h: UInt32 = 0x811C_9DC5
    for b in name.utf8 {
      h ^= UInt32(b)
      h = h &* 0x0100_0193
    }
    return [
      0x02, 0x53, UInt8(h >> 24), UInt8((h >> 16) & 0xFF), UInt8((h >> 8) & 0xFF),
      UInt8(h & 0xFF),
    ]
  }
}

/// One client's subscription.
private struct DSUServerClient: Sendable {
  var lastRequest = -Double.infinity
  var packetNumber: UInt32 = 0

  func isSubscribed(at now: Double, timeout: Double) -> Bool { now - lastRequest < timeout }
}
