import CCairo
import Foundation
import SwellGeometry
import SwellRender
import SwellTestSupport
import Testing

@Suite("Cairo wrapper")
struct CairoTests {
  private func image(_ width: Int = 100, _ height: Int = 100) throws -> (ImageSurface, CairoContext)
  {
    let image = try ImageSurface(pixelWidth: width, pixelHeight: height)
    return (image, try CairoContext(surface: image))
  }

  @Test func newImageIsTransparentWithPackedRows() throws {
    let image = try ImageSurface(pixelWidth: 37, pixelHeight: 5)
    #expect(image.bytesPerRow == 37 * 4)
    #expect(image.pixel(x: 0, y: 0) == .transparent)
    #expect(image.pixel(x: 36, y: 4) == .transparent)
    #expect(image.pixel(x: 37, y: 0) == nil)
    #expect(image.pixel(x: 0, y: -1) == nil)
  }

  @Test(arguments: [(0, 10), (10, 0), (-1, 5), (40_000, 2)])
  func rejectsBadImageSizes(width: Int, height: Int) {
    #expect(throws: CairoError.invalidSize) {
      _ = try ImageSurface(pixelWidth: width, pixelHeight: height)
    }
  }

  @Test func solidRectangleLandsOnItsPixels() throws {
    let (image, cr) = try image()
    cr.setSource(Color(red: 1, green: 0, blue: 0))
    cr.addRectangle(Rect(x: 20, y: 30, width: 10, height: 5))
    cr.fill()
    #expect(image.pixel(x: 20, y: 30) == .opaqueRed)
    #expect(image.pixel(x: 29, y: 34) == .opaqueRed)
    #expect(image.pixel(x: 19, y: 30) == .transparent)
    #expect(image.pixel(x: 30, y: 30) == .transparent)
    #expect(image.pixel(x: 20, y: 35) == .transparent)
    // Memory order is B, G, R, A (ARGB32 little-endian), what ffmpeg calls bgra.
    image.withFramePixels { frame in
      let offset = 30 * frame.bytesPerRow + 20 * 4
      #expect(Array(frame.bytes[offset..<offset + 4]) == [0, 0, 255, 255])
    }
  }

  @Test func drawsStraightIntoBorrowedMemory() throws {
    let stride = 12 * 4 + 16
    let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * 6, alignment: 16)
    defer { memory.deallocate() }
    memory.initializeMemory(as: UInt8.self, repeating: 0xAB, count: stride * 6)
    do {
      let image = try ImageSurface(
        unownedBytes: memory, pixelWidth: 12, pixelHeight: 6, bytesPerRow: stride)
      let cr = try CairoContext(surface: image)
      cr.compositingOperator = .source
      cr.setSource(Color(red: 0, green: 0, blue: 1))
      cr.paint()
      image.flush()
    }
    #expect(memory.load(fromByteOffset: 5 * stride + 11 * 4, as: UInt32.self) == 0xFF00_00FF)
    // The row padding is not touched.
    #expect(memory.load(fromByteOffset: 12 * 4, as: UInt8.self) == 0xAB)
    #expect(throws: CairoError.self) {
      _ = try ImageSurface(unownedBytes: memory, pixelWidth: 12, pixelHeight: 6, bytesPerRow: 47)
    }
  }

  @Test func pixelsArePremultiplied() throws {
    let (image, cr) = try image(4, 4)
    cr.setSource(Color(red: 1, green: 0.5, blue: 0, alpha: 0.5))
    cr.paint()
    let p = try #require(image.pixel(x: 1, y: 1))
    #expect(abs(Int(p.alpha) - 128) <= 1)
    #expect(abs(Int(p.red) - 128) <= 1)
    #expect(abs(Int(p.green) - 64) <= 1)
    #expect(p.blue == 0)
  }

  @Test func rotationByQuarterTurnIsClockwiseOnScreen() throws {
    let (image, cr) = try image()
    cr.translate(x: 50, y: 50)
    cr.rotate(radians: .pi / 2)
    cr.setSource(Color(red: 0, green: 0, blue: 1))
    // A 20 × 10 bar pointing right from the origin turns to point down.
    cr.addRectangle(Rect(x: 0, y: 0, width: 20, height: 10))
    cr.fill()
    #expect(image.pixel(x: 45, y: 60) == .opaqueBlue)
    #expect(image.pixel(x: 41, y: 68) == .opaqueBlue)
    #expect(image.pixel(x: 60, y: 55) == .transparent)
    #expect(image.pixel(x: 55, y: 60) == .transparent)
    let device = cr.userToDevice(Point(x: 20, y: 0))
    #expect(isApproximatelyEqual(device.x, 50, absolute: 1e-9))
    #expect(isApproximatelyEqual(device.y, 70, absolute: 1e-9))
  }

  @Test func concatenateMatchesAffineTransformSemantics() throws {
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
  }

  @Test func singularTransformIsRejectedWithoutBreakingTheContext() throws {
    let (image, cr) = try image(10, 10)
    #expect(throws: CairoError.invalidMatrix) { try cr.scale(x: 0, y: 1) }
    #expect(throws: CairoError.invalidMatrix) {
      try cr.setTransform(AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0))
    }
    try cr.checkStatus()
    cr.setSource(Color(red: 1, green: 0, blue: 0))
    cr.paint()
    #expect(image.pixel(x: 5, y: 5) == .opaqueRed)
  }

  @Test func saveAndRestoreBracketTheTransformAndClip() throws {
    let (image, cr) = try image(20, 20)
    cr.withSavedState {
      cr.translate(x: 5, y: 5)
      cr.addRectangle(Rect(x: 0, y: 0, width: 2, height: 2))
      cr.clip()
    }
    #expect(cr.transform == .identity)
    cr.setSource(Color(red: 0, green: 1, blue: 0))
    cr.paint()
    #expect(image.pixel(x: 0, y: 0) == .opaqueGreen)
    #expect(image.pixel(x: 19, y: 19) == .opaqueGreen)
  }

  @Test func clipLimitsPainting() throws {
    let (image, cr) = try image(20, 20)
    cr.addRectangle(Rect(x: 5, y: 5, width: 10, height: 10))
    cr.clip()
    cr.setSource(Color(red: 0, green: 0, blue: 1))
    cr.paint()
    #expect(image.pixel(x: 5, y: 5) == .opaqueBlue)
    #expect(image.pixel(x: 14, y: 14) == .opaqueBlue)
    #expect(image.pixel(x: 4, y: 10) == .transparent)
    #expect(image.pixel(x: 15, y: 10) == .transparent)
    #expect(cr.clipExtents == Rect(x: 5, y: 5, width: 10, height: 10))
  }

  @Test func groupOpacityDoesNotLetOverlapsShowThrough() throws {
    let (image, cr) = try image(30, 10)
    func overlappingSquares() {
      cr.setSource(Color(red: 1, green: 0, blue: 0))
      cr.addRectangle(Rect(x: 0, y: 0, width: 20, height: 10))
      cr.fill()
      cr.addRectangle(Rect(x: 10, y: 0, width: 20, height: 10))
      cr.fill()
    }
    cr.withGroup(opacity: 0.5) { overlappingSquares() }
    let single = try #require(image.pixel(x: 5, y: 5))
    let overlap = try #require(image.pixel(x: 15, y: 5))
    #expect(abs(Int(single.alpha) - 128) <= 1)
    #expect(overlap == single)

    // Without a group each square blends separately: the overlap is 75 % opaque.
    image.clear()
    cr.setSource(Color(red: 1, green: 0, blue: 0, alpha: 0.5))
    cr.addRectangle(Rect(x: 0, y: 0, width: 20, height: 10))
    cr.fill()
    cr.addRectangle(Rect(x: 10, y: 0, width: 20, height: 10))
    cr.fill()
    let blended = try #require(image.pixel(x: 15, y: 5))
    #expect(abs(Int(blended.alpha) - 191) <= 1)
  }

  @Test func groupIsDiscardedWhenItsDrawingThrows() throws {
    struct Failure: Error {}
    let (image, cr) = try image(4, 4)
    #expect(throws: Failure.self) {
      try cr.withGroup(opacity: 1) {
        cr.setSource(Color.white)
        cr.paint()
        throw Failure()
      }
    }
    try cr.checkStatus()
    #expect(image.pixel(x: 1, y: 1) == .transparent)
    cr.setSource(Color.black)
    cr.paint()
    #expect(image.pixel(x: 1, y: 1) == .opaqueBlack)
  }

  @Test func verticalGradientInterpolatesAndPads() throws {
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
    // Every row is uniform across: the gradient is vertical.
    #expect(image.pixel(x: 0, y: 37) == image.pixel(x: 9, y: 37))
  }

  @Test func fillRulesDifferOnNestedSquares() throws {
    var path = Path(rect: Rect(x: 0, y: 0, width: 20, height: 20))
    path.append(Path(rect: Rect(x: 5, y: 5, width: 10, height: 10)))
    let (image, cr) = try image(20, 20)
    cr.setSource(Color.black)
    cr.addPath(path)
    #expect(cr.fillRule == .nonZero)
    cr.fill()
    #expect(image.pixel(x: 10, y: 10) == .opaqueBlack)
    image.clear()
    cr.fillRule = .evenOdd
    cr.addPath(path)
    cr.fill()
    #expect(image.pixel(x: 10, y: 10) == .transparent)
    #expect(image.pixel(x: 2, y: 2) == .opaqueBlack)
  }

  @Test func strokeCoversHalfTheWidthEachSide() throws {
    let (image, cr) = try image(50, 50)
    cr.setSource(Color.black)
    cr.lineWidth = 4
    cr.lineCap = .butt
    var line = Path()
    line.move(to: Point(x: 10, y: 20))
    line.line(to: Point(x: 40, y: 20))
    cr.addPath(line)
    cr.stroke()
    for y in 18...21 { #expect(image.pixel(x: 25, y: y) == .opaqueBlack) }
    #expect(image.pixel(x: 25, y: 17) == .transparent)
    #expect(image.pixel(x: 25, y: 22) == .transparent)
    #expect(image.pixel(x: 9, y: 20) == .transparent)
    #expect(throws: CairoError.invalidDash) { try cr.setDash([-1, 2]) }
    #expect(throws: CairoError.invalidDash) { try cr.setDash([0, 0]) }
    try cr.setDash([2, 2])
    try cr.checkStatus()
  }

  @Test func curvesAndPathExtents() throws {
    let (image, cr) = try image(40, 40)
    cr.addPath(Path(ellipseIn: Rect(x: 10, y: 10, width: 20, height: 20)))
    let extents = cr.pathExtents
    #expect(isApproximatelyEqual(extents.minX, 10, absolute: 1e-6))
    #expect(isApproximatelyEqual(extents.maxY, 30, absolute: 1e-6))
    cr.setSource(Color.black)
    cr.fill()
    #expect(image.pixel(x: 20, y: 20) == .opaqueBlack)
    #expect(image.pixel(x: 11, y: 11) == .transparent)  // outside the circle, inside its box
  }

  @Test func imagesDrawScaledIntoARectangle() throws {
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
  }

  @Test func randomRectanglesCoverExactlyTheirPixels() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SplitMix64(seed: seed)
    for _ in 0..<50 {
      let (image, cr) = try image(32, 24)
      let x = Int.random(in: -5...30, using: &rng)
      let y = Int.random(in: -5...22, using: &rng)
      let w = Int.random(in: 1...20, using: &rng)
      let h = Int.random(in: 1...20, using: &rng)
      cr.setSource(Color(red: 0, green: 1, blue: 0))
      cr.addRectangle(Rect(x: Double(x), y: Double(y), width: Double(w), height: Double(h)))
      cr.fill()
      for py in 0..<24 {
        for px in 0..<32 {
          let inside = (x..<x + w).contains(px) && (y..<y + h).contains(py)
          let expected: Pixel = inside ? .opaqueGreen : .transparent
          #expect(
            image.pixel(x: px, y: py) == expected,
            "seed \(seed): rect (\(x), \(y), \(w), \(h)) at pixel (\(px), \(py))")
        }
      }
    }
  }

  @Test func cairoErrorsCarryCairosText() throws {
    #expect(CairoError.noMemory.description == "out of memory")
    #expect(CairoError.invalidMatrix.code == Int(CAIRO_STATUS_INVALID_MATRIX.rawValue))
    #expect(throws: CairoError.writeError) { try CairoError.check(CAIRO_STATUS_WRITE_ERROR) }
    try CairoError.check(CAIRO_STATUS_SUCCESS)
  }
}

@Suite("PNG reading and writing")
struct PNGTests {
  @Test func memoryRoundTripKeepsEveryPixel() throws {
    let original = try renderTestPicture(scale: 2)
    let data = try original.pngData()
    #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    let decoded = try ImageSurface.load(pngData: data)
    let difference = try compare(original, decoded)
    #expect(difference.mean == 0)
  }

  @Test func fileRoundTripAndNoLeftovers() throws {
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

  @Test func semiTransparentPixelsSurviveWithinRounding() throws {
    let image = try ImageSurface(pixelWidth: 8, pixelHeight: 8)
    let cr = try CairoContext(surface: image)
    cr.setSource(Color(red: 0.2, green: 0.6, blue: 1, alpha: 0.4))
    cr.paint()
    let decoded = try ImageSurface.load(pngData: try image.pngData())
    let before = try #require(image.pixel(x: 3, y: 3))
    let after = try #require(decoded.pixel(x: 3, y: 3))
    #expect(before.distance(to: after) <= 1)
  }

  @Test func missingFileNamesThePath() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("absent.png")
    let error = try #require(throws: RenderError.self) {
      _ = try ImageSurface.load(contentsOfPNGFile: path)
    }
    #expect(error.kind == .unreadableInput)
    #expect(error.description == "\(path): no such file")
  }

  @Test func corruptFileIsRejected() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("fake.png")
    try Data("not a png at all".utf8).write(to: URL(fileURLWithPath: path))
    let error = try #require(throws: RenderError.self) {
      _ = try ImageSurface.load(contentsOfPNGFile: path)
    }
    #expect(error.kind == .unreadableInput)
    #expect(error.description.hasPrefix(path + ": "))
    #expect(!error.description.contains("\n"))
    #expect(throws: RenderError.self) { _ = try ImageSurface.load(pngData: Data([1, 2, 3])) }
  }

  @Test func writingIntoAMissingFolderFailsCleanly() throws {
    let folder = try TemporaryFolder()
    let image = try ImageSurface(pixelWidth: 2, pixelHeight: 2)
    let path = folder.file("nowhere/out.png")
    let error = try #require(throws: RenderError.self) { try image.writePNG(to: path) }
    #expect(error.kind == .unwritableOutput)
    #expect(error.description.contains("nowhere"))
    #expect(try folder.contents().isEmpty)
  }

  @Test func writingUnderAFileFailsCleanly() throws {
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
