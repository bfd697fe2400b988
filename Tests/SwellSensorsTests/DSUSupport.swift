import Foundation
import Glibc
import SwellTestSupport
import Testing

/// A bitwise CRC-32 (reflected polynomial 0xEDB88320, as zlib), written from the algorithm's
/// definition, independent of the table-driven one under test.
func referenceCRC32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
  }
  return ~crc
}

/// Little-endian bytes of a number.
func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] {
  (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
}

/// Little-endian bytes of a float.
func le(_ f: Float) -> [UInt8] { le(f.bitPattern) }

/// A DSU datagram built byte by byte from the cemuhook-protocol tables: magic, version 1001,
/// length = bytes after offset 16, CRC-32 over the datagram with the CRC zeroed, sender id,
/// message type, payload.
func handBuiltDatagram(magic: String, sender: UInt32, type: UInt32, payload: [UInt8]) -> [UInt8] {
  var d = Array(magic.utf8) + le(UInt16(1001)) + le(UInt16(4 + payload.count)) + [0, 0, 0, 0]
  d += le(sender) + le(type) + payload
  let crc = referenceCRC32(d)
  d.replaceSubrange(8..<12, with: le(crc))
  return d
}

/// The 80-byte pad-data payload of the protocol's table (offsets after the message type).
func handBuiltPadPayload(
  slot: UInt8, state: UInt8 = 2, mac: [UInt8], connected: UInt8 = 1, packet: UInt32,
  timestamp: UInt64, accel: [Float], gyro: [Float]
) -> [UInt8] {
  var p: [UInt8] = [slot, state, 2, 1] + mac + [0x05]  // 0...10: the shared beginning
  p += [connected] + le(packet)  // 11, 12...15
  p += [0, 0, 0, 0]  // 16...19: buttons, HOME, touch button
  p += [128, 128, 128, 128]  // 20...23: sticks
  p += [UInt8](repeating: 0, count: 12)  // 24...35: analog buttons
  p += [UInt8](repeating: 0, count: 12)  // 36...47: two touches
  p += le(timestamp)  // 48...55
  for f in accel + gyro { p += le(f) }  // 56...79
  return p
}

/// A UDP socket on 127.0.0.1 standing in for a DSU server or client, with a 50 ms receive
/// timeout so every wait is a bounded loop.
final class LoopbackSocket: @unchecked Sendable {
  // @unchecked: the descriptor is immutable; datagram calls on it are thread-safe.
  let fd: Int32
  let port: UInt16

  init(port requested: UInt16 = 0) throws {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    try #require(fd >= 0)
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = requested.bigEndian
    addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let r = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard r == 0 else {
      let why = String(cString: strerror(errno))
      close(fd)
      throw LoopbackError(description: "bind: \(why)")
    }
    var bound = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &bound) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.fd = fd
    port = UInt16(bigEndian: bound.sin_port)
  }

  deinit { close(fd) }

  /// One datagram and its sender's port, or `nil` after the timeout.
  func receive() -> (bytes: [UInt8], port: UInt16)? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var from = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let n = buffer.withUnsafeMutableBytes { b in
      withUnsafeMutablePointer(to: &from) { p in
        p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          recvfrom(fd, b.baseAddress, b.count, 0, $0, &length)
        }
      }
    }
    guard n >= 0 else { return nil }
    return (Array(buffer[0..<n]), UInt16(bigEndian: from.sin_port))
  }

  /// Datagrams received until `condition` holds for one, for at most `seconds`.
  func receive(within seconds: Double, until condition: ([UInt8]) -> Bool) -> (
    bytes: [UInt8], port: UInt16
  )? {
    let deadline = TestDeadline(seconds: seconds)
    while !deadline.hasPassed {
      if let d = receive(), condition(d.bytes) { return d }
    }
    return nil
  }

  /// The first `count` datagrams of a message type, received on a thread of their own (a long
  /// blocking wait must not hold a thread of the test pool the server's task needs).
  func datagrams(ofType type: UInt32, count: Int, within seconds: Double) async -> [[UInt8]] {
    await withCheckedContinuation { c in
      Thread {
        var got: [[UInt8]] = []
        _ = self.receive(within: seconds) { d in
          if messageType(d) == type { got.append(d) }
          return got.count == count
        }
        c.resume(returning: got)
      }.start()
    }
  }

  /// Sends a datagram to 127.0.0.1:`port`.
  func send(_ bytes: [UInt8], to port: UInt16) {
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = port.bigEndian
    addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    _ = withUnsafePointer(to: &addr) { a in
      a.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
        bytes.withUnsafeBytes {
          sendto(fd, $0.baseAddress, $0.count, 0, sa, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
  }
}

/// A loopback socket could not be bound.
struct LoopbackError: Error, CustomStringConvertible {
  var description: String
}

/// The message type of a datagram, read by hand (offset 16, u32 little endian).
func messageType(_ d: [UInt8]) -> UInt32? {
  guard d.count >= 20 else { return nil }
  return (16..<20).reduce(UInt32(0)) { $0 | UInt32(d[$1]) << (8 * UInt32($1 - 16)) }
}

/// A little-endian u32 at an offset.
func u32(_ d: [UInt8], _ at: Int) -> UInt32 {
  (0..<4).reduce(UInt32(0)) { $0 | UInt32(d[at + $1]) << (8 * UInt32($1)) }
}

/// A little-endian float at an offset.
func float(_ d: [UInt8], _ at: Int) -> Float { Float(bitPattern: u32(d, at)) }

/// Whether a datagram's CRC field matches the reference CRC of it with the field zeroed.
func checksumMatches(_ d: [UInt8]) -> Bool {
  guard d.count >= 20 else { return false }
  var z = d
  z.replaceSubrange(8..<12, with: [0, 0, 0, 0])
  return referenceCRC32(z) == u32(d, 8)
}
