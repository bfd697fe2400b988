import Foundation
import SwellGeometry
import SwellRender
import Testing

@Suite("Output formats and frame configuration")
private struct OutputFormatTests {
  @Test(
    "format from extension",
    arguments: [
      ("out.png", OutputFormat.png), ("a/b/OUT.PNG", .png), ("frames/%05d.png", .pngSequence),
      ("f_%d.png", .pngSequence), ("x.svg", .svg), ("x.pdf", .pdf), ("x.mp4", .mp4),
      ("x.m4v", .mp4), ("x.gif", .gif), ("x.webp", .webp), ("x.apng", .apng),
      ("100%%.png", .png),
    ])
  func formatFromExtension(path: String, format: OutputFormat) throws {
    #expect(try OutputFormat(path: path) == format)
  }

  @Test(
    "unknown extensions are rejected",
    arguments: ["out.jpg", "noextension", "dir.png/", "movie.mkv"])
  func unknownExtensionsAreRejected(path: String) {
    let error = #expect(throws: RenderError.self) { _ = try OutputFormat(path: path) }
    #expect(error?.kind == .unsupportedFormat)
    #expect(error?.description.hasPrefix(path + ": ") == true)
  }

  @Test("format properties") func formatProperties() {
    #expect(OutputFormat.png.isSingleFrame && OutputFormat.svg.isSingleFrame)
    #expect(!OutputFormat.pdf.isSingleFrame && OutputFormat.pdf.isVector)
    #expect(OutputFormat.allCases.filter(\.usesFFmpeg) == [.mp4, .gif, .webp, .apng])
  }

  @Test("pixel size rounds points times scale") func pixelSizeRoundsPointsTimesScale() throws {
    let c = FrameConfiguration(size: Size(width: 390, height: 844), scale: 3)
    #expect(c.pixelWidth == 1170 && c.pixelHeight == 2532)
    try c.validate(for: "x.png")
  }

  @Test(
    "bad configurations are rejected",
    arguments: [
      FrameConfiguration(size: Size(width: 0, height: 10)),
      FrameConfiguration(size: Size(width: 10, height: .nan)),
      FrameConfiguration(size: Size(width: 10, height: 10), scale: 0),
      FrameConfiguration(size: Size(width: 10, height: 10), scale: .infinity),
      FrameConfiguration(size: Size(width: 10, height: 10), framesPerSecond: 0),
      FrameConfiguration(size: Size(width: 20_000, height: 10), scale: 2),
      FrameConfiguration(size: Size(width: 0.1, height: 0.1)),
    ])
  func badConfigurationsAreRejected(configuration: FrameConfiguration) {
    let error = #expect(throws: RenderError.self) { try configuration.validate(for: "o.png") }
    #expect(error?.kind == .invalidFrame)
    #expect(error?.description.hasPrefix("o.png: ") == true)
  }

  @Test("sequence patterns fill in the frame number") func sequencePatternsFillInTheFrameNumber()
    throws
  {
    #expect(try PNGSequenceSink.Pattern("f/%05d.png").path(for: 7) == "f/00007.png")
    #expect(try PNGSequenceSink.Pattern("f/%d.png").path(for: 123) == "f/123.png")
    #expect(try PNGSequenceSink.Pattern("f/%3d.png").path(for: 5) == "f/  5.png")
    #expect(try PNGSequenceSink.Pattern("100%%/%02d.png").path(for: 3) == "100%/03.png")
    for bad in ["f/%s.png", "f/%d_%d.png", "f/plain.png", "f/%.png", "%d/x.png", "f/%123d.png"] {
      #expect(throws: RenderError.self, "\(bad)") { _ = try PNGSequenceSink.Pattern(bad) }
    }
  }
}

@Suite("Image and document sinks")
private struct ImageSinkTests {
  private let configuration = FrameConfiguration(size: testPictureSize, scale: 2)

  @Test("PNG sink writes the same pixels as direct drawing")
  func pngSinkWritesTheSamePixelsAsDirectDrawing() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("frame.png")
    let sink = try makeFrameSink(path: path)
    #expect(sink is PNGSink)
    try sink.begin(configuration)
    try sink.draw(drawTestPicture)
    try sink.finish()
    #expect(try folder.contents() == ["frame.png"])
    let written = try ImageSurface.load(contentsOfPNGFile: path)
    #expect(written.pixelWidth == 200 && written.pixelHeight == 160)
    #expect(written.pixel(x: 50, y: 40) == .opaqueRed)
    #expect(try compare(written, try renderTestPicture(scale: 2)).mean == 0)
  }

  @Test("PNG sink takes pixel frames") func pngSinkTakesPixelFrames() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("pixels.png")
    let source = try renderTestPicture(scale: 2)
    let sink = PNGSink(path: path)
    try sink.begin(configuration)
    try source.withFramePixels { try sink.write($0) }
    try sink.finish()
    #expect(try compare(try ImageSurface.load(contentsOfPNGFile: path), source).mean == 0)
  }

  @Test("PNG sink holds one frame and leaves nothing when cancelled")
  func pngSinkHoldsOneFrameAndLeavesNothingWhenCancelled() throws {
    let folder = try TemporaryFolder()
    let sink = PNGSink(path: folder.file("one.png"))
    try sink.begin(configuration)
    try sink.draw(drawTestPicture)
    let error = #expect(throws: RenderError.self) { try sink.draw(drawTestPicture) }
    #expect(error?.kind == .invalidState)
    #expect(error?.reason.contains("%05d") == true)
    sink.cancel()
    #expect(try folder.contents().isEmpty)
  }

  @Test("unfinished sinks clean up when dropped") func unfinishedSinksCleanUpWhenDropped() throws {
    let folder = try TemporaryFolder()
    do {
      let png = PNGSink(path: folder.file("a.png"))
      try png.begin(configuration)
      try png.draw(drawTestPicture)
      let svg = SVGSink(path: folder.file("a.svg"))
      try svg.begin(configuration)
      try svg.draw(drawTestPicture)
      let pdf = PDFSink(path: folder.file("a.pdf"))
      try pdf.begin(configuration)
      try pdf.draw(drawTestPicture)
      #expect(try folder.contents().count == 3)  // the three temporary files
    }
    #expect(try folder.contents().isEmpty)
  }

  @Test("finishing without frames fails") func finishingWithoutFramesFails() throws {
    let folder = try TemporaryFolder()
    for name in ["e.png", "e.svg", "e.pdf", "e_%02d.png"] {
      let sink = try makeFrameSink(path: folder.file(name))
      try sink.begin(configuration)
      let error = #expect(throws: RenderError.self) { try sink.finish() }
      #expect(error?.kind == .invalidState, "\(name)")
    }
    #expect(try folder.contents().isEmpty)
  }

  @Test("frames must match the configured size") func framesMustMatchTheConfiguredSize() throws {
    let folder = try TemporaryFolder()
    let sink = PNGSink(path: folder.file("size.png"))
    try sink.begin(configuration)
    let small = try ImageSurface(pixelWidth: 10, pixelHeight: 10)
    let error = #expect(throws: RenderError.self) {
      try small.withFramePixels { try sink.write($0) }
    }
    #expect(error?.kind == .invalidFrame)
    #expect(error?.reason.contains("10×10") == true)
  }

  @Test("unwritable output is reported at begin") func unwritableOutputIsReportedAtBegin() throws {
    let folder = try TemporaryFolder()
    try Data().write(to: URL(fileURLWithPath: folder.file("file")))
    for name in ["missing/x.png", "file/x.svg", "missing/x.pdf", "file/x.png"] {
      let sink = try makeFrameSink(path: folder.file(name))
      let error = #expect(throws: RenderError.self, "\(name)") { try sink.begin(configuration) }
      #expect(error?.kind == .unwritableOutput, "\(name)")
      #expect(error?.description.contains(name) == true, "\(name)")
    }
    #expect(try folder.contents() == ["file"])
  }

  @Test("PNG sequence writes numbered frames and cancel removes them")
  func pngSequenceWritesNumberedFramesAndCancelRemovesThem() throws {
    let folder = try TemporaryFolder()
    let sink = try PNGSequenceSink(pattern: folder.file("frames/%05d.png"))
    try sink.begin(FrameConfiguration(size: Size(width: 40, height: 20)))
    for i in 0..<3 {
      try sink.draw { cr in
        cr.setSource(Color.white)
        cr.paint()
        cr.setSource(Color(red: 1, green: 0, blue: 0))
        cr.addRectangle(Rect(x: Double(10 * i), y: 0, width: 10, height: 20))
        cr.fill()
      }
    }
    try sink.finish()
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.file("frames")).sorted()
    #expect(names == ["00000.png", "00001.png", "00002.png"])
    for i in 0..<3 {
      let frame = try ImageSurface.load(contentsOfPNGFile: folder.file("frames/0000\(i).png"))
      #expect(frame.pixel(x: 10 * i + 5, y: 10) == .opaqueRed, "frame \(i)")
      #expect(frame.pixel(x: (10 * i + 15) % 40, y: 10) == .opaqueWhite, "frame \(i)")
    }

    let cancelled = try PNGSequenceSink(pattern: folder.file("other/f%d.png"))
    try cancelled.begin(FrameConfiguration(size: Size(width: 4, height: 4)))
    try cancelled.draw(drawTestPicture)
    try cancelled.draw(drawTestPicture)
    #expect(cancelled.writtenPaths.count == 2)
    cancelled.cancel()
    #expect(!FileManager.default.fileExists(atPath: folder.file("other")))
  }

  @Test("SVG matches the PNG render of the same drawing")
  func svgMatchesThePNGRenderOfTheSameDrawing() throws {
    let folder = try TemporaryFolder()
    let svg = folder.file("picture.svg")
    let sink = try makeFrameSink(path: svg)
    #expect(sink is SVGSink)
    try sink.begin(configuration)
    try sink.draw(drawTestPicture)
    let second = #expect(throws: RenderError.self) { try sink.draw(drawTestPicture) }
    #expect(second?.kind == .invalidState)
    try sink.finish()
    let text = try String(contentsOfFile: svg, encoding: .utf8)
    #expect(text.contains("<svg") && text.contains("width=\"100px\""))
    let rendered = folder.file("rsvg.png")
    try requireTool("rsvg-convert", ["--zoom", "2", "--format", "png", "-o", rendered, svg])
    let image = try ImageSurface.load(contentsOfPNGFile: rendered)
    #expect(image.pixelWidth == 200 && image.pixelHeight == 160)
    let difference = try compare(image, try renderTestPicture(scale: 2))
    #expect(difference.mean < 2, "mean difference \(difference.mean)")
    #expect(difference.farFraction < 0.02, "far pixels \(difference.farFraction)")
    #expect(image.pixel(x: 50, y: 40) == .opaqueRed)
  }

  @Test("PDF has one page per frame matching the PNG render")
  func pdfHasOnePagePerFrameMatchingThePNGRender() throws {
    let folder = try TemporaryFolder()
    let pdf = folder.file("pages.pdf")
    let sink = try makeFrameSink(path: pdf)
    try sink.begin(configuration)
    for _ in 0..<3 { try sink.draw(drawTestPicture) }
    try sink.finish()
    #expect(try folder.contents() == ["pages.pdf"])
    let info = try requireTool("pdfinfo", [pdf])
    #expect(info.contains(try Regex(#"Pages:\s+3\n"#)))
    #expect(info.contains(try Regex(#"Page size:\s+100 x 80 pts"#)))
    let prefix = folder.file("page")
    try requireTool(
      "pdftoppm", ["-r", "144", "-f", "3", "-l", "3", "-png", "-singlefile", pdf, prefix])
    let page = try ImageSurface.load(contentsOfPNGFile: prefix + ".png")
    #expect(page.pixelWidth == 200 && page.pixelHeight == 160)
    let difference = try compare(page, try renderTestPicture(scale: 2))
    #expect(difference.mean < 2, "mean difference \(difference.mean)")
    #expect(difference.farFraction < 0.02, "far pixels \(difference.farFraction)")
  }

  @Test("PDF pages from pixel frames") func pdfPagesFromPixelFrames() throws {
    let folder = try TemporaryFolder()
    let pdf = folder.file("raster.pdf")
    let sink = PDFSink(path: pdf)
    try sink.begin(configuration)
    let source = try renderTestPicture(scale: 2)
    try source.withFramePixels { try sink.write($0) }
    try source.withFramePixels { try sink.write($0) }
    #expect(sink.pageCount == 2)
    try sink.finish()
    let info = try requireTool("pdfinfo", [pdf])
    #expect(info.contains(try Regex(#"Pages:\s+2\n"#)))
    let prefix = folder.file("page")
    try requireTool(
      "pdftoppm", ["-r", "144", "-f", "1", "-l", "1", "-png", "-singlefile", pdf, prefix])
    let page = try ImageSurface.load(contentsOfPNGFile: prefix + ".png")
    #expect(page.pixel(x: 50, y: 40)?.distance(to: .opaqueRed) ?? 255 <= 8)
    #expect(page.pixel(x: 4, y: 4)?.distance(to: .opaqueWhite) ?? 255 <= 8)
  }
}
