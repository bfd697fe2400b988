import Foundation
import SwellGeometry
import SwellMotion
import Testing

@Suite("Motion script parser")
private struct ScriptParserTests {
  @Test("parses the example script") func parsesTheExampleScript() throws {
    let s = try MotionScript(
      parsing: "hold 1s; tilt 30deg right over 0.5s; shake x 3Hz 2rad/s for 1s")
    #expect(s.steps.count == 3)
    #expect(s.steps[0] == .hold(duration: 1))
    guard case .rotate(let axis, let world, let angle, let d) = s.steps[1] else {
      Issue.record("expected a rotation, got \(s.steps[1])")
      return
    }
    #expect(axis == .unitZ)
    #expect(!world)
    #expect(abs(angle - (-30 * Double.pi / 180)) < 1e-12)
    #expect(d == 0.5)
    #expect(s.steps[2] == .shake(axis: .unitX, frequency: 3, peakRate: 2, duration: 1))
    #expect(abs(s.duration - 2.5) < 1e-12)
  }

  @Test("accepts newlines comments units and poses") func acceptsNewlinesCommentsUnitsAndPoses()
    throws
  {
    let text = """
      flat   # start lying on the table
      hold 500ms
      portrait; landscape left; landscape right
      rotate 0.5rad about -y over 2s
      turn 90 deg left
      tilt 10° back
      push x 0.5g for 0.1s
      shake z 2Hz 90deg/s for 1sec
      """
    let s = try MotionScript(parsing: text)
    #expect(s.steps.count == 10)
    #expect(s.steps[0] == .pose(.flat))
    #expect(s.steps[1] == .hold(duration: 0.5))
    #expect(s.steps[3] == .pose(.landscapeLeft))
    #expect(
      s.steps[5] == .rotate(axis: -Vector3.unitY, inReferenceFrame: false, angle: 0.5, duration: 2))
    #expect(
      s.steps[6] == .rotate(axis: .unitZ, inReferenceFrame: true, angle: .pi / 2, duration: 0.5))
    #expect(s.steps[8] == .push(acceleration: Vector3(0.5, 0, 0), duration: 0.1))
    #expect(s.steps[9] == .shake(axis: .unitZ, frequency: 2, peakRate: .pi / 2, duration: 1))
  }

  @Test(
    "reports errors with word and position",
    arguments: [
      ("hold 1s; wobble", "unknown script word 'wobble' at 1:10"),
      ("hold 1s\n  wobble 3", "unknown script word 'wobble' at 2:3"),
      ("hold", "missing a duration like '1s' after 'hold' at 1:5"),
      ("hold 1", "expected a duration like '1s', got '1' at 1:6"),
      ("hold -1s", "duration must not be negative, got '-1s' at 1:6"),
      ("hold nans", "expected a duration like '1s', got 'nans' at 1:6"),
      (
        "tilt 30deg sideways",
        "unknown tilt direction 'sideways' (use left, right, forward or back) at 1:12"
      ),
      ("tilt 30 right", "expected an angle like '30deg', got '30' at 1:6"),
      ("rotate 30deg around x", "expected 'about', got 'around' at 1:14"),
      ("rotate 30deg about w", "expected an axis (x, y or z), got 'w' at 1:20"),
      ("shake x 0Hz 2rad/s for 1s", "frequency must be positive, got '0Hz' at 1:9"),
      ("shake x 3Hz 2rad/s 1s", "expected 'for', got '1s' at 1:20"),
      ("hold 1s 2s", "unexpected script word '2s' (use ';' between steps) at 1:9"),
      ("tilt 30deg right over", "missing a duration like '1s' after 'over' at 1:22"),
    ])
  func reportsErrorsWithWordAndPosition(text: String, expected: String) {
    do {
      _ = try MotionScript(parsing: text)
      Issue.record("no error for \(text)")
    } catch {
      #expect(error.description == expected)
    }
  }

  @Test("empty script has zero duration") func emptyScriptHasZeroDuration() throws {
    let s = try MotionScript(parsing: "  # nothing\n;;")
    #expect(s.steps.isEmpty)
    #expect(s.duration == 0)
    #expect(s.samples(rate: 100).count == 1)
  }
}
