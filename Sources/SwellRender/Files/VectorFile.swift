import SwellCairo
import SwellGeometry

/// Receives the bytes a vector surface produces and appends them to an ``OutputFile``.
final class FileStream {
  let file: OutputFile
  /// The first write failure, if any.
  var failure: RenderError?
  /// True after ``VectorFile/cancel()``: later bytes are dropped.
  var isCancelled = false

  init(file: OutputFile) { self.file = file }

  /// Appends bytes to the file; `false` (a write error for Cairo) after the first failure.
  func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
    if isCancelled { return true }
    guard failure == nil else { return false }
    do throws(RenderError) {
      try file.write(bytes)
      return true
    } catch {
      failure = error
      return false
    }
  }
}

/// A vector document (an SVG or PDF surface) written to a file.
///
/// Drawing goes to a temporary file in the destination folder; ``finish()`` completes the
/// document and renames it into place. Dropping the value without ``finish()``, or calling
/// ``cancel()``, removes the temporary file, so no partial document is ever left.
final class VectorFile<Document: Surface> {
  /// The destination file.
  let path: String
  /// The surface to draw on.
  let document: Document
  private let stream: FileStream

  /// Starts a document.
  ///
  /// - Parameters:
  ///   - path: The file to create or replace.
  ///   - size: The document (first page) size, points.
  ///   - create: Makes the surface of that width and height whose bytes go to the closure.
  /// - Throws: ``RenderError`` naming the file when the size is not positive, the folder is
  ///   missing or unwritable, or Cairo cannot start the document.
  init(
    path: String, size: Size,
    create: (Double, Double, @escaping (UnsafeRawBufferPointer) -> Bool) throws(CairoError) ->
      Document
  ) throws(RenderError) {
    guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else {
      throw RenderError(
        .invalidFrame, path: path,
        reason: "the page size \(size.width)×\(size.height) points must be positive and finite")
    }
    let stream = FileStream(file: try OutputFile(path: path))
    do {
      document = try create(size.width, size.height) { stream.write($0) }
    } catch {
      throw RenderError(.writeFailed, path: path, reason: "cannot start the document (\(error))")
    }
    self.path = path
    self.stream = stream
  }

  /// Completes the document (`cairo_surface_finish`) and moves it into place.
  ///
  /// - Throws: ``RenderError`` naming the file when writing failed (for example a full disk);
  ///   the temporary file is removed.
  func finish() throws(RenderError) {
    document.finish()
    if let failure = stream.failure {
      stream.file.discard()
      throw failure
    }
    if let error = document.error, error != .surfaceFinished {
      stream.file.discard()
      throw RenderError(.writeFailed, path: path, reason: "cannot complete the document (\(error))")
    }
    try stream.file.commit()
  }

  /// Abandons the document: nothing more is written and the temporary file is removed.
  func cancel() {
    stream.isCancelled = true
    stream.file.discard()
  }
}
