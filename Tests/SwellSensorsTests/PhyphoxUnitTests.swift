import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

@testable import SwellSensors

@Suite("phyphox parsing, HTTP framing and sensor merging")
private struct PhyphoxUnitTests {
  @Test(
    "addresses as the phone shows them",
    arguments: [
      ("http://192.168.1.20:8080", "192.168.1.20", 8080, ""),
      ("192.168.1.20", "192.168.1.20", 8080, ""),
      ("http://phone.local/", "phone.local", 8080, ""),
      ("HTTP://10.0.0.2:80", "10.0.0.2", 80, ""),
      ("[fe80::1]:9000", "fe80::1", 9000, ""),
      ("http://10.0.0.2:8080/get?accX=full", "10.0.0.2", 8080, ""),
      ("10.0.0.2:8080/proxy/", "10.0.0.2", 8080, "/proxy"),
    ] as [(String, String, Int, String)])
  func address(text: String, host: String, port: Int, base: String) throws {
    let a = try PhyphoxAddress(parsing: text)
    #expect(a.host == host)
    #expect(Int(a.port) == port)
    #expect(a.basePath == base)
  }

  @Test(
    "bad addresses name the problem",
    arguments: [
      ("https://10.0.0.2", "plain http"), ("", "no host"), (":8080", "no host"),
      ("10.0.0.2:0", "1...65535"), ("10.0.0.2:http", "1...65535"), ("[fe80::1", "unclosed"),
    ])
  func badAddress(text: String, reason: String) {
    #expect {
      try PhyphoxAddress(parsing: text)
    } throws: { ($0 as? NetworkSourceError)?.message.contains(reason) == true }
  }

  @Test("buffer names: defaults, a custom list, no magnetometer, bad lists")
  func bufferNames() throws {
    let d = PhyphoxBufferNames()
    #expect(d.accelerometer.all == ["accX", "accY", "accZ", "acc_time"])
    #expect(d.gyroscope.all == ["gyrX", "gyrY", "gyrZ", "gyr_time"])
    #expect(d.magnetometer?.all == ["magX", "magY", "magZ", "mag_time"])
    let c = try PhyphoxBufferNames(parsing: "ax,ay,az,ta;gx,gy,gz,tg;mx,my,mz,tm")
    #expect(c.accelerometer.all == ["ax", "ay", "az", "ta"])
    #expect(c.magnetometer?.all == ["mx", "my", "mz", "tm"])
    #expect(try PhyphoxBufferNames(parsing: "a,b,c,d;e,f,g,h").magnetometer == nil)
    #expect(try PhyphoxBufferNames(parsing: "a,b,c,d;e,f,g,h;none").magnetometer == nil)
    for bad in ["a,b,c,d", "a,b,c;e,f,g,h", "a,b,c,d;e,,g,h", "a,b,c,d;e,f,g,h;i,j;k"] {
      #expect(throws: NetworkSourceError.self) { try PhyphoxBufferNames(parsing: bad) }
    }
  }

  @Test("query encoding keeps unreserved characters and escapes the rest")
  func encoding() {
    #expect(PhyphoxPoller.encode("acc_time") == "acc_time")
    #expect(PhyphoxPoller.encode("1.5|acc_time") == "1.5%7Cacc_time")
    #expect(PhyphoxPoller.encode("a b&c=ü") == "a%20b%26c%3D%C3%BC")
  }

  @Test("chunked bodies: extensions and trailers; incomplete, invalid and oversized ones")
  func chunked() {
    let whole = Array("4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nX-Trailer: 1\r\n\r\n".utf8)
    #expect(HTTPGet.decodeChunked(whole[...], maxBytes: 100) == .complete(Array("Wikipedia".utf8)))
    for cut in [3, 12, 20, whole.count - 1] {
      #expect(HTTPGet.decodeChunked(whole[0..<cut], maxBytes: 100) == .incomplete, "cut \(cut)")
    }
    #expect(HTTPGet.decodeChunked(whole[...], maxBytes: 8) == .oversized)
    let bad = Array("zz\r\nabc\r\n".utf8)
    #expect(HTTPGet.decodeChunked(bad[...], maxBytes: 100) == .invalid("bad chunk size 'zz'"))
    let noCRLF = Array("3\r\nabcX\r\n0\r\n\r\n".utf8)
    #expect(
      HTTPGet.decodeChunked(noCRLF[...], maxBytes: 100) == .invalid("missing CRLF after a chunk"))
  }

  @Test("status line and headers")
  func head() throws {
    let ok = Array("HTTP/1.1 200 OK\r\nContent-Length: 12\r\nX: y\r\n\r\nbody".utf8)
    let h = try #require(try HTTPGet.parseHead(ok, maxBodyBytes: 100))
    #expect(h.status == 200)
    #expect(h.reason == "OK")
    #expect(h.contentLength == 12)
    #expect(h.bodyStart == ok.count - 4)
    #expect(try HTTPGet.parseHead(Array("HTTP/1.1 200 OK\r\n".utf8), maxBodyBytes: 100) == nil)
    #expect(throws: HTTPFailure.oversized(10)) {
      try HTTPGet.parseHead(
        Array("HTTP/1.0 200 OK\r\nContent-Length: 11\r\n\r\n".utf8), maxBodyBytes: 10)
    }
    #expect(throws: HTTPFailure.malformed("not an HTTP response")) {
      try HTTPGet.parseHead(Array("<html>".utf8), maxBodyBytes: 10)
    }
    #expect(throws: HTTPFailure.malformed("bad status line 'HTTP/1.1 OK'")) {
      try HTTPGet.parseHead(Array("HTTP/1.1 OK\r\n\r\n".utf8), maxBodyBytes: 10)
    }
  }

  @Test("a stalled accelerometer is held after the hold limit; gyro readings far before it drop")
  func holdAndUnpaired() {
    var m = PhyphoxMerger(holdLimit: 0.22)
    let acc = stride(from: 0.5, through: 1.0, by: 0.1).map { TimedVector(t: $0, v: accel($0)) }
    let gyr = stride(from: 0.0, through: 1.5, by: 0.05).map { TimedVector(t: $0, v: gyro($0)) }
    m.append(accelerometer: acc, gyroscope: gyr, magnetometer: [])
    let out = m.drain()
    // Readings more than 0.22 s before the first accelerometer reading (t < 0.28) are dropped.
    #expect(m.unpaired == 6)
    let times = out.map(\.timestamp)
    #expect(isApproximatelyEqual(times.first ?? -1, 0.3, absolute: 1e-9))
    // Until 0.22 s before the newest gyro reading (1.5) the last accelerometer value is held.
    #expect(isApproximatelyEqual(times.last ?? -1, 1.25, absolute: 1e-9))
    for s in out {
      let t = min(max(s.timestamp, 0.5), 1.0)
      #expect(isApproximatelyEqual(s.accelerometer, accel(t), tolerance: 1e-9), "\(s)")
    }
  }

  @Test("merging is exact for linear specific force and independent of poll batching")
  func mergeProperty() {
    for seed in UInt64(1)...UInt64(40) {
      var rng = SplitMix64(seed: seed)
      let accRate = Double.random(in: 40...500, using: &rng)
      let gyrRate = Double.random(in: 40...500, using: &rng)
      let start = Double.random(in: 0...100, using: &rng)
      func times(_ rate: Double, from t0: Double, count: Int) -> [Double] {
        var t = t0
        var out: [Double] = []
        for _ in 0..<count {
          out.append(t)
          t += (1 / rate) * Double.random(in: 0.7...1.3, using: &rng)
        }
        return out
      }
      // The accelerometer (at least 4 × 0.7 = 2.8 s) outlasts the gyroscope (at most
      // 0.01 + 2 × 1.3 = 2.61 s): every gyro reading is bracketed.
      let accTimes = times(accRate, from: start, count: Int(accRate * 4))
      let gyrTimes = times(gyrRate, from: start + 0.01, count: Int(gyrRate * 2))
      let acc = accTimes.map { TimedVector(t: $0, v: accel($0)) }
      let gyr = gyrTimes.map { TimedVector(t: $0, v: gyro($0)) }
      // Poll cut times: each poll delivers everything up to its cut (one snapshot).
      var cuts = (0..<Int.random(in: 1...30, using: &rng)).map { _ in
        Double.random(in: start...(start + 3), using: &rng)
      }
      cuts.append(start + 100)
      cuts.sort()
      var batched = PhyphoxMerger(holdLimit: 0.2)
      var got: [IMUSample] = []
      var previous = -Double.infinity
      for cut in cuts {
        batched.append(
          accelerometer: acc.filter { $0.t > previous && $0.t <= cut },
          gyroscope: gyr.filter { $0.t > previous && $0.t <= cut }, magnetometer: [])
        got += batched.drain()
        previous = cut
      }
      var once = PhyphoxMerger(holdLimit: 0.2)
      once.append(accelerometer: acc, gyroscope: gyr, magnetometer: [])
      let all = once.drain()
      #expect(got == all, "seed \(seed)")
      let lastAcc = accTimes.last ?? 0
      let expected = gyrTimes.filter { $0 <= lastAcc }
      #expect(all.map(\.timestamp) == expected, "seed \(seed)")
      for s in all {
        #expect(s.gyroscope == gyro(s.timestamp), "seed \(seed)")
        #expect(
          isApproximatelyEqual(s.accelerometer, accel(s.timestamp), tolerance: 1e-9),
          "seed \(seed): \(s)")
      }
      #expect(batched.outOfOrder == 0 && batched.unpaired == 0, "seed \(seed)")
    }
  }
}
