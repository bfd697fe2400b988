import SwellRender
import SwellScenes

/// Why an offline playback (``SceneExport``, ``SceneTraceExport``) failed, in the library's
/// terms: a program maps the cases to its own options (the `swell` tool names its flags).
public struct PlaybackError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Problem: Hashable, Sendable {
    /// The duration times the frame rate is more frames than one run may have.
    case tooManyFrames(frames: Double, maximum: Int)
    /// The single frame's time (``SceneExport/singleTime``) lies beyond the most frames one
    /// run may have.
    case timeBeyondLimit(time: Double, maximumFrames: Int)
    /// The output could not be opened, drawn or written.
    case render(RenderError)
    /// The motion failed (a malformed recording row, a failed source).
    case motion(SceneMotionError)
    /// The trace output could not be opened or written (the reason names the file).
    case output(String)
    /// The caller cancelled the run; nothing was left under the output's name.
    case cancelled
  }

  /// What went wrong.
  public var problem: Problem

  /// Creates an error.
  ///
  /// - Parameter problem: What went wrong.
  public init(_ problem: Problem) { self.problem = problem }

  /// A one-line message in the library's terms.
  public var description: String {
    switch problem {
    case .tooManyFrames(let frames, let maximum):
      return "\(Self.count(frames)) frames is too many (at most \(maximum)); "
        + "lower the frame rate or the duration"
    case .timeBeyondLimit(let time, let maximum):
      return "the frame time \(SceneTraceFormat.number(time)) s is beyond \(maximum) frames"
    case .render(let e): return e.description
    case .motion(let e): return e.message
    case .output(let reason): return reason
    case .cancelled: return "cancelled"
    }
  }

  /// A frame count for a message: whole numbers up to 10¹⁵, exponent form above (a huge
  /// duration must not trap converting to `Int`).
  ///
  /// - Parameter v: The count.
  /// - Returns: The text.
  public static func count(_ v: Double) -> String {
    v < 1e15 ? String(Int(v)) : "\(v)"
  }
}
