import Foundation

/// Where ffmpeg is and how it encodes the video formats.
///
/// The encoder settings follow the project's measurements on a 2-core machine (ffmpeg 5.1 fed
/// raw BGRA through a pipe, 1170×2532: `medium` CRF 20 encodes about 6.4 fps into 189 KB per
/// 60 frames, `ultrafast` 18.6 fps into 397 KB; two-pass GIF 13 fps, WebP 8.8 fps, APNG 1.8 fps):
/// H.264 `medium`/CRF 20 MP4 in yuv420p with `+faststart` plays everywhere (converted and tagged
/// as BT.709, see ``arguments(for:pixelWidth:pixelHeight:framesPerSecond:output:input:)``); GIF is
/// made in two passes with bounded memory (``gifSideFiles(for:)``): one palette from every frame
/// (`palettegen`), then `paletteuse`; WebP uses `libwebp_anim` at quality 75; APNG loops
/// forever.
public struct FFmpegOptions: Hashable, Sendable {
  /// The environment variable that overrides the ffmpeg executable: `SWELL_FFMPEG`.
  public static let environmentVariable = "SWELL_FFMPEG"

  /// The ffmpeg executable; `nil` uses `SWELL_FFMPEG`, then `ffmpeg` on `PATH`.
  public var executablePath: String?
  /// The libx264 preset for MP4 (`ultrafast` … `veryslow`).
  public var x264Preset: String
  /// The libx264 constant rate factor for MP4, 0...51 (lower is better quality).
  public var x264ConstantRateFactor: Int
  /// The libwebp quality for animated WebP, 0...100.
  public var webPQuality: Int

  /// Creates options.
  ///
  /// - Parameters:
  ///   - executablePath: The ffmpeg executable, or `nil` for `SWELL_FFMPEG` / `PATH`.
  ///   - x264Preset: The libx264 preset for MP4.
  ///   - x264ConstantRateFactor: The libx264 CRF for MP4.
  ///   - webPQuality: The WebP quality, 0...100.
  public init(
    executablePath: String? = nil, x264Preset: String = "medium", x264ConstantRateFactor: Int = 20,
    webPQuality: Int = 75
  ) {
    self.executablePath = executablePath
    self.x264Preset = x264Preset
    self.x264ConstantRateFactor = x264ConstantRateFactor
    self.webPQuality = webPQuality
  }

  /// Finds the ffmpeg executable: ``executablePath``, else `SWELL_FFMPEG`, else `ffmpeg` in a
  /// `PATH` folder.
  ///
  /// - Parameters:
  ///   - environment: The environment to read `SWELL_FFMPEG` and `PATH` from.
  ///   - output: The output file, named in the error.
  /// - Returns: The executable's path.
  /// - Throws: ``RenderError`` (`encoderMissing`) saying to install the Debian package `ffmpeg`.
  public func resolveExecutable(
    environment: [String: String] = ProcessInfo.processInfo.environment, output: String
  ) throws(RenderError) -> String {
    let explicit =
      executablePath
      ?? environment[Self.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
    if let explicit {
      var info = stat()
      if stat(explicit, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
        throw RenderError(
          .encoderMissing, path: output,
          reason:
            "ffmpeg '\(explicit)' is a folder, not an executable file; "
            + "install the Debian package 'ffmpeg' or fix \(Self.environmentVariable)")
      }
      guard access(explicit, X_OK) == 0 else {
        throw RenderError(
          .encoderMissing, path: output,
          reason:
            "ffmpeg '\(explicit)' is not an executable file (\(String(cString: strerror(errno)))); "
            + "install the Debian package 'ffmpeg' or fix \(Self.environmentVariable)")
      }
      return explicit
    }
    let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
    for folder in folders where !folder.isEmpty {
      let candidate = String(folder) + "/ffmpeg"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    throw RenderError(
      .encoderMissing, path: output,
      reason:
        "ffmpeg was not found on PATH; install the Debian package 'ffmpeg' "
        + "(sudo apt-get install ffmpeg) or set \(Self.environmentVariable)")
  }

  /// What an encoder is fed through its pipe.
  public enum InputPixels: Hashable, Sendable {
    /// Cairo's pixels as they are (`-pix_fmt bgra` on little-endian machines); ffmpeg converts
    /// them for the format.
    case bgra
    /// For an MP4, the frames already converted to BT.709 limited-range 4:2:0 by
    /// ``YUV420Converter`` and padded to even sizes (`-pix_fmt yuv420p`): a third of the bytes
    /// through the pipe and no conversion in ffmpeg. Other formats are fed ``bgra``.
    case yuv420p
  }

  /// The filter that converts the sRGB frames to limited-range Y′CbCr with the BT.709 matrix
  /// (swscale's default for RGB input is the BT.601 matrix, which would not match the tags).
  static let bt709Conversion = "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"

  /// The output options that tag an H.264 stream (its VUI) and the MP4 `colr` box as BT.709:
  /// matrix, primaries and transfer, limited range. sRGB shares BT.709's primaries; players
  /// decode BT.709-tagged video with the BT.709 matrix, so the colours come back as drawn.
  static let bt709Tags = [
    "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
    "-color_range", "tv",
  ]

  /// The two files a GIF export writes beside its output between its passes: the palette
  /// (`OUTPUT.palette.png`) and the frames, losslessly compressed (`OUTPUT.frames.nut`, PNG
  /// frames in NUT).
  ///
  /// A one-pass `split`+`palettegen`+`paletteuse` holds every frame in memory until the input
  /// ends (palettegen gives its palette only then): 12 MB a frame at 1170 × 2532, 3 GB for 5 s
  /// at 50 fps. The first pass instead streams each frame into `palettegen` (a colour
  /// histogram, bounded) and into the compressed frames file; the second
  /// (``gifEncodeArguments(output:)``) reads the palette and streams the frames through
  /// `paletteuse`. The GIF is the same as the one-pass GIF's, byte for byte.
  ///
  /// - Parameter output: The GIF file ffmpeg writes.
  /// - Returns: The palette image's path and the frames file's path.
  public static func gifSideFiles(for output: String) -> (palette: String, frames: String) {
    (output + ".palette.png", output + ".frames.nut")
  }

  /// The GIF's second pass: the frames of the first pass through `paletteuse` (Bayer dither,
  /// only the changed rectangle of each frame re-dithered) with its palette, looping forever.
  ///
  /// - Parameter output: The GIF file ffmpeg writes; the side files are
  ///   ``gifSideFiles(for:)``.
  /// - Returns: The arguments, without the executable.
  public func gifEncodeArguments(output: String) -> [String] {
    let side = Self.gifSideFiles(for: output)
    return [
      "-hide_banner", "-loglevel", "error", "-y", "-i", side.frames, "-i", side.palette,
      "-filter_complex", "[0:v][1:v]paletteuse=dither=bayer:bayer_scale=3:diff_mode=rectangle",
      "-loop", "0", "-f", "gif", output,
    ]
  }

  /// The ffmpeg arguments that read raw frames from standard input and write a video (for
  /// GIF: its first pass, which writes the side files ``gifSideFiles(for:)``; the GIF itself is
  /// made by ``gifEncodeArguments(output:)``).
  ///
  /// Colour: an MP4 is converted to Y′CbCr with the BT.709 matrix (limited range) and tagged
  /// BT.709 (matrix, primaries, transfer) in the H.264 stream and the MP4 `colr` box, so players
  /// do not guess. An animated WebP is lossy VP8, whose Y′CbCr is BT.601 by definition (RFC 6386
  /// §9.2; the format has no field for another matrix): libwebp converts the frames with the
  /// BT.601 matrix and decoders use the same one, which ffprobe reports as `bt470bg`. GIF and
  /// APNG hold RGB and need no matrix.
  ///
  /// - Parameters:
  ///   - format: ``OutputFormat/mp4``, ``OutputFormat/gif``, ``OutputFormat/webp`` or
  ///     ``OutputFormat/apng``.
  ///   - pixelWidth: The frame width, pixels.
  ///   - pixelHeight: The frame height, pixels.
  ///   - framesPerSecond: The frame rate.
  ///   - output: The file ffmpeg writes.
  ///   - input: What the pipe carries: Cairo's BGRA (ffmpeg converts an MP4's frames with
  ///     `scale`, padding odd sizes with `pad`), or for an MP4 frames Swell converted
  ///     (``InputPixels/yuv420p``, what ``VideoSink`` sends).
  /// - Returns: The arguments, without the executable.
  public func arguments(
    for format: OutputFormat, pixelWidth: Int, pixelHeight: Int, framesPerSecond: Double,
    output: String, input: InputPixels = .bgra
  ) -> [String] {
    let rate =
      framesPerSecond == framesPerSecond.rounded()
      ? String(Int(framesPerSecond)) : String(framesPerSecond)
    if format == .mp4, input == .yuv420p {
      // Converted (and padded to even sizes) by Swell: ffmpeg only encodes.
      let (w, h) = YUV420Converter.paddedSize(pixelWidth: pixelWidth, pixelHeight: pixelHeight)
      return [
        "-hide_banner", "-loglevel", "error", "-y",
        "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(w)x\(h)", "-r", rate, "-i", "-",
        "-c:v", "libx264", "-preset", x264Preset, "-crf", String(x264ConstantRateFactor),
        "-pix_fmt", "yuv420p",
      ] + Self.bt709Tags + ["-movflags", "+faststart+write_colr", "-f", "mp4", output]
    }
    var arguments = [
      "-hide_banner", "-loglevel", "error", "-y",
      "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(pixelWidth)x\(pixelHeight)", "-r", rate,
      "-i", "-",
    ]
    switch format {
    case .gif:
      let side = Self.gifSideFiles(for: output)
      return arguments + [
        "-filter_complex", "[0:v]split[a][b];[a]palettegen=stats_mode=diff[p]",
        "-map", "[p]", "-f", "image2", "-update", "1", side.palette,
        // zlib level 1: half the CPU time of the default level for a few more bytes a frame.
        "-map", "[b]", "-c:v", "png", "-compression_level", "1", "-f", "nut", side.frames,
      ]
    case .webp:
      // RGBA in: given BGRA, ffmpeg 5.1's libwebp_anim grew by about 5 MB a frame at
      // 1170 × 2532 (2 GB for 6 s); from RGBA it stays near 150 MB and writes the same file.
      arguments += [
        "-vf", "format=rgba",
        "-c:v", "libwebp_anim", "-lossless", "0", "-quality", String(webPQuality), "-loop", "0",
        "-f", "webp",
      ]
    case .apng:
      arguments += ["-c:v", "apng", "-plays", "0", "-f", "apng"]
    case .mp4, .png, .pngSequence, .svg, .pdf:
      // yuv420p needs even sizes: pad odd ones by one black row or column at the bottom/right.
      let pad =
        pixelWidth % 2 != 0 || pixelHeight % 2 != 0 ? "pad=ceil(iw/2)*2:ceil(ih/2)*2," : ""
      arguments += [
        "-vf", pad + Self.bt709Conversion,
        "-c:v", "libx264", "-preset", x264Preset, "-crf", String(x264ConstantRateFactor),
        "-pix_fmt", "yuv420p",
      ]
      arguments += Self.bt709Tags
      arguments += ["-movflags", "+faststart+write_colr", "-f", "mp4"]
    }
    return arguments + [output]
  }
}
