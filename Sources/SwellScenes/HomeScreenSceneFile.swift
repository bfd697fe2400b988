import SwellEffects
import SwellGeometry
import SwellLayers

extension SceneFile {
  /// The built-in `homescreen` scene as a scene file: the iOS 7 home screen of the
  /// UIMotionEffect seed on an iPhone-like canvas (390 × 844 points @3x). See
  /// ``homescreen(width:height:scale:orientation:)`` for what it holds.
  ///
  /// `swell scene print homescreen` writes exactly this.
  public static var homescreen: SceneFile { homescreen(width: 390, height: 844, scale: 3) }

  /// The `homescreen` scene laid out for a canvas size and interface orientation (in portrait
  /// the icon grid, page dots and dock scale with the width, laid out for 390 points; a wide
  /// interface, landscape or square, gets a 6 × 4 grid; the dock sits at the bottom):
  ///
  /// - `wallpaper`: a shape layer the canvas grown by 40 points on every side, filled with a
  ///   deep-blue vertical gradient, moved by two 40-point
  ///   `SwellEffects/InterpolatingMotionEffect`s on `center.x` (tilt along the horizontal
  ///   axis) and `center.y` (tilt along the vertical axis), so that it still covers the screen
  ///   at a full offset. They run from +40 points at offset −1 to −40 at +1 (the seed's range
  ///   with the signs swapped): the wallpaper moves against the viewer offset and looks
  ///   **recessed**, below the icons, as on iOS 7 (a −40...+40 range, the seed's example for a
  ///   view, would make it float in front of them). Tipping the device right (offset
  ///   `horizontal` > 0) moves it left. Its sublayers `faint-stars` and `stars` are shape
  ///   layers whose SVG path data holds the seeded star field (one circle per star, two arcs
  ///   each, centres and radii in hundredths of a point; about 82 % faint, alpha 0.45, the rest
  ///   bright, alpha 0.95; one star per 600 square points, denser toward the top).
  /// - `icon-ROW-COLUMN`: a grid of rounded-square icons, 4 × 6 in portrait (60 points at 390
  ///   wide), 6 × 4 on a wide interface (52 points at 390 high), corner radius 22.5 % of the
  ///   side, a vertical gradient of the icon's colour, each with a white disc glyph
  ///   `icon-ROW-COLUMN-glyph`; `page-dot-0...2`; and `dock`, a translucent rounded bar holding
  ///   the icons `dock-0...3`. None of them has motion effects: they stay put while
  ///   the wallpaper moves, which gives the parallax.
  /// - `trace`: `offset.horizontal`, `offset.vertical` (the applied viewer offset, −1...1),
  ///   `wallpaper.position.x`, `wallpaper.position.y` (presentation, points, snapped to whole
  ///   pixels), the columns docs/formats.md lists for `homescreen`.
  ///
  /// Colours are 8-bit hex values so that a printed file renders the same pixels.
  ///
  /// - Parameters:
  ///   - width: The canvas width, points (the device's portrait canvas).
  ///   - height: The canvas height, points.
  ///   - scale: Pixels per point.
  ///   - orientation: The interface orientation (default portrait); in landscape the layers are
  ///     laid out for `height × width` and the file's `orientation` is set.
  /// - Returns: The scene description.
  public static func homescreen(
    width: Double, height: Double, scale: Double, orientation: InterfaceOrientation = .portrait
  ) -> SceneFile {
    // The canvas is the device's portrait canvas; the layers are laid out for the interface.
    let size =
      orientation.isLandscape
      ? Size(width: height, height: width) : Size(width: width, height: height)
    let range = HomeScreen.effectRange
    var wallpaper = LayerSpec(
      type: .shape, name: "wallpaper",
      frame: [-range, -range, size.width + 2 * range, size.height + 2 * range])
    wallpaper.fill = .gradient(
      LinearGradient(
        stops: HomeScreen.wallpaperStops.map {
          GradientStop(location: $0.location, color: HomeScreen.hex($0.color))
        }))
    let stars = HomeScreen.Stars(
      size: Size(width: size.width + 2 * range, height: size.height + 2 * range),
      seed: HomeScreen.starSeed)
    wallpaper.sublayers = [
      HomeScreen.starLayer(name: "faint-stars", data: stars.faint, alpha: 0.45),
      HomeScreen.starLayer(name: "stars", data: stars.bright, alpha: 0.95),
    ]
    // Recessed: +40 at offset −1, −40 at +1 (Apple's MotionEffects sample: a positive minimum
    // with a negative maximum makes a view look farther away than the screen), so the wallpaper
    // lies below the icons as on iOS 7.
    var effectX = InterpolatingMotionEffect(keyPath: "center.x", type: .tiltAlongHorizontalAxis)
    effectX.minimumRelativeValue = .number(range)
    effectX.maximumRelativeValue = .number(-range)
    var effectY = InterpolatingMotionEffect(keyPath: "center.y", type: .tiltAlongVerticalAxis)
    effectY.minimumRelativeValue = .number(range)
    effectY.maximumRelativeValue = .number(-range)
    wallpaper.motionEffects = [AnyMotionEffect(effectX), AnyMotionEffect(effectY)]

    var layers = [wallpaper]
    let layout = HomeScreenLayout(size: size)
    for (i, frame) in layout.gridFrames.enumerated() {
      layers.append(
        HomeScreen.icon(
          name: "icon-\(i / layout.columns)-\(i % layout.columns)", frame: frame,
          color: HomeScreen.palette[i % HomeScreen.palette.count]))
    }
    for (i, frame) in layout.pageDotFrames.enumerated() {
      var dot = LayerSpec(name: "page-dot-\(i)", frame: HomeScreen.array(frame))
      dot.backgroundColor = HomeScreen.hexSpec(Color.white.withAlpha(i == 0 ? 0.95 : 0.45))
      dot.cornerRadius = frame.width / 2
      layers.append(dot)
    }
    var dock = LayerSpec(name: "dock", frame: HomeScreen.array(layout.dockFrame))
    dock.backgroundColor = HomeScreen.hexSpec(Color(red: 0.85, green: 0.9, blue: 1, alpha: 0.28))
    dock.cornerRadius = 28
    dock.sublayers = layout.dockIconFrames.enumerated().map { i, frame in
      HomeScreen.icon(
        name: "dock-\(i)", frame: frame,
        color: HomeScreen.dockPalette[i % HomeScreen.dockPalette.count])
    }
    layers.append(dock)

    var file = SceneFile(
      name: "homescreen",
      canvas: Canvas(width: width, height: height, scale: scale, background: ColorSpec(.black)),
      layers: layers)
    if orientation != .portrait { file.orientation = orientation }
    file.trace = [
      "offset.horizontal", "offset.vertical", "wallpaper.position.x", "wallpaper.position.y",
    ]
    return file
  }
}

/// The parts of the `homescreen` scene file.
enum HomeScreen {
  /// How far the wallpaper moves each way at a full offset, points (the seed's 40; the signs make
  /// it recessed: +40 at offset −1, −40 at +1).
  static let effectRange = 40.0

  /// The seed of the star field: the same stars every time.
  static let starSeed: UInt64 = 0x5354_4152_5321

  /// The wallpaper's gradient, top to bottom.
  static let wallpaperStops: [(location: Double, color: Color)] = [
    (0, Color(red: 0.02, green: 0.05, blue: 0.16)),
    (0.45, Color(red: 0.06, green: 0.18, blue: 0.42)),
    (0.8, Color(red: 0.13, green: 0.36, blue: 0.70)),
    (1, Color(red: 0.32, green: 0.55, blue: 0.86)),
  ]

  /// Icon colours of the grid, top left to bottom right (repeating).
  static let palette: [Color] = [
    Color(red: 0.20, green: 0.78, blue: 0.35), Color(red: 1.00, green: 0.58, blue: 0.00),
    Color(red: 0.00, green: 0.48, blue: 1.00), Color(red: 1.00, green: 0.23, blue: 0.19),
    Color(red: 0.35, green: 0.34, blue: 0.84), Color(red: 1.00, green: 0.80, blue: 0.00),
    Color(red: 0.19, green: 0.69, blue: 0.78), Color(red: 1.00, green: 0.18, blue: 0.33),
    Color(red: 0.56, green: 0.56, blue: 0.58), Color(red: 0.64, green: 0.52, blue: 0.37),
    Color(red: 0.69, green: 0.32, blue: 0.87), Color(red: 0.30, green: 0.85, blue: 0.39),
  ]

  /// Icon colours of the dock.
  static let dockPalette: [Color] = [
    Color(red: 0.20, green: 0.78, blue: 0.35), Color(red: 0.00, green: 0.48, blue: 1.00),
    Color(red: 1.00, green: 1.00, blue: 1.00), Color(red: 1.00, green: 0.23, blue: 0.19),
  ]

  /// A colour rounded to the 8-bit hex value a scene file holds.
  static func hex(_ color: Color) -> Color { Color(hex: color.hexString) ?? color }

  /// A colour rounded to 8 bits, as a scene-file colour.
  static func hexSpec(_ color: Color) -> ColorSpec { ColorSpec(hex(color)) }

  /// A frame as a scene file writes it.
  static func array(_ r: Rect) -> [Double] { [r.minX, r.minY, r.width, r.height] }

  /// A layer of stars covering the wallpaper (no frame: the parent's bounds).
  static func starLayer(name: String, data: String, alpha: Double) -> LayerSpec {
    var layer = LayerSpec(type: .shape, name: name, frame: nil)
    // The data is built from whole hundredths by `Stars`, so it always parses.
    if let path = try? SVGPath(data) { layer.shape = .pathData(path) }
    layer.fill = .color(hexSpec(Color(red: 0.92, green: 0.95, blue: 1, alpha: alpha)))
    return layer
  }

  /// An app icon: a rounded square with a vertical gradient of `color` and a disc glyph.
  static func icon(name: String, frame: Rect, color: Color) -> LayerSpec {
    var icon = LayerSpec(type: .shape, name: name, frame: array(frame))
    let radius = frame.width * 0.225
    icon.cornerRadius = radius
    icon.shape = .rect(cornerRadius: radius)
    icon.fill = .gradient(
      .vertical(
        from: hex(color.interpolated(to: .white, fraction: 0.25)),
        to: hex(color.interpolated(to: .black, fraction: 0.12))))
    let d = frame.width * 0.42
    var glyph = LayerSpec(
      type: .shape, name: "\(name)-glyph",
      frame: [(frame.width - d) / 2, (frame.height - d) / 2, d, d])
    glyph.shape = .ellipse
    glyph.fill = .color(
      hexSpec(color == .white ? Color(red: 0.2, green: 0.6, blue: 1) : Color.white.withAlpha(0.85)))
    icon.sublayers = [glyph]
    return icon
  }

  /// A deterministic star field: small discs scattered with a seeded generator (SplitMix64),
  /// denser toward the top (y = h·u², u uniform), in two brightness layers, as SVG path data:
  /// each star a circle of two arcs starting at its rightmost point, centres and radii rounded
  /// to hundredths of a point.
  struct Stars {
    /// The faint stars' path data.
    let faint: String
    /// The bright stars' path data.
    let bright: String
    /// The number of stars (one per 600 square points).
    let count: Int

    init(size: Size, seed: UInt64) {
      var state = seed
      func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
      }
      func hundredths(_ v: Double) -> Int { Int((v * 100).rounded()) }
      var faint: [String] = []
      var bright: [String] = []
      let n = Int((size.width * size.height / 600).rounded())
      for _ in 0..<n {
        let x = hundredths(next() * size.width)
        let u = next()
        let y = hundredths(u * u * size.height)
        let big = next() < 0.18
        let r = max(1, hundredths(big ? 0.8 + next() * 0.9 : 0.35 + next() * 0.45))
        let (rs, ds) = (Self.text(r), Self.text(2 * r))
        let star =
          "M\(Self.text(x + r)) \(Self.text(y))a\(rs) \(rs) 0 1 1 -\(ds) 0a\(rs) \(rs) 0 1 1 \(ds) 0z"
        if big { bright.append(star) } else { faint.append(star) }
      }
      self.faint = faint.joined(separator: " ")
      self.bright = bright.joined(separator: " ")
      count = n
    }

    /// Hundredths as the shortest decimal text: 1250 → `12.5`, 7 → `0.07`, −300 → `-3`.
    static func text(_ hundredths: Int) -> String {
      let sign = hundredths < 0 ? "-" : ""
      let v = abs(hundredths)
      var fraction = v % 100 < 10 ? "0\(v % 100)" : "\(v % 100)"
      while fraction.hasSuffix("0") { fraction.removeLast() }
      return sign + "\(v / 100)" + (fraction.isEmpty ? "" : "." + fraction)
    }
  }
}

/// The home screen's geometry, laid out for the canvas (the interface's size, points):
///
/// - **portrait** (height at least 1.5 × width, a phone held upright): a 4-column × 6-row icon
///   grid, page dots and the dock, scaled to the canvas width (laid out for 390 points: 60-point
///   icons, rows 92 points apart from y = 72, a 96-point dock 14 points above the bottom);
/// - **wide** (anything squarer or wider, e.g. landscape): a 6-column × 4-row grid laid out for
///   844 × 390 points (52-point icons, rows 64 points apart from y = 20, a 70-point dock 10 points
///   above the bottom), scaled by `min(height / 390, width / 400)` so that it fits both ways.
struct HomeScreenLayout {
  let columns: Int
  let rows: Int
  let gridFrames: [Rect]
  let pageDotFrames: [Rect]
  let dockFrame: Rect
  let dockIconFrames: [Rect]

  init(size: Size) {
    let portrait = size.height >= 1.5 * size.width
    // The template: (columns, rows, icon, top, row pitch, dock height, dock bottom margin,
    // page dots above the dock), in points of the design canvas, and the scale to the canvas.
    let t =
      portrait
      ? (
        columns: 4, rows: 6, icon: 60.0, top: 72.0, pitch: 92.0, dock: 96.0, margin: 14.0,
        dots: 26.0, k: size.width / 390
      )
      : (
        columns: 6, rows: 4, icon: 52.0, top: 20.0, pitch: 64.0, dock: 70.0, margin: 10.0,
        dots: 18.0, k: min(size.height / 390, size.width / 400)
      )
    let k = t.k
    columns = t.columns
    rows = t.rows
    let icon = t.icon * k
    let gap = (size.width - Double(columns) * icon) / Double(columns + 1)
    var grid: [Rect] = []
    for r in 0..<rows {
      for c in 0..<columns {
        grid.append(
          Rect(
            x: gap + Double(c) * (icon + gap), y: t.top * k + Double(r) * t.pitch * k,
            width: icon, height: icon))
      }
    }
    gridFrames = grid
    let dockHeight = t.dock * k
    let dock = Rect(
      x: 12 * k, y: size.height - dockHeight - t.margin * k, width: size.width - 24 * k,
      height: dockHeight)
    dockFrame = dock
    let dot = 7 * k
    pageDotFrames = (0..<3).map { i in
      Rect(
        x: size.width / 2 + (Double(i) - 1.5) * 2 * dot + dot / 2, y: dock.minY - t.dots * k,
        width: dot, height: dot)
    }
    let inner = (dock.width - 4 * icon) / 5
    dockIconFrames = (0..<4).map { i in
      Rect(
        x: inner + Double(i) * (icon + inner), y: (dockHeight - icon) / 2, width: icon,
        height: icon)
    }
  }
}
