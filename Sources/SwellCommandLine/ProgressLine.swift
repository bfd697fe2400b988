import Foundation

/// Progress on standard error for work that takes a while: on a terminal, a bar with the count,
/// percentage and ETA redrawn in place; otherwise (a log, a pipe), once the work has run for a
/// second, one plain line at every 10 % (`swell render: 40% (frame 240/600)`).
///
/// The work's length is learnt from the first update, so a library's `(done, total)` progress
/// callback can feed it directly: `progress: { line.update(done: $0, total: $1) }`.
public struct ProgressLine {
  /// Where the progress goes (standard error).
  public let console: Console
  /// The line's prefix (`swell render`).
  public let label: String
  /// The unit counted (`frame`, `row`).
  public var unit: String
  private let clock = ContinuousClock()
  private var start: ContinuousClock.Instant?
  private var lastDraw: ContinuousClock.Instant?
  private var drawn = false
  private var lastTenth = 0

  /// Prepares a progress line; nothing is shown and no time is counted until the first
  /// ``update(done:total:)``.
  ///
  /// - Parameters:
  ///   - console: Where the progress goes.
  ///   - label: The line's prefix.
  ///   - unit: The unit counted.
  public init(console: Console, label: String, unit: String = "frame") {
    self.console = console
    self.label = label
    self.unit = unit
  }

  /// Shows that `done` units of `total` are done (redrawn at most every 0.1 s on a terminal; a
  /// plain line at each new tenth otherwise, once the work has run for a second). The elapsed
  /// time, and so the ETA, counts from the first update.
  ///
  /// - Parameters:
  ///   - done: Units done so far.
  ///   - total: Units in all; work of one unit or less shows nothing.
  public mutating func update(done: Int, total: Int) {
    let now = clock.now
    let start = self.start ?? now
    self.start = start
    guard total > 1 else { return }
    let elapsed = Self.seconds(start.duration(to: now))
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
    let filled = width * min(max(done, 0), total) / total
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    console.err(
      "\r\u{1B}[K\(label): [\(bar)] \(unit) \(done)/\(total) \(100 * done / total)% "
        + "ETA \(Int(remaining.rounded(.up))) s")
    drawn = true
  }

  /// Erases the bar from the terminal (nothing to erase for plain lines).
  public mutating func clear() {
    if drawn { console.err("\r\u{1B}[K") }
    drawn = false
  }

  /// Runs work that reports its progress as `(done, total)`, showing a progress line while it
  /// runs and erasing it after, whether the work ends or throws.
  ///
  /// - Parameters:
  ///   - console: Where the progress goes.
  ///   - label: The line's prefix.
  ///   - unit: The unit counted.
  ///   - work: The work, given the function to report its progress to.
  /// - Returns: What the work returns.
  /// - Throws: What the work throws.
  @discardableResult
  public static func showing<T>(
    console: Console, label: String, unit: String = "frame",
    _ work: (_ update: (Int, Int) -> Void) throws -> T
  ) rethrows -> T {
    var line = ProgressLine(console: console, label: label, unit: unit)
    defer { line.clear() }
    return try work { line.update(done: $0, total: $1) }
  }

  /// A duration in seconds.
  ///
  /// - Parameter d: The duration.
  /// - Returns: Seconds.
  public static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }
}
