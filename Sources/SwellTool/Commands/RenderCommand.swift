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
      scene: scene, motion: motion.samples, framesPerSecond: fps,
      duration: duration ?? motion.span, output: out)
    job.singleTime = time
    job.ffmpeg = FFmpegOptions(x264Preset: preset)
    let report = try job.run(console: console, label: "swell render")
    console.out("\(report.summary)\n")
    if timing { console.out("\(report.timing)\n") }
    return 0
  }
}

/// Finds a scene by name (built-in) or path (`.json` scene file).
enum SceneLoader {
  /// A built-in scene, or a scene file when the name ends in `.json` or names an existing file.
  ///
  /// - Throws: ``UsageError`` for an unknown name; ``ToolError`` for a bad scene file.
  static func load(_ name: String, options: SceneOptions) throws -> any Scene {
    if let scene = BuiltInScenes.make(name, options: options) { return scene }
    let isFile =
      name.lowercased().hasSuffix(".json") || FileManager.default.fileExists(atPath: name)
    guard isFile else {
      throw UsageError(
        "unknown scene '\(name)' (built-in: \(BuiltInScenes.names.joined(separator: ", ")); "
          + "or a scene file ending in .json)")
    }
    do {
      return try FileScene(contentsOf: URL(fileURLWithPath: name), options: options)
    } catch let e as SceneFileError {
      throw ToolError(e.message)
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
  /// - Parameters:
  ///   - name: The option's value.
  ///   - options: The options to change.
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
    var text = Substring(spec)
    var scale: Double?
    if let at = text.firstIndex(of: "@") {
      let s = text[text.index(after: at)...].trimmingCharacters(in: .whitespaces)
      let digits = s.hasSuffix("x") ? String(s.dropLast()) : s
      guard let v = Double(digits), v.isFinite, v > 0, v <= 8 else {
        throw UsageError("--size: scale '\(s)' must be a number in (0, 8], as in 390x844@3")
      }
      scale = v
      text = text[..<at]
    }
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else {
      throw UsageError(
        "--size must be WIDTHxHEIGHT[@SCALE] in points, as in 390x844@3, got '\(spec)'")
    }
    guard w.isFinite, h.isFinite, w > 0, h > 0, w <= 16384, h <= 16384 else {
      throw UsageError("--size: \(spec) must have a width and height in (0, 16384] points")
    }
    let pixels = max(w, h) * (scale ?? 1)
    guard pixels <= Double(ImageSurface.maximumDimension) else {
      throw UsageError(
        "--size: \(spec) is \(Int(pixels)) pixels a side, more than \(ImageSurface.maximumDimension)"
      )
    }
    options.width = w
    options.height = h
    options.scale = scale ?? options.scale
  }
}

/// Device motion for a scene command: a recording, a script, or the device at rest upright.
struct MotionInput {
  /// The samples, increasing timestamps.
  var samples: [DeviceMotion]
  /// The time they span, seconds (5 s for the resting device).
  var span: Double

  /// The most samples a script may produce.
  static let maximumSamples = 5_000_000

  /// Loads motion from the options of a scene command.
  ///
  /// - Throws: ``UsageError`` when both are given; ``ToolError`` for bad input, naming it.
  static func load(motionPath: String?, script: String?, rate: Double) throws -> MotionInput {
    guard motionPath == nil || script == nil else {
      throw UsageError("--motion and --script exclude each other")
    }
    if let motionPath {
      let samples: [DeviceMotion]
      do {
        samples = try MotionRecording.deviceMotion(from: URL(fileURLWithPath: motionPath))
      } catch {
        throw ToolError(error.description)
      }
      guard let first = samples.first, let last = samples.last else {
        throw ToolError("\(motionPath): no motion samples")
      }
      return MotionInput(samples: samples, span: last.timestamp - first.timestamp)
    }
    if let script {
      let parsed: MotionScript
      do {
        parsed = try MotionScript(parsing: script)
      } catch {
        throw ToolError("--script: \(error.description)")
      }
      guard parsed.duration * rate < Double(maximumSamples) else {
        throw ToolError(
          "--script: \(Int(parsed.duration * rate)) motion samples is too many (at most "
            + "\(maximumSamples)); lower --motion-rate or shorten the script")
      }
      return MotionInput(samples: parsed.samples(rate: rate), span: parsed.duration)
    }
    let rest = DeviceMotion.resting(
      timestamp: 0, attitude: Attitude(quaternion: MotionScript.Pose.portrait.attitude))
    return MotionInput(samples: [rest], span: 5)
  }
}
