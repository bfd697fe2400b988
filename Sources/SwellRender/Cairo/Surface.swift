import CCairo

/// A Cairo drawing surface (`cairo_surface_t`): the target a ``CairoContext`` draws into.
///
/// The concrete kinds are ``ImageSurface`` (pixels in memory), ``SVGSurface`` and ``PDFSurface``
/// (vector documents). The Swift object owns one reference to the C surface and releases it
/// (`cairo_surface_destroy`) when it goes away.
public class Surface {
  /// The C surface.
  let pointer: OpaquePointer

  /// Takes ownership of a newly created C surface, or throws its error status.
  ///
  /// - Parameter pointer: A surface from a `cairo_*_surface_create*` function.
  /// - Throws: ``CairoError`` when the surface is in an error state (it is then destroyed).
  init(owning pointer: OpaquePointer) throws(CairoError) {
    let status = cairo_surface_status(pointer)
    guard status == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(pointer)
      throw CairoError(rawValue: status)
    }
    self.pointer = pointer
  }

  deinit { cairo_surface_destroy(pointer) }

  /// The surface's error, or `nil` when it is fine (`cairo_surface_status`).
  public var error: CairoError? {
    let status = cairo_surface_status(pointer)
    return status == CAIRO_STATUS_SUCCESS ? nil : CairoError(rawValue: status)
  }

  /// Completes pending drawing so the surface's memory or output is up to date
  /// (`cairo_surface_flush`).
  public func flush() { cairo_surface_flush(pointer) }

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
