import Foundation
import SwellGeometry
import SwellLayers
import SwellRender
import SwellTestSupport
import Testing

/// A PNG file decoded by ffmpeg to straight (not premultiplied) RGBA bytes, and its colour type
/// (IHDR byte 25: 2 RGB, 6 RGBA): what any decoder returns, with no premultiplication between.
private func decoded(_ png: String, in folder: TemporaryFolder) throws -> (
  rgba: [UInt8], colorType: UInt8
) {
  let raw = folder.file("decoded-\(UInt32.random(in: 0...UInt32.max)).rgba")
  defer { unlink(raw) }
  try requireTool(
    "ffmpeg", ["-v", "error", "-y", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgba", raw])
  let file = try Data(contentsOf: URL(fileURLWithPath: png))
  try #require(file.count > 26)
  return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: raw))), file[25])
}

/// Where two decoded images first differ (`nil` when equal): the byte, and both values there.
private func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String? {
  guard a.count == b.count else { return "\(a.count) bytes against \(b.count)" }
  guard let i = a.indices.first(where: { a[$0] != b[$0] }) else { return nil }
  return "byte \(i) (pixel \(i / 4), channel \(i % 4)): \(a[i]) against \(b[i])"
}

/// Seeded pixels (SplitMix64): valid premultiplied ARGB32 (each colour at most its alpha), all
/// opaque or with every alpha from 0 to 255.
private func seededPixels(width: Int, height: Int, opaque: Bool, seed: UInt64) -> [UInt32] {
  var state = seed
  func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  var pixels: [UInt32] = []
  for i in 0..<width * height {
    // Runs of equal pixels as well as noise, so the filters see both.
    if i % 7 == 1 || i % 7 == 2, let last = pixels.last {
      pixels.append(last)
      continue
    }
    let r = next()
    let alpha = opaque ? 255 : UInt32(r & 0xFF)
    func channel(_ shift: UInt64) -> UInt32 {
      UInt32((r >> shift) & 0xFFFF) % (alpha + 1)
    }
    pixels.append(alpha << 24 | channel(8) << 16 | channel(24) << 8 | channel(40))
  }
  return pixels
}

/// Writes `pixels` as frame pixels (rows padded to `stride` words).
private func withFrame<R>(
  _ pixels: [UInt32], width: Int, height: Int, stride: Int, _ body: (FramePixels) throws -> R
) rethrows -> R {
  var padded = [UInt32](repeating: 0xDEAD_BEEF, count: stride * height)
  for y in 0..<height {
    for x in 0..<width { padded[y * stride + x] = pixels[y * width + x] }
  }
  return try padded.withUnsafeBytes { bytes in
    try body(
      FramePixels(pixelWidth: width, pixelHeight: height, bytesPerRow: 4 * stride, bytes: bytes))
  }
}

/// Frame `index` of a test animation on a 60 × 40 point frame: opaque (white under a moving red
/// square and a vertical gradient band) or translucent (a half-transparent square and gradient
/// on a transparent frame).
private func drawFrame(_ index: Int, translucent: Bool) -> (CairoContext) -> Void {
  { cr in
    if !translucent {
      cr.setSource(Color.white)
      cr.paint()
    }
    cr.setSource(Color(red: 1, green: 0.2, blue: 0, alpha: translucent ? 0.6 : 1))
    cr.addRectangle(Rect(x: Double(3 * index), y: 5, width: 17, height: 13))
    cr.fill()
    cr.setSource(
      LinearGradientPattern(
        start: Point(x: 0, y: 22), end: Point(x: 0, y: 40),
        colors: [
          Color(red: 0, green: 0.3, blue: 1, alpha: translucent ? 0.2 : 1),
          Color(red: 0, green: 0, blue: 0.2, alpha: translucent ? 0.9 : 1),
        ]))
    cr.addPath(Path(ellipseIn: Rect(x: Double(index), y: 22, width: 50, height: 18)))
    cr.fill()
  }
}

@Suite("PNG sequences encoded on every core")
struct PNGSequenceTests {
  @Test(
    "a sequence decodes to the pixels and colour type of Cairo's PNG writer, frame by frame",
    arguments: [false, true])
  func sameDecodedPixelsAsCairo(translucent: Bool) throws {
    let folder = try TemporaryFolder()
    let configuration = FrameConfiguration(size: Size(width: 60, height: 40), scale: 2)
    let sink = try PNGSequenceSink(pattern: folder.file("seq/%02d.png"))
    try sink.begin(configuration)
    for i in 0..<8 { try sink.draw(drawFrame(i, translucent: translucent)) }
    try sink.finish()
    for i in 0..<8 {
      // The same frame through Cairo's own writer (`cairo_surface_write_to_png_stream`).
      let reference = folder.file("cairo-\(i).png")
      let single = PNGSink(path: reference)
      try single.begin(configuration)
      try single.draw(drawFrame(i, translucent: translucent))
      try single.finish()
      let ours = try decoded(folder.file(String(format: "seq/%02d.png", i)), in: folder)
      let cairo = try decoded(reference, in: folder)
      #expect(ours.colorType == cairo.colorType, "frame \(i)")
      #expect(ours.colorType == (translucent ? 6 : 2), "frame \(i)")
      #expect(ours.rgba.count == 120 * 80 * 4)
      #expect(
        firstDifference(ours.rgba, cairo.rgba) == nil, "frame \(i): decoded pixels differ")
    }
  }

  @Test(
    "seeded pixels, every alpha and padded rows: decoded exactly as Cairo's writer decodes",
    arguments: [(false, UInt64(1)), (true, 2), (true, 3)])
  func seededPixelsMatchCairo(translucent: Bool, seed: UInt64) throws {
    let folder = try TemporaryFolder()
    // Odd sizes, so the rows are not a multiple of anything convenient.
    let (width, height) = (37, 23)
    let pixels = seededPixels(width: width, height: height, opaque: !translucent, seed: seed)
    let configuration = FrameConfiguration(
      size: Size(width: Double(width), height: Double(height)))
    let sink = try PNGSequenceSink(pattern: folder.file("s%d.png"))
    try sink.begin(configuration)
    try withFrame(pixels, width: width, height: height, stride: width + 3) {
      try sink.write($0)
    }
    try sink.finish()
    let single = PNGSink(path: folder.file("cairo.png"))
    try single.begin(configuration)
    try withFrame(pixels, width: width, height: height, stride: width) { try single.write($0) }
    try single.finish()
    let ours = try decoded(folder.file("s0.png"), in: folder)
    let cairo = try decoded(folder.file("cairo.png"), in: folder)
    #expect(ours.colorType == cairo.colorType)
    #expect(firstDifference(ours.rgba, cairo.rgba) == nil, "seed \(seed): decoded pixels differ")
  }

  @Test("frames keep their order and names however the encoders interleave")
  func orderAndNames() throws {
    let folder = try TemporaryFolder()
    let sink = try PNGSequenceSink(pattern: folder.file("f-%03d.png"))
    try sink.begin(FrameConfiguration(size: Size(width: 24, height: 16)))
    let count = 40
    for i in 0..<count {
      try sink.draw { cr in
        cr.setSource(Color(red: Double(i) / 255, green: Double(2 * i) / 255, blue: 0.5))
        cr.paint()
      }
    }
    try sink.finish()
    let names = (0..<count).map { String(format: "f-%03d.png", $0) }
    #expect(try folder.contents() == names)
    #expect(sink.writtenPaths == names.map { folder.file($0) })
    for i in 0..<count {
      let frame = try ImageSurface.load(contentsOfPNGFile: folder.file(names[i]))
      let pixel = try #require(frame.pixel(x: 12, y: 8))
      #expect(pixel.red == UInt8(i) && pixel.green == UInt8(2 * i), "frame \(i): \(pixel)")
    }
  }

  @Test("a frame that cannot be written is named in the error, and no frame file is left")
  func failedFrameRemovesEverything() throws {
    let folder = try TemporaryFolder()
    // Frame 3's name is taken by a folder: its file cannot be made.
    let blocked = folder.file("seq/003.png")
    try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: true)
    let sink = try PNGSequenceSink(pattern: folder.file("seq/%03d.png"))
    try sink.begin(FrameConfiguration(size: Size(width: 50, height: 30)))
    var failure: RenderError?
    for i in 0..<12 where failure == nil {
      do {
        try sink.draw(drawFrame(i, translucent: false))
      } catch let error as RenderError {
        failure = error
      }
    }
    if failure == nil {
      failure = #expect(throws: RenderError.self) { try sink.finish() }
    } else {
      sink.cancel()
    }
    let error = try #require(failure)
    #expect(error.description.contains(blocked), "\(error)")
    // Only the folder that was there before is left: no frame, no temporary file.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("seq")) == ["003.png"])
  }

  @Test("cancelling while frames are being encoded removes every file and the folder made")
  func cancelRemovesEverything() throws {
    let folder = try TemporaryFolder()
    let sink = try PNGSequenceSink(pattern: folder.file("made/%04d.png"))
    try sink.begin(FrameConfiguration(size: Size(width: 300, height: 200), scale: 2))
    for i in 0..<10 { try sink.draw(drawFrame(i, translucent: i % 2 == 0)) }
    sink.cancel()
    #expect(try folder.contents().isEmpty)
  }

  @Test("a sequence from an exporter: every frame written, none after a failure")
  func exporterWritesEveryFrame() throws {
    let folder = try TemporaryFolder()
    let exporter = try FrameExporter(
      path: folder.file("x/%02d.png"),
      configuration: FrameConfiguration(size: Size(width: 30, height: 20), scale: 3),
      background: .white)
    for _ in 0..<9 { try exporter.add(Layer()) }
    try exporter.finish()
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.file("x")).sorted()
        == (0..<9).map { String(format: "%02d.png", $0) })
  }
}

@Suite("Video through the exporter's pipeline")
struct ExportPipelineVideoTests {
  @Test(
    "an MP4 drawn while ffmpeg encodes has every frame, its size and BT.709 tags",
    arguments: [(37, 75.0, 41.0, 1.0), (24, 64.0, 48.0, 2.0)])
  func mp4KeepsFramesSizeAndTags(frames: Int, width: Double, height: Double, scale: Double)
    throws
  {
    let folder = try TemporaryFolder()
    let path = folder.file("pipeline.mp4")
    let exporter = try FrameExporter(
      path: path,
      configuration: FrameConfiguration(
        size: Size(width: width, height: height), scale: scale, framesPerSecond: 24),
      background: Color(red: 0.1, green: 0.4, blue: 0.8),
      ffmpeg: FFmpegOptions(x264Preset: "ultrafast"))
    for _ in 0..<frames { try exporter.add(Layer()) }
    try exporter.finish()
    #expect(try folder.contents() == ["pipeline.mp4"])
    let info = try #require(try probeVideoStream(path))
    #expect(info.frames == frames)
    // Odd pixel sizes are padded to even ones for 4:2:0, as before.
    let (pixelWidth, pixelHeight) = (Int(scale * width), Int(scale * height))
    #expect(info.width == pixelWidth + pixelWidth % 2)
    #expect(info.height == pixelHeight + pixelHeight % 2)
    #expect(info.pixelFormat == "yuv420p")
    let r = try runProgram(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries",
        "stream=color_space,color_transfer,color_primaries,color_range", "-of",
        "default=noprint_wrappers=1", path,
      ])
    #expect(r.status == 0, "\(r.err)")
    for tag in [
      "color_space=bt709", "color_transfer=bt709", "color_primaries=bt709", "color_range=tv",
    ] {
      #expect(r.out.contains(tag), "\(tag) missing in \(r.out)")
    }
  }
}
