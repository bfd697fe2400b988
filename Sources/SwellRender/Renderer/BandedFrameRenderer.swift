import Dispatch
import Foundation
import SwellCairo
import SwellGeometry
import SwellLayers

/// Draws a frame into an image on several threads at once, each thread drawing the whole tree
/// clipped to one horizontal band of the image.
///
/// A large raster frame is mostly pixel work (pixman filling and compositing spans), which
/// splits cleanly by rows: each band is a Cairo image surface over the band's rows of the same
/// memory, translated so the band shows its part of the frame, and drawn by a
/// ``LayerRenderer`` of its own (each keeps its own image cache, so no renderer state is
/// shared). The pixels equal those of ``LayerRenderer/drawFrame(_:background:placement:into:)``
/// on the whole image: bands start on whole pixel rows, so coverage and gradients are computed
/// for the same pixel centres.
///
/// Frames smaller than ``minimumPixelsPerBand`` per band are drawn on the calling thread. The
/// layer tree is only read while drawing; it must not be changed from another thread meanwhile.
/// Use one instance from one thread at a time.
public final class BandedFrameRenderer {
  /// The number of bands (threads) a large frame is split into, at least 1.
  public let bandCount: Int
  /// A frame is split only when each band gets at least this many pixels (default 250 000:
  /// below that, thread hand-over costs about what it saves).
  public var minimumPixelsPerBand = 250_000
  private let renderers: [LayerRenderer]

  /// Creates a renderer.
  ///
  /// - Parameter bands: The number of bands, clamped to 1...16 (default: the active
  ///   processor count, at most 4).
  public init(bands: Int = min(4, ProcessInfo.processInfo.activeProcessorCount)) {
    bandCount = min(16, max(1, bands))
    renderers = (0..<bandCount).map { _ in LayerRenderer() }
  }

  /// Edge smoothing for everything drawn, or `nil` to keep Cairo's default, for every band.
  public var antialias: Antialias? {
    get { renderers[0].antialias }
    set { for r in renderers { r.antialias = newValue } }
  }

  /// Draws one frame into an image (reused across frames), as
  /// ``LayerRenderer/drawFrame(_:background:placement:into:)`` does, in bands.
  ///
  /// - Parameters:
  ///   - tree: The root of the presentation tree.
  ///   - background: The background colour, or `nil` for transparent.
  ///   - placement: Points to pixels.
  ///   - image: The target image.
  /// - Throws: ``RenderError`` as the single-threaded call (the first band's error).
  public func drawFrame(
    _ tree: Layer, background: Color?, placement: FramePlacement, into image: ImageSurface
  ) throws(RenderError) {
    try drawFrame(tree, background: background, placement: placement, into: image, region: nil)
  }

  /// Draws the part of a frame inside `region` into an image, leaving the pixels outside it as
  /// they are: over the previous frame's pixels, with the region a ``FrameDamage`` gave, the
  /// image then equals the new frame drawn whole, within one level of 255 on a row or two
  /// (Cairo clips outlines to the region before rasterising them). A region is drawn in bands of
  /// its rows, each band through a surface over the whole image clipped to the band's part of
  /// the region, not translated, so pixel centres keep the whole frame's coordinates.
  ///
  /// - Parameters:
  ///   - tree: The root of the presentation tree.
  ///   - background: The background colour, or `nil` for transparent.
  ///   - placement: Points to pixels.
  ///   - image: The target image, holding the previous frame outside `region`.
  ///   - region: The pixels to draw (clipped to the image; nothing when none is inside), or
  ///     `nil` for all of them.
  /// - Throws: ``RenderError`` as the single-threaded call (the first band's error).
  public func drawFrame(
    _ tree: Layer, background: Color?, placement: FramePlacement, into image: ImageSurface,
    region: PixelRect?
  ) throws(RenderError) {
    let (width, height) = image.pixelSize
    let whole = PixelRect(x: 0, y: 0, width: width, height: height)
    let area: PixelRect
    if let region {
      guard let inside = region.clipped(toWidth: width, height: height) else { return }
      area = inside
    } else {
      area = whole
    }
    let bands = min(
      bandCount, area.height, max(1, area.area / max(1, minimumPixelsPerBand)))
    if bands == 1 && area == whole {
      try renderers[0].drawFrame(tree, background: background, placement: placement, into: image)
      return
    }
    if area == whole && (background?.alpha ?? 0) < 1 { image.clear() }
    let stride = image.bytesPerRow
    let errors = ErrorSlots(count: bands)
    image.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      let work = BandWork(
        base: base, area: area, frameHeight: area == whole ? nil : height, stride: stride,
        bands: bands, clearsFirst: area != whole && (background?.alpha ?? 0) < 1,
        renderers: renderers, tree: tree, background: background, placement: placement)
      DispatchQueue.concurrentPerform(iterations: bands) { band in
        do throws(RenderError) {
          try work.draw(band)
        } catch {
          errors.set(band, error)
        }
      }
    }
    if let error = errors.first { throw error }
  }
}

/// What the band threads share: the image memory (each band writes only its own rows of the
/// area), one renderer per band, and a tree they only read. Sendable by that discipline, which
/// ``BandedFrameRenderer/drawFrame(_:background:placement:into:region:)`` keeps: it waits for
/// every band before returning.
private struct BandWork: @unchecked Sendable {
  let base: UnsafeMutableRawPointer
  /// The pixels drawn.
  let area: PixelRect
  /// For a part of the frame, the frame's height: each band draws on a surface over the whole
  /// image, clipped to its rows of the area. `nil`: each band is a surface of its own rows.
  let frameHeight: Int?
  let stride: Int
  let bands: Int
  /// Clear each band before drawing (a part of a frame whose background is not opaque).
  let clearsFirst: Bool
  let renderers: [LayerRenderer]
  let tree: Layer
  let background: Color?
  let placement: FramePlacement

  /// Draws band `band`: the area's columns, and rows
  /// `area.y + area.height · band / bands ..< area.y + area.height · (band + 1) / bands`.
  func draw(_ band: Int) throws(RenderError) {
    let y0 = area.y + area.height * band / bands
    let y1 = area.y + area.height * (band + 1) / bands
    let surface: ImageSurface
    let context: CairoContext
    do {
      if let frameHeight {
        surface = try ImageSurface(
          unownedBytes: base, pixelWidth: area.x + area.width, pixelHeight: frameHeight,
          bytesPerRow: stride)
      } else {
        surface = try ImageSurface(
          unownedBytes: base + y0 * stride, pixelWidth: area.width, pixelHeight: y1 - y0,
          bytesPerRow: stride)
      }
      context = try CairoContext(surface: surface)
    } catch {
      throw RenderError(.invalidFrame, reason: "cannot draw into the frame (\(error))")
    }
    if frameHeight != nil {
      context.rectangle(
        x: Double(area.x), y: Double(y0), width: Double(area.width), height: Double(y1 - y0))
      context.clip()
      if clearsFirst {
        context.compositingOperator = .clear
        context.paint()
        context.compositingOperator = .over
      }
    } else {
      context.translate(x: 0, y: -Double(y0))
    }
    try renderers[band].drawFrame(tree, background: background, placement: placement, in: context)
    surface.flush()
  }
}

/// One error slot per band, written by the band's thread and read after all joined.
private final class ErrorSlots: @unchecked Sendable {
  private var slots: [RenderError?]
  private let lock = NSLock()

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ error: RenderError) {
    lock.lock()
    slots[index] = error
    lock.unlock()
  }

  var first: RenderError? {
    lock.lock()
    defer { lock.unlock() }
    return slots.compactMap { $0 }.first
  }
}
