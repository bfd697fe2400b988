import Foundation

/// What ffprobe decodes from the first video stream of a file (`-count_frames`).
public struct VideoStreamInfo: Equatable, Sendable {
  /// ffprobe's codec name (`h264`, `gif`, `apng`, ...).
  public var codec: String
  /// The width, pixels.
  public var width: Int
  /// The height, pixels.
  public var height: Int
  /// The frames decoded (`nb_read_frames`).
  public var frames: Int
  /// The pixel format (`yuv420p`, ...), empty when ffprobe gives none.
  public var pixelFormat: String
  /// The stream's duration, seconds, when ffprobe gives one.
  public var streamDuration: Double?
  /// The container's duration, seconds, when ffprobe gives one.
  public var duration: Double?
}

/// Decodes a video with ffprobe (found on PATH) and counts its frames.
///
/// - Parameter path: The video (MP4, GIF, APNG, WebP, ...).
/// - Returns: What ffprobe reports, or `nil` when it cannot read the file.
/// - Throws: An error starting ffprobe.
public func probeVideoStream(_ path: String) throws -> VideoStreamInfo? {
  let r = try runProgram(
    "ffprobe",
    [
      "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
      "stream=codec_name,width,height,nb_read_frames,pix_fmt,duration:format=duration",
      "-of", "json", path,
    ])
  guard r.status == 0,
    let root = try? JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any],
    let stream = (root["streams"] as? [[String: Any]])?.first,
    let codec = stream["codec_name"] as? String, let width = stream["width"] as? Int,
    let height = stream["height"] as? Int,
    let frames = Int(stream["nb_read_frames"] as? String ?? "")
  else { return nil }
  let format = root["format"] as? [String: Any]
  return VideoStreamInfo(
    codec: codec, width: width, height: height, frames: frames,
    pixelFormat: stream["pix_fmt"] as? String ?? "",
    streamDuration: Double(stream["duration"] as? String ?? ""),
    duration: Double(format?["duration"] as? String ?? ""))
}
