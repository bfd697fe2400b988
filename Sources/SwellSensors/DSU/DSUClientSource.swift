import Foundation
import Glibc
import SwellMotion
import SwellTime
import Synchronization

/// Where a ``DSUClientSource`` connects and how it treats what arrives.
public struct DSUClientConfiguration: Hashable, Sendable {
  /// The server's IPv4 address or host name (default 127.0.0.1).
  public var host: String
  /// The server's UDP port (default 26760, cemuhook's).
  public var port: UInt16
  /// The controller slot, 0...3 (default 0).
  public var slot: UInt8
  /// Seconds between re-sent subscriptions (1). Servers drop a client that has not asked
  /// for 5 s (DS4Windows `UdpServer.cs`, `TimeoutLimit = 5`); Dolphin re-sends every 1 s,
  /// Citra and yuzu every 3 s.
  public var resubscribeInterval: Double = 1
  /// Seconds without pad data after which ``DSUClientSource/next()`` throws a transient error
  /// and the client asks again (2).
  public var silenceTimeout: Double = 2
  /// Refuse datagrams whose CRC-32 does not match (true). Every client that matters checks it
  /// (Dolphin `DualShockUDPProto.h` `CheckAndCastTo`, Citra and yuzu `udp_protocol.cpp`
  /// `Validate`), so a server that got it wrong would work with none of them; false accepts
  /// such datagrams anyway, for a home-made server.
  public var verifiesChecksum = true
  /// The most samples held for a consumer that falls behind (4096; older ones are dropped and
  /// counted).
  public var queueCapacity = 4096

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - host: The server's address.
  ///   - port: The server's port.
  ///   - slot: The controller slot, 0...3.
  public init(
    host: String = "127.0.0.1", port: UInt16 = DSUProtocol.defaultPort, slot: UInt8 = 0
  ) {
    self.host = host
    self.port = port
    self.slot = slot
  }
}

/// Counters of a ``DSUClientSource``.
public struct DSUClientStatistics: Hashable, Sendable, Codable {
  /// Datagrams received from the server, including bad ones.
  public var received = 0
  /// Samples delivered.
  public var samples = 0
  /// Datagrams that are not DSU server packets (garbage, truncated, wrong magic or length,
  /// non-finite motion).
  public var malformed = 0
  /// Datagrams whose CRC-32 did not match.
  public var badChecksum = 0
  /// Datagrams larger than the protocol's largest.
  public var oversized = 0
  /// Datagrams from another address than the server's.
  public var foreign = 0
  /// Pad data for another slot.
  public var wrongSlot = 0
  /// Pad data of a slot marked not connected.
  public var unconnected = 0
  /// Pad data repeating the last motion timestamp (skipped).
  public var repeated = 0
  /// Pad data whose motion timestamp went back (a reordered datagram; skipped).
  public var outOfOrder = 0
  /// Times the server's clock restarted (its timestamps jumped).
  public var clockRestarts = 0
  /// Times the server fell silent (each reported once as a transient error).
  public var silences = 0
  /// Version answers.
  public var versionReplies = 0
  /// Port-info answers.
  public var portInfoReplies = 0
  /// Samples dropped because the consumer fell behind.
  public var dropped = 0

  /// Creates zeroed counters.
  public init() {}

  /// One line on what was skipped, or `nil` when nothing was.
  public var skippedSummary: String? {
    let skipped =
      malformed + badChecksum + oversized + foreign + wrongSlot + unconnected + outOfOrder
      + dropped
    guard skipped + silences > 0 else { return nil }
    return "skipped \(malformed) malformed, \(badChecksum) bad-CRC, \(oversized) oversized, "
      + "\(foreign) foreign, \(wrongSlot) other-slot, \(unconnected) unconnected and "
      + "\(outOfOrder) out-of-order datagrams of \(received); \(repeated) repeats, "
      + "\(dropped) samples dropped, \(silences) silences"
  }
}

/// A live motion source reading one controller slot of a DSU (cemuhook) server: DS4Windows,
/// BetterJoy, a phone app, SteamDeckGyroDSU, or `swell serve dsu`.
///
/// A receiver thread sends a version and port-info request and a data subscription for the
/// slot, re-sends the subscription every ``DSUClientConfiguration/resubscribeInterval``, and
/// decodes the pad data into `IMUSample`s (axes: ``DSUMotionAxes``; timestamps: the
/// server's µs motion timestamps mapped onto the local monotonic clock, see `docs/sensors.md`).
/// What real servers send besides is counted in ``statistics`` and skipped: datagrams that
/// are garbage, truncated or oversized, a wrong CRC-32, another slot, a repeated motion
/// timestamp (a server sends one packet per report, and a report without a new accelerometer
/// reading keeps its timestamp), a timestamp going back. Nothing is lost to a server that
/// ignores version requests. A server silent for ``DSUClientConfiguration/silenceTimeout`` is
/// a transient `MotionSourceError`; the client keeps asking and resumes when data returns
/// (a restarted server's new clock starts a new mapping). Memory is bounded by the queue's
/// capacity whatever the server floods.
public final class DSUClientSource: MotionSource {
  /// `dsu:HOST:PORT#SLOT`.
  public let name: String
  /// The configuration.
  public let configuration: DSUClientConfiguration
  /// False: DSU carries no magnetometer.
  public var hasMagnetometer: Bool { false }

  private let server: UDPEndpoint
  private let clock: MonotonicClock
  private let receiver: Mutex<DSUReceiver>

  /// Resolves the server and starts the receiver thread.
  ///
  /// - Parameters:
  ///   - configuration: Server, slot and tolerances.
  ///   - clock: The local clock samples are mapped onto (`MonotonicClock.continuous`).
  /// - Throws: ``NetworkSourceError`` when the host does not resolve, the slot is not 0...3,
  ///   or no socket can be opened.
  public init(configuration: DSUClientConfiguration, clock: MonotonicClock = .continuous)
    throws(NetworkSourceError)
  {
    guard configuration.slot < UInt8(DSUProtocol.slotCount) else {
      throw NetworkSourceError("DSU slot \(configuration.slot) is not 0...3")
    }
    self.configuration = configuration
    self.clock = clock
    name = "dsu:\(configuration.host):\(configuration.port)#\(configuration.slot)"
    server = try UDPEndpoint.resolve(configuration.host, port: configuration.port)
    let r = try DSUReceiver(
      name: name, server: server, configuration: configuration, clock: clock)
    receiver = Mutex(r)
    r.start()
  }

  deinit { receiver.withLock { $0.stop() } }

  /// `dsu:` and the controller's MAC address (`dsu:aa:bb:cc:dd:ee:ff`) once the server has
  /// named it; `nil` before, or when the server sends a zero MAC (no stable identity).
  public var deviceIdentity: String? { receiver.withLock { $0.identity.withLock { $0 } } }

  /// The counters so far (of the current run, after a ``restart()``).
  public var statistics: DSUClientStatistics {
    receiver.withLock { r in
      var s = r.stats.withLock { $0 }
      s.dropped = r.queue.droppedCount
      return s
    }
  }

  /// Returns the next sample, waiting for one.
  ///
  /// - Returns: The next `.sample`, or `nil` once ``stop()`` was called.
  /// - Throws: A transient `MotionSourceError` while the server is silent;
  ///   `CancellationError` when the calling task is cancelled.
  public func next() async throws -> MotionEvent? {
    let r = receiver.withLock { $0 }
    if r.isStopped { return nil }
    let event = try await r.queue.next()
    if event == nil { r.queue.push(.success(nil)) }  // for any other waiter
    return event
  }

  /// Stops receiving and closes the socket; pending and later ``next()`` calls return `nil`.
  public func stop() { receiver.withLock { $0.stop() } }

  /// Opens a new socket and subscribes again after a ``stop()``.
  ///
  /// - Throws: `MotionSourceError` when no socket can be opened.
  public func restart() async throws {
    let fresh: DSUReceiver? = try receiver.withLock { r throws(MotionSourceError) -> DSUReceiver? in
      guard r.isStopped else { return nil }
      do {
        r = try DSUReceiver(
          name: name, server: server, configuration: configuration, clock: clock)
      } catch {
        throw MotionSourceError("\(name): \(error)")
      }
      return r
    }
    fresh?.start()
  }
}

private final class DSUReceiver: Sendable {
  let name: String
  let fd: Int32
  let server: UDPEndpoint
  let configuration: DSUClientConfiguration
  let clock: MonotonicClock
  let queue: EventQueue<MotionEvent?>
  let stats = Mutex(DSUClientStatistics())
  let identity = Mutex<String?>(nil)
  let senderID = UInt32.random(in: 0...UInt32.max)
  private let stopped = Atomic<Bool>(false)

  init(
    name: String, server: UDPEndpoint, configuration: DSUClientConfiguration,
    clock: MonotonicClock
  ) throws(NetworkSourceError) {
    self.name = name
    self.server = server
    self.configuration = configuration
    self.clock = clock
    queue = EventQueue(capacity: configuration.queueCapacity)
    fd = try bindUDP(address: "0.0.0.0", port: 0)
  }

  func start() {
    let thread = Thread { self.run() }
    thread.name = "swell.dsu"
    thread.start()
  }

  var isStopped: Bool { stopped.load(ordering: .acquiring) }

  func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    queue.push(.success(nil))
  }

  private func send(_ message: DSUMessage) {
    sendDatagram(fd, DSUPacket(message, senderID: senderID).encoded(), to: server)
  }

  private func run() {
    defer { close(fd) }
    let c = configuration
    var buffer = [UInt8](repeating: 0, count: DSUProtocol.maximumDatagramSize + 1)
    var mapper = DSUClockMapper()
    var lastTimestamp: UInt64?
    var lastOutput = -Double.infinity
    var nextRequest = clock.now()
    var lastData = nextRequest
    var nextSilence = lastData + c.silenceTimeout
    var askVersion = true
    while !stopped.load(ordering: .acquiring) {
      let now = clock.now()
      if now >= nextRequest {
        if askVersion { send(.versionRequest) }
        askVersion = false
        send(.portInfoRequest(slots: [c.slot]))
        send(.padDataRequest(.slot(c.slot)))
        nextRequest = now + c.resubscribeInterval
      }
      if now - lastData >= c.silenceTimeout && now >= nextSilence {
        stats.withLock { $0.silences += 1 }
        queue.push(
          .failure(
            MotionSourceError(
              "\(name): no data from the server for \(Int(c.silenceTimeout.rounded())) s; "
                + "asking again", isTransient: true)))
        nextSilence = now + c.silenceTimeout
        nextRequest = now
        askVersion = true
      }
      guard let (n, from) = receiveDatagram(fd, into: &buffer) else { continue }
      guard !stopped.load(ordering: .acquiring) else { return }
      guard from == server else {
        stats.withLock { $0.foreign += 1 }
        continue
      }
      stats.withLock { $0.received += 1 }
      guard n <= DSUProtocol.maximumDatagramSize else {
        stats.withLock { $0.oversized += 1 }
        continue
      }
      let packet: DSUPacket
      do {
        packet = try DSUPacket.decode(
          Array(buffer[0..<n]), verifyingChecksum: c.verifiesChecksum)
      } catch {
        stats.withLock {
          if error.kind == .badChecksum { $0.badChecksum += 1 } else { $0.malformed += 1 }
        }
        continue
      }
      switch packet.message {
      case .version: stats.withLock { $0.versionReplies += 1 }
      case .portInfo(let controller):
        stats.withLock { $0.portInfoReplies += 1 }
        if controller.slot == c.slot && controller.isConnected { note(controller) }
      case .padData(let pad):
        guard pad.controller.slot == c.slot else {
          stats.withLock { $0.wrongSlot += 1 }
          continue
        }
        guard pad.isConnected, pad.controller.isConnected else {
          stats.withLock { $0.unconnected += 1 }
          continue
        }
        let arrival = clock.now()
        lastData = arrival
        nextSilence = arrival + c.silenceTimeout
        note(pad.controller)
        if pad.motionTimestamp != 0, pad.motionTimestamp == lastTimestamp {
          stats.withLock { $0.repeated += 1 }
          continue
        }
        let time: Double
        if pad.motionTimestamp == 0 {
          time = arrival  // a server that leaves the timestamp at 0: stamped on arrival
        } else {
          switch mapper.map(microseconds: pad.motionTimestamp, arrival: arrival) {
          case .stale:
            stats.withLock { $0.outOfOrder += 1 }
            continue
          case .time(let t):
            time = t
            stats.withLock { $0.clockRestarts = mapper.restarts }
          }
          lastTimestamp = pad.motionTimestamp
        }
        guard time > lastOutput else {
          stats.withLock { $0.outOfOrder += 1 }
          continue
        }
        lastOutput = time
        let (a, g) = DSUMotionAxes.deviceFrame(
          accelerometer: pad.accelerometer, gyroscope: pad.gyroscope)
        stats.withLock { $0.samples += 1 }
        queue.push(.success(.sample(IMUSample(timestamp: time, gyroscope: g, accelerometer: a))))
      case .versionRequest, .portInfoRequest, .padDataRequest:
        stats.withLock { $0.malformed += 1 }  // a client's packet: not what a server sends
      }
    }
  }

  private func note(_ controller: DSUController) {
    guard controller.mac.contains(where: { $0 != 0 }) else { return }
    let id = "dsu:" + controller.macText
    identity.withLock { $0 = id }
  }
}
