/// A failure to read an input or produce an output file, with a one-line message naming the file.
///
/// ``description`` is the message the `swell` tool prints: `PATH: reason` when a file is involved.
public struct RenderError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, broadly.
  public enum Kind: Hashable, Sendable {
    /// The output folder is missing, not a folder or not writable.
    case unwritableOutput
    /// Writing the output failed part way (for example a full disk).
    case writeFailed
    /// An input file (such as a PNG image) is missing or cannot be decoded.
    case unreadableInput
    /// The external encoder (`ffmpeg`) could not be found or started.
    case encoderMissing
    /// The external encoder exited early or with a failure status.
    case encoderFailed
    /// The output path names a format Swell cannot write.
    case unsupportedFormat
    /// The frame size, scale, rate or pixel data do not fit the output.
    case invalidFrame
    /// The sink was used out of order (for example a write after finish).
    case invalidState
  }

  /// The broad kind of failure.
  public var kind: Kind
  /// The file involved, when there is one.
  public var path: String?
  /// The reason, one line, without the path.
  public var reason: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - kind: The broad kind of failure.
  ///   - path: The file involved, if any.
  ///   - reason: The reason; line breaks are replaced so the message stays on one line.
  public init(_ kind: Kind, path: String? = nil, reason: String) {
    self.kind = kind
    self.path = path
    self.reason = reason.split(whereSeparator: \.isNewline).joined(separator: " | ")
  }

  /// The one-line message: `PATH: reason`, or the reason alone.
  public var description: String {
    guard let path else { return reason }
    return "\(path): \(reason)"
  }
}
