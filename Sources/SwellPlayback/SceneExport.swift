import SwellGeometry
import SwellLayers
import SwellRender
import SwellScenes

/// Plays a scene offline and writes its frames to an output file: PNG, PNG sequence, SVG, PDF,
/// MP4, GIF, WebP or APNG (the work of `swell render` and of `swell demo` without a display).
///
/// Frame `i` is at `t₀ + i / fps` for `i = 0 ..< round(duration · fps)` (docs/formats.md; `t₀` is
/// the motion's start): the `SceneDriver` steps the scene to each frame and a `FrameExporter`
/// draws and writes it (frame N+1 drawn while N is encoded). A single-frame format (PNG, SVG)
/// without ``singleTime`` holds the last frame of the duration. On any failure, or when the
/// caller cancels, the output is removed: nothing is left under its name.
public struct SceneExport {
  /// The scene.
  public var scene: any Scene
  /// Its motion.
  public var motion: any SceneMotionFeed
  /// Frames per second, positive.
  public var framesPerSecond: Double
  /// Seconds to render, non-negative.
  public var duration: Double
  /// The output path (format from its extension unless ``format`` is set; `-` is standard
  /// output).
  public var output: String
  /// The output format, or `nil` (the default) to take it from the extension.
  public var format: OutputFormat?
  /// Render only the frame at this time, seconds after frame 0 (`nil`: every frame).
  public var singleTime: Double?
  /// The video encoder settings.
  public var ffmpeg = FFmpegOptions()

  /// The most frames one export may have.
  public static let maximumFrames = 1_000_000

  /// Creates an export.
  ///
  /// - Parameters:
  ///   - scene: The scene.
  ///   - motion: Its motion.
  ///   - framesPerSecond: Frames per second, positive.
  ///   - duration: Seconds to render.
  ///   - output: The output path.
  public init(
    scene: any Scene, motion: any SceneMotionFeed, framesPerSecond: Double, duration: Double,
    output: String
  ) {
    self.scene = scene
    self.motion = motion
    self.framesPerSecond = framesPerSecond
    self.duration = duration
    self.output = output
  }

  /// What was written.
  public struct Report: Hashable, Sendable {
    /// The output path.
    public var path: String
    /// The frames written.
    public var frames: Int
    /// The frame width, pixels.
    public var pixelWidth: Int
    /// The frame height, pixels.
    public var pixelHeight: Int
    /// Wall-clock seconds spent drawing frames on the calling thread (measured by the
    /// `FrameExporter`).
    public var drawingSeconds: Double
    /// The page size of a vector file (SVG, PDF), in points: the size Cairo's SVG and PDF
    /// surfaces are made with (`cairo_svg_surface_create` and `cairo_pdf_surface_create` take
    /// points, 1/72 inch); `nil` for a pixel format.
    public var vectorPoints: Size? = nil
  }

  /// How far an export has come: called after each frame drawn.
  ///
  /// - Parameters:
  ///   - done: The frames drawn so far, 1...total.
  ///   - total: The frames to draw.
  public typealias Progress = (_ done: Int, _ total: Int) -> Void

  /// Renders and writes the frames.
  ///
  /// - Parameters:
  ///   - progress: Called after each frame drawn (default: nothing).
  ///   - isCancelled: Asked before each frame; `true` abandons the export (default: never).
  /// - Returns: What was written.
  /// - Throws: ``PlaybackError``: too many frames, a bad output (``PlaybackError/Problem/render(_:)``
  ///   naming it), a failed motion, or ``PlaybackError/Problem/cancelled``; nothing is left
  ///   behind.
  public func run(
    progress: Progress = { _, _ in }, isCancelled: () -> Bool = { false }
  ) throws(PlaybackError) -> Report {
    let frameTotal = duration * framesPerSecond
    guard frameTotal < Double(Self.maximumFrames) else {
      throw PlaybackError(.tooManyFrames(frames: frameTotal, maximum: Self.maximumFrames))
    }
    let configuration = FrameConfiguration(
      size: scene.size, scale: scene.scale, framesPerSecond: framesPerSecond)
    let format: OutputFormat
    do {
      format = try OutputFormat(path: output, format: self.format)
      try configuration.validate(for: output)
    } catch {
      throw PlaybackError(.render(error))
    }
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: framesPerSecond)
    let count = driver.frameCount(duration: duration)
    // The frames to draw: all, or one.
    let first: Int
    if let t = singleTime {
      let index = t * framesPerSecond
      guard index < Double(Self.maximumFrames) else {
        throw PlaybackError(.timeBeyondLimit(time: t, maximumFrames: Self.maximumFrames))
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
        background: scene.background, ffmpeg: ffmpeg)
    } catch {
      throw PlaybackError(.render(error))
    }
    do {
      for index in 0...last {
        if isCancelled() { throw PlaybackError(.cancelled) }
        guard let frame = try driver.step() else { break }
        guard index >= first else { continue }
        try exporter.add(scene.root.presentation(at: frame.targetTimestamp))
        progress(index - first + 1, last - first + 1)
      }
      try exporter.finish()
    } catch {
      exporter.cancel()
      throw Self.playbackError(error)
    }
    return Report(
      path: output, frames: exporter.frameCount, pixelWidth: configuration.pixelWidth,
      pixelHeight: configuration.pixelHeight, drawingSeconds: exporter.drawingSeconds,
      vectorPoints: format.isVector ? scene.size : nil)
  }

  /// A failure of the frame loop in playback terms.
  static func playbackError(_ error: any Error) -> PlaybackError {
    switch error {
    case let e as PlaybackError: return e
    case let e as RenderError: return PlaybackError(.render(e))
    case let e as SceneMotionError: return PlaybackError(.motion(e))
    default: return PlaybackError(.motion(SceneMotionError("\(error)")))
    }
  }
}
