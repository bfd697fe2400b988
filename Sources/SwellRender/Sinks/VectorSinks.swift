import SwellGeometry

/// Draws a frame of pixels onto a vector surface as an image covering the page.
private func paint(
  _ frame: FramePixels, on surface: VectorSurface, configuration: FrameConfiguration, path: String
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
  _ body: (CairoContext) throws -> Void, on surface: VectorSurface, path: String
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

/// Writes one frame as an SVG document, drawn as vectors through Cairo's SVG surface.
///
/// The document is `size` points wide and high, with one point per SVG pixel. The scale of the
/// configuration only matters for frames given as pixels (``write(_:)``), which are embedded as an
/// image.
public final class SVGSink: FrameSink {
  /// The SVG file.
  public let path: String
  private var surface: SVGSurface?
  private var configuration: FrameConfiguration?
  private var hasFrame = false

  /// Creates a sink for one SVG file.
  ///
  /// - Parameter path: The SVG file to create or replace.
  public init(path: String) { self.path = path }

  deinit { cancel() }

  /// Starts the document (checking the folder).
  ///
  /// - Parameter configuration: The frame size, points.
  /// - Throws: ``RenderError`` naming the file.
  public func begin(_ configuration: FrameConfiguration) throws(RenderError) {
    guard surface == nil else {
      throw RenderError(.invalidState, path: path, reason: "the output was already begun")
    }
    try configuration.validate(for: path)
    surface = try SVGSurface(path: path, size: configuration.size)
    self.configuration = configuration
  }

  /// Draws the frame as vectors.
  ///
  /// - Parameter body: Draws in points.
  /// - Throws: What `body` throws, or ``RenderError`` (an SVG holds one frame).
  public func draw(_ body: (CairoContext) throws -> Void) throws {
    let (surface, _) = try ready()
    try render(body, on: surface, path: path)
    hasFrame = true
  }

  /// Embeds a frame of pixels as an image covering the document.
  ///
  /// - Parameter frame: The pixels, at the configured pixel size.
  /// - Throws: ``RenderError``.
  public func write(_ frame: FramePixels) throws(RenderError) {
    let (surface, configuration) = try ready()
    try paint(frame, on: surface, configuration: configuration, path: path)
    hasFrame = true
  }

  private func ready() throws(RenderError) -> (SVGSurface, FrameConfiguration) {
    guard let surface, let configuration else {
      throw RenderError(.invalidState, path: path, reason: "begin the output before adding frames")
    }
    guard !hasFrame else {
      throw RenderError(
        .invalidState, path: path,
        reason: "an SVG file holds one frame; use .pdf for one page per frame")
    }
    return (surface, configuration)
  }

  /// Completes the document and moves it into place.
  ///
  /// - Throws: ``RenderError`` naming the file.
  public func finish() throws(RenderError) {
    guard let surface, hasFrame else {
      cancel()
      throw RenderError(.invalidState, path: path, reason: "no frame was written")
    }
    self.surface = nil
    try surface.finish()
  }

  /// Removes the unfinished document.
  public func cancel() {
    surface?.cancel()
    surface = nil
  }
}

/// Writes frames as the pages of one PDF document, drawn as vectors through Cairo's PDF surface.
///
/// Each page is `size` points (1/72 inch) wide and high.
public final class PDFSink: FrameSink {
  /// The PDF file.
  public let path: String
  private var surface: PDFSurface?
  private var configuration: FrameConfiguration?
  /// The number of pages written.
  public private(set) var pageCount = 0

  /// Creates a sink for one PDF file.
  ///
  /// - Parameter path: The PDF file to create or replace.
  public init(path: String) { self.path = path }

  deinit { cancel() }

  /// Starts the document (checking the folder).
  ///
  /// - Parameter configuration: The page size, points.
  /// - Throws: ``RenderError`` naming the file.
  public func begin(_ configuration: FrameConfiguration) throws(RenderError) {
    guard surface == nil else {
      throw RenderError(.invalidState, path: path, reason: "the output was already begun")
    }
    try configuration.validate(for: path)
    surface = try PDFSurface(path: path, pageSize: configuration.size)
    self.configuration = configuration
  }

  /// Draws the next page as vectors.
  ///
  /// - Parameter body: Draws in points.
  /// - Throws: What `body` throws, or ``RenderError``.
  public func draw(_ body: (CairoContext) throws -> Void) throws {
    let (surface, _) = try nextPage()
    try render(body, on: surface, path: path)
    pageCount += 1
  }

  /// Adds a page showing a frame of pixels.
  ///
  /// - Parameter frame: The pixels, at the configured pixel size.
  /// - Throws: ``RenderError``.
  public func write(_ frame: FramePixels) throws(RenderError) {
    let (surface, configuration) = try nextPage()
    try paint(frame, on: surface, configuration: configuration, path: path)
    pageCount += 1
  }

  private func nextPage() throws(RenderError) -> (PDFSurface, FrameConfiguration) {
    guard let surface, let configuration else {
      throw RenderError(.invalidState, path: path, reason: "begin the output before adding frames")
    }
    if pageCount > 0 { surface.showPage() }
    return (surface, configuration)
  }

  /// Completes the document and moves it into place.
  ///
  /// - Throws: ``RenderError`` naming the file.
  public func finish() throws(RenderError) {
    guard let surface, pageCount > 0 else {
      cancel()
      throw RenderError(.invalidState, path: path, reason: "no frame was written")
    }
    self.surface = nil
    try surface.finish()
  }

  /// Removes the unfinished document.
  public func cancel() {
    surface?.cancel()
    surface = nil
  }
}
