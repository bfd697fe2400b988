import Foundation
import SwellGeometry
import SwellLayers
import SwellWaves

extension SceneFile {
  /// The built-in `glass` scene for the 390 × 844 @3x canvas (``glass(width:height:scale:)``).
  public static var glass: SceneFile { glass(width: 390, height: 844, scale: 3) }

  /// The built-in `glass` scene as a scene file: a round-bottomed glass, half full, on a
  /// wooden table against a warm wall, its water the `physical` response
  /// (`SwellWaves/WaterBody`; docs/waterwave.md, "Physical water").
  ///
  /// The glass is laid out for the canvas: on a 390 × 844 canvas its inside is 180 points wide
  /// and 330 tall (straight sides 240 points, then a half circle of radius 90), standing on a
  /// table whose top is 204 points above the bottom edge; on other canvases everything is
  /// scaled by `min(width / 390, height / 844)` and centred, the wall and table spanning the
  /// width. The water (`water`): the inside of the glass as its container, 7 cm wide (a real
  /// tumbler, so it sloshes at about 3.3 Hz) and open at the top (turned over it pours over its
  /// rim, and it refills upright), half of its area full, damping ratio 0.03, three
  /// small ripples riding on the surface, back to front; the trace adds `water.surface.angle`
  /// and `water.volume` to the usual columns.
  ///
  /// - Parameters:
  ///   - width: The canvas width, points.
  ///   - height: The canvas height, points.
  ///   - scale: Pixels per point.
  /// - Returns: The scene.
  public static func glass(width: Double, height: Double, scale: Double) -> SceneFile {
    func color(_ hex: String) -> ColorSpec { ColorSpec.hex(hex) ?? ColorSpec(.black) }
    func n(_ v: Double) -> String { String(format: "%.3f", v) }
    let k = min(width / 390, height / 844)
    let ox = (width - 390 * k) / 2
    let tableTop = height - 204 * k
    // The glass's inside: 180 × 330 design points, its bottom 12 points above the table.
    let inner = Rect(
      x: ox + 105 * k, y: tableTop - 342 * k, width: 180 * k, height: 330 * k)
    let r = 90 * k
    let side = 240 * k
    let insideData =
      "M 0 0 L 0 \(n(side)) A \(n(r)) \(n(r)) 0 0 0 \(n(2 * r)) \(n(side)) L \(n(2 * r)) 0 Z"
    // The glass's outside: 8 points of wall, a flat foot on the table.
    let wall = 8 * k
    let outer = Rect(
      x: inner.minX - wall, y: inner.minY - 4 * k, width: inner.width + 2 * wall,
      height: tableTop - inner.minY + 4 * k)
    let outerRadius = r + wall
    let footHalf = 58 * k
    let outerSide = side + 4 * k
    // The bottom's curves: from the sides' ends to the foot's ends, control points below.
    let bulge = n(outerSide + outerRadius * 0.75)
    let footLeft = n(outerRadius - footHalf)
    let footRight = n(outerRadius + footHalf)
    let bottom = n(outer.height)
    let right = n(2 * outerRadius)
    let outerData =
      "M 0 0 L 0 \(n(outerSide)) "
      + "C 0 \(bulge) \(footLeft) \(bottom) \(footLeft) \(bottom) "
      + "L \(footRight) \(bottom) "
      + "C \(footRight) \(bottom) \(right) \(bulge) \(right) \(n(outerSide)) "
      + "L \(right) 0 Z"

    var wallLayer = LayerSpec(type: .shape, name: "wall", frame: [0, 0, width, tableTop])
    wallLayer.fill = .gradient(
      LinearGradient.vertical(from: color("#F6F0E6").color, to: color("#DCCFBD").color))
    var table = LayerSpec(
      type: .shape, name: "table", frame: [0, tableTop, width, height - tableTop])
    table.fill = .gradient(
      LinearGradient.vertical(from: color("#A8703F").color, to: color("#6B4223").color))
    var edge = LayerSpec(type: .shape, name: "table-edge", frame: [0, tableTop, width, 5 * k])
    edge.fill = .color(color("#C48A57"))
    var shadow = LayerSpec(
      type: .shape, name: "shadow",
      frame: [outer.minX - 14 * k, tableTop - 6 * k, outer.width + 28 * k, 22 * k])
    shadow.shape = .ellipse
    shadow.fill = .color(color("#3A22102E"))

    var glassBack = LayerSpec(
      type: .shape, name: "glass", frame: [outer.minX, outer.minY, outer.width, outer.height])
    glassBack.shape = ShapeSpec.pathData(Self.svgPath(outerData))
    glassBack.fill = .color(color("#FFFFFF38"))
    glassBack.stroke = color("#9DB3C4B3")
    glassBack.lineWidth = 1.5 * k

    var response = WaterResponseSpec()
    response.model = .physical
    response.dampingRatio = 0.03
    response.rotationCoupling = 0.25
    let front = LinearGradient(
      stops: [
        GradientStop(location: 0, color: color("#5CAEF2E0").color),
        GradientStop(location: 1, color: color("#1A5DA8F5").color),
      ], space: .screenVertical)
    var water = WaterSpec(
      fillLevel: 0.5, sampleSpacing: 2,
      waves: [
        WaveSpec(
          amplitude: 2.5 * k, wavelength: 95 * k, phaseSpeed: 1.9, initialPhase: 0.7,
          fill: .color(color("#8CC4F04D"))),
        WaveSpec(
          amplitude: 2 * k, wavelength: 140 * k, phaseSpeed: -2.6, initialPhase: 2.1,
          fill: .color(color("#4A94DE66"))),
        WaveSpec(
          amplitude: 1.4 * k, wavelength: 210 * k, phaseSpeed: 3.1, initialPhase: 0,
          fill: .gradient(front)),
      ], response: response)
    water.container = WaterContainerSpec(
      shape: .pathData(Self.svgPath(insideData)), widthCentimetres: 7, open: true)
    var waterLayer = LayerSpec(
      type: .waterWave, name: "water", frame: [inner.minX, inner.minY, inner.width, inner.height])
    waterLayer.water = water

    var inside = LayerSpec(
      type: .shape, name: "glass-inside",
      frame: [inner.minX, inner.minY, inner.width, inner.height])
    inside.shape = ShapeSpec.pathData(Self.svgPath(insideData))
    inside.stroke = color("#7F9AAE99")
    inside.lineWidth = 1 * k
    var highlight = LayerSpec(
      type: .shape, name: "highlight",
      frame: [inner.minX + 10 * k, inner.minY + 14 * k, 9 * k, 230 * k])
    highlight.shape = .rect(cornerRadius: 4.5 * k)
    highlight.fill = .gradient(
      LinearGradient.vertical(from: color("#FFFFFF8C").color, to: color("#FFFFFF00").color))
    var rim = LayerSpec(
      type: .shape, name: "rim", frame: [outer.minX, outer.minY - 2 * k, outer.width, 5 * k])
    rim.shape = .rect(cornerRadius: 2.5 * k)
    rim.fill = .color(color("#FFFFFFB3"))
    rim.stroke = color("#9DB3C4CC")
    rim.lineWidth = 1 * k

    return SceneFile(
      name: "glass",
      canvas: Canvas(width: width, height: height, scale: scale, background: color("#F6F0E6")),
      layers: [wallLayer, table, edge, shadow, glassBack, waterLayer, inside, highlight, rim])
  }

  /// SVG path data the scene builds itself (well-formed by construction).
  private static func svgPath(_ data: String) -> SVGPath {
    guard let p = try? SVGPath(data) else { preconditionFailure("bad built-in path: \(data)") }
    return p
  }
}
