import SwellCairo
import SwellGeometry
import SwellLayers
import SwellRender

/// Pixel memory a caller owns (a toolkit's image, a texture upload buffer): where it starts, its
/// size, its row stride and its pixel layout. Swell draws into it without taking it over.
public struct PixelBuffer {
  /// A pixel layout.
  public enum Format: Hashable, Sendable {
    /// 32-bit native-endian `0xAARRGGBB` words, premultiplied alpha: Cairo's
    /// `CAIRO_FORMAT_ARGB32`, GDK's `GDK_MEMORY_B8G8R8A8_PREMULTIPLIED` on little-endian
    /// machines, SDL's `SDL_PIXELFORMAT_ARGB8888`.
    case argb32Premultiplied
  }

  /// The first byte of the top row. The memory must stay valid while Swell draws into it.
  public var baseAddress: UnsafeMutableRawPointer
  /// The width, pixels, 1...32767.
  public var width: Int
  /// The height, pixels, 1...32767.
  public var height: Int
  /// The row stride, bytes: a multiple of 4, at least `4 × width`.
  public var bytesPerRow: Int
  /// The pixel layout.
  public var format: Format

  /// Describes a buffer.
  ///
  /// - Parameters:
  ///   - baseAddress: The first byte of the top row.
  ///   - width: Pixels.
  ///   - height: Pixels.
  ///   - bytesPerRow: The row stride, bytes.
  ///   - format: The pixel layout (default ``Format/argb32Premultiplied``).
  public init(
    baseAddress: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int,
    format: Format = .argb32Premultiplied
  ) {
    self.baseAddress = baseAddress
    self.width = width
    self.height = height
    self.bytesPerRow = bytesPerRow
    self.format = format
  }

  /// Calls `body` with an image over the buffer's memory (drawing into it writes the buffer).
  ///
  /// - Parameter body: Draws into the image.
  /// - Returns: What `body` returns.
  /// - Throws: `RenderError` for a size or stride the renderer cannot use; what `body` throws.
  public func withImage<R>(_ body: (ImageSurface) throws(RenderError) -> R) throws(RenderError)
    -> R
  {
    let image: ImageSurface
    do {
      image = try ImageSurface(
        unownedBytes: baseAddress, pixelWidth: width, pixelHeight: height,
        bytesPerRow: bytesPerRow)
    } catch {
      throw RenderError(
        .invalidFrame,
        reason:
          "cannot draw on a \(width)×\(height) buffer of \(bytesPerRow) bytes a row (\(error))")
    }
    let result = try body(image)
    image.flush()
    return result
  }

  /// Draws a (presentation) layer tree into the buffer with the one frame-drawing function
  /// (`LayerRenderer.drawFrame`): the background over the whole buffer, then the tree.
  ///
  /// - Parameters:
  ///   - tree: The root of the tree (`Layer.presentation(at:)` for a moment of its animations).
  ///   - background: Painted first, or `nil` to clear the buffer to transparent.
  ///   - placement: Points to pixels (default: one pixel a point, at the top left).
  ///   - renderer: The renderer (default a new one; keep one across frames to reuse its image
  ///     cache).
  /// - Throws: `RenderError` for an unusable buffer or a failed drawing.
  public func draw(
    _ tree: Layer, background: Color?, placement: FramePlacement = .points,
    renderer: LayerRenderer = LayerRenderer()
  ) throws(RenderError) {
    try withImage { (image) throws(RenderError) in
      try renderer.drawFrame(tree, background: background, placement: placement, into: image)
    }
  }
}
