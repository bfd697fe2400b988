import SwellCairo
import SwellGeometry

/// Draws a frame of pixels onto a vector surface as an image covering the page.
private func paint(
  _ frame: FramePixels, on surface: Surface, configuration: FrameConfiguration, path: String
) throws(RenderError) {
  let canvas = try RasterCanvas(configuration, path: path)
  try canvas.load(frame, path: path)
  do {
    let context = try CairoContext(surface: surface)
    context.drawImage(
      canvas.image,
      in: Rect(origin: .zero, size: configuration.size))
    try context.checkStatus()
  } catch {
    throw RenderError(.writeFailed, path: path, reason: "cannot place the frame image (\(error))")
  }
}

/// Runs a frame's drawing on a vector surface with user space in points.
private func render(
  _ body: (CairoContext) throws -> Void, on surface: Surface, path: String
) throws {
  let context: CairoContext
  do {
    context = try CairoContext(surface: surface)
  } catch {
    throw RenderError(.writeFailed, path: path, reason: "cannot draw the page (\(error))")
  }
  try body(context)
  if let error = context.error {
    throw RenderError(.writeFailed, path: path, reason: "drawing the page failed (\(error))")
  }
}

/// The state and steps both vector sinks share: the open document, its configuration and the
/// number of frames drawn. `prepareFrame` is each format's rule before a frame (one SVG frame;
/// a new PDF page after the first).
private struct VectorDocument<S: Surface> {
  let path: String
  let prepareFrame: (S, Int) throws(RenderError) -> Void
  var file: VectorFile<S>?
  var configuration: FrameConfiguration?
  var frameCount = 0

  mutating func begin(
    _ configuration: FrameConfiguration, open: (String, Size) throws(RenderError) -> VectorFile<S>
  ) throws(RenderError) {
    guard file == nil else {
      throw RenderError(.invalidState, path: path, reason: "the output was already begun")
    }
    try configuration.validate(for: path)
    file = try open(path, configuration.size)
    self.configuration = configuration
  }

  private func nextFrame() throws(RenderError) -> (S, FrameConfiguration) {
    guard let file, let configuration else {
      throw RenderError(.invalidState, path: path, reason: "begin the output before adding frames")
    }
    try prepareFrame(file.document, frameCount)
    return (file.document, configuration)
  }

  mutating func draw(_ body: (CairoContext) throws -> Void) throws {
    let (surface, _) = try nextFrame()
    try render(body, on: surface, path: path)
    frameCount += 1
  }

  mutating func write(_ frame: FramePixels) throws(RenderError) {
    let (surface, configuration) = try nextFrame()
    try paint(frame, on: surface, configuration: configuration, path: path)
    frameCount += 1
  }

  mutating func finish() throws(RenderError) {
    guard let file, frameCount > 0 else {
      cancel()
      throw RenderError(.invalidState, path: path, reason: "no frame was written")
    }
    self.file = nil
    try file.finish()
  }

  mutating func cancel() {
    file?.cancel()
    file = nil
  }
}

/// Writes one frame as an SVG document, drawn as vectors through Cairo's SVG surface.
///
/// The document is `size` points wide and high, with one point per SVG pixel. The scale of the
/// configuration only matters for frames given as pixels (``write(_:)``), which are embedded as an
/// image.
public final class SVGSink: FrameSink {
  /// The SVG file.
  public let path: String
  private var document: VectorDocument<SVGSurface>

  /// Creates a sink for one SVG file.
  ///
  /// - Parameter path: The SVG file to create or replace.
  public init(path: String) {
    self.path = path
    document = VectorDocument(path: path) { _, frameCount throws(RenderError) in
      guard frameCount == 0 else {
        throw RenderError(
          .invalidState, path: path,
          reason: "an SVG file holds one frame; use .pdf for one page per frame")
      }
    }
  }

  deinit { cancel() }

  /// Starts the document (checking the folder).
  ///
  /// - Parameter configuration: The frame size, points.
  /// - Throws: ``RenderError`` naming the file.
  public func begin(_ configuration: FrameConfiguration) throws(RenderError) {
    try document.begin(configuration) { path, size throws(RenderError) in
      // One layer point is one CSS pixel: `rsvg-convert` at its default 96 dpi draws the
      // document at 1×, and `--zoom 3` at 3×.
      try VectorFile(path: path, size: size) { width, height, write throws(CairoError) in
        let surface = try SVGSurface(width: width, height: height, write: write)
        surface.documentUnit = .pixels
        return surface
      }
    }
  }

  /// Draws the frame as vectors.
  ///
  /// - Parameter body: Draws in points.
  /// - Throws: What `body` throws, or ``RenderError`` (an SVG holds one frame).
  public func draw(_ body: (CairoContext) throws -> Void) throws { try document.draw(body) }

  /// Embeds a frame of pixels as an image covering the document.
  ///
  /// - Parameter frame: The pixels, at the configured pixel size.
  /// - Throws: ``RenderError``.
  public func write(_ frame: FramePixels) throws(RenderError) { try document.write(frame) }

  /// Completes the document and moves it into place.
  ///
  /// - Throws: ``RenderError`` naming the file.
  public func finish() throws(RenderError) { try document.finish() }

  /// Removes the unfinished document.
  public func cancel() { document.cancel() }
}

/// Writes frames as the pages of one PDF document, drawn as vectors through Cairo's PDF surface.
///
/// Each page is `size` points (1/72 inch) wide and high.
public final class PDFSink: FrameSink {
  /// The PDF file.
  public let path: String
  private var document: VectorDocument<PDFSurface>
  /// The number of pages written.
  public var pageCount: Int { document.frameCount }

  /// Creates a sink for one PDF file.
  ///
  /// - Parameter path: The PDF file to create or replace.
  public init(path: String) {
    self.path = path
    document = VectorDocument(path: path) { surface, frameCount in
      if frameCount > 0 { surface.showPage() }
    }
  }

  deinit { cancel() }

  /// Starts the document (checking the folder).
  ///
  /// - Parameter configuration: The page size, points.
  /// - Throws: ``RenderError`` naming the file.
  public func begin(_ configuration: FrameConfiguration) throws(RenderError) {
    try document.begin(configuration) { path, size throws(RenderError) in
      try VectorFile(path: path, size: size) { width, height, write throws(CairoError) in
        try PDFSurface(width: width, height: height, write: write)
      }
    }
  }

  /// Draws the next page as vectors.
  ///
  /// - Parameter body: Draws in points.
  /// - Throws: What `body` throws, or ``RenderError``.
  public func draw(_ body: (CairoContext) throws -> Void) throws { try document.draw(body) }

  /// Adds a page showing a frame of pixels.
  ///
  /// - Parameter frame: The pixels, at the configured pixel size.
  /// - Throws: ``RenderError``.
  public func write(_ frame: FramePixels) throws(RenderError) { try document.write(frame) }

  /// Completes the document and moves it into place.
  ///
  /// - Throws: ``RenderError`` naming the file.
  public func finish() throws(RenderError) { try document.finish() }

  /// Removes the unfinished document.
  public func cancel() { document.cancel() }
}
