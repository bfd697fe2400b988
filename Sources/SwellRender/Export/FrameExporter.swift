import Dispatch
import SwellCairo
import SwellGeometry
import SwellLayers
import SwellTime
import Synchronization

/// Writes a sequence of frames to an output file (PNG, PNG sequence, SVG, PDF, MP4, GIF, WebP,
/// APNG: the extension picks the format) as a two-stage pipeline: the caller's thread draws frame
/// N+1 with Cairo while a writer thread hands frame N to the sink (for video, the pipe into
/// ffmpeg, which encodes on its own threads); at most two frames are in flight and their images
/// are reused. Vector outputs (SVG, PDF) are drawn straight into the sink.
///
/// Use: ``add(_:)`` once per frame (each a presentation tree), then ``finish()``; on any error
/// (or by ``cancel()``) the output is removed, so a failed export leaves nothing under the
/// output's name.
public final class FrameExporter {
  /// The output path.
  public let path: String
  /// The output format.
  public let format: OutputFormat
  /// The frame size, scale and rate.
  public let configuration: FrameConfiguration
  /// The colour under every frame.
  public let background: Color
  /// The renderer drawing the frames.
  public let renderer: LayerRenderer
  /// The frames added so far.
  public private(set) var frameCount = 0
  /// Wall-clock seconds spent drawing on the caller's thread.
  public private(set) var drawingSeconds = 0.0
  private let sink: any FrameSink
  private let writer: FrameWriter
  private let clock = MonotonicClock.continuous
  private var ended = false

  /// Opens the output and starts its encoder.
  ///
  /// - Parameters:
  ///   - path: The output; its extension picks the format unless `format` is given (`-`:
  ///     standard output).
  ///   - format: The format, or `nil` (the default) to pick it by the extension.
  ///   - configuration: The frame size (points), scale and rate.
  ///   - background: The colour painted under every frame.
  ///   - ffmpeg: The video encoder settings.
  ///   - renderer: The renderer (default a new one).
  /// - Throws: ``RenderError`` naming the output (unknown extension, bad size, unwritable folder,
  ///   missing ffmpeg).
  public init(
    path: String, format: OutputFormat? = nil, configuration: FrameConfiguration,
    background: Color, ffmpeg: FFmpegOptions = FFmpegOptions(),
    renderer: LayerRenderer = LayerRenderer()
  ) throws(RenderError) {
    self.path = path
    let format = try OutputFormat(path: path, format: format)
    self.format = format
    try configuration.validate(for: path)
    self.configuration = configuration
    self.background = background
    self.renderer = renderer
    sink = try makeFrameSink(path: path, format: format, ffmpeg: ffmpeg)
    try sink.begin(configuration)
    writer = FrameWriter(sink: sink)
  }

  deinit {
    if !ended { cancel() }
  }

  /// Draws and queues one frame.
  ///
  /// - Parameter tree: The frame's presentation tree (`Layer.presentation(at:)`).
  /// - Throws: ``RenderError`` from drawing or from the writer (the output is then removed).
  public func add(_ tree: Layer) throws(RenderError) {
    let t0 = clock.now()
    do throws(RenderError) {
      if format.isVector {
        let renderer = self.renderer
        let background = self.background
        do {
          try sink.draw { cr in
            try renderer.drawFrame(tree, background: background, placement: .points, in: cr)
          }
        } catch let e as RenderError {
          throw e
        } catch {
          throw RenderError(.writeFailed, path: path, reason: "\(error)")
        }
        drawingSeconds += clock.now() - t0
      } else {
        let image = try writer.takeSurface(configuration, path: path)
        try renderer.drawFrame(
          tree, background: background, placement: FramePlacement(scale: configuration.scale),
          into: image)
        drawingSeconds += clock.now() - t0
        try writer.submit(image)
      }
      frameCount += 1
    } catch {
      cancel()
      throw error
    }
  }

  /// Waits for the queued frames and completes the output (moving it into place).
  ///
  /// - Throws: ``RenderError`` naming the output; nothing is left behind on failure.
  public func finish() throws(RenderError) {
    guard !ended else { return }
    do throws(RenderError) {
      try writer.finish()
      try sink.finish()
      ended = true
    } catch {
      cancel()
      throw error
    }
  }

  /// Abandons the output: drops the queued frames and removes what was written.
  public func cancel() {
    guard !ended else { return }
    ended = true
    writer.abandon()
    sink.cancel()
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
  /// Images the writer has finished with, for the drawing thread to draw into again (saves
  /// allocating and faulting in a fresh 12 MB frame each time).
  private let pool = Mutex<[ImageBox]>([])

  init(sink: any FrameSink) { self.sink = sink }

  /// A frame image to draw into: a recycled one, or a new one.
  func takeSurface(_ configuration: FrameConfiguration, path: String) throws(RenderError)
    -> ImageSurface
  {
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
  func submit(_ image: ImageSurface) throws(RenderError) {
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
  func finish() throws(RenderError) {
    queue.sync {}
    if let e = failure.withLock({ $0 }) { throw e }
  }

  /// Drops the queued frames and waits for the writer to go idle.
  func abandon() {
    abandoned.store(true, ordering: .relaxed)
    queue.sync {}
  }
}

/// Moves a finished image to the writer thread; `@unchecked Sendable` because the drawing
/// thread never touches it after handing it over.
private final class ImageBox: @unchecked Sendable {
  let image: ImageSurface
  init(_ image: ImageSurface) { self.image = image }
}
