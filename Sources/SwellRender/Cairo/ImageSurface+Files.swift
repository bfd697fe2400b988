import Foundation
import SwellCairo
import SwellGeometry

// PNG files as the renderer and the sinks read and write them: errors are `RenderError`s that
// name the file, and writes go through a temporary file that is renamed into place.
extension ImageSurface {
  /// Fills every pixel with one colour, replacing what was there (`CAIRO_OPERATOR_SOURCE`).
  ///
  /// - Parameter color: The colour (not premultiplied), clamped to 0...1; `Color/clear` by
  ///   default.
  public func clear(to color: Color = .clear) {
    let c = color.clamped
    clear(toRed: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
  }

  /// Loads a PNG file into a new ARGB32 image (`cairo_image_surface_create_from_png`).
  ///
  /// Grey, RGB and palette PNGs are converted; the pixels end up premultiplied.
  ///
  /// - Parameter path: The PNG file.
  /// - Returns: The image.
  /// - Throws: ``RenderError`` (`unreadableInput`) naming the file and the reason.
  public static func load(contentsOfPNGFile path: String) throws(RenderError) -> ImageSurface {
    do {
      return try ImageSurface(contentsOfPNGFile: path)
    } catch {
      throw RenderError(.unreadableInput, path: path, reason: pngReason(error))
    }
  }

  /// Decodes PNG bytes into a new ARGB32 image (`cairo_image_surface_create_from_png_stream`).
  ///
  /// - Parameter data: The PNG file's bytes.
  /// - Returns: The image.
  /// - Throws: ``RenderError`` (`unreadableInput`) with the reason.
  public static func load(pngData data: Data) throws(RenderError) -> ImageSurface {
    do {
      return try ImageSurface(pngData: data)
    } catch {
      throw RenderError(.unreadableInput, reason: "PNG data: \(pngReason(error))")
    }
  }

  /// The reason a PNG could not be loaded, in words.
  private static func pngReason(_ error: CairoError) -> String {
    switch error {
    case .fileNotFound: "no such file"
    case .readError: "cannot read the file"
    default: "not a valid PNG image (\(error))"
    }
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
