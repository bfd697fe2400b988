import Foundation
import SwellGeometry
import SwellMotion
import SwellRender
import SwellScenes
import SwellWaves

/// `swell render SCENE|FILE.json`: a scene under motion to PNG/SVG/PDF frames or MP4/GIF/WebP/
/// APNG video.
struct RenderCommand: ToolCommand {
  static let name = "render"
  static let summary = "render a scene under motion to PNG/SVG/PDF frames or MP4/GIF/WebP video"
  static let help = """
    Usage: swell render SCENE|FILE.json [--motion FILE | --script TEXT] [-o OUT]
                        [--duration S] [--fps N] [--size WxH[@S]] [--time T]
                        [--seed-exact] [--response classic|sloshing] [--reduce-motion]
                        [--preset NAME] [--motion-rate HZ]

    Renders SCENE (built-in: \(BuiltInScenes.names.joined(separator: ", "))) or a scene file
    (docs/scenes.md) under device motion, with an offline display link: frame 0 at the first
    motion timestamp, then one frame every 1/fps seconds; floor(duration * fps) + 1 frames.

    Options:
      --motion FILE          device motion: a device-motion CSV, or any raw recording that
                             'swell fuse' reads (fused on the fly)
      --script TEXT          scripted motion, e.g. "hold 1s; tilt 30deg right over 0.5s";
                             without --motion or --script the device rests upright
      --motion-rate HZ       the rate scripted motion is sampled at (default 100)
      -o, --out OUT          the output; its extension picks the format: .png .svg .pdf .mp4
                             .gif .webp .apng, or a numbered pattern such as frames/%05d.png
                             (default SCENE.mp4)
      --duration S           seconds to render (default: the motion's span; 5 s without motion)
      --fps N                frames per second (default 60; GIF: default and limit 50)
      --size WxH[@S]         canvas size in points and pixels per point (default: the scene's)
      --time T               render one frame, at T seconds after the first motion sample
                             (PNG and SVG hold one frame: without --time they show the last
                             frame of the duration)
      --seed-exact           the seed's literal tilt and amplitude rule
      --response NAME        the water's response: classic or sloshing
      --reduce-motion        Reduce Motion: no wave motion, tilt or viewer offset
      --preset NAME          the libx264 preset for MP4 (default veryfast)
      --timing               also print the drawing time per frame and the end-to-end rate

    A progress line with the frame count and ETA is drawn on standard error when it is a
    terminal. The output appears only when complete (written to a temporary file and renamed).

    """

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    let motionPath = try arguments.option("--motion")
    let scriptText = try arguments.option("--script")
    let motionRate = try arguments.positiveNumber("--motion-rate") ?? 100
    let output = try arguments.option("--out", "-o")
    let duration = try arguments.number("--duration", in: 0...1e6)
    let requestedFPS = try arguments.positiveNumber("--fps")
    let sizeSpec = try arguments.option("--size")
    let time = try arguments.number("--time", in: 0...1e6)
    let responseName = try arguments.option("--response")
    let preset = try arguments.option("--preset") ?? "veryfast"
    let timing = arguments.flag("--timing")
    var options = SceneLoader.flags(&arguments)
    let positional = arguments.positional()
    try arguments.finish()
    let sceneName = try SceneLoader.required(positional)

    if let sizeSpec { try SceneLoader.apply(size: sizeSpec, to: &options) }
    if let responseName { try SceneLoader.apply(response: responseName, to: &options) }
    if let f = requestedFPS, f > 1000 {
      throw UsageError("--fps must be at most 1000, got \(f)")
    }
    let motion = try MotionInput.load(
      motionPath: motionPath, script: scriptText, rate: motionRate)
    let scene = try SceneLoader.load(sceneName, options: options)
    let out = output ?? "\(scene.name).mp4"
    let fps = try OutputFrameRate.resolve(requested: requestedFPS, output: out)
    var job = SceneExportJob(
      scene: scene, motion: motion.feed, framesPerSecond: fps,
      duration: duration ?? motion.span, output: out)
    job.singleTime = time
    job.ffmpeg = FFmpegOptions(x264Preset: preset)
    let report = try job.run(console: console, label: "swell render")
    console.out("\(report.summary)\n")
    if timing { console.out("\(report.timing)\n") }
    return 0
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

  /// The scene flags every scene command takes: `--seed-exact` and `--reduce-motion`.
  ///
  /// - Parameter arguments: The command's arguments; the flags are consumed.
  /// - Returns: Scene options with those flags set.
  static func flags(_ arguments: inout Arguments) -> SceneOptions {
    var options = SceneOptions()
    options.seedExact = arguments.flag("--seed-exact")
    options.reduceMotion = arguments.flag("--reduce-motion")
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

  /// Parses `--response` (`classic` or `sloshing`) into scene options.
  ///
  /// - Throws: ``UsageError`` for another word.
  static func apply(response name: String, to options: inout SceneOptions) throws(UsageError) {
    guard let response = WaterWaveResponse(rawValue: name) else {
      throw UsageError("--response must be classic or sloshing, got '\(name)'")
    }
    options.waterResponse = response
  }

  /// Parses `WxH[@S]` (points, pixels per point) into scene options.
  ///
  /// - Throws: ``UsageError`` naming the bad part.
  static func apply(size spec: String, to options: inout SceneOptions) throws(UsageError) {
    do {
      try options.setSize(spec, maximumPixels: ImageSurface.maximumDimension)
    } catch {
      throw UsageError(error.message)
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
      throw ToolError(error.message)
    }
    return .resting
  }
}
