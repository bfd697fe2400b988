import SwellCairo
import SwellGeometry

/// Paints a rotated linear gradient on an image target through a device-aligned image of it,
/// instead of through pixman's gradient (the physical water's depth gradient turns with
/// gravity, so on a tilted device its axis is neither vertical nor horizontal on screen).
///
/// pixman fills a gradient whose axis is vertical or horizontal in device space row by row,
/// but computes a rotated one pixel by pixel through its general compositing path: at
/// 1170×2532 that was about 70 % of the physical water's frame. Here the gradient's colours
/// are taken once from pixman itself (a ``tableSize``-entry table, painted as a horizontal
/// gradient with the same stops), each pixel of the shape's device bounding box is looked up
/// in it by its location along the axis at the pixel's centre (as pixman samples), and the
/// shape is filled from that image, which pixman composites on its fast path. The location
/// differs from pixman's by at most half a table entry (1/8192 of the axis), so colours match
/// pixman's gradient to within one level of 255.
///
/// Only for image targets (vector targets keep the gradient), with a transform that is not
/// singular; a gradient whose axis is vertical or horizontal on the device is left to pixman.
/// The image is kept and redrawn only when the gradient or the region changes. One instance
/// belongs to one ``LayerRenderer`` (not shared between threads).
package final class GradientRaster {
  /// The number of colours sampled along the gradient's axis.
  static let tableSize = 65_536

  private var table: (stops: [LinearGradientPattern.Stop], colors: [UInt32])?
  private var image: ImageSurface?
  private var drawn: Drawn?

  /// Creates an empty one (no table, no image).
  package init() {}

  /// What the image holds: the gradient's location function in device pixels and the region.
  private struct Drawn: Equatable {
    var t0: Double
    var tx: Double
    var ty: Double
    var x0: Int
    var y0: Int
    var width: Int
    var height: Int
    var stops: [LinearGradientPattern.Stop]
  }

  /// Sets the source to the gradient drawn into an image over the current path's device
  /// bounding box (within the clip), leaving the context's transform at the identity, when the
  /// target is an image and the gradient is rotated in device space.
  ///
  /// - Parameters:
  ///   - gradient: The gradient, in the context's current user space.
  ///   - cr: The context, its path set.
  /// - Returns: Whether the source was set; `false` leaves the context unchanged (set the
  ///   gradient itself).
  package func setSource(_ gradient: LinearGradientPattern, _ cr: CairoContext) -> Bool {
    guard let target = cr.surface as? ImageSurface,
      gradient.start.isFinite, gradient.end.isFinite, gradient.start != gradient.end,
      !gradient.stops.isEmpty
    else { return false }
    let m = cr.matrix
    let det = m.determinant
    guard det.isFinite, abs(det) > 1e-12 else { return false }
    // The location along the axis as a function of the device point p:
    // t(p) = (M⁻¹p − start)·d / |d|², with M the user-to-device matrix.
    let ixx = m.yy / det
    let ixy = -m.xy / det
    let iyx = -m.yx / det
    let iyy = m.xx / det
    let ix0 = -(ixx * m.x0 + ixy * m.y0)
    let iy0 = -(iyx * m.x0 + iyy * m.y0)
    let dx = gradient.end.x - gradient.start.x
    let dy = gradient.end.y - gradient.start.y
    let dd = dx * dx + dy * dy
    let tx = (ixx * dx + iyx * dy) / dd
    let ty = (ixy * dx + iyy * dy) / dd
    let t0 = ((ix0 - gradient.start.x) * dx + (iy0 - gradient.start.y) * dy) / dd
    guard tx != 0, ty != 0, tx.isFinite, ty.isFinite, t0.isFinite else { return false }
    // The region: the path's device extents within the clip and the target.
    cr.resetMatrix()
    let path = cr.pathExtents
    let clip = cr.clipExtents
    let minX = max(Int(max(path.minX, clip.minX).rounded(.down)), 0)
    let minY = max(Int(max(path.minY, clip.minY).rounded(.down)), 0)
    let maxX = min(Int(min(path.maxX, clip.maxX).rounded(.up)), target.pixelWidth)
    let maxY = min(Int(min(path.maxY, clip.maxY).rounded(.up)), target.pixelHeight)
    guard maxX > minX, maxY > minY, let colors = colors(for: gradient.stops),
      let image = image(width: maxX - minX, height: maxY - minY)
    else {
      try? cr.setMatrix(m)
      return false
    }
    let wanted = Drawn(
      t0: t0, tx: tx, ty: ty, x0: minX, y0: minY, width: maxX - minX, height: maxY - minY,
      stops: gradient.stops)
    if drawn != wanted {
      Self.fill(image, region: wanted, colors: colors)
      drawn = wanted
    }
    cr.setSource(image, x: Double(minX), y: Double(minY), filter: .nearest)
    return true
  }

  /// The gradient's colours at the centres of ``tableSize`` equal steps along its axis,
  /// premultiplied ARGB32 words, painted by pixman (cached for the last stops).
  private func colors(for stops: [LinearGradientPattern.Stop]) -> [UInt32]? {
    if let table, table.stops == stops { return table.colors }
    let n = Self.tableSize
    // Rows of `width` entries each (an image is at most 32767 pixels wide): entry i is the pixel
    // centre i + 0.5 along a gradient n pixels long.
    let width = 4096
    let rows = n / width
    guard let strip = try? ImageSurface(pixelWidth: width, pixelHeight: rows),
      let cr = try? CairoContext(surface: strip)
    else { return nil }
    for row in 0..<rows {
      let offset = Double(row * width)
      cr.setSource(
        LinearGradientPattern(
          start: Point(x: -offset, y: 0), end: Point(x: Double(n) - offset, y: 0), stops: stops))
      cr.rectangle(x: 0, y: Double(row), width: Double(width), height: 1)
      cr.fill()
    }
    let colors = strip.withFramePixels { frame in
      (0..<n).map {
        UInt32(
          littleEndian: frame.bytes.load(
            fromByteOffset: ($0 / width) * frame.bytesPerRow + 4 * ($0 % width), as: UInt32.self))
      }
    }
    table = (stops, colors)
    return colors
  }

  /// The kept image, grown to hold at least a region.
  private func image(width: Int, height: Int) -> ImageSurface? {
    if let image, image.pixelWidth >= width, image.pixelHeight >= height { return image }
    let w = max(width, image?.pixelWidth ?? 0)
    let h = max(height, image?.pixelHeight ?? 0)
    image = try? ImageSurface(pixelWidth: w, pixelHeight: h)
    drawn = nil
    return image
  }

  /// Writes the gradient's colour at every pixel centre of the region into the image's top-left
  /// corner: the table index is the location times ``tableSize``, rounded down and clamped to
  /// the table (pad), stepped along each row in 32.32 fixed point.
  private static func fill(_ image: ImageSurface, region r: Drawn, colors: [UInt32]) {
    let n = Double(colors.count)
    let last = Int64(colors.count - 1)
    let one = 4_294_967_296.0
    // Locations far outside 0...1 are clamped first, so the fixed-point values stay in range.
    let limit = 1e6
    let stride = image.bytesPerRow
    let step = Int64((min(max(r.tx * n, -limit), limit) * one).rounded())
    colors.withUnsafeBufferPointer { table in
      guard let lut = table.baseAddress else { return }
      image.withUnsafeMutableBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        for row in 0..<r.height {
          let py = Double(r.y0 + row) + 0.5
          let start = (r.t0 + r.ty * py + r.tx * (Double(r.x0) + 0.5)) * n
          var u = Int64((min(max(start, -limit), limit) * one).rounded(.down))
          let pixels = (base + row * stride).assumingMemoryBound(to: UInt32.self)
          for column in 0..<r.width {
            pixels[column] = lut[Int(min(max(u >> 32, 0), last))]
            u &+= step
          }
        }
      }
    }
  }
}

@available(*, unavailable)
extension GradientRaster: Sendable {}
