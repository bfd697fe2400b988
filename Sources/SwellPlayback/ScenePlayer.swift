import Foundation
import SwellCairo
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes

/// Plays a scene and draws its frames into pixels the caller owns: a window's frame buffer, a
/// terminal grid's canvas, a GTK drawing area's Cairo context, a bare pixel buffer. Each frame,
/// the `SceneDriver` feeds the scene the motion due by the frame and advances its engines, and
/// the frame is drawn by the one frame-drawing function (`LayerRenderer.drawFrame`, in bands
/// on several cores), so a frame at the scene's own pixel size has the pixels of an offline
/// render of the same time.
///
/// The player owns no window and no loop: the host advances it, either with display-link frames
/// (``render(_:into:force:)``, ``idle(_:)``) or with timestamps it chooses (``advance(toTimestamp:)``),
/// and draws when it likes (``draw(at:into:)-(_,ImageSurface)``, ``draw(at:in:pixelWidth:pixelHeight:)``,
/// ``draw(at:into:)-(_,PixelBuffer)``). Use one player from one thread.
public final class ScenePlayer {
  /// The scene.
  public var scene: any Scene { driver.scene }
  /// The driver (its feed is the scene's motion).
  public let driver: SceneDriver
  /// The renderer: a full-size frame is drawn in horizontal bands on every core (at most 4),
  /// with the pixels of a single-threaded render.
  public let renderer: BandedFrameRenderer
  /// Whether each frame's presentation values are kept for ``traceText()``.
  public var tracing = false
  /// The scene's canvas when the player was made, points: ``layoutSize(for:pixelWidth:pixelHeight:)``
  /// keeps its shorter side when the scene is laid out for another shape.
  public let designSize: Size
  private let contextRenderer = LayerRenderer()
  private var traceRows: [[Double]] = []
  private var lastDrawn: (digest: Int, width: Int, height: Int)?
  /// The last tree ``render(_:into:force:)`` drew, where and how, for ``drawsOnlyDamage``.
  private var lastFrame: LastFrame?

  /// A frame drawn into an image: the image is held weakly, so one freed and another made at
  /// its address is never taken for it.
  private struct LastFrame {
    let tree: Layer
    weak var image: ImageSurface?
    let placement: FramePlacement
  }
  private var nextIndex = 0
  private var lastTarget: Double?
  /// False when the last ``render(_:into:force:)`` found the presentation already drawn.
  public private(set) var lastRenderChangedPixels = true
  /// Whether ``render(_:into:force:)`` draws only the pixels that changed since the frame it
  /// drew last into the same image (`SwellRender/FrameDamage`), over that frame's pixels. Set
  /// it only when nothing else draws into the image between frames, or pass `force` after
  /// something did (a live window's HUD). Default `false`: every frame is drawn whole.
  public var drawsOnlyDamage = false
  /// The pixels the last ``render(_:into:force:)`` drew: `nil` for the whole image (and when it
  /// drew nothing, see ``lastRenderChangedPixels``), else the region of a frame drawn over the
  /// previous one (``drawsOnlyDamage``), which is all a window needs to show again.
  public private(set) var lastRenderRegion: PixelRect?
  /// The system's Reduce Motion setting, read before each frame advances: when it returns a
  /// value other than the last one, the scene follows it (`Scene.setSystemReduceMotion(_:)`).
  /// Give it something cheap and thread-safe, such as SwellDesktop's
  /// `{ desktop.isReduceMotionEnabled }`, whose value a thread of its own keeps up to date; a
  /// change takes effect at the next frame. `nil` (the default) leaves the scene as it was made.
  public var systemReduceMotion: (@Sendable () -> Bool)?
  /// The value ``systemReduceMotion`` gave last, or `nil` before the first frame read it.
  public private(set) var isSystemReduceMotionEnabled: Bool?
  /// What fills the target around a scene fitted into it (a scene file with fixed frames drawn
  /// into a target of another size): the background colour (the default) or the scene's edge
  /// colours continued outward (a terminal grid, whose wide bars beside a portrait scene would
  /// otherwise cut off water that reaches the canvas edge). A scene drawn at its own pixel size
  /// or laid out to fill the target has no margins, so this changes nothing there.
  public var margins: Margins = .background
  private var fittedImage: ImageSurface?

  /// How the margins around a scene fitted into a target of another aspect are filled.
  public enum Margins: Sendable, Hashable {
    /// The scene's background colour, painted over the whole target before the scene.
    case background
    /// The scene's edge pixels continued outward: each margin pixel takes the colour of the
    /// nearest pixel of the fitted scene (its row's first or last pixel beside it, its column's
    /// above or below it). The scene is drawn at its fitted size into an image of its whole
    /// pixels, which is painted over the whole target with Cairo's `CAIRO_EXTEND_PAD`; a
    /// pixel the fitted canvas only partly covers at its right or bottom edge takes the
    /// colour beside it. Every other pixel of the scene is the one
    /// ``ScenePlayer/Margins/background`` draws.
    case edgeColors
  }

  /// Creates a player.
  ///
  /// The feed is told the scene's interface orientation (`SceneMotionFeed.setInterfaceOrientation(_:)`:
  /// a keyboard or mouse `TiltMotionFeed` holds its simulated phone in it, so at rest the water
  /// is level in every orientation).
  ///
  /// - Parameters:
  ///   - scene: The scene.
  ///   - motion: Its motion.
  ///   - framesPerSecond: The nominal frame rate of the scene's display link (default 60).
  ///   - renderer: The renderer (default: a new banded one).
  public init(
    scene: any Scene, motion: any SceneMotionFeed, framesPerSecond: Double = 60,
    renderer: BandedFrameRenderer = BandedFrameRenderer()
  ) {
    motion.setInterfaceOrientation(scene.orientation)
    driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: framesPerSecond)
    designSize = scene.size
    self.renderer = renderer
  }

  /// The canvas, in points, that a scene designed for `design` is laid out on to fill a frame
  /// buffer of another shape: the buffer's aspect ratio, with the design's shorter side kept
  /// (390 × 844 shown in an 80 × 24 terminal, 320 × 192 pixels, is laid out on 650 × 390
  /// points; in a 1600 × 1000-pixel window on 624 × 390).
  ///
  /// - Parameters:
  ///   - design: The scene's own canvas, points.
  ///   - pixelWidth: The frame buffer's width, pixels (positive).
  ///   - pixelHeight: The frame buffer's height, pixels (positive).
  /// - Returns: The canvas, points.
  public static func layoutSize(for design: Size, pixelWidth: Int, pixelHeight: Int) -> Size {
    let short = min(design.width, design.height)
    let aspect = Double(max(pixelWidth, 1)) / Double(max(pixelHeight, 1))
    return aspect >= 1
      ? Size(width: short * aspect, height: short) : Size(width: short, height: short / aspect)
  }

  /// Lays a resizable scene out for a frame buffer that is not the scene's pixel size (a
  /// window resized by hand, a terminal grid): the scene fills it instead of being letterboxed
  /// (`Scene.layOut(size:scale:)`, for a scene whose `Scene.isResizable` is true).
  ///
  /// - Parameters:
  ///   - pixelWidth: The frame buffer's width, pixels.
  ///   - pixelHeight: The frame buffer's height, pixels.
  /// - Returns: Whether the scene now fills the frame buffer exactly.
  @discardableResult
  public func layOut(pixelWidth: Int, pixelHeight: Int) -> Bool {
    if pixelSize == (pixelWidth, pixelHeight) { return true }
    guard scene.isResizable else { return false }
    let size = Self.layoutSize(for: designSize, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    scene.layOut(size: size, scale: Double(pixelWidth) / size.width)
    return true
  }

  /// The scene's pixel size: canvas × scale.
  public var pixelSize: (width: Int, height: Int) {
    let w = max(1, Int((scene.size.width * scene.scale).rounded()))
    let h = max(1, Int((scene.size.height * scene.scale).rounded()))
    return (w, h)
  }

  /// Feeds the motion due by a display-link frame and advances the scene to it (a trace row is
  /// kept when ``tracing``).
  ///
  /// - Parameter frame: The frame, target times increasing across calls.
  /// - Throws: `SceneMotionError` when the motion failed.
  public func advance(to frame: DisplayLinkFrame) throws {
    if let systemReduceMotion {
      let enabled = systemReduceMotion()
      if enabled != isSystemReduceMotionEnabled {
        isSystemReduceMotionEnabled = enabled
        scene.setSystemReduceMotion(enabled)
      }
    }
    try driver.advance(to: frame)
    nextIndex = frame.index + 1
    lastTarget = frame.targetTimestamp
    if tracing { traceRows.append(driver.traceRow(at: frame.targetTimestamp)) }
  }

  /// Advances the scene to a time the host chose (a GTK frame clock's, a game loop's): the
  /// frame drawn next is the one for `timestamp`, scene seconds (the feed's
  /// `SceneMotionFeed.startTime` is the first frame's time for a recording, 0 for live and
  /// simulated motion). A time at or before the previous one advances nothing.
  ///
  /// - Parameter timestamp: The frame's target time, scene seconds.
  /// - Returns: The frame the scene is now at.
  /// - Throws: `SceneMotionError` when the motion failed.
  @discardableResult
  public func advance(toTimestamp timestamp: Double) throws -> DisplayLinkFrame {
    let previous = lastTarget ?? -Double.infinity
    let target = max(timestamp, previous)
    let frame = DisplayLinkFrame(
      index: nextIndex, timestamp: lastTarget ?? target, targetTimestamp: target)
    guard target > previous else { return frame }
    try advance(to: frame)
    return frame
  }

  /// The time of the last frame advanced to (``advance(to:)`` or ``advance(toTimestamp:)``), scene
  /// seconds, or `nil` before the first.
  public var currentTime: Double? { lastTarget }

  /// Feeds the motion due by the frame and advances the scene; draws it into the image only
  /// when the presentation changed since the frame drawn last (its `appearanceDigest`), or
  /// when `force` is set (see ``lastRenderChangedPixels``).
  ///
  /// - Parameters:
  ///   - frame: The display-link frame.
  ///   - image: The frame buffer.
  ///   - force: Draw even when nothing changed.
  /// - Throws: `SceneMotionError` when the motion failed, `RenderError` when drawing did.
  public func render(_ frame: DisplayLinkFrame, into image: ImageSurface, force: Bool) throws {
    let (width, height) = image.pixelSize
    layOut(pixelWidth: width, pixelHeight: height)
    try advance(to: frame)
    let tree = scene.root.presentation(at: frame.targetTimestamp)
    let digest = tree.appearanceDigest()
    lastRenderRegion = nil
    if !force, let last = lastDrawn, last == (digest, width, height) {
      lastRenderChangedPixels = false
      return
    }
    let placement = placement(for: tree, pixelWidth: width, pixelHeight: height)
    var damage = FrameDamage.full
    if drawsOnlyDamage, !force, !drawsFitted(placement, pixelWidth: width, pixelHeight: height),
      let last = lastFrame, last.image === image, last.placement == placement
    {
      damage = FrameDamage.between(
        last.tree, tree, placement: placement, pixelWidth: width, pixelHeight: height)
    }
    switch damage {
    case .none:
      lastRenderChangedPixels = false
    case .region(let region):
      try renderer.drawFrame(
        tree, background: scene.background, placement: placement, into: image, region: region)
      lastRenderRegion = region
      lastRenderChangedPixels = true
    case .full:
      try draw(tree, into: image)
      lastRenderChangedPixels = true
    }
    lastDrawn = (digest, width, height)
    lastFrame = drawsOnlyDamage ? LastFrame(tree: tree, image: image, placement: placement) : nil
  }

  /// Feeds the motion and advances the scene without drawing (a hidden window).
  ///
  /// - Parameter frame: The display-link frame.
  /// - Throws: `SceneMotionError` when the motion failed.
  public func idle(_ frame: DisplayLinkFrame) throws {
    try advance(to: frame)
    _ = driver.motion.takeArrivals()
  }

  /// True for live sources (udp, iio, phone): frames start late to carry the newest samples.
  public var latchesLate: Bool { driver.motion.latchesLate }

  /// The latencies of the live samples the presented frame used first, seconds.
  ///
  /// - Parameter presentedAt: When the frame was presented, `CLOCK_MONOTONIC` seconds.
  /// - Returns: `presentedAt` minus each sample's arrival (none for recordings and tilt).
  public func motionLatencies(presentedAt: Double) -> [Double] {
    driver.motion.takeArrivals().map { presentedAt - $0 }
  }

  /// The traced frames as `swell trace` CSV: a `time` column (the frame's target time, scene
  /// seconds) and the scene's trace keys.
  ///
  /// - Returns: The CSV text.
  public func traceText() -> String {
    let format = SceneTraceFormat(keys: scene.traceKeys)
    var text = format.header
    for (i, row) in traceRows.enumerated() { format.appendRow(row, first: i == 0, to: &text) }
    return text
  }

  /// An arrow key tilts a keyboard `TiltMotionFeed` (`SceneMotionFeed.press(_:at:)`; other feeds
  /// ignore it unless they implement it).
  ///
  /// - Parameters:
  ///   - direction: The arrow.
  ///   - time: The scene time, seconds.
  public func tilt(_ direction: TiltDirection, at time: Double) {
    driver.motion.press(direction, at: time)
  }

  /// The pointer tilts a mouse `TiltMotionFeed` (`SceneMotionFeed.point(x:y:at:)`; other feeds
  /// ignore it unless they implement it).
  ///
  /// - Parameters:
  ///   - x: 0...1 across the view.
  ///   - y: 0...1 down the view.
  ///   - time: The scene time, seconds.
  public func point(x: Double, y: Double, at time: Double) {
    driver.motion.point(x: x, y: y, at: time)
  }

  /// Re-centres the viewer offset (file scenes that support it).
  ///
  /// - Parameter time: The scene time, seconds.
  public func recenterViewerOffset(at time: Double) {
    scene.recenterViewerOffset(at: time)
  }

  /// The HUD's lines, most telling first (a terminal shows them in one row of 80 columns): the
  /// motion's status line, the viewer offset (`offset H V`, −1...1, the interface's axes), the
  /// water's angle (a physical water's surface angle, `surface +12.3°`; else the first water's
  /// `transform.rotation.z`, `water +12.3°`), and `Reduce Motion` while the system asks for it.
  ///
  /// - Parameter time: The scene time, seconds.
  /// - Returns: The lines.
  public func hudLines(at time: Double) -> [String] {
    var lines = [driver.motion.statusLine(at: time)]
    if let h = scene.traceValue("offset.horizontal", at: time),
      let v = scene.traceValue("offset.vertical", at: time)
    {
      lines.append(String(format: "offset %+.3f %+.3f", h, v))
    }
    let keys = scene.traceKeys
    if let key = keys.first(where: { $0.hasSuffix(".surface.angle") }),
      let angle = scene.traceValue(key, at: time)
    {
      lines.append(String(format: "surface %+.1f°", angle * 180 / .pi))
    } else if let key = keys.first(where: { $0.hasSuffix(".transform.rotation.z") }),
      let tilt = scene.traceValue(key, at: time)
    {
      lines.append(String(format: "water %+.1f°", tilt * 180 / .pi))
    }
    if isSystemReduceMotionEnabled == true { lines.append("Reduce Motion") }
    return lines
  }

  /// Draws the scene's presentation at `time` into an image. A resizable file scene is first
  /// laid out for the image (``layOut(pixelWidth:pixelHeight:)``), so it fills it: a window of
  /// any shape, a terminal's whole grid. A scene at the image's pixel size is drawn with its
  /// scale; any other (a scene file with fixed frames) is fitted, centred with its aspect kept,
  /// the margins around it filled as ``margins`` says, and clipped to its canvas so that nothing
  /// beyond it (the water's overscan) shows beside it.
  ///
  /// - Parameters:
  ///   - time: Scene seconds.
  ///   - image: The frame buffer.
  /// - Throws: `RenderError` when drawing fails.
  public func draw(at time: Double, into image: ImageSurface) throws(RenderError) {
    let (width, height) = image.pixelSize
    layOut(pixelWidth: width, pixelHeight: height)
    try draw(scene.root.presentation(at: time), into: image)
  }

  /// Draws the scene's presentation at `time` into a Cairo context the caller owns (a GTK
  /// drawing area's), whose target is `pixelWidth × pixelHeight` device units, placed and laid
  /// out as ``draw(at:into:)-(_,ImageSurface)`` places it in an image of that size. The context's state is
  /// restored afterwards.
  ///
  /// - Parameters:
  ///   - time: Scene seconds.
  ///   - context: The target.
  ///   - pixelWidth: The target's width, pixels (positive).
  ///   - pixelHeight: The target's height, pixels (positive).
  /// - Throws: `RenderError` when drawing fails.
  public func draw(
    at time: Double, in context: CairoContext, pixelWidth: Int, pixelHeight: Int
  ) throws(RenderError) {
    layOut(pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    let tree = scene.root.presentation(at: time)
    let placement = placement(for: tree, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    if let fitted = try drawFitted(
      tree, placement: placement, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    {
      context.save()
      defer { context.restore() }
      context.setSource(
        fitted, x: placement.offset.x, y: placement.offset.y, filter: .nearest, extend: .pad)
      context.paint()
      return
    }
    contextRenderer.antialias = renderer.antialias
    try contextRenderer.drawFrame(
      tree, background: scene.background, placement: placement, in: context)
  }

  /// Draws the scene's presentation at `time` into a pixel buffer the caller owns, as
  /// ``draw(at:into:)-(_,ImageSurface)`` draws into an image.
  ///
  /// - Parameters:
  ///   - time: Scene seconds.
  ///   - buffer: The pixels.
  /// - Throws: `RenderError` for a size or stride the renderer cannot use, or when drawing
  ///   fails.
  public func draw(at time: Double, into buffer: PixelBuffer) throws(RenderError) {
    try buffer.withImage { (image) throws(RenderError) in try draw(at: time, into: image) }
  }

  private func draw(_ tree: Layer, into image: ImageSurface) throws(RenderError) {
    let (width, height) = image.pixelSize
    let placement = placement(for: tree, pixelWidth: width, pixelHeight: height)
    if let fitted = try drawFitted(
      tree, placement: placement, pixelWidth: width, pixelHeight: height)
    {
      let context: CairoContext
      do {
        context = try CairoContext(surface: image)
      } catch {
        throw RenderError(.invalidFrame, reason: "cannot draw into the frame (\(error))")
      }
      context.compositingOperator = .source
      context.setSource(
        fitted, x: placement.offset.x, y: placement.offset.y, filter: .nearest, extend: .pad)
      context.paint()
      image.flush()
      return
    }
    try renderer.drawFrame(
      tree, background: scene.background, placement: placement, into: image)
  }

  /// True when frames go through ``drawFitted(_:placement:pixelWidth:pixelHeight:)``'s image
  /// (edge-colour margins around a scene of another size): those are drawn whole.
  private func drawsFitted(_ placement: FramePlacement, pixelWidth: Int, pixelHeight: Int) -> Bool {
    margins == .edgeColors && pixelSize != (pixelWidth, pixelHeight)
  }

  /// With ``Margins/edgeColors`` and a fitted placement (an offset from the target's corner,
  /// whole pixels, as `FramePlacement.fitting` rounds it), the scene drawn at its fitted scale
  /// into an image of the fitted canvas's whole pixels (kept for the next frame); else `nil`.
  private func drawFitted(
    _ tree: Layer, placement: FramePlacement, pixelWidth: Int, pixelHeight: Int
  ) throws(RenderError) -> ImageSurface? {
    guard margins == .edgeColors, pixelSize != (pixelWidth, pixelHeight),
      placement.scale.isFinite, placement.scale > 0,
      abs(placement.offset.x) < Double(pixelWidth) + 1,
      abs(placement.offset.y) < Double(pixelHeight) + 1
    else { return nil }
    let x = Int(placement.offset.x)
    let y = Int(placement.offset.y)
    // The whole pixels the canvas covers; a tiny tolerance keeps an exact fit from losing its
    // last column to rounding.
    let width = min(Int((scene.size.width * placement.scale + 1e-6).rounded(.down)), pixelWidth - x)
    let height = min(
      Int((scene.size.height * placement.scale + 1e-6).rounded(.down)), pixelHeight - y)
    guard x >= 0, y >= 0, width > 0, height > 0 else { return nil }
    let image: ImageSurface
    if let kept = fittedImage, kept.pixelSize == (width, height) {
      image = kept
    } else {
      do {
        image = try ImageSurface(pixelWidth: width, pixelHeight: height)
      } catch {
        throw RenderError(
          .invalidFrame, reason: "cannot make a \(width) × \(height) image (\(error))")
      }
      fittedImage = image
    }
    try renderer.drawFrame(
      tree, background: scene.background, placement: FramePlacement(scale: placement.scale),
      into: image)
    return image
  }

  /// The scene's scale when it is at the target's pixel size; else fitted, centred and clipped
  /// to its canvas (`masksToBounds` set on the presentation tree).
  private func placement(for tree: Layer, pixelWidth: Int, pixelHeight: Int) -> FramePlacement {
    if pixelSize == (pixelWidth, pixelHeight) { return FramePlacement(scale: scene.scale) }
    tree.masksToBounds = true
    return FramePlacement.fitting(scene.size, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
  }
}
