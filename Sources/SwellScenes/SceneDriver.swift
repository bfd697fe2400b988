import SwellLayers
import SwellMotion

/// The one loop that plays a scene, offline and live: for each display-link frame it feeds the
/// scene the motion due by the frame's target time (from a ``SceneMotionFeed``), advances the
/// scene's engines (the viewer-offset engine, the water responses) to the frame, and leaves the
/// presentation values ready to trace (``traceRow(at:)``) or draw (the scene's
/// `root.presentation(at:)`).
///
/// Offline (`swell render`, `swell trace`) the driver steps its own `DisplayLink` at exact
/// timestamps (``step()``); live (`swell live`), the live loop ticks a display link from vsync
/// and hands each frame to ``advance(to:)``. The two differ only in their clock and their frame
/// sink. Deterministic for a replayed feed: the same frames give the same values every run.
public struct SceneDriver {
  /// The scene being played.
  public let scene: any Scene
  /// Where the motion comes from.
  public let motion: any SceneMotionFeed
  private var link: DisplayLink

  /// Creates a driver over a feed.
  ///
  /// - Parameters:
  ///   - scene: The scene.
  ///   - motion: The feed.
  ///   - framesPerSecond: The frame rate of ``step()``, positive.
  ///   - startTime: The time of frame 0, seconds (default: the feed's ``SceneMotionFeed/startTime``).
  public init(
    scene: any Scene, motion: any SceneMotionFeed, framesPerSecond: Double,
    startTime: Double? = nil
  ) {
    self.scene = scene
    self.motion = motion
    link = DisplayLink(
      preferredFramesPerSecond: framesPerSecond, startTime: startTime ?? motion.startTime)
  }

  /// Creates a driver over motion held in memory.
  ///
  /// - Parameters:
  ///   - scene: The scene.
  ///   - motion: Device motion in increasing timestamp order (may be empty).
  ///   - framesPerSecond: The frame rate, positive.
  ///   - startTime: The time of frame 0, seconds (default: the first motion sample's time, or 0).
  public init(
    scene: any Scene, motion: [DeviceMotion], framesPerSecond: Double, startTime: Double? = nil
  ) {
    self.init(
      scene: scene, motion: ArrayMotionFeed(motion), framesPerSecond: framesPerSecond,
      startTime: startTime)
  }

  /// The display link's time of frame 0, seconds.
  public var startTime: Double { link.startTime }

  /// The frame rate of ``step()``.
  public var framesPerSecond: Double { link.preferredFramesPerSecond }

  /// The number of frames in `duration` seconds: `round(duration · fps)`, at least 1.
  ///
  /// Frame `i` is at `startTime + i / fps` for `i = 0 ..< round(duration · fps)` (docs/formats.md), so
  /// a 1 s export at 60 fps has 60 frames, at 0, 1/60, ... 59/60 s: the frame at 1 s is the first
  /// frame of the next second, and a looping GIF, WebP or MP4 shows every instant once. A
  /// duration shorter than half a frame still gives one frame (frame 0), so a single-frame
  /// output is never empty.
  ///
  /// - Parameter duration: Seconds, non-negative.
  /// - Returns: The frame count, at least 1.
  public func frameCount(duration: Double) -> Int {
    Self.frameCount(duration: duration, framesPerSecond: link.preferredFramesPerSecond)
  }

  /// The number of frames in `duration` seconds at a frame rate: `round(duration · fps)`, at
  /// least 1 (see ``frameCount(duration:)``).
  ///
  /// - Parameters:
  ///   - duration: Seconds, non-negative.
  ///   - framesPerSecond: The frame rate, positive.
  /// - Returns: The frame count, at least 1 (`Int.max` when the product does not fit).
  public static func frameCount(duration: Double, framesPerSecond: Double) -> Int {
    let n = (duration * framesPerSecond).rounded(.toNearestOrAwayFromZero)
    guard n.isFinite, n >= 1 else { return n.isNaN || n < 1 ? 1 : Int.max }
    return n < Double(Int.max) ? Int(n) : Int.max
  }

  /// Steps the driver's own display link to its next frame, feeds the motion due by it and
  /// advances the scene.
  ///
  /// - Returns: The frame the scene is now at (`nil` when the link is paused or invalidated).
  /// - Throws: ``SceneMotionError`` when the motion failed.
  public mutating func step() throws -> DisplayLinkFrame? {
    guard let frame = link.step() else { return nil }
    try advance(to: frame)
    return frame
  }

  /// Feeds the motion due by a frame's target time and advances the scene to it (the live loop's
  /// entry: its frames come from vsync).
  ///
  /// - Parameter frame: The frame, target times increasing across calls.
  /// - Throws: ``SceneMotionError`` when the motion failed.
  public func advance(to frame: DisplayLinkFrame) throws {
    for m in try motion.motions(upTo: frame.targetTimestamp) { scene.receive(m) }
    scene.advance(to: frame)
  }

  /// The trace row at a frame time: the time, then the scene's ``Scene/traceKeys`` values
  /// (unknown or non-finite values are 0, so NaN never appears).
  ///
  /// - Parameter time: The frame's target time, seconds.
  /// - Returns: `[time] + values`.
  public func traceRow(at time: Double) -> [Double] {
    var row = [time]
    for key in scene.traceKeys {
      let v = scene.traceValue(key, at: time) ?? 0
      row.append(v.isFinite ? v : 0)
    }
    return row
  }

  /// Plays `count` frames and returns one trace row per frame (``traceRow(at:)``).
  ///
  /// - Parameter count: The number of frames.
  /// - Returns: Rows of `[time] + values`.
  /// - Throws: ``SceneMotionError`` when the motion failed.
  public mutating func trace(frames count: Int) throws -> [[Double]] {
    var rows: [[Double]] = []
    rows.reserveCapacity(count)
    for _ in 0..<count {
      guard let f = try step() else { break }
      rows.append(traceRow(at: f.targetTimestamp))
    }
    return rows
  }
}
