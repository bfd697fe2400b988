import CCairo
import Foundation
import SwellGeometry

/// One pixel of an ARGB32 image: 8-bit sRGB components, **premultiplied** by alpha.
///
/// In memory (little-endian) a pixel is the four bytes blue, green, red, alpha, which is what
/// Cairo's `CAIRO_FORMAT_ARGB32`, SDL's `ARGB8888` and ffmpeg's `bgra` all mean on x86 and ARM.
public struct Pixel: Hashable, Sendable, CustomStringConvertible {
  /// Red, premultiplied, 0...255.
  public var red: UInt8
  /// Green, premultiplied, 0...255.
  public var green: UInt8
  /// Blue, premultiplied, 0...255.
  public var blue: UInt8
  /// Opacity, 0...255.
  public var alpha: UInt8

  /// Creates a pixel from premultiplied components.
  ///
  /// - Parameters:
  ///   - red: Red, premultiplied.
  ///   - green: Green, premultiplied.
  ///   - blue: Blue, premultiplied.
  ///   - alpha: Opacity.
  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// The pixel as a native-endian ARGB32 word (`0xAARRGGBB`).
  public var argb: UInt32 {
    UInt32(alpha) << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
  }

  /// Creates a pixel from a native-endian ARGB32 word (`0xAARRGGBB`).
  ///
  /// - Parameter argb: The word.
  public init(argb: UInt32) {
    self.init(
      red: UInt8(truncatingIfNeeded: argb >> 16), green: UInt8(truncatingIfNeeded: argb >> 8),
      blue: UInt8(truncatingIfNeeded: argb), alpha: UInt8(truncatingIfNeeded: argb >> 24))
  }

  /// The largest difference of any component from another pixel, 0...255.
  ///
  /// - Parameter other: The other pixel.
  /// - Returns: The largest absolute component difference.
  public func distance(to other: Pixel) -> Int {
    max(
      abs(Int(red) - Int(other.red)), abs(Int(green) - Int(other.green)),
      abs(Int(blue) - Int(other.blue)), abs(Int(alpha) - Int(other.alpha)))
  }

  /// `#RRGGBBAA` (premultiplied values).
  public var description: String {
    let word = UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
    let hex = String(word, radix: 16, uppercase: true)
    return "#" + String(repeating: "0", count: 8 - hex.count) + hex
  }
}

/// A view of one frame's pixels in memory: ARGB32 premultiplied (bytes B, G, R, A per pixel),
/// rows top to bottom, `bytesPerRow` apart.
///
/// The bytes are only valid inside the call that hands out the value.
public struct FramePixels {
  /// The width, pixels.
  public var pixelWidth: Int
  /// The height, pixels.
  public var pixelHeight: Int
  /// The distance between rows, bytes (at least `4 × pixelWidth`).
  public var bytesPerRow: Int
  /// The pixel bytes, `bytesPerRow × pixelHeight` of them.
  public var bytes: UnsafeRawBufferPointer

  /// Describes pixels in memory.
  ///
  /// - Parameters:
  ///   - pixelWidth: The width, pixels.
  ///   - pixelHeight: The height, pixels.
  ///   - bytesPerRow: The distance between rows, bytes.
  ///   - bytes: The bytes; at least `bytesPerRow × pixelHeight`.
  public init(pixelWidth: Int, pixelHeight: Int, bytesPerRow: Int, bytes: UnsafeRawBufferPointer) {
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.bytesPerRow = bytesPerRow
    self.bytes = bytes
  }

  /// True when the sizes are positive and the buffer holds every row.
  public var isConsistent: Bool {
    pixelWidth > 0 && pixelHeight > 0 && bytesPerRow >= 4 * pixelWidth
      && bytes.count >= bytesPerRow * pixelHeight
  }
}

@available(*, unavailable)
extension FramePixels: Sendable {}

/// The pixel memory behind an ``ImageSurface``, freed when the C surface is destroyed.
private final class PixelStorage {
  let bytes: UnsafeMutableRawPointer

  init(byteCount: Int) {
    // 64-byte alignment suits pixman's SIMD paths; zeroed memory is transparent black.
    bytes = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 64)
    bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, 1))
  }

  deinit { bytes.deallocate() }
}

/// An in-memory ARGB32 image surface over a Swift-owned pixel buffer
/// (`cairo_image_surface_create_for_data`).
///
/// Pixels are premultiplied, native-endian `0xAARRGGBB` words (bytes B, G, R, A), rows
/// ``bytesPerRow`` apart (`cairo_format_stride_for_width`). A new surface is transparent black.
public final class ImageSurface: Surface {
  /// The width, pixels.
  public let pixelWidth: Int
  /// The height, pixels.
  public let pixelHeight: Int
  /// The distance between rows, bytes.
  public let bytesPerRow: Int
  /// The owned pixel memory (`nil` for ``init(unownedBytes:pixelWidth:pixelHeight:bytesPerRow:)``).
  private let storage: PixelStorage?
  /// The first pixel byte.
  private let base: UnsafeMutableRawPointer

  /// The largest width or height Cairo's image surfaces accept, pixels.
  public static let maximumDimension = 32767

  /// Creates a transparent image.
  ///
  /// - Parameters:
  ///   - pixelWidth: The width, pixels, 1...32767.
  ///   - pixelHeight: The height, pixels, 1...32767.
  /// - Throws: ``CairoError/invalidSize`` for sizes out of range, or another Cairo error.
  public convenience init(pixelWidth: Int, pixelHeight: Int) throws(CairoError) {
    try Self.checkDimensions(pixelWidth, pixelHeight)
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(pixelWidth)))
    guard stride > 0 else { throw .invalidSize }
    let storage = PixelStorage(byteCount: stride * pixelHeight)
    try self.init(
      base: storage.bytes, storage: storage, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
      bytesPerRow: stride)
  }

  /// Wraps pixel memory owned by someone else, such as a live window's streaming buffer, so
  /// Cairo draws straight into it (`cairo_image_surface_create_for_data`).
  ///
  /// The memory is not copied, cleared or freed. It must stay valid, and must not be freed or
  /// moved, for as long as this surface or any ``CairoContext`` on it exists.
  ///
  /// - Parameters:
  ///   - bytes: The first byte of the top row; premultiplied ARGB32 (B, G, R, A in memory).
  ///   - pixelWidth: The width, pixels, 1...32767.
  ///   - pixelHeight: The height, pixels, 1...32767.
  ///   - bytesPerRow: The distance between rows, bytes: a multiple of 4, at least `4 × width`.
  /// - Throws: ``CairoError/invalidSize`` or ``CairoError`` `CAIRO_STATUS_INVALID_STRIDE` for
  ///   bad numbers.
  public convenience init(
    unownedBytes bytes: UnsafeMutableRawPointer, pixelWidth: Int, pixelHeight: Int,
    bytesPerRow: Int
  ) throws(CairoError) {
    try Self.checkDimensions(pixelWidth, pixelHeight)
    guard bytesPerRow >= 4 * pixelWidth, bytesPerRow % 4 == 0, bytesPerRow <= Int(Int32.max)
    else { throw CairoError(rawValue: CAIRO_STATUS_INVALID_STRIDE) }
    try self.init(
      base: bytes, storage: nil, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
      bytesPerRow: bytesPerRow)
  }

  /// Throws ``CairoError/invalidSize`` unless both sizes are in 1...``maximumDimension``.
  private static func checkDimensions(_ pixelWidth: Int, _ pixelHeight: Int) throws(CairoError) {
    guard (1...maximumDimension).contains(pixelWidth), (1...maximumDimension).contains(pixelHeight)
    else { throw .invalidSize }
  }

  /// Makes the Cairo surface over checked pixel memory; `storage`, when given, lives as long as
  /// the C surface.
  private init(
    base: UnsafeMutableRawPointer, storage: PixelStorage?, pixelWidth: Int, pixelHeight: Int,
    bytesPerRow: Int
  ) throws(CairoError) {
    let surface = cairo_image_surface_create_for_data(
      base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(pixelWidth),
      Int32(pixelHeight), Int32(bytesPerRow))
    guard let surface else { throw .noMemory }
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.bytesPerRow = bytesPerRow
    self.storage = storage
    self.base = base
    try super.init(owning: surface)
    if let storage { attach(storage) }
  }

  /// Loads a PNG file into a new ARGB32 image (`cairo_image_surface_create_from_png`).
  ///
  /// Grey, RGB and palette PNGs are converted; the pixels end up premultiplied.
  ///
  /// - Parameter path: The PNG file.
  /// - Returns: The image.
  /// - Throws: ``RenderError`` (`unreadableInput`) naming the file and the reason.
  public static func load(contentsOfPNGFile path: String) throws(RenderError) -> ImageSurface {
    guard let loaded = cairo_image_surface_create_from_png(path) else {
      throw RenderError(.unreadableInput, path: path, reason: "out of memory")
    }
    return try copy(loaded, path: path)
  }

  /// Decodes PNG bytes into a new ARGB32 image (`cairo_image_surface_create_from_png_stream`).
  ///
  /// - Parameter data: The PNG file's bytes.
  /// - Returns: The image.
  /// - Throws: ``RenderError`` (`unreadableInput`) with the reason.
  public static func load(pngData data: Data) throws(RenderError) -> ImageSurface {
    let reader = ByteReader(data)
    let loaded = withExtendedLifetime(reader) {
      cairo_image_surface_create_from_png_stream(
        { closure, buffer, length in
          guard let closure, let buffer else { return CAIRO_STATUS_READ_ERROR }
          let reader = Unmanaged<ByteReader>.fromOpaque(closure).takeUnretainedValue()
          return reader.read(into: buffer, count: Int(length))
            ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
        }, Unmanaged.passUnretained(reader).toOpaque())
    }
    guard let loaded else {
      throw RenderError(.unreadableInput, reason: "PNG data: out of memory")
    }
    return try copy(loaded, path: nil)
  }

  /// Copies a loaded C image surface of any format into a new ARGB32 surface, then destroys it.
  private static func copy(_ loaded: OpaquePointer, path: String?) throws(RenderError)
    -> ImageSurface
  {
    defer { cairo_surface_destroy(loaded) }
    let status = cairo_surface_status(loaded)
    guard status == CAIRO_STATUS_SUCCESS else {
      let error = CairoError(rawValue: status)
      let reason: String
      switch error {
      case .fileNotFound: reason = "no such file"
      case .readError: reason = "cannot read the file"
      default: reason = "not a valid PNG image (\(error))"
      }
      throw RenderError(
        .unreadableInput, path: path, reason: path == nil ? "PNG data: \(reason)" : reason)
    }
    do throws(CairoError) {
      let image = try ImageSurface(
        pixelWidth: Int(cairo_image_surface_get_width(loaded)),
        pixelHeight: Int(cairo_image_surface_get_height(loaded)))
      guard let cr = cairo_create(image.pointer) else { throw .noMemory }
      defer { cairo_destroy(cr) }
      cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
      cairo_set_source_surface(cr, loaded, 0, 0)
      cairo_paint(cr)
      try CairoError.check(cairo_status(cr))
      image.flush()
      return image
    } catch {
      throw RenderError(.unreadableInput, path: path, reason: "cannot decode the image (\(error))")
    }
  }

  /// The size in pixels.
  public var pixelSize: (width: Int, height: Int) { (pixelWidth, pixelHeight) }

  /// Calls `body` with the pixels, after finishing pending drawing (`cairo_surface_flush`).
  ///
  /// - Parameter body: Reads the pixels; they must not escape the call.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withFramePixels<R, E: Error>(_ body: (FramePixels) throws(E) -> R) throws(E) -> R {
    flush()
    let frame = FramePixels(
      pixelWidth: pixelWidth, pixelHeight: pixelHeight, bytesPerRow: bytesPerRow,
      bytes: UnsafeRawBufferPointer(start: base, count: bytesPerRow * pixelHeight))
    return try body(frame)
  }

  /// Calls `body` with writable pixels, then tells Cairo they changed
  /// (`cairo_surface_flush` before, `cairo_surface_mark_dirty` after).
  ///
  /// - Parameter body: Changes the pixels (premultiplied ARGB32, ``bytesPerRow`` per row).
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withUnsafeMutableBytes<R, E: Error>(
    _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    flush()
    defer { cairo_surface_mark_dirty(pointer) }
    return try body(
      UnsafeMutableRawBufferPointer(start: base, count: bytesPerRow * pixelHeight))
  }

  /// The pixel at a position (premultiplied), or `nil` outside the image.
  ///
  /// - Parameters:
  ///   - x: The column, pixels from the left.
  ///   - y: The row, pixels from the top.
  /// - Returns: The pixel.
  public func pixel(x: Int, y: Int) -> Pixel? {
    guard (0..<pixelWidth).contains(x), (0..<pixelHeight).contains(y) else { return nil }
    flush()
    let word = base.load(fromByteOffset: y * bytesPerRow + x * 4, as: UInt32.self)
    return Pixel(argb: UInt32(littleEndian: word))
  }

  /// Fills every pixel with one colour, replacing what was there (`CAIRO_OPERATOR_SOURCE`).
  ///
  /// - Parameter color: The colour (not premultiplied); `Color/clear` by default.
  public func clear(to color: Color = .clear) {
    guard let cr = cairo_create(pointer) else { return }
    defer { cairo_destroy(cr) }
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    let c = color.clamped
    cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
    cairo_paint(cr)
  }

  /// Encodes the image as PNG bytes (`cairo_surface_write_to_png_stream`).
  ///
  /// - Returns: The PNG file's bytes.
  /// - Throws: ``CairoError`` when encoding fails.
  public func pngData() throws(CairoError) -> Data {
    let writer = ByteWriter()
    let status = withExtendedLifetime(writer) {
      cairo_surface_write_to_png_stream(
        pointer,
        { closure, bytes, length in
          guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
          Unmanaged<ByteWriter>.fromOpaque(closure).takeUnretainedValue()
            .data.append(bytes, count: Int(length))
          return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(writer).toOpaque())
    }
    try CairoError.check(status)
    return writer.data
  }

  /// Writes the image to a PNG file, through a temporary file in the same folder that is
  /// renamed into place, so a failure leaves no partial file.
  ///
  /// - Parameter path: The PNG file to create or replace.
  /// - Throws: ``RenderError`` naming the file (folder missing or unwritable, disk full,
  ///   encoding failure).
  public func writePNG(to path: String) throws(RenderError) {
    let file = try OutputFile(path: path)
    let data: Data
    do {
      data = try pngData()
    } catch {
      throw RenderError(.writeFailed, path: path, reason: "PNG encoding failed (\(error))")
    }
    try file.write(data)
    try file.commit()
  }
}

/// Feeds bytes to Cairo's PNG stream reader.
private final class ByteReader {
  let data: Data
  var offset = 0

  init(_ data: Data) { self.data = data }

  func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
    guard count <= data.count - offset else { return false }
    let start = data.startIndex + offset
    data.copyBytes(to: buffer, from: start..<start + count)
    offset += count
    return true
  }
}

/// Collects the bytes of Cairo's PNG stream writer.
private final class ByteWriter {
  var data = Data()
}
