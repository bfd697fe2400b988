import SwellCommandLine
import SwellLive
import SwellMotion
import SwellPlayback
import SwellScenes
import SwellSensors

// The library words its errors in its own terms (a start time, a canvas size, the terminal
// view); the tool says them with the flags that set those things.

extension SceneMotionError {
  /// The message with the tool's flags: `--start`, `--script`, `--motion-rate`.
  var toolMessage: String {
    switch problem {
    case .failed: return message
    case .startTimePastEnd(let start, let length):
      return "--start \(SceneTraceFormat.number(start)) is past the recording's end "
        + "(\(Int(length)) s)"
    case .invalidScript(let reason): return "--script: \(reason)"
    case .tooManyScriptSamples(let count, let maximum):
      return "--script: \(PlaybackError.count(count)) motion samples is too many "
        + "(at most \(maximum)); lower --motion-rate or shorten the script"
    }
  }
}

extension SceneSizeError {
  /// The message with the tool's flag: `--size`.
  var toolMessage: String {
    switch problem {
    case .badForm: return "--size \(reason), got '\(UntrustedText.clipped(spec))'"
    case .badScale: return "--size: \(reason)"
    case .sideOutOfRange, .tooManyPixels:
      return "--size: \(UntrustedText.clipped(spec)) \(reason)"
    }
  }
}

extension PlaybackError {
  /// The message with the tool's flags: `--fps`, `--duration`, `--time`.
  var toolMessage: String {
    switch problem {
    case .tooManyFrames(let frames, let maximum):
      return "\(Self.count(frames)) frames is too many (at most \(maximum)); "
        + "lower --fps or --duration"
    case .timeBeyondLimit(let time, let maximum):
      return "--time \(displayNumber(time)) is beyond \(maximum) frames"
    case .motion(let e): return e.toolMessage
    default: return description
    }
  }
}

extension LiveWindowError {
  /// The message with the tool's flag: `--terminal`.
  var toolMessage: String {
    switch problem {
    case .failed: return message
    case .noDisplay(let reason):
      return reason + "; use --terminal to show it in this terminal, or run under xvfb-run"
    case .notATerminal(let stream): return "--terminal needs a terminal on \(stream)"
    }
  }
}

/// The one-line message of an error that reached the tool's top level: library errors with the
/// tool's flags, others as they describe themselves.
///
/// - Parameter error: The error.
/// - Returns: The message.
func toolMessage(_ error: any Error) -> String {
  switch error {
  case let e as SceneMotionError: return e.toolMessage
  case let e as SceneSizeError: return e.toolMessage
  case let e as PlaybackError: return e.toolMessage
  case let e as LiveWindowError: return e.toolMessage
  case let e as SceneLoadError:
    // A recording given as the scene: say how to give it as motion.
    guard let path = e.recording else { return e.message }
    return e.message + " (give it with --motion: waterwave --motion " + UntrustedText.escaped(path)
      + ")"
  default: return "\(error)"
  }
}

/// Whether a library error that reached the tool's top level is a mistake in the command line
/// (exit 64) rather than a failure of the work (exit 1).
///
/// - Parameter error: The error.
/// - Returns: True for a script that does not parse or asks for too many samples, an unknown
///   scene name, a recording given as the scene, a malformed canvas size or live source word or
///   setting.
func isUsageMistake(_ error: any Error) -> Bool {
  switch error {
  case let e as SceneMotionError:
    switch e.problem {
    case .invalidScript, .tooManyScriptSamples: return true
    default: return false
    }
  case let e as SceneLoadError: return e.isUnknownName || e.recording != nil
  case is SceneSizeError: return true
  case let e as LiveSourceError: return e.isUsage
  default: return false
  }
}
