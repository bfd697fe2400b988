import Foundation
import SwellCairo
import SwellGeometry

/// The pixel canvas raster sinks draw frames into.
final class RasterCanvas {
  let image: ImageSurface
  let scale: Double

  init(_ configuration: FrameConfiguration, path: String) throws(RenderError) {
    do {
      image = try ImageSurface(
        pixelWidth: configuration.pixelWidth, pixelHeight: configuration.pixelHeight)
    } catch {
      throw RenderError(
        .invalidFrame, path: path, reason: "cannot make the frame canvas (\(error))")
    }
    scale = configuration.scale
  }

  /// Clears the canvas, runs the drawing with user space in points, and checks Cairo's status.
  func render(_ body: (CairoContext) throws -> Void, path: String) throws {
    image.clear()
    let context: CairoContext
    do {
      context = try CairoContext(surface: image)
      try context.scale(x: scale, y: scale)
    } catch {
      throw RenderError(.invalidFrame, path: path, reason: "cannot draw the frame (\(error))")
    }
    try body(context)
    if let error = context.error {
      throw RenderError(.invalidFrame, path: path, reason: "drawing the frame failed (\(error))")
    }
    image.flush()
  }

  /// Copies pixels into the canvas.
  func load(_ frame: FramePixels, path: String) throws(RenderError) {
    try checkFrame(frame, width: image.pixelWidth, height: image.pixelHeight, path: path)
    let rowBytes = 4 * frame.pixelWidth
    let stride = image.bytesPerRow
    image.withUnsafeMutableBytes { destination in
      guard let target = destination.baseAddress, let source = frame.bytes.baseAddress else {
        return
      }
      for row in 0..<frame.pixelHeight {
        (target + row * stride).copyMemory(
          from: source + row * frame.bytesPerRow, byteCount: rowBytes)
      }
    }
  }
}

/// Checks that pixels match the configured frame size.
func checkFrame(_ frame: FramePixels, width: Int, height: Int, path: String) throws(RenderError) {
  guard frame.isConsistent else {
    throw RenderError(
      .invalidFrame, path: path,
      reason:
        "frame pixels are inconsistent (\(frame.pixelWidth)×\(frame.pixelHeight), "
        + "\(frame.bytesPerRow) bytes per row, \(frame.bytes.count) bytes)")
  }
  guard frame.pixelWidth == width, frame.pixelHeight == height else {
    throw RenderError(
      .invalidFrame, path: path,
      reason:
        "frame is \(frame.pixelWidth)×\(frame.pixelHeight) pixels but the output was begun "
        + "at \(width)×\(height)")
  }
}

/// Writes one frame as a PNG image (`cairo_surface_write_to_png_stream`), moved into place by
/// ``finish()``.
public final class PNGSink: FrameSink {
  /// The PNG file.
  public let path: String
  private var canvas: RasterCanvas?
  private var file: OutputFile?
  private var hasFrame = false

  /// Creates a sink for one PNG file.
  ///
  /// - Parameter path: The PNG file to create or replace.
  public init(path: String) { self.path = path }

  deinit { cancel() }

  /// Checks the folder (by creating the temporary file) and makes the canvas.
  ///
  /// - Parameter configuration: The frame size and scale.
  /// - Throws: ``RenderError`` naming the file.
  public func begin(_ configuration: FrameConfiguration) throws(RenderError) {
    guard file == nil else {
      throw RenderError(.invalidState, path: path, reason: "the output was already begun")
    }
    try configuration.validate(for: path)
    canvas = try RasterCanvas(configuration, path: path)
    file = try OutputFile(path: path)
  }

  /// Draws the frame at the configured scale and encodes it.
  ///
  /// - Parameter body: Draws in points.
  /// - Throws: What `body` throws, or ``RenderError`` (a PNG holds one frame).
  public func draw(_ body: (CairoContext) throws -> Void) throws {
    let (canvas, file) = try ready()
    try canvas.render(body, path: path)
    try encode(canvas.image, into: file)
  }

  /// Encodes a frame of pixels.
  ///
  /// - Parameter frame: The pixels, at the configured pixel size.
  /// - Throws: ``RenderError`` (a PNG holds one frame; size mismatch; write failure).
  public func write(_ frame: FramePixels) throws(RenderError) {
    let (canvas, file) = try ready()
    try canvas.load(frame, path: path)
    try encode(canvas.image, into: file)
  }

  private func ready() throws(RenderError) -> (RasterCanvas, OutputFile) {
    guard let canvas, let file else {
      throw RenderError(.invalidState, path: path, reason: "begin the output before adding frames")
    }
    guard !hasFrame else {
      throw RenderError(
        .invalidState, path: path,
        reason: "a PNG file holds one frame; use a numbered pattern such as frames/%05d.png")
    }
    return (canvas, file)
  }

  private func encode(_ image: ImageSurface, into file: OutputFile) throws(RenderError) {
    do {
      try file.write(try image.pngData())
    } catch let error as RenderError {
      throw error
    } catch {
      throw RenderError(.writeFailed, path: path, reason: "PNG encoding failed (\(error))")
    }
    hasFrame = true
  }

  /// Moves the PNG into place.
  ///
  /// - Throws: ``RenderError`` when no frame was written or the rename fails.
  public func finish() throws(RenderError) {
    guard let file, hasFrame else {
      cancel()
      throw RenderError(.invalidState, path: path, reason: "no frame was written")
    }
    self.file = nil
    try file.commit()
  }

  /// Removes the temporary file.
  public func cancel() {
    file?.discard()
    file = nil
  }
}

/// Writes each frame as its own PNG file, named by a printf-style pattern such as
/// `frames/%05d.png` (frame 0 is `frames/00000.png`).
///
/// The frames are encoded on every core: ``write(_:)`` and ``draw(_:)`` copy the frame and
/// return, and worker threads encode it (the `up` row filter and zlib level 1, run-length
/// strategy: the same pixels as Cairo's PNG writer, decoded, in fewer milliseconds and somewhat
/// more bytes; docs/rendering-cli.md) while the next frame is drawn; at most one frame per core
/// is in flight. The folder is created when missing. Each file is written under a temporary
/// name and renamed, so every file present is complete; ``cancel()``, a failure (which names the
/// frame's file) or an interrupting signal removes the files written so far.
public final class PNGSequenceSink: FrameSink {
  /// A file-name pattern with exactly one integer conversion: `%d`, `%5d` or `%05d`;
  /// `%%` stands for a literal `%`.
  public struct Pattern: Hashable, Sendable {
    private var prefix: String
    private var suffix: String
    private var width: Int
    private var zeroPadded: Bool

    /// Parses a pattern.
    ///
    /// - Parameter pattern: The path pattern.
    /// - Throws: ``RenderError`` (`unsupportedFormat`) when it does not have exactly one `%d`.
    public init(_ pattern: String) throws(RenderError) {
      var parts: [String] = [""]
      var conversions: [(width: Int, zero: Bool)] = []
      var i = pattern.startIndex
      while i < pattern.endIndex {
        let ch = pattern[i]
        i = pattern.index(after: i)
        guard ch == "%" else {
          parts[parts.count - 1].append(ch)
          continue
        }
        if i < pattern.endIndex, pattern[i] == "%" {
          parts[parts.count - 1].append("%")
          i = pattern.index(after: i)
          continue
        }
        var spec = ""
        while i < pattern.endIndex, pattern[i].isASCII, pattern[i].isNumber {
          spec.append(pattern[i])
          i = pattern.index(after: i)
        }
        guard i < pattern.endIndex, pattern[i] == "d", spec.count <= 2 else {
          throw Self.invalid(pattern)
        }
        i = pattern.index(after: i)
        conversions.append((Int(spec) ?? 0, spec.hasPrefix("0")))
        parts.append("")
      }
      guard conversions.count == 1, !parts[1].contains("/") else { throw Self.invalid(pattern) }
      prefix = parts[0]
      suffix = parts[1]
      width = conversions[0].width
      zeroPadded = conversions[0].zero
    }

    private static func invalid(_ pattern: String) -> RenderError {
      RenderError(
        .unsupportedFormat, path: pattern,
        reason: "a frame-sequence name needs exactly one %d, %5d or %05d in its file name")
    }

    /// The file name of a frame.
    ///
    /// - Parameter index: The frame number, from 0.
    /// - Returns: The path with the number filled in.
    public func path(for index: Int) -> String {
      let digits = String(index)
      let pad = String(repeating: zeroPadded ? "0" : " ", count: max(0, width - digits.count))
      return prefix + pad + digits + suffix
    }
  }

  /// The pattern as given.
  public let path: String
  private let pattern: Pattern
  private var canvas: RasterCanvas?
  private var writer: ParallelPNGWriter?
  private var configuration: FrameConfiguration?
  private var frameCount = 0
  private var createdFolder: String?

  /// Creates a sink for a numbered PNG sequence.
  ///
  /// - Parameter pattern: The path pattern, e.g. `frames/%05d.png`.
  /// - Throws: ``RenderError`` when the pattern has no single `%d`.
  public init(pattern: String) throws(RenderError) {
    self.path = pattern
    self.pattern = try Pattern(pattern)
  }

  deinit {
    if writer != nil { cancel() }
  }

  /// The files written so far, in frame order (waits for the frames being encoded).
  public var writtenPaths: [String] { writer?.writtenPaths ?? finishedPaths }
  private var finishedPaths: [String] = []

  /// Creates the folder when missing and starts the encoding threads.
  ///
  /// - Parameter configuration: The frame size and scale.
  /// - Throws: ``RenderError`` naming the pattern.
  public func begin(_ configuration: FrameConfiguration) throws(RenderError) {
    guard writer == nil, self.configuration == nil else {
      throw RenderError(.invalidState, path: path, reason: "the output was already begun")
    }
    try configuration.validate(for: path)
    let folder = OutputFile.split(pattern.path(for: 0)).folder
    var isFolder: ObjCBool = false
    if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
      do {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true)
        createdFolder = folder
      } catch {
        throw RenderError(
          .unwritableOutput, path: path, reason: "cannot create the folder '\(folder)'")
      }
    }
    self.configuration = configuration
    writer = ParallelPNGWriter(
      encoder: .fast, frameBytes: 4 * configuration.pixelWidth * configuration.pixelHeight)
  }

  /// Draws the next frame and queues its file.
  ///
  /// - Parameter body: Draws in points.
  /// - Throws: What `body` throws, or ``RenderError`` naming the frame file (this frame's, or
  ///   the first earlier frame that failed).
  public func draw(_ body: (CairoContext) throws -> Void) throws {
    let (writer, configuration) = try ready()
    if canvas == nil { canvas = try RasterCanvas(configuration, path: path) }
    guard let canvas else { return }
    let target = pattern.path(for: frameCount)
    try canvas.render(body, path: target)
    try canvas.image.withFramePixels { (frame) throws(RenderError) in
      try writer.submit(frame, index: frameCount, to: target)
    }
    frameCount += 1
  }

  /// Queues the next frame's file from pixels.
  ///
  /// - Parameter frame: The pixels, at the configured pixel size; copied before the call
  ///   returns.
  /// - Throws: ``RenderError`` naming the frame file (this frame's, or the first earlier frame
  ///   that failed).
  public func write(_ frame: FramePixels) throws(RenderError) {
    let (writer, configuration) = try ready()
    let target = pattern.path(for: frameCount)
    try checkFrame(
      frame, width: configuration.pixelWidth, height: configuration.pixelHeight, path: target)
    try writer.submit(frame, index: frameCount, to: target)
    frameCount += 1
  }

  private func ready() throws(RenderError) -> (ParallelPNGWriter, FrameConfiguration) {
    guard let writer, let configuration else {
      throw RenderError(.invalidState, path: path, reason: "begin the output before adding frames")
    }
    return (writer, configuration)
  }

  /// Waits for the frames being encoded; every frame file is then in place.
  ///
  /// - Throws: ``RenderError`` when no frame was written, or naming the first frame file that
  ///   failed (every file is removed then).
  public func finish() throws(RenderError) {
    guard let writer else {
      throw RenderError(.invalidState, path: path, reason: "begin the output before finishing")
    }
    guard frameCount > 0 else {
      cancel()
      throw RenderError(.invalidState, path: path, reason: "no frame was written")
    }
    do {
      try writer.finish()
    } catch {
      cancel()
      throw error
    }
    finishedPaths = writer.writtenPaths
    self.writer = nil
    canvas = nil
  }

  /// Stops the encoding and removes the frame files written so far (and the folder, if this
  /// sink made it and it is empty).
  public func cancel() {
    writer?.cancel()
    writer = nil
    finishedPaths = []
    if let createdFolder { rmdir(createdFolder) }
    createdFolder = nil
    canvas = nil
  }
}
