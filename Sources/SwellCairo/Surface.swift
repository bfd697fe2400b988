import CCairo

/// A Cairo drawing surface: the target a ``CairoContext`` draws into.
///
/// The concrete kinds are ``ImageSurface`` (pixels in memory), ``SVGSurface`` and ``PDFSurface``
/// (vector documents). The Swift object owns one reference to the C surface and releases it when
/// it goes away. The corresponding C type is `cairo_surface_t`; the corresponding Cairo function
/// for the release is `cairo_surface_destroy`.
public class Surface {
  /// The C surface.
  let pointer: OpaquePointer

  /// This surface as an ``ImageSurface`` when it is one (pixels in memory that a caller may read
  /// or draw through directly), else `nil` (a vector document).
  public var imageSurface: ImageSurface? { self as? ImageSurface }

  /// Takes ownership of a newly created C surface, or throws its error status.
  ///
  /// - Parameters:
  ///   - pointer: A surface from a `cairo_*_surface_create*` function.
  ///   - owner: An object the C surface depends on (its pixel memory or its stream writer),
  ///     kept alive for as long as the C surface lives (``attach(_:)``), or `nil`.
  /// - Throws: ``CairoError`` when the surface is in an error state (it is then destroyed).
  init(owning pointer: OpaquePointer, keeping owner: AnyObject? = nil) throws(CairoError) {
    let status = cairo_surface_status(pointer)
    guard status == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(pointer)
      throw CairoError(status)
    }
    self.pointer = pointer
    if let owner { attach(owner) }
  }

  /// Takes a reference to a C surface another library owns (the target of a borrowed
  /// context), released when the Swift object goes away.
  ///
  /// - Parameter pointer: The surface.
  /// - Throws: ``CairoError`` when the surface is in an error state.
  init(referencing pointer: OpaquePointer) throws(CairoError) {
    let status = cairo_surface_status(pointer)
    guard status == CAIRO_STATUS_SUCCESS else { throw CairoError(status) }
    self.pointer = cairo_surface_reference(pointer)
  }

  deinit { cairo_surface_destroy(pointer) }

  /// The surface's error, or `nil` when it is fine.
  ///
  /// The corresponding Cairo function is `cairo_surface_status`.
  public var error: CairoError? {
    let status = cairo_surface_status(pointer)
    return status == CAIRO_STATUS_SUCCESS ? nil : CairoError(status)
  }

  /// Completes pending drawing so the surface's memory or output is up to date.
  ///
  /// The corresponding Cairo function is `cairo_surface_flush`.
  public func flush() { cairo_surface_flush(pointer) }

  /// Tells Cairo that the surface's memory was changed outside Cairo, so cached copies are
  /// dropped.
  ///
  /// The corresponding Cairo function is `cairo_surface_mark_dirty`.
  public func markDirty() { cairo_surface_mark_dirty(pointer) }

  /// Emits the current page and starts a new one, for surfaces with pages (PDF); on other
  /// surfaces it does nothing.
  ///
  /// The corresponding Cairo function is `cairo_surface_show_page`.
  public func showPage() { cairo_surface_show_page(pointer) }

  /// Finishes the surface: completes its output (the last page of a PDF, the closing tags of an
  /// SVG) and drops its reference to any output stream. Drawing on a finished surface fails
  /// with ``CairoError/surfaceFinished``.
  ///
  /// Problems while writing show up afterwards in ``error``. Finishing happens on its own when
  /// the surface goes away.
  ///
  /// The corresponding Cairo function is `cairo_surface_finish`.
  public func finish() { cairo_surface_finish(pointer) }

  /// Keeps `object` alive for as long as the C surface lives, even past this Swift object
  /// (`cairo_surface_set_user_data` with a release callback).
  ///
  /// - Parameter object: The object the C surface depends on (its pixel memory or its stream).
  func attach(_ object: AnyObject) {
    let retained = Unmanaged.passRetained(object).toOpaque()
    // If Cairo cannot record the owner (out of memory) the object leaks rather than being
    // freed while the surface still uses it.
    _ = cairo_surface_set_user_data(pointer, ownerKey, retained) { pointer in
      guard let pointer else { return }
      Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
  }
}

@available(*, unavailable)
extension Surface: Sendable {}

/// The Cairo user-data key under which a surface's owner object is stored; only its address
/// matters, it is never written.
nonisolated(unsafe) private let ownerKey = UnsafeMutablePointer<cairo_user_data_key_t>
  .allocate(capacity: 1)
