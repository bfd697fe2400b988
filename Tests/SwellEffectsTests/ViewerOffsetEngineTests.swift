import Foundation
import SwellEffects
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Testing

/// A rotation about a device axis by an angle in degrees.
private func tilt(_ axis: Vector3, degrees: Double) -> Quaternion {
  Quaternion(axis: axis, angle: degrees * .pi / 180)
}

/// The configuration with re-centering switched off, to isolate other rules.
private func still() -> ViewerOffsetEngine.Configuration {
  var c = ViewerOffsetEngine.Configuration()
  c.referenceShiftSpeed = 0
  return c
}

@Suite("ViewerOffsetEngine")
private struct ViewerOffsetEngineTests {
  @Test("the first sample is the neutral pose")
  func firstSampleNeutral() {
    var e = ViewerOffsetEngine()
    e.receive(.resting(timestamp: 3, attitude: Attitude(quaternion: tilt(.unitX, degrees: 70))))
    #expect(e.offset == .zero)
    #expect(e.advance(to: 3) == .zero)
  }

  @Test("offset = elevation of the device x and y axes over 90° (random poses)")
  func offsetFormula() {
    let seed: UInt64 = 0x0FF5_E7
    var rng = SplitMix64(seed: seed)
    for _ in 0..<300 {
      let q0 = rng.rotation()
      let r = Quaternion(
        axis: rng.unitVector(), angle: Double.random(in: 0...(80 * Double.pi / 180), using: &rng))
      var c = ViewerOffsetEngine.Configuration()
      c.isDirectionalLockEnabled = false
      var a = ViewerOffsetAnalyzer(configuration: c)
      a.update(attitude: q0, timestamp: 0)
      a.update(attitude: q0 * r, timestamp: 1e-3)
      // Independent form: h = −(2/π)·asin((R·x̂)·ẑ), v = (2/π)·asin((R·ŷ)·ẑ), R the change
      // in the neutral device frame (derived from UIKit's measured `acos(...)/(π/2) − 1` form).
      let wantH = -(2 / Double.pi) * asin(r.rotate(.unitX).z)
      let wantV = (2 / Double.pi) * asin(r.rotate(.unitY).z)
      // Re-centering may turn the reference by at most ω·Δt ≤ 0.105 rad/s · 1 ms.
      #expect(abs(a.rawOffset.horizontal - wantH) < 2e-4, "seed \(seed)")
      #expect(abs(a.rawOffset.vertical - wantV) < 2e-4, "seed \(seed)")
      #expect(a.offset == a.rawOffset, "seed \(seed): no smoothing, no lock")
    }
  }

  @Test("signs: screen to the viewer's right → +h; screen down → +v")
  func signs() {
    var a = ViewerOffsetAnalyzer()
    a.update(attitude: .identity, timestamp: 0)
    a.update(attitude: tilt(.unitY, degrees: 45), timestamp: 1e-6)
    #expect(abs(a.rawOffset.horizontal - 0.5) < 1e-6)
    var b = ViewerOffsetAnalyzer()
    b.update(attitude: .identity, timestamp: 0)
    // Tipping the top edge toward the viewer turns the screen down: about +x.
    b.update(attitude: tilt(.unitX, degrees: 45), timestamp: 1e-6)
    #expect(abs(b.rawOffset.vertical - 0.5) < 1e-6)
    #expect(abs(b.rawOffset.horizontal) < 1e-9)
  }

  @Test("a held 20° tilt follows the formula, then re-centres at ω(θ) = 0.03 + 0.15·θ/π")
  func recentering() throws {
    var e = ViewerOffsetEngine()
    let theta0 = 20 * Double.pi / 180
    e.receive(attitude: .identity, timestamp: 0)
    let held = Attitude(quaternion: Quaternion(axis: .unitY, angle: theta0))
    var firstZero: Double?
    var applied: [(Double, Double)] = []
    let rate = 100.0
    for i in 1...1200 {
      let t = Double(i) / rate
      e.receive(attitude: held, timestamp: t)
      if let o = e.advance(to: t) { applied.append((t, o.horizontal)) }
      let h = e.analyzer.rawOffset.horizontal
      if i == 1 {
        #expect(abs(h - theta0 / (.pi / 2)) < 2e-3, "formula at first: \(h)")
      }
      if i % 50 == 0 {
        let want = integrateRecentering(theta0: theta0, until: t) / (.pi / 2)
        #expect(abs(h - want) < 1e-3, "t = \(t): \(h) vs ODE \(want)")
      }
      if firstZero == nil && h < 1e-9 { firstZero = t }
    }
    // Time for θ to reach 0: ∫dθ/ω = (π/0.15)·ln(1 + 0.15·θ0/(0.03π)) ≈ 9.26 s.
    let analytic = (Double.pi / 0.15) * log(1 + 0.15 * theta0 / (0.03 * .pi))
    let zero = try #require(firstZero)
    #expect(abs(zero - analytic) < 0.05, "re-centred at \(zero) s, ODE says \(analytic) s")
    #expect(analytic > 9 && analytic < 9.5)
    // The applied offset tracks the analyzer within the dead-band.
    for (t, h) in applied where t > 0.05 {
      let want = integrateRecentering(theta0: theta0, until: t) / (.pi / 2)
      #expect(abs(h - want) < 0.015 + 1e-3, "applied at \(t): \(h) vs \(want)")
    }
    #expect(try #require(applied.last).1 < 0.015)
  }

  @Test("Reduce Motion pins the offset to zero: interpolating effects sit at the midpoint")
  func reduceMotion() throws {
    var c = ViewerOffsetEngine.Configuration()
    c.reduceMotion = true
    var e = ViewerOffsetEngine(configuration: c)
    var applied: [ViewerOffset] = []
    for i in 0..<120 {
      let t = Double(i) / 60
      e.receive(attitude: Attitude(quaternion: tilt(.unitY, degrees: Double(i))), timestamp: t)
      if let o = e.advance(to: t) { applied.append(o) }
    }
    #expect(applied == [.zero])
    #expect(e.offset == .zero)
    let effect = interpolating("center.x", .tiltAlongHorizontalAxis, 0, 80)
    let v = effect.keyPathsAndRelativeValues(forViewerOffset: e.appliedOffset)
    #expect(v == ["center.x": .number(40)])
  }

  @Test("directional lock: lock = |Δh| + k·lock − |Δv|, vertical held by strength")
  func directionalLock() {
    let seed: UInt64 = 0x10C4
    var rng = SplitMix64(seed: seed)
    var a = ViewerOffsetAnalyzer(configuration: still())
    a.update(attitude: .identity, timestamp: 0)
    var lock = 0.0
    var prevIn = ViewerOffset.zero
    var prevOut = ViewerOffset.zero
    var engaged = 0
    var yaw = 0.0
    var pitch = 0.0
    for i in 1...300 {
      // Mostly horizontal sweeps with small vertical jitter, then mostly vertical ones.
      let horizontalPhase = i <= 150
      let big = sin(Double(i) * 0.08) * 0.02
      let small = Double.random(in: -0.002...0.002, using: &rng)
      yaw += horizontalPhase ? big : small
      pitch += horizontalPhase ? small : big
      let q = Quaternion(axis: .unitY, angle: yaw) * Quaternion(axis: .unitX, angle: pitch)
      a.update(attitude: q, timestamp: Double(i) / 100)
      let raw = ViewerOffsetAnalyzer.rawOffset(of: q, relativeTo: .identity)
      lock =
        abs(raw.horizontal - prevIn.horizontal) + 0.975 * lock
        - abs(raw.vertical - prevIn.vertical)
      let strength = min(1, max(0, ((abs(lock) - 0.3) / 0.3) / (1 - 0.1 + 1.2e-7)))
      var out = raw
      if lock > 0.3 {
        out.vertical = prevOut.vertical * strength + raw.vertical * (1 - strength)
      } else if lock < -0.3 {
        out.horizontal = prevOut.horizontal * strength + raw.horizontal * (1 - strength)
      }
      if strength > 0 && abs(lock) > 0.3 { engaged += 1 }
      #expect(abs(a.lockAccumulator - lock) < 1e-12, "seed \(seed) step \(i)")
      #expect(abs(a.offset.horizontal - out.horizontal) < 1e-12, "seed \(seed) step \(i)")
      #expect(abs(a.offset.vertical - out.vertical) < 1e-12, "seed \(seed) step \(i)")
      prevIn = raw
      prevOut = out
    }
    #expect(engaged > 20, "the lock engaged on \(engaged) steps")
  }

  @Test("dead-band: changes under 0.015 are not applied")
  func deadBand() {
    var e = ViewerOffsetEngine(configuration: still())
    e.receive(attitude: .identity, timestamp: 0)
    #expect(e.advance(to: 0) == .zero)
    // h = angle/90°: 0.01 → 0.9°, 0.014 → 1.26°, 0.016 → 1.44°.
    let steps: [(h: Double, applied: Bool)] = [
      (0.01, false), (0.014, false), (0.016, true), (0.025, false), (0.032, true), (0.0, true),
    ]
    var t = 0.0
    for (h, shouldApply) in steps {
      t += 0.1
      e.receive(
        attitude: Attitude(quaternion: Quaternion(axis: .unitY, angle: h * .pi / 2)), timestamp: t)
      let o = e.advance(to: t)
      #expect((o != nil) == shouldApply, "h = \(h)")
      if let o { #expect(abs(o.horizontal - h) < 1e-9) }
    }
  }

  @Test(
    "cadence: 30 applications/s on a phone, 32 above 60 Hz, 45/48 on pad",
    arguments: [
      (ViewerOffsetEngine.Idiom.phone, 60.0, 30), (.phone, 120, 32), (.pad, 60, 45),
      (.mac, 120, 48),
    ])
  func cadence(idiom: ViewerOffsetEngine.Idiom, refresh: Double, expected: Int) {
    for frameRate in [60.0, 120, 240] {
      var c = ViewerOffsetEngine.Configuration()
      c.idiom = idiom
      c.maximumRefreshRate = refresh
      var e = ViewerOffsetEngine(configuration: c)
      var count = 0
      let frames = Int(frameRate * 0.8)
      for i in 0..<frames {
        let t = Double(i) / frameRate
        // A steady sweep at 100°/s away from the neutral pose: every tick passes the dead-band.
        let angle = t * 100 * Double.pi / 180
        e.receive(
          attitude: Attitude(quaternion: Quaternion(axis: .unitY, angle: angle)), timestamp: t)
        let applied = e.advance(to: t) != nil
        if applied && t >= 0.3 - 1e-9 { count += 1 }
      }
      #expect(
        abs(2 * count - expected) <= 2, "\(idiom) \(refresh) Hz at \(frameRate) fps: \(count)")
    }
  }

  @Test("slow mode: centered and still for 0.5 s → 5 applications/s")
  func slowMode() {
    var e = ViewerOffsetEngine()
    for i in 0...100 {
      e.receive(attitude: .identity, timestamp: Double(i) / 100)
    }
    #expect(e.isSlowMode)
    #expect(e.applicationRate == 5)
    e.receive(attitude: Attitude(quaternion: tilt(.unitY, degrees: 20)), timestamp: 1.02)
    #expect(!e.isSlowMode)
    #expect(e.applicationRate == 30)
  }

  @Test("stale-stream guard: after a ≥ 0.25 s gap the view does not jump")
  func staleStream() {
    for (gap, jumps) in [(0.3, false), (0.1, true)] {
      var e = ViewerOffsetEngine(configuration: still())
      e.receive(attitude: .identity, timestamp: 0)
      let ten = Attitude(quaternion: tilt(.unitY, degrees: 9))
      for i in 1...20 { e.receive(attitude: ten, timestamp: Double(i) / 100) }
      #expect(abs(e.offset.horizontal - 0.1) < 1e-9)
      let thirty = Attitude(quaternion: tilt(.unitY, degrees: 27))
      e.receive(attitude: thirty, timestamp: 0.2 + gap)
      if jumps {
        #expect(abs(e.offset.horizontal - 0.3) < 1e-9, "gap \(gap)")
      } else {
        #expect(abs(e.offset.horizontal - 0.1) < 1e-9, "gap \(gap)")
        // Later motion is relative to the shifted reference.
        e.receive(attitude: Attitude(quaternion: tilt(.unitY, degrees: 36)), timestamp: 0.21 + gap)
        #expect(abs(e.offset.horizontal - 0.2) < 1e-9)
      }
    }
  }

  @Test("idle after 0.52 s of stillness; an idle analyzer flips its reference past 135°")
  func idleAndJump() throws {
    var a = ViewerOffsetAnalyzer(configuration: still())
    a.update(attitude: .identity, timestamp: 0)
    let flipped = tilt(.unitY, degrees: 150)
    var flippedAt: Double?
    for i in 1...100 {
      let t = Double(i) / 100
      a.update(attitude: flipped, timestamp: t)
      let ref = try #require(a.referenceAttitude)
      let angle = ref.rotate(.unitZ).angle(to: flipped.rotate(.unitZ)) * 180 / .pi
      if t <= 0.52 {
        #expect(!a.isIdle, "t = \(t)")
        #expect(abs(angle - 150) < 1e-6)
      }
      if flippedAt == nil && abs(angle - 30) < 1e-6 { flippedAt = t }
    }
    let t = try #require(flippedAt)
    #expect(t > 0.52 && t <= 0.54, "flipped at \(t)")
    // The offset is the same either side of the flip (the x axis' elevation is symmetric).
    #expect(abs(a.rawOffset.horizontal - 1.0 / 3) < 1e-9)
  }

  @Test("an idle analyzer with a degenerate swing axis takes the attitude as reference")
  func degenerateAxis() throws {
    var a = ViewerOffsetAnalyzer(configuration: still())
    a.update(attitude: .identity, timestamp: 0)
    let twisted = tilt(.unitZ, degrees: 40)
    for i in 1...60 { a.update(attitude: twisted, timestamp: Double(i) / 100) }
    let ref = try #require(a.referenceAttitude)
    #expect(isSameRotation(ref, twisted, tolerance: 1e-9))
    #expect(a.offset == .zero)
  }

  @Test("bad samples are ignored: non-finite, zero, or not later than the previous")
  func badSamples() {
    var e = ViewerOffsetEngine()
    e.receive(attitude: .identity, timestamp: 1)
    e.receive(attitude: Attitude(quaternion: tilt(.unitY, degrees: 30)), timestamp: 1)
    e.receive(attitude: Attitude(quaternion: tilt(.unitY, degrees: 30)), timestamp: .nan)
    e.receive(
      attitude: Attitude(quaternion: Quaternion(w: .nan, x: 0, y: 0, z: 0)), timestamp: 2)
    #expect(e.offset == .zero)
    #expect(e.advance(to: .infinity) == nil)
    #expect(e.offset.isFinite)
  }
}
