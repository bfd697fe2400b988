import Foundation

/// Where ffmpeg is and how it encodes the video formats.
///
/// The encoder settings follow measurements on a 2-core machine (linux-platform notes, §17):
/// H.264 `medium`/CRF 20 MP4 in yuv420p with `+faststart` plays everywhere; GIF uses a single-pass
/// `palettegen`/`paletteuse`; WebP uses `libwebp_anim` at quality 75; APNG loops forever.
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

  /// The ffmpeg arguments that read raw BGRA frames from standard input and write a video.
  ///
  /// - Parameters:
  ///   - format: ``OutputFormat/mp4``, ``OutputFormat/gif``, ``OutputFormat/webp`` or
  ///     ``OutputFormat/apng``.
  ///   - pixelWidth: The frame width, pixels.
  ///   - pixelHeight: The frame height, pixels.
  ///   - framesPerSecond: The frame rate.
  ///   - output: The file ffmpeg writes.
  /// - Returns: The arguments, without the executable.
  public func arguments(
    for format: OutputFormat, pixelWidth: Int, pixelHeight: Int, framesPerSecond: Double,
    output: String
  ) -> [String] {
    let rate =
      framesPerSecond == framesPerSecond.rounded()
      ? String(Int(framesPerSecond)) : String(framesPerSecond)
    var arguments = [
      "-hide_banner", "-loglevel", "error", "-y",
      "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(pixelWidth)x\(pixelHeight)", "-r", rate,
      "-i", "-",
    ]
    switch format {
    case .gif:
      arguments += [
        "-filter_complex",
        "[0:v]split[a][b];[a]palettegen=stats_mode=diff[p];"
          + "[b][p]paletteuse=dither=bayer:bayer_scale=3:diff_mode=rectangle",
        "-loop", "0", "-f", "gif",
      ]
    case .webp:
      arguments += [
        "-c:v", "libwebp_anim", "-lossless", "0", "-quality", String(webPQuality), "-loop", "0",
        "-f", "webp",
      ]
    case .apng:
      arguments += ["-c:v", "apng", "-plays", "0", "-f", "apng"]
    case .mp4, .png, .pngSequence, .svg, .pdf:
      // yuv420p needs even sizes: pad odd ones by one black row or column at the bottom/right.
      if pixelWidth % 2 != 0 || pixelHeight % 2 != 0 {
        arguments += ["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"]
      }
      arguments += [
        "-c:v", "libx264", "-preset", x264Preset, "-crf", String(x264ConstantRateFactor),
        "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4",
      ]
    }
    return arguments + [output]
  }
}
