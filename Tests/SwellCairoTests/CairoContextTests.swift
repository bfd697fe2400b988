import CCairo
import Foundation
import SwellCairo
import SwellTestSupport
import Testing

@Suite("Image surfaces")
private struct ImageSurfaceTests {
  @Test("new image is transparent with packed rows") func newImageIsTransparentWithPackedRows()
    throws
  {
    let image = try ImageSurface(pixelWidth: 37, pixelHeight: 5)
    #expect(image.bytesPerRow == 37 * 4)
    #expect(image.pixel(x: 0, y: 0) == .transparent)
    #expect(image.pixel(x: 36, y: 4) == .transparent)
    #expect(image.pixel(x: 37, y: 0) == nil)
    #expect(image.pixel(x: 0, y: -1) == nil)
  }

  @Test("rejects bad image sizes", arguments: [(0, 10), (10, 0), (-1, 5), (40_000, 2)])
  func rejectsBadImageSizes(width: Int, height: Int) {
    #expect(throws: CairoError.invalidSize) {
      _ = try ImageSurface(pixelWidth: width, pixelHeight: height)
    }
  }

  @Test("draws straight into borrowed memory") func drawsStraightIntoBorrowedMemory() throws {
    let stride = 12 * 4 + 16
    let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * 6, alignment: 16)
    defer { memory.deallocate() }
    memory.initializeMemory(as: UInt8.self, repeating: 0xAB, count: stride * 6)
    do {
      let image = try ImageSurface(
        unownedBytes: memory, pixelWidth: 12, pixelHeight: 6, bytesPerRow: stride)
      let cr = try CairoContext(surface: image)
      cr.compositingOperator = .source
      cr.setSourceRGBA(red: 0, green: 0, blue: 1, alpha: 1)
      cr.paint()
      image.flush()
    }
    #expect(memory.load(fromByteOffset: 5 * stride + 11 * 4, as: UInt32.self) == 0xFF00_00FF)
    // The row padding is not touched.
    #expect(memory.load(fromByteOffset: 12 * 4, as: UInt8.self) == 0xAB)
    #expect(throws: CairoError.invalidStride) {
      _ = try ImageSurface(unownedBytes: memory, pixelWidth: 12, pixelHeight: 6, bytesPerRow: 47)
    }
  }

  @Test("pixels are premultiplied") func pixelsArePremultiplied() throws {
    let (image, cr) = try makeImage(4, 4)
    cr.setSourceRGBA(red: 1, green: 0.5, blue: 0, alpha: 0.5)
    cr.paint()
    let p = try #require(image.pixel(x: 1, y: 1))
    #expect(abs(Int(p.alpha) - 128) <= 1)
    #expect(abs(Int(p.red) - 128) <= 1)
    #expect(abs(Int(p.green) - 64) <= 1)
    #expect(p.blue == 0)
  }

  @Test("written bytes are seen by Cairo and clear replaces everything")
  func writtenBytesAreSeenByCairoAndClearReplacesEverything() throws {
    let (image, cr) = try makeImage(2, 2)
    image.withUnsafeMutableBytes { bytes in
      let words: [UInt32] = [
        Pixel.opaqueRed.argb, Pixel.opaqueGreen.argb, Pixel.opaqueBlue.argb, Pixel.opaqueWhite.argb,
      ]
      for (i, word) in words.enumerated() {
        bytes.storeBytes(of: word.littleEndian, toByteOffset: i * 4, as: UInt32.self)
      }
    }
    #expect(image.pixel(x: 1, y: 0) == .opaqueGreen)
    #expect(image.pixel(x: 0, y: 1) == .opaqueBlue)
    // Drawing over the written pixels blends with them.
    cr.setSourceRGBA(red: 0, green: 0, blue: 0, alpha: 0.5)
    cr.paint()
    let grey = try #require(image.pixel(x: 1, y: 1))
    #expect(grey.alpha == 255 && grey.red == grey.blue && abs(Int(grey.green) - 128) <= 1)
    image.clear(toRed: 0, green: 0, blue: 1, alpha: 0.5)
    let p = try #require(image.pixel(x: 0, y: 0))
    #expect(p.red == 0 && p.green == 0 && abs(Int(p.blue) - 128) <= 1 && p.blue == p.alpha)
  }

  @Test("pixel words and text") func pixelWordsAndText() {
    let p = Pixel(argb: 0x8040_2010)
    #expect(p == Pixel(red: 0x40, green: 0x20, blue: 0x10, alpha: 0x80))
    #expect(p.argb == 0x8040_2010)
    #expect(p.description == "#40201080")
    #expect(p.distance(to: .transparent) == 0x80)
  }
}

@Suite("Cairo contexts")
private struct CairoContextTests {
  @Test("solid rectangle lands on its pixels") func solidRectangleLandsOnItsPixels() throws {
    let (image, cr) = try makeImage()
    cr.setSourceRGBA(red: 1, green: 0, blue: 0, alpha: 1)
    cr.rectangle(x: 20, y: 30, width: 10, height: 5)
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

  @Test("rotation by quarter turn is clockwise on screen")
  func rotationByQuarterTurnIsClockwiseOnScreen() throws {
    let (image, cr) = try makeImage()
    cr.translate(x: 50, y: 50)
    cr.rotate(radians: .pi / 2)
    cr.setSourceRGBA(red: 0, green: 0, blue: 1, alpha: 1)
    // A 20 × 10 bar pointing right from the origin turns to point down.
    cr.rectangle(x: 0, y: 0, width: 20, height: 10)
    cr.fill()
    #expect(image.pixel(x: 45, y: 60) == .opaqueBlue)
    #expect(image.pixel(x: 41, y: 68) == .opaqueBlue)
    #expect(image.pixel(x: 60, y: 55) == .transparent)
    #expect(image.pixel(x: 55, y: 60) == .transparent)
    let device = cr.userToDevice(x: 20, y: 0)
    #expect(isApproximatelyEqual(device.x, 50, absolute: 1e-9))
    #expect(isApproximatelyEqual(device.y, 70, absolute: 1e-9))
  }

  @Test("concatenate applies the matrix before the current transform")
  func concatenateAppliesTheMatrixBeforeTheCurrentTransform() throws {
    let (_, cr) = try makeImage()
    let m = CairoMatrix(xx: cos(0.3), yx: sin(0.3), xy: -sin(0.3), yy: cos(0.3), x0: 7, y0: -2)
    try cr.concatenate(m)
    #expect(cr.matrix == m)
    let expected = m.apply(x: 3, y: 4)
    let actual = cr.userToDevice(x: 3, y: 4)
    #expect(isApproximatelyEqual(actual.x, expected.x, absolute: 1e-12))
    #expect(isApproximatelyEqual(actual.y, expected.y, absolute: 1e-12))
    // A translation concatenated afterwards moves along the rotated axes.
    cr.translate(x: 1, y: 0)
    #expect(isApproximatelyEqual(cr.matrix.x0, 7 + cos(0.3), absolute: 1e-12))
    #expect(isApproximatelyEqual(cr.matrix.y0, -2 + sin(0.3), absolute: 1e-12))
    cr.resetMatrix()
    #expect(cr.matrix == .identity)
  }

  @Test("singular transform is rejected without breaking the context")
  func singularTransformIsRejectedWithoutBreakingTheContext() throws {
    let (image, cr) = try makeImage(10, 10)
    #expect(throws: CairoError.invalidMatrix) { try cr.scale(x: 0, y: 1) }
    #expect(throws: CairoError.invalidMatrix) {
      try cr.setMatrix(CairoMatrix(xx: .nan, yx: 0, xy: 0, yy: 1, x0: 0, y0: 0))
    }
    #expect(throws: CairoError.invalidMatrix) {
      try cr.concatenate(CairoMatrix(xx: 1, yx: 0, xy: 0, yy: 1, x0: .infinity, y0: 0))
    }
    #expect(!CairoMatrix(xx: 1, yx: 2, xy: 2, yy: 4, x0: 0, y0: 0).isInvertible)
    try cr.checkStatus()
    #expect(cr.error == nil)
    cr.setSourceRGBA(red: 1, green: 0, blue: 0, alpha: 1)
    cr.paint()
    #expect(image.pixel(x: 5, y: 5) == .opaqueRed)
  }

  @Test("save and restore bracket the transform and clip")
  func saveAndRestoreBracketTheTransformAndClip() throws {
    let (image, cr) = try makeImage(20, 20)
    cr.withSavedState {
      cr.translate(x: 5, y: 5)
      cr.rectangle(x: 0, y: 0, width: 2, height: 2)
      cr.clip()
    }
    #expect(cr.matrix == .identity)
    cr.setSourceRGBA(red: 0, green: 1, blue: 0, alpha: 1)
    cr.paint()
    #expect(image.pixel(x: 0, y: 0) == .opaqueGreen)
    #expect(image.pixel(x: 19, y: 19) == .opaqueGreen)
  }

  @Test("clip limits painting until reset") func clipLimitsPaintingUntilReset() throws {
    let (image, cr) = try makeImage(20, 20)
    cr.rectangle(x: 5, y: 5, width: 10, height: 10)
    cr.clip()
    cr.setSourceRGBA(red: 0, green: 0, blue: 1, alpha: 1)
    cr.paint()
    #expect(image.pixel(x: 5, y: 5) == .opaqueBlue)
    #expect(image.pixel(x: 14, y: 14) == .opaqueBlue)
    #expect(image.pixel(x: 4, y: 10) == .transparent)
    #expect(image.pixel(x: 15, y: 10) == .transparent)
    #expect(cr.clipExtents == CairoRect(x: 5, y: 5, width: 10, height: 10))
    cr.resetClip()
    #expect(cr.clipExtents == CairoRect(x: 0, y: 0, width: 20, height: 20))
  }

  @Test("group opacity does not let overlaps show through")
  func groupOpacityDoesNotLetOverlapsShowThrough() throws {
    let (image, cr) = try makeImage(30, 10)
    cr.withGroup(opacity: 0.5) {
      cr.setSourceRGBA(red: 1, green: 0, blue: 0, alpha: 1)
      cr.rectangle(x: 0, y: 0, width: 20, height: 10)
      cr.fill()
      cr.rectangle(x: 10, y: 0, width: 20, height: 10)
      cr.fill()
    }
    let single = try #require(image.pixel(x: 5, y: 5))
    let overlap = try #require(image.pixel(x: 15, y: 5))
    #expect(abs(Int(single.alpha) - 128) <= 1)
    #expect(overlap == single)

    // Without a group each square blends separately: the overlap is 75 % opaque.
    image.clear(toRed: 0, green: 0, blue: 0, alpha: 0)
    cr.setSourceRGBA(red: 1, green: 0, blue: 0, alpha: 0.5)
    cr.rectangle(x: 0, y: 0, width: 20, height: 10)
    cr.fill()
    cr.rectangle(x: 10, y: 0, width: 20, height: 10)
    cr.fill()
    let blended = try #require(image.pixel(x: 15, y: 5))
    #expect(abs(Int(blended.alpha) - 191) <= 1)
  }

  @Test("group is discarded when its drawing throws") func groupIsDiscardedWhenItsDrawingThrows()
    throws
  {
    struct Failure: Error {}
    let (image, cr) = try makeImage(4, 4)
    #expect(throws: Failure.self) {
      try cr.withGroup(opacity: 1) {
        cr.setSourceRGBA(red: 1, green: 1, blue: 1, alpha: 1)
        cr.paint()
        throw Failure()
      }
    }
    try cr.checkStatus()
    #expect(image.pixel(x: 1, y: 1) == .transparent)
    cr.setSourceRGBA(red: 0, green: 0, blue: 0, alpha: 1)
    cr.paint()
    #expect(image.pixel(x: 1, y: 1) == .opaqueBlack)
  }

  @Test("vertical gradient interpolates and pads") func verticalGradientInterpolatesAndPads() throws
  {
    let (image, cr) = try makeImage(10, 100)
    cr.setSource(
      CairoLinearGradient(
        x0: 0, y0: 20, x1: 0, y1: 80,
        stops: [
          .init(offset: 0, red: 1, green: 0, blue: 0, alpha: 1),
          .init(offset: 1, red: 0, green: 0, blue: 1, alpha: 1),
        ]))
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

  @Test("gradient without padding is transparent beyond its ends")
  func gradientWithoutPaddingIsTransparentBeyondItsEnds() throws {
    let (image, cr) = try makeImage(4, 100)
    cr.setSource(
      CairoLinearGradient(
        x0: 0, y0: 20, x1: 0, y1: 80,
        stops: [
          .init(offset: 0, red: 1, green: 0, blue: 0, alpha: 1),
          .init(offset: 1, red: 1, green: 0, blue: 0, alpha: 1),
        ], extend: .none))
    cr.paint()
    #expect(image.pixel(x: 1, y: 0) == .transparent)
    #expect(image.pixel(x: 1, y: 50) == .opaqueRed)
  }

  @Test("fill rules differ on nested squares") func fillRulesDifferOnNestedSquares() throws {
    let (image, cr) = try makeImage(20, 20)
    func nestedSquares() {
      cr.rectangle(x: 0, y: 0, width: 20, height: 20)
      cr.rectangle(x: 5, y: 5, width: 10, height: 10)
    }
    cr.setSourceRGBA(red: 0, green: 0, blue: 0, alpha: 1)
    nestedSquares()
    #expect(cr.fillRule == .winding)
    cr.fill()
    #expect(image.pixel(x: 10, y: 10) == .opaqueBlack)
    image.clear(toRed: 0, green: 0, blue: 0, alpha: 0)
    cr.fillRule = .evenOdd
    #expect(cr.fillRule == .evenOdd)
    nestedSquares()
    cr.fill()
    #expect(image.pixel(x: 10, y: 10) == .transparent)
    #expect(image.pixel(x: 2, y: 2) == .opaqueBlack)
  }

  @Test("stroke covers half the width each side") func strokeCoversHalfTheWidthEachSide() throws {
    let (image, cr) = try makeImage(50, 50)
    cr.setSourceRGBA(red: 0, green: 0, blue: 0, alpha: 1)
    cr.lineWidth = 4
    cr.lineCap = .butt
    cr.moveTo(x: 10, y: 20)
    cr.lineTo(x: 40, y: 20)
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

  @Test("preserved paths can be filled then stroked") func preservedPathsCanBeFilledThenStroked()
    throws
  {
    let (image, cr) = try makeImage(20, 20)
    cr.rectangle(x: 5, y: 5, width: 10, height: 10)
    cr.setSourceRGBA(red: 0, green: 1, blue: 0, alpha: 1)
    cr.fill(preservingPath: true)
    #expect(cr.pathExtents == CairoRect(x: 5, y: 5, width: 10, height: 10))
    cr.setSourceRGBA(red: 0, green: 0, blue: 0, alpha: 1)
    cr.lineWidth = 2
    cr.stroke()
    #expect(cr.pathExtents == CairoRect(x: 0, y: 0, width: 0, height: 0))
    #expect(image.pixel(x: 10, y: 10) == .opaqueGreen)
    #expect(image.pixel(x: 5, y: 10) == .opaqueBlack)
  }

  @Test("settings read back what was set") func settingsReadBackWhatWasSet() throws {
    let (_, cr) = try makeImage(2, 2)
    #expect(cr.antialias == .automatic)
    for value in [Antialias.none, .fast, .good, .best, .automatic] {
      cr.antialias = value
      #expect(cr.antialias == value)
    }
    for value in [CompositingOperator.source, .clear, .over] {
      cr.compositingOperator = value
      #expect(cr.compositingOperator == value)
    }
    for value in [LineCap.round, .square, .butt] {
      cr.lineCap = value
      #expect(cr.lineCap == value)
    }
    for value in [LineJoin.round, .bevel, .miter] {
      cr.lineJoin = value
      #expect(cr.lineJoin == value)
    }
    #expect(cr.miterLimit == 10)
    cr.miterLimit = 0.5
    #expect(cr.miterLimit == 1)
    cr.lineWidth = -3
    #expect(cr.lineWidth == 0)
    cr.lineWidth = .nan
    #expect(cr.lineWidth == 0)
  }

  @Test("curves and path extents") func curvesAndPathExtents() throws {
    let (image, cr) = try makeImage(40, 40)
    addCircle(cr, centerX: 20, centerY: 20, radius: 10)
    let extents = cr.pathExtents
    #expect(isApproximatelyEqual(extents.minX, 10, absolute: 1e-6))
    #expect(isApproximatelyEqual(extents.maxY, 30, absolute: 1e-6))
    cr.setSourceRGBA(red: 0, green: 0, blue: 0, alpha: 1)
    cr.fill()
    #expect(image.pixel(x: 20, y: 20) == .opaqueBlack)
    #expect(image.pixel(x: 11, y: 11) == .transparent)  // outside the circle, inside its box
  }

  @Test("images as sources scale with user space") func imagesAsSourcesScaleWithUserSpace() throws {
    let source = try ImageSurface(pixelWidth: 2, pixelHeight: 2)
    source.withUnsafeMutableBytes { bytes in
      let words: [UInt32] = [
        Pixel.opaqueRed.argb, Pixel.opaqueGreen.argb, Pixel.opaqueBlue.argb, Pixel.opaqueWhite.argb,
      ]
      for (i, word) in words.enumerated() {
        bytes.storeBytes(of: word.littleEndian, toByteOffset: i * 4, as: UInt32.self)
      }
    }
    let (image, cr) = try makeImage(40, 40)
    cr.translate(x: 10, y: 10)
    try cr.scale(x: 10, y: 10)
    cr.setSource(source, x: 0, y: 0, filter: .nearest)
    cr.rectangle(x: 0, y: 0, width: 2, height: 2)
    cr.fill()
    #expect(image.pixel(x: 12, y: 12) == .opaqueRed)
    #expect(image.pixel(x: 27, y: 12) == .opaqueGreen)
    #expect(image.pixel(x: 12, y: 27) == .opaqueBlue)
    #expect(image.pixel(x: 27, y: 27) == .opaqueWhite)
    #expect(image.pixel(x: 9, y: 20) == .transparent)
    #expect(image.pixel(x: 30, y: 20) == .transparent)

    // Padded, the image's edge pixels continue beyond it; unpadded, it ends there.
    cr.resetMatrix()
    image.clear(toRed: 0, green: 0, blue: 0, alpha: 0)
    cr.setSource(source, x: 10, y: 10, filter: .nearest, extend: .pad)
    cr.paint()
    #expect(image.pixel(x: 0, y: 0) == .opaqueRed)
    #expect(image.pixel(x: 39, y: 39) == .opaqueWhite)
    image.clear(toRed: 0, green: 0, blue: 0, alpha: 0)
    cr.setSource(source, x: 10, y: 10, filter: .nearest)
    cr.paint()
    #expect(image.pixel(x: 0, y: 0) == .transparent)
    #expect(image.pixel(x: 11, y: 10) == .opaqueGreen)
  }

  @Test("random rectangles cover exactly their pixels")
  func randomRectanglesCoverExactlyTheirPixels() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SplitMix64(seed: seed)
    for _ in 0..<50 {
      let (image, cr) = try makeImage(32, 24)
      let x = Int.random(in: -5...30, using: &rng)
      let y = Int.random(in: -5...22, using: &rng)
      let w = Int.random(in: 1...20, using: &rng)
      let h = Int.random(in: 1...20, using: &rng)
      cr.setSourceRGBA(red: 0, green: 1, blue: 0, alpha: 1)
      cr.rectangle(x: Double(x), y: Double(y), width: Double(w), height: Double(h))
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

  @Test("text is measured and drawn at the current point")
  func textIsMeasuredAndDrawnAtTheCurrentPoint() throws {
    let (image, cr) = try makeImage(120, 40)
    cr.selectFont(family: "sans-serif", slant: .normal, weight: .bold)
    cr.setFontSize(20)
    let extents = cr.textExtents("Swell")
    #expect(extents.xAdvance > 20 && extents.xAdvance < 120)
    #expect(extents.width > 0 && extents.height > 0)
    #expect(extents.yBearing < 0)  // ink above the baseline
    #expect(cr.textExtents("").xAdvance == 0)
    cr.setSourceRGBA(red: 0, green: 0, blue: 0, alpha: 1)
    cr.moveTo(x: 5, y: 30)
    cr.showText("Swell")
    try cr.checkStatus()
    var inked = 0
    for y in 0..<40 {
      for x in 0..<120 where (image.pixel(x: x, y: y)?.alpha ?? 0) > 0 {
        inked += 1
        #expect(x >= 4 && Double(x) <= 6 + extents.xAdvance && y <= 31, "ink at (\(x), \(y))")
      }
    }
    #expect(inked > 50)
  }
}

@Suite("Cairo errors")
private struct CairoErrorTests {
  @Test("codes match Cairo's header and text is Cairo's")
  func codesMatchCairosHeaderAndTextIsCairos() throws {
    let pairs: [(CairoError, cairo_status_t)] = [
      (.noMemory, CAIRO_STATUS_NO_MEMORY), (.invalidRestore, CAIRO_STATUS_INVALID_RESTORE),
      (.invalidPopGroup, CAIRO_STATUS_INVALID_POP_GROUP),
      (.noCurrentPoint, CAIRO_STATUS_NO_CURRENT_POINT),
      (.invalidMatrix, CAIRO_STATUS_INVALID_MATRIX),
      (.invalidString, CAIRO_STATUS_INVALID_STRING), (.readError, CAIRO_STATUS_READ_ERROR),
      (.writeError, CAIRO_STATUS_WRITE_ERROR),
      (.surfaceFinished, CAIRO_STATUS_SURFACE_FINISHED),
      (.surfaceTypeMismatch, CAIRO_STATUS_SURFACE_TYPE_MISMATCH),
      (.invalidFormat, CAIRO_STATUS_INVALID_FORMAT),
      (.fileNotFound, CAIRO_STATUS_FILE_NOT_FOUND), (.invalidDash, CAIRO_STATUS_INVALID_DASH),
      (.tempFileError, CAIRO_STATUS_TEMP_FILE_ERROR),
      (.invalidStride, CAIRO_STATUS_INVALID_STRIDE), (.invalidSize, CAIRO_STATUS_INVALID_SIZE),
      (.pngError, CAIRO_STATUS_PNG_ERROR), (.freetypeError, CAIRO_STATUS_FREETYPE_ERROR),
    ]
    for (error, status) in pairs {
      #expect(error.rawValue == Int32(status.rawValue))
      #expect(error.code == Int(status.rawValue))
      #expect(error.description == String(cString: cairo_status_to_string(status)))
    }
    #expect(Set(pairs.map(\.0.rawValue)).count == pairs.count)
    #expect(CairoError.noMemory.description == "out of memory")
    #expect(CairoError(rawValue: 5) == .invalidMatrix)
    #expect(CairoError(rawValue: 0).description == "no error has occurred")
  }
}
