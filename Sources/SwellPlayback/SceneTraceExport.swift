import Foundation
import SwellMotion
import SwellScenes

/// Plays a scene offline and writes its per-frame presentation values (docs/formats.md "Trace"): a
/// `time` column, then the scene's `traceKeys`, as CSV with a header row or a JSON array of
/// objects (the work of `swell trace`).
///
/// Frame `i` is at `t₀ + i / fps` for `i = 0 ..< round(duration · fps)`, as in an export. The
/// rows go out in chunks, so a long trace never builds one huge string: to a file (under a
/// temporary name, renamed into place when complete) or to a text sink the caller gives.
public struct SceneTraceExport {
  /// The scene.
  public var scene: any Scene
  /// Its motion.
  public var motion: any SceneMotionFeed
  /// Frames per second, positive.
  public var framesPerSecond: Double
  /// Seconds to trace, non-negative.
  public var duration: Double
  /// A JSON array of objects instead of CSV.
  public var json = false

  /// The most frames one trace may have.
  public static let maximumFrames = 5_000_000

  /// The rows written per chunk.
  static let chunkRows = 2_000

  /// Where the trace goes.
  public enum Destination {
    /// A file, written under a temporary name and renamed into place when complete (`-` for
    /// standard output, written in place).
    case file(URL)
    /// Text handed over chunk by chunk, in order.
    case text((String) throws -> Void)
  }

  /// Creates a trace.
  ///
  /// - Parameters:
  ///   - scene: The scene.
  ///   - motion: Its motion.
  ///   - framesPerSecond: Frames per second, positive.
  ///   - duration: Seconds to trace.
  ///   - json: JSON instead of CSV (default false).
  public init(
    scene: any Scene, motion: any SceneMotionFeed, framesPerSecond: Double, duration: Double,
    json: Bool = false
  ) {
    self.scene = scene
    self.motion = motion
    self.framesPerSecond = framesPerSecond
    self.duration = duration
    self.json = json
  }

  /// Plays the frames and writes the rows.
  ///
  /// - Parameters:
  ///   - destination: A file or a text sink.
  ///   - progress: Called after each chunk with the rows written and the rows due (default:
  ///     nothing).
  /// - Returns: The rows written.
  /// - Throws: ``PlaybackError``: too many frames (before anything is opened), a failed motion,
  ///   or an output that cannot be written (a file is then not left behind); what a text sink
  ///   throws, as ``PlaybackError/Problem/output(_:)``.
  @discardableResult
  public func run(
    to destination: Destination, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
  ) throws(PlaybackError) -> Int {
    let frames = duration * framesPerSecond
    guard frames < Double(Self.maximumFrames) else {
      throw PlaybackError(.tooManyFrames(frames: frames, maximum: Self.maximumFrames))
    }
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: framesPerSecond)
    let count = driver.frameCount(duration: duration)
    let trace = SceneTraceFormat(keys: scene.traceKeys, json: json)
    var text = trace.header
    let file: AtomicFileWriter?
    let sink: ((String) throws -> Void)?
    switch destination {
    case .file(let url):
      do {
        file = try AtomicFileWriter(url: url)
      } catch {
        throw PlaybackError(.output(error.description))
      }
      sink = nil
    case .text(let write):
      file = nil
      sink = write
    }
    func flush() throws(PlaybackError) {
      do {
        if let file { try file.write(text) } else { try sink?(text) }
      } catch let e as RecordingError {
        throw PlaybackError(.output(e.description))
      } catch {
        throw PlaybackError(.output("\(error)"))
      }
      text = ""
    }
    var done = 0
    while done < count {
      let chunk: [[Double]]
      do {
        chunk = try driver.trace(frames: min(Self.chunkRows, count - done))
      } catch {
        throw SceneExport.playbackError(error)
      }
      if chunk.isEmpty { break }
      for row in chunk {
        trace.appendRow(row, first: done == 0, to: &text)
        done += 1
      }
      try flush()
      progress(done, count)
    }
    text += trace.footer
    try flush()
    do {
      try file?.commit()
    } catch {
      throw PlaybackError(.output(error.description))
    }
    return done
  }
}
