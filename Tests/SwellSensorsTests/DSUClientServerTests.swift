import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import SwellTime
import Testing

@testable import SwellSensors

private let mac: [UInt8] = [0xA0, 0x5A, 0x5D, 0x11, 0x22, 0x33]

/// Pad data for a slot, built by hand, as a fake server sends it.
private func pad(
  slot: UInt8 = 0, state: UInt8 = 2, connected: UInt8 = 1, packet: UInt32, timestamp: UInt64,
  accel: [Float] = [0, -1, 0], gyro: [Float] = [0, 0, 0]
) -> [UInt8] {
  handBuiltDatagram(
    magic: "DSUS", sender: 99, type: 0x10_0002,
    payload: handBuiltPadPayload(
      slot: slot, state: state, mac: mac, connected: connected, packet: packet,
      timestamp: timestamp, accel: accel, gyro: gyro))
}

/// Waits for the client's data subscription; returns the client's port.
private func awaitSubscription(_ server: LoopbackSocket) throws -> UInt16 {
  let r = server.receive(within: 60) { messageType($0) == 0x10_0002 && $0.count >= 28 }
  return try #require(r, "no subscription arrived").port
}

/// The next `count` events (errors included), each waited for at most 10 s.
private func collect(_ source: DSUClientSource, _ count: Int) async -> [Result<
  IMUSample, any Error
>] {
  var out: [Result<IMUSample, any Error>] = []
  while out.count < count {
    do {
      guard let e = try await source.next() else { break }
      if case .sample(let s) = e { out.append(.success(s)) }
    } catch {
      out.append(.failure(error))
    }
  }
  return out
}

/// The next `count` samples, skipping transient errors (a silent server reports one every
/// 0.5 s, so the wait ends), for at most `seconds` of wall clock: generous, because a busy test
/// pool can starve a test for long.
private func receivedSamples(
  from source: DSUClientSource, _ count: Int, within seconds: Double = 120
)
  async -> [IMUSample]
{
  let deadline = TestDeadline(seconds: seconds)
  var got: [IMUSample] = []
  while got.count < count && !deadline.hasPassed {
    if case .success(let s) = await collect(source, 1).first { got.append(s) }
  }
  return got
}

private func fastConfiguration(port: UInt16, slot: UInt8 = 0) -> DSUClientConfiguration {
  var c = DSUClientConfiguration(host: "127.0.0.1", port: port, slot: slot)
  c.resubscribeInterval = 0.1
  c.silenceTimeout = 0.5
  return c
}

@Suite("DSU client against a scripted server on loopback")
private struct DSUClientTests {
  @Test("asks for the version, the slot's port info and its data, each a valid DSUC packet")
  func requests() throws {
    let server = try LoopbackSocket()
    let client = try DSUClientSource(configuration: fastConfiguration(port: server.port, slot: 2))
    defer { client.stop() }
    var seen: Set<UInt32> = []
    _ = server.receive(within: 60) { d in
      #expect(Array(d.prefix(4)) == Array("DSUC".utf8))
      #expect(checksumMatches(d))
      if let t = messageType(d) { seen.insert(t) }
      if messageType(d) == 0x10_0001 { #expect(u32(d, 20) == 1 && d[24] == 2) }
      if messageType(d) == 0x10_0002 { #expect(d[20] == 1 && d[21] == 2) }
      return seen.count == 3
    }
    #expect(seen == [0x10_0000, 0x10_0001, 0x10_0002])
  }

  @Test("delivers pad data in Swell's frame, skips and counts what real servers get wrong")
  func hostile() async throws {
    let server = try LoopbackSocket()
    let client = try DSUClientSource(configuration: fastConfiguration(port: server.port))
    defer { client.stop() }
    let port = try awaitSubscription(server)
    var badCRC = pad(packet: 2, timestamp: 2_000)
    badCRC[70] ^= 0x01
    let good = pad(packet: 1, timestamp: 1_000, accel: [0.5, -0.5, 0.25], gyro: [90, 0, 0])
    let datagrams: [[UInt8]] = [
      Array("not a DSU packet at all".utf8),  // garbage
      badCRC,  // a wrong CRC
      Array(good.prefix(57)),  // truncated (a server going away mid-send)
      pad(slot: 1, packet: 3, timestamp: 3_000),  // another slot
      pad(state: 0, connected: 0, packet: 4, timestamp: 4_000),  // not connected
      DSUPacket(.versionRequest, senderID: 5).encoded(),  // a client's packet
      good,
      pad(packet: 6, timestamp: 1_000),  // the same motion timestamp again
      pad(packet: 7, timestamp: 500),  // reordered
      pad(packet: 8, timestamp: 5_000, accel: [0, -1, 0], gyro: [0, 0, 45]),
    ]
    for d in datagrams { server.send(d, to: port) }
    let samples = await receivedSamples(from: client, 2)
    #expect(samples.count == 2)
    let g0 = 9.806_65
    #expect((samples[0].accelerometer - Vector3(-0.5 * g0, 0.25 * g0, 0.5 * g0)).length < 1e-6)
    #expect((samples[0].gyroscope - Vector3(Double.pi / 2, 0, 0)).length < 1e-6)
    #expect((samples[1].gyroscope - Vector3(0, Double.pi / 4, 0)).length < 1e-6)
    #expect(samples[1].timestamp > samples[0].timestamp)
    let s = client.statistics
    #expect(s.malformed == 3, "\(s)")
    #expect(s.badChecksum == 1 && s.wrongSlot == 1 && s.unconnected == 1)
    #expect(s.repeated == 1 && s.outOfOrder == 1 && s.samples == 2)
    #expect(client.deviceIdentity == "dsu:a0:5a:5d:11:22:33")
    #expect(s.skippedSummary != nil)
  }

  @Test("with checking off, a wrong CRC is accepted")
  func lenient() async throws {
    let server = try LoopbackSocket()
    var c = fastConfiguration(port: server.port)
    c.verifiesChecksum = false
    let client = try DSUClientSource(configuration: c)
    defer { client.stop() }
    let port = try awaitSubscription(server)
    var d = pad(packet: 1, timestamp: 1_000)
    d[8] ^= 0xFF
    server.send(d, to: port)
    let samples = await receivedSamples(from: client, 1)
    #expect(samples.count == 1 && client.statistics.badChecksum == 0)
  }

  @Test("a flood is held in bounded memory: older samples are dropped and counted")
  func flood() async throws {
    let server = try LoopbackSocket()
    var c = fastConfiguration(port: server.port)
    c.queueCapacity = 32
    let client = try DSUClientSource(configuration: c)
    defer { client.stop() }
    let port = try awaitSubscription(server)
    for i in 1...3000 { server.send(pad(packet: UInt32(i), timestamp: UInt64(i) * 100), to: port) }
    #expect(waitFor(seconds: 60) { client.statistics.dropped > 100 })
    let s = client.statistics
    #expect(s.dropped > 0 && s.samples - s.dropped <= 33, "\(s)")
  }

  @Test("a silent server is a transient error; restarted with a new clock, samples resume")
  func silenceAndRestart() async throws {
    var server: LoopbackSocket? = try LoopbackSocket()
    let port = try #require(server).port
    let client = try DSUClientSource(configuration: fastConfiguration(port: port))
    defer { client.stop() }
    let clientPort = try awaitSubscription(try #require(server))
    server?.send(pad(packet: 1, timestamp: 50_000_000), to: clientPort)
    let first = await receivedSamples(from: client, 1)
    #expect(first.count == 1)
    server = nil  // the server stops
    let silence = await collect(client, 1)
    let error = try #require(
      silence.first.flatMap { r -> MotionSourceError? in
        if case .failure(let e) = r { return e as? MotionSourceError }
        return nil
      })
    #expect(error.isTransient && error.message.contains("no data"))
    let again = try LoopbackSocket(port: port)  // it starts again, its clock from 0
    _ = try awaitSubscription(again)
    for i in 1...3 {
      again.send(pad(packet: UInt32(i), timestamp: UInt64(i) * 4_000), to: clientPort)
    }
    let resumed = await receivedSamples(from: client, 3)
    #expect(resumed.count == 3)
    #expect(client.statistics.silences >= 1 && client.statistics.clockRestarts >= 1)
    if let t = first.first?.timestamp, let u = resumed.first?.timestamp {
      #expect(u > t)
    }
  }
}

/// A source of a fixed list of samples, returned as fast as asked, then `nil`.
private final class ListSource: MotionSource, @unchecked Sendable {
  // @unchecked: `index` is touched only by the one task that pulls the source.
  let name = "list"
  let hasMagnetometer = false
  let events: [MotionEvent]
  var index = 0
  init(_ events: [MotionEvent]) { self.events = events }
  func next() async throws -> MotionEvent? {
    guard index < events.count else { return nil }
    defer { index += 1 }
    return events[index]
  }
  func stop() async {}
}

@Suite("DSU server on loopback")
private struct DSUServerTests {
  private func samples(_ n: Int, rate: Double = 100) -> [MotionEvent] {
    (0..<n).map { i in
      let t = Double(i) / rate
      return .sample(
        IMUSample(
          timestamp: 10 + t, gyroscope: Vector3(0.1, -0.2, 0.3 + t),
          accelerometer: Vector3(0.5, 1, 9.7)))
    }
  }

  @Test("answers hand-built version and port-info requests as the tables say")
  func answers() throws {
    let source = ListSource([])
    let server = try DSUServer(
      source: source, configuration: DSUServerConfiguration(address: "127.0.0.1", port: 0))
    defer { server.stop() }
    let client = try LoopbackSocket()
    client.send(
      handBuiltDatagram(magic: "DSUC", sender: 5, type: 0x10_0000, payload: []), to: server.port)
    let v = try #require(client.receive(within: 60) { messageType($0) == 0x10_0000 }).bytes
    #expect(Array(v.prefix(4)) == Array("DSUS".utf8) && checksumMatches(v))
    #expect(v.count == 24 && v[20] == 0xE9 && v[21] == 0x03)  // 1001
    client.send(
      handBuiltDatagram(
        magic: "DSUC", sender: 5, type: 0x10_0001, payload: le(Int32(4)) + [0, 1, 2, 3]),
      to: server.port)
    var infos: [[UInt8]] = []
    _ = client.receive(within: 60) { d in
      if messageType(d) == 0x10_0001 { infos.append(d) }
      return infos.count == 4
    }
    #expect(infos.count == 4)
    #expect(infos.allSatisfy { $0.count == 32 && checksumMatches($0) })
    #expect(infos.map { $0[20] } == [0, 1, 2, 3])
    #expect(infos.map { $0[21] } == [2, 0, 0, 0])  // slot 0 connected, the others not
    #expect(infos[0][22] == 2)  // full gyroscope
    var bad = handBuiltDatagram(magic: "DSUC", sender: 5, type: 0x10_0000, payload: [])
    bad[12] ^= 1
    client.send(bad, to: server.port)
    #expect(waitFor(seconds: 60) { server.statistics.badChecksum == 1 })
  }

  @Test("a hand-built subscription receives each sample in g and °/s, numbered 1, 2, 3...")
  func padData() async throws {
    let events = samples(400)
    let source = ListSource(events)
    var c = DSUServerConfiguration(address: "127.0.0.1", port: 0)
    c.clientTimeout = 600  // one subscription, however long a busy test pool takes to serve
    let server = try DSUServer(source: source, configuration: c, pacing: .continuous)
    defer { server.stop() }
    let client = try LoopbackSocket()
    client.send(
      handBuiltDatagram(
        magic: "DSUC", sender: 5, type: 0x10_0002, payload: [1, 0, 0, 0, 0, 0, 0, 0]),
      to: server.port)
    #expect(waitFor(seconds: 60) { server.clientCount == 1 })
    let running = Task { try await server.run() }
    let got = await client.datagrams(ofType: 0x10_0002, count: 3, within: 120)
    server.stop()
    _ = try? await running.value
    #expect(got.count == 3)
    guard got.count == 3 else { return }
    #expect(got.allSatisfy { $0.count == 100 && checksumMatches($0) })
    #expect(got.map { u32($0, 32) } == [1, 2, 3])
    let g0 = Float(9.806_65)
    let d = got[0]
    // Swell (0.5, 1, 9.7) m/s² -> DSU (-x, -z, y) / g0; rates (x, -z, y) in °/s.
    #expect(abs(float(d, 76) - (-0.5 / g0)) < 1e-6)
    #expect(abs(float(d, 80) - (-9.7 / g0)) < 1e-6)
    #expect(abs(float(d, 84) - (1 / g0)) < 1e-6)
    #expect(abs(float(d, 88) - Float(0.1 * 180 / Double.pi)) < 1e-4)
    #expect(abs(float(d, 92) - Float(-0.3 * 180 / Double.pi)) < 1e-3)
    #expect(abs(float(d, 96) - Float(-0.2 * 180 / Double.pi)) < 1e-4)
  }

  @Test("Swell's client reads Swell's server: the samples come back, times spaced as sent")
  func roundTrip() async throws {
    let events = samples(600)
    let server = try DSUServer(
      source: ListSource(events),
      configuration: DSUServerConfiguration(address: "127.0.0.1", port: 0),
      pacing: .continuous)
    defer { server.stop() }
    let client = try DSUClientSource(configuration: fastConfiguration(port: server.port))
    defer { client.stop() }
    #expect(waitFor(seconds: 60) { server.clientCount == 1 })
    let running = Task { try await server.run() }
    let got = await receivedSamples(from: client, 20)
    server.stop()
    _ = try? await running.value
    #expect(got.count == 20)
    for s in got {
      #expect((s.accelerometer - Vector3(0.5, 1, 9.7)).length < 1e-5)
      #expect(abs(s.gyroscope.x - 0.1) < 1e-6 && abs(s.gyroscope.y + 0.2) < 1e-6)
    }
    let gaps = zip(got, got.dropFirst()).map { $1.timestamp - $0.timestamp }
    #expect(gaps.allSatisfy { $0 > 0 })
    let spacing = zip(got, got.dropFirst()).map { ($1.gyroscope.z - $0.gyroscope.z) }
    // ω_z = 0.3 + t tells each sample's sent time; the mapped times follow it.
    for (gap, step) in zip(gaps, spacing) { #expect(abs(gap - step) < 0.01) }
    if let a = got.first, let b = got.last {
      #expect(abs((b.timestamp - a.timestamp) - (b.gyroscope.z - a.gyroscope.z)) < 0.01)
    }
    #expect(client.deviceIdentity == "dsu:" + server.controller.macText)
  }

  @Test("a subscription not renewed expires after the timeout")
  func expiry() throws {
    var c = DSUServerConfiguration(address: "127.0.0.1", port: 0)
    c.clientTimeout = 0.3
    let server = try DSUServer(source: ListSource([]), configuration: c)
    defer { server.stop() }
    let client = try LoopbackSocket()
    client.send(DSUPacket(.padDataRequest(.all), senderID: 1).encoded(), to: server.port)
    #expect(waitFor(seconds: 60) { server.clientCount == 1 })
    #expect(waitFor(seconds: 60) { server.clientCount == 0 })
    client.send(DSUPacket(.padDataRequest(.slot(3)), senderID: 1).encoded(), to: server.port)
    #expect(waitFor(seconds: 60) { server.statistics.ignoredSubscriptions == 1 })
  }

  @Test("the probe reports the server's version and slots; no server is a reason, not an error")
  func probe() throws {
    let server = try DSUServer(
      source: ListSource([]), configuration: DSUServerConfiguration(address: "127.0.0.1", port: 0))
    defer { server.stop() }
    let report = DSUProbe.query(host: "127.0.0.1", port: server.port, timeout: 5)
    #expect(report.reachable && report.protocolVersion == 1001)
    #expect(report.slots.map(\.slot) == [0, 1, 2, 3])
    #expect(report.connectedSlots.map(\.mac) == [server.controller.macText])
    #expect(report.connectedSlots.first?.model == "full gyroscope")
    let json = try JSONEncoder().encode(report)
    #expect(try JSONDecoder().decode(DSUProbeReport.self, from: json) == report)
    let nobody = try LoopbackSocket()  // a bound port nobody answers on
    let silent = DSUProbe.query(host: "127.0.0.1", port: nobody.port, timeout: 0.2)
    #expect(!silent.reachable && silent.problem != nil && silent.slots.isEmpty)
  }
}

@Suite("dsu[:HOST[:PORT]][#SLOT] words")
private struct DSUSpecTests {
  @Test(
    "parses host, port and slot with their defaults",
    arguments: [
      ("dsu", "127.0.0.1", UInt16(26760), UInt8(0)),
      ("dsu:10.0.0.2", "10.0.0.2", 26760, 0),
      ("dsu:10.0.0.2:26761#3", "10.0.0.2", 26761, 3),
      ("dsu#2", "127.0.0.1", 26760, 2),
      ("dsu::4000", "127.0.0.1", 4000, 0),
      ("dsu:localhost#1", "localhost", 26760, 1),
    ])
  func parse(word: String, host: String, port: UInt16, slot: UInt8) throws {
    #expect(LiveSourceSpec.names(word))
    #expect(try LiveSourceSpec(parsing: word) == .dsu(host: host, port: port, slot: slot))
    #expect(try LiveSourceSpec(parsing: word).kind == .dsu)
  }

  @Test(
    "malformed words are usage mistakes naming the part",
    arguments: [
      ("dsu#4", "slot 0...3"), ("dsu:h:0", "port 1...65535"), ("dsu:h:99999", "port"),
      ("dsu:a:b:c", "HOST:PORT"), ("dsu#x", "slot"),
    ])
  func malformed(word: String, part: String) {
    do {
      _ = try LiveSourceSpec(parsing: word)
      Issue.record("\(word) parsed")
    } catch {
      #expect(error.isUsage && error.message.contains(part), "\(error.message)")
    }
  }
}
