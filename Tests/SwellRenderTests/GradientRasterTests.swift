import Foundation
import SwellCairo
import SwellGeometry
import SwellLayers
import SwellRender
import Testing

/// The largest difference of any byte between two images of one size, and how many differ.
private func difference(_ a: ImageSurface, _ b: ImageSurface) -> (largest: Int, count: Int) {
  var largest = 0
  var count = 0
  a.withFramePixels { pa in
    b.withFramePixels { pb in
      for y in 0..<a.pixelHeight {
        for i in (y * pa.bytesPerRow)..<(y * pa.bytesPerRow + 4 * a.pixelWidth)
        where pa.bytes[i] != pb.bytes[i] {
          count += 1
          largest = max(largest, abs(Int(pa.bytes[i]) - Int(pb.bytes[i])))
        }
      }
    }
  }
  return (largest, count)
}

/// A 160 × 120 point scene: a turned group of an ellipse and a polygon filled with slanted
/// three-stop gradients (one translucent), the group at 70 % opacity.
private func slantedGradients(turn: Double) -> Layer {
  let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 160, height: 120))
  root.backgroundColor = Color(red: 0.95, green: 0.9, blue: 0.8)
  let group = Layer(name: "group", frame: Rect(x: 20, y: 10, width: 120, height: 100))
  group.setValue(.number(turn), forKeyPath: "transform.rotation.z")
  group.opacity = 0.7
  root.addSublayer(group)
  let stops = [
    GradientStop(location: 0, color: Color(red: 0.1, green: 0.45, blue: 0.92, alpha: 0.9)),
    GradientStop(location: 0.4, color: Color(red: 0.9, green: 0.2, blue: 0.3)),
    GradientStop(location: 1, color: Color(red: 0.02, green: 0.14, blue: 0.45)),
  ]
  let ellipse = ShapeLayer()
  ellipse.frame = Rect(x: 0, y: 0, width: 120, height: 60)
  ellipse.path = Path(ellipseIn: Rect(x: 0, y: 0, width: 120, height: 60))
  ellipse.fillGradient = LinearGradient(
    stops: stops, startPoint: Point(x: 0.1, y: 0.2), endPoint: Point(x: 0.8, y: 0.9))
  group.addSublayer(ellipse)
  let polygon = ShapeLayer()
  polygon.frame = Rect(x: 10, y: 40, width: 100, height: 60)
  var path = Path()
  path.move(to: Point(x: 0, y: 10))
  path.line(to: Point(x: 100, y: 0))
  path.line(to: Point(x: 90, y: 60))
  path.line(to: Point(x: 5, y: 50))
  path.close()
  polygon.path = path
  polygon.fillGradient = LinearGradient(
    stops: stops.map { GradientStop(location: $0.location, color: $0.color.withAlpha(0.6)) },
    startPoint: Point(x: 1, y: 0), endPoint: Point(x: 0, y: 1))
  group.addSublayer(polygon)
  return root
}

@Suite("Slanted gradients drawn through an image")
struct GradientRasterTests {
  /// The image route's pixels equal pixman's own gradient within one level of 255, at several
  /// turns (axis-aligned ones go to pixman either way) and scales, drawn whole and in bands.
  @Test(
    "a slanted gradient drawn through an image matches pixman's within 1/255",
    arguments: [0.0, 0.35, 1.2, .pi / 2, 2.6, -0.8], [1.0, 2.0, 3.0])
  func matchesPixman(turn: Double, scale: Double) throws {
    let tree = slantedGradients(turn: turn)
    let size = Size(width: 160, height: 120)
    let reference = LayerRenderer()
    reference.rastersRotatedGradients = false
    let expected = try reference.render(tree, size: size, scale: scale, background: .white)
    let fast = LayerRenderer()
    let drawn = try fast.render(tree, size: size, scale: scale, background: .white)
    let d = difference(drawn, expected)
    #expect(d.largest <= 1, "turn \(turn) scale \(scale): \(d.count) bytes differ")
    // Drawn twice (the image is kept) and in bands: the same pixels.
    let again = try fast.render(tree, size: size, scale: scale, background: .white)
    #expect(difference(again, drawn).count == 0)
    let banded = BandedFrameRenderer(bands: 3)
    banded.minimumPixelsPerBand = 1
    let bands = try ImageSurface(pixelWidth: drawn.pixelWidth, pixelHeight: drawn.pixelHeight)
    try banded.drawFrame(
      tree, background: .white, placement: FramePlacement(scale: scale), into: bands)
    #expect(difference(bands, expected).largest <= 1)
  }

  /// The image route is taken for a slanted axis on an image target, and only then.
  @Test func takenForSlantedAxesOnImagesOnly() throws {
    let stops = [
      LinearGradientPattern.Stop(location: 0, color: Color(red: 0, green: 0, blue: 1)),
      LinearGradientPattern.Stop(location: 1, color: Color(red: 1, green: 0, blue: 0)),
    ]
    func taken(_ end: Point, on surface: Surface) throws -> Bool {
      let cr = try CairoContext(surface: surface)
      cr.rectangle(x: 2, y: 3, width: 20, height: 10)
      let raster = GradientRaster()
      return raster.setSource(LinearGradientPattern(start: .zero, end: end, stops: stops), cr)
    }
    let image = try ImageSurface(pixelWidth: 30, pixelHeight: 20)
    #expect(try taken(Point(x: 20, y: 10), on: image))
    #expect(try !taken(Point(x: 0, y: 10), on: image))
    #expect(try !taken(Point(x: 20, y: 0), on: image))
    #expect(try !taken(.zero, on: image))
    let svg = try SVGSurface(width: 30, height: 20) { _ in true }
    #expect(try !taken(Point(x: 20, y: 10), on: svg))
    svg.finish()
  }

  /// A vector target keeps the gradient: the SVG names a linear gradient.
  @Test func vectorTargetsKeepTheGradient() throws {
    let tree = slantedGradients(turn: 0.35)
    tree.sublayers[0].opacity = 1
    var data = Data()
    let surface = try SVGSurface(width: 160, height: 120) { buffer in
      data.append(contentsOf: buffer)
      return true
    }
    try LayerRenderer().draw(tree, in: try CairoContext(surface: surface))
    surface.finish()
    let svg = String(decoding: data, as: UTF8.self)
    #expect(svg.contains("linearGradient"))
    #expect(!svg.contains("<image"))
  }
}
