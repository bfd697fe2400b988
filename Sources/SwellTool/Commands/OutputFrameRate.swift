import Foundation
import SwellRender

/// The frame rate an export uses, given what was asked and the output format.
enum OutputFrameRate {
  /// The fastest GIF rate, frames per second: GIF frame delays are whole hundredths of a second,
  /// and players (browsers, ffprobe) treat delays under 2/100 s as 10/100 s, so a 60 fps GIF
  /// would play about 3× too slowly.
  static let gifMaximum = 50.0

  /// The frame rate for an output file.
  ///
  /// - Parameters:
  ///   - requested: `--fps` as given, or `nil`.
  ///   - output: The output path (its extension decides the format unless `format` is given).
  ///   - format: The format asked for (`--format`), or `nil`.
  ///   - defaultRate: The rate when none is given (60).
  /// - Returns: The requested rate, or the default, which for a GIF is at most 50.
  /// - Throws: ``UsageError`` when a GIF is asked for at more than 50 frames per second.
  static func resolve(
    requested: Double?, output: String, format: OutputFormat? = nil, defaultRate: Double = 60
  ) throws -> Double {
    let isGIF =
      format.map { $0 == .gif }
      ?? (URL(fileURLWithPath: output).pathExtension.lowercased() == "gif")
    guard isGIF else { return requested ?? defaultRate }
    guard let requested else { return min(defaultRate, gifMaximum) }
    guard requested <= gifMaximum else {
      throw UsageError(
        "a GIF plays at most 50 frames per second (its delays are whole hundredths of a "
          + "second); use --fps 50 or lower, got \(displayNumber(requested))")
    }
    return requested
  }
}
