import Foundation
import SwellMotion
import SwellScenes
import SwellWaves

/// `swell trace SCENE`: per-frame presentation values of a scene under motion, as CSV or JSON
/// (FORMATS.md "Trace"), computed with the offline display link.
struct TraceCommand: ToolCommand {
  static let name = "trace"
  static let summary = "per-frame presentation values (wave tilt, amplitude, phase) as CSV or JSON"
  static let help = """
    Usage: swell trace SCENE|FILE.json [--motion FILE | --script TEXT] [--fps N] [--duration S]
                       [--format csv|json] [--seed-exact] [--response classic|sloshing]
                       [--reduce-motion] [--motion-rate HZ] [-o FILE]

    Plays SCENE (a built-in scene: \(BuiltInScenes.names.joined(separator: ", "))) or a scene
    file (docs/scenes.md; its "trace" field picks the columns) under device motion with an
    offline display link and writes one row per frame: the frame's target time, then the traced
    presentation values (angles in radians in (-pi, pi], lengths in points).
    There are floor(duration * fps) + 1 rows, frame 0 at the first motion timestamp.

    Options:
      --motion FILE          device motion: a device-motion CSV, or any raw recording that
                             'swell fuse' reads (fused on the fly)
      --script TEXT          scripted motion, e.g. "hold 1s; tilt 30deg right over 0.5s"
                             (see docs/script.md); without --motion or --script the device
                             rests upright in portrait
      --motion-rate HZ       the rate scripted motion is sampled at (default 100)
      --fps N                frames per second (default 60)
      --duration S           seconds to trace (default: the motion's span; 5 s without motion)
      --format csv|json      CSV with a header row (default) or a JSON array of objects
      --seed-exact           the seed's literal tilt and amplitude rule
      --response NAME        classic (default: the seed's 1 s eased tilt) or sloshing
                             (a physically based sloshing mode)
      --reduce-motion        Reduce Motion: no wave motion, tilt or amplitude response
      -o, --out FILE         write to FILE (atomically) instead of standard output

    """

  /// The most frames one trace (and the most samples one script) may have.
  static let maximumFrames = 5_000_000

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    let motionPath = try arguments.option("--motion")
    let scriptText = try arguments.option("--script")
    let fps = try arguments.positiveNumber("--fps") ?? 60
    let duration = try arguments.positiveNumber("--duration")
    let motionRate = try arguments.positiveNumber("--motion-rate") ?? 100
    let format = try arguments.option("--format") ?? "csv"
    let responseName = try arguments.option("--response")
    let output = try arguments.option("--out", "-o")
    var options = SceneLoader.flags(&arguments)
    let positional = arguments.positional()
    try arguments.finish()
    let sceneName = try SceneLoader.required(positional)

    guard format == "csv" || format == "json" else {
      throw UsageError("--format must be csv or json, got '\(format)'")
    }
    if let responseName { try SceneLoader.apply(response: responseName, to: &options) }
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
    let showProgress = console.isInteractive && count > 10_000
    var lastPercent = -1
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
        if showProgress {
          let percent = done * 100 / count
          if percent != lastPercent {
            lastPercent = percent
            console.err("\rswell trace: \(percent)%")
          }
        }
      }
    } catch let e as SceneMotionError {
      if showProgress { console.err("\r\u{1B}[K") }
      throw ToolError(e.message)
    }
    if showProgress { console.err("\r\u{1B}[K") }
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
