import Foundation

/// A problem with a recording file: where it is (file, line, column) and what is wrong.
///
/// Its ``description`` is one line such as `trial.csv:17: column 'gy': 'abc' is not a number`.
///
/// Text from the input is made safe when the error is created: control characters are escaped
/// everywhere, the column name is cut to ``UntrustedText/defaultLimit`` characters, and the
/// message is bounded (``UntrustedText/sanitizedMessage(_:)``), so a crafted file cannot make a
/// huge or terminal-controlling message.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file's name (its last path component), or a name such as `recording.zip/Gyroscope.csv`.
  public var file: String
  /// The 1-based line number, when the problem is on one line.
  public var line: Int?
  /// The column's name, when the problem is in one field.
  public var column: String?
  /// What is wrong, one line.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - file: The file's name.
  ///   - line: The 1-based line number, or `nil`.
  ///   - column: The column's name, or `nil`.
  ///   - message: What is wrong.
  public init(file: String, line: Int? = nil, column: String? = nil, message: String) {
    self.file = UntrustedText.escaped(file)
    self.line = line
    self.column = column.map { UntrustedText.clipped($0) }
    self.message = UntrustedText.sanitizedMessage(message)
  }

  /// One line: `FILE:LINE: column 'NAME': MESSAGE` (the parts that are known).
  public var description: String {
    var s = file
    if let line { s += ":\(line)" }
    s += ": "
    if let column { s += "column '\(column)': " }
    return s + message
  }
}
