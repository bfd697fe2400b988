import CCairo
import Foundation
import SwellGeometry

/// The frame buffer of a live view: `width × height` pixels of Cairo's `CAIRO_FORMAT_ARGB32`
/// (native-endian `0xAARRGGBB` words, premultiplied alpha), which scene renderers fill, the HUD
/// draws over, windows and terminals show, and screenshots save as PNG.
public final class LiveCanvas {
  /// The width, pixels.
  public let width: Int
  /// The height, pixels.
  public let height: Int
  /// The row stride, bytes.
  public let bytesPerRow: Int
  private let surface: OpaquePointer

  /// Creates a canvas cleared to transparent black.
  ///
  /// - Parameters:
  ///   - width: Pixels, 1...32767.
  ///   - height: Pixels, 1...32767.
  /// - Throws: ``LiveWindowError`` for a size Cairo cannot allocate.
  public init(width: Int, height: Int) throws(LiveWindowError) {
    guard (1...32767).contains(width), (1...32767).contains(height) else {
      throw LiveWindowError("frame size \(width)×\(height) pixels is out of range 1...32767")
    }
    guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
    else { throw LiveWindowError("cannot allocate a \(width)×\(height) frame") }
    guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(s)
      throw LiveWindowError("cannot allocate a \(width)×\(height) frame")
    }
    surface = s
    self.width = width
    self.height = height
    bytesPerRow = Int(cairo_image_surface_get_stride(s))
  }

  deinit { cairo_surface_destroy(surface) }

  /// Calls `body` with the pixels to read (`height` rows of ``bytesPerRow`` bytes).
  ///
  /// - Parameter body: Reads the bytes.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    cairo_surface_flush(surface)
    let p = UnsafeRawPointer(cairo_image_surface_get_data(surface))
    return try body(UnsafeRawBufferPointer(start: p, count: bytesPerRow * height))
  }

  /// Calls `body` with the pixels to write (`height` rows of ``bytesPerRow`` bytes).
  ///
  /// - Parameter body: Writes the bytes.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withUnsafeMutableBytes<R>(
    _ body: (UnsafeMutableRawBufferPointer) throws -> R
  ) rethrows -> R {
    cairo_surface_flush(surface)
    let p = UnsafeMutableRawPointer(cairo_image_surface_get_data(surface))
    defer { cairo_surface_mark_dirty(surface) }
    return try body(UnsafeMutableRawBufferPointer(start: p, count: bytesPerRow * height))
  }

  /// The pixel at a position as a native-endian `0xAARRGGBB` word (premultiplied).
  ///
  /// - Parameters:
  ///   - x: Column, pixels from the left.
  ///   - y: Row, pixels from the top.
  /// - Returns: The word, or `nil` outside the canvas.
  public func pixel(x: Int, y: Int) -> UInt32? {
    guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
    return withUnsafeBytes { $0.load(fromByteOffset: y * bytesPerRow + 4 * x, as: UInt32.self) }
  }

  /// Fills the whole canvas with one colour (replacing what was there).
  ///
  /// - Parameter color: The colour, straight (not premultiplied) alpha.
  public func fill(_ color: Color) {
    withContext { cr in
      cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
      cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
      cairo_paint(cr)
    }
  }

  /// Copies pixels in: rows of `width` pixels from a buffer with its own stride; the copied
  /// area is the overlap of both sizes, placed at the top left.
  ///
  /// - Parameters:
  ///   - source: The bytes of the source pixels, native-endian `0xAARRGGBB` words.
  ///   - width: The source width, pixels.
  ///   - height: The source height, pixels.
  ///   - bytesPerRow: The source stride, bytes.
  public func copy(from source: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) {
    let rows = min(height, self.height)
    let rowBytes = 4 * min(width, self.width)
    guard rows > 0, rowBytes > 0, source.count >= bytesPerRow * (rows - 1) + rowBytes else {
      return
    }
    let dstStride = self.bytesPerRow
    withUnsafeMutableBytes { dst in
      for y in 0..<rows {
        let from = UnsafeRawBufferPointer(
          rebasing: source[(y * bytesPerRow)..<(y * bytesPerRow + rowBytes)])
        let to = UnsafeMutableRawBufferPointer(
          rebasing: dst[(y * dstStride)..<(y * dstStride + rowBytes)])
        to.copyMemory(from: from)
      }
    }
  }

  /// Draws a heads-up display in the top-left corner: a translucent dark box with one line of
  /// white text per entry (Cairo's toy text API, sans-serif).
  ///
  /// - Parameters:
  ///   - lines: The text lines.
  ///   - fontSize: The font size, pixels (default 13).
  public func drawHUD(lines: [String], fontSize: Double = 13) {
    guard !lines.isEmpty else { return }
    withContext { cr in
      cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
      cairo_set_font_size(cr, fontSize)
      var widest = 0.0
      for line in lines {
        var ext = cairo_text_extents_t()
        cairo_text_extents(cr, line, &ext)
        widest = max(widest, ext.x_advance)
      }
      let lineHeight = fontSize * 1.35
      let pad = fontSize * 0.6
      cairo_rectangle(cr, 0, 0, widest + 2 * pad, Double(lines.count) * lineHeight + 2 * pad)
      cairo_set_source_rgba(cr, 0, 0, 0, 0.6)
      cairo_fill(cr)
      cairo_set_source_rgba(cr, 1, 1, 1, 1)
      for (i, line) in lines.enumerated() {
        cairo_move_to(cr, pad, pad + Double(i) * lineHeight + fontSize)
        cairo_show_text(cr, line)
      }
    }
  }

  /// Writes the canvas as a PNG file: to a temporary file in the same folder, renamed into
  /// place, so a failed write leaves no partial file.
  ///
  /// - Parameter path: The PNG file's path.
  /// - Throws: ``LiveWindowError`` naming the file when it cannot be written.
  public func writePNG(to path: String) throws(LiveWindowError) {
    try LiveCanvas.writePNG(surface: surface, to: path)
  }

  /// Writes ARGB32 pixels as a PNG file atomically (temporary file in the same folder, renamed).
  ///
  /// - Parameters:
  ///   - pixels: `height` rows of `bytesPerRow` bytes of native-endian `0xAARRGGBB` words.
  ///   - width: Pixels.
  ///   - height: Pixels.
  ///   - bytesPerRow: The stride, bytes.
  ///   - path: The PNG file's path.
  /// - Throws: ``LiveWindowError`` naming the file when it cannot be written.
  public static func writePNG(
    pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, to path: String
  ) throws(LiveWindowError) {
    let canvas = try LiveCanvas(width: width, height: height)
    canvas.copy(from: pixels, width: width, height: height, bytesPerRow: bytesPerRow)
    try canvas.writePNG(to: path)
  }

  private static func writePNG(surface: OpaquePointer, to path: String) throws(LiveWindowError) {
    cairo_surface_flush(surface)
    let url = URL(fileURLWithPath: path)
    let dir = url.deletingLastPathComponent().path
    let temp = dir + "/." + url.lastPathComponent + ".\(getpid()).tmp"
    let status = cairo_surface_write_to_png(surface, temp)
    guard status == CAIRO_STATUS_SUCCESS else {
      unlink(temp)
      let reason = String(cString: cairo_status_to_string(status))
      throw LiveWindowError("\(path): cannot write the PNG (\(reason))")
    }
    guard rename(temp, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temp)
      throw LiveWindowError("\(path): cannot write the PNG (\(reason))")
    }
  }

  private func withContext(_ body: (OpaquePointer) -> Void) {
    guard let cr = cairo_create(surface) else { return }
    body(cr)
    cairo_destroy(cr)
    cairo_surface_flush(surface)
  }
}
