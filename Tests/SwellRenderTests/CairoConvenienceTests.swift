import Foundation
import SwellGeometry
import SwellLayers
import SwellRender
import SwellTestSupport
import Testing

@Suite("Cairo in Swell's types")
private struct CairoConvenienceTests {
  private func image(_ width: Int = 100, _ height: Int = 100) throws -> (ImageSurface, CairoContext)
  {
    let image = try ImageSurface(pixelWidth: width, pixelHeight: height)
    return (image, try CairoContext(surface: image))
  }

  @Test("transforms are affine transforms") func transformsAreAffineTransforms() throws {
    let (_, cr) = try image()
    let t = AffineTransform(rotationAngle: 0.3).concatenating(
      AffineTransform(translationX: 7, y: -2))
    try cr.concatenate(t)
    let p = Point(x: 3, y: 4)
    let expected = t.apply(to: p)
    let actual = cr.userToDevice(p)
    #expect(isApproximatelyEqual(actual.x, expected.x, absolute: 1e-12))
    #expect(isApproximatelyEqual(actual.y, expected.y, absolute: 1e-12))
    #expect(cr.transform == t)
    #expect(AffineTransform(CairoMatrix(t)) == t)
    try cr.setTransform(.identity)
    #expect(cr.matrix == .identity)
    #expect(throws: CairoError.invalidMatrix) {
      try cr.setTransform(AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0))
    }
    #expect(throws: CairoError.invalidMatrix) {
      try cr.concatenate(AffineTransform(scaleX: 0, y: 1))
    }
    try cr.checkStatus()
  }

  @Test("paths and rectangles skip what is not finite") func pathsAndRectanglesSkipWhatIsNotFinite()
    throws
  {
    let (image, cr) = try image(40, 40)
    var path = Path(ellipseIn: Rect(x: 10, y: 10, width: 20, height: 20))
    path.line(to: Point(x: .nan, y: 3))
    cr.addPath(path)
    let extents = Rect(cr.pathExtents)
    #expect(isApproximatelyEqual(extents.minX, 10, absolute: 1e-6))
    #expect(isApproximatelyEqual(extents.maxY, 30, absolute: 1e-6))
    cr.setSource(Color.black)
    cr.fill()
    try cr.checkStatus()
    #expect(image.pixel(x: 20, y: 20) == .opaqueBlack)
    #expect(image.pixel(x: 11, y: 11) == .transparent)  // outside the circle, inside its box
    cr.addRectangle(Rect(x: .infinity, y: 0, width: 5, height: 5))
    #expect(cr.pathExtents == CairoRect(x: 0, y: 0, width: 0, height: 0))
    cr.addRectangle(Rect(x: 1, y: 2, width: 3, height: 4))
    #expect(Rect(cr.pathExtents) == Rect(x: 1, y: 2, width: 3, height: 4))
  }

  @Test("colours are clamped and non finite components are zero")
  func coloursAreClampedAndNonFiniteComponentsAreZero() throws {
    let (image, cr) = try image(2, 2)
    cr.setSource(Color(red: 2, green: .nan, blue: -1, alpha: 1))
    cr.paint()
    #expect(image.pixel(x: 0, y: 0) == .opaqueRed)
    image.clear(to: Color(red: 0, green: 0, blue: 3, alpha: 7))
    #expect(image.pixel(x: 1, y: 1) == .opaqueBlue)
    image.clear()
    #expect(image.pixel(x: 1, y: 1) == .transparent)
  }

  @Test("layer fill rules map to Cairo's") func layerFillRulesMapToCairos() {
    #expect(CairoFillRule(FillRule.nonZero) == .winding)
    #expect(CairoFillRule(FillRule.evenOdd) == .evenOdd)
  }

  @Test("vertical gradient interpolates and pads") func verticalGradientInterpolatesAndPads() throws
  {
    let (image, cr) = try image(10, 100)
    cr.setSource(
      LinearGradientPattern(
        start: Point(x: 0, y: 20), end: Point(x: 0, y: 80),
        colors: [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1)]))
    cr.paint()
    #expect(image.pixel(x: 5, y: 0) == .opaqueRed)
    #expect(image.pixel(x: 5, y: 99) == .opaqueBlue)
    let middle = try #require(image.pixel(x: 5, y: 50))
    // Row 50's centre is at y = 50.5: t = 30.5 / 60.
    let t = 30.5 / 60
    #expect(abs(Double(middle.red) - 255 * (1 - t)) <= 2)
    #expect(abs(Double(middle.blue) - 255 * t) <= 2)
    #expect(image.pixel(x: 0, y: 37) == image.pixel(x: 9, y: 37))
  }

  @Test("degenerate gradients paint solid or nothing") func degenerateGradientsPaintSolidOrNothing()
    throws
  {
    let (image, cr) = try image(4, 4)
    let stops = [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 1, blue: 0)]
    cr.setSource(LinearGradientPattern(start: .zero, end: .zero, colors: stops))
    cr.paint()
    #expect(image.pixel(x: 2, y: 2) == .opaqueGreen)  // the last stop's colour
    image.clear()
    cr.setSource(
      LinearGradientPattern(start: Point(x: .nan, y: 0), end: Point(x: 0, y: 4), colors: stops))
    cr.paint()
    #expect(image.pixel(x: 2, y: 2) == .transparent)
  }

  @Test("images draw scaled into a rectangle") func imagesDrawScaledIntoARectangle() throws {
    let source = try ImageSurface(pixelWidth: 2, pixelHeight: 2)
    source.withUnsafeMutableBytes { bytes in
      let words: [UInt32] = [
        Pixel.opaqueRed.argb, Pixel.opaqueGreen.argb, Pixel.opaqueBlue.argb, Pixel.opaqueWhite.argb,
      ]
      for (i, word) in words.enumerated() {
        bytes.storeBytes(of: word.littleEndian, toByteOffset: i * 4, as: UInt32.self)
      }
    }
    #expect(source.pixel(x: 1, y: 0) == .opaqueGreen)
    let (image, cr) = try image(40, 40)
    cr.drawImage(source, in: Rect(x: 10, y: 10, width: 20, height: 20), filter: .nearest)
    #expect(image.pixel(x: 12, y: 12) == .opaqueRed)
    #expect(image.pixel(x: 27, y: 12) == .opaqueGreen)
    #expect(image.pixel(x: 12, y: 27) == .opaqueBlue)
    #expect(image.pixel(x: 27, y: 27) == .opaqueWhite)
    #expect(image.pixel(x: 9, y: 20) == .transparent)
    #expect(image.pixel(x: 30, y: 20) == .transparent)
    #expect(cr.transform == .identity)
  }
}

@Suite("PNG files")
private struct PNGFileTests {
  @Test("memory round trip keeps every pixel") func memoryRoundTripKeepsEveryPixel() throws {
    let original = try renderTestPicture(scale: 2)
    let decoded = try ImageSurface.load(pngData: try original.pngData())
    let difference = try compare(original, decoded)
    #expect(difference.mean == 0)
  }

  @Test("file round trip and no leftovers") func fileRoundTripAndNoLeftovers() throws {
    let folder = try TemporaryFolder()
    let original = try renderTestPicture(scale: 1)
    let path = folder.file("picture.png")
    try original.writePNG(to: path)
    #expect(try folder.contents() == ["picture.png"])
    let decoded = try ImageSurface.load(contentsOfPNGFile: path)
    #expect(decoded.pixelWidth == 100 && decoded.pixelHeight == 80)
    #expect(decoded.pixel(x: 25, y: 20) == .opaqueRed)
    #expect(decoded.pixel(x: 70, y: 30) == .opaqueGreen)
    #expect(decoded.pixel(x: 2, y: 2) == .opaqueWhite)
    // Overwriting replaces the file in place.
    try (try ImageSurface(pixelWidth: 3, pixelHeight: 3)).writePNG(to: path)
    #expect(try ImageSurface.load(contentsOfPNGFile: path).pixelWidth == 3)
    #expect(try folder.contents() == ["picture.png"])
  }

  @Test("missing file names the path") func missingFileNamesThePath() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("absent.png")
    let error = try #require(throws: RenderError.self) {
      _ = try ImageSurface.load(contentsOfPNGFile: path)
    }
    #expect(error.kind == .unreadableInput)
    #expect(error.description == "\(path): no such file")
  }

  @Test("corrupt file is rejected") func corruptFileIsRejected() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("fake.png")
    try Data("not a png at all".utf8).write(to: URL(fileURLWithPath: path))
    let error = try #require(throws: RenderError.self) {
      _ = try ImageSurface.load(contentsOfPNGFile: path)
    }
    #expect(error.kind == .unreadableInput)
    #expect(error.description.hasPrefix(path + ": "))
    #expect(!error.description.contains("\n"))
    let dataError = try #require(throws: RenderError.self) {
      _ = try ImageSurface.load(pngData: Data([1, 2, 3]))
    }
    #expect(dataError.path == nil)
    #expect(dataError.reason.hasPrefix("PNG data: "))
  }

  @Test("writing into a missing folder fails cleanly") func writingIntoAMissingFolderFailsCleanly()
    throws
  {
    let folder = try TemporaryFolder()
    let image = try ImageSurface(pixelWidth: 2, pixelHeight: 2)
    let path = folder.file("nowhere/out.png")
    let error = try #require(throws: RenderError.self) { try image.writePNG(to: path) }
    #expect(error.kind == .unwritableOutput)
    #expect(error.description.contains("nowhere"))
    #expect(try folder.contents().isEmpty)
  }

  @Test("writing under a file fails cleanly") func writingUnderAFileFailsCleanly() throws {
    let folder = try TemporaryFolder()
    try Data().write(to: URL(fileURLWithPath: folder.file("plain")))
    let image = try ImageSurface(pixelWidth: 2, pixelHeight: 2)
    let error = try #require(throws: RenderError.self) {
      try image.writePNG(to: folder.file("plain/out.png"))
    }
    #expect(error.kind == .unwritableOutput)
    #expect(error.reason.contains("is not a folder"))
    #expect(try folder.contents() == ["plain"])
  }
}
