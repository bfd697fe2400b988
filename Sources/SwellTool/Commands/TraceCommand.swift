import Foundation
import SwellMotion
import SwellPlayback
import SwellScenes
import SwellWaves

/// `swell trace SCENE`: per-frame presentation values of a scene under motion, as CSV or JSON
/// (FORMATS.md "Trace"), computed with the offline display link.
struct TraceCommand: ToolCommand {
  static let spec = CommandSpec(
    "trace", summary: "per-frame presentation values (wave tilt, amplitude, phase) as CSV or JSON",
    arguments: [ArgumentSpec("SCENE|FILE.json")],
    discussion: """
      Plays SCENE (built-in: \(SharedOptions.sceneNames)) or a scene file (docs/scenes.md; its \
      "trace" field picks the columns) under device motion with an offline display link and \
      writes one row per frame: the frame's target time, then the traced presentation values \
      (angles in radians in (-pi, pi], lengths in points; docs/formats.md). Frame 0 is at the \
      first motion timestamp.
      """,
    groups: [
      OptionGroup(
        nil,
        [
          SharedOptions.output("write to FILE (atomically) instead of standard output"),
          OptionSpec("--fps", kind: .value("N"), help: "frames per second (default 60)"),
          OptionSpec(
            "--duration", kind: .value("S"),
            help: "seconds to trace (default: the motion's span; 5 s without motion)"),
          OptionSpec(
            "--format", kind: .value("csv|json"),
            help: "CSV with a header row (default) or a JSON array of objects"),
        ]),
      SharedOptions.motion,
      SharedOptions.scene,
    ])

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    let motionPath = arguments.option("--motion")
    let scriptText = arguments.option("--script")
    let fps = try arguments.positiveNumber("--fps") ?? 60
    let duration = try arguments.positiveNumber("--duration")
    let motionRate = try arguments.positiveNumber("--motion-rate") ?? 100
    let format = arguments.option("--format") ?? "csv"
    let output = arguments.option("--output")
    let options = try SceneLoader.options(arguments)
    let positional = arguments.positional()
    try arguments.finish()
    let sceneName = try SceneLoader.required(positional)

    guard format == "csv" || format == "json" else {
      throw UsageError("--format must be csv or json, got '\(format)'")
    }
    guard motionPath == nil || scriptText == nil else {
      throw UsageError("--motion and --script exclude each other")
    }
    let scene = try SceneLoader.load(sceneName, options: options)

    let input: SceneMotionInput
    do {
      if let motionPath {
        input = try .recording(URL(fileURLWithPath: motionPath))
      } else if let scriptText {
        input = try .script(scriptText, rate: motionRate)
      } else {
        input = .resting
      }
    } catch {
      throw ToolError(error.toolMessage)
    }
    let trace = SceneTraceExport(
      scene: scene, motion: input.feed, framesPerSecond: fps, duration: duration ?? input.span,
      json: format == "json")
    var progress: ProgressLine?
    defer { progress?.clear() }
    do {
      try trace.run(
        to: output.map { .file(URL(fileURLWithPath: $0)) } ?? .text { console.out($0) },
        progress: { done, total in
          if progress == nil {
            progress = ProgressLine(
              console: console, label: "swell trace", total: total, unit: "row")
          }
          progress?.update(done: done)
        })
    } catch {
      throw ToolError(error.toolMessage)
    }
    return 0
  }
}
