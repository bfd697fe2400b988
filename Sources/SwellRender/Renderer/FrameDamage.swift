import SwellGeometry
import SwellLayers

/// A rectangle of whole pixels in a frame buffer: columns `x ..< x + width`, rows
/// `y ..< y + height`, (0, 0) the top-left pixel.
public struct PixelRect: Hashable, Sendable {
  /// The left column, pixels.
  public var x: Int
  /// The top row, pixels.
  public var y: Int
  /// The width, pixels (at least 1).
  public var width: Int
  /// The height, pixels (at least 1).
  public var height: Int

  /// Creates a rectangle.
  ///
  /// - Parameters:
  ///   - x: The left column, pixels.
  ///   - y: The top row, pixels.
  ///   - width: The width, pixels.
  ///   - height: The height, pixels.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The number of pixels covered.
  public var area: Int { width * height }

  /// The part of the rectangle inside a `width` × `height` frame, or `nil` when none is.
  ///
  /// - Parameters:
  ///   - width: The frame's width, pixels.
  ///   - height: The frame's height, pixels.
  /// - Returns: The clipped rectangle.
  public func clipped(toWidth width: Int, height: Int) -> PixelRect? {
    let x0 = max(0, x)
    let y0 = max(0, y)
    let x1 = min(width, x + self.width)
    let y1 = min(height, y + self.height)
    guard x1 > x0, y1 > y0 else { return nil }
    return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}

/// What changed between two frames of the same layer tree, in pixels: the region a renderer must
/// draw again, over the previous frame's pixels, to get the new frame exactly.
///
/// ``between(_:_:placement:pixelWidth:pixelHeight:)`` compares two presentation trees layer by
/// layer. A change of anything but a shape's path (position, bounds, transform, opacity,
/// colours, gradients, the tree's shape, an image) is a ``full`` change: those can move pixels
/// anywhere. A path that changed damages only where its outline moved: the pixels whose fill
/// differs lie inside the bounding box of the parts of the two outlines that differ, because a
/// point's winding number (under either fill rule) changes only across an edge one path has and
/// the other lacks, and a bounded region lies within the box of its boundary (so the
/// damage is one box, not one per moved piece). A line that keeps one end and its direction,
/// vertical or horizontal on screen (the side of a level wave's water body, whose top moves with
/// the crest), damages only the part between its two other ends; a slanted one damages its whole
/// box, as Cairo steps along a slanted edge from its start. The box is mapped through the layer's
/// transform to pixels and widened by 2 pixels for antialiasing. Stroked paths, paths under
/// perspective and layers drawn through a group are treated as ``full``.
///
/// A moving water surface (the classic water wave at rest) damages a band a few wave heights
/// tall instead of the whole frame: drawing it and showing it cost a fraction of a full frame
/// (`docs/live.md`).
public enum FrameDamage: Hashable, Sendable {
  /// Nothing visible changed.
  case none
  /// Only this rectangle changed.
  case region(PixelRect)
  /// Anything may have changed: draw the whole frame.
  case full

  /// Past this share of the frame's pixels a region is reported as ``full``: drawing a region
  /// costs about what drawing the frame does.
  public static let fullShare = 0.6

  /// The pixels added on every side of a damaged box, for antialiased edges.
  public static let antialiasMargin = 2

  /// The damage between two presentation trees of the same scene drawn with the same placement.
  ///
  /// - Parameters:
  ///   - old: The tree of the frame on screen.
  ///   - new: The tree of the frame to draw.
  ///   - placement: Points to pixels, for both frames.
  ///   - pixelWidth: The frame's width, pixels.
  ///   - pixelHeight: The frame's height, pixels.
  /// - Returns: ``none``, a ``region(_:)`` inside the frame, or ``full``.
  public static func between(
    _ old: Layer, _ new: Layer, placement: FramePlacement, pixelWidth: Int, pixelHeight: Int
  ) -> FrameDamage {
    guard pixelWidth > 0, pixelHeight > 0, placement.scale.isFinite, placement.scale > 0 else {
      return .full
    }
    let base = AffineTransform(
      a: placement.scale, b: 0, c: 0, d: placement.scale, tx: placement.offset.x,
      ty: placement.offset.y)
    var box = DamageBox()
    guard compare(old, new, parent: .identity, base: base, grouped: false, into: &box) else {
      return .full
    }
    guard let rect = box.pixels(width: pixelWidth, height: pixelHeight) else { return .none }
    if Double(rect.area) > fullShare * Double(pixelWidth * pixelHeight) { return .full }
    return .region(rect)
  }

  /// The flattening into the superlayer's plane, as ``LayerRenderer`` draws.
  private static let flatten = Transform3D(scaleX: 1, y: 1, z: 0)

  /// Adds the damage of `new` over `old` (and their sublayers) to `box`; `false` for a change
  /// that is not a path's. `grouped`: an ancestor has an opacity below 1 (it may be composited
  /// as a group).
  private static func compare(
    _ old: Layer, _ new: Layer, parent: Transform3D, base: AffineTransform, grouped: Bool,
    into box: inout DamageBox
  ) -> Bool {
    guard type(of: old) == type(of: new), sameAppearance(old, new),
      old.sublayers.count == new.sublayers.count
    else { return false }
    // Not drawn, then or now: nothing below it shows.
    guard !new.isHidden, new.opacity.isFinite, new.opacity > 0 else { return true }
    let toCanvas = new.transformToSuperlayer.concatenating(flatten).concatenating(parent)
    let translucent = grouped || new.opacity < 1
    if case .shape(let a) = old.drawnContent, case .shape(let b) = new.drawnContent,
      a.path != b.path
    {
      // Under an opacity below 1 (a group, perhaps) or stroked: the whole frame.
      let stroked = (b.strokeColor?.alpha ?? 0) > 0 && b.lineWidth > 0
      guard !stroked, !translucent,
        toCanvas.rowMajor.allSatisfy(\.isFinite),
        let affine = PlaneMapping(toCanvas).affine?.concatenating(base),
        let changed = PathDamage.boxes(a.path ?? Path(), b.path ?? Path(), drawnThrough: affine)
      else { return false }
      for rect in changed { box.add(rect, through: affine) }
    }
    // Sublayers are ordered by zPosition when drawn; the same order on both sides, as their
    // zPositions are compared.
    for (o, n) in zip(old.sublayers, new.sublayers) {
      guard compare(o, n, parent: toCanvas, base: base, grouped: translucent, into: &box) else {
        return false
      }
    }
    return true
  }

  /// Everything a layer draws with, but its path and its sublayers.
  private static func sameAppearance(_ a: Layer, _ b: Layer) -> Bool {
    guard a.position == b.position, a.bounds == b.bounds, a.anchorPoint == b.anchorPoint,
      a.transform == b.transform, a.opacity == b.opacity, a.isHidden == b.isHidden,
      a.backgroundColor == b.backgroundColor, a.cornerRadius == b.cornerRadius,
      a.borderWidth == b.borderWidth, a.borderColor == b.borderColor,
      a.masksToBounds == b.masksToBounds, a.zPosition == b.zPosition,
      a.contentsScale == b.contentsScale
    else { return false }
    switch (a.drawnContent, b.drawnContent) {
    case (.none, .none):
      return true
    case (.shape(let s), .shape(let t)):
      return s.fillColor == t.fillColor && s.fillGradient == t.fillGradient
        && s.fillRule == t.fillRule && s.strokeColor == t.strokeColor && s.lineWidth == t.lineWidth
    case (.image(let s), .image(let t)):
      return s.imagePath == t.imagePath && s.gravity == t.gravity
    default:
      return false
    }
  }
}

/// The union of damaged boxes, in device pixels (fractional until rounded out).
private struct DamageBox {
  var minX = Double.infinity
  var minY = Double.infinity
  var maxX = -Double.infinity
  var maxY = -Double.infinity

  /// Adds a box of a layer's plane, mapped through an affine transform to device pixels.
  mutating func add(_ rect: Rect, through t: AffineTransform) {
    let corners = [
      Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
      Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY),
    ]
    for c in corners {
      let p = t.apply(to: c)
      guard p.x.isFinite, p.y.isFinite else {
        minX = -.infinity
        minY = -.infinity
        maxX = .infinity
        maxY = .infinity
        return
      }
      minX = min(minX, p.x)
      minY = min(minY, p.y)
      maxX = max(maxX, p.x)
      maxY = max(maxY, p.y)
    }
  }

  /// The whole pixels covering the box, widened for antialiasing and clipped to the frame;
  /// `nil` when empty or outside the frame.
  func pixels(width: Int, height: Int) -> PixelRect? {
    guard minX <= maxX, minY <= maxY else { return nil }
    let m = Double(FrameDamage.antialiasMargin)
    let x0 = max(0, min(Double(width), (minX - m).rounded(.down)))
    let y0 = max(0, min(Double(height), (minY - m).rounded(.down)))
    let x1 = max(0, min(Double(width), (maxX + m).rounded(.up)))
    let y1 = max(0, min(Double(height), (maxY + m).rounded(.up)))
    guard x1 > x0, y1 > y0 else { return nil }
    return PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
  }
}

/// Where two paths' outlines differ, as boxes of the layer's plane.
enum PathDamage {
  /// One drawn piece of a path: a line or curve from `start` to `end` (a `close` is the line
  /// back to its subpath's start; a `move` draws nothing but starts the next piece).
  private struct Piece: Equatable {
    var start: Point
    var control1: Point?
    var control2: Point?
    var end: Point
    var isMove: Bool
  }

  private static func pieces(_ path: Path) -> [Piece] {
    var out: [Piece] = []
    out.reserveCapacity(path.elements.count)
    var current = Point.zero
    var subpathStart = Point.zero
    for element in path.elements {
      switch element {
      case .move(let p):
        out.append(Piece(start: current, end: p, isMove: true))
        current = p
        subpathStart = p
      case .line(let p):
        out.append(Piece(start: current, end: p, isMove: false))
        current = p
      case .curve(let p, let c1, let c2):
        out.append(Piece(start: current, control1: c1, control2: c2, end: p, isMove: false))
        current = p
      case .close:
        out.append(Piece(start: current, end: subpathStart, isMove: false))
        current = subpathStart
      }
    }
    return out
  }

  /// The box that holds every point whose fill differs between `old` and `new`: `[]` when
  /// their outlines are the same, `nil` when it has no finite bound (a non-finite point).
  ///
  /// Where the two winding numbers differ is a bounded region whose edges are the pieces one
  /// path has and the other lacks, so it lies in their box (one box: a region bounded by pieces
  /// from several boxes need not lie in any one of them).
  ///
  /// - Parameters:
  ///   - old: The path drawn before.
  ///   - new: The path drawn now.
  ///   - device: The layer's transform to device pixels (a side counts as moved only in part
  ///     when it is vertical or horizontal there: Cairo steps along a slanted edge from its
  ///     start, so a slanted side whose start moved may change pixels all along it by a level).
  /// - Returns: At most one box of the layer's plane.
  static func boxes(_ old: Path, _ new: Path, drawnThrough device: AffineTransform) -> [Rect]? {
    let a = pieces(old)
    let b = pieces(new)
    var points: [Point] = []
    if a.count == b.count, zip(a, b).allSatisfy({ $0.isMove == $1.isMove }) {
      for (p, q) in zip(a, b) where !p.isMove && p != q {
        // A side that kept one end and its direction: only the part between its moved ends.
        points += movedPart(p, q, device) ?? (outline(p) + outline(q))
      }
    } else {
      // Different shapes: both outlines whole.
      for p in a + b where !p.isMove { points += outline(p) }
    }
    guard !points.isEmpty else { return [] }
    return box(points).map { [$0] }
  }

  /// The points whose convex hull holds a piece (a Bézier curve lies in its control polygon's).
  private static func outline(_ p: Piece) -> [Point] {
    [p.start, p.end] + [p.control1, p.control2].compactMap { $0 }
  }

  /// For two straight pieces that share one end and lie on the same ray from it, vertical or
  /// horizontal in device space, the segment between their other ends (the only points one has
  /// and the other lacks); else `nil`.
  private static func movedPart(_ p: Piece, _ q: Piece, _ device: AffineTransform) -> [Point]? {
    guard p.control1 == nil, q.control1 == nil else { return nil }
    let shared: Point
    let a: Point
    let b: Point
    if p.end == q.end {
      (shared, a, b) = (p.end, p.start, q.start)
    } else if p.start == q.start {
      (shared, a, b) = (p.start, p.end, q.end)
    } else {
      return nil
    }
    let u = Point(x: a.x - shared.x, y: a.y - shared.y)
    let v = Point(x: b.x - shared.x, y: b.y - shared.y)
    // Exactly collinear and pointing the same way (vertical and horizontal sides are exact).
    guard u.x * v.y - u.y * v.x == 0, u.x * v.x + u.y * v.y > 0 else { return nil }
    let (ds, da, db) = (device.apply(to: shared), device.apply(to: a), device.apply(to: b))
    let vertical = ds.x == da.x && ds.x == db.x
    let horizontal = ds.y == da.y && ds.y == db.y
    guard vertical || horizontal else { return nil }
    return [a, b]
  }

  /// The bounding box of points, or `nil` for none or a non-finite one.
  private static func box(_ points: [Point]) -> Rect? {
    guard let first = points.first else { return nil }
    var minX = first.x
    var minY = first.y
    var maxX = first.x
    var maxY = first.y
    for p in points {
      guard p.x.isFinite, p.y.isFinite else { return nil }
      minX = min(minX, p.x)
      minY = min(minY, p.y)
      maxX = max(maxX, p.x)
      maxY = max(maxY, p.y)
    }
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }
}
