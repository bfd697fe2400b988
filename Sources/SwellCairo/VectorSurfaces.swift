import CCairo

/// Passes the bytes of a vector surface to a Swift closure; kept alive by the C surface.
private final class StreamWriter {
  let write: (UnsafeRawBufferPointer) -> Bool

  init(_ write: @escaping (UnsafeRawBufferPointer) -> Bool) { self.write = write }

  /// The Cairo write callback (`cairo_write_func_t`); captures nothing, the writer comes in
  /// through `closure`.
  static let callback: cairo_write_func_t = { closure, bytes, length in
    guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
    let writer = Unmanaged<StreamWriter>.fromOpaque(closure).takeUnretainedValue()
    return writer.write(UnsafeRawBufferPointer(start: bytes, count: Int(length)))
      ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
  }
}

/// Creates a vector surface on a file or a stream, after checking its size.
///
/// - Parameters:
///   - width: The width, points; positive and finite.
///   - height: The height, points; positive and finite.
///   - writer: The stream writer, or `nil` for a file.
///   - create: Makes the C surface from the size and, for streams, the callback and closure.
/// - Returns: The C surface.
/// - Throws: ``CairoError/invalidSize`` for a bad size, ``CairoError/noMemory``.
private func makeVectorSurface(
  width: Double, height: Double, writer: StreamWriter?,
  create: (Double, Double, cairo_write_func_t, UnsafeMutableRawPointer?) -> OpaquePointer?
) throws(CairoError) -> OpaquePointer {
  guard width > 0, height > 0, width.isFinite, height.isFinite else { throw .invalidSize }
  let closure = writer.map { Unmanaged.passUnretained($0).toOpaque() }
  guard let surface = create(width, height, StreamWriter.callback, closure) else {
    throw .noMemory
  }
  return surface
}

/// An SVG document surface, written to a file or to a stream of bytes.
///
/// User units are points (1/72 inch) until ``documentUnit`` says otherwise. The document is
/// complete when the surface is finished (``Surface/finish()``) or goes away. The corresponding
/// Cairo functions are `cairo_svg_surface_create` and `cairo_svg_surface_create_for_stream`.
public final class SVGSurface: Surface {
  /// The unit an SVG document's width and height are given in.
  ///
  /// The corresponding C type is `cairo_svg_unit_t`.
  public enum DocumentUnit: Sendable, Hashable {
    /// No unit: user units (`CAIRO_SVG_UNIT_USER`).
    case user
    /// The font size (`CAIRO_SVG_UNIT_EM`).
    case em
    /// The x-height (`CAIRO_SVG_UNIT_EX`).
    case ex
    /// CSS pixels, 96 per inch (`CAIRO_SVG_UNIT_PX`).
    case pixels
    /// Inches (`CAIRO_SVG_UNIT_IN`).
    case inches
    /// Centimetres (`CAIRO_SVG_UNIT_CM`).
    case centimeters
    /// Millimetres (`CAIRO_SVG_UNIT_MM`).
    case millimeters
    /// Points, 72 per inch (`CAIRO_SVG_UNIT_PT`), Cairo's default.
    case points
    /// Picas, 6 per inch (`CAIRO_SVG_UNIT_PC`).
    case picas
    /// A percentage of the viewport (`CAIRO_SVG_UNIT_PERCENT`).
    case percent
  }

  /// Starts an SVG document written straight to a file.
  ///
  /// The corresponding Cairo function is `cairo_svg_surface_create`.
  ///
  /// - Parameters:
  ///   - path: The SVG file to create or replace.
  ///   - width: The document width, points; positive and finite.
  ///   - height: The document height, points; positive and finite.
  /// - Throws: ``CairoError/invalidSize`` for a bad size, ``CairoError/writeError`` when the file
  ///   cannot be created.
  public init(path: String, width: Double, height: Double) throws(CairoError) {
    try super.init(
      owning: makeVectorSurface(width: width, height: height, writer: nil) { w, h, _, _ in
        cairo_svg_surface_create(path, w, h)
      })
  }

  /// Starts an SVG document whose bytes go to a closure, in order, as Cairo produces them.
  ///
  /// The corresponding Cairo function is `cairo_svg_surface_create_for_stream`.
  ///
  /// - Parameters:
  ///   - width: The document width, points; positive and finite.
  ///   - height: The document height, points; positive and finite.
  ///   - write: Receives each piece of the document; returns `false` to report a write failure
  ///     (the surface then enters the ``CairoError/writeError`` state). The bytes are only valid
  ///     during the call.
  /// - Throws: ``CairoError/invalidSize`` for a bad size, or another Cairo error.
  public init(
    width: Double, height: Double, write: @escaping (UnsafeRawBufferPointer) -> Bool
  ) throws(CairoError) {
    let writer = StreamWriter(write)
    // The C surface can outlive this object (a pattern may hold it), so it keeps the writer.
    try super.init(
      owning: makeVectorSurface(width: width, height: height, writer: writer) {
        w, h, callback, closure in cairo_svg_surface_create_for_stream(callback, closure, w, h)
      }, keeping: writer)
  }

  /// The unit of the document's width and height; set it before drawing.
  ///
  /// The corresponding Cairo functions are `cairo_svg_surface_set_document_unit` and
  /// `cairo_svg_surface_get_document_unit`.
  public var documentUnit: DocumentUnit {
    get {
      switch cairo_svg_surface_get_document_unit(pointer) {
      case CAIRO_SVG_UNIT_USER: .user
      case CAIRO_SVG_UNIT_EM: .em
      case CAIRO_SVG_UNIT_EX: .ex
      case CAIRO_SVG_UNIT_PX: .pixels
      case CAIRO_SVG_UNIT_IN: .inches
      case CAIRO_SVG_UNIT_CM: .centimeters
      case CAIRO_SVG_UNIT_MM: .millimeters
      case CAIRO_SVG_UNIT_PC: .picas
      case CAIRO_SVG_UNIT_PERCENT: .percent
      default: .points
      }
    }
    set {
      let value: cairo_svg_unit_t =
        switch newValue {
        case .user: CAIRO_SVG_UNIT_USER
        case .em: CAIRO_SVG_UNIT_EM
        case .ex: CAIRO_SVG_UNIT_EX
        case .pixels: CAIRO_SVG_UNIT_PX
        case .inches: CAIRO_SVG_UNIT_IN
        case .centimeters: CAIRO_SVG_UNIT_CM
        case .millimeters: CAIRO_SVG_UNIT_MM
        case .points: CAIRO_SVG_UNIT_PT
        case .picas: CAIRO_SVG_UNIT_PC
        case .percent: CAIRO_SVG_UNIT_PERCENT
        }
      cairo_svg_surface_set_document_unit(pointer, value)
    }
  }
}

/// A multi-page PDF document surface, written to a file or to a stream of bytes.
///
/// User units are PDF points (1/72 inch). End each page with ``Surface/showPage()``; the last
/// page is emitted when the surface is finished (``Surface/finish()``) if it has drawing on it.
/// The corresponding Cairo functions are `cairo_pdf_surface_create` and
/// `cairo_pdf_surface_create_for_stream`.
public final class PDFSurface: Surface {
  /// Starts a PDF document written straight to a file.
  ///
  /// The corresponding Cairo function is `cairo_pdf_surface_create`.
  ///
  /// - Parameters:
  ///   - path: The PDF file to create or replace.
  ///   - width: The width of the first page, points; positive and finite.
  ///   - height: The height of the first page, points; positive and finite.
  /// - Throws: ``CairoError/invalidSize`` for a bad size, ``CairoError/writeError`` when the file
  ///   cannot be created.
  public init(path: String, width: Double, height: Double) throws(CairoError) {
    try super.init(
      owning: makeVectorSurface(width: width, height: height, writer: nil) { w, h, _, _ in
        cairo_pdf_surface_create(path, w, h)
      })
  }

  /// Starts a PDF document whose bytes go to a closure, in order, as Cairo produces them.
  ///
  /// The corresponding Cairo function is `cairo_pdf_surface_create_for_stream`.
  ///
  /// - Parameters:
  ///   - width: The width of the first page, points; positive and finite.
  ///   - height: The height of the first page, points; positive and finite.
  ///   - write: Receives each piece of the document; returns `false` to report a write failure
  ///     (the surface then enters the ``CairoError/writeError`` state). The bytes are only valid
  ///     during the call.
  /// - Throws: ``CairoError/invalidSize`` for a bad size, or another Cairo error.
  public init(
    width: Double, height: Double, write: @escaping (UnsafeRawBufferPointer) -> Bool
  ) throws(CairoError) {
    let writer = StreamWriter(write)
    // The C surface can outlive this object (a pattern may hold it), so it keeps the writer.
    try super.init(
      owning: makeVectorSurface(width: width, height: height, writer: writer) {
        w, h, callback, closure in cairo_pdf_surface_create_for_stream(callback, closure, w, h)
      }, keeping: writer)
  }

  /// Sets the size of the current page, before anything is drawn on it.
  ///
  /// The corresponding Cairo function is `cairo_pdf_surface_set_size`.
  ///
  /// - Parameters:
  ///   - width: The page width, points.
  ///   - height: The page height, points.
  /// - Returns: `false`, with nothing changed, unless both sizes are positive and finite.
  @discardableResult
  public func setPageSize(width: Double, height: Double) -> Bool {
    guard width > 0, height > 0, width.isFinite, height.isFinite else { return false }
    cairo_pdf_surface_set_size(pointer, width, height)
    return true
  }
}
