import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

@testable import SwellSensors

/// What DS4Windows sends for a DualShock 4 whose raw reading, in SDL's controller frame (+x
/// right, +y up out of the face lying flat, +z toward the player; specific force in g;
/// right-handed rates in °/s), is `force` and `rate`: `DS4Sixaxis.cs` negates the three
/// accelerometer axes and yaw and roll, keeps pitch.
private func ds4WindowsDSU(force: Vector3, rate: Vector3) -> ([Float], [Float]) {
  (
    [Float(-force.x), Float(-force.y), Float(-force.z)],
    [Float(rate.x), Float(-rate.y), Float(-rate.z)]
  )
}

/// SDL's controller frame to Swell's (a phone lying where the controller lies: +x right, +y
/// away from the player, +z up out of the face): x stays, y is −z_SDL, z is y_SDL.
private func sdlToSwell(_ v: Vector3) -> Vector3 { Vector3(v.x, -v.z, v.y) }

@Suite("DSU axes and units")
private struct DSUAxesTests {
  @Test("a controller at rest lying flat (DSU (0, -1, 0) g) reads +9.80665 m/s² on +z")
  func flat() {
    let (a, g) = DSUMotionAxes.deviceFrame(accelerometer: [0, -1, 0], gyroscope: [0, 0, 0])
    #expect(a == Vector3(0, 0, 9.806_65))
    #expect(g == Vector3(0, 0, 0))
  }

  @Test("seeded DualShock 4 readings through DS4Windows' signs land in Swell's frame")
  func reference() {
    var rng = SplitMix64(seed: 4)
    for _ in 0..<200 {
      let r = { (x: inout SplitMix64) in Double.random(in: -4...4, using: &x) }
      let force = Vector3(r(&rng), r(&rng), r(&rng))
      let rate = Vector3(r(&rng), r(&rng), r(&rng)) * 100
      let (a, g) = ds4WindowsDSU(force: force, rate: rate)
      let (f, w) = DSUMotionAxes.deviceFrame(accelerometer: a, gyroscope: g)
      let wantF = sdlToSwell(force) * 9.806_65
      let wantW = sdlToSwell(rate) * (Double.pi / 180)
      #expect((f - wantF).length < 1e-5 * 9.81 * 8)
      #expect((w - wantW).length < 1e-5)
    }
  }

  @Test("yuzu's reading of the same packets is the negated specific force, same rates")
  func yuzu() {
    var rng = SplitMix64(seed: 5)
    for _ in 0..<100 {
      let a = (0..<3).map { _ in Float(Double.random(in: -2...2, using: &rng)) }
      let g = (0..<3).map { _ in Float(Double.random(in: -500...500, using: &rng)) }
      let (f, w) = DSUMotionAxes.deviceFrame(accelerometer: a, gyroscope: g)
      // udp_client.cpp: accel (x, -z, y) in g, gravity direction; gyro (pitch, roll, -yaw).
      let yuzuAccel = Vector3(Double(a[0]), -Double(a[2]), Double(a[1]))
      let yuzuGyro = Vector3(Double(g[0]), Double(g[2]), -Double(g[1]))
      #expect((f + yuzuAccel * 9.806_65).length < 1e-9)
      #expect((w - yuzuGyro * (Double.pi / 180)).length < 1e-9)
    }
  }

  @Test("the server's conversion is the inverse of the client's")
  func inverse() {
    var rng = SplitMix64(seed: 6)
    for _ in 0..<100 {
      let f = Vector3(
        Double.random(in: -30...30, using: &rng), Double.random(in: -30...30, using: &rng),
        Double.random(in: -30...30, using: &rng))
      let w = Vector3(
        Double.random(in: -9...9, using: &rng), Double.random(in: -9...9, using: &rng),
        Double.random(in: -9...9, using: &rng))
      let (a, g) = DSUMotionAxes.dsu(specificForce: f, rotationRate: w)
      let (f2, w2) = DSUMotionAxes.deviceFrame(accelerometer: a, gyroscope: g)
      #expect((f2 - f).length < 1e-4 && (w2 - w).length < 1e-5)
    }
  }

  @Test("device motion at rest face up is served as +g₀ on z, its rotation rate as is")
  func deviceMotion() {
    var m = DeviceMotion.resting(timestamp: 0, attitude: Attitude(quaternion: .identity))
    m.gravity = Vector3(0, 0, -1)
    m.userAcceleration = Vector3(0.1, 0, 0)
    m.rotationRate = Vector3(0.5, -0.25, 1)
    let (f, w) = DSUMotionAxes.rawEquivalent(of: m)
    #expect((f - Vector3(0.980_665, 0, 9.806_65)).length < 1e-12)
    #expect(w == Vector3(0.5, -0.25, 1))
  }
}

@Suite("DSU timestamps on the local clock")
private struct DSUClockMapperTests {
  @Test("jittered arrivals keep the server's spacing; times never pass their arrival")
  func spacing() {
    var rng = SplitMix64(seed: 9)
    var mapper = DSUClockMapper()
    var previous: Double?
    var previousSent = 0.0
    for i in 0..<2000 {
      let sent = 1000.0 + Double(i) * 0.004
      let arrival = 50 + (sent - 1000) + 0.002 + Double.random(in: 0...0.003, using: &rng)
      guard case .time(let t) = mapper.map(microseconds: UInt64(sent * 1e6), arrival: arrival)
      else {
        Issue.record("sample \(i) refused")
        return
      }
      #expect(t <= arrival)
      if let previous, i > 200 {
        #expect(abs((t - previous) - (sent - previousSent)) < 3e-4)  // a tenth of the 3 ms jitter
      }
      previous = t
      previousSent = sent
    }
    #expect(mapper.restarts == 0)
  }

  @Test("a slow server clock (-50 ppm) is followed: the lag stays within the latency")
  func drift() {
    var mapper = DSUClockMapper()
    var worst = 0.0
    for i in 0..<100_000 {
      let local = Double(i) * 0.01
      let sent = local * (1 - 50e-6)
      guard case .time(let t) = mapper.map(microseconds: UInt64(sent * 1e6), arrival: local + 0.003)
      else { continue }
      worst = max(worst, local + 0.003 - t)
    }
    #expect(worst < 0.004, "lag \(worst) s")
  }

  @Test("repeats are stale; a restarted server's clock starts a new mapping at its arrival")
  func restart() {
    var mapper = DSUClockMapper()
    #expect(mapper.map(microseconds: 10_000_000, arrival: 100) == .time(100))
    guard case .time(let t) = mapper.map(microseconds: 10_010_000, arrival: 100.01) else {
      Issue.record("refused")
      return
    }
    #expect(abs(t - 100.01) < 1e-9)
    #expect(mapper.map(microseconds: 10_010_000, arrival: 100.02) == .stale)
    #expect(mapper.map(microseconds: 10_005_000, arrival: 100.02) == .stale)
    #expect(mapper.map(microseconds: 1_000, arrival: 103) == .time(103))
    #expect(mapper.restarts == 1)
    #expect(mapper.map(microseconds: 900_000_000, arrival: 103.1) == .time(103.1))
    #expect(mapper.restarts == 2)
  }
}
