import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@testable import SwellEvaluation
@testable import SwellMotion

/// A synthetic recording as a BROAD trial (truth device → ENU, everything scored), so that the
/// seeded injections of the evaluation harness apply to it.
func broadTrial(_ motion: SyntheticMotion, name: String) throws -> BroadTrial {
  var text = BroadTrial.columnNames.joined(separator: ",") + "\n"
  for (s, q) in zip(motion.samples, motion.truth) {
    let t = OrientationEvaluation.nwuToENU * q
    let m = s.magnetometer ?? .zero
    let fields = [
      s.timestamp, s.gyroscope.x, s.gyroscope.y, s.gyroscope.z, s.accelerometer.x,
      s.accelerometer.y, s.accelerometer.z, m.x, m.y, m.z, t.w, t.x, t.y, t.z, 1,
    ]
    text += fields.map { "\($0)" }.joined(separator: ",") + "\n"
  }
  let table = try NumericTable(
    data: Data(text.utf8), name: name, required: BroadTrial.columnNames)
  return try BroadTrial(table: table, name: name, file: name)
}

@Suite("Fusion v3: taps and vibration added to recordings")
private struct FusionDisturbanceTests {
  static let bias = Vector3(0.005, -0.004, 0.007)

  static func still(seed: UInt64) -> SyntheticMotion {
    var o = SyntheticMotion.Options()
    o.rateHz = 285.714
    o.duration = 30
    o.restDuration = 100
    o.bias = bias
    return SyntheticMotion(seed: seed, options: o)
  }

  static func moving(seed: UInt64) -> SyntheticMotion {
    var o = SyntheticMotion.Options()
    o.rateHz = 285.714
    o.duration = 45
    o.restDuration = 8
    o.bias = bias
    return SyntheticMotion(seed: seed, options: o)
  }

  /// Runs 6D fusion; returns the estimator and, per sample, whether it was at rest.
  static func run(_ trial: BroadTrial) -> (AttitudeEstimator, [Bool]) {
    var e = AttitudeEstimator(mode: .sixD)
    var rest: [Bool] = []
    for s in trial.samples {
      _ = e.update(s)
      rest.append(e.isAtRest)
    }
    return (e, rest)
  }

  @Test("injections are seeded, shaped as described and leave truth and field alone")
  func injectionShape() throws {
    let trial = try broadTrial(Self.still(seed: 1), name: "99_synthetic")
    for kind in BroadInjection.Kind.allCases {
      for strength in BroadInjection.strengths {
        let injection = BroadInjection(kind: kind, strength: strength, seed: 7)
        let a = trial.injecting(injection)
        let b = trial.injecting(injection)
        #expect(a.accelerometer == b.accelerometer && a.gyroscope == b.gyroscope)
        let other = trial.injecting(BroadInjection(kind: kind, strength: strength, seed: 8))
        #expect(other.accelerometer != a.accelerometer)
        #expect(a.magnetometer == trial.magnetometer && a.timestamps == trial.timestamps)
        #expect(a.movement == trial.movement)
        let da = zip(a.accelerometer, trial.accelerometer).map { $0 - $1 }
        let dg = zip(a.gyroscope, trial.gyroscope).map { $0 - $1 }
        let peakA = da.map(abs).max() ?? 0
        switch kind {
        case .taps:
          #expect(dg.allSatisfy { $0 == 0 }, "taps touch the accelerometer only")
          #expect(peakA > 0.4 * injection.tapPeak && peakA <= injection.tapPeak)
          // Short: most samples untouched.
          let touched = stride(from: 0, to: da.count, by: 3).filter {
            da[$0] != 0 || da[$0 + 1] != 0 || da[$0 + 2] != 0
          }
          #expect(touched.count < trial.count / 50, "\(touched.count) samples tapped")
        case .vibration:
          #expect(peakA <= injection.vibrationAccelerometerAmplitude + 1e-12)
          #expect(peakA > 0.4 * injection.vibrationAccelerometerAmplitude)
          let peakG = dg.map(abs).max() ?? 0
          #expect(peakG <= injection.vibrationGyroscopeAmplitude + 1e-12)
          // Zero-mean: the added rate averages out over the recording.
          for k in 0..<3 {
            let mean =
              stride(from: k, to: dg.count, by: 3).map { dg[$0] }.reduce(0, +)
              / Double(trial.count)
            #expect(abs(mean) < 0.02 * injection.vibrationGyroscopeAmplitude)
          }
        }
      }
    }
    #expect(BroadInjection.parse("taps3") == BroadInjection(kind: .taps, strength: 3))
    #expect(BroadInjection.parse("vibration")?.strength == 2)
    #expect(BroadInjection.parse("taps4") == nil && BroadInjection.parse("knock") == nil)
  }

  @Test("an exported disturbed trial reads back bit for bit")
  func exportRoundTrip() throws {
    let trial = try broadTrial(Self.still(seed: 2), name: "98_synthetic")
      .injecting(BroadInjection(kind: .vibration, strength: 3))
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swell-inject-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("98_synthetic.csv")
    try trial.write(to: url)
    let back = try BroadTrial(contentsOf: url)
    #expect(back.timestamps == trial.timestamps)
    #expect(back.gyroscope == trial.gyroscope)
    #expect(back.accelerometer == trial.accelerometer)
    #expect(back.magnetometer == trial.magnetometer)
    #expect(back.truth == trial.truth && back.movement == trial.movement)
  }

  @Test(
    "a still device tapped every second is still at rest and its bias is measured",
    arguments: [1, 2, 3] as [Int])
  func tapsAtRest(strength: Int) throws {
    let trial = try broadTrial(Self.still(seed: 10 + UInt64(strength)), name: "97_still")
    let (e, rest) = Self.run(trial.injecting(BroadInjection(kind: .taps, strength: strength)))
    // v2's rest test (every sample within 0.5 m/s²) never saw rest between taps 0.3-1.5 s
    // apart, and the bias stayed at its prior, 0.
    let late = rest[(trial.count / 3)...]
    let share = Double(late.filter { $0 }.count) / Double(late.count)
    #expect(share > 0.8, "at rest \(share * 100) % of the time")
    let error = (e.gyroscopeBias - Self.bias).length * 180 / Double.pi
    #expect(error < 0.03, "bias error \(error) deg/s")
  }

  @Test("taps in motion barely move the inclination", arguments: [21, 22, 23] as [UInt64])
  func tapsInMotion(seed: UInt64) throws {
    let trial = try broadTrial(Self.moving(seed: seed), name: "96_moving")
    let clean = trial.evaluate(mode: .sixD)
    let tapped = trial.injecting(BroadInjection(kind: .taps, strength: 3, seed: seed))
      .evaluate(mode: .sixD)
    #expect(tapped.inclinationDegrees - clean.inclinationDegrees < 0.1, "\(clean) \(tapped)")
    #expect(tapped.totalDegrees - clean.totalDegrees < 0.2, "\(clean) \(tapped)")
  }

  @Test("vibration does not pass for rest, nor pull the bias measured at rest")
  func vibrationAtRest() throws {
    let trial = try broadTrial(Self.still(seed: 31), name: "95_still")
    let injection = BroadInjection(kind: .vibration, strength: 3, seed: 5)
    let shaken = trial.injecting(injection)
    let (e, rest) = Self.run(shaken)
    // Samples inside a burst (the added gyroscope reading is not zero) after the first
    // quarter second of that burst are not at rest.
    var inBurst = 0
    var restInBurst = 0
    var run = 0
    for i in 0..<trial.count {
      let d = (0..<3).map { abs(shaken.gyroscope[3 * i + $0] - trial.gyroscope[3 * i + $0]) }
      if d.contains(where: { $0 > 0 }) { run += 1 } else { run = 0 }
      if run > 72 {
        inBurst += 1
        if rest[i] { restInBurst += 1 }
      }
    }
    #expect(inBurst > trial.count / 5)
    #expect(Double(restInBurst) < 0.02 * Double(inBurst), "\(restInBurst) of \(inBurst)")
    let error = (e.gyroscopeBias - Self.bias).length * 180 / Double.pi
    #expect(error < 0.05, "bias error \(error) deg/s")
  }
}

@Suite("Swell against the phone's own fusion (Sensor Logger Gravity.csv, Orientation.csv)")
private struct DeviceReferenceTests {
  /// Writes a synthetic iOS Sensor Logger export: raw sensors in g and rad/s (CoreMotion signs,
  /// columns z, y, x), the true gravity as the phone's (down in g, or up in m/s²) and the true
  /// attitude turned by `headingDegrees` about the vertical as its orientation.
  static func export(
    _ motion: SyntheticMotion, to dir: URL, gravityUp: Bool, headingDegrees: Double
  ) throws {
    let t0: Int64 = 1_700_000_000_000_000_000
    func rows(_ values: (IMUSample, Quaternion) -> [Double]) -> String {
      zip(motion.samples, motion.truth).map { s, q in
        let ns = t0 + Int64((s.timestamp * 1e9).rounded())
        return "\(ns),\(s.timestamp)," + values(s, q).map { "\($0)" }.joined(separator: ",")
      }.joined(separator: "\n") + "\n"
    }
    let header = "time,seconds_elapsed,z,y,x\n"
    let gyro = rows { s, _ in [s.gyroscope.z, s.gyroscope.y, s.gyroscope.x] }
    let acc = rows { s, _ in
      let a = s.accelerometer / -standardGravity
      return [a.z, a.y, a.x]
    }
    let gravity = rows { _, q in
      let g = q.inverseRotate(Vector3(0, 0, -1)) * (gravityUp ? -standardGravity : 1)
      return [g.z, g.y, g.x]
    }
    let h = headingDegrees * Double.pi / 180
    let turn = Quaternion(w: cos(h / 2), x: 0, y: 0, z: sin(h / 2))
    let orientation = rows { _, q in
      let o = turn * q
      return [o.z, o.y, o.x, o.w, 0, 0, 0]
    }
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try Data((header + gyro).utf8).write(
      to: dir.appendingPathComponent("GyroscopeUncalibrated.csv"))
    try Data((header + acc).utf8).write(
      to: dir.appendingPathComponent("AccelerometerUncalibrated.csv"))
    try Data((header + gravity).utf8).write(to: dir.appendingPathComponent("Gravity.csv"))
    try Data(("time,seconds_elapsed,qz,qy,qx,qw,roll,pitch,yaw\n" + orientation).utf8).write(
      to: dir.appendingPathComponent("Orientation.csv"))
  }

  @Test(
    "gravity and 6D attitude agree with the phone's, in either gravity sign convention",
    arguments: [false, true])
  func againstDevice(gravityUp: Bool) throws {
    var o = SyntheticMotion.Options()
    o.duration = 40
    o.restDuration = 3
    o.bias = Vector3(0.004, -0.003, 0.005)
    let motion = SyntheticMotion(seed: gravityUp ? 41 : 42, options: o)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swell-device-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.export(motion, to: dir, gravityUp: gravityUp, headingDegrees: 40)
    let r = try DeviceReferenceEvaluation(folder: dir)
    #expect(r.gravityPointsUp == gravityUp)
    let g = try #require(r.gravity)
    #expect(g.count > 3900)
    #expect(g.median < 0.3 && g.p95 < 1.0, "gravity \(g)")
    let a = try #require(r.attitude)
    #expect(a.median < 1.5, "attitude \(a)")
    // Swell's 6D frame is the device's turned back by the 40° given to the phone's attitude
    // (plus whatever heading the 6D start chose; the synthetic start is the identity).
    #expect(abs(abs(r.headingOffsetDegrees) - 40) < 3, "offset \(r.headingOffsetDegrees)")
  }

  @Test("an export without the phone's fused output is refused with one clear line")
  func noDeviceOutput() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swell-device-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    var o = SyntheticMotion.Options()
    o.duration = 5
    try Self.export(
      SyntheticMotion(seed: 3, options: o), to: dir, gravityUp: false, headingDegrees: 0)
    try FileManager.default.removeItem(at: dir.appendingPathComponent("Gravity.csv"))
    try FileManager.default.removeItem(at: dir.appendingPathComponent("Orientation.csv"))
    #expect(throws: NumericTableError.self) { try DeviceReferenceEvaluation(folder: dir) }
  }
}

@Suite("BroadExperiment.setInjection: the --inject word, with an optional seed")
private struct InjectionWordTests {
  @Test(
    "labels, all, and @SEED",
    arguments: [
      ("taps3", BroadInjection(kind: .taps, strength: 3), false, BroadInjection.defaultSeed),
      ("vibration1@7", BroadInjection(kind: .vibration, strength: 1, seed: 7), false, 21),
      ("taps@0", BroadInjection(kind: .taps, strength: 2, seed: 0), false, 21),
      ("all", nil, true, 21),
      ("all@99991", nil, true, 99991),
    ] as [(String, BroadInjection?, Bool, UInt64)])
  func words(word: String, injection: BroadInjection?, all: Bool, summarySeed: UInt64) {
    var e = BroadExperiment()
    let accepted = e.setInjection(word)
    #expect(accepted)
    #expect(e.injection == injection)
    #expect(e.injectsAll == all)
    #expect(e.injectionSeed == summarySeed)
    if injection != nil { #expect(e.injectionName == word) }
  }

  @Test(
    "an unknown label or a seed that is not a whole number changes nothing",
    arguments: [
      "knocks", "taps4", "all@", "all@-1", "taps1@x", "vibration2@1.5", "@7", "",
    ])
  func rejected(word: String) {
    var e = BroadExperiment()
    let accepted = e.setInjection(word)
    #expect(!accepted)
    #expect(e.injection == nil && !e.injectsAll && e.injectionSeed == BroadInjection.defaultSeed)
  }
}
