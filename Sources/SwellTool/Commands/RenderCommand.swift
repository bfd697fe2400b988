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
struct RenderCommand: TypedToolCommand {
  static let about = CommandAbout(
    "render", summary: "render a scene under motion to PNG/SVG/PDF frames or MP4/GIF/WebP video",
    discussion: """
      Renders SCENE (built-in: \(SceneOptionGroup.sceneNames)) or a scene file (docs/scenes.md) \
      under device motion, with an offline display link: frame 0 at the first motion timestamp, \
      then one frame every 1/fps seconds.
      """,
    epilogue: """
      Progress goes to standard error: a bar with the frame count and ETA on a terminal, a plain \
      line every 10 % otherwise. The output appears only when complete (written to a temporary \
      file and renamed).
      """,
    examples: [
      "render waterwave --duration 4 -o wave.mp4",
      "render waterwave --motion recording.zip -o wave.gif",
    ])

  /// The formats `--format` names (every output format but the numbered PNG pattern).
  enum FormatName: String, CaseIterable, Sendable {
    case png, svg, pdf, mp4, gif, webp, apng
    var format: OutputFormat? { OutputFormat(rawValue: rawValue) }
  }

  struct Options: ParsableOptions {
    var output: String?
    var format: OutputFormat?
    var duration: Double?
    var fps: Double?
    var time: Double?
    var preset: String
    var timing: Bool
    var motion: MotionOptionGroup
    var scene: SceneOptionGroup
    var sceneName: String?

    /// The libx264 presets, fastest first: `x264_preset_names` in x264's `x264.h`, which ffmpeg's
    /// libx264 wrapper passes its `-preset` to (`x264_param_default_preset`).
    static let x264Presets = [
      "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
      "veryslow", "placebo",
    ]

    init(_ p: inout OptionParser) throws(UsageError) {
      output = p.output(
        defaultText: "SCENE.mp4",
        help:
          "the output; its extension picks the format: .png .svg .pdf .mp4 .gif .webp .apng, "
          + "or a numbered pattern such as frames/%05d.png (- for standard output, with --format)")
      format = try p.option(
        "--format", as: FormatName.self, defaultText: "from the extension",
        help: "the output format, for an output without an extension such as -")?.format
      duration = try p.option(
        "--duration", value: "S", in: 0...1e6, defaultText: "the motion's span; 5 s without motion",
        help: "seconds to render")
      fps = try p.option(
        "--fps", in: .positive(atMost: 1000), defaultText: "60; GIF: default and limit 50",
        help: "frames per second")
      time = try p.option(
        "--time", value: "T", in: 0...1e6,
        help:
          "render one frame, at T seconds after the first motion sample (PNG and SVG hold one "
          + "frame: without --time they show the last frame of the duration)")
      preset = p.option(
        "--preset", value: "NAME", default: "veryfast", help: "the libx264 preset for MP4")
      timing = p.flag(
        "--timing", help: "also print the drawing time per frame and the end-to-end rate")
      motion = try p.group(MotionOptionGroup.self)
      scene = try p.group(SceneOptionGroup.self)
      sceneName = p.argument("SCENE|FILE.json", kind: .scene)
    }

    func validate() throws(UsageError) {
      _ = try SceneLoader.required(sceneName)
      // Checked before ffmpeg starts, which would otherwise fail after the first frames.
      guard Self.x264Presets.contains(preset) else {
        throw UsageError(
          "--preset must be one of " + Self.x264Presets.joined(separator: ", ")
            + ", got '\(UntrustedText.clipped(preset, limit: 40))'")
      }
      if output == "-" && format == nil {
        throw UsageError(
          "-o - (standard output) needs --format png, svg, pdf, mp4, gif, webp or apng")
      }
      if format == nil {
        try OutputName.requireExtension(output, examples: [".mp4", ".png", ".gif"])
      } else {
        try OutputName.requireNotFolder(output)
      }
      // The name and the content must agree: an extension no sink writes is a usage error, and
      // so is a --format that contradicts a known one.
      if let output, output != "-", OutputName.judgedExtension(output) != nil {
        let named: OutputFormat
        do {
          named = try OutputFormat(path: output)
        } catch {
          guard format == nil else { return }
          throw UsageError("-o: \(error)")
        }
        guard !(format == .png && named == .pngSequence) else { return }
        try OutputName.requireAgreement(
          format: format?.rawValue, named: named == .pngSequence ? "png" : named.rawValue,
          output: output)
      }
    }
  }

  static func run(_ o: Options, console: Console) throws -> Int32 {
    let motion = try o.motion.load()
    let scene = try SceneLoader.load(o.sceneName ?? "", options: o.scene.scene)
    let out = o.output ?? "\(scene.name).mp4"
    let maximum = (o.format ?? (try? OutputFormat(path: out)))?.maximumFramesPerSecond
    if let maximum, let fps = o.fps, fps > maximum {
      throw UsageError(
        "a GIF plays at most \(displayNumber(maximum)) frames per second (its delays are whole "
          + "hundredths of a second); use --fps \(displayNumber(maximum)) or lower, got "
          + displayNumber(fps))
    }
    let fps = o.fps ?? min(60, maximum ?? 60)
    var job = SceneExport(
      scene: scene, motion: motion.feed, framesPerSecond: fps,
      duration: o.duration ?? motion.span, output: out)
    job.singleTime = o.time
    job.format = o.format
    job.ffmpeg = FFmpegOptions(x264Preset: o.preset)
    let (report, seconds) = try SceneExportRun.run(job, console: console, label: "swell render")
    // With -o - the frames are standard output: the summary goes to standard error.
    let say = out == "-" ? console.err : console.out
    say(report.summary(seconds: seconds) + "\n")
    if o.timing { say(report.timing(seconds: seconds) + "\n") }
    return 0
  }
}

/// The scene options every scene command shares, parsed into the library's `SceneOptions`.
enum SceneLoader {
  /// A built-in scene, or a scene file.
  ///
  /// - Throws: `SceneLoadError` (an unknown name is a usage mistake) or `SceneFileError`.
  static func load(_ name: String, options: SceneOptions) throws -> any Scene {
    let scene = try BuiltInScenes.load(name, options: options)
    // Keys of a scene file that Swell does not know (a misspelt optional key is otherwise
    // ignored) are warned about; `swell scene check --strict` makes them errors.
    if let check = SceneFileCheck(loaded: scene, contentsOf: URL(fileURLWithPath: name)),
      let text = check.unknownKeysText(name: UntrustedText.clipped(name))
    {
      let line = "swell: warning: \(text); ignored (see 'swell scene check')"
      FileHandle.standardError.write(Data(UntrustedText.escaped(line).utf8 + [10]))
    }
    return scene
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
}
