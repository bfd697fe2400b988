import Foundation
import SwellCairo
import SwellGeometry
import SwellLayers
import SwellRender
import SwellTestSupport
import Testing

/// A water body as the wave scenes draw it: a polyline crest (level `level`, amplitude
/// `amplitude`, phase `phase`, `pieces` segments across `width`), then down the right side, along
/// the bottom at `bottom`, and up the left side.
private func waterPath(
  width: Double, level: Double, amplitude: Double, phase: Double, bottom: Double, pieces: Int = 24,
  curves: Bool = false
) -> Path {
  var path = Path()
  func y(_ x: Double) -> Double { level + amplitude * sin(2 * Double.pi * x / width + phase) }
  path.move(to: Point(x: 0, y: y(0)))
  for i in 1...pieces {
    let x = width * Double(i) / Double(pieces)
    if curves {
      let x0 = width * Double(i - 1) / Double(pieces)
      path.curve(
        to: Point(x: x, y: y(x)), control1: Point(x: x0 + (x - x0) / 3, y: y(x0 + (x - x0) / 3)),
        control2: Point(x: x0 + 2 * (x - x0) / 3, y: y(x0 + 2 * (x - x0) / 3)))
    } else {
      path.line(to: Point(x: x, y: y(x)))
    }
  }
  path.line(to: Point(x: width, y: bottom))
  path.line(to: Point(x: 0, y: bottom))
  path.close()
  return path
}

/// A root of `size` with a sky background and one shape layer per path, each filled with a
/// translucent colour or a screen-vertical gradient and turned by `angle` about its centre.
private func tree(
  size: Size, paths: [Path], angle: Double = 0, gradient: Bool = false,
  configure: (ShapeLayer, Int) -> Void = { _, _ in }
) -> Layer {
  let root = Layer()
  root.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
  root.position = Point(x: size.width / 2, y: size.height / 2)
  root.backgroundColor = Color(red: 0.85, green: 0.93, blue: 1)
  for (i, path) in paths.enumerated() {
    let shape = ShapeLayer()
    shape.bounds = root.bounds
    shape.position = root.position
    shape.transform = Transform3D(rotationAngle: angle, x: 0, y: 0, z: 1)
    shape.path = path
    if gradient {
      shape.fillGradient = .vertical(
        from: Color(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.8),
        to: Color(red: 0, green: 0.1, blue: 0.4), space: .screenVertical)
    } else {
      shape.fillColor = Color(red: 0.1 * Double(i), green: 0.4, blue: 0.8, alpha: 0.6)
    }
    shape.strokeColor = nil
    configure(shape, i)
    root.addSublayer(shape)
  }
  return root
}

/// The layer tree drawn whole into a new image.
private func render(_ root: Layer, placement: FramePlacement, pixels: (Int, Int)) throws
  -> ImageSurface
{
  let image = try ImageSurface(pixelWidth: pixels.0, pixelHeight: pixels.1)
  try LayerRenderer().drawFrame(root, background: nil, placement: placement, into: image)
  return image
}

/// The pixels where two images of one size differ.
private func differences(_ a: ImageSurface, _ b: ImageSurface) -> [(x: Int, y: Int)] {
  var out: [(x: Int, y: Int)] = []
  for y in 0..<a.pixelHeight {
    for x in 0..<a.pixelWidth where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
      out.append((x, y))
    }
  }
  return out
}

/// The largest difference of one channel of two pixels, levels of 255 (256 when one is missing).
func channelDistance(_ a: Pixel?, _ b: Pixel?) -> Int {
  guard let a, let b else { return 256 }
  let shifts: [UInt32] = [0, 8, 16, 24]
  return shifts.map { abs(Int((a.argb >> $0) & 0xFF) - Int((b.argb >> $0) & 0xFF)) }.max() ?? 0
}

@Suite("FrameDamage: what a frame must draw again over the one before")
private struct FrameDamageTests {
  let size = Size(width: 120, height: 200)

  @Test(
    "a pixel rectangle clipped to a frame",
    arguments: [
      (PixelRect(x: -3, y: 2, width: 10, height: 5), PixelRect(x: 0, y: 2, width: 7, height: 5)),
      (PixelRect(x: 5, y: 6, width: 10, height: 10), PixelRect(x: 5, y: 6, width: 3, height: 4)),
      (PixelRect(x: 1, y: 1, width: 2, height: 2), PixelRect(x: 1, y: 1, width: 2, height: 2)),
    ])
  func clipped(rect: PixelRect, expected: PixelRect) {
    #expect(rect.clipped(toWidth: 8, height: 10) == expected)
  }

  @Test("a pixel rectangle outside the frame, or empty, clips to nothing")
  func clippedAway() {
    #expect(PixelRect(x: 8, y: 0, width: 4, height: 4).clipped(toWidth: 8, height: 10) == nil)
    #expect(PixelRect(x: 0, y: -5, width: 4, height: 5).clipped(toWidth: 8, height: 10) == nil)
    #expect(PixelRect(x: 2, y: 2, width: 0, height: 3).clipped(toWidth: 8, height: 10) == nil)
  }

  @Test("the same tree, and a change inside a hidden layer, damage nothing")
  func nothing() {
    let path = waterPath(width: 120, level: 100, amplitude: 8, phase: 0, bottom: 200)
    let a = tree(size: size, paths: [path])
    let b = tree(size: size, paths: [path])
    let placement = FramePlacement(scale: 2)
    #expect(
      FrameDamage.between(a, b, placement: placement, pixelWidth: 240, pixelHeight: 400) == .none)
    let moved = waterPath(width: 120, level: 100, amplitude: 8, phase: 1, bottom: 200)
    let hiddenOld = tree(size: size, paths: [path]) { s, _ in s.isHidden = true }
    let hiddenNew = tree(size: size, paths: [moved]) { s, _ in s.isHidden = true }
    #expect(
      FrameDamage.between(
        hiddenOld, hiddenNew, placement: placement, pixelWidth: 240, pixelHeight: 400)
        == .none)
  }

  @Test(
    "a crest that moves damages its band, whole pixels plus 2 for antialiasing, across the width",
    arguments: [1.0, 2.0, 3.0])
  func crestBand(scale: Double) {
    let old = waterPath(width: 120, level: 100, amplitude: 8, phase: 0, bottom: 200)
    let new = waterPath(width: 120, level: 100, amplitude: 8, phase: 0.7, bottom: 200)
    let damage = FrameDamage.between(
      tree(size: size, paths: [old]), tree(size: size, paths: [new]),
      placement: FramePlacement(scale: scale), pixelWidth: Int(120 * scale),
      pixelHeight: Int(200 * scale))
    // The crest's points of both phases span the level ± amplitude at most; the sides' moved
    // parts lie within that band, the bottom did not move.
    let ys = (0...24).flatMap { i -> [Double] in
      let x = 120 * Double(i) / 24
      return [0, 0.7].map { 100 + 8 * sin(2 * Double.pi * x / 120 + $0) }
    }
    let top = Int((ys.min()! * scale - 2).rounded(.down))
    let bottom = Int((ys.max()! * scale + 2).rounded(.up))
    #expect(
      damage
        == .region(PixelRect(x: 0, y: top, width: Int(120 * scale), height: bottom - top)))
  }

  @Test(
    "colour, gradient, transform, stroke, translucent parents and a new layer damage the whole frame"
  )
  func whole() {
    let path = waterPath(width: 120, level: 100, amplitude: 8, phase: 0, bottom: 200)
    let moved = waterPath(width: 120, level: 100, amplitude: 8, phase: 1, bottom: 200)
    let base = tree(size: size, paths: [path])
    let placement = FramePlacement(scale: 1)
    func damage(_ other: Layer, from old: Layer? = nil) -> FrameDamage {
      FrameDamage.between(
        old ?? base, other, placement: placement, pixelWidth: 120, pixelHeight: 200)
    }
    #expect(damage(tree(size: size, paths: [path]) { s, _ in s.fillColor = .black }) == .full)
    #expect(damage(tree(size: size, paths: [path], gradient: true)) == .full)
    #expect(damage(tree(size: size, paths: [path], angle: 0.01)) == .full)
    #expect(damage(tree(size: size, paths: [path, path])) == .full)
    let stroked = { (s: ShapeLayer, _: Int) in s.strokeColor = .black }
    #expect(
      damage(
        tree(size: size, paths: [moved], configure: stroked),
        from: tree(size: size, paths: [path], configure: stroked))
        == .full)
    let faint = tree(size: size, paths: [path])
    faint.opacity = 0.5
    let faintMoved = tree(size: size, paths: [moved])
    faintMoved.opacity = 0.5
    #expect(damage(faintMoved, from: faint) == .full)
    // A non-finite point has no bounded damage.
    var broken = moved
    broken.line(to: Point(x: .nan, y: 0))
    var brokenOld = path
    brokenOld.line(to: Point(x: 0, y: 0))
    #expect(
      damage(tree(size: size, paths: [broken]), from: tree(size: size, paths: [brokenOld])) == .full
    )
  }

  /// Seeded random water bodies (lines or curves, solid or gradient fills, turned, scaled,
  /// several layers), moved as a wave moves (phase, level, amplitude, or one point): every pixel
  /// that differs between the two frames drawn whole lies in the damaged region, and drawing
  /// the new frame over the old one in the region gives the new frame, within one level of 255
  /// on at most 2 % of the region's pixels or 2 of its rows (a gradient's row that pixman
  /// rounds the other way).
  @Test(
    "random moves: the region holds every changed pixel, and drawn over the old frame gives the new one",
    arguments: 0..<24)
  func randomMoves(seed: UInt64) throws {
    var g = SplitMix64(seed: 0xDA_0000 + seed)
    let scale = [1.0, 1.5, 2.0, 2.5].randomElement(using: &g)!
    let angle = Bool.random(using: &g) ? 0 : Double.random(in: -0.6...0.6, using: &g)
    let curves = Bool.random(using: &g)
    let gradient = Bool.random(using: &g)
    let layers = Int.random(in: 1...3, using: &g)
    var old: [Path] = []
    var new: [Path] = []
    for _ in 0..<layers {
      let level = Double.random(in: 40...160, using: &g)
      let amplitude = Double.random(in: 0...15, using: &g)
      let phase = Double.random(in: 0...6, using: &g)
      old.append(
        waterPath(
          width: 120, level: level, amplitude: amplitude, phase: phase, bottom: 200, curves: curves)
      )
      switch Int.random(in: 0..<4, using: &g) {
      case 0:
        new.append(
          waterPath(
            width: 120, level: level, amplitude: amplitude,
            phase: phase + Double.random(in: 0.01...0.5, using: &g), bottom: 200, curves: curves))
      case 1:
        new.append(
          waterPath(
            width: 120, level: level + Double.random(in: -6...6, using: &g), amplitude: amplitude,
            phase: phase, bottom: 200, curves: curves))
      case 2:
        new.append(
          waterPath(
            width: 120, level: level,
            amplitude: amplitude * Double.random(in: 0.5...1.5, using: &g),
            phase: phase, bottom: 200, curves: curves))
      default:
        new.append(old.last!)
      }
    }
    let a = tree(size: size, paths: old, angle: angle, gradient: gradient)
    let b = tree(size: size, paths: new, angle: angle, gradient: gradient)
    let pixels = (Int(120 * scale), Int(200 * scale))
    let placement = FramePlacement(scale: scale)
    let before = try render(a, placement: placement, pixels: pixels)
    let after = try render(b, placement: placement, pixels: pixels)
    let changed = differences(before, after)
    let damage = FrameDamage.between(
      a, b, placement: placement, pixelWidth: pixels.0, pixelHeight: pixels.1)
    switch damage {
    case .none:
      #expect(changed.isEmpty)
    case .full:
      // Allowed (a region past 60 % of the frame); the frame is drawn whole.
      break
    case .region(let r):
      let outside = changed.filter {
        $0.x < r.x || $0.x >= r.x + r.width || $0.y < r.y || $0.y >= r.y + r.height
      }
      #expect(outside.isEmpty, "\(outside.count) changed pixels outside \(r)")
      let renderer = BandedFrameRenderer(bands: 2)
      renderer.minimumPixelsPerBand = 1
      try renderer.drawFrame(b, background: nil, placement: placement, into: before, region: r)
      // Within one level of 255, on a few pixels: Cairo clips an outline to the region before
      // it rasterizes, which moves where it starts stepping along a slanted or curved edge.
      let diff = differences(before, after)
      let worst =
        diff.map { channelDistance(before.pixel(x: $0.x, y: $0.y), after.pixel(x: $0.x, y: $0.y)) }
        .max() ?? 0
      #expect(worst <= 1, "region \(r): a pixel \(worst) levels off")
      let rows = Set(diff.map(\.y)).count
      #expect(diff.count * 50 <= r.area || rows <= 2, "region \(r): \(diff.count) pixels differ")
    }
  }

  @Test("random moves damage a region, not the whole frame, when no more than the crest moved")
  func regionsAreUsed() {
    var regions = 0
    for seed in 0..<40 {
      var g = SplitMix64(seed: 0xBE_0000 + UInt64(seed))
      let phase = Double.random(in: 0...6, using: &g)
      let a = waterPath(
        width: 120, level: 120, amplitude: 10, phase: phase, bottom: 200, curves: true)
      let b = waterPath(
        width: 120, level: 120, amplitude: 10, phase: phase + 0.3, bottom: 200, curves: true)
      let damage = FrameDamage.between(
        tree(size: size, paths: [a], angle: Double.random(in: -0.2...0.2, using: &g)),
        tree(size: size, paths: [b], angle: 0), placement: FramePlacement(scale: 2),
        pixelWidth: 240, pixelHeight: 400)
      // Different angles: a transform change, the whole frame.
      #expect(damage == .full)
      let same = FrameDamage.between(
        tree(size: size, paths: [a]), tree(size: size, paths: [b]),
        placement: FramePlacement(scale: 2),
        pixelWidth: 240, pixelHeight: 400)
      if case .region(let r) = same, r.area < 240 * 400 / 5 { regions += 1 }
    }
    #expect(regions == 40)
  }
}
