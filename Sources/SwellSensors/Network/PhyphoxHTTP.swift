import Glibc
import SwellMotion

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

/// A minimal HTTP/1.1 GET over a TCP socket: connect with a timeout, send one request with
/// `Connection: close`, read the status line and headers, then the body by `Content-Length`,
/// by `Transfer-Encoding: chunked`, or to the end of the stream.
///
/// The whole exchange is bounded by `timeout` seconds (measured on the monotonic clock of the
/// socket calls, like a socket option timeout) and the body by `maxBodyBytes`.
enum HTTPGet {
  static let maxHeaderBytes = 64 * 1024

  /// Performs one GET.
  ///
  /// - Parameters:
  ///   - host: The host name or IP address.
  ///   - port: The TCP port.
  ///   - path: The request target, starting with `/`, already percent-encoded.
  ///   - timeout: The most seconds for connecting plus the whole exchange.
  ///   - maxBodyBytes: Larger bodies fail with ``HTTPFailure/oversized(_:)``.
  /// - Returns: The response (any status).
  /// - Throws: ``HTTPFailure``.
  static func get(
    host: String, port: UInt16, path: String, timeout: Double, maxBodyBytes: Int
  ) throws(HTTPFailure) -> HTTPResponse {
    let deadline = Deadline(seconds: timeout)
    let fd = try connect(host: host, port: port, deadline: deadline)
    defer { close(fd) }
    let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    let request =
      "GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nAccept: application/json\r\n"
      + "User-Agent: swell\r\nConnection: close\r\n\r\n"
    try sendAll(fd, Array(request.utf8), deadline: deadline)
    return try readResponse(fd, deadline: deadline, maxBodyBytes: maxBodyBytes)
  }

  private static func connect(host: String, port: UInt16, deadline: Deadline) throws(HTTPFailure)
    -> Int32
  {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let r = getaddrinfo(host, String(port), &hints, &list)
    guard r == 0, let first = list else {
      let why = gai_strerror(r).map { String(cString: $0) } ?? "error \(r)"
      throw .connection("cannot resolve '\(host)': \(why)")
    }
    defer { freeaddrinfo(list) }
    var lastError = HTTPFailure.connection("cannot connect to \(host):\(port)")
    var node: UnsafeMutablePointer<addrinfo>? = first
    while let a = node {
      node = a.pointee.ai_next
      let fd = socket(
        a.pointee.ai_family,
        a.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
        a.pointee.ai_protocol)
      guard fd >= 0 else {
        lastError = .connection("socket: \(errorText(errno))")
        continue
      }
      var ok = Glibc.connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0
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
  private static func wait(_ fd: Int32, for events: Int16, deadline: Deadline) -> Int {
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

  private static func sendAll(_ fd: Int32, _ bytes: [UInt8], deadline: Deadline)
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

  private static func readResponse(_ fd: Int32, deadline: Deadline, maxBodyBytes: Int)
    throws(HTTPFailure) -> HTTPResponse
  {
    var data: [UInt8] = []
    var head: Head?
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      if let h = head {
        if let length = h.contentLength, data.count - h.bodyStart >= length {
          return HTTPResponse(
            status: h.status, reason: h.reason,
            body: Array(data[h.bodyStart..<(h.bodyStart + length)]))
        }
        if h.chunked {
          switch decodeChunked(data[h.bodyStart...], maxBytes: maxBodyBytes) {
          case .complete(let body):
            return HTTPResponse(status: h.status, reason: h.reason, body: body)
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
        return HTTPResponse(status: h.status, reason: h.reason, body: Array(data[h.bodyStart...]))
      }
      data += chunk[0..<n]
      if head == nil {
        head = try parseHead(data, maxBodyBytes: maxBodyBytes)
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
  }

  /// Parses the status line and headers once `\r\n\r\n` has arrived; `nil` before.
  static func parseHead(_ data: [UInt8], maxBodyBytes: Int) throws(HTTPFailure) -> Head? {
    let magic = Array("HTTP/".utf8)
    let k = min(magic.count, data.count)
    guard data[0..<k].elementsEqual(magic[0..<k]) else {
      throw .malformed("not an HTTP response")
    }
    guard data.count >= 4 else { return nil }
    var end: Int?
    for i in 0...(data.count - 4)
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
      }
    }
    if head.chunked { head.contentLength = nil }
    return head
  }

  enum Chunked: Equatable {
    case complete([UInt8])
    case incomplete
    case invalid(String)
    case oversized
  }

  /// Decodes a chunked body (RFC 9112 §7.1): hex size lines, data, a zero-size last chunk,
  /// optional trailers, and the final empty line.
  static func decodeChunked(_ data: ArraySlice<UInt8>, maxBytes: Int) -> Chunked {
    var body: [UInt8] = []
    var i = data.startIndex
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
          if trailer.isEmpty { return .complete(body) }
        }
      }
      if body.count + size > maxBytes { return .oversized }
      guard data.endIndex - i >= size + 2 else { return .incomplete }
      body += data[i..<(i + size)]
      i += size
      guard data[i] == 13 && data[i + 1] == 10 else {
        return .invalid("missing CRLF after a chunk")
      }
      i += 2
    }
  }
}

extension StringProtocol {
  fileprivate func trimmingCharacters() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}

/// A deadline on the monotonic clock (`CLOCK_MONOTONIC`), for socket timeouts only.
private struct Deadline {
  let seconds: Double
  private let end: Double

  init(seconds: Double) {
    self.seconds = seconds
    end = Deadline.now() + max(0, seconds)
  }

  static func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
  }

  func remainingMilliseconds() -> Int32 {
    let ms = (end - Deadline.now()) * 1000
    if ms <= 0 { return 0 }
    return Int32(min(ms.rounded(.up), 60_000))
  }
}
