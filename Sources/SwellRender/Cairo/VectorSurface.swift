import CCairo
import SwellGeometry

/// Receives the bytes a vector surface produces and appends them to an ``OutputFile``.
final class FileStream {
  let file: OutputFile
  /// The first write failure, if any.
  var failure: RenderError?
  /// True after ``VectorSurface/cancel()``: later bytes are dropped.
  var isCancelled = false

  init(file: OutputFile) { self.file = file }

  /// The Cairo write callback (`cairo_write_func_t`); captures nothing, the stream comes in
  /// through `closure`.
  static let callback: cairo_write_func_t = { closure, bytes, length in
    guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
    let stream = Unmanaged<FileStream>.fromOpaque(closure).takeUnretainedValue()
    if stream.isCancelled { return CAIRO_STATUS_SUCCESS }
    guard stream.failure == nil else { return CAIRO_STATUS_WRITE_ERROR }
    do throws(RenderError) {
      try stream.file.write(UnsafeRawBufferPointer(start: bytes, count: Int(length)))
      return CAIRO_STATUS_SUCCESS
    } catch {
      stream.failure = error
      return CAIRO_STATUS_WRITE_ERROR
    }
  }
}

/// A surface that writes a vector document (SVG or PDF) to a file.
///
/// Drawing goes to a temporary file in the destination folder; ``finish()`` completes the
/// document and renames it into place. Dropping the surface without ``finish()``, or calling
/// ``cancel()``, removes the temporary file, so no partial document is ever left.
public class VectorSurface: Surface {
  /// The document's size, points (1/72 inch in PDF; one SVG user unit, shown as 1 px).
  public private(set) var size: Size
  /// The destination file.
  public let path: String
  let stream: FileStream

  init(
    path: String, size: Size,
    create: (cairo_write_func_t, UnsafeMutableRawPointer) -> OpaquePointer?
  )
    throws(RenderError)
  {
    guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else {
      throw RenderError(
        .invalidFrame, path: path,
        reason: "the page size \(size.width)×\(size.height) points must be positive and finite")
    }
    let stream = FileStream(file: try OutputFile(path: path))
    let opaque = Unmanaged.passUnretained(stream).toOpaque()
    guard let surface = create(FileStream.callback, opaque) else {
      throw RenderError(.writeFailed, path: path, reason: "out of memory")
    }
    self.size = size
    self.path = path
    self.stream = stream
    do {
      try super.init(owning: surface)
    } catch {
      throw RenderError(.writeFailed, path: path, reason: "cannot start the document (\(error))")
    }
    attach(stream)
  }

  /// Records a new page size (used by ``PDFSurface``).
  func recordSize(_ size: Size) { self.size = size }

  /// Completes the document (`cairo_surface_finish`) and moves it into place.
  ///
  /// - Throws: ``RenderError`` naming the file when writing failed (for example a full disk);
  ///   the temporary file is removed.
  public func finish() throws(RenderError) {
    cairo_surface_finish(pointer)
    if let failure = stream.failure {
      stream.file.discard()
      throw failure
    }
    if let error, error != .surfaceFinished {
      stream.file.discard()
      throw RenderError(.writeFailed, path: path, reason: "cannot complete the document (\(error))")
    }
    try stream.file.commit()
  }

  /// Abandons the document: nothing more is written and the temporary file is removed.
  public func cancel() {
    stream.isCancelled = true
    stream.file.discard()
  }
}

/// An SVG document surface (`cairo_svg_surface_create_for_stream`), written to a file.
///
/// User units are points and the document unit is `px` (`cairo_svg_surface_set_document_unit`),
/// so one layer point is one CSS pixel: `rsvg-convert` at its default 96 dpi draws the document
/// at 1×, and `--zoom 3` at 3×.
public final class SVGSurface: VectorSurface {
  /// Starts an SVG document.
  ///
  /// - Parameters:
  ///   - path: The SVG file to create or replace.
  ///   - size: The document size, points.
  /// - Throws: ``RenderError`` naming the file when the folder is missing or unwritable or the
  ///   size is not positive.
  public init(path: String, size: Size) throws(RenderError) {
    try super.init(path: path, size: size) { callback, closure in
      cairo_svg_surface_create_for_stream(callback, closure, size.width, size.height)
    }
    cairo_svg_surface_set_document_unit(pointer, CAIRO_SVG_UNIT_PX)
  }
}

/// A multi-page PDF document surface (`cairo_pdf_surface_create_for_stream`), written to a file.
///
/// User units are PDF points (1/72 inch); `pdftoppm -r 72` draws a page at 1×, `-r 216` at 3×.
/// End each page with ``showPage()``; the last page is emitted by ``VectorSurface/finish()``
/// when it has drawing on it.
public final class PDFSurface: VectorSurface {
  /// Starts a PDF document.
  ///
  /// - Parameters:
  ///   - path: The PDF file to create or replace.
  ///   - pageSize: The size of the first page, points.
  /// - Throws: ``RenderError`` naming the file when the folder is missing or unwritable or the
  ///   size is not positive.
  public init(path: String, pageSize: Size) throws(RenderError) {
    try super.init(path: path, size: pageSize) { callback, closure in
      cairo_pdf_surface_create_for_stream(callback, closure, pageSize.width, pageSize.height)
    }
  }

  /// Sets the size of the current page, before anything is drawn on it
  /// (`cairo_pdf_surface_set_size`).
  ///
  /// - Parameter size: The page size, points; ignored unless positive and finite.
  public func setPageSize(_ size: Size) {
    guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else {
      return
    }
    cairo_pdf_surface_set_size(pointer, size.width, size.height)
    recordSize(size)
  }

  /// Ends the current page and starts a new one (`cairo_surface_show_page`).
  public func showPage() { cairo_surface_show_page(pointer) }
}
