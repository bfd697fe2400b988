import Foundation
import Glibc
import Synchronization

/// A tiny HTTP server on 127.0.0.1 for tests: one thread, one listening socket on a free port,
/// serving a fixed script of answers in order, one per connection.
///
/// For each connection it reads the request head (up to `\r\n\r\n`, at most 64 KiB), records
/// the request target, writes the scripted bytes and closes. It is bounded: it waits at most
/// `acceptTimeout` seconds for each connection, and when the script is done (or a wait runs out)
/// it closes the listening socket, so later connections are refused. It never waits for the
/// test; ``waitUntilFinished()`` joins it.
public final class ScriptedHTTPServer: Sendable {
  /// One scripted answer.
  public enum Answer: Sendable {
    /// These exact bytes, then close.
    case raw([UInt8])
    /// Read the request, then close without a byte.
    case close
    /// Read the request and keep the connection open without answering for this many seconds.
    case silence(Double)
  }

  /// The port the server listens on.
  public let port: UInt16
  private let targets = Mutex<[String]>([])
  private let finished = DispatchSemaphore(value: 0)

  /// Starts the server thread.
  ///
  /// - Parameters:
  ///   - answers: The answers, in connection order.
  ///   - acceptTimeout: The most seconds to wait for each next connection.
  /// - Throws: `POSIXError` when the socket cannot be set up.
  public init(_ answers: [Answer], acceptTimeout: Double = 20) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = 0
    addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let bound = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    port = UInt16(bigEndian: actual.sin_port)
    let finished = self.finished
    let thread = Thread { [self] in
      defer {
        close(fd)
        finished.signal()
      }
      for answer in answers {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(acceptTimeout * 1000)) == 1 else { return }
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let target = ScriptedHTTPServer.readRequestTarget(client)
        self.targets.withLock { $0.append(target) }
        switch answer {
        case .raw(let bytes):
          var offset = 0
          while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes {
              send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { break }
            offset += n
          }
        case .close: break
        case .silence(let seconds): usleep(UInt32(seconds * 1e6))
        }
        shutdown(client, Int32(SHUT_WR))
        close(client)
      }
    }
    thread.start()
  }

  /// The request targets received so far (e.g. `/get?accX=…`), in order.
  public var requestTargets: [String] { targets.withLock { $0 } }

  /// Waits until the script is done and the listening socket closed.
  public func waitUntilFinished() { finished.wait() }

  private static func readRequestTarget(_ fd: Int32) -> String {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while data.count < 65_536 {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { break }
      data += buffer[0..<n]
      if data.count >= 4 && data.suffix(4).elementsEqual([13, 10, 13, 10]) { break }
    }
    let line = String(decoding: data.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
    let parts = line.split(separator: " ")
    return parts.count >= 2 ? String(parts[1]) : line
  }

  /// An HTTP/1.1 answer with a `Content-Length` header.
  ///
  /// - Parameters:
  ///   - status: The status code.
  ///   - reason: The reason phrase.
  ///   - body: The body text.
  ///   - contentType: The `Content-Type`.
  /// - Returns: The answer.
  public static func response(
    status: Int = 200, reason: String = "OK", body: String,
    contentType: String = "application/json"
  ) -> Answer {
    let bytes = Array(body.utf8)
    let head =
      "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\n"
      + "Content-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
    return .raw(Array(head.utf8) + bytes)
  }

  /// An HTTP/1.1 200 answer with `Transfer-Encoding: chunked`, the body cut into chunks.
  ///
  /// - Parameters:
  ///   - body: The body text.
  ///   - chunkSize: Bytes per chunk.
  /// - Returns: The answer.
  public static func chunkedResponse(body: String, chunkSize: Int) -> Answer {
    var out = Array(
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        .utf8)
    let bytes = Array(body.utf8)
    var i = 0
    while i < bytes.count {
      let n = min(max(1, chunkSize), bytes.count - i)
      out += Array((String(n, radix: 16) + "\r\n").utf8) + bytes[i..<(i + n)] + [13, 10]
      i += n
    }
    out += Array("0\r\n\r\n".utf8)
    return .raw(out)
  }
}
