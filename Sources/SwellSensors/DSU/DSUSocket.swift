import Glibc
import SwellMotion

/// An IPv4 UDP endpoint (address and port), hashable so a server can key its clients by it.
struct UDPEndpoint: Hashable, Sendable, CustomStringConvertible {
  /// The address in network byte order, as `sin_addr.s_addr` holds it.
  var address: UInt32
  /// The port.
  var port: UInt16

  init(address: UInt32, port: UInt16) {
    self.address = address
    self.port = port
  }

  init(_ a: sockaddr_in) {
    address = a.sin_addr.s_addr
    port = UInt16(bigEndian: a.sin_port)
  }

  var sockaddr: sockaddr_in {
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_port = port.bigEndian
    a.sin_addr.s_addr = address
    return a
  }

  /// `a.b.c.d:port`.
  var description: String {
    let b = withUnsafeBytes(of: address) { Array($0) }
    return "\(b[0]).\(b[1]).\(b[2]).\(b[3]):\(port)"
  }

  /// Resolves an IPv4 address or a host name (`localhost`) with `getaddrinfo`.
  ///
  /// - Parameters:
  ///   - host: The host.
  ///   - port: The port.
  /// - Returns: The endpoint.
  /// - Throws: ``NetworkSourceError`` naming the host.
  static func resolve(_ host: String, port: UInt16) throws(NetworkSourceError) -> UDPEndpoint {
    var a = in_addr()
    if inet_pton(AF_INET, host, &a) == 1 { return UDPEndpoint(address: a.s_addr, port: port) }
    var hints = addrinfo()
    hints.ai_family = AF_INET
    hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let rc = getaddrinfo(host, nil, &hints, &list)
    defer { if let list { freeaddrinfo(list) } }
    guard rc == 0, let first = list, let raw = first.pointee.ai_addr else {
      let why = rc == 0 ? "no IPv4 address" : String(cString: gai_strerror(rc))
      throw NetworkSourceError("cannot resolve '\(UntrustedText.clipped(host))': \(why)")
    }
    let found = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
    return UDPEndpoint(address: found.sin_addr.s_addr, port: port)
  }
}

/// Sends one datagram (errors are ignored: UDP gives no delivery guarantee anyway).
func sendDatagram(_ fd: Int32, _ bytes: [UInt8], to endpoint: UDPEndpoint) {
  var a = endpoint.sockaddr
  _ = withUnsafePointer(to: &a) { p in
    p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
      bytes.withUnsafeBytes {
        sendto(fd, $0.baseAddress, $0.count, 0, sa, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }
}

/// Receives one datagram into `buffer` (waiting at most the socket's receive timeout).
///
/// - Returns: The datagram's full length (it may exceed the buffer: `MSG_TRUNC`) and its
///   sender, or `nil` on a timeout or an error.
func receiveDatagram(_ fd: Int32, into buffer: inout [UInt8]) -> (count: Int, from: UDPEndpoint)? {
  var from = sockaddr_in()
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let n = buffer.withUnsafeMutableBytes { b in
    withUnsafeMutablePointer(to: &from) { p in
      p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        recvfrom(fd, b.baseAddress, b.count, Int32(MSG_TRUNC), $0, &length)
      }
    }
  }
  guard n >= 0 else { return nil }
  return (n, UDPEndpoint(from))
}

/// The port a socket is bound to.
func boundPort(_ fd: Int32) -> UInt16 {
  var bound = sockaddr_in()
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafeMutablePointer(to: &bound) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
  }
  return UInt16(bigEndian: bound.sin_port)
}
