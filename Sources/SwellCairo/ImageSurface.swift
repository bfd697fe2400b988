import CCairo

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

/// An in-memory ARGB32 image surface over a Swift-owned pixel buffer.
///
/// Pixels are premultiplied, native-endian `0xAARRGGBB` words (bytes B, G, R, A), rows
/// ``bytesPerRow`` apart. A new surface is transparent black. The corresponding Cairo function
/// is `cairo_image_surface_create_for_data` with `CAIRO_FORMAT_ARGB32`.
public final class ImageSurface: Surface {
  /// The width, pixels.
  public let pixelWidth: Int
  /// The height, pixels.
  public let pixelHeight: Int
  /// The distance between rows, bytes.
  ///
  /// For a new image it is Cairo's stride for the width; the corresponding Cairo function is
  /// `cairo_format_stride_for_width`.
  public let bytesPerRow: Int
  /// The owned pixel memory (`nil` for ``init(unownedBytes:pixelWidth:pixelHeight:bytesPerRow:)``).
  private let storage: PixelStorage?
  /// The first pixel byte.
  private let base: UnsafeMutableRawPointer

  /// The largest width or height Cairo's image surfaces accept, pixels.
  public static let maximumDimension = 32767

  /// Creates a transparent image.
  ///
  /// The corresponding Cairo functions are `cairo_format_stride_for_width` and
  /// `cairo_image_surface_create_for_data`.
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
  /// Cairo draws straight into it.
  ///
  /// The memory is not copied, cleared or freed. It must stay valid, and must not be freed or
  /// moved, for as long as this surface or any ``CairoContext`` on it exists.
  ///
  /// The corresponding Cairo function is `cairo_image_surface_create_for_data`.
  ///
  /// - Parameters:
  ///   - bytes: The first byte of the top row; premultiplied ARGB32 (B, G, R, A in memory).
  ///   - pixelWidth: The width, pixels, 1...32767.
  ///   - pixelHeight: The height, pixels, 1...32767.
  ///   - bytesPerRow: The distance between rows, bytes: a multiple of 4, at least `4 × width`.
  /// - Throws: ``CairoError/invalidSize`` or ``CairoError/invalidStride`` for bad numbers.
  public convenience init(
    unownedBytes bytes: UnsafeMutableRawPointer, pixelWidth: Int, pixelHeight: Int,
    bytesPerRow: Int
  ) throws(CairoError) {
    try Self.checkDimensions(pixelWidth, pixelHeight)
    guard bytesPerRow >= 4 * pixelWidth, bytesPerRow % 4 == 0, bytesPerRow <= Int(Int32.max)
    else { throw .invalidStride }
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
    try super.init(owning: surface, keeping: storage)
  }

  /// The size in pixels.
  public var pixelSize: (width: Int, height: Int) { (pixelWidth, pixelHeight) }

  /// Calls `body` with the pixels, after finishing pending drawing.
  ///
  /// The corresponding Cairo function (called first) is `cairo_surface_flush`.
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

  /// Calls `body` with writable pixels, then tells Cairo they changed.
  ///
  /// The corresponding Cairo functions are `cairo_surface_flush` (before) and
  /// `cairo_surface_mark_dirty` (after).
  ///
  /// - Parameter body: Changes the pixels (premultiplied ARGB32, ``bytesPerRow`` per row).
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withUnsafeMutableBytes<R, E: Error>(
    _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    flush()
    defer { markDirty() }
    return try body(
      UnsafeMutableRawBufferPointer(start: base, count: bytesPerRow * pixelHeight))
  }

  /// The pixel at a position (premultiplied), or `nil` outside the image.
  ///
  /// Pending drawing is finished first (`cairo_surface_flush`).
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

  /// Fills every pixel with one colour, replacing what was there.
  ///
  /// The corresponding Cairo functions are `cairo_set_operator` (`CAIRO_OPERATOR_SOURCE`),
  /// `cairo_set_source_rgba` and `cairo_paint`, on a context of its own.
  ///
  /// - Parameters:
  ///   - red: Red, 0...1, not premultiplied.
  ///   - green: Green, 0...1, not premultiplied.
  ///   - blue: Blue, 0...1, not premultiplied.
  ///   - alpha: Opacity, 0...1.
  public func clear(toRed red: Double, green: Double, blue: Double, alpha: Double) {
    guard let cr = cairo_create(pointer) else { return }
    defer { cairo_destroy(cr) }
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    cairo_set_source_rgba(cr, red, green, blue, alpha)
    cairo_paint(cr)
  }
}
