import CCairo
import Foundation

extension ImageSurface {
  /// Loads a PNG file into a new ARGB32 image.
  ///
  /// Grey, RGB and palette PNGs are converted; the pixels end up premultiplied. The corresponding
  /// Cairo function is `cairo_image_surface_create_from_png`.
  ///
  /// - Parameter path: The PNG file.
  /// - Throws: ``CairoError/fileNotFound`` for a missing file, ``CairoError/readError`` for one
  ///   that cannot be read, ``CairoError/pngError`` (or another status) for one that is not a
  ///   valid PNG.
  public convenience init(contentsOfPNGFile path: String) throws(CairoError) {
    guard let loaded = cairo_image_surface_create_from_png(path) else { throw .noMemory }
    defer { cairo_surface_destroy(loaded) }
    try self.init(copying: loaded)
  }

  /// Decodes PNG bytes into a new ARGB32 image.
  ///
  /// The corresponding Cairo function is `cairo_image_surface_create_from_png_stream`.
  ///
  /// - Parameter data: The PNG file's bytes.
  /// - Throws: ``CairoError/readError`` when the bytes end early, ``CairoError/pngError`` (or
  ///   another status) when they are not a valid PNG.
  public convenience init(pngData data: Data) throws(CairoError) {
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
    guard let loaded else { throw .noMemory }
    defer { cairo_surface_destroy(loaded) }
    try self.init(copying: loaded)
  }

  /// Copies a loaded C image surface of any format into a new Swift-owned ARGB32 surface.
  private convenience init(copying loaded: OpaquePointer) throws(CairoError) {
    try CairoError.check(cairo_surface_status(loaded))
    try self.init(
      pixelWidth: Int(cairo_image_surface_get_width(loaded)),
      pixelHeight: Int(cairo_image_surface_get_height(loaded)))
    guard let cr = cairo_create(pointer) else { throw .noMemory }
    defer { cairo_destroy(cr) }
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    cairo_set_source_surface(cr, loaded, 0, 0)
    cairo_paint(cr)
    try CairoError.check(cairo_status(cr))
    flush()
  }

  /// Encodes the image as PNG bytes.
  ///
  /// The corresponding Cairo function is `cairo_surface_write_to_png_stream`.
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

  /// Writes the image to a PNG file, straight to `path`.
  ///
  /// A failure part way can leave a partial file; write to a temporary name and rename it when
  /// that matters (SwellRender's `writePNG(to:)` does).
  ///
  /// The corresponding Cairo function is `cairo_surface_write_to_png`.
  ///
  /// - Parameter path: The PNG file to create or replace.
  /// - Throws: ``CairoError/writeError`` when the file cannot be created or written (a missing
  ///   folder, no permission, a full disk), or another status when encoding fails.
  public func writePNG(toFile path: String) throws(CairoError) {
    try CairoError.check(cairo_surface_write_to_png(pointer, path))
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
