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
    var progress: ProgressLine?
    defer { progress?.clear() }
    do {
      let report = try export.run(progress: { done, total in
        if progress == nil { progress = ProgressLine(console: console, label: label, total: total) }
        progress?.update(done: done)
      })
      return Report(export: report, seconds: seconds(started.duration(to: clock.now)))
    } catch {
      throw ToolError(error.toolMessage)
    }
  }

  static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }
}

/// Progress on standard error for work that takes a while: on a terminal, a bar with the count,
/// percentage and ETA redrawn in place; otherwise (a log, a pipe), once the work has run for a
/// second, one plain line at every 10 % (`swell render: 40% (frame 240/600)`).
struct ProgressLine {
  let console: Console
  let label: String
  let total: Int
  /// The unit counted (`frame`, `row`).
  var unit = "frame"
  private let clock = ContinuousClock()
  private let start: ContinuousClock.Instant
  private var lastDraw: ContinuousClock.Instant?
  private var drawn = false
  private var lastTenth = 0

  init(console: Console, label: String, total: Int, unit: String = "frame") {
    self.console = console
    self.label = label
    self.total = total
    self.unit = unit
    start = clock.now
  }

  mutating func update(done: Int) {
    guard total > 1 else { return }
    let now = clock.now
    let elapsed = SceneExportRun.seconds(start.duration(to: now))
    guard console.isInteractive else {
      let tenth = 10 * done / total
      if tenth > lastTenth {
        lastTenth = tenth
        if elapsed >= 1 {
          console.err("\(label): \(tenth * 10)% (\(unit) \(done)/\(total))\n")
        }
      }
      return
    }
    if let lastDraw, lastDraw.duration(to: now) < .milliseconds(100), done < total { return }
    lastDraw = now
    let remaining = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
    let width = 24
    let filled = total > 0 ? width * done / total : 0
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    console.err(
      "\r\u{1B}[K\(label): [\(bar)] \(unit) \(done)/\(total) \(100 * done / max(total, 1))% "
        + "ETA \(Int(remaining.rounded(.up))) s")
    drawn = true
  }

  mutating func clear() {
    if drawn { console.err("\r\u{1B}[K") }
    drawn = false
  }
}
