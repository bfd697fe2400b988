/// A key the live views understand, from an SDL window or a terminal.
public enum LiveKey: Hashable, Sendable {
  /// The up arrow.
  case up
  /// The down arrow.
  case down
  /// The left arrow.
  case left
  /// The right arrow.
  case right
  /// The space bar (pause).
  case space
  /// Escape (quit).
  case escape
  /// Any other printable key, lower-cased (`q`, `r`, `s`, `h`, ...).
  case character(Character)
}

/// An input or window event delivered by a live view.
public enum LiveEvent: Hashable, Sendable {
  /// A key was pressed (auto-repeats included).
  case key(LiveKey)
  /// The drawable area changed size, pixels.
  case resized(width: Int, height: Int)
  /// The pointer moved over the view: position normalised to 0...1 across the drawable area
  /// (0, 0 top left; 1, 1 bottom right).
  case pointer(x: Double, y: Double)
  /// The user closed the window or interrupted the program (Ctrl-C, SIGTERM).
  case quit
  /// The window was hidden or minimised (`false`), or shown, restored or exposed again
  /// (`true`): nothing is drawn while it cannot be seen.
  case visibility(Bool)
}
