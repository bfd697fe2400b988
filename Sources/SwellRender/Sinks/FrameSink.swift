import SwellCairo
import SwellGeometry

/// The size, scale and rate of the frames a ``FrameSink`` receives.
public struct FrameConfiguration: Hashable, Sendable {
  /// The frame size, points (layer space).
  public var size: Size
  /// Pixels per point for raster outputs (1, 2, 3 for @1x, @2x, @3x).
  public var scale: Double
  /// The frame rate of animated outputs, frames per second.
  public var framesPerSecond: Double

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - size: The frame size, points.
  ///   - scale: Pixels per point.
  ///   - framesPerSecond: Frames per second (ignored by still-image outputs).
  public init(size: Size, scale: Double = 1, framesPerSecond: Double = 30) {
    self.size = size
    self.scale = scale
    self.framesPerSecond = framesPerSecond
  }

  /// The raster width, pixels: `size.width × scale`, rounded.
  public var pixelWidth: Int { Self.pixels(size.width * scale) }
  /// The raster height, pixels: `size.height × scale`, rounded.
  public var pixelHeight: Int { Self.pixels(size.height * scale) }

  private static func pixels(_ v: Double) -> Int {
    guard v.isFinite, v >= 0, v < 1e9 else { return 0 }
    return Int(v.rounded())
  }

  /// Checks that the numbers make a drawable frame.
  ///
  /// - Parameter path: The output, named in the error.
  /// - Throws: ``RenderError`` (`invalidFrame`) when the size, scale or rate is not positive and
  ///   finite, or the pixel size is outside 1...32767.
  public func validate(for path: String) throws(RenderError) {
    guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else {
      throw RenderError(
        .invalidFrame, path: path,
        reason: "frame size \(size.width)×\(size.height) points must be positive and finite")
    }
    guard scale.isFinite, scale > 0 else {
      throw RenderError(.invalidFrame, path: path, reason: "scale \(scale) must be positive")
    }
    guard framesPerSecond.isFinite, framesPerSecond > 0, framesPerSecond <= 1000 else {
      throw RenderError(
        .invalidFrame, path: path,
        reason: "frame rate \(framesPerSecond) must be in (0, 1000] frames per second")
    }
    let limit = ImageSurface.maximumDimension
    guard (1...limit).contains(pixelWidth), (1...limit).contains(pixelHeight) else {
      throw RenderError(
        .invalidFrame, path: path,
        reason: "frame of \(pixelWidth)×\(pixelHeight) pixels is outside 1...\(limit) pixels a side"
      )
    }
  }
}

/// A destination for rendered frames: an image file, a document, an image sequence or a video.
///
/// The calls come in order: ``begin(_:)`` once, then ``draw(_:)`` or ``write(_:)`` once per frame,
/// then ``finish()`` (which moves the finished file into place) or ``cancel()`` (which removes
/// everything written). A sink that goes away unfinished cancels itself. Any failure leaves no
/// partial file behind.
///
/// ``draw(_:)`` hands the frame's drawing code a `CairoContext` whose user space is the frame in
/// **points** (origin top left, y down); raster sinks scale it to pixels, vector sinks (SVG, PDF)
/// keep the drawing as vectors. So the PNG, SVG and PDF of a frame come from the same code.
public protocol FrameSink: AnyObject {
  /// The output path given when the sink was made.
  var path: String { get }

  /// Prepares the output: checks the folder, starts an encoder.
  ///
  /// - Parameter configuration: The frame size, scale and rate.
  /// - Throws: ``RenderError`` naming the output.
  func begin(_ configuration: FrameConfiguration) throws(RenderError)

  /// Adds one frame drawn by `body` in points.
  ///
  /// - Parameter body: Draws the frame; the context starts transparent, unclipped, with user
  ///   space in points.
  /// - Throws: What `body` throws, or ``RenderError`` naming the output.
  func draw(_ body: (CairoContext) throws -> Void) throws

  /// Adds one frame of pixels (premultiplied ARGB32 / BGRA bytes, `pixelWidth × pixelHeight` of
  /// the configuration).
  ///
  /// - Parameter frame: The pixels; they are not kept after the call.
  /// - Throws: ``RenderError`` naming the output.
  func write(_ frame: FramePixels) throws(RenderError)

  /// Completes the output and moves it into place.
  ///
  /// - Throws: ``RenderError`` naming the output; nothing is left behind on failure.
  func finish() throws(RenderError)

  /// Abandons the output and removes everything written so far.
  func cancel()
}

/// The file formats Swell writes, chosen from an output path's extension.
public enum OutputFormat: String, CaseIterable, Hashable, Sendable {
  /// One PNG image (`.png`).
  case png
  /// Numbered PNG images, one per frame (`frames/%05d.png`: a printf-style `%d` in the name).
  case pngSequence
  /// One SVG document (`.svg`).
  case svg
  /// A PDF document with one page per frame (`.pdf`).
  case pdf
  /// H.264 video in MP4 (`.mp4`, `.m4v`), through ffmpeg.
  case mp4
  /// Animated GIF (`.gif`), through ffmpeg.
  case gif
  /// Animated WebP (`.webp`), through ffmpeg.
  case webp
  /// Animated PNG (`.apng`), through ffmpeg.
  case apng

  /// The format named by a path's extension (case-insensitive).
  ///
  /// - Parameter path: The output path.
  /// - Throws: ``RenderError`` (`unsupportedFormat`) naming the path and the known extensions.
  public init(path: String) throws(RenderError) {
    if path == "-" {
      throw RenderError(
        .unsupportedFormat, path: path,
        reason: "standard output has no extension to pick the format by: name the format")
    }
    let name = OutputFile.split(path).name
    let dot = name.lastIndex(of: ".")
    let ext = dot.map { name[name.index(after: $0)...].lowercased() } ?? ""
    switch ext {
    case "png": self = (try? PNGSequenceSink.Pattern(name)) != nil ? .pngSequence : .png
    case "svg": self = .svg
    case "pdf": self = .pdf
    case "mp4", "m4v": self = .mp4
    case "gif": self = .gif
    case "webp": self = .webp
    case "apng": self = .apng
    default:
      throw RenderError(
        .unsupportedFormat, path: path,
        reason:
          "unknown output type '\(ext.isEmpty ? name : "." + ext)'; use .png, .svg, .pdf, .mp4, "
          + ".gif, .webp, .apng or a numbered pattern such as frames/%05d.png")
    }
  }

  /// The format named by `format` when given (a file name without an extension, `-`),
  /// otherwise by the path's extension (``init(path:)``).
  ///
  /// - Parameters:
  ///   - path: The output path.
  ///   - format: The format asked for, or `nil`.
  /// - Throws: ``RenderError`` (`unsupportedFormat`) for an unknown extension without a format,
  ///   or a numbered PNG sequence asked for a path that is not a pattern.
  public init(path: String, format: OutputFormat?) throws(RenderError) {
    guard let format else {
      try self.init(path: path)
      return
    }
    if format == .pngSequence, (try? PNGSequenceSink.Pattern(path)) == nil {
      throw RenderError(
        .unsupportedFormat, path: path,
        reason: "a PNG sequence needs a numbered pattern such as frames/%05d.png")
    }
    self = format
  }

  /// True for formats that hold exactly one frame (PNG, SVG).
  public var isSingleFrame: Bool { self == .png || self == .svg }

  /// True for formats encoded by an ffmpeg child process.
  public var usesFFmpeg: Bool {
    switch self {
    case .mp4, .gif, .webp, .apng: true
    case .png, .pngSequence, .svg, .pdf: false
    }
  }

  /// True for vector formats (SVG, PDF), drawn through Cairo's vector surfaces.
  public var isVector: Bool { self == .svg || self == .pdf }
}

/// Makes the sink for an output path, choosing the format from its extension unless one is
/// given.
///
/// - Parameters:
///   - path: The output file (or numbered pattern such as `frames/%05d.png`; `-` for standard
///     output, with a `format`).
///   - format: The format, or `nil` to pick it by the path's extension.
///   - ffmpeg: How video is encoded (ffmpeg location, quality).
/// - Returns: A sink ready for ``FrameSink/begin(_:)``.
/// - Throws: ``RenderError`` (`unsupportedFormat`) for an unknown extension.
public func makeFrameSink(
  path: String, format: OutputFormat? = nil, ffmpeg: FFmpegOptions = FFmpegOptions()
) throws(RenderError) -> any FrameSink {
  switch try OutputFormat(path: path, format: format) {
  case .png: return PNGSink(path: path)
  case .pngSequence: return try PNGSequenceSink(pattern: path)
  case .svg: return SVGSink(path: path)
  case .pdf: return PDFSink(path: path)
  case let format: return try VideoSink(path: path, format: format, options: ffmpeg)
  }
}
