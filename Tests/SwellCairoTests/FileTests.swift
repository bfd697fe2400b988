import Foundation
import SwellCairo
import Testing

@Suite("PNG reading and writing")
private struct PNGTests {
  @Test("memory round trip keeps every pixel") func memoryRoundTripKeepsEveryPixel() throws {
    let original = try renderTestPicture(scale: 2)
    let data = try original.pngData()
    #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    let decoded = try ImageSurface(pngData: data)
    #expect(sameImage(original, decoded))
  }

  @Test("file round trip keeps every pixel") func fileRoundTripKeepsEveryPixel() throws {
    let folder = try TemporaryFolder()
    let original = try renderTestPicture(scale: 1)
    let path = folder.file("picture.png")
    try original.writePNG(toFile: path)
    #expect(try folder.contents() == ["picture.png"])
    let decoded = try ImageSurface(contentsOfPNGFile: path)
    #expect(decoded.pixelWidth == 100 && decoded.pixelHeight == 80)
    #expect(sameImage(original, decoded))
    #expect(decoded.pixel(x: 25, y: 20) == .opaqueRed)
    #expect(decoded.pixel(x: 70, y: 30) == .opaqueGreen)
    #expect(decoded.pixel(x: 2, y: 2) == .opaqueWhite)
    // The file is the same as the encoded bytes.
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original.pngData())
  }

  @Test("semi transparent pixels survive within rounding")
  func semiTransparentPixelsSurviveWithinRounding() throws {
    let (image, cr) = try makeImage(8, 8)
    cr.setSourceRGBA(red: 0.2, green: 0.6, blue: 1, alpha: 0.4)
    cr.paint()
    let decoded = try ImageSurface(pngData: try image.pngData())
    #expect(sameImage(image, decoded, tolerance: 1))
  }

  @Test("missing file is file not found") func missingFileIsFileNotFound() throws {
    let folder = try TemporaryFolder()
    #expect(throws: CairoError.fileNotFound) {
      _ = try ImageSurface(contentsOfPNGFile: folder.file("absent.png"))
    }
  }

  @Test("corrupt or short PNGs are rejected") func corruptOrShortPNGsAreRejected() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("fake.png")
    try Data("not a png at all".utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: CairoError.self) { _ = try ImageSurface(contentsOfPNGFile: path) }
    #expect(throws: CairoError.self) { _ = try ImageSurface(pngData: Data([1, 2, 3])) }
    let good = try renderTestPicture(scale: 1).pngData()
    #expect(throws: CairoError.self) { _ = try ImageSurface(pngData: good.prefix(good.count / 2)) }
  }

  @Test("writing into a missing folder is a write error")
  func writingIntoAMissingFolderIsAWriteError() throws {
    let folder = try TemporaryFolder()
    let image = try ImageSurface(pixelWidth: 2, pixelHeight: 2)
    #expect(throws: CairoError.writeError) {
      try image.writePNG(toFile: folder.file("nowhere/out.png"))
    }
    #expect(try folder.contents().isEmpty)
  }
}

@Suite("SVG and PDF surfaces")
private struct VectorSurfaceTests {
  @Test("SVG file has the drawing and the document unit")
  func svgFileHasTheDrawingAndTheDocumentUnit() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("picture.svg")
    let surface = try SVGSurface(path: path, width: 100, height: 80)
    surface.documentUnit = .pixels
    #expect(surface.documentUnit == .pixels)
    let cr = try CairoContext(surface: surface)
    drawTestPicture(cr)
    try cr.checkStatus()
    surface.finish()
    #expect(surface.error == nil)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasPrefix("<?xml"))
    #expect(text.contains("width=\"100px\""))
    #expect(text.contains("height=\"80px\""))
    #expect(text.contains("rgb(100%,0%,0%)"))  // the red rectangle
    #expect(text.contains("<linearGradient"))
    // Drawing on a finished surface is an error of the context, not a crash.
    cr.paint()
    #expect(cr.error == .surfaceFinished)
  }

  @Test("streamed SVG arrives in pieces and ends at finish")
  func streamedSVGArrivesInPiecesAndEndsAtFinish() throws {
    var bytes = Data()
    var pieces = 0
    let surface = try SVGSurface(width: 50, height: 40) { buffer in
      bytes.append(contentsOf: buffer)
      pieces += 1
      return true
    }
    let cr = try CairoContext(surface: surface)
    cr.setSourceRGBA(red: 0, green: 0, blue: 1, alpha: 1)
    cr.rectangle(x: 5, y: 5, width: 10, height: 10)
    cr.fill()
    surface.finish()
    #expect(surface.error == nil)
    #expect(pieces > 0)
    let text = try #require(String(data: bytes, encoding: .utf8))
    #expect(text.hasPrefix("<?xml"))
    #expect(text.hasSuffix("</svg>\n"))
  }

  @Test("a failing stream puts the surface in the write error state")
  func aFailingStreamPutsTheSurfaceInTheWriteErrorState() throws {
    let surface = try SVGSurface(width: 10, height: 10) { _ in false }
    let cr = try CairoContext(surface: surface)
    cr.setSourceRGBA(red: 0, green: 0, blue: 0, alpha: 1)
    cr.paint()
    surface.finish()
    #expect(surface.error == .writeError)
  }

  @Test("PDF has one page per show page with its own size")
  func pdfHasOnePagePerShowPageWithItsOwnSize() throws {
    var bytes = Data()
    let surface = try PDFSurface(width: 100, height: 80) { buffer in
      bytes.append(contentsOf: buffer)
      return true
    }
    let cr = try CairoContext(surface: surface)
    drawTestPicture(cr)
    surface.showPage()
    #expect(surface.setPageSize(width: 50, height: 40))
    #expect(!surface.setPageSize(width: 0, height: 40))
    #expect(!surface.setPageSize(width: .nan, height: 40))
    cr.setSourceRGBA(red: 0, green: 1, blue: 0, alpha: 1)
    cr.paint()
    surface.finish()
    #expect(surface.error == nil)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasPrefix("%PDF-"))
    let pages =
      text.components(separatedBy: "/Type /Page").count
      - text.components(separatedBy: "/Type /Pages").count
    #expect(pages == 2)
    #expect(text.contains("/MediaBox [ 0 0 100 80 ]"))
    #expect(text.contains("/MediaBox [ 0 0 50 40 ]"))
  }

  @Test("PDF file is written at finish") func pdfFileIsWrittenAtFinish() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("doc.pdf")
    let surface = try PDFSurface(path: path, width: 72, height: 72)
    let cr = try CairoContext(surface: surface)
    cr.setSourceRGBA(red: 0, green: 0, blue: 0, alpha: 1)
    cr.paint()
    surface.finish()
    #expect(surface.error == nil)
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(String(decoding: data.prefix(5), as: UTF8.self) == "%PDF-")
  }

  @Test(
    "bad sizes are invalid size", arguments: [(0.0, 10.0), (10, -1), (.infinity, 10), (10, .nan)])
  func badSizesAreInvalidSize(width: Double, height: Double) {
    #expect(throws: CairoError.invalidSize) {
      _ = try SVGSurface(width: width, height: height) { _ in true }
    }
    #expect(throws: CairoError.invalidSize) {
      _ = try PDFSurface(width: width, height: height) { _ in true }
    }
  }
}
