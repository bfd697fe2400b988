import Foundation
import Glibc
import SwellTestSupport
import Synchronization
import Testing

@testable import SwellSensors

/// A loopback HTTP/1.1 server that keeps connections alive: it answers up to
/// `requestsPerConnection` requests on each connection (body `"answer N"`, numbered across
/// connections, with `Content-Length` and no `Connection: close`), then closes that connection
/// without a word, as a server whose keep-alive timeout ran out does.
private final class KeepAliveServer: Sendable {
  let port: UInt16
  private let accepted = Mutex(0)
  private let served = Mutex(0)
  private let listener: Int32

  var connections: Int { accepted.withLock { $0 } }

  init(requestsPerConnection: Int, connections limit: Int) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let bound = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    try #require(fd >= 0 && bound == 0 && listen(fd, 8) == 0)
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    port = UInt16(bigEndian: actual.sin_port)
    listener = fd
    let thread = Thread { [self] in
      for _ in 0..<limit {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 20_000) == 1 else { break }
        let client = accept(fd, nil, nil)
        guard client >= 0 else { break }
        accepted.withLock { $0 += 1 }
        for _ in 0..<requestsPerConnection {
          guard Self.readRequest(client) else { break }
          let n = served.withLock { v in
            v += 1
            return v
          }
          let body = "answer \(n)"
          let text = "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
          _ = Array(text.utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
        }
        close(client)
      }
      close(fd)
    }
    thread.start()
  }

  /// Reads one request's head; false at end of stream.
  private static func readRequest(_ fd: Int32) -> Bool {
    var data: [UInt8] = []
    var byte: UInt8 = 0
    while !(data.count >= 4 && data.suffix(4).elementsEqual([13, 10, 13, 10])) {
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, 20_000) == 1, recv(fd, &byte, 1, 0) == 1 else { return false }
      data.append(byte)
    }
    return true
  }
}

@Suite("HTTP client of the phyphox source: kept-alive connections, chunked bodies, lookups")
private struct HTTPConnectionTests {
  @Test("polls share one connection while the server keeps it; a closed one is replaced once")
  func keepAlive() throws {
    let server = try KeepAliveServer(requestsPerConnection: 3, connections: 3)
    let connection = HTTPConnection()
    var bodies: [String] = []
    for _ in 0..<7 {
      let r = try connection.get(
        host: "127.0.0.1", port: server.port, path: "/get?accX", timeout: 5, maxBodyBytes: 1000)
      #expect(r.status == 200)
      bodies.append(String(decoding: r.body, as: UTF8.self))
    }
    #expect(bodies == (1...7).map { "answer \($0)" })
    // 7 requests, 3 per connection: three connections, not seven.
    #expect(connection.connectionsOpened == 3)
    #expect(server.connections == 3)
  }

  @Test("a server that says Connection: close gets a new connection for every request")
  func closePerRequest() throws {
    let body = "{}"
    let answer = Array(
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n\(body)".utf8)
    let head = try #require(try HTTPGet.parseHead(answer, maxBodyBytes: 10))
    #expect(!head.keepAlive)
    let kept = try #require(
      try HTTPGet.parseHead(Array("HTTP/1.1 200 OK\r\n\r\n".utf8), maxBodyBytes: 10))
    #expect(kept.keepAlive)
    let old = try #require(
      try HTTPGet.parseHead(Array("HTTP/1.0 200 OK\r\n\r\n".utf8), maxBodyBytes: 10))
    #expect(!old.keepAlive)
  }

  @Test(
    "a chunked body decoded as it arrives equals the body decoded whole (seeded cuts)",
    arguments: [1, 2, 3, 4, 5] as [UInt64])
  func chunkedIncremental(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    var body: [UInt8] = []
    var wire: [UInt8] = []
    for _ in 0..<Int.random(in: 1...60, using: &rng) {
      let size = Int.random(in: 1...700, using: &rng)
      let part = (0..<size).map { _ in UInt8.random(in: 32...126, using: &rng) }
      body += part
      wire += Array(String(size, radix: 16).utf8) + [13, 10] + part + [13, 10]
    }
    wire += Array("0\r\n\r\n".utf8)
    // Arrivals of random lengths, each decoded incrementally.
    var decoder = ChunkedDecoder(maxBytes: 1 << 20)
    var data: [UInt8] = []
    var offset = 0
    var result = HTTPGet.Chunked.incomplete
    while offset < wire.count {
      let n = min(Int.random(in: 1...97, using: &rng), wire.count - offset)
      data += wire[offset..<(offset + n)]
      offset += n
      result = decoder.decode(data, from: 0)
      if offset < wire.count { #expect(result == .incomplete, "at \(offset) of \(wire.count)") }
    }
    #expect(result == .complete(body))
    #expect(decoder.end == wire.count)
    #expect(HTTPGet.decodeChunked(wire[...], maxBytes: 1 << 20) == .complete(body))
  }

  @Test("a name lookup slower than the timeout fails as a timeout at the deadline")
  func lookupTimeout() throws {
    // The lookup is held until the test lets it go: the call must return at its deadline while
    // the lookup is still running (no elapsed time is measured).
    let release = DispatchSemaphore(value: 0)
    let finished = Atomic<Bool>(false)
    defer { release.signal() }
    #expect {
      try HTTPGet.resolve(
        host: "phone.example", port: 8080, deadline: Deadline(seconds: 0.2),
        resolver: { _, _ in
          _ = release.wait(timeout: .now() + 30)
          finished.store(true, ordering: .relaxed)
          return nil
        })
    } throws: { error in
      guard let failure = error as? HTTPFailure, case .timeout(let m) = failure else {
        return false
      }
      return m.contains("cannot resolve 'phone.example' within 0.2 s")
    }
    let lookupEnded = finished.load(ordering: .relaxed)
    #expect(!lookupEnded, "it waited for the lookup to end")
  }

  @Test("numeric addresses need no lookup; an unknown name is a connection failure")
  func numericAndUnknown() throws {
    let v4 = try HTTPGet.resolve(
      host: "127.0.0.1", port: 80, deadline: Deadline(seconds: 1),
      resolver: { _, _ in
        Issue.record("a numeric address went to the resolver")
        return nil
      })
    #expect(v4.first?.family == AF_INET)
    #expect {
      try HTTPGet.resolve(
        host: "no-such-host", port: 80, deadline: Deadline(seconds: 2),
        resolver: { _, _ in nil })
    } throws: { error in
      guard let failure = error as? HTTPFailure, case .connection(let m) = failure else {
        return false
      }
      return m.contains("cannot resolve 'no-such-host'")
    }
  }
}
