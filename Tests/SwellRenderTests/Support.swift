import Foundation
import SwellGeometry
import SwellRender
import SwellTestSupport
import Testing

/// A fresh folder under the system temporary folder, removed when the value goes away.
final class TemporaryFolder {
  let path: String

  init() throws {
    path = try scratchFolder("render-tests").path
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// A path inside the folder.
  func file(_ name: String) -> String { path + "/" + name }

  /// The names in the folder, sorted (hidden temporary files included).
  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  /// Writes an executable shell script and returns its path.
  func script(_ name: String, _ body: String) throws -> String {
    let target = file(name)
    try ("#!/bin/sh\n" + body + "\n").write(toFile: target, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: target)
    return target
  }
}

/// Runs a program and requires it to succeed; returns its standard output.
@discardableResult
func requireTool(_ name: String, _ arguments: [String]) throws -> String {
  let result = try runProgram(name, arguments)
  try #require(
    result.status == 0, "\(name) \(arguments.joined(separator: " ")) failed: \(result.err)")
  return result.out
}

/// The shared test picture, drawn in points on a 100 × 80 point frame:
/// white background, a red rectangle at (10, 10, 30, 20), a green ellipse in (50, 10, 40, 40),
/// a vertical blue-to-black gradient band in (0, 60, 100, 20), and a 4-point black line from
/// (10, 45) to (40, 45).
func drawTestPicture(_ context: CairoContext) {
  context.setSource(Color.white)
  context.paint()
  context.setSource(Color(red: 1, green: 0, blue: 0))
  context.addRectangle(Rect(x: 10, y: 10, width: 30, height: 20))
  context.fill()
  context.setSource(Color(red: 0, green: 1, blue: 0))
  context.addPath(Path(ellipseIn: Rect(x: 50, y: 10, width: 40, height: 40)))
  context.fill()
  context.setSource(
    LinearGradientPattern(
      start: Point(x: 0, y: 60), end: Point(x: 0, y: 80),
      colors: [Color(red: 0, green: 0, blue: 1), .black]))
  context.addRectangle(Rect(x: 0, y: 60, width: 100, height: 20))
  context.fill()
  context.setSource(Color.black)
  context.lineWidth = 4
  var line = Path()
  line.move(to: Point(x: 10, y: 45))
  line.line(to: Point(x: 40, y: 45))
  context.addPath(line)
  context.stroke()
}

/// The test picture's size, points.
let testPictureSize = Size(width: 100, height: 80)

/// Renders the test picture into a new image at a scale.
func renderTestPicture(scale: Double) throws -> ImageSurface {
  let image = try ImageSurface(
    pixelWidth: Int(testPictureSize.width * scale),
    pixelHeight: Int(testPictureSize.height * scale))
  let context = try CairoContext(surface: image)
  try context.scale(x: scale, y: scale)
  drawTestPicture(context)
  try context.checkStatus()
  return image
}

/// How two images of the same size differ.
struct ImageDifference {
  /// The mean absolute component difference, 0...255.
  var mean: Double
  /// The fraction of pixels whose largest component difference exceeds 32.
  var farFraction: Double
}

/// Compares two images pixel by pixel.
func compare(_ a: ImageSurface, _ b: ImageSurface) throws -> ImageDifference {
  try #require(a.pixelWidth == b.pixelWidth && a.pixelHeight == b.pixelHeight)
  var total = 0
  var far = 0
  for y in 0..<a.pixelHeight {
    for x in 0..<a.pixelWidth {
      let p = try #require(a.pixel(x: x, y: y))
      let q = try #require(b.pixel(x: x, y: y))
      let dr = abs(Int(p.red) - Int(q.red))
      let dg = abs(Int(p.green) - Int(q.green))
      let db = abs(Int(p.blue) - Int(q.blue))
      let da = abs(Int(p.alpha) - Int(q.alpha))
      total += dr + dg + db + da
      if p.distance(to: q) > 32 { far += 1 }
    }
  }
  let count = Double(a.pixelWidth * a.pixelHeight)
  return ImageDifference(mean: Double(total) / (4 * count), farFraction: Double(far) / count)
}

extension Pixel {
  static let opaqueRed = Pixel(red: 255, green: 0, blue: 0, alpha: 255)
  static let opaqueGreen = Pixel(red: 0, green: 255, blue: 0, alpha: 255)
  static let opaqueBlue = Pixel(red: 0, green: 0, blue: 255, alpha: 255)
  static let opaqueWhite = Pixel(red: 255, green: 255, blue: 255, alpha: 255)
  static let opaqueBlack = Pixel(red: 0, green: 0, blue: 0, alpha: 255)
  static let transparent = Pixel(red: 0, green: 0, blue: 0, alpha: 0)
}
