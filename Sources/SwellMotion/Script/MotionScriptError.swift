/// A problem in a motion script, with the 1-based line and column of the word at fault.
///
/// Its description is one line, e.g. `unknown script word 'wobble' at 2:5`.
public struct MotionScriptError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong, without the position.
  public var message: String
  /// The line, 1-based.
  public var line: Int
  /// The column, 1-based (in characters).
  public var column: Int

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - message: What is wrong.
  ///   - line: The 1-based line.
  ///   - column: The 1-based column.
  public init(_ message: String, line: Int, column: Int) {
    self.message = message
    self.line = line
    self.column = column
  }

  /// `MESSAGE at LINE:COLUMN`.
  public var description: String { "\(message) at \(line):\(column)" }
}
