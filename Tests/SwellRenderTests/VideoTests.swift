import Foundation
import SwellGeometry
import SwellRender
import SwellTestSupport
import Testing

/// Frame `index` of the test animation on a 64 × 48 point frame: white, with a 16-point red
/// square moving right by 4 points a frame.
private func drawMovingSquare(_ index: Int) -> (CairoContext) -> Void {
  { cr in
    cr.setSource(Color.white)
    cr.paint()
    cr.setSource(Color(red: 1, green: 0, blue: 0))
    cr.addRectangle(Rect(x: Double(4 * index), y: 16, width: 16, height: 16))
    cr.fill()
  }
}

/// ffprobe's view of a video's first stream; fails the test when ffprobe cannot read it.
private func probe(_ path: String) throws -> VideoStreamInfo {
  try #require(try probeVideoStream(path), "ffprobe cannot read \(path)")
}

/// Decodes one frame of a video to an image with ffmpeg.
private func extractFrame(_ index: Int, of video: String, in folder: TemporaryFolder) throws
  -> ImageSurface
{
  let png = folder.file("extracted-\(index).png")
  try requireTool(
    "ffmpeg",
    [
      "-v", "error", "-y", "-i", video, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
      "-pix_fmt", "rgba", png,
    ])
  return try ImageSurface.load(contentsOfPNGFile: png)
}

/// Renders `count` frames of the moving square into a sink at 64 × 48 (scale 1, 24 fps).
private func renderAnimation(
  to sink: any FrameSink, count: Int = 12, size: Size = Size(width: 64, height: 48)
) throws {
  try sink.begin(FrameConfiguration(size: size, scale: 1, framesPerSecond: 24))
  for i in 0..<count { try sink.draw(drawMovingSquare(i)) }
  try sink.finish()
}

@Suite("ffmpeg video sinks")
private struct VideoSinkTests {
  @Test("mp 4 is h 264 in YUV 420 with every frame") func mp4IsH264InYUV420WithEveryFrame() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("clip.mp4")
    let sink = try makeFrameSink(path: path)
    try renderAnimation(to: sink)
    #expect(try folder.contents() == ["clip.mp4"])
    let info = try probe(path)
    #expect(info.codec == "h264")
    #expect(info.pixelFormat == "yuv420p")
    #expect(info.width == 64 && info.height == 48)
    #expect(info.frames == 12)
    let duration = try #require(info.duration)
    #expect(abs(duration - 0.5) < 0.05, "duration \(duration)")
    // Colours come through in the right channel order: red stays red.
    let frame = try extractFrame(3, of: path, in: folder)
    let square = try #require(frame.pixel(x: 20, y: 24))
    #expect(square.red > 200 && square.green < 60 && square.blue < 60, "\(square)")
    let background = try #require(frame.pixel(x: 60, y: 4))
    #expect(background.distance(to: .opaqueWhite) < 24, "\(background)")
  }

  @Test("mp 4 pads odd sizes to even") func mp4PadsOddSizesToEven() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("odd.mp4")
    try renderAnimation(
      to: try makeFrameSink(path: path), count: 4, size: Size(width: 63, height: 47))
    let info = try probe(path)
    #expect(info.width == 64 && info.height == 48)
    #expect(info.frames == 4)
  }

  @Test("GIF has every frame and keeps colours") func gifHasEveryFrameAndKeepsColours() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("loop.gif")
    try renderAnimation(to: try makeFrameSink(path: path))
    let info = try probe(path)
    #expect(info.codec == "gif")
    #expect(info.width == 64 && info.height == 48)
    #expect(info.frames == 12)
    let frame = try extractFrame(5, of: path, in: folder)
    #expect(frame.pixel(x: 28, y: 24)?.distance(to: .opaqueRed) ?? 255 < 24)
    #expect(frame.pixel(x: 2, y: 2)?.distance(to: .opaqueWhite) ?? 255 < 24)
  }

  @Test("GIF in two passes: the palette and frames files beside it are gone when it is done")
  func gifLeavesNoSideFiles() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("loop.gif")
    try renderAnimation(to: try makeFrameSink(path: path), count: 30)
    #expect(try folder.contents() == ["loop.gif"])
    #expect(try probe(path).frames == 30)
    // Cancelled after the first pass began, and finished without frames: nothing is left.
    let cancelled = try makeFrameSink(path: folder.file("cancelled.gif"))
    try cancelled.begin(FrameConfiguration(size: Size(width: 64, height: 48), framesPerSecond: 24))
    for i in 0..<5 { try cancelled.draw(drawMovingSquare(i)) }
    cancelled.cancel()
    let empty = try makeFrameSink(path: folder.file("empty.gif"))
    try empty.begin(FrameConfiguration(size: Size(width: 64, height: 48), framesPerSecond: 24))
    #expect(throws: RenderError.self) { try empty.finish() }
    #expect(try folder.contents() == ["loop.gif"])
  }

  @Test("animated web p has every frame and loops") func animatedWebPHasEveryFrameAndLoops() throws
  {
    let folder = try TemporaryFolder()
    let path = folder.file("loop.webp")
    try renderAnimation(to: try makeFrameSink(path: path))
    // ffmpeg 5.1 cannot decode animated WebP; webpinfo parses and validates it.
    let info = try requireTool("webpinfo", ["-summary", path])
    #expect(info.contains("Canvas size 64 x 48"))
    #expect(info.contains("Animation: 1"))
    #expect(info.contains(try Regex(#"Loop count\s+:\s+0"#)))
    #expect(info.contains(try Regex(#"Number of frames:\s+12\n"#)), "\(info)")
    #expect(info.contains("No error detected."))
  }

  @Test("apng has every frame") func apngHasEveryFrame() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("loop.apng")
    try renderAnimation(to: try makeFrameSink(path: path))
    let info = try probe(path)
    #expect(info.codec == "apng")
    #expect(info.width == 64 && info.height == 48)
    #expect(info.frames == 12)
  }

  @Test("pixel frames with padded rows are sent row by row")
  func pixelFramesWithPaddedRowsAreSentRowByRow() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("rows.mp4")
    let sink = try VideoSink(path: path, format: .mp4)
    try sink.begin(FrameConfiguration(size: Size(width: 32, height: 16), framesPerSecond: 10))
    // 32 pixels a row stored 40 pixels apart; the padding is garbage that must not show.
    let stride = 40 * 4
    var bytes = [UInt8](repeating: 0x7F, count: stride * 16)
    for y in 0..<16 {
      for x in 0..<32 {
        let i = y * stride + x * 4
        bytes[i] = 255  // blue
        bytes[i + 1] = 0
        bytes[i + 2] = 0
        bytes[i + 3] = 255
      }
    }
    try bytes.withUnsafeBytes { raw in
      let frame = FramePixels(pixelWidth: 32, pixelHeight: 16, bytesPerRow: stride, bytes: raw)
      try sink.write(frame)
      try sink.write(frame)
    }
    #expect(sink.frameCount == 2)
    try sink.finish()
    let frame = try extractFrame(1, of: path, in: folder)
    for x in [0, 15, 31] {
      let p = try #require(frame.pixel(x: x, y: 8))
      #expect(p.blue > 200 && p.red < 60 && p.green < 60, "x \(x): \(p)")
    }
  }

  @Test("arguments follow the format") func argumentsFollowTheFormat() {
    let options = FFmpegOptions()
    let even = options.arguments(
      for: .mp4, pixelWidth: 64, pixelHeight: 48, framesPerSecond: 30, output: "o.mp4")
    #expect(
      even.starts(with: [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgra", "-s",
        "64x48", "-r", "30", "-i", "-",
      ]))
    #expect(even.contains("scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"))
    #expect(!even.contains { $0.contains("pad=") })
    #expect(
      even.contains("+faststart+write_colr") && even.contains("yuv420p") && even.last == "o.mp4")
    let odd = options.arguments(
      for: .mp4, pixelWidth: 63, pixelHeight: 48, framesPerSecond: 29.97, output: "o.mp4")
    #expect(
      odd.contains(
        "pad=ceil(iw/2)*2:ceil(ih/2)*2,scale=out_color_matrix=bt709:out_range=tv,format=yuv420p")
        && odd.contains("29.97"))
    // Frames Swell converted: ffmpeg only encodes, at the even size the converter pads to.
    let converted = options.arguments(
      for: .mp4, pixelWidth: 63, pixelHeight: 47, framesPerSecond: 30, output: "o.mp4",
      input: .yuv420p)
    #expect(
      converted.starts(with: [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s",
        "64x48", "-r", "30", "-i", "-",
      ]), "\(converted)")
    #expect(!converted.contains("-vf") && converted.contains("libx264"))
    #expect(converted.contains("bt709") && converted.last == "o.mp4")
    let gif = options.arguments(
      for: .gif, pixelWidth: 8, pixelHeight: 8, framesPerSecond: 10, output: "o.gif")
    // GIF: the first pass makes the palette and the frames file, never holding the frames.
    #expect(gif.contains { $0.contains("palettegen") && !$0.contains("paletteuse") })
    #expect(gif.contains("o.gif.palette.png") && gif.last == "o.gif.frames.nut")
    let second = options.gifEncodeArguments(output: "o.gif")
    #expect(second.contains { $0.contains("paletteuse") } && second.last == "o.gif")
    #expect(second.contains("o.gif.palette.png") && second.contains("o.gif.frames.nut"))
    let webp = options.arguments(
      for: .webp, pixelWidth: 8, pixelHeight: 8, framesPerSecond: 10, output: "o.webp")
    #expect(webp.contains("libwebp_anim") && webp.contains("75") && webp.contains("format=rgba"))
  }
}

@Suite("ffmpeg failures")
private struct VideoFailureTests {
  private let configuration = FrameConfiguration(
    size: Size(width: 64, height: 48), framesPerSecond: 24)

  @Test("missing executable says what to install") func missingExecutableSaysWhatToInstall() throws
  {
    let folder = try TemporaryFolder()
    let path = folder.file("out.mp4")
    let sink = try makeFrameSink(
      path: path, ffmpeg: FFmpegOptions(executablePath: folder.file("no-such-ffmpeg")))
    let error = #expect(throws: RenderError.self) { try sink.begin(configuration) }
    #expect(error?.kind == .encoderMissing)
    #expect(error?.description.hasPrefix(path + ": ") == true)
    #expect(error?.reason.contains("install the Debian package 'ffmpeg'") == true)
    #expect(try folder.contents().isEmpty)
  }

  @Test("ffmpeg missing from path says what to install")
  func ffmpegMissingFromPathSaysWhatToInstall() throws {
    let folder = try TemporaryFolder()
    let sink = try VideoSink(
      path: folder.file("out.gif"), format: .gif, environment: ["PATH": folder.path])
    let error = #expect(throws: RenderError.self) { try sink.begin(configuration) }
    #expect(error?.kind == .encoderMissing)
    #expect(error?.reason.contains("not found on PATH") == true)
    #expect(error?.reason.contains("SWELL_FFMPEG") == true)
    #expect(try folder.contents().isEmpty)
  }

  @Test("encoder that dies early is reported with its last words")
  func encoderThatDiesEarlyIsReportedWithItsLastWords() throws {
    let folder = try TemporaryFolder()
    let fake = try folder.script(
      "fake-ffmpeg",
      """
      head -c 2000 > /dev/null
      echo "frame=1 fps=0.0" >&2
      echo "Error writing trailer: No space left on device" >&2
      exit 1
      """)
    let path = folder.file("out.mp4")
    let sink = try VideoSink(
      path: path, format: .mp4, environment: [FFmpegOptions.environmentVariable: fake])
    try sink.begin(configuration)
    var failure: RenderError?
    do {
      for i in 0..<40 { try sink.draw(drawMovingSquare(i % 12)) }
      try sink.finish()
    } catch let error as RenderError {
      failure = error
    }
    let error = try #require(failure)
    #expect(error.kind == .encoderFailed)
    #expect(error.description.hasPrefix(path + ": "))
    #expect(error.reason.contains("exited with status 1"))
    #expect(error.reason.contains("No space left on device"))
    #expect(!error.description.contains("\n"))
    #expect(try folder.contents() == ["fake-ffmpeg"])
  }

  @Test("encoder killed by signal is reported") func encoderKilledBySignalIsReported() throws {
    let folder = try TemporaryFolder()
    let fake = try folder.script("crashing-ffmpeg", "head -c 100 > /dev/null\nkill -SEGV $$")
    let sink = try VideoSink(
      path: folder.file("out.webp"), format: .webp,
      options: FFmpegOptions(executablePath: fake))
    try sink.begin(configuration)
    let error = #expect(throws: RenderError.self) {
      for i in 0..<40 { try sink.draw(drawMovingSquare(i % 12)) }
      try sink.finish()
    }
    #expect(error?.kind == .encoderFailed)
    #expect(
      error?.reason.contains("killed by signal \(SIGSEGV)") == true, "\(String(describing: error))")
    #expect(try folder.contents() == ["crashing-ffmpeg"])
  }

  @Test("encoder that writes nothing is a failure") func encoderThatWritesNothingIsAFailure() throws
  {
    let folder = try TemporaryFolder()
    let fake = try folder.script("lazy-ffmpeg", "cat > /dev/null\nexit 0")
    let sink = try VideoSink(
      path: folder.file("out.apng"), format: .apng,
      options: FFmpegOptions(executablePath: fake))
    let error = #expect(throws: RenderError.self) { try renderAnimation(to: sink, count: 3) }
    #expect(error?.kind == .encoderFailed)
    #expect(error?.reason.contains("wrote no data") == true)
    #expect(try folder.contents() == ["lazy-ffmpeg"])
  }

  @Test("real f fmpeg rejecting its settings is reported")
  func realFFmpegRejectingItsSettingsIsReported() throws {
    let folder = try TemporaryFolder()
    let sink = try makeFrameSink(
      path: folder.file("bad.mp4"), ffmpeg: FFmpegOptions(x264Preset: "no-such-preset"))
    let error = #expect(throws: RenderError.self) { try renderAnimation(to: sink, count: 30) }
    #expect(error?.kind == .encoderFailed)
    #expect(error?.reason.contains("ffmpeg exited with status") == true)
    #expect(try folder.contents().isEmpty)
  }

  @Test("unwritable folder fails before starting the encoder")
  func unwritableFolderFailsBeforeStartingTheEncoder() throws {
    let folder = try TemporaryFolder()
    try Data().write(to: URL(fileURLWithPath: folder.file("file")))
    for name in ["file/out.mp4", "missing/out.gif"] {
      let sink = try makeFrameSink(path: folder.file(name))
      let error = #expect(throws: RenderError.self) { try sink.begin(configuration) }
      #expect(error?.kind == .unwritableOutput, "\(name)")
    }
    #expect(try folder.contents() == ["file"])
  }

  @Test("cancel stops the encoder and removes the partial file")
  func cancelStopsTheEncoderAndRemovesThePartialFile() throws {
    let folder = try TemporaryFolder()
    do {
      let sink = try makeFrameSink(path: folder.file("cancelled.mp4"))
      try sink.begin(configuration)
      for i in 0..<5 { try sink.draw(drawMovingSquare(i)) }
      sink.cancel()
      #expect(try folder.contents().isEmpty)
      let again = #expect(throws: RenderError.self) { try sink.draw(drawMovingSquare(0)) }
      #expect(again?.kind == .invalidState)
    }
    do {
      let dropped = try makeFrameSink(path: folder.file("dropped.gif"))
      try dropped.begin(configuration)
      try dropped.draw(drawMovingSquare(0))
    }
    #expect(try folder.contents().isEmpty)
  }
}
