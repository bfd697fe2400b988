import Foundation
import SwellCairo
import SwellGeometry
import SwellLayers
import SwellPlayback
import SwellRender
import SwellScenes
import Testing

/// A 20 × 30-point scene with fixed frames (so it is fitted, not laid out): the left edge red
/// above y = 15 and yellow below, the right edge blue, a rounded green block between (its
/// antialiased corners make the inside pixels worth comparing), on a dark blue background.
func edgeColoredScene() throws -> FileScene {
  func layer(_ frame: [Double], _ hex: String, cornerRadius: Double? = nil) throws -> LayerSpec {
    var spec = LayerSpec(frame: frame)
    let color: ColorSpec = try #require(ColorSpec.hex(hex))
    spec.backgroundColor = color
    spec.cornerRadius = cornerRadius
    return spec
  }
  let file = SceneFile(
    name: "edges",
    canvas: .init(
      width: 20, height: 30, scale: 1, background: try #require(ColorSpec.hex("#203040"))),
    layers: [
      try layer([0, 0, 5, 15], "#FF0000"), try layer([0, 15, 5, 15], "#FFFF00"),
      try layer([5, 3, 10, 24], "#00FF00", cornerRadius: 4), try layer([15, 0, 5, 30], "#0000FF"),
    ])
  let scene = FileScene(file: file)
  #expect(!scene.isResizable)
  return scene
}

/// The scene drawn by a new player at time 0 into a `width × height` image.
func drawnEdgeScene(
  width: Int, height: Int, margins: ScenePlayer.Margins
) throws -> ImageSurface {
  let player = ScenePlayer(
    scene: try edgeColoredScene(), motion: try SceneMotionInput.script("hold 1s", rate: 100).feed)
  player.margins = margins
  let image = try ImageSurface(pixelWidth: width, pixelHeight: height)
  try player.draw(at: 0, into: image)
  return image
}

@Suite("ScenePlayer: the margins around a fitted scene")
private struct ScenePlayerMarginTests {
  /// Targets with the fitted canvas's corner and whole-pixel size, worked out by hand: the scale
  /// is min(width / 20, height / 30), the corner is the leftover halved and rounded.
  static let targets:
    [(width: Int, height: Int, x: Int, y: Int, fittedWidth: Int, fittedHeight: Int)] = [
      // scale 1: 90 pixels of margin on each side.
      (200, 30, 90, 0, 20, 30),
      // scale 1.5: 30 × 45 at x = (200 − 30) / 2 = 85.
      (200, 45, 85, 0, 30, 45),
      // scale 61 / 30 = 2.033…: 40.67 pixels wide, so 40 whole columns at round(130.17) = 130.
      (301, 61, 130, 0, 40, 61),
      // scale 1, taller than wide: bars above and below, y = (100 − 30) / 2 = 35.
      (20, 100, 0, 35, 20, 30),
    ]

  @Test(
    "edge colours: every margin pixel is the nearest pixel of the fitted scene; the scene's own pixels are the background mode's",
    arguments: targets)
  func edgeColorsContinueTheEdges(
    target: (width: Int, height: Int, x: Int, y: Int, fittedWidth: Int, fittedHeight: Int)
  ) throws {
    let (w, h) = (target.width, target.height)
    let edges = try drawnEdgeScene(width: w, height: h, margins: .edgeColors)
    let plain = try drawnEdgeScene(width: w, height: h, margins: .background)
    let xs = target.x..<(target.x + target.fittedWidth)
    let ys = target.y..<(target.y + target.fittedHeight)
    var inside = 0
    var margin = 0
    for y in 0..<h {
      for x in 0..<w {
        if xs.contains(x), ys.contains(y) {
          if edges.pixel(x: x, y: y) != plain.pixel(x: x, y: y) { inside += 1 }
        } else {
          let nearest = edges.pixel(
            x: min(max(x, xs.lowerBound), xs.upperBound - 1),
            y: min(max(y, ys.lowerBound), ys.upperBound - 1))
          if edges.pixel(x: x, y: y) != nearest { margin += 1 }
        }
      }
    }
    #expect(inside == 0, "pixels of the fitted scene that differ between the modes")
    #expect(margin == 0, "margin pixels that are not the nearest edge pixel")
    // The edges are the scene's colours, not the background.
    let red = Pixel(red: 255, green: 0, blue: 0, alpha: 255)
    let yellow = Pixel(red: 255, green: 255, blue: 0, alpha: 255)
    let blue = Pixel(red: 0, green: 0, blue: 255, alpha: 255)
    #expect(edges.pixel(x: 0, y: ys.lowerBound + 1) == red)
    #expect(edges.pixel(x: 0, y: ys.upperBound - 2) == yellow)
    #expect(edges.pixel(x: w - 1, y: ys.lowerBound + 1) == blue)
    #expect(edges.pixel(x: w - 1, y: ys.upperBound - 2) == blue)
  }

  @Test(
    "background (the default): the margins are the background, and the pixels are the old fitted frame's",
    arguments: targets)
  func backgroundIsUnchanged(
    target: (width: Int, height: Int, x: Int, y: Int, fittedWidth: Int, fittedHeight: Int)
  ) throws {
    let (w, h) = (target.width, target.height)
    let scene = try edgeColoredScene()
    let player = ScenePlayer(
      scene: scene, motion: try SceneMotionInput.script("hold 1s", rate: 100).feed)
    #expect(player.margins == .background)
    let image = try ImageSurface(pixelWidth: w, pixelHeight: h)
    try player.draw(at: 0, into: image)

    // The frame as it was drawn before margins could be chosen: the tree clipped to its canvas,
    // fitted, over the background.
    let tree = scene.root.presentation(at: 0)
    tree.masksToBounds = true
    let old = try ImageSurface(pixelWidth: w, pixelHeight: h)
    try LayerRenderer().drawFrame(
      tree, background: scene.background,
      placement: .fitting(scene.size, pixelWidth: w, pixelHeight: h), into: old)
    #expect(differingPixels(image, old) == 0)

    let background = Pixel(red: 0x20, green: 0x30, blue: 0x40, alpha: 255)
    // Outside the canvas's pixels, whole or partly covered.
    let xs = target.x..<(target.x + target.fittedWidth + 1)
    let ys = target.y..<(target.y + target.fittedHeight + 1)
    var notBackground = 0
    for y in 0..<h {
      for x in 0..<w where !(xs.contains(x) && ys.contains(y)) {
        if image.pixel(x: x, y: y) != background { notBackground += 1 }
      }
    }
    #expect(notBackground == 0)
  }

  @Test("edge colours into a caller's Cairo context: the pixels of the image path")
  func edgeColorsInContext() throws {
    let player = ScenePlayer(
      scene: try edgeColoredScene(), motion: try SceneMotionInput.script("hold 1s", rate: 100).feed)
    player.margins = .edgeColors
    let target = try ImageSurface(pixelWidth: 301, pixelHeight: 61)
    try player.draw(at: 0, in: try CairoContext(surface: target), pixelWidth: 301, pixelHeight: 61)
    target.flush()
    #expect(
      differingPixels(target, try drawnEdgeScene(width: 301, height: 61, margins: .edgeColors)) == 0
    )
  }

  @Test("a scene at its own pixel size has no margins: both modes draw the same pixels")
  func ownSizeHasNoMargins() throws {
    let edges = try drawnEdgeScene(width: 20, height: 30, margins: .edgeColors)
    let plain = try drawnEdgeScene(width: 20, height: 30, margins: .background)
    #expect(differingPixels(edges, plain) == 0)
    #expect(edges.pixel(x: 0, y: 0) == Pixel(red: 255, green: 0, blue: 0, alpha: 255))
  }
}
