import Foundation
import SwellPlayback
import SwellRender
import SwellTime

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
    let clock = MonotonicClock.continuous
    let started = clock.now()
    let report = try ProgressLine.showing(console: console, label: label) {
      try export.run(progress: $0)
    }
    return (report, clock.now() - started)
  }
}
