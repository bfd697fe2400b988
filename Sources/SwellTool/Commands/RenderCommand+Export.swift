import Foundation
import SwellPlayback
import SwellRender

/// `swell render` and `swell demo` write a scene offline through SwellPlayback's `SceneExport`:
/// this is the tool's side of it, the progress line and the summary.
enum SceneExportRun {
  /// Runs the export with a progress line.
  ///
  /// - Parameters:
  ///   - export: The export.
  ///   - console: Where progress goes (stderr).
  ///   - label: The progress line's prefix.
  /// - Returns: What was written, and the wall-clock seconds the export took.
  /// - Throws: The export's `PlaybackError` (said with this tool's flags); nothing is left
  ///   behind.
  static func run(_ export: SceneExport, console: Console, label: String) throws -> (
    report: SceneExport.Report, seconds: Double
  ) {
    let clock = ContinuousClock()
    let started = clock.now
    var progress = ProgressLine(console: console, label: label)
    defer { progress.clear() }
    let report = try export.run(progress: { progress.update(done: $0, total: $1) })
    return (report, ProgressLine.seconds(started.duration(to: clock.now)))
  }
}
