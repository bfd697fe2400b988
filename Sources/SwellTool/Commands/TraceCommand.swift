import Foundation
import SwellMotion
import SwellScenes
import SwellWaves

/// `swell trace SCENE`: per-frame presentation values of a scene under motion, as CSV or JSON
/// (FORMATS.md "Trace"), computed with the offline display link.
struct TraceCommand: TypedToolCommand {
  static let about = CommandAbout(
    "trace", summary: "per-frame presentation values (wave tilt, amplitude, phase) as CSV or JSON",
    discussion: """
      Plays SCENE (built-in: \(SharedOptions.sceneNames)) or a scene file (docs/scenes.md; its \
      "trace" field picks the columns) under device motion with an offline display link and \
      writes one row per frame: the frame's target time, then the traced presentation values \
      (angles in radians in (-pi, pi], lengths in points; docs/formats.md). Frame 0 is at the \
      first motion timestamp.
      """,
    examples: [
      "trace waterwave --script \"tilt 30deg right over 0.5s\" --fps 60",
      "trace homescreen --motion motion.csv --format json -o trace.json",
    ])

  /// The most frames one trace (and the most samples one script) may have.
  static let maximumFrames = 5_000_000

  enum Format: String, CaseIterable, Sendable { case csv, json }

  struct Options: ParsableOptions {
    var output: String?
    var fps: Double
    var duration: Double?
    var format: Format
    var motion: MotionOptionGroup
    var scene: SceneOptionGroup
    var sceneName: String?

    init(_ p: inout OptionParser) throws(UsageError) {
      output = p.option(
        "--output", short: "-o", aliases: ["--out"], value: "FILE", kind: .file,
        help: "write to FILE (atomically) instead of standard output")
      fps = try p.option("--fps", default: 60, in: .positive, help: "frames per second")
      duration = try p.option(
        "--duration", value: "S", in: .positive,
        defaultText: "the motion's span; 5 s without motion", help: "seconds to trace")
      format = try p.option(
        "--format", value: "FORMAT", default: Format.csv,
        help: "CSV with a header row or a JSON array of objects")
      motion = try p.group(MotionOptionGroup.self)
      scene = try p.group(SceneOptionGroup.self)
      sceneName = p.argument("SCENE|FILE.json", kind: .scene)
    }

    func validate() throws(UsageError) { _ = try SceneLoader.required(sceneName) }
  }

  static func run(_ o: Options, console: Console) throws -> Int32 {
    let (fps, duration, output) = (o.fps, o.duration, o.output)
    let scene = try SceneLoader.load(o.sceneName ?? "", options: o.scene.scene)
    let input = try o.motion.load()
    let traced = duration ?? input.span
    let frames = traced * fps
    guard frames < Double(maximumFrames) else {
      throw ToolError(
        "\(count(frames)) frames is too many (at most \(maximumFrames)); lower --fps or --duration")
    }

    var driver = SceneDriver(scene: scene, motion: input.feed, framesPerSecond: fps)
    let count = driver.frameCount(duration: traced)
    let keys = scene.traceKeys
    let trace = SceneTraceFormat(keys: keys, json: o.format == .json)
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
