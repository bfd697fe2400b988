import Foundation
import SwellMotion
import SwellPlayback
import SwellRecordings
import SwellScenes
import SwellWaves

/// `swell trace SCENE`: per-frame presentation values of a scene under motion, as CSV or JSON
/// (docs/formats.md "Trace"), computed with the offline display link.
struct TraceCommand: TypedToolCommand {
  static let about = CommandAbout(
    "trace", summary: "per-frame presentation values (wave tilt, amplitude, phase) as CSV or JSON",
    discussion: """
      Plays SCENE (built-in: \(SceneOptionGroup.sceneNames)) or a scene file (docs/scenes.md; its \
      "trace" field picks the columns) under device motion with an offline display link and \
      writes one row per frame: the frame's target time, then the traced presentation values \
      (angles in radians in (-pi, pi], lengths in points; docs/formats.md). Frame 0 is at the \
      first motion timestamp.
      """,
    examples: [
      "trace waterwave --script \"tilt 30deg right over 0.5s\" --fps 60",
      "trace homescreen --motion motion.csv --format json -o trace.json",
    ])

  enum Format: String, CaseIterable, Sendable { case csv, json }

  struct Options: ParsableOptions {
    var output: String?
    var fps: Double
    var duration: Double?
    var format: Format?
    var motion: MotionOptionGroup
    var scene: SceneOptionGroup
    var sceneName: String?

    init(_ p: inout OptionParser) throws(UsageError) {
      output = p.output(
        help: "write to FILE (atomically) instead of standard output")
      fps = try p.option("--fps", default: 60, in: .positive, help: "frames per second")
      duration = try p.option(
        "--duration", value: "S", in: .positive,
        defaultText: "the motion's span; 5 s without motion", help: "seconds to trace")
      format = try p.option(
        "--format", as: Format.self, defaultText: "from the extension of -o, else csv",
        help: "CSV with a header row or a JSON array of objects")
      motion = try p.group(MotionOptionGroup.self)
      scene = try p.group(SceneOptionGroup.self)
      sceneName = p.argument("SCENE|FILE.json", kind: .scene)
    }

    func validate() throws(UsageError) {
      _ = try SceneLoader.required(sceneName)
      try OutputName.requireNotFolder(output)
      try OutputName.require(output, oneOf: ["csv", "json"], writing: "a CSV or JSON trace")
      if let output {
        try OutputName.requireAgreement(
          format: format?.rawValue, named: OutputName.judgedExtension(output), output: output)
      }
    }
  }

  static func run(_ o: Options, console: Console) throws -> Int32 {
    let scene = try SceneLoader.load(o.sceneName ?? "", options: o.scene.scene)
    let input = try o.motion.load()
    // The format written: --format, else the output's extension, else CSV.
    let json =
      o.format.map { $0 == .json } ?? (o.output.flatMap(OutputName.judgedExtension) == "json")
    let trace = SceneTraceExport(
      scene: scene, motion: input.feed, framesPerSecond: o.fps,
      duration: o.duration ?? input.span, json: json)
    try ProgressLine.showing(console: console, label: "swell trace", unit: "row") {
      try trace.run(
        to: o.output.map { .file(URL(fileURLWithPath: $0)) } ?? .text { console.out($0) },
        progress: $0)
    }
    return 0
  }
}
