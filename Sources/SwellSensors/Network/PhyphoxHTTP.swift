import Dispatch
import Foundation
import Glibc
import SwellMotion
import SwellTime
import Synchronization

/// The address of a phyphox remote-access server: `http://HOST:PORT[/PREFIX]`.
///
/// phyphox serves plain HTTP on the phone's LAN address, port 8080 by default on Android (the
/// app shows the full URL when "Allow remote access" is on; iPhones use port 80).
public struct PhyphoxAddress: Hashable, Sendable, CustomStringConvertible {
  /// The host name or IP address (IPv6 without brackets).
  public var host: String
  /// The TCP port.
  public var port: UInt16
  /// A path prefix before `/get` (usually empty), without a trailing slash.
  public var basePath: String

  /// Creates an address.
  ///
  /// - Parameters:
  ///   - host: The host name or IP address.
  ///   - port: The TCP port.
  ///   - basePath: A path prefix before `/get`, e.g. `""`.
  public init(host: String, port: UInt16 = 8080, basePath: String = "") {
    self.host = host
    self.port = port
    self.basePath = basePath
  }

  /// Parses `http://HOST[:PORT][/PREFIX]`, `HOST[:PORT]` or `[IPv6][:PORT]`; the port defaults
  /// to 8080. A trailing `/` and a trailing `/get…` (a pasted request URL) are dropped.
  ///
  /// - Parameter text: The URL as the phone shows it.
  /// - Throws: ``NetworkSourceError`` naming the problem (https, empty host, bad port).
  public init(parsing text: String) throws(NetworkSourceError) {
    var rest = Substring(text.trimmingWhitespace())
    if rest.lowercased().hasPrefix("https://") {
      throw NetworkSourceError("'\(text)': phyphox serves plain http, not https")
    }
    if rest.lowercased().hasPrefix("http://") { rest = rest.dropFirst(7) }
    let authority = rest.prefix { $0 != "/" && $0 != "?" }
    var path = String(rest.dropFirst(authority.count))
    if let q = path.firstIndex(of: "?") { path = String(path[..<q]) }
    if path.hasSuffix("/get") { path.removeLast(4) }
    while path.hasSuffix("/") { path.removeLast() }
    var hostPart = authority
    var portText: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else {
        throw NetworkSourceError("'\(text)': unclosed '[' in the address")
      }
      hostPart = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else {
          throw NetworkSourceError("'\(text)': expected ':PORT' after ']'")
        }
        portText = after.dropFirst()
      }
    } else if let colon = authority.lastIndex(of: ":") {
      hostPart = authority[..<colon]
      portText = authority[authority.index(after: colon)...]
    }
    guard !hostPart.isEmpty else { throw NetworkSourceError("'\(text)': no host in the address") }
    var port: UInt16 = 8080
    if let portText {
      guard let p = UInt16(portText), p > 0 else {
        throw NetworkSourceError("'\(text)': the port must be 1...65535, got '\(portText)'")
      }
      port = p
    }
    self.init(host: String(hostPart), port: port, basePath: path)
  }

  /// `http://HOST:PORT/PREFIX`.
  public var description: String {
    let h = host.contains(":") ? "[\(host)]" : host
    return "http://\(h):\(port)\(basePath)"
  }
}

extension String {
  fileprivate func trimmingWhitespace() -> String {
    String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }
}

/// An HTTP response: the status code and the body (de-chunked).
struct HTTPResponse: Sendable {
  /// The status code, e.g. 200.
  var status: Int
  /// The reason phrase after the code.
  var reason: String
  /// The body bytes.
  var body: [UInt8]
}

/// Why an HTTP request failed.
enum HTTPFailure: Error, Equatable, Sendable {
  /// The connection could not be made or broke: refused, unreachable, unknown host, reset.
  case connection(String)
  /// No connection or no (complete) answer within the timeout.
  case timeout(String)
  /// The answer was not valid HTTP/1.x or ended early (truncated).
  case malformed(String)
  /// The body exceeded the size limit, bytes.
  case oversized(Int)

  var message: String {
    switch self {
    case .connection(let m), .timeout(let m), .malformed(let m): m
    case .oversized(let limit): "response larger than \(limit) bytes"
    }
  }
}

/// The parts of a minimal HTTP/1.1 GET over a TCP socket: resolve the host and connect within
/// the timeout, send a request, read the status line and headers, then the body by
/// `Content-Length`, by `Transfer-Encoding: chunked`, or to the end of the stream.
///
/// The whole exchange is bounded by `timeout` seconds (measured on the monotonic clock of the
/// socket calls, like a socket option timeout; the name lookup included) and the body by
/// `maxBodyBytes`. ``HTTPConnection`` performs the requests, keeping the connection open
/// between them.
enum HTTPGet {
  static let maxHeaderBytes = 64 * 1024

  /// The request bytes.
  static func request(host: String, port: UInt16, path: String, keepAlive: Bool) -> [UInt8] {
    let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    let text =
      "GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nAccept: application/json\r\n"
      + "User-Agent: swell\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
    return Array(text.utf8)
  }

  /// Resolves a host within the deadline. A numeric address is converted at once; a name is
  /// looked up by `getaddrinfo` on a thread of its own, because the resolver has no timeout of
  /// its own: when the deadline passes first, the lookup is abandoned (it finishes and frees
  /// its result in the background) and the call fails with ``HTTPFailure/timeout(_:)``.
  ///
  /// - Parameters:
  ///   - host: The host name or address.
  ///   - port: The TCP port.
  ///   - deadline: When to give up.
  ///   - resolver: The name lookup (`getaddrinfo`; tests pass a slow one).
  /// - Returns: The addresses, at most 16.
  /// - Throws: ``HTTPFailure/timeout(_:)`` at the deadline, ``HTTPFailure/connection(_:)`` for
  ///   an unknown host.
  static func resolve(
    host: String, port: UInt16, deadline: Deadline,
    resolver: @escaping @Sendable (String, UInt16) -> [ResolvedAddress]? = { host, port in
      lookUp(host: host, port: port, numericOnly: false)
    }
  ) throws(HTTPFailure) -> [ResolvedAddress] {
    if let numeric = lookUp(host: host, port: port, numericOnly: true), !numeric.isEmpty {
      return numeric
    }
    let lookup = PendingLookup()
    let thread = Thread { lookup.finish(resolver(host, port)) }
    thread.start()
    guard let result = lookup.wait(until: deadline) else {
      throw .timeout("cannot resolve '\(host)' within \(deadline.seconds) s")
    }
    guard let addresses = result, !addresses.isEmpty else {
      throw .connection("cannot resolve '\(host)': unknown host")
    }
    return addresses
  }

  /// One `getaddrinfo` call, the answers copied out (`nil` on failure).
  static func lookUp(host: String, port: UInt16, numericOnly: Bool) -> [ResolvedAddress]? {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = numericOnly ? AI_NUMERICHOST | AI_NUMERICSERV : AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
    defer { freeaddrinfo(list) }
    var out: [ResolvedAddress] = []
    var node: UnsafeMutablePointer<addrinfo>? = first
    while let a = node, out.count < 16 {
      node = a.pointee.ai_next
      guard let address = a.pointee.ai_addr else { continue }
      let bytes = UnsafeRawBufferPointer(start: address, count: Int(a.pointee.ai_addrlen))
      out.append(
        ResolvedAddress(
          family: a.pointee.ai_family, socketType: a.pointee.ai_socktype,
          protocolNumber: a.pointee.ai_protocol, address: Array(bytes)))
    }
    return out
  }

  static func connect(host: String, port: UInt16, deadline: Deadline) throws(HTTPFailure)
    -> Int32
  {
    let addresses = try resolve(host: host, port: port, deadline: deadline)
    var lastError = HTTPFailure.connection("cannot connect to \(host):\(port)")
    for a in addresses {
      let fd = socket(
        a.family, a.socketType | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
        a.protocolNumber)
      guard fd >= 0 else {
        lastError = .connection("socket: \(errorText(errno))")
        continue
      }
      var ok =
        a.address.withUnsafeBytes { raw -> Int32 in
          guard let base = raw.baseAddress else { return -1 }
          return Glibc.connect(
            fd, base.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        } == 0
      if !ok && errno == EINPROGRESS {
        let ready = wait(fd, for: Int16(POLLOUT), deadline: deadline)
        if ready == 0 {
          close(fd)
          throw .timeout("no connection to \(host):\(port) within \(deadline.seconds) s")
        }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        if error == 0 {
          ok = true
        } else {
          lastError = .connection("cannot connect to \(host):\(port): \(errorText(error))")
        }
      } else if !ok {
        lastError = .connection("cannot connect to \(host):\(port): \(errorText(errno))")
      }
      if ok { return fd }
      close(fd)
    }
    throw lastError
  }

  /// Polls one descriptor: 1 when ready (or on error/hang-up, so the next call reports it),
  /// 0 at the deadline.
  static func wait(_ fd: Int32, for events: Int16, deadline: Deadline) -> Int {
    while true {
      let ms = deadline.remainingMilliseconds()
      if ms <= 0 { return 0 }
      var p = pollfd(fd: fd, events: events, revents: 0)
      let r = poll(&p, 1, ms)
      if r < 0 && errno == EINTR { continue }
      if r < 0 { return 1 }
      if r == 0 { continue }  // re-check the deadline
      return 1
    }
  }

  static func sendAll(_ fd: Int32, _ bytes: [UInt8], deadline: Deadline)
    throws(HTTPFailure)
  {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if n > 0 {
        offset += n
        continue
      }
      let e = errno
      if n < 0 && (e == EAGAIN || e == EWOULDBLOCK || e == EINTR) {
        if wait(fd, for: Int16(POLLOUT), deadline: deadline) == 0 {
          throw .timeout("sending the request timed out after \(deadline.seconds) s")
        }
        continue
      }
      throw .connection("sending the request failed: \(errorText(e))")
    }
  }

  /// Reads one response. `received` counts the bytes read (0 when the server closed the
  /// connection without a byte: a kept-alive connection it had already closed).
  ///
  /// - Returns: The response, and whether the connection may carry another request (the body
  ///   was delimited, nothing followed it, and the server did not ask to close).
  static func readResponse(
    _ fd: Int32, deadline: Deadline, maxBodyBytes: Int, received: inout Int
  ) throws(HTTPFailure) -> (response: HTTPResponse, reusable: Bool) {
    var data: [UInt8] = []
    var head: Head?
    var chunked = ChunkedDecoder(maxBytes: maxBodyBytes)
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      if let h = head {
        if let length = h.contentLength, data.count - h.bodyStart >= length {
          let response = HTTPResponse(
            status: h.status, reason: h.reason,
            body: Array(data[h.bodyStart..<(h.bodyStart + length)]))
          return (response, h.keepAlive && data.count - h.bodyStart == length)
        }
        if h.chunked {
          switch chunked.decode(data, from: h.bodyStart) {
          case .complete(let body):
            let response = HTTPResponse(status: h.status, reason: h.reason, body: body)
            return (response, h.keepAlive && chunked.end == data.count)
          case .invalid(let why): throw .malformed("bad chunked body: \(why)")
          case .oversized: throw .oversized(maxBodyBytes)
          case .incomplete: break
          }
        } else if data.count - h.bodyStart > maxBodyBytes {
          throw .oversized(maxBodyBytes)
        }
      }
      if wait(fd, for: Int16(POLLIN), deadline: deadline) == 0 {
        throw .timeout("no complete response within \(deadline.seconds) s")
      }
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n < 0 {
        let e = errno
        if e == EAGAIN || e == EWOULDBLOCK || e == EINTR { continue }
        if head == nil || e != ECONNRESET {
          throw .connection("reading the response failed: \(errorText(e))")
        }
      }
      if n <= 0 {
        // End of stream.
        guard let h = head else {
          throw data.isEmpty
            ? .malformed("the server closed the connection without a response")
            : .malformed("the response ended inside its headers")
        }
        if let length = h.contentLength {
          throw .malformed(
            "truncated response: \(data.count - h.bodyStart) of \(length) body bytes")
        }
        if h.chunked { throw .malformed("truncated chunked response") }
        let response = HTTPResponse(
          status: h.status, reason: h.reason, body: Array(data[h.bodyStart...]))
        return (response, false)
      }
      received += n
      let before = data.count
      data += chunk[0..<n]
      if head == nil {
        head = try parseHead(data, maxBodyBytes: maxBodyBytes, searchFrom: max(0, before - 3))
        if head == nil && data.count > maxHeaderBytes {
          throw .malformed("response headers longer than \(maxHeaderBytes) bytes")
        }
      }
    }
  }

  struct Head {
    var status: Int
    var reason: String
    var contentLength: Int?
    var chunked: Bool
    var bodyStart: Int
    /// HTTP/1.1 without `Connection: close`, or HTTP/1.0 with `Connection: keep-alive`.
    var keepAlive = false
  }

  /// Parses the status line and headers once `\r\n\r\n` has arrived; `nil` before.
  ///
  /// - Parameters:
  ///   - data: The bytes so far.
  ///   - maxBodyBytes: A larger `Content-Length` fails with ``HTTPFailure/oversized(_:)``.
  ///   - searchFrom: Where to start looking for the blank line (bytes before it were searched).
  /// - Returns: The head, or `nil` while the blank line has not arrived.
  /// - Throws: ``HTTPFailure/malformed(_:)`` or ``HTTPFailure/oversized(_:)``.
  static func parseHead(_ data: [UInt8], maxBodyBytes: Int, searchFrom: Int = 0)
    throws(HTTPFailure) -> Head?
  {
    let magic = Array("HTTP/".utf8)
    let k = min(magic.count, data.count)
    guard data[0..<k].elementsEqual(magic[0..<k]) else {
      throw .malformed("not an HTTP response")
    }
    guard data.count >= 4 else { return nil }
    var end: Int?
    for i in min(max(searchFrom, 0), data.count - 4)...(data.count - 4)
    where data[i] == 13 && data[i + 1] == 10 && data[i + 2] == 13 && data[i + 3] == 10 {
      end = i
      break
    }
    guard let end else { return nil }
    let text = String(decoding: data[0..<end], as: UTF8.self)
    let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
    let statusLine = lines[0].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
    guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."),
      let status = Int(statusLine[1]), (100...599).contains(status)
    else {
      throw .malformed("bad status line '\(UntrustedText.clipped(lines[0], limit: 80))'")
    }
    var head = Head(
      status: status, reason: statusLine.count > 2 ? String(statusLine[2]) : "",
      contentLength: nil, chunked: false, bodyStart: end + 4)
    var connection = statusLine[0] == "HTTP/1.1" ? "keep-alive" : "close"
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else {
        throw .malformed("bad header line '\(UntrustedText.clipped(line, limit: 80))'")
      }
      let name = line[..<colon].lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters()
      if name == "content-length" {
        guard let n = Int(value), n >= 0 else {
          throw .malformed("bad Content-Length '\(UntrustedText.clipped(value, limit: 40))'")
        }
        if n > maxBodyBytes { throw .oversized(maxBodyBytes) }
        head.contentLength = n
      } else if name == "transfer-encoding" {
        head.chunked = value.lowercased().contains("chunked")
      } else if name == "connection" {
        connection = value.lowercased()
      }
    }
    if head.chunked { head.contentLength = nil }
    head.keepAlive = connection.contains("keep-alive") && !connection.contains("close")
    return head
  }

  enum Chunked: Equatable {
    case complete([UInt8])
    case incomplete
    case invalid(String)
    case oversized
  }

  /// Decodes a whole chunked body (RFC 9112 §7.1) at once (``ChunkedDecoder``).
  static func decodeChunked(_ data: ArraySlice<UInt8>, maxBytes: Int) -> Chunked {
    var decoder = ChunkedDecoder(maxBytes: maxBytes)
    return decoder.decode(Array(data), from: 0)
  }
}

/// An incremental decoder of a chunked body (RFC 9112 §7.1): hex size lines, data, a zero-size
/// last chunk, optional trailers, and the final empty line. Each call continues after the last
/// whole chunk decoded, so a body arriving in many reads is decoded in linear time.
struct ChunkedDecoder {
  /// The most body bytes.
  let maxBytes: Int
  /// The body decoded so far.
  private(set) var body: [UInt8] = []
  /// Where the next chunk starts in the data, once ``decode(_:from:)`` has run (after the
  /// final empty line when complete).
  private(set) var end: Int = -1

  init(maxBytes: Int) { self.maxBytes = maxBytes }

  /// Decodes what `data` holds from `start` (the body's first byte) on, continuing after the
  /// chunks of earlier calls on the same, grown, data.
  mutating func decode(_ data: [UInt8], from start: Int) -> HTTPGet.Chunked {
    if end < 0 { end = start }
    func line(from start: Int) -> (String, Int)? {
      var j = start
      while j + 1 < data.endIndex {
        if data[j] == 13 && data[j + 1] == 10 {
          return (String(decoding: data[start..<j], as: UTF8.self), j + 2)
        }
        j += 1
      }
      return nil
    }
    while true {
      var i = end
      guard let (sizeLine, next) = line(from: i) else {
        return data.endIndex - i > 1024 ? .invalid("chunk size line too long") : .incomplete
      }
      let hex = sizeLine.prefix { $0 != ";" }.trimmingCharacters()
      guard !hex.isEmpty, hex.count <= 15, let size = Int(hex, radix: 16) else {
        return .invalid("bad chunk size '\(UntrustedText.clipped(sizeLine, limit: 20))'")
      }
      i = next
      if size == 0 {
        // Trailers until an empty line.
        while true {
          guard let (trailer, after) = line(from: i) else { return .incomplete }
          i = after
          if trailer.isEmpty {
            end = i
            return .complete(body)
          }
        }
      }
      if body.count + size > maxBytes { return .oversized }
      guard data.endIndex - i >= size + 2 else { return .incomplete }
      guard data[i + size] == 13 && data[i + size + 1] == 10 else {
        return .invalid("missing CRLF after a chunk")
      }
      body += data[i..<(i + size)]
      end = i + size + 2
    }
  }
}

extension StringProtocol {
  fileprivate func trimmingCharacters() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}

/// A deadline on a `MonotonicClock` (the system's, `MonotonicClock.continuous`, by default:
/// the remaining time bounds `poll(2)` and a name lookup, which wait in real time).
struct Deadline {
  let seconds: Double
  private let end: Double
  private let clock: MonotonicClock

  init(seconds: Double, clock: MonotonicClock = .continuous) {
    self.seconds = seconds
    self.clock = clock
    end = clock.now() + max(0, seconds)
  }

  func remainingMilliseconds() -> Int32 {
    let ms = (end - clock.now()) * 1000
    if ms <= 0 { return 0 }
    return Int32(min(ms.rounded(.up), 60_000))
  }
}

/// One address `getaddrinfo` returned, copied out of its list.
struct ResolvedAddress: Sendable {
  var family: Int32
  var socketType: Int32
  var protocolNumber: Int32
  /// The `sockaddr` bytes.
  var address: [UInt8]
}

/// A name lookup running on a thread of its own, waited for with a deadline.
private final class PendingLookup: Sendable {
  private let result = Mutex<[ResolvedAddress]??>(nil)
  private let done = DispatchSemaphore(value: 0)

  func finish(_ addresses: [ResolvedAddress]?) {
    result.withLock { $0 = .some(addresses) }
    done.signal()
  }

  /// The lookup's result (`.some(nil)`: it failed), or `nil` when the deadline came first.
  func wait(until deadline: Deadline) -> [ResolvedAddress]?? {
    let ms = Int(deadline.remainingMilliseconds())
    guard done.wait(timeout: .now() + .milliseconds(ms)) == .success else { return nil }
    return result.withLock { $0 }
  }
}

/// A kept-alive HTTP/1.1 connection to one server, for a client that polls it (phyphox answers
/// up to 20 requests a second): one TCP connection while the server keeps it open, a new one
/// when it closed it. Used from one thread (or serial queue) at a time; the descriptor is closed
/// by ``close()`` or when the connection is released.
final class HTTPConnection: Sendable {
  private let socket = Mutex<Int32>(-1)
  /// Connections opened so far (for statistics and tests).
  var connectionsOpened: Int { opened.withLock { $0 } }
  private let opened = Mutex(0)

  init() {}

  deinit { close() }

  /// Closes the connection (the next request opens a new one).
  func close() {
    let fd = socket.withLock { fd in
      defer { fd = -1 }
      return fd
    }
    if fd >= 0 { Glibc.close(fd) }
  }

  /// Performs one GET, on the open connection when there is one. A kept-alive connection that
  /// the server has closed in the meantime (the request cannot be sent, or the answer is an
  /// immediate end of stream) is replaced by a new one and the request sent again, once.
  ///
  /// - Parameters:
  ///   - host: The host name or IP address.
  ///   - port: The TCP port.
  ///   - path: The request target, starting with `/`, already percent-encoded.
  ///   - timeout: The most seconds for the whole exchange, connecting included.
  ///   - maxBodyBytes: Larger bodies fail with ``HTTPFailure/oversized(_:)``.
  /// - Returns: The response (any status).
  /// - Throws: ``HTTPFailure``.
  func get(host: String, port: UInt16, path: String, timeout: Double, maxBodyBytes: Int)
    throws(HTTPFailure) -> HTTPResponse
  {
    let deadline = Deadline(seconds: timeout)
    let request = HTTPGet.request(host: host, port: port, path: path, keepAlive: true)
    var reused = socket.withLock { $0 } >= 0
    while true {
      var fd = socket.withLock { $0 }
      if fd < 0 {
        fd = try HTTPGet.connect(host: host, port: port, deadline: deadline)
        socket.withLock { $0 = fd }
        opened.withLock { $0 += 1 }
      }
      var received = 0
      do {
        try HTTPGet.sendAll(fd, request, deadline: deadline)
        let (response, reusable) = try HTTPGet.readResponse(
          fd, deadline: deadline, maxBodyBytes: maxBodyBytes, received: &received)
        if !reusable { close() }
        return response
      } catch {
        close()
        let stale: Bool
        switch error {
        case .connection, .malformed: stale = received == 0
        case .timeout, .oversized: stale = false
        }
        guard reused, stale else { throw error }
        reused = false
      }
    }
  }
}
