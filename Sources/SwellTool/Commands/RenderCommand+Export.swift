import Foundation
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes

/// Plays a scene offline and writes its frames to an output (the work of `swell render` and
/// `swell demo`): the library's `SceneDriver` steps the scene and the library's `FrameExporter`
/// draws and writes the frames (frame N+1 drawn while N is encoded). This is wiring: which frames,
/// and the progress line.
struct SceneExportJob {
  /// The scene.
  var scene: any Scene
  /// Its motion.
  var motion: any SceneMotionFeed
  /// Frames per second.
  var framesPerSecond: Double
  /// Seconds to render.
  var duration: Double
  /// The output path (format from its extension unless ``format`` is set).
  var output: String
  /// The output format (`--format`), or `nil` to take it from the extension.
  var format: OutputFormat?
  /// Render only the frame at this time (seconds after frame 0).
  var singleTime: Double?
  /// The video encoder settings.
  var ffmpeg = FFmpegOptions()

  /// The most frames one render may have.
  static let maximumFrames = 1_000_000

  /// What was written.
  struct Report {
    var path: String
    var frames: Int
    var pixelWidth: Int
    var pixelHeight: Int
    /// Wall-clock seconds for the whole export.
    var seconds: Double
    /// Wall-clock seconds spent drawing frames on the render thread.
    var renderSeconds: Double

    /// Milliseconds per frame spent drawing on the render thread.
    var renderMillisecondsPerFrame: Double {
      frames > 0 ? 1000 * renderSeconds / Double(frames) : 0
    }

    var timing: String {
      String(
        format: "timing: %.2f ms/frame drawing on the render thread, %.2f ms/frame overall "
          + "(%.1f frames/s end to end)",
        renderMillisecondsPerFrame, frames > 0 ? 1000 * seconds / Double(frames) : 0,
        seconds > 0 ? Double(frames) / seconds : 0)
    }

    var summary: String {
      let fpsText = seconds > 0 ? String(format: ", %.1f frames/s", Double(frames) / seconds) : ""
      return "wrote \(path) (\(frames) frame\(frames == 1 ? "" : "s"), "
        + "\(pixelWidth)x\(pixelHeight) px, \(String(format: "%.1f", seconds)) s\(fpsText))"
    }
  }

  /// Renders and writes the frames.
  ///
  /// - Parameters:
  ///   - console: Where progress goes (stderr, only on a terminal).
  ///   - label: The progress line's prefix.
  /// - Returns: What was written.
  /// - Throws: ``ToolError`` with one line naming the output; nothing is left behind.
  func run(console: Console, label: String) throws -> Report {
    let clock = ContinuousClock()
    let started = clock.now
    let frameTotal = Double(duration) * framesPerSecond
    guard frameTotal < Double(Self.maximumFrames) else {
      throw ToolError(
        "\(Int(frameTotal)) frames is too many (at most \(Self.maximumFrames)); "
          + "lower --fps or --duration")
    }
    let configuration = FrameConfiguration(
      size: scene.size, scale: scene.scale, framesPerSecond: framesPerSecond)
    let format: OutputFormat
    do {
      format = try OutputFormat(path: output, format: self.format)
      try configuration.validate(for: output)
    } catch {
      throw ToolError(error.description)
    }
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: framesPerSecond)
    let count = driver.frameCount(duration: duration)
    // The frames to draw: all, or one.
    let first: Int
    if let t = singleTime {
      let index = t * framesPerSecond
      guard index < Double(Self.maximumFrames) else {
        throw ToolError("--time \(displayNumber(t)) is beyond \(Self.maximumFrames) frames")
      }
      first = Int(index.rounded())
    } else if format.isSingleFrame {
      first = count - 1
    } else {
      first = 0
    }
    let last = singleTime != nil || format.isSingleFrame ? first : count - 1
    let exporter: FrameExporter
    do {
      exporter = try FrameExporter(
        path: output, format: format, configuration: configuration,
        background: scene.background,
        ffmpeg: ffmpeg)
    } catch {
      throw ToolError(error.description)
    }
    var progress = ProgressLine(console: console, label: label, total: last - first + 1)
    do {
      for index in 0...last {
        guard let frame = try driver.step() else { break }
        guard index >= first else { continue }
        try exporter.add(scene.root.presentation(at: frame.targetTimestamp))
        progress.update(done: index - first + 1)
      }
      try exporter.finish()
    } catch {
      exporter.cancel()
      progress.clear()
      throw ToolError("\(error)")
    }
    progress.clear()
    return Report(
      path: output, frames: exporter.frameCount, pixelWidth: configuration.pixelWidth,
      pixelHeight: configuration.pixelHeight,
      seconds: Self.seconds(started.duration(to: clock.now)),
      renderSeconds: exporter.drawingSeconds)
  }

  static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }
}

/// Progress on standard error for work that takes a while: on a terminal, a bar with the count,
/// percentage and ETA redrawn in place; otherwise (a log, a pipe), once the work has run for a
/// second, one plain line at every 10 % (`swell render: 40% (frame 240/600)`).
struct ProgressLine {
  let console: Console
  let label: String
  let total: Int
  /// The unit counted (`frame`, `row`).
  var unit = "frame"
  private let clock = ContinuousClock()
  private let start: ContinuousClock.Instant
  private var lastDraw: ContinuousClock.Instant?
  private var drawn = false
  private var lastTenth = 0

  init(console: Console, label: String, total: Int, unit: String = "frame") {
    self.console = console
    self.label = label
    self.total = total
    self.unit = unit
    start = clock.now
  }

  mutating func update(done: Int) {
    guard total > 1 else { return }
    let now = clock.now
    let elapsed = SceneExportJob.seconds(start.duration(to: now))
    guard console.isInteractive else {
      let tenth = 10 * done / total
      if tenth > lastTenth {
        lastTenth = tenth
        if elapsed >= 1 {
          console.err("\(label): \(tenth * 10)% (\(unit) \(done)/\(total))\n")
        }
      }
      return
    }
    if let lastDraw, lastDraw.duration(to: now) < .milliseconds(100), done < total { return }
    lastDraw = now
    let remaining = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
    let width = 24
    let filled = total > 0 ? width * done / total : 0
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    console.err(
      "\r\u{1B}[K\(label): [\(bar)] \(unit) \(done)/\(total) \(100 * done / max(total, 1))% "
        + "ETA \(Int(remaining.rounded(.up))) s")
    drawn = true
  }

  mutating func clear() {
    if drawn { console.err("\r\u{1B}[K") }
    drawn = false
  }
}
