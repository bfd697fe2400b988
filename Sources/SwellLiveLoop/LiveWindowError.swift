import Foundation

/// Why a live window could not be opened or used.
public struct LiveWindowError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, for a program that words it in its own terms (the `swell` tool names its
  /// `--terminal` flag).
  public enum Problem: Hashable, Sendable {
    /// The window or its frame failed (see ``LiveWindowError/message``).
    case failed
    /// No usable display: the reason, without the advice to use the terminal view.
    case noDisplay(String)
    /// The terminal view was asked for where a stream is not a terminal (`standard input`,
    /// `standard output`).
    case notATerminal(String)
  }

  /// What went wrong.
  public var problem: Problem
  /// A one-line reason in the library's terms.
  public var message: String

  /// Creates an error of a failed window or frame.
  ///
  /// - Parameter message: A one-line reason.
  public init(_ message: String) {
    problem = .failed
    self.message = message
  }

  /// Creates an error with its problem; the message is made from it.
  ///
  /// - Parameter problem: What went wrong.
  public init(_ problem: Problem) {
    self.problem = problem
    switch problem {
    case .failed: message = "the live view failed"
    case .noDisplay(let reason):
      message =
        reason + "; use the terminal view (TerminalView) to show it in this terminal, or run "
        + "under xvfb-run"
    case .notATerminal(let stream): message = "the terminal view needs a terminal on \(stream)"
    }
  }

  /// The reason.
  public var description: String { message }
}
