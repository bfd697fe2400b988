import Foundation
import SwellCairo
import SwellTestSupport

/// A fresh folder under the system temporary folder, removed when the value goes away.
final class TemporaryFolder {
  let path: String

  init() throws {
    path = try scratchFolder("cairo-tests").path
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// A path inside the folder.
  func file(_ name: String) -> String { path + "/" + name }

  /// The names in the folder, sorted (hidden files included).
  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }
}

/// A new transparent image and a context on it.
func makeImage(_ width: Int = 100, _ height: Int = 100) throws -> (ImageSurface, CairoContext) {
  let image = try ImageSurface(pixelWidth: width, pixelHeight: height)
  return (image, try CairoContext(surface: image))
}

/// Adds a circle as four Bézier curves (the usual 0.5523 approximation), starting at its
/// rightmost point.
func addCircle(_ cr: CairoContext, centerX cx: Double, centerY cy: Double, radius r: Double) {
  let k = 0.552_284_749_8 * r
  cr.moveTo(x: cx + r, y: cy)
  cr.curveTo(x1: cx + r, y1: cy + k, x2: cx + k, y2: cy + r, x3: cx, y3: cy + r)
  cr.curveTo(x1: cx - k, y1: cy + r, x2: cx - r, y2: cy + k, x3: cx - r, y3: cy)
  cr.curveTo(x1: cx - r, y1: cy - k, x2: cx - k, y2: cy - r, x3: cx, y3: cy - r)
  cr.curveTo(x1: cx + k, y1: cy - r, x2: cx + r, y2: cy - k, x3: cx + r, y3: cy)
  cr.closePath()
}

/// A test picture drawn with primitives on a 100 × 80 unit frame: white background, a red
/// rectangle at (10, 10, 30, 20), a green circle of radius 20 around (70, 30), and a vertical
/// blue-to-black gradient band in (0, 60, 100, 20).
func drawTestPicture(_ cr: CairoContext) {
  cr.setSourceRGBA(red: 1, green: 1, blue: 1, alpha: 1)
  cr.paint()
  cr.setSourceRGBA(red: 1, green: 0, blue: 0, alpha: 1)
  cr.rectangle(x: 10, y: 10, width: 30, height: 20)
  cr.fill()
  cr.setSourceRGBA(red: 0, green: 1, blue: 0, alpha: 1)
  addCircle(cr, centerX: 70, centerY: 30, radius: 20)
  cr.fill()
  cr.setSource(
    CairoLinearGradient(
      x0: 0, y0: 60, x1: 0, y1: 80,
      stops: [
        .init(offset: 0, red: 0, green: 0, blue: 1, alpha: 1),
        .init(offset: 1, red: 0, green: 0, blue: 0, alpha: 1),
      ]))
  cr.rectangle(x: 0, y: 60, width: 100, height: 20)
  cr.fill()
}

/// The test picture at a scale, in a new image.
func renderTestPicture(scale: Double) throws -> ImageSurface {
  let (image, cr) = try makeImage(Int(100 * scale), Int(80 * scale))
  try cr.scale(x: scale, y: scale)
  drawTestPicture(cr)
  try cr.checkStatus()
  return image
}

/// True when two images have the same size and every pixel within `tolerance` of the other's.
func sameImage(_ a: ImageSurface, _ b: ImageSurface, tolerance: Int = 0) -> Bool {
  guard a.pixelSize == b.pixelSize else { return false }
  for y in 0..<a.pixelHeight {
    for x in 0..<a.pixelWidth {
      guard let p = a.pixel(x: x, y: y), let q = b.pixel(x: x, y: y),
        p.distance(to: q) <= tolerance
      else { return false }
    }
  }
  return true
}

extension Pixel {
  static let opaqueRed = Pixel(red: 255, green: 0, blue: 0, alpha: 255)
  static let opaqueGreen = Pixel(red: 0, green: 255, blue: 0, alpha: 255)
  static let opaqueBlue = Pixel(red: 0, green: 0, blue: 255, alpha: 255)
  static let opaqueWhite = Pixel(red: 255, green: 255, blue: 255, alpha: 255)
  static let opaqueBlack = Pixel(red: 0, green: 0, blue: 0, alpha: 255)
  static let transparent = Pixel(red: 0, green: 0, blue: 0, alpha: 0)
}
