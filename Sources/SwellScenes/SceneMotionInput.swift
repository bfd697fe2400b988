import Foundation
import SwellMotion
import SwellRecordings

/// The motion of an offline scene run (`swell render`, `swell trace`, `swell demo`): a recording
/// or a script through a `MotionManager` (fused on the way, every sample, streamed), or the
/// device resting upright.
public struct SceneMotionInput {
  /// The feed for a ``SceneDriver``.
  public var feed: any SceneMotionFeed
  /// The time the motion spans, seconds (5 s for the resting device).
  public var span: Double

  /// The most samples a script may produce.
  public static let maximumScriptSamples = 5_000_000

  /// A recording's motion: any file, folder or zip `swell fuse` reads. Raw samples are fused
  /// (6D, `xArbitraryZVertical`) by a `MotionManager`; device motion passes through. Raw IMU
  /// and device-motion CSVs are streamed, so memory does not grow with the recording.
  ///
  /// - Parameters:
  ///   - url: The recording.
  ///   - loops: Replay it from the start when it ends.
  ///   - skip: Seconds after its first sample to start at (the samples before are fused, not
  ///     delivered; default 0).
  /// - Returns: The input.
  /// - Throws: ``SceneMotionError`` naming the file (and line and column) of the problem, or a
  ///   `skip` past the recording's end (``SceneMotionError/Problem/startTimePastEnd(startTime:recordingLength:)``).
  public static func recording(_ url: URL, loops: Bool = false, skip: Double = 0)
    throws(SceneMotionError) -> SceneMotionInput
  {
    let source: RecordingSource
    do {
      source = try RecordingSource(contentsOf: url, loops: loops)
    } catch {
      throw SceneMotionError(error.description)
    }
    guard let span = source.timeSpan else {
      throw SceneMotionError("\(url.path): no motion samples")
    }
    let length = span.upperBound - span.lowerBound
    guard skip <= length else {
      throw SceneMotionError(
        .startTimePastEnd(startTime: skip, recordingLength: length),
        message: "\(url.path): the start time \(SceneTraceFormat.number(skip)) s is past the "
          + "recording's end (\(Int(length)) s)")
    }
    let manager = MotionManager(source: source)
    let feed = ReplayMotionFeed(
      manager: manager, name: "recording " + url.lastPathComponent, skip: skip)
    return SceneMotionInput(feed: feed, span: length - skip)
  }

  /// Scripted motion (`docs/script.md`), sampled at a rate through a `MotionManager`.
  ///
  /// - Parameters:
  ///   - text: The script.
  ///   - rate: Samples per second, positive.
  ///   - loops: Play it again from the start when it ends (each pass shifted by its span plus
  ///     one sample interval).
  /// - Returns: The input.
  /// - Throws: ``SceneMotionError`` for a script that does not parse
  ///   (``SceneMotionError/Problem/invalidScript(_:)``, with the line and column) or that would
  ///   make more than ``maximumScriptSamples`` samples
  ///   (``SceneMotionError/Problem/tooManyScriptSamples(count:maximum:)``).
  public static func script(_ text: String, rate: Double, loops: Bool = false)
    throws(SceneMotionError) -> SceneMotionInput
  {
    let parsed: MotionScript
    do {
      parsed = try MotionScript(parsing: text)
    } catch {
      throw SceneMotionError(
        .invalidScript(error.description), message: "motion script: \(error.description)")
    }
    guard parsed.duration * rate < Double(maximumScriptSamples) else {
      let count = parsed.duration * rate
      throw SceneMotionError(
        .tooManyScriptSamples(count: count, maximum: maximumScriptSamples),
        message: "motion script: \(count < 1e15 ? String(Int(count)) : "\(count)") samples is too "
          + "many (at most \(maximumScriptSamples)); lower the sample rate or shorten the script")
    }
    let source: any MotionSource
    if loops {
      let samples = parsed.samples(rate: rate)
      source = RecordingSource(
        MotionRecording(
          name: "script", format: .deviceMotion,
          content: .deviceMotion(samples, referenceFrame: .xArbitraryZVertical)),
        loops: true)
    } else {
      source = MotionScriptSource(parsed, rate: rate)
    }
    let feed = ReplayMotionFeed(manager: MotionManager(source: source), name: "script")
    return SceneMotionInput(feed: feed, span: parsed.duration)
  }

  /// The device resting upright in portrait, for 5 s.
  public static var resting: SceneMotionInput {
    let rest = DeviceMotion.resting(
      timestamp: 0, attitude: Attitude(quaternion: MotionScript.Pose.portrait.attitude))
    return SceneMotionInput(feed: ArrayMotionFeed([rest], name: "resting"), span: 5)
  }
}
