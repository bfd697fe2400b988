import CCairo

/// A Cairo error status as a Swift error.
///
/// Wraps a `cairo_status_t` other than `CAIRO_STATUS_SUCCESS`; ``description`` is Cairo's own text
/// for the status (the corresponding C function is `cairo_status_to_string`).
public struct CairoError: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The Cairo status code.
  public let rawValue: cairo_status_t

  /// Wraps a Cairo status.
  ///
  /// - Parameter rawValue: The status; `CAIRO_STATUS_SUCCESS` makes a value that describes
  ///   itself as "no error has occurred" and is never thrown by this module.
  public init(rawValue: cairo_status_t) { self.rawValue = rawValue }

  /// The numeric status code, as in `cairo.h`.
  public var code: Int { Int(rawValue.rawValue) }

  /// Cairo's text for the status (`cairo_status_to_string`).
  public var description: String {
    guard let text = cairo_status_to_string(rawValue) else { return "cairo status \(code)" }
    return String(cString: text)
  }

  /// Hashes the status code.
  ///
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue.rawValue) }

  /// Compares status codes.
  public static func == (a: CairoError, b: CairoError) -> Bool {
    a.rawValue.rawValue == b.rawValue.rawValue
  }

  /// Out of memory (`CAIRO_STATUS_NO_MEMORY`).
  public static let noMemory = CairoError(rawValue: CAIRO_STATUS_NO_MEMORY)
  /// A restore without a matching save (`CAIRO_STATUS_INVALID_RESTORE`).
  public static let invalidRestore = CairoError(rawValue: CAIRO_STATUS_INVALID_RESTORE)
  /// A pop-group without a matching push-group (`CAIRO_STATUS_INVALID_POP_GROUP`).
  public static let invalidPopGroup = CairoError(rawValue: CAIRO_STATUS_INVALID_POP_GROUP)
  /// A transform that cannot be inverted (`CAIRO_STATUS_INVALID_MATRIX`).
  public static let invalidMatrix = CairoError(rawValue: CAIRO_STATUS_INVALID_MATRIX)
  /// An error reading an input stream or file (`CAIRO_STATUS_READ_ERROR`).
  public static let readError = CairoError(rawValue: CAIRO_STATUS_READ_ERROR)
  /// An error writing an output stream or file (`CAIRO_STATUS_WRITE_ERROR`).
  public static let writeError = CairoError(rawValue: CAIRO_STATUS_WRITE_ERROR)
  /// A missing input file (`CAIRO_STATUS_FILE_NOT_FOUND`).
  public static let fileNotFound = CairoError(rawValue: CAIRO_STATUS_FILE_NOT_FOUND)
  /// A surface used after it was finished (`CAIRO_STATUS_SURFACE_FINISHED`).
  public static let surfaceFinished = CairoError(rawValue: CAIRO_STATUS_SURFACE_FINISHED)
  /// A bad dash pattern (`CAIRO_STATUS_INVALID_DASH`).
  public static let invalidDash = CairoError(rawValue: CAIRO_STATUS_INVALID_DASH)
  /// A size out of range, typically too big (`CAIRO_STATUS_INVALID_SIZE`).
  public static let invalidSize = CairoError(rawValue: CAIRO_STATUS_INVALID_SIZE)
  /// A libpng error while reading or writing a PNG (`CAIRO_STATUS_PNG_ERROR`).
  public static let pngError = CairoError(rawValue: CAIRO_STATUS_PNG_ERROR)

  /// Throws when a status is not `CAIRO_STATUS_SUCCESS`.
  ///
  /// - Parameter status: The status returned or recorded by Cairo.
  /// - Throws: ``CairoError`` with that status.
  @inlinable
  public static func check(_ status: cairo_status_t) throws(CairoError) {
    if status != CAIRO_STATUS_SUCCESS { throw CairoError(rawValue: status) }
  }
}
