import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion

/// The built-in `homescreen` scene: the iOS 7 home screen of the UIMotionEffect seed. A blue
/// star-field wallpaper, larger than the screen by the effect range on every side, moves with a
/// ±40-point ``InterpolatingMotionEffect`` on each axis (`center.x`, `center.y`), while a grid
/// of app icons and the dock stay put, which gives the parallax.
///
/// Motion drives a ``ViewerOffsetEngine`` (the system's rules: neutral first pose, slow
/// re-centering, 30 applications per second, dead-band, Reduce Motion); each frame's applied
/// offset goes to the wallpaper through a ``MotionEffectApplicator``.
///
/// Traced values: `offset.horizontal`, `offset.vertical` (the applied viewer offset, −1...1)
/// and `wallpaper.position.x`, `wallpaper.position.y` (the wallpaper's presentation position,
/// points, snapped to whole pixels).
public final class HomeScreenScene: Scene {
  /// `homescreen`.
  public let name = "homescreen"
  /// The canvas size, points (default 390 × 844).
  public let size: Size
  /// Pixels per point (default 3).
  public let scale: Double
  /// Black behind everything (never visible: the wallpaper covers the screen).
  public let background = Color.black
  /// The root layer; its bounds are the canvas.
  public let root: Layer
  /// The star-field wallpaper, named `wallpaper`: a gradient with the stars as sublayers.
  public let wallpaper: ShapeLayer
  /// The app icons of the grid and the dock, named `icon-ROW-COLUMN` and `dock-N`.
  public let icons: [Layer]
  /// The dock, named `dock`.
  public let dock: Layer
  /// How far the wallpaper moves each way at a full offset, points (the seed's 40).
  public let effectRange: Double
  /// The viewer-offset engine.
  public private(set) var engine: ViewerOffsetEngine
  /// The applicator (portrait).
  public let applicator = MotionEffectApplicator()
  /// The traced values.
  public let traceKeys = [
    "offset.horizontal", "offset.vertical", "wallpaper.position.x", "wallpaper.position.y",
  ]

  /// The seed of the star field: the same stars every time.
  public static let starSeed: UInt64 = 0x5354_4152_5321

  /// Creates the scene.
  ///
  /// - Parameters:
  ///   - options: Canvas overrides and Reduce Motion.
  ///   - configuration: The engine's constants (default the system's; Reduce Motion comes from
  ///     `options`).
  ///   - effectRange: The wallpaper's travel each way at a full offset, points (default 40).
  public init(
    options: SceneOptions = SceneOptions(),
    configuration: ViewerOffsetEngine.Configuration = .init(), effectRange: Double = 40
  ) {
    size = Size(width: options.width ?? 390, height: options.height ?? 844)
    scale = options.scale ?? 3
    self.effectRange = effectRange
    var c = configuration
    c.reduceMotion = c.reduceMotion || options.reduceMotion
    engine = ViewerOffsetEngine(configuration: c)
    root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
    root.contentsScale = scale
    root.masksToBounds = true

    wallpaper = HomeScreenScene.makeWallpaper(size: size, margin: effectRange, scale: scale)
    root.addSublayer(wallpaper)
    var effectX = InterpolatingMotionEffect(keyPath: "center.x", type: .tiltAlongHorizontalAxis)
    effectX.minimumRelativeValue = .number(-effectRange)
    effectX.maximumRelativeValue = .number(effectRange)
    var effectY = InterpolatingMotionEffect(keyPath: "center.y", type: .tiltAlongVerticalAxis)
    effectY.minimumRelativeValue = .number(-effectRange)
    effectY.maximumRelativeValue = .number(effectRange)
    wallpaper.addMotionEffect(effectX)
    wallpaper.addMotionEffect(effectY)

    var icons: [Layer] = []
    let layout = HomeScreenLayout(size: size)
    for (i, frame) in layout.gridFrames.enumerated() {
      let icon = HomeScreenScene.makeIcon(
        name: "icon-\(i / layout.columns)-\(i % layout.columns)", frame: frame,
        color: HomeScreenScene.palette[i % HomeScreenScene.palette.count], scale: scale)
      root.addSublayer(icon)
      icons.append(icon)
    }
    for (i, frame) in layout.pageDotFrames.enumerated() {
      let dot = Layer(name: "page-dot-\(i)", frame: frame)
      dot.backgroundColor = Color.white.withAlpha(i == 0 ? 0.95 : 0.45)
      dot.cornerRadius = frame.width / 2
      dot.contentsScale = scale
      root.addSublayer(dot)
    }
    dock = Layer(name: "dock", frame: layout.dockFrame)
    dock.backgroundColor = Color(red: 0.85, green: 0.9, blue: 1, alpha: 0.28)
    dock.cornerRadius = 28
    dock.contentsScale = scale
    root.addSublayer(dock)
    for (i, frame) in layout.dockIconFrames.enumerated() {
      let icon = HomeScreenScene.makeIcon(
        name: "dock-\(i)", frame: frame,
        color: HomeScreenScene.dockPalette[i % HomeScreenScene.dockPalette.count], scale: scale)
      dock.addSublayer(icon)
      icons.append(icon)
    }
    self.icons = icons
  }

  /// Feeds the sample's attitude to the engine.
  ///
  /// - Parameter motion: The sample.
  public func receive(_ motion: DeviceMotion) {
    engine.receive(motion)
  }

  /// Runs the engine at the frame's target time and applies a new offset to the wallpaper
  /// when one is due.
  ///
  /// - Parameter frame: The frame.
  public func advance(to frame: DisplayLinkFrame) {
    if let offset = engine.advance(to: frame.targetTimestamp) {
      applicator.apply(offset, to: root)
    }
  }

  /// Makes the current attitude the viewer offset's neutral pose, as the live view's `r` key
  /// does: the engine forgets its reference and takes the latest attitude it received as the
  /// new neutral pose, so the offset is (0, 0) again (apple-semantics §3.6 re-centres only
  /// slowly, at about 2°/s; this is the immediate version). The (0, 0) offset is applied to the
  /// layers at once; later samples move the offset from the new neutral pose.
  ///
  /// - Parameter time: The scene time of the request, seconds (the last frame's time or later;
  ///   the next frame's target time must not be earlier).
  public func recenterViewerOffset(at time: Double) {
    let latest = engine.analyzer.attitude
    let latestTime = engine.analyzer.timestamp
    engine.reset()
    if let latest, let latestTime {
      engine.receive(attitude: Attitude(quaternion: latest), timestamp: latestTime)
    }
    if let offset = engine.advance(to: time) {
      applicator.apply(offset, to: root)
    }
  }

  /// A traced value: the applied offset (interface axes) or a presentation value.
  ///
  /// - Parameters:
  ///   - key: One of ``traceKeys`` (or any `LAYER.KEYPATH`).
  ///   - time: Seconds (the frame's target time).
  /// - Returns: The value, or `nil` for an unknown key.
  public func traceValue(_ key: String, at time: Double) -> Double? {
    let pose = applicator.pose(for: engine.appliedOffset)
    switch key {
    case "offset.horizontal": return pose.horizontal
    case "offset.vertical": return pose.vertical
    default: return layerTraceValue(key, at: time)
    }
  }

  // MARK: - Building

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

  private static func makeIcon(name: String, frame: Rect, color: Color, scale: Double)
    -> ShapeLayer
  {
    let icon = ShapeLayer()
    icon.name = name
    icon.frame = frame
    icon.contentsScale = scale
    icon.cornerRadius = frame.width * 0.225
    icon.path = Path(
      roundedRect: Rect(x: 0, y: 0, width: frame.width, height: frame.height),
      cornerRadius: frame.width * 0.225)
    let top = color.interpolated(to: .white, fraction: 0.25)
    let bottom = color.interpolated(to: .black, fraction: 0.12)
    icon.fillGradient = .vertical(from: top, to: bottom)
    // A simple glyph: a white disc in the middle.
    let glyph = ShapeLayer()
    glyph.name = "\(name)-glyph"
    let d = frame.width * 0.42
    glyph.frame = Rect(x: (frame.width - d) / 2, y: (frame.height - d) / 2, width: d, height: d)
    glyph.path = Path(ellipseIn: Rect(x: 0, y: 0, width: d, height: d))
    glyph.fillColor = Color.white.withAlpha(color == .white ? 0 : 0.85)
    if color == .white {
      glyph.fillColor = Color(red: 0.2, green: 0.6, blue: 1)
    }
    glyph.contentsScale = scale
    icon.addSublayer(glyph)
    return icon
  }

  /// The wallpaper: the canvas grown by `margin` on every side, a deep-blue vertical gradient
  /// with two layers of seeded stars.
  private static func makeWallpaper(size: Size, margin: Double, scale: Double) -> ShapeLayer {
    let frame = Rect(
      x: -margin, y: -margin, width: size.width + 2 * margin, height: size.height + 2 * margin)
    let w = ShapeLayer()
    w.name = "wallpaper"
    w.frame = frame
    w.contentsScale = scale
    let local = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
    w.path = Path(rect: local)
    w.fillGradient = LinearGradient(stops: [
      GradientStop(location: 0, color: Color(red: 0.02, green: 0.05, blue: 0.16)),
      GradientStop(location: 0.45, color: Color(red: 0.06, green: 0.18, blue: 0.42)),
      GradientStop(location: 0.8, color: Color(red: 0.13, green: 0.36, blue: 0.70)),
      GradientStop(location: 1, color: Color(red: 0.32, green: 0.55, blue: 0.86)),
    ])
    let field = StarField(size: local.size, seed: starSeed)
    for (i, layerStars) in [field.faint, field.bright].enumerated() {
      let stars = ShapeLayer()
      stars.name = i == 0 ? "faint-stars" : "stars"
      stars.frame = local
      stars.contentsScale = scale
      stars.path = layerStars
      stars.fillColor = Color(red: 0.92, green: 0.95, blue: 1, alpha: i == 0 ? 0.45 : 0.95)
      w.addSublayer(stars)
    }
    return w
  }
}

/// The home screen's geometry: a 4-column icon grid, page dots and the dock, scaled to the
/// canvas width (laid out for 390 points).
struct HomeScreenLayout {
  let columns = 4
  let rows = 6
  let gridFrames: [Rect]
  let pageDotFrames: [Rect]
  let dockFrame: Rect
  let dockIconFrames: [Rect]

  init(size: Size) {
    let k = size.width / 390
    let icon = 60 * k
    let gap = (size.width - Double(columns) * icon) / Double(columns + 1)
    var grid: [Rect] = []
    for r in 0..<rows {
      for c in 0..<columns {
        grid.append(
          Rect(
            x: gap + Double(c) * (icon + gap), y: 72 * k + Double(r) * 92 * k, width: icon,
            height: icon))
      }
    }
    gridFrames = grid
    let dockHeight = 96 * k
    let dock = Rect(
      x: 12 * k, y: size.height - dockHeight - 14 * k, width: size.width - 24 * k,
      height: dockHeight)
    dockFrame = dock
    let dot = 7 * k
    pageDotFrames = (0..<3).map { i in
      Rect(
        x: size.width / 2 + (Double(i) - 1.5) * 2 * dot + dot / 2, y: dock.minY - 26 * k,
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

/// A deterministic star field: small discs scattered with a seeded generator (SplitMix64),
/// denser toward the top, in two brightness layers.
struct StarField {
  let faint: Path
  let bright: Path
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
    var faint = Path()
    var bright = Path()
    let n = Int((size.width * size.height / 600).rounded())
    for _ in 0..<n {
      let x = next() * size.width
      // Denser toward the top: y = h·u², u uniform.
      let u = next()
      let y = u * u * size.height
      let big = next() < 0.18
      let r = big ? 0.8 + next() * 0.9 : 0.35 + next() * 0.45
      let disc = Path(ellipseIn: Rect(x: x - r, y: y - r, width: 2 * r, height: 2 * r))
      if big { bright.append(disc) } else { faint.append(disc) }
    }
    self.faint = faint
    self.bright = bright
    count = n
  }
}
