import Foundation
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes
import SwellTestSupport
import SwellWaves
import Testing

@testable import SwellLive

/// The water's responses the coverage tests check.
enum WaterResponseCase: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case classic, seedExact, sloshing

  var testDescription: String { rawValue }

  var options: SceneOptions {
    var o = SceneOptions()
    switch self {
    case .classic: break
    case .seedExact: o.seedExact = true
    case .sloshing: o.waterResponse = .sloshing
    }
    return o
  }
}

/// A 2 s script that turns the device 45° (right or left) in its screen plane and holds it.
private func tilted(_ degrees: Int) throws -> [DeviceMotion] {
  let side = degrees < 0 ? "left" : "right"
  return try MotionScript(
    parsing: "hold 0.2s; tilt \(abs(degrees))deg \(side) over 0.5s; hold 1.3s"
  )
  .samples(rate: 100)
}

/// An image as a grid of colours.
private struct Grid {
  var width: Int
  var height: Int
  var pixel: (Int, Int) -> (red: Double, green: Double, blue: Double)
}

/// The result of a coverage scan.
private struct Coverage: CustomStringConvertible {
  /// The fitted surface line `y = intercept + slope·x`, pixels.
  var intercept = 0.0
  var slope = 0.0
  /// Pixels checked below the line (plus the band) and the ones that are not water.
  var checked = 0
  var dry: [(Int, Int)] = []

  var description: String {
    "line y = \(intercept) + \(slope)·x, \(checked) pixels checked, \(dry.count) dry "
      + "(first \(dry.prefix(5).map { "(\($0.0), \($0.1))" }.joined(separator: " ")))"
  }
}

/// Fits the water's surface line from the image (the first water pixel of each column that
/// has sky above it, least squares) and checks that every pixel more than `band` pixels below
/// the line is water (differs from the sky colour).
private func scanCoverage(_ grid: Grid, sky: Color, band: Double) -> Coverage {
  func isWater(_ x: Int, _ y: Int) -> Bool {
    let p = grid.pixel(x, y)
    return abs(p.red - sky.red) + abs(p.green - sky.green) + abs(p.blue - sky.blue) > 0.1
  }
  var xs: [Double] = []
  var ys: [Double] = []
  for x in 0..<grid.width {
    guard let top = (0..<grid.height).first(where: { isWater(x, $0) }), top > 0 else { continue }
    xs.append(Double(x))
    ys.append(Double(top))
  }
  var c = Coverage()
  guard xs.count >= 2 else {
    c.dry = [(-1, -1)]
    return c
  }
  let n = Double(xs.count)
  let mx = xs.reduce(0, +) / n
  let my = ys.reduce(0, +) / n
  var sxy = 0.0
  var sxx = 0.0
  for (x, y) in zip(xs, ys) {
    sxy += (x - mx) * (y - my)
    sxx += (x - mx) * (x - mx)
  }
  c.slope = sxx > 0 ? sxy / sxx : 0
  c.intercept = my - c.slope * mx
  for x in 0..<grid.width {
    let line = c.intercept + c.slope * Double(x)
    for y in 0..<grid.height where Double(y) > line + band {
      c.checked += 1
      if !isWater(x, y) { c.dry.append((x, y)) }
    }
  }
  return c
}

/// The band below the fitted line that troughs may leave dry: twice the largest drawn
/// amplitude, along the tilted normal, plus a few pixels, in pixels.
private func band(scene: FileScene, slope: Double, pixelsPerPoint: Double) -> Double {
  let amplitude = scene.waterLayers.flatMap(\.waveLayers).map { abs($0.drawnAmplitude) }.max() ?? 0
  return 2 * amplitude * (1 + slope * slope).squareRoot() * pixelsPerPoint + 3
}

/// An image surface as a grid.
private func grid(_ image: ImageSurface) -> Grid {
  Grid(width: image.pixelWidth, height: image.pixelHeight) { x, y in
    let p = image.pixel(x: x, y: y)
    return (Double(p?.red ?? 0) / 255, Double(p?.green ?? 0) / 255, Double(p?.blue ?? 0) / 255)
  }
}

/// Steps a live content's display link at 30 fps over its motion, rendering each frame.
private final class Player {
  let content: LiveSceneContent
  var link: DisplayLink
  /// The last frame's target time, seconds.
  var time = 0.0

  init(_ content: LiveSceneContent) {
    self.content = content
    link = DisplayLink(preferredFramesPerSecond: 30, startTime: content.driver.motion.startTime)
  }

  /// Renders the next `frames` frames into the canvas.
  @discardableResult
  func play(_ frames: Int, into canvas: LiveCanvas) throws -> Double {
    for _ in 0..<frames {
      guard let f = link.step() else { break }
      time = f.targetTimestamp
      try content.render(f, into: canvas)
    }
    return time
  }
}

@Suite("The water fills any screen")
private struct WaterCoverageTests {
  @Test(
    "rendered files at 800x300, 300x800, 400x400, 4:1 and 1:4, tilted ±45°: water below the surface line",
    arguments: WaterResponseCase.allCases, [45, -45])
  func files(response: WaterResponseCase, degrees: Int) throws {
    for (w, h) in [(800.0, 300.0), (300, 800), (400, 400), (800, 200), (200, 800)] {
      var o = response.options
      (o.width, o.height, o.scale) = (w, h, 1)
      let scene = FileScene(file: .waterwave, options: o)
      var driver = SceneDriver(scene: scene, motion: try tilted(degrees), framesPerSecond: 30)
      let rows = try driver.trace(frames: driver.frameCount(duration: 2))
      let t = try #require(rows.last?[0])
      let tilt = try #require(scene.traceValue("water.transform.rotation.z", at: t))
      #expect(abs(abs(tilt) - .pi / 4) < 0.1, "\(w)x\(h): tilt \(tilt)")
      let image = try LayerRenderer().render(
        scene.root.presentation(at: t), size: scene.size, scale: 1, background: scene.background)
      let first = scanCoverage(grid(image), sky: scene.background, band: 0)
      let c = scanCoverage(
        grid(image), sky: scene.background,
        band: band(scene: scene, slope: first.slope, pixelsPerPoint: 1))
      #expect(c.dry.isEmpty, "\(response) \(degrees)° \(w)x\(h): \(c)")
      #expect(Double(c.checked) > 0.2 * w * h, "\(w)x\(h): \(c)")
      // The surface is the tilted line (y down: a tilt of −45° rises to the right).
      #expect(abs(atan(c.slope) - tilt) < 0.12, "\(w)x\(h): slope \(c.slope) vs tilt \(tilt)")
    }
  }

  @Test(
    "the terminal at 80x24: the scene is laid out for the grid and water fills it below the line",
    arguments: WaterResponseCase.allCases, [45, -45])
  func terminal(response: WaterResponseCase, degrees: Int) throws {
    let scene = FileScene(file: .waterwave, options: response.options)
    let content = LiveSceneContent(scene: scene, motion: ArrayMotionFeed(try tilted(degrees)))
    let size = TerminalView.frameSize(columns: 80, rows: 24, supersampling: 4)
    #expect(size == (320, 192))
    let canvas = try LiveCanvas(width: size.width, height: size.height)
    try Player(content).play(60, into: canvas)
    // Laid out for the grid's 5:3 shape, the design's short side (390 points) kept.
    #expect(abs(scene.size.width - 650) < 1e-6 && abs(scene.size.height - 390) < 1e-6)
    #expect(content.pixelSize == (320, 192))
    let cells = canvas.withUnsafeBytes {
      HalfBlockEncoder.downscale(
        pixels: $0, width: canvas.width, height: canvas.height, bytesPerRow: canvas.bytesPerRow,
        gridWidth: 80, gridHeight: 48)
    }
    let g = Grid(width: 80, height: 48) { x, y in
      let p = cells[y * 80 + x]
      return (Double(p >> 16 & 0xFF) / 255, Double(p >> 8 & 0xFF) / 255, Double(p & 0xFF) / 255)
    }
    let perCell = 80 / scene.size.width
    let first = scanCoverage(g, sky: scene.background, band: 0)
    let c = scanCoverage(
      g, sky: scene.background,
      band: band(scene: scene, slope: first.slope, pixelsPerPoint: perCell))
    #expect(c.dry.isEmpty, "\(response) \(degrees)°: \(c)")
    #expect(c.checked > 800, "\(c)")
  }

  @Test("the terminal at rest: every cell below the level surface is water, edge to edge")
  func terminalAtRest() throws {
    let scene = FileScene(file: .waterwave)
    let content = LiveSceneContent(
      scene: scene, motion: ArrayMotionFeed(try MotionScript(parsing: "hold 1s").samples(rate: 100))
    )
    let canvas = try LiveCanvas(width: 320, height: 192)
    try Player(content).play(20, into: canvas)
    let cells = canvas.withUnsafeBytes {
      HalfBlockEncoder.downscale(
        pixels: $0, width: canvas.width, height: canvas.height, bytesPerRow: canvas.bytesPerRow,
        gridWidth: 80, gridHeight: 48)
    }
    let sky = scene.background
    // The surface is at half height ± 12 points (3 half-block rows at 0.123 rows per point);
    // from row 28 down every cell of every column, the outermost included, is water: no sky
    // columns beside a box of water.
    for y in 28..<48 {
      for x in 0..<80 {
        let p = cells[y * 80 + x]
        let d =
          abs(Double(p >> 16 & 0xFF) / 255 - sky.red) + abs(Double(p >> 8 & 0xFF) / 255 - sky.green)
          + abs(Double(p & 0xFF) / 255 - sky.blue)
        #expect(d > 0.1, "cell (\(x), \(y)) is sky")
      }
    }
  }

  @Test("a window resized mid-run: the scene is laid out for the new shape and keeps its motion")
  func windowResize() throws {
    for response in WaterResponseCase.allCases {
      var o = response.options
      o.scale = 0.5
      let scene = FileScene(file: .waterwave, options: o)
      let content = LiveSceneContent(scene: scene, motion: ArrayMotionFeed(try tilted(45)))
      let native = try LiveCanvas(width: 195, height: 422)
      let player = Player(content)
      let before = try player.play(30, into: native)
      #expect(scene.size == Size(width: 390, height: 844), "no layout at the scene's own size")
      let tiltBefore = try #require(scene.traceValue("water.transform.rotation.z", at: before))
      for (w, h) in [(800, 300), (300, 800)] {
        let canvas = try LiveCanvas(width: w, height: h)
        let t = try player.play(15, into: canvas)
        #expect(content.pixelSize == (w, h), "\(response) \(w)x\(h)")
        let tilt = try #require(scene.traceValue("water.transform.rotation.z", at: t))
        #expect(abs(tilt) > abs(tiltBefore) - 0.05, "\(response): the tilt carried on: \(tilt)")
        let image = canvas.image
        let perPoint = Double(w) / scene.size.width
        let first = scanCoverage(grid(image), sky: scene.background, band: 0)
        let c = scanCoverage(
          grid(image), sky: scene.background,
          band: band(scene: scene, slope: first.slope, pixelsPerPoint: perPoint))
        #expect(c.dry.isEmpty, "\(response) \(w)x\(h): \(c)")
      }
    }
  }

  @Test("the home screen laid out for the terminal grid: the wallpaper fills it, no black")
  func homescreenInTerminal() throws {
    let scene = try #require(BuiltInScenes.make("homescreen") as? FileScene)
    #expect(scene.isResizable)
    let content = LiveSceneContent(scene: scene, motion: ArrayMotionFeed(try tilted(20)))
    let canvas = try LiveCanvas(width: 320, height: 192)
    try Player(content).play(10, into: canvas)
    #expect(scene.size.width > scene.size.height)
    let icons = scene.root.allLayers.filter {
      ($0.name ?? "").hasPrefix("icon-") && !($0.name ?? "").hasSuffix("glyph")
    }
    #expect(icons.count == 24)
    for icon in icons {
      #expect(icon.frame.maxX <= scene.size.width && icon.frame.maxY <= scene.size.height)
    }
    var black = 0
    for y in 0..<canvas.height {
      for x in 0..<canvas.width where (canvas.pixel(x: x, y: y) ?? 0) & 0xFF_FFFF == 0 {
        black += 1
      }
    }
    #expect(black == 0)
  }

  @Test("a scene file with fixed frames is letterboxed, clipped to its canvas")
  func fixedFramesAreClipped() throws {
    var file = SceneFile.waterwave
    file.layers[0].frame = [0, 0, 390, 844]
    let scene = FileScene(file: file)
    #expect(!scene.isResizable)
    let content = LiveSceneContent(scene: scene, motion: ArrayMotionFeed(try tilted(30)))
    let canvas = try LiveCanvas(width: 320, height: 192)
    try Player(content).play(60, into: canvas)
    #expect(scene.size == Size(width: 390, height: 844))
    // Outside the fitted canvas (centred, 88.7 pixels wide) only the background shows.
    let sky = scene.background
    for y in stride(from: 0, to: 192, by: 7) {
      for x in [0, 50, 110, 210, 270, 319] {
        let p = try #require(canvas.pixel(x: x, y: y))
        let r = Double(p >> 16 & 0xFF) / 255
        let g = Double(p >> 8 & 0xFF) / 255
        let b = Double(p & 0xFF) / 255
        #expect(abs(r - sky.red) + abs(g - sky.green) + abs(b - sky.blue) < 0.02, "(\(x), \(y))")
      }
    }
  }

  @Test("a session draws the resting wave's frames as regions; --whole-frames draws them whole")
  func wholeFrames() throws {
    for whole in [false, true] {
      let motion = ArrayMotionFeed(try MotionScript(parsing: "hold 2s").samples(rate: 100))
      var session = LiveSession(scene: FileScene(file: .waterwave), motion: motion, title: "w")
      session.drawsWholeFrames = whole
      let content = session.makeContent()
      #expect(content.player.drawsOnlyDamage == !whole)
      let canvas = try LiveCanvas(width: 130, height: 281)
      var link = DisplayLink(preferredFramesPerSecond: 30, startTime: motion.startTime)
      var regions = 0
      for _ in 0..<30 {
        guard let f = link.step() else { break }
        try content.render(f, into: canvas, force: false)
        if content.lastRenderRegion != nil { regions += 1 }
      }
      if whole { #expect(regions == 0) } else { #expect(regions >= 20, "\(regions) of 30") }
    }
  }

  @Test(
    "in the terminal a fixed-frame scene's edges continue into the bars beside it; a window keeps the background"
  )
  func terminalContinuesTheEdges() throws {
    var file = SceneFile.waterwave
    file.layers[0].frame = [0, 0, 390, 844]
    let scene = FileScene(file: file)
    let motion = ArrayMotionFeed(try tilted(30))
    var session = LiveSession(scene: scene, motion: motion, title: "edges")
    #expect(session.makeContent().player.margins == .background)
    session.terminal = true
    let content = session.makeContent()
    #expect(content.player.margins == .edgeColors)
    let canvas = try LiveCanvas(width: 320, height: 192)
    try Player(content).play(60, into: canvas)
    // Fitted at 192 / 844 pixels per point: 88.7 pixels wide at x = round(115.6) = 116, so
    // columns 116...203 are the scene's whole pixels.
    let sky = scene.background
    var water = 0
    var mismatched = 0
    for y in 0..<192 {
      let left = try #require(canvas.pixel(x: 116, y: y))
      let right = try #require(canvas.pixel(x: 203, y: y))
      for x in 0..<116 where canvas.pixel(x: x, y: y) != left { mismatched += 1 }
      for x in 204..<320 where canvas.pixel(x: x, y: y) != right { mismatched += 1 }
      let r = Double(left >> 16 & 0xFF) / 255
      let g = Double(left >> 8 & 0xFF) / 255
      let b = Double(left & 0xFF) / 255
      if abs(r - sky.red) + abs(g - sky.green) + abs(b - sky.blue) > 0.1 { water += 1 }
    }
    #expect(mismatched == 0, "bar pixels that are not their row's edge pixel")
    // The water reaches the canvas's left edge, so the bar beside it is water, not sky.
    #expect(water > 48, "rows whose left bar is not the background: \(water)")
  }
}
