import Foundation
import SwellPlayback
import SwellRender

/// `swell render` and `swell demo` write a scene offline through SwellPlayback's `SceneExport`:
/// this is the tool's side of it, the progress line and the summary.
enum SceneExportRun {
  /// What was written, and how long it took on the wall clock.
  struct Report {
    var export: SceneExport.Report
    /// Wall-clock seconds for the whole export.
    var seconds: Double

    var timing: String { export.timing(seconds: seconds) }
    var summary: String { export.summary(seconds: seconds) }
  }

  /// Runs the export with a progress line.
  ///
  /// - Parameters:
  ///   - export: The export.
  ///   - console: Where progress goes (stderr).
  ///   - label: The progress line's prefix.
  /// - Returns: What was written.
  /// - Throws: ``ToolError`` with one line naming the output (the library's limits named by
  ///   this tool's flags); nothing is left behind.
  static func run(_ export: SceneExport, console: Console, label: String) throws -> Report {
    let clock = ContinuousClock()
    let started = clock.now
    var progress = ProgressLine(console: console, label: label)
    defer { progress.clear() }
    let report = try export.run(progress: { progress.update(done: $0, total: $1) })
    return Report(export: report, seconds: ProgressLine.seconds(started.duration(to: clock.now)))
  }
}
