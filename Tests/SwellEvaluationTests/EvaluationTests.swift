import Foundation
import SwellEvaluation
import SwellGeometry
import SwellMotion
import SwellRecordings
import SwellTestSupport
import Testing

private let degree = Double.pi / 180

private func rotZ(_ a: Double) -> Quaternion { Quaternion(axis: .unitZ, angle: a) }

@Suite("Evaluation: BROAD-style scoring")
private struct EvaluationTests {
  @Test("hand-computed error angles")
  func handComputed() {
    let truth = Quaternion(axis: Vector3(1, 2, 3), angle: 0.7)
    // A pure heading error of 10° (rotation about the Earth's vertical).
    var e = OrientationError(estimate: rotZ(10 * degree) * truth, truth: truth)
    #expect(abs(e.totalDegrees - 10) < 1e-9)
    #expect(abs(e.headingDegrees - 10) < 1e-9)
    #expect(abs(e.inclinationDegrees) < 1e-6)
    // A pure inclination error of 5° about the Earth's x axis.
    e = OrientationError(
      estimate: Quaternion(axis: .unitX, angle: 5 * degree) * truth, truth: truth)
    #expect(abs(e.totalDegrees - 5) < 1e-9)
    #expect(abs(e.headingDegrees) < 1e-9)
    #expect(abs(e.inclinationDegrees - 5) < 1e-9)
    // e = (cos 30°, 0, sin 30° · (0.6, 0, 0.8)) by hand: w = cos 30°, x = 0.3, z = 0.4.
    let w = cos(30 * degree)
    let err = Quaternion(w: w, x: 0.5 * 0.6, y: 0, z: 0.5 * 0.8)
    e = OrientationError(estimate: err * truth, truth: truth)
    #expect(abs(e.totalDegrees - 60) < 1e-9)
    #expect(abs(e.headingDegrees - 2 * atan(0.4 / w) / degree) < 1e-9)
    #expect(abs(e.inclinationDegrees - 2 * acos((w * w + 0.16).squareRoot()) / degree) < 1e-9)
    // The sign of the quaternion does not matter.
    let neg = Quaternion(w: -err.w, x: -err.x, y: -err.y, z: -err.z)
    #expect(OrientationError(estimate: neg * truth, truth: truth) == e)
  }

  @Test(
    "heading alignment recovers a known offset exactly",
    arguments: [0.0, 37.0, -120.0, 179.9, 180.0])
  func alignmentRecoversOffset(offsetDegrees: Double) throws {
    var rng = SplitMix64(seed: UInt64(abs(offsetDegrees) * 10) + 7)
    let truths = (0..<500).map { _ in rng.rotation() }
    let a = offsetDegrees * degree
    let estimates = truths.map { rotZ(-a) * $0 }
    let r = OrientationEvaluation.score(estimates: estimates, truths: truths, alignHeading: true)
    var d = r.headingOffset - a
    d = atan2(sin(d), cos(d))
    #expect(abs(d) < 1e-9, "offset \(r.headingOffset / degree) for \(offsetDegrees)")
    #expect(r.rmse.totalDegrees < 1e-6)
  }

  @Test("heading alignment matches a brute-force search on noisy data")
  func alignmentMatchesBruteForce() {
    for seed: UInt64 in [1, 2, 3, 4] {
      var rng = SplitMix64(seed: seed)
      // Errors spread widely, some wrapping around ±180°.
      let psi = (0..<300).map { _ in
        var v = Double.random(in: -1...1, using: &rng) * (seed == 4 ? 3.0 : 1.2) + 2.8
        v = atan2(sin(v), cos(v))
        return v
      }
      let alpha = OrientationEvaluation.optimalHeadingOffset(signedHeadingErrors: psi)
      func cost(_ a: Double) -> Double {
        psi.reduce(0) { s, x in
          let w = atan2(sin(x + a), cos(x + a))
          return s + w * w
        }
      }
      var best = (cost(0), 0.0)
      var a = -Double.pi
      while a < Double.pi {
        let c = cost(a)
        if c < best.0 { best = (c, a) }
        a += 1e-4
      }
      // Closed form is at least as good as the grid, and within one grid step of its optimum.
      #expect(cost(alpha) <= best.0 + 1e-9, "seed \(seed): \(alpha) vs \(best.1)")
    }
  }

  @Test("RMSE skips unscored and occluded samples")
  func scoringMask() {
    let truth = Quaternion(axis: .unitY, angle: 0.3)
    let nan = Quaternion(w: .nan, x: .nan, y: .nan, z: .nan)
    let est = [rotZ(2 * degree) * truth, rotZ(50 * degree) * truth, rotZ(4 * degree) * truth]
    let r = OrientationEvaluation.score(
      estimates: est + [est[0]], truths: [truth, truth, truth, nan],
      scored: [true, false, true, true], alignHeading: false)
    #expect(abs(r.rmse.headingDegrees - ((4.0 + 16.0) / 2).squareRoot()) < 1e-9)
  }

  @Test("the table reader names file, line and column")
  func tableErrors() throws {
    let good = "# c\nt_s,a,b\n0,1,2\n1,nan,\n"
    let t = try NumericTable(data: Data(good.utf8), name: "x.csv", required: ["t_s", "b"])
    #expect(t.rowCount == 2)
    #expect(t.columns[1][0] == 2 && t.columns[1][1].isNaN)
    #expect(t.lines == [3, 4])
    #expect(t.comments == ["c"])
    let bad = "t_s,a,b\n0,1,2\n1,1x,3\n"
    #expect {
      try NumericTable(data: Data(bad.utf8), name: "bad.csv", required: ["t_s", "a"])
    } throws: { e in
      "\(e)" == "bad.csv:3: column 'a': malformed number '1x'"
    }
    #expect {
      try NumericTable(data: Data("t_s,q\n1,2\n".utf8), name: "h.csv", required: ["t_s", "a"])
    } throws: { e in
      "\(e)".contains("h.csv:1") && "\(e)".contains("missing column 'a'")
    }
    #expect {
      try NumericTable(data: Data("t_s,a\n1\n".utf8), name: "s.csv", required: ["t_s", "a"])
    } throws: { e in
      "\(e)".hasPrefix("s.csv:2: column 'a'")
    }
  }
}

@Suite("Evaluation: BROAD excerpt")
private struct EvaluationBroadExcerptTests {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../SwellRecordingsTests/Fixtures/broad_24_excerpt.csv")

  @Test("the loader reads the excerpt and fusion stays within a sanity bound")
  func excerpt() throws {
    let trial = try BroadTrial(contentsOf: Self.fixture)
    #expect(trial.count == 1300)
    #expect(trial.category == .tapping)
    #expect(trial.movement.filter { $0 }.count == 900)
    #expect(abs(trial.timestamps[1] - trial.timestamps[0] - 0.0035) < 1e-6)
    #expect(abs(trial.truth[0].norm - 1) < 1e-6)
    let r9 = trial.evaluate(mode: .nineD)
    let r6 = trial.evaluate(mode: .sixD)
    #expect(r9.totalDegrees < 6 && r9.inclinationDegrees < 3, "9D \(r9)")
    #expect(r6.totalDegrees < 4 && r6.inclinationDegrees < 3, "6D \(r6)")
    // An estimate that ignores the data is far off: the bound means something.
    let still = OrientationEvaluation.score(
      estimates: Array(repeating: .identity, count: trial.count), truths: trial.truth,
      scored: trial.movement, alignHeading: true
    ).rmse
    #expect(still.totalDegrees > 10)
  }

  @Test("a fused device-motion CSV scores as the in-memory estimate does")
  func estimateFile() throws {
    let trial = try BroadTrial(contentsOf: Self.fixture)
    let enu = trial.fuse(mode: .nineD)
    let nwu = enu.map { OrientationEvaluation.nwuToENU.conjugate * $0 }
    var csv = "# referenceFrame: xMagneticNorthZVertical\n"
    csv += "time,attitude.w,attitude.x,attitude.y,attitude.z,gravity.x\n"
    for (t, q) in zip(trial.timestamps, nwu) { csv += "\(t),\(q.w),\(q.x),\(q.y),\(q.z),0\n" }
    let dir = FileManager.default.temporaryDirectory
    let url = dir.appendingPathComponent("swell-eval-\(UInt64.random(in: 0...UInt64.max)).csv")
    try csv.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let e = try EstimateEvaluation(estimate: url, truth: Self.fixture, alignHeading: nil)
    let direct = OrientationEvaluation.score(
      estimates: enu, truths: trial.truth, scored: trial.movement, alignHeading: false
    ).rmse
    #expect(e.referenceFrame == .xMagneticNorthZVertical)
    #expect(!e.headingAligned)
    #expect(e.scoredCount == 900)
    #expect(abs(e.rmse.totalDegrees - direct.totalDegrees) < 1e-9)
  }
}
