import SwellLayers
import SwellMotion

/// Plays a scene offline: steps an offline `DisplayLink` at exact timestamps and feeds the
/// scene the motion samples due before each frame. Deterministic; used by `swell trace`,
/// `swell render` and tests.
public struct SceneDriver {
  /// The scene being played.
  public let scene: any Scene
  /// The motion samples, in increasing timestamp order.
  public let motion: [DeviceMotion]
  private var link: DisplayLink
  private var nextMotion = 0

  /// Creates a driver.
  ///
  /// - Parameters:
  ///   - scene: The scene.
  ///   - motion: Device motion in increasing timestamp order (may be empty).
  ///   - framesPerSecond: The frame rate, positive.
  ///   - startTime: The time of frame 0, seconds (default: the first motion sample's time, or 0).
  public init(
    scene: any Scene, motion: [DeviceMotion], framesPerSecond: Double, startTime: Double? = nil
  ) {
    self.scene = scene
    self.motion = motion
    link = DisplayLink(
      preferredFramesPerSecond: framesPerSecond,
      startTime: startTime ?? motion.first?.timestamp ?? 0)
  }

  /// The display link's time of frame 0, seconds.
  public var startTime: Double { link.startTime }

  /// The number of frames in `duration` seconds: `⌊duration · fps⌋ + 1`, frame 0 included,
  /// so a 1 s trace at 60 fps has frames at 0, 1/60, ... 1 s.
  ///
  /// - Parameter duration: Seconds, non-negative.
  /// - Returns: The frame count.
  public func frameCount(duration: Double) -> Int {
    Int((duration * link.preferredFramesPerSecond + 1e-9).rounded(.down)) + 1
  }

  /// Feeds the motion due by the next frame's target time and advances the scene to it.
  ///
  /// - Returns: The frame the scene is now at.
  public mutating func step() -> DisplayLinkFrame? {
    guard let frame = link.step() else { return nil }
    while nextMotion < motion.count && motion[nextMotion].timestamp <= frame.targetTimestamp + 1e-9
    {
      scene.receive(motion[nextMotion])
      nextMotion += 1
    }
    scene.advance(to: frame)
    return frame
  }

  /// Plays `count` frames and returns one trace row per frame: the frame's target time followed
  /// by the scene's ``Scene/traceKeys`` values (NaN never appears: unknown values are 0).
  ///
  /// - Parameter count: The number of frames.
  /// - Returns: Rows of `[time] + values`.
  public mutating func trace(frames count: Int) -> [[Double]] {
    var rows: [[Double]] = []
    rows.reserveCapacity(count)
    for _ in 0..<count {
      guard let f = step() else { break }
      let t = f.targetTimestamp
      var row = [t]
      for key in scene.traceKeys {
        let v = scene.traceValue(key, at: t) ?? 0
        row.append(v.isFinite ? v : 0)
      }
      rows.append(row)
    }
    return rows
  }
}
