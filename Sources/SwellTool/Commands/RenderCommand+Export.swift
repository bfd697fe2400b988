import Dispatch
import Foundation
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes
import Synchronization

/// Plays a scene offline and writes its frames to an output (the work of `swell render` and
/// `swell demo`).
///
/// Raster outputs run as a two-stage pipeline: this thread steps the scene and draws frame N+1
/// with Cairo while a writer thread hands frame N to the sink (for video, the pipe into ffmpeg,
/// which encodes on its own threads); at most two frames are in flight. Vector outputs (SVG,
/// PDF) are drawn straight into the sink.
struct SceneExportJob {
  /// The scene.
  var scene: any Scene
  /// Its motion, increasing timestamps.
  var motion: [DeviceMotion]
  /// Frames per second.
  var framesPerSecond: Double
  /// Seconds to render.
  var duration: Double
  /// The output path (format from its extension).
  var output: String
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
    /// Wall-clock seconds spent stepping and drawing frames on the render thread.
    var renderSeconds: Double

    /// Milliseconds per frame spent stepping and drawing on the render thread.
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
    let format: OutputFormat
    let configuration = FrameConfiguration(
      size: scene.size, scale: scene.scale, framesPerSecond: framesPerSecond)
    do {
      format = try OutputFormat(path: output)
      try configuration.validate(for: output)
    } catch {
      throw ToolError(error.description)
    }
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: framesPerSecond)
    let frameTotal = Double(duration) * framesPerSecond
    guard frameTotal < Double(Self.maximumFrames) else {
      throw ToolError(
        "\(Int(frameTotal)) frames is too many (at most \(Self.maximumFrames)); "
          + "lower --fps or --duration")
    }
    let count = driver.frameCount(duration: duration)
    // The frames to draw: all, or one.
    let first: Int
    if let t = singleTime {
      let index = t * framesPerSecond
      guard index < Double(Self.maximumFrames) else {
        throw ToolError("--time \(t) is beyond \(Self.maximumFrames) frames")
      }
      first = Int(index.rounded())
    } else if format.isSingleFrame {
      first = count - 1
    } else {
      first = 0
    }
    let last = singleTime != nil || format.isSingleFrame ? first : count - 1

    let sink: any FrameSink
    do {
      sink = try makeFrameSink(path: output, ffmpeg: ffmpeg)
      try sink.begin(configuration)
    } catch {
      throw ToolError(error.description)
    }
    let renderer = LayerRenderer()
    let writer = FrameWriter(sink: sink)
    var progress = ProgressLine(console: console, label: label, total: last - first + 1)
    var renderSeconds = 0.0
    do {
      for index in 0...last {
        guard let frame = try driver.step() else { break }
        guard index >= first else { continue }
        let t0 = clock.now
        let tree = scene.root.presentation(at: frame.targetTimestamp)
        if format.isVector {
          let background = scene.background
          try sink.draw { cr in
            cr.setSource(background)
            cr.paint()
            try renderer.draw(tree, in: cr)
          }
          renderSeconds += Self.seconds(t0.duration(to: clock.now))
        } else {
          let image = try writer.takeSurface(configuration, path: output)
          try Self.draw(
            tree, background: scene.background, scale: scene.scale, into: image, renderer)
          renderSeconds += Self.seconds(t0.duration(to: clock.now))
          try writer.submit(image)
        }
        progress.update(done: index - first + 1)
      }
      try writer.finish()
      try sink.finish()
    } catch {
      writer.abandon()
      sink.cancel()
      progress.clear()
      throw ToolError("\(error)")
    }
    progress.clear()
    return Report(
      path: output, frames: last - first + 1, pixelWidth: configuration.pixelWidth,
      pixelHeight: configuration.pixelHeight,
      seconds: Self.seconds(started.duration(to: clock.now)), renderSeconds: renderSeconds)
  }

  /// Draws a presentation tree over the background into a (reused) image: the same pixels as
  /// `LayerRenderer.render` into a fresh one (an opaque background replaces every pixel; a
  /// translucent one is drawn over a cleared image).
  static func draw(
    _ tree: Layer, background: Color, scale: Double, into image: ImageSurface,
    _ renderer: LayerRenderer
  ) throws {
    if background.alpha < 1 { image.clear() }
    let cr = try CairoContext(surface: image)
    try cr.scale(x: scale, y: scale)
    cr.setSource(background)
    cr.paint()
    try renderer.draw(tree, in: cr)
    image.flush()
  }

  static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }
}

/// Hands rendered frames to a sink on a serial writer thread, at most two in flight.
///
/// `@unchecked Sendable`: the sink and each submitted image are touched only by the writer
/// queue between ``submit(_:)`` and ``finish()``; the first error is kept under a mutex.
private final class FrameWriter: @unchecked Sendable {
  private let sink: any FrameSink
  private let queue = DispatchQueue(label: "swell.render.writer")
  private let slots = DispatchSemaphore(value: 2)
  private let failure = Mutex<RenderError?>(nil)
  private let abandoned = Atomic<Bool>(false)
  /// Images the writer has finished with, for the render thread to draw into again (saves
  /// allocating and faulting in a fresh 12 MB frame each time).
  private let pool = Mutex<[ImageBox]>([])

  init(sink: any FrameSink) { self.sink = sink }

  /// A frame image to draw into: a recycled one, or a new one.
  func takeSurface(_ configuration: FrameConfiguration, path: String) throws -> ImageSurface {
    if let box = pool.withLock({ $0.popLast() }) { return box.image }
    do {
      return try ImageSurface(
        pixelWidth: configuration.pixelWidth, pixelHeight: configuration.pixelHeight)
    } catch {
      throw RenderError(
        .invalidFrame, path: path, reason: "cannot make the frame canvas (\(error))")
    }
  }

  /// Queues a frame; throws the writer's first error, if any.
  func submit(_ image: ImageSurface) throws {
    slots.wait()
    if let e = failure.withLock({ $0 }) {
      slots.signal()
      throw e
    }
    let box = ImageBox(image)
    queue.async { [self] in
      defer {
        pool.withLock { $0.append(box) }
        slots.signal()
      }
      guard failure.withLock({ $0 }) == nil, !abandoned.load(ordering: .relaxed) else { return }
      do throws(RenderError) {
        try box.image.withFramePixels { (pixels) throws(RenderError) in try sink.write(pixels) }
      } catch {
        failure.withLock { $0 = $0 ?? error }
      }
    }
  }

  /// Waits for the queued frames; throws the first error.
  func finish() throws {
    queue.sync {}
    if let e = failure.withLock({ $0 }) { throw e }
  }

  /// Drops the queued frames and waits for the writer to go idle.
  func abandon() {
    abandoned.store(true, ordering: .relaxed)
    queue.sync {}
  }
}

/// Moves a finished image to the writer thread; `@unchecked Sendable` because the render
/// thread never touches it after handing it over.
private final class ImageBox: @unchecked Sendable {
  let image: ImageSurface
  init(_ image: ImageSurface) { self.image = image }
}

/// A progress line on standard error (terminal only): frames done, percentage and ETA.
struct ProgressLine {
  let console: Console
  let label: String
  let total: Int
  private let clock = ContinuousClock()
  private let start: ContinuousClock.Instant
  private var lastDraw: ContinuousClock.Instant?
  private var drawn = false

  init(console: Console, label: String, total: Int) {
    self.console = console
    self.label = label
    self.total = total
    start = clock.now
  }

  mutating func update(done: Int) {
    guard console.isInteractive, total > 1 else { return }
    let now = clock.now
    if let lastDraw, lastDraw.duration(to: now) < .milliseconds(100), done < total { return }
    lastDraw = now
    let elapsed = SceneExportJob.seconds(start.duration(to: now))
    let remaining = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
    let width = 24
    let filled = total > 0 ? width * done / total : 0
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    console.err(
      "\r\u{1B}[K\(label): [\(bar)] frame \(done)/\(total) \(100 * done / max(total, 1))% "
        + "ETA \(Int(remaining.rounded(.up))) s")
    drawn = true
  }

  mutating func clear() {
    if drawn { console.err("\r\u{1B}[K") }
    drawn = false
  }
}
