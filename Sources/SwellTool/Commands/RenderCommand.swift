import Foundation
import SwellEffects
import SwellGeometry
import SwellMotion
import SwellPlayback
import SwellRender
import SwellScenes
import SwellWaves

/// `swell render SCENE|FILE.json`: a scene under motion to PNG/SVG/PDF frames or MP4/GIF/WebP/
/// APNG video.
struct RenderCommand: ToolCommand {
  static let spec = CommandSpec(
    "render", summary: "render a scene under motion to PNG/SVG/PDF frames or MP4/GIF/WebP video",
    arguments: [ArgumentSpec("SCENE|FILE.json")],
    discussion: """
      Renders SCENE (built-in: \(SharedOptions.sceneNames)) or a scene file (docs/scenes.md) \
      under device motion, with an offline display link: frame 0 at the first motion timestamp, \
      then one frame every 1/fps seconds.
      """,
    groups: [
      OptionGroup(
        nil,
        [
          SharedOptions.output(
            "the output; its extension picks the format: .png .svg .pdf .mp4 .gif .webp .apng, "
              + "or a numbered pattern such as frames/%05d.png (default SCENE.mp4; - for "
              + "standard output, with --format)"),
          OptionSpec(
            "--format", kind: .value("NAME"),
            help:
              "the output format, for an output without an extension such as -: png, svg, pdf, "
              + "mp4, gif, webp or apng (default: from the extension)"),
          OptionSpec(
            "--duration", kind: .value("S"),
            help: "seconds to render (default: the motion's span; 5 s without motion)"),
          OptionSpec(
            "--fps", kind: .value("N"),
            help: "frames per second (default 60; GIF: default and limit 50)"),
          OptionSpec(
            "--time", kind: .value("T"),
            help:
              "render one frame, at T seconds after the first motion sample (PNG and SVG hold one "
              + "frame: without --time they show the last frame of the duration)"),
          OptionSpec(
            "--preset", kind: .value("NAME"), help: "the libx264 preset for MP4 (default veryfast)"),
          OptionSpec(
            "--timing", help: "also print the drawing time per frame and the end-to-end rate"),
        ]),
      SharedOptions.motion,
      SharedOptions.scene,
    ],
    epilogue: """
      Progress goes to standard error: a bar with the frame count and ETA on a terminal, a plain \
      line every 10 % otherwise. The output appears only when complete (written to a temporary \
      file and renamed).
      """)

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    let motionRate = try arguments.positiveNumber("--motion-rate") ?? 100
    let output = arguments.option("--output")
    let format = try Self.format(arguments.option("--format"))
    let duration = try arguments.number("--duration", in: 0...1e6)
    let requestedFPS = try arguments.positiveNumber("--fps")
    let time = try arguments.number("--time", in: 0...1e6)
    let preset = arguments.option("--preset") ?? "veryfast"
    let timing = arguments.flag("--timing")
    let options = try SceneLoader.options(arguments)
    let positional = arguments.positional()
    try arguments.finish()
    let sceneName = try SceneLoader.required(positional)
    if let f = requestedFPS, f > 1000 {
      throw UsageError("--fps must be at most 1000, got \(displayNumber(f))")
    }
    let motion = try MotionInput.load(
      motionPath: arguments.option("--motion"), script: arguments.option("--script"),
      rate: motionRate)
    let scene = try SceneLoader.load(sceneName, options: options)
    let out = output ?? "\(scene.name).mp4"
    if out == "-" && format == nil {
      throw UsageError(
        "-o - (standard output) needs --format png, svg, pdf, mp4, gif, webp or apng")
    }
    let fps = try OutputFrameRate.resolve(requested: requestedFPS, output: out, format: format)
    var job = SceneExport(
      scene: scene, motion: motion.feed, framesPerSecond: fps,
      duration: duration ?? motion.span, output: out)
    job.singleTime = time
    job.format = format
    job.ffmpeg = FFmpegOptions(x264Preset: preset)
    let report = try SceneExportRun.run(job, console: console, label: "swell render")
    // With -o - the frames are standard output: the summary goes to standard error.
    let say = out == "-" ? console.err : console.out
    say("\(report.summary)\n")
    if timing { say("\(report.timing)\n") }
    return 0
  }

  /// Parses `--format` (`png`, `svg`, `pdf`, `mp4`, `gif`, `webp`, `apng`).
  ///
  /// - Throws: ``UsageError`` listing the names for another word.
  static func format(_ name: String?) throws(UsageError) -> OutputFormat? {
    guard let name else { return nil }
    let names = OutputFormat.allCases.filter { $0 != .pngSequence }.map(\.rawValue)
    guard names.contains(name.lowercased()), let format = OutputFormat(rawValue: name.lowercased())
    else {
      throw UsageError(
        "--format must be one of \(names.joined(separator: ", ")), got '\(UntrustedText.clipped(name))'"
      )
    }
    return format
  }
}

/// The scene options every scene command shares, parsed into the library's `SceneOptions`.
enum SceneLoader {
  /// A built-in scene, or a scene file.
  ///
  /// - Throws: ``UsageError`` for an unknown name; ``ToolError`` for a bad scene file.
  static func load(_ name: String, options: SceneOptions) throws -> any Scene {
    do {
      return try BuiltInScenes.load(name, options: options)
    } catch {
      if error.isUnknownName { throw UsageError(error.message) }
      throw ToolError(error.message)
    }
  }

  /// The shared scene options (`SharedOptions.scene`): size, orientation, rule, response, Reduce
  /// Motion.
  ///
  /// - Parameter arguments: The command's arguments.
  /// - Returns: The scene options.
  /// - Throws: ``UsageError`` for a bad size, orientation or response.
  static func options(_ arguments: Arguments) throws(UsageError) -> SceneOptions {
    var options = SceneOptions()
    options.seedExact = arguments.flag("--seed-exact")
    options.reduceMotion = arguments.flag("--reduce-motion")
    if let size = arguments.option("--size") { try apply(size: size, to: &options) }
    if let response = arguments.option("--response") { try apply(response: response, to: &options) }
    if let name = arguments.option("--orientation") { try apply(orientation: name, to: &options) }
    return options
  }

  /// The SCENE word of a command line, which must be there.
  ///
  /// - Parameter name: The positional word, if any.
  /// - Returns: The name.
  /// - Throws: ``UsageError`` listing the built-in scenes when it is missing.
  static func required(_ name: String?) throws(UsageError) -> String {
    guard let name else {
      throw UsageError(
        "needs a SCENE (\(BuiltInScenes.names.joined(separator: ", "))) or a scene FILE.json")
    }
    return name
  }

  /// Parses `--response` (`classic`, `sloshing` or `physical`) into scene options.
  ///
  /// - Throws: ``UsageError`` for another word.
  static func apply(response name: String, to options: inout SceneOptions) throws(UsageError) {
    guard let response = WaterWaveResponse(rawValue: name) else {
      throw UsageError("--response must be classic, sloshing or physical, got '\(name)'")
    }
    options.waterResponse = response
  }

  /// Parses `--orientation` (an `InterfaceOrientation` case name) into scene options.
  ///
  /// - Throws: ``UsageError`` listing the four names for another word.
  static func apply(orientation name: String, to options: inout SceneOptions) throws(UsageError) {
    guard let orientation = InterfaceOrientation(rawValue: name) else {
      let names = InterfaceOrientation.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageError(
        "--orientation must be one of \(names), got '\(UntrustedText.clipped(name))'")
    }
    options.orientation = orientation
  }

  /// Parses `WxH[@S]` (points, pixels per point) into scene options.
  ///
  /// - Throws: ``UsageError`` naming the bad part.
  static func apply(size spec: String, to options: inout SceneOptions) throws(UsageError) {
    do {
      try options.setSize(spec, maximumPixels: ImageSurface.maximumDimension)
    } catch {
      throw UsageError(error.toolMessage)
    }
  }
}

/// The motion options of the scene commands (`--motion FILE`, `--script TEXT`).
enum MotionInput {
  /// Opens the motion a scene command asked for.
  ///
  /// - Throws: ``UsageError`` when both are given; ``ToolError`` for bad input, naming it.
  static func load(motionPath: String?, script: String?, rate: Double) throws -> SceneMotionInput {
    guard motionPath == nil || script == nil else {
      throw UsageError("--motion and --script exclude each other")
    }
    do {
      if let motionPath { return try .recording(URL(fileURLWithPath: motionPath)) }
      if let script { return try .script(script, rate: rate) }
    } catch {
      throw ToolError(error.toolMessage)
    }
    return .resting
  }
}
