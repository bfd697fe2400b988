import SwellCairo
import SwellGeometry

/// Paints a rotated linear gradient on an image target through a device-aligned image of it,
/// instead of through pixman's gradient (the physical water's depth gradient turns with
/// gravity, so on a tilted device its axis is neither vertical nor horizontal on screen).
///
/// pixman fills a gradient whose axis is vertical or horizontal in device space row by row,
/// but computes a rotated one pixel by pixel through its general compositing path: at
/// 1170×2532 that was about 80 % of the physical water's frame. Here the gradient's colours
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

  private var table: (stops: [LinearGradientPattern.Stop], table: Table)?
  private var image: ImageSurface?
  private var drawn: Drawn?

  /// Creates an empty one (no table, no image).
  package init() {}

  /// The gradient's colours along its axis, and where each colour's run in the table ends.
  struct Table {
    /// Premultiplied ARGB32 words, ``tableSize`` of them.
    var colors: [UInt32]
    /// For each entry, the next entry of another colour (the table's size when there is none).
    var next: [Int64]
    /// For each entry, the previous entry of another colour (−1 when there is none).
    var previous: [Int64]

    /// The runs of a table of colours.
    init(colors: [UInt32]) {
      self.colors = colors
      let n = colors.count
      next = Array(repeating: Int64(n), count: n)
      previous = Array(repeating: -1, count: n)
      for i in stride(from: n - 2, through: 0, by: -1) {
        next[i] = colors[i + 1] != colors[i] ? Int64(i + 1) : next[i + 1]
      }
      for i in 1..<max(n, 1) {
        previous[i] = colors[i - 1] != colors[i] ? Int64(i - 1) : previous[i - 1]
      }
    }
  }

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
    guard let target = cr.surface.imageSurface,
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
    guard maxX > minX, maxY > minY, let table = table(for: gradient.stops),
      let image = image(width: maxX - minX, height: maxY - minY)
    else {
      try? cr.setMatrix(m)
      return false
    }
    let wanted = Drawn(
      t0: t0, tx: tx, ty: ty, x0: minX, y0: minY, width: maxX - minX, height: maxY - minY,
      stops: gradient.stops)
    if drawn != wanted {
      Self.fill(image, region: wanted, table: table)
      drawn = wanted
    }
    cr.setSource(image, x: Double(minX), y: Double(minY), filter: .nearest)
    return true
  }

  /// The gradient's colours at the centres of ``tableSize`` equal steps along its axis,
  /// premultiplied ARGB32 words, painted by pixman (cached for the last stops).
  private func table(for stops: [LinearGradientPattern.Stop]) -> Table? {
    if let table, table.stops == stops { return table.table }
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
    let made = Table(colors: colors)
    table = (stops, made)
    return made
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
  /// The columns `c` of a row, within `0..<width`, where the table index `start + c·step` stays
  /// a column's step plus one inside the table `0...last`, so the fixed-point index needs no
  /// clamping there (a range that may be empty).
  static func insideColumns(start: Double, step: Double, last: Double, width: Int) -> Range<Int> {
    guard step.isFinite, start.isFinite, width > 0 else { return 0..<0 }
    let margin = abs(step) + 1
    let low: Double
    let high: Double
    if step > 0 {
      low = (margin - start) / step
      high = (last - margin - start) / step
    } else if step < 0 {
      low = (last - margin - start) / step
      high = (margin - start) / step
    } else {
      return start >= margin && start <= last - margin ? 0..<width : 0..<0
    }
    let a = Int(min(max(low.rounded(.up), 0), Double(width)))
    let b = Int(min(max(high.rounded(.down) + 1, 0), Double(width)))
    return a < b ? a..<b : a..<a
  }

  private static func fill(_ image: ImageSurface, region r: Drawn, table: Table) {
    let n = Double(table.colors.count)
    let last = Int64(table.colors.count - 1)
    let one = 4_294_967_296.0
    // Locations far outside 0...1 are clamped first, so the fixed-point values stay in range.
    let limit = 1e6
    let stride = image.bytesPerRow
    let step = Int64((min(max(r.tx * n, -limit), limit) * one).rounded())
    table.colors.withUnsafeBufferPointer { colors in
      table.next.withUnsafeBufferPointer { next in
        table.previous.withUnsafeBufferPointer { previous in
          guard let lut = colors.baseAddress, let next = next.baseAddress,
            let previous = previous.baseAddress
          else { return }
          image.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            for row in 0..<r.height {
              let py = Double(r.y0 + row) + 0.5
              let start = (r.t0 + r.ty * py + r.tx * (Double(r.x0) + 0.5)) * n
              var u = Int64((min(max(start, -limit), limit) * one).rounded(.down))
              let pixels = (base + row * stride).assumingMemoryBound(to: UInt32.self)
              // The columns whose index is inside the table with a column to spare on each
              // side need no clamping; there each run of one colour is written at once.
              let inside = Self.insideColumns(
                start: start, step: r.tx * n, last: Double(last), width: r.width)
              var column = 0
              while column < inside.lowerBound {
                pixels[column] = lut[Int(min(max(u >> 32, 0), last))]
                u &+= step
                column += 1
              }
              while column < inside.upperBound {
                let i = Int(truncatingIfNeeded: u >> 32)
                // The columns before the index reaches the next colour's entry.
                var count: Int64
                if step > 0 {
                  count = ((next[i] << 32) - u + step - 1) / step
                } else if step < 0 {
                  count = (u - ((previous[i] + 1) << 32)) / -step + 1
                } else {
                  count = Int64(inside.upperBound - column)
                }
                let k = Int(min(max(count, 1), Int64(inside.upperBound - column)))
                (pixels + column).initialize(repeating: lut[i], count: k)
                u &+= Int64(k) &* step
                column += k
              }
              while column < r.width {
                pixels[column] = lut[Int(min(max(u >> 32, 0), last))]
                u &+= step
                column += 1
              }
            }
          }
        }
      }
    }
  }
}

@available(*, unavailable)
extension GradientRaster: Sendable {}
