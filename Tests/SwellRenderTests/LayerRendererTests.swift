import Foundation
import SwellGeometry
import SwellLayers
import SwellRender
import SwellTestSupport
import Testing

/// A 100 × 100 point root layer with a white background.
private func whiteRoot(width: Double = 100, height: Double = 100) -> Layer {
  let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: width, height: height))
  root.backgroundColor = .white
  return root
}

private let red = Color(red: 1, green: 0, blue: 0)
private let blue = Color(red: 0, green: 0, blue: 1)

/// The rows of a column whose pixel is mostly red.
private func redRows(_ image: ImageSurface, column x: Int) -> [Int] {
  (0..<image.pixelHeight).filter { y in
    guard let p = image.pixel(x: x, y: y) else { return false }
    return p.red > 200 && p.green < 128
  }
}

@Suite("Layer-tree renderer")
private struct LayerRendererTests {
  @Test("square lands at its frame at every scale", arguments: [1.0, 2.0, 3.0])
  func squareLandsAtItsFrameAtEveryScale(scale: Double) throws {
    let root = whiteRoot()
    let square = Layer(name: "square", frame: Rect(x: 10, y: 20, width: 30, height: 40))
    square.backgroundColor = red
    root.addSublayer(square)
    let image = try LayerRenderer().render(root, size: Size(width: 100, height: 100), scale: scale)
    let s = Int(scale)
    #expect(image.pixelWidth == 100 * s)
    #expect(image.pixel(x: 10 * s, y: 20 * s) == .opaqueRed)
    #expect(image.pixel(x: 40 * s - 1, y: 60 * s - 1) == .opaqueRed)
    #expect(image.pixel(x: 10 * s - 1, y: 30 * s) == .opaqueWhite)
    #expect(image.pixel(x: 40 * s, y: 30 * s) == .opaqueWhite)
    #expect(image.pixel(x: 20 * s, y: 60 * s) == .opaqueWhite)
  }

  @Test("quarter turn rotates about the anchor point clockwise")
  func quarterTurnRotatesAboutTheAnchorPointClockwise() throws {
    let root = whiteRoot()
    let bar = Layer()
    bar.bounds = Rect(x: 0, y: 0, width: 40, height: 20)
    bar.position = Point(x: 50, y: 50)
    bar.backgroundColor = red
    bar.setValue(.number(.pi / 2), forKeyPath: "transform.rotation.z")
    root.addSublayer(bar)
    let image = try LayerRenderer().render(root, size: Size(width: 100, height: 100), scale: 1)
    // Upright, the bar spans x 30...70, y 40...60; turned, x 40...60, y 30...70.
    #expect(image.pixel(x: 50, y: 32) == .opaqueRed)
    #expect(image.pixel(x: 50, y: 67) == .opaqueRed)
    #expect(image.pixel(x: 41, y: 50) == .opaqueRed)
    #expect(image.pixel(x: 32, y: 50) == .opaqueWhite)
    #expect(image.pixel(x: 67, y: 50) == .opaqueWhite)
  }

  @Test("clockwise means positive angles move the right end down")
  func clockwiseMeansPositiveAnglesMoveTheRightEndDown() throws {
    let root = whiteRoot()
    let bar = Layer()
    bar.bounds = Rect(x: 0, y: 0, width: 60, height: 4)
    bar.position = Point(x: 50, y: 50)
    bar.backgroundColor = red
    bar.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
    root.addSublayer(bar)
    let image = try LayerRenderer().render(root, size: Size(width: 100, height: 100), scale: 1)
    let rightEnd = Point(x: 50 + 28 * cos(0.3), y: 50 + 28 * sin(0.3))
    #expect(image.pixel(x: Int(rightEnd.x), y: Int(rightEnd.y)) == .opaqueRed)
    #expect(image.pixel(x: Int(rightEnd.x), y: Int(100 - rightEnd.y)) == .opaqueWhite)
  }

  @Test("half opacity blends over the background") func halfOpacityBlendsOverTheBackground() throws
  {
    let root = whiteRoot()
    let square = Layer(name: nil, frame: Rect(x: 0, y: 0, width: 50, height: 50))
    square.backgroundColor = red
    square.opacity = 0.5
    root.addSublayer(square)
    let image = try LayerRenderer().render(root, size: Size(width: 100, height: 100), scale: 1)
    let p = try #require(image.pixel(x: 25, y: 25))
    #expect(p.red == 255 && p.alpha == 255)
    #expect(abs(Int(p.green) - 128) <= 1 && abs(Int(p.blue) - 128) <= 1, "\(p)")
  }

  @Test("group opacity applies to the subtree as a whole")
  func groupOpacityAppliesToTheSubtreeAsAWhole() throws {
    let root = whiteRoot()
    let group = Layer(name: nil, frame: Rect(x: 0, y: 0, width: 100, height: 100))
    group.opacity = 0.5
    for x in [10.0, 30.0] {
      let child = Layer(name: nil, frame: Rect(x: x, y: 10, width: 40, height: 40))
      child.backgroundColor = blue
      group.addSublayer(child)
    }
    root.addSublayer(group)
    let image = try LayerRenderer().render(root, size: Size(width: 100, height: 100), scale: 1)
    let alone = try #require(image.pixel(x: 15, y: 20))
    let overlap = try #require(image.pixel(x: 40, y: 20))
    #expect(overlap == alone)
    #expect(abs(Int(alone.red) - 128) <= 1 && alone.blue == 255)
  }

  @Test("masks to bounds clips sublayers to the rounded bounds")
  func masksToBoundsClipsSublayersToTheRoundedBounds() throws {
    let root = whiteRoot()
    let clip = Layer(name: nil, frame: Rect(x: 20, y: 20, width: 60, height: 60))
    clip.masksToBounds = true
    clip.cornerRadius = 20
    let big = Layer(name: nil, frame: Rect(x: -50, y: -50, width: 200, height: 200))
    big.backgroundColor = red
    clip.addSublayer(big)
    root.addSublayer(clip)
    let image = try LayerRenderer().render(root, size: Size(width: 100, height: 100), scale: 1)
    #expect(image.pixel(x: 50, y: 50) == .opaqueRed)
    #expect(image.pixel(x: 21, y: 50) == .opaqueRed)
    #expect(image.pixel(x: 19, y: 50) == .opaqueWhite)
    #expect(image.pixel(x: 50, y: 81) == .opaqueWhite)
    // The rounded corner is cut: (21, 21) is outside the 20-point arc.
    #expect(image.pixel(x: 21, y: 21) == .opaqueWhite)
    clip.masksToBounds = false
    let unclipped = try LayerRenderer().render(root, size: Size(width: 100, height: 100), scale: 1)
    #expect(unclipped.pixel(x: 5, y: 5) == .opaqueRed)
  }

  @Test("perspective shrinks the far edge") func perspectiveShrinksTheFarEdge() throws {
    let root = whiteRoot(width: 200, height: 200)
    let card = Layer()
    card.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
    card.position = Point(x: 100, y: 100)
    card.backgroundColor = red
    let angle = 40 * Double.pi / 180
    let eye = 300.0
    // Core Animation's idiom: rotate, then apply perspective (m34 = −1/d).
    card.transform = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0)
      .concatenating(Transform3D(perspectiveDistance: eye))
    root.addSublayer(card)
    let image = try LayerRenderer().render(root, size: Size(width: 200, height: 200), scale: 1)
    // Independent projection of the vertical edges at x = ±50 from the anchor.
    func edge(_ x: Double) -> (x: Double, halfHeight: Double) {
      let z = -x * sin(angle)
      let w = 1 - z / eye
      return (100 + x * cos(angle) / w, 50 / w)
    }
    let near = edge(-50)
    let far = edge(50)
    #expect(near.halfHeight > 55 && far.halfHeight < 46)
    let nearRows = redRows(image, column: Int(near.x.rounded(.up)) + 1)
    let farRows = redRows(image, column: Int(far.x.rounded(.down)) - 1)
    #expect(abs(Double(nearRows.count) - 2 * near.halfHeight) <= 3, "near \(nearRows.count)")
    #expect(abs(Double(farRows.count) - 2 * far.halfHeight) <= 3, "far \(farRows.count)")
    #expect(image.pixel(x: Int(far.x) + 2, y: 100) == .opaqueWhite)
    #expect(image.pixel(x: Int(near.x) - 2, y: 100) == .opaqueWhite)
  }

  @Test("layers reaching behind the eye are skipped") func layersReachingBehindTheEyeAreSkipped()
    throws
  {
    let root = whiteRoot()
    let card = Layer(name: nil, frame: Rect(x: 0, y: 0, width: 100, height: 100))
    card.backgroundColor = red
    card.transform = Transform3D(rotationAngle: 1.4, x: 0, y: 1, z: 0)
      .concatenating(Transform3D(perspectiveDistance: 20))
    root.addSublayer(card)
    let image = try LayerRenderer().render(root, size: Size(width: 100, height: 100), scale: 1)
    #expect(image.pixel(x: 50, y: 50) == .opaqueWhite)
  }

  @Test("shape layer fills and strokes its path in bounds space")
  func shapeLayerFillsAndStrokesItsPathInBoundsSpace() throws {
    let root = whiteRoot()
    let shape = ShapeLayer()
    shape.frame = Rect(x: 20, y: 20, width: 60, height: 60)
    var triangle = Path()
    triangle.move(to: Point(x: 0, y: 60))
    triangle.line(to: Point(x: 60, y: 60))
    triangle.line(to: Point(x: 0, y: 0))
    triangle.close()
    shape.path = triangle
    shape.fillColor = blue
    shape.strokeColor = .black
    shape.lineWidth = 4
    root.addSublayer(shape)
    let image = try LayerRenderer().render(root, size: Size(width: 100, height: 100), scale: 1)
    #expect(image.pixel(x: 30, y: 70) == .opaqueBlue)
    #expect(image.pixel(x: 70, y: 30) == .opaqueWhite)
    #expect(image.pixel(x: 50, y: 80) == .opaqueBlack)  // the bottom edge's stroke
    #expect(image.pixel(x: 50, y: 83) == .opaqueWhite)
  }

  @Test("layer gradient follows rotation but screen vertical does not")
  func layerGradientFollowsRotationButScreenVerticalDoesNot() throws {
    func render(space: SwellLayers.LinearGradient.Space) throws -> ImageSurface {
      let root = whiteRoot()
      let water = ShapeLayer()
      water.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
      water.position = Point(x: 50, y: 50)
      water.path = Path(rect: water.bounds)
      water.fillGradient = .vertical(from: red, to: blue, space: space)
      water.setValue(.number(0.4), forKeyPath: "transform.rotation.z")
      root.addSublayer(water)
      return try LayerRenderer().render(root, size: Size(width: 100, height: 100), scale: 1)
    }
    let screen = try render(space: .screenVertical)
    let rotated = try render(space: .layer)
    // Screen-vertical: along one row inside the shape the colour does not change.
    let a = try #require(screen.pixel(x: 40, y: 50))
    let b = try #require(screen.pixel(x: 60, y: 50))
    #expect(a.distance(to: b) <= 1, "\(a) vs \(b)")
    // Its span is the on-screen bounding box: near the top of the box it is almost red.
    let half = 30 * (cos(0.4) + sin(0.4))
    let top = try #require(screen.pixel(x: 50, y: Int((50 - half).rounded(.up)) + 8))
    #expect(top.red > 200 && top.blue < 80, "\(top)")
    // Layer space: the gradient axis turns with the layer, so the row is not uniform.
    let c = try #require(rotated.pixel(x: 40, y: 50))
    let d = try #require(rotated.pixel(x: 60, y: 50))
    #expect(c.distance(to: d) > 20, "\(c) vs \(d)")
  }

  @Test("image layer shows its PNG and missing files are named")
  func imageLayerShowsItsPNGAndMissingFilesAreNamed() throws {
    let folder = try TemporaryFolder()
    let source = try ImageSurface(pixelWidth: 2, pixelHeight: 2)
    source.withUnsafeMutableBytes { bytes in
      let words = [Pixel.opaqueRed, .opaqueGreen, .opaqueBlue, .opaqueWhite].map(\.argb)
      for (i, word) in words.enumerated() {
        bytes.storeBytes(of: word.littleEndian, toByteOffset: i * 4, as: UInt32.self)
      }
    }
    let png = folder.file("quads.png")
    try source.writePNG(to: png)
    let root = whiteRoot()
    let picture = ImageLayer()
    picture.frame = Rect(x: 10, y: 10, width: 40, height: 40)
    picture.imagePath = png
    root.addSublayer(picture)
    let renderer = LayerRenderer()
    let image = try renderer.render(root, size: Size(width: 100, height: 100), scale: 1)
    #expect(image.pixel(x: 12, y: 12) == .opaqueRed)
    #expect(image.pixel(x: 47, y: 12) == .opaqueGreen)
    #expect(image.pixel(x: 12, y: 47) == .opaqueBlue)
    #expect(image.pixel(x: 60, y: 60) == .opaqueWhite)

    picture.gravity = .resizeAspect
    picture.frame = Rect(x: 0, y: 0, width: 80, height: 40)
    let fitted = try renderer.render(root, size: Size(width: 100, height: 100), scale: 1)
    #expect(fitted.pixel(x: 5, y: 20) == .opaqueWhite)  // left of the centred 40 × 40 image
    #expect(fitted.pixel(x: 22, y: 2) == .opaqueRed)

    picture.imagePath = folder.file("missing.png")
    let error = #expect(throws: RenderError.self) {
      _ = try LayerRenderer().render(root, size: Size(width: 100, height: 100), scale: 1)
    }
    #expect(error?.kind == .unreadableInput)
    #expect(error?.description.contains("missing.png") == true)
  }

  @Test("z position hidden and borders") func zPositionHiddenAndBorders() throws {
    let root = whiteRoot()
    let front = Layer(name: nil, frame: Rect(x: 0, y: 0, width: 50, height: 50))
    front.backgroundColor = red
    front.zPosition = 1
    let back = Layer(name: nil, frame: Rect(x: 25, y: 25, width: 50, height: 50))
    back.backgroundColor = blue
    back.borderWidth = 4
    back.borderColor = .black
    let hidden = Layer(name: nil, frame: Rect(x: 0, y: 0, width: 100, height: 100))
    hidden.backgroundColor = .black
    hidden.isHidden = true
    root.addSublayer(front)
    root.addSublayer(back)
    root.addSublayer(hidden)
    let image = try LayerRenderer().render(root, size: Size(width: 100, height: 100), scale: 1)
    #expect(image.pixel(x: 40, y: 40) == .opaqueRed)  // red drawn later despite array order
    #expect(image.pixel(x: 60, y: 60) == .opaqueBlue)
    #expect(image.pixel(x: 73, y: 60) == .opaqueBlack)  // inside the 4-point border
    #expect(image.pixel(x: 69, y: 60) == .opaqueBlue)
    #expect(image.pixel(x: 90, y: 90) == .opaqueWhite)
  }

  @Test("presentation values are what is drawn") func presentationValuesAreWhatIsDrawn() throws {
    let root = whiteRoot()
    let square = Layer(name: "square", frame: Rect(x: 0, y: 0, width: 20, height: 20))
    square.backgroundColor = red
    root.addSublayer(square)
    square.animate(
      keyPath: "position.x", to: .number(80), duration: 1, timingFunction: .linear, at: 0)
    let middle = try LayerRenderer().render(
      root.presentation(at: 0.5), size: Size(width: 100, height: 100), scale: 1)
    // Halfway from x = 10 to x = 80 (centres): 45, so the square spans 35...55.
    #expect(middle.pixel(x: 45, y: 10) == .opaqueRed)
    #expect(middle.pixel(x: 5, y: 10) == .opaqueWhite)
    #expect(middle.pixel(x: 85, y: 10) == .opaqueWhite)
  }

  @Test("random translated squares match their frames")
  func randomTranslatedSquaresMatchTheirFrames() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SplitMix64(seed: seed)
    let renderer = LayerRenderer()
    for _ in 0..<20 {
      let root = whiteRoot(width: 40, height: 30)
      let x = Double(Int.random(in: -10...35, using: &rng))
      let y = Double(Int.random(in: -10...25, using: &rng))
      let w = Double(Int.random(in: 1...20, using: &rng))
      let h = Double(Int.random(in: 1...20, using: &rng))
      let square = Layer(name: nil, frame: Rect(x: x, y: y, width: w, height: h))
      square.backgroundColor = red
      root.addSublayer(square)
      let image = try renderer.render(root, size: Size(width: 40, height: 30), scale: 2)
      for py in stride(from: 0, to: 60, by: 3) {
        for px in stride(from: 0, to: 80, by: 3) {
          let cx = (Double(px) + 0.5) / 2
          let cy = (Double(py) + 0.5) / 2
          let inside = cx > x && cx < x + w && cy > y && cy < y + h
          #expect(
            image.pixel(x: px, y: py) == (inside ? .opaqueRed : .opaqueWhite),
            "seed \(seed): frame (\(x), \(y), \(w), \(h)) pixel (\(px), \(py))")
        }
      }
    }
  }
}

@Suite("Layer trees through sinks")
private struct LayerSinkTests {
  private func scene() -> Layer {
    let root = whiteRoot()
    let card = Layer(name: nil, frame: Rect(x: 15, y: 15, width: 50, height: 40))
    card.backgroundColor = blue
    card.cornerRadius = 8
    card.transform = Transform3D(rotationAngle: 0.2, x: 0, y: 0, z: 1)
    let wave = ShapeLayer()
    wave.frame = Rect(x: 0, y: 60, width: 100, height: 40)
    var path = Path()
    path.move(to: Point(x: 0, y: 10))
    path.curve(
      to: Point(x: 100, y: 10), control1: Point(x: 30, y: -10), control2: Point(x: 70, y: 30))
    path.line(to: Point(x: 100, y: 40))
    path.line(to: Point(x: 0, y: 40))
    path.close()
    wave.path = path
    wave.fillGradient = .vertical(
      from: Color(red: 0.2, green: 0.6, blue: 1), to: blue, space: .screenVertical)
    wave.opacity = 0.8
    root.addSublayer(card)
    root.addSublayer(wave)
    return root
  }

  @Test("SVG of a layer tree matches its PNG") func svgOfALayerTreeMatchesItsPNG() throws {
    let folder = try TemporaryFolder()
    let renderer = LayerRenderer()
    let configuration = FrameConfiguration(size: Size(width: 100, height: 100), scale: 2)
    let root = scene()
    for name in ["tree.png", "tree.svg"] {
      let sink = try makeFrameSink(path: folder.file(name))
      try sink.begin(configuration)
      try sink.draw { try renderer.draw(root, in: $0) }
      try sink.finish()
    }
    let png = try ImageSurface.load(contentsOfPNGFile: folder.file("tree.png"))
    #expect(
      try compare(png, try renderer.render(root, size: configuration.size, scale: 2)).mean == 0)
    let rendered = folder.file("rsvg.png")
    try requireTool(
      "rsvg-convert", ["--zoom", "2", "--format", "png", "-o", rendered, folder.file("tree.svg")])
    let svg = try ImageSurface.load(contentsOfPNGFile: rendered)
    let difference = try compare(svg, png)
    #expect(difference.mean < 2, "mean difference \(difference.mean)")
    #expect(difference.farFraction < 0.02, "far pixels \(difference.farFraction)")
  }
}

@Suite("Exporting layer trees")
private struct ExportTests {
  private func movingSquare(_ index: Int) -> Layer {
    let root = Layer(name: nil, frame: Rect(x: 0, y: 0, width: 40, height: 20))
    let square = Layer(name: nil, frame: Rect(x: Double(10 * index), y: 0, width: 10, height: 20))
    square.backgroundColor = red
    root.addSublayer(square)
    return root
  }

  @Test("exports every frame") func exportsEveryFrame() throws {
    let folder = try TemporaryFolder()
    let exporter = try FrameExporter(
      path: folder.file("f/%02d.png"),
      configuration: FrameConfiguration(size: Size(width: 40, height: 20)), background: .white)
    for i in 0..<3 { try exporter.add(movingSquare(i)) }
    try exporter.finish()
    #expect(exporter.frameCount == 3)
    for i in 0..<3 {
      let frame = try ImageSurface.load(contentsOfPNGFile: folder.file("f/0\(i).png"))
      #expect(frame.pixel(x: 10 * i + 5, y: 10) == .opaqueRed)
      #expect(frame.pixel(x: (10 * i + 15) % 40, y: 10) == .opaqueWhite)
    }
  }

  @Test("a cancelled export leaves no output") func aCancelledExportLeavesNoOutput() throws {
    let folder = try TemporaryFolder()
    for name in ["a.pdf", "b/%d.png", "c.gif"] {
      let exporter = try FrameExporter(
        path: folder.file(name),
        configuration: FrameConfiguration(size: Size(width: 40, height: 20)),
        background: .white)
      for i in 0..<2 { try exporter.add(movingSquare(i)) }
      exporter.cancel()
    }
    #expect(try folder.contents().isEmpty)
  }
}
