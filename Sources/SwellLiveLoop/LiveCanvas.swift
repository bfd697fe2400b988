import Foundation
import SwellCairo
import SwellGeometry
import SwellRender

/// The frame buffer of a live view: `width × height` pixels of Cairo's `CAIRO_FORMAT_ARGB32`
/// (native-endian `0xAARRGGBB` words, premultiplied alpha), which scene renderers fill, the HUD
/// draws over, windows and terminals show, and screenshots save as PNG.
///
/// The pixels are an `ImageSurface` the canvas owns (``image``); the HUD and fills draw on it
/// through a `CairoContext`.
public final class LiveCanvas {
  /// The width, pixels.
  public let width: Int
  /// The height, pixels.
  public let height: Int
  /// The row stride, bytes.
  public let bytesPerRow: Int
  /// The image holding the pixels; draw on it with a `CairoContext`.
  public let image: ImageSurface

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
    do {
      image = try ImageSurface(pixelWidth: width, pixelHeight: height)
    } catch {
      throw LiveWindowError("cannot allocate a \(width)×\(height) frame")
    }
    self.width = width
    self.height = height
    bytesPerRow = image.bytesPerRow
  }

  /// Creates a canvas over memory it does not own (a window's surface), without clearing it.
  ///
  /// The memory must stay valid, and must not move, for as long as the canvas exists.
  ///
  /// - Parameters:
  ///   - bytes: The first byte of the top row; `0xAARRGGBB` words (an `xRGB` surface works:
  ///     the window system ignores the alpha byte).
  ///   - width: Pixels, 1...32767.
  ///   - height: Pixels, 1...32767.
  ///   - bytesPerRow: The row stride, bytes: a multiple of 4, at least `4 × width`.
  /// - Throws: ``LiveWindowError`` for a size or stride Cairo cannot use.
  public init(
    unownedBytes bytes: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int
  ) throws(LiveWindowError) {
    do {
      image = try ImageSurface(
        unownedBytes: bytes, pixelWidth: width, pixelHeight: height, bytesPerRow: bytesPerRow)
    } catch {
      throw LiveWindowError(
        "cannot draw on a \(width)×\(height) frame of \(bytesPerRow) bytes a row")
    }
    self.width = width
    self.height = height
    self.bytesPerRow = bytesPerRow
    baseAddress = UnsafeRawPointer(bytes)
  }

  /// `current` when it owns its pixels and has `size` (at least 1 × 1), else a new canvas of
  /// that size: what a display hands its loop when it has no memory of its own to offer.
  ///
  /// - Parameters:
  ///   - current: The canvas of the previous frame, or `nil`.
  ///   - size: The frame size, pixels.
  /// - Returns: The canvas.
  /// - Throws: ``LiveWindowError`` when the size cannot be allocated.
  public static func owned(
    reusing current: LiveCanvas?, size: (width: Int, height: Int)
  ) throws(LiveWindowError) -> LiveCanvas {
    let width = max(1, size.width)
    let height = max(1, size.height)
    if let current, current.baseAddress == nil, current.width == width, current.height == height {
      return current
    }
    return try LiveCanvas(width: width, height: height)
  }

  /// The first byte of the pixels when the canvas does not own them (see
  /// ``init(unownedBytes:width:height:bytesPerRow:)``), else `nil`.
  public private(set) var baseAddress: UnsafeRawPointer?

  /// Calls `body` with the pixels to read (`height` rows of ``bytesPerRow`` bytes).
  ///
  /// - Parameter body: Reads the bytes.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withUnsafeBytes<R, E: Error>(
    _ body: (UnsafeRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    try image.withFramePixels { (frame) throws(E) in try body(frame.bytes) }
  }

  /// Calls `body` with the pixels to write (`height` rows of ``bytesPerRow`` bytes).
  ///
  /// - Parameter body: Writes the bytes.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withUnsafeMutableBytes<R, E: Error>(
    _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    try image.withUnsafeMutableBytes(body)
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
      cr.compositingOperator = .source
      cr.setSourceRGBA(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
      cr.paint()
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

  /// How ``drawHUD(lines:fontSize:)`` shows the heads-up display on this canvas.
  public enum HUDStyle: Sendable, Equatable {
    /// Drawn over the pixels (a window): a translucent box with white text.
    case pixels
    /// Kept as text in ``hudText`` for the display to print (a terminal, whose half blocks
    /// cannot show 13-pixel text): the pixels are left as they are.
    case text
  }

  /// How the HUD is shown (default ``HUDStyle/pixels``); a terminal view sets ``HUDStyle/text``
  /// on the canvases it hands out.
  public var hudStyle: HUDStyle = .pixels

  /// The HUD lines of the frame on this canvas when ``hudStyle`` is ``HUDStyle/text``: set by
  /// ``drawHUD(lines:fontSize:)``, taken (and cleared) by the display with ``takeHUDText()``.
  public private(set) var hudText: [String] = []

  /// The HUD text of the frame, cleared so the next frame shows none unless it draws a HUD.
  ///
  /// - Returns: The lines given to the last ``drawHUD(lines:fontSize:)`` since the last call.
  public func takeHUDText() -> [String] {
    defer { hudText = [] }
    return hudText
  }

  /// Draws a heads-up display in the top-left corner: a translucent dark box with one line of
  /// white text per entry (Cairo's toy text API, sans-serif). With ``hudStyle`` ``HUDStyle/text``
  /// the lines are kept in ``hudText`` instead and the pixels are not touched.
  ///
  /// - Parameters:
  ///   - lines: The text lines.
  ///   - fontSize: The font size, pixels (default 13).
  public func drawHUD(lines: [String], fontSize: Double = 13) {
    guard !lines.isEmpty else { return }
    if hudStyle == .text {
      hudText = lines
      return
    }
    withContext { cr in
      cr.selectFont(family: "sans-serif", slant: .normal, weight: .normal)
      cr.setFontSize(fontSize)
      var widest = 0.0
      for line in lines {
        widest = max(widest, cr.textExtents(line).xAdvance)
      }
      let lineHeight = fontSize * 1.35
      let pad = fontSize * 0.6
      cr.rectangle(
        x: 0, y: 0, width: widest + 2 * pad, height: Double(lines.count) * lineHeight + 2 * pad)
      cr.setSourceRGBA(red: 0, green: 0, blue: 0, alpha: 0.6)
      cr.fill()
      cr.setSourceRGBA(red: 1, green: 1, blue: 1, alpha: 1)
      for (i, line) in lines.enumerated() {
        cr.moveTo(x: pad, y: pad + Double(i) * lineHeight + fontSize)
        cr.showText(line)
      }
    }
  }

  /// Writes the canvas as a PNG file: to a temporary file in the same folder, renamed into
  /// place, so a failed write leaves no partial file.
  ///
  /// - Parameter path: The PNG file's path.
  /// - Throws: ``LiveWindowError`` naming the file when it cannot be written.
  public func writePNG(to path: String) throws(LiveWindowError) {
    image.flush()
    // SwellRender's atomic PNG writer (SwellFiles' output rules and unfinished-files registry).
    do {
      try image.writePNG(to: path)
    } catch {
      throw LiveWindowError("\(path): cannot write the PNG (\(error))")
    }
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

  /// Draws on the canvas with a context of its own, then finishes the drawing; nothing happens
  /// when Cairo cannot make the context.
  private func withContext(_ body: (CairoContext) -> Void) {
    guard let cr = try? CairoContext(surface: image) else { return }
    body(cr)
    image.flush()
  }
}
