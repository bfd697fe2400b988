import CCairo

/// A Cairo error status as a Swift error.
///
/// A value is one of Cairo's status codes other than `CAIRO_STATUS_SUCCESS`; the static members
/// name them in Swift (``noMemory`` is `CAIRO_STATUS_NO_MEMORY`), and ``description`` is Cairo's
/// own text for the status. The corresponding C type is `cairo_status_t`; it does not appear in
/// this API.
///
/// Cairo reports most failures of drawing lazily: a context or surface enters an error state and
/// ignores further drawing. ``CairoContext/checkStatus()`` and ``Surface/error`` read that state;
/// the initializers and the file functions throw at once.
public struct CairoError: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
  /// The numeric status code, as in `cairo.h` (`CAIRO_STATUS_NO_MEMORY` is 1).
  public let rawValue: Int32

  /// Wraps a numeric status code.
  ///
  /// - Parameter rawValue: The code, as in `cairo.h`; 0 (`CAIRO_STATUS_SUCCESS`) makes a value
  ///   that describes itself as "no error has occurred" and is never thrown by this module.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// Wraps a C status.
  init(_ status: cairo_status_t) { self.init(rawValue: Int32(bitPattern: status.rawValue)) }

  /// The C status.
  var status: cairo_status_t { cairo_status_t(rawValue: UInt32(bitPattern: rawValue)) }

  /// The numeric status code, as in `cairo.h`.
  public var code: Int { Int(rawValue) }

  /// Cairo's text for the status, such as "out of memory".
  ///
  /// The corresponding Cairo function is `cairo_status_to_string`.
  public var description: String {
    guard let text = cairo_status_to_string(status) else { return "cairo status \(code)" }
    return String(cString: text)
  }

  /// Throws when a status is not `CAIRO_STATUS_SUCCESS`.
  ///
  /// - Parameter status: The status returned or recorded by Cairo.
  /// - Throws: ``CairoError`` with that status.
  static func check(_ status: cairo_status_t) throws(CairoError) {
    if status != CAIRO_STATUS_SUCCESS { throw CairoError(status) }
  }

  /// Out of memory.
  ///
  /// The corresponding C status is `CAIRO_STATUS_NO_MEMORY`.
  public static var noMemory: CairoError { CairoError(CAIRO_STATUS_NO_MEMORY) }

  /// A restore without a matching save.
  ///
  /// The corresponding C status is `CAIRO_STATUS_INVALID_RESTORE`.
  public static var invalidRestore: CairoError { CairoError(CAIRO_STATUS_INVALID_RESTORE) }

  /// A pop-group without a matching push-group.
  ///
  /// The corresponding C status is `CAIRO_STATUS_INVALID_POP_GROUP`.
  public static var invalidPopGroup: CairoError { CairoError(CAIRO_STATUS_INVALID_POP_GROUP) }

  /// A path operation that needs a current point, without one.
  ///
  /// The corresponding C status is `CAIRO_STATUS_NO_CURRENT_POINT`.
  public static var noCurrentPoint: CairoError { CairoError(CAIRO_STATUS_NO_CURRENT_POINT) }

  /// A transform that cannot be inverted.
  ///
  /// The corresponding C status is `CAIRO_STATUS_INVALID_MATRIX`.
  public static var invalidMatrix: CairoError { CairoError(CAIRO_STATUS_INVALID_MATRIX) }

  /// A string that is not valid UTF-8.
  ///
  /// The corresponding C status is `CAIRO_STATUS_INVALID_STRING`.
  public static var invalidString: CairoError { CairoError(CAIRO_STATUS_INVALID_STRING) }

  /// An error reading an input stream or file.
  ///
  /// The corresponding C status is `CAIRO_STATUS_READ_ERROR`.
  public static var readError: CairoError { CairoError(CAIRO_STATUS_READ_ERROR) }

  /// An error writing an output stream or file.
  ///
  /// The corresponding C status is `CAIRO_STATUS_WRITE_ERROR`.
  public static var writeError: CairoError { CairoError(CAIRO_STATUS_WRITE_ERROR) }

  /// A surface used after it was finished.
  ///
  /// The corresponding C status is `CAIRO_STATUS_SURFACE_FINISHED`.
  public static var surfaceFinished: CairoError { CairoError(CAIRO_STATUS_SURFACE_FINISHED) }

  /// An operation on the wrong kind of surface.
  ///
  /// The corresponding C status is `CAIRO_STATUS_SURFACE_TYPE_MISMATCH`.
  public static var surfaceTypeMismatch: CairoError {
    CairoError(CAIRO_STATUS_SURFACE_TYPE_MISMATCH)
  }

  /// A bad pixel format.
  ///
  /// The corresponding C status is `CAIRO_STATUS_INVALID_FORMAT`.
  public static var invalidFormat: CairoError { CairoError(CAIRO_STATUS_INVALID_FORMAT) }

  /// A missing input file.
  ///
  /// The corresponding C status is `CAIRO_STATUS_FILE_NOT_FOUND`.
  public static var fileNotFound: CairoError { CairoError(CAIRO_STATUS_FILE_NOT_FOUND) }

  /// A bad dash pattern.
  ///
  /// The corresponding C status is `CAIRO_STATUS_INVALID_DASH`.
  public static var invalidDash: CairoError { CairoError(CAIRO_STATUS_INVALID_DASH) }

  /// A failure to create or write a temporary file.
  ///
  /// The corresponding C status is `CAIRO_STATUS_TEMP_FILE_ERROR`.
  public static var tempFileError: CairoError { CairoError(CAIRO_STATUS_TEMP_FILE_ERROR) }

  /// A bad distance between image rows.
  ///
  /// The corresponding C status is `CAIRO_STATUS_INVALID_STRIDE`.
  public static var invalidStride: CairoError { CairoError(CAIRO_STATUS_INVALID_STRIDE) }

  /// A size out of range, typically too big.
  ///
  /// The corresponding C status is `CAIRO_STATUS_INVALID_SIZE`.
  public static var invalidSize: CairoError { CairoError(CAIRO_STATUS_INVALID_SIZE) }

  /// A libpng error while reading or writing a PNG.
  ///
  /// The corresponding C status is `CAIRO_STATUS_PNG_ERROR`.
  public static var pngError: CairoError { CairoError(CAIRO_STATUS_PNG_ERROR) }

  /// A FreeType error, typically while loading a font.
  ///
  /// The corresponding C status is `CAIRO_STATUS_FREETYPE_ERROR`.
  public static var freetypeError: CairoError { CairoError(CAIRO_STATUS_FREETYPE_ERROR) }
}
