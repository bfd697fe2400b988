import Foundation
import SwellGeometry
import SwellMotion
import Synchronization
import Testing

@testable import SwellRecordings

/// A source that plays a list of events, then ends.
private final class ListSource: MotionSource {
  let name = "fake:list"
  let hasMagnetometer = false
  private let events: Mutex<[MotionEvent]>

  init(_ events: [MotionEvent]) { self.events = Mutex(events) }

  func next() async throws -> MotionEvent? {
    events.withLock { $0.isEmpty ? nil : $0.removeFirst() }
  }

  func stop() async {}
}

/// Samples of a device rocking about its x axis, ±0.8 rad at 0.5 Hz, at 100 Hz for `seconds`,
/// in SI units divided by the given scales (`accel` m/s² per unit, `gyro` rad/s per unit).
private func rocking(seconds: Double, accel: Double = 1, gyro: Double = 1) -> [MotionEvent] {
  let g = 9.80665
  let w = 2 * Double.pi * 0.5
  return (0..<Int(seconds * 100)).map { i in
    let t = Double(i) / 100
    let angle = 0.8 * sin(w * t)
    let rate = 0.8 * w * cos(w * t)
    return .sample(
      IMUSample(
        timestamp: 1000 + t, gyroscope: Vector3(rate / gyro, 0, 0),
        accelerometer: Vector3(0, g * sin(angle), g * cos(angle)) * (1 / accel)))
  }
}

/// Pulls a source to its end, returning the events and the warnings seen.
private func drain(
  _ events: [MotionEvent]
) async throws -> (events: [MotionEvent], warnings: [RecordingUnitWarning]) {
  let seen = Mutex<[RecordingUnitWarning]>([])
  let source = UnitCheckedSource(ListSource(events)) { w in seen.withLock { $0.append(w) } }
  var out: [MotionEvent] = []
  while let e = try await source.next() { out.append(e) }
  return (out, seen.withLock { $0 })
}

@Suite("Live sources checked for the wrong units (UnitCheckedSource)")
private struct UnitCheckedSourceTests {
  @Test("SI samples pass unchanged and raise nothing")
  func quiet() async throws {
    let events = rocking(seconds: 6)
    let r = try await drain(events)
    #expect(r.events == events)
    #expect(r.warnings.isEmpty)
  }

  @Test(
    "each mistake is reported once, with the unit it looks like",
    arguments: [
      (9.80665, 1.0, [RecordingUnitWarning.Quantity.acceleration], "g"),
      (1, Double.pi / 180, [.angularVelocity], "deg/s"),
      (9.80665, Double.pi / 180, [.acceleration, .angularVelocity], "g"),
    ])
  func mistakes(
    accel: Double, gyro: Double, quantities: [RecordingUnitWarning.Quantity], first: String
  ) async throws {
    let events = rocking(seconds: 8, accel: accel, gyro: gyro)
    let r = try await drain(events)
    #expect(r.events == events, "events pass unchanged")
    #expect(r.warnings.map(\.quantity).sorted { $0.rawValue < $1.rawValue } == quantities)
    #expect(r.warnings.first?.suggestedUnit == first)
    let line = UnitCheckedSource.liveMessage(for: try #require(r.warnings.first))
    #expect(line.contains("the stream must send"))
  }

  @Test("warnings found before a handler is set reach the handler set later, once")
  func heldUntilAHandler() async throws {
    // A feed sets its handler after its manager has started pulling: nothing may be lost.
    let source = UnitCheckedSource(ListSource(rocking(seconds: 8, accel: 9.80665)))
    while try await source.next() != nil {}
    let seen = Mutex<[RecordingUnitWarning]>([])
    source.setWarningHandler { w in seen.withLock { $0.append(w) } }
    #expect(seen.withLock { $0.map(\.quantity) } == [.acceleration])
    // Handed over once: a second handler gets nothing more.
    let again = Mutex(0)
    source.setWarningHandler { _ in again.withLock { $0 += 1 } }
    #expect(again.withLock { $0 } == 0)
  }

  @Test("a warning comes within the first check interval of the source's time")
  func early() async throws {
    let seen = Mutex<Int?>(nil)
    let events = rocking(seconds: 8, accel: 9.80665)
    let count = Atomic<Int>(0)
    let source = UnitCheckedSource(ListSource(events)) { _ in
      seen.withLock { $0 = $0 ?? count.load(ordering: .relaxed) }
    }
    while try await source.next() != nil { count.add(1, ordering: .relaxed) }
    let at = try #require(seen.withLock { $0 })
    // 2 s at 100 Hz: the first check is at the sample 2 s after the first.
    #expect(at == 200, "warned after \(at) samples")
  }

  @Test("fused device motion (a phone's CoreMotion units) is not checked")
  func deviceMotionPasses() async throws {
    let events: [MotionEvent] = (0..<400).map { i in
      var m = DeviceMotion.resting(
        timestamp: Double(i) / 100, attitude: Attitude(quaternion: .identity))
      m.gravity = Vector3(0, -1, 0)
      return .deviceMotion(m)
    }
    let r = try await drain(events)
    #expect(r.events == events)
    #expect(r.warnings.isEmpty)
  }
}
