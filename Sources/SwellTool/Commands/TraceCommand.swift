import Foundation
import SwellMotion
import SwellRecordings
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

  /// The most frames one trace (and the most samples one script) may have.
  static let maximumFrames = 5_000_000

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
      throw ToolError(error.message)
    }
    let traced = duration ?? input.span
    let frames = traced * fps
    guard frames < Double(maximumFrames) else {
      throw ToolError(
        "\(count(frames)) frames is too many (at most \(maximumFrames)); lower --fps or --duration")
    }

    var driver = SceneDriver(scene: scene, motion: input.feed, framesPerSecond: fps)
    let count = driver.frameCount(duration: traced)
    let keys = scene.traceKeys
    let trace = SceneTraceFormat(keys: keys, json: format == "json")
    var text = trace.header
    // The rows go out in chunks (to a temporary file renamed at the end, or to standard
    // output), so a long trace does not build one huge string.
    let file: AtomicFileWriter?
    do {
      file = try output.map { try AtomicFileWriter(url: URL(fileURLWithPath: $0)) }
    } catch {
      throw ToolError("\(error)")
    }
    func flush() throws {
      if let file {
        do { try file.write(text) } catch { throw ToolError(error.description) }
      } else {
        console.out(text)
      }
      text = ""
    }
    var progress = ProgressLine(console: console, label: "swell trace", total: count, unit: "row")
    var done = 0
    do {
      while done < count {
        let chunk = try driver.trace(frames: min(2_000, count - done))
        if chunk.isEmpty { break }
        for row in chunk {
          trace.appendRow(row, first: done == 0, to: &text)
          done += 1
        }
        try flush()
        progress.update(done: done)
      }
    } catch let e as SceneMotionError {
      progress.clear()
      throw ToolError(e.message)
    }
    progress.clear()
    text += trace.footer
    try flush()
    do {
      try file?.commit()
    } catch {
      throw ToolError(error.description)
    }
    return 0
  }

  /// A frame or sample count for a message: whole numbers up to 10¹⁵, exponent form above (a
  /// huge `--duration` must not trap converting to `Int`).
  static func count(_ v: Double) -> String {
    v < 1e15 ? String(Int(v)) : "\(v)"
  }
}
