import Foundation
import Glibc
import SwellMotion
import SwellTime
import Synchronization

/// Counters of a network motion source.
public struct PhoneStreamStatistics: Hashable, Sendable {
  /// Datagrams (or HTTP responses) received, including bad ones.
  public var received = 0
  /// Samples delivered to the queue.
  public var samples = 0
  /// Lines that could not be decoded (garbage, truncated JSON, NaN, wrong counts).
  public var malformed = 0
  /// Datagrams dropped because they exceeded the size limit.
  public var oversized = 0
  /// Samples dropped because their timestamp did not increase.
  public var outOfOrder = 0
  /// Samples dropped because their timestamp was implausible (beyond ±1e10 s) or ran far ahead
  /// of the receiver's clock (a wild timestamp never becomes the source's clock).
  public var outliers = 0

  /// Creates zeroed counters.
  public init() {}
}

/// An error setting up a network motion source.
public struct NetworkSourceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A one-line reason naming the address and the failing call.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: The reason.
  public init(_ message: String) { self.message = message }

  /// The reason.
  public var description: String { message }
}

/// A live motion source fed by a phone over UDP: each datagram holds one or more lines of
/// JSON or CSV (see ``PhoneStreamFormat`` and `docs/sensors.md`).
///
/// It listens on 127.0.0.1 unless another IPv4 address is given (`0.0.0.0` for every interface,
/// needed for a phone on the network). A receiver thread decodes datagrams; datagrams larger than
/// the size limit are dropped, bad lines are skipped, and both are counted in ``statistics``.
/// Sample timestamps are the sender's, in seconds; samples whose timestamp does not increase are
/// dropped, and so are samples stamped far ahead of the running clock (more than 5 s beyond the
/// receiver's own elapsed time; counted as ``PhoneStreamStatistics/outliers``), so one wild
/// timestamp cannot stop the stream. ``next()`` returns `nil` after ``stop()``.
public final class UDPMotionSource: MotionSource {
  /// `udp:ADDRESS:PORT`.
  public let name: String
  /// The port actually bound (useful when 0 was asked for).
  public let port: UInt16
  /// The largest datagram accepted, bytes.
  public let maxDatagramBytes: Int

  private let receiver: Receiver

  /// Binds the socket and starts receiving.
  ///
  /// - Parameters:
  ///   - port: The UDP port; 0 picks a free one (see ``port``).
  ///   - address: The IPv4 address to listen on.
  ///   - format: The accepted line format.
  ///   - maxDatagramBytes: Larger datagrams are dropped and counted.
  ///   - clock: The receiver's clock: arrival times that bound how far a sender's timestamp may
  ///     run ahead (`MonotonicClock.continuous` unless a test steps it).
  /// - Throws: ``NetworkSourceError`` when the address is invalid or the port cannot be bound.
  public init(
    port: UInt16, address: String = "127.0.0.1", format: PhoneStreamFormat = .automatic,
    maxDatagramBytes: Int = 65_536, clock: MonotonicClock = .continuous
  ) throws(NetworkSourceError) {
    let fd = try bindUDP(address: address, port: port)
    var bound = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &bound) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.port = UInt16(bigEndian: bound.sin_port)
    self.maxDatagramBytes = max(1, maxDatagramBytes)
    name = "udp:\(address):\(self.port)"
    receiver = Receiver(
      fd: fd, format: format, maxBytes: self.maxDatagramBytes, clock: clock)
    receiver.start()
  }

  deinit { receiver.stop() }

  /// True once a sample with a magnetometer reading has arrived.
  /// False: whether the phone sends a magnetometer is learned from its samples.
  public var sensorsAreKnown: Bool { false }

  /// True once a sample with a magnetometer reading has arrived.
  public var hasMagnetometer: Bool { receiver.sawMagnetometer.load(ordering: .relaxed) }

  /// The counters so far.
  public var statistics: PhoneStreamStatistics { receiver.stats.withLock { $0 } }

  /// Returns the next sample, waiting for one.
  ///
  /// - Returns: The next `.sample`, or `nil` once ``stop()`` was called.
  /// - Throws: `CancellationError` when the calling task is cancelled.
  public func next() async throws -> MotionEvent? {
    if receiver.isStopped { return nil }
    let event = try await receiver.queue.next()
    if event == nil { receiver.queue.push(.success(nil)) }  // for any other waiter
    return event
  }

  /// Stops receiving and closes the socket; pending and later ``next()`` calls return `nil`.
  public func stop() { receiver.stop() }
}

private final class Receiver: Sendable {
  let fd: Int32
  let format: PhoneStreamFormat
  let maxBytes: Int
  let clock: MonotonicClock
  let queue = EventQueue<MotionEvent?>()
  let stats = Mutex(PhoneStreamStatistics())
  let sawMagnetometer = Atomic<Bool>(false)
  private let stopped = Atomic<Bool>(false)

  init(fd: Int32, format: PhoneStreamFormat, maxBytes: Int, clock: MonotonicClock) {
    self.fd = fd
    self.format = format
    self.maxBytes = maxBytes
    self.clock = clock
  }

  func start() {
    let thread = Thread { self.run() }
    thread.name = "swell.udp"
    thread.start()
  }

  var isStopped: Bool { stopped.load(ordering: .acquiring) }

  func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    queue.push(.success(nil))
  }

  private func run() {
    defer { close(fd) }
    var decoder = PhoneStreamDecoder(format: format)
    var gate = TimestampGate()
    var buffer = [UInt8](repeating: 0, count: min(maxBytes, 65_536) + 1)
    while !stopped.load(ordering: .acquiring) {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_TRUNC)) }
      if n < 0 {
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
        return
      }
      guard !stopped.load(ordering: .acquiring) else { return }
      stats.withLock { $0.received += 1 }
      if n > maxBytes || n > buffer.count {
        stats.withLock { $0.oversized += 1 }
        continue
      }
      let text = String(decoding: buffer[0..<n], as: UTF8.self)
      for line in text.split(whereSeparator: \.isNewline)
      where !line.allSatisfy(\.isWhitespace) {
        do {
          guard let sample = try decoder.decode(line) else { continue }
          switch gate.admit(sample.timestamp, arrival: clock.now()) {
          case .accepted: break
          case .outOfOrder:
            stats.withLock { $0.outOfOrder += 1 }
            continue
          case .outlier:
            stats.withLock { $0.outliers += 1 }
            continue
          }
          if sample.magnetometer != nil { sawMagnetometer.store(true, ordering: .relaxed) }
          stats.withLock { $0.samples += 1 }
          queue.push(.success(.sample(sample)))
        } catch {
          stats.withLock { $0.malformed += 1 }
        }
      }
    }
  }
}

/// Opens a UDP socket bound to an IPv4 address, with a 100 ms receive timeout so the receiver
/// thread notices ``UDPMotionSource/stop()`` (the DSU client and server use it too).
func bindUDP(address: String, port: UInt16) throws(NetworkSourceError) -> Int32 {
  var addr = sockaddr_in()
  addr.sin_family = sa_family_t(AF_INET)
  addr.sin_port = port.bigEndian
  let host = address == "localhost" ? "127.0.0.1" : address
  guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else {
    throw NetworkSourceError("'\(address)' is not an IPv4 address")
  }
  let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  guard fd >= 0 else { throw NetworkSourceError("socket: \(errorText(errno))") }
  var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  var size: Int32 = 1 << 20
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
  let r = withUnsafePointer(to: &addr) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard r == 0 else {
    let e = errno
    close(fd)
    throw NetworkSourceError("cannot listen on \(address):\(port): \(errorText(e))")
  }
  return fd
}
