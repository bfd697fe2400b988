import Foundation
@_exported import SwellCommandLine
import SwellEffects
import SwellFiles
import SwellMotion
import SwellRender
import SwellScenes
import SwellVersion

/// The `swell` command-line tool's entry point, a thin layer over the library.
public enum SwellTool: ToolDefinition {
  /// Every subcommand, in the order `swell --help` lists them: the tool's own, then the built-in
  /// `version`, `completion` and `manpage`. Add a command's type here when its file lands.
  public static let commands: [any ToolCommand.Type] =
    [
      DemoCommand.self, RenderCommand.self, LiveCommand.self, TraceCommand.self,
      SceneCommand.self, FuseCommand.self, EvaluateCommand.self, SensorsCommand.self,
      RecordCommand.self, ServeCommand.self, BenchCommand.self,
    ] + BuiltInCommands.all(for: SwellTool.self)

  /// The package's version number, `MAJOR.MINOR.PATCH` (set in one place: `SwellVersion`).
  public static let version = SwellVersion.number

  /// What `swell --version` prints after `swell `: the number, plus the git commit the tool was
  /// built from when built from a git checkout: `0.1.0 (commit 1a2b3c4d5e6f)`.
  public static let versionText = SwellVersion.commit.map { "\(version) (commit \($0))" } ?? version

  /// The tool: its commands, help, version, manual and error reporting.
  public static var tool: CommandLineTool {
    var tool = CommandLineTool(
      name: "swell", summary: "motion-driven interface effects of iOS on Linux",
      version: versionText, commands: commands)
    // SIGINT and SIGTERM remove temporary files and exit 130 / 143 (`live` keeps its own
    // handling: the SDL window and the terminal view end their loop and restore the display).
    tool.willRun = { name in
      if name != "live" { OutputFiles.installSignalCleanup(programName: "swell") }
    }
    tool.escape = { UntrustedText.escaped($0) }
    tool.describe = { toolMessage($0) }
    tool.isUsage = { isUsageMistake($0) }
    tool.writeFile = { data, path in try AtomicWrite.write(data, to: URL(fileURLWithPath: path)) }
    tool.sceneNames = BuiltInScenes.names
    tool.manual.version = version
    tool.manual.seeAlso = ["ffmpeg(1)"]
    tool.manual.description = """
      swell renders, shows and traces scenes driven by device motion: the WaterWave demo, \
      motion effects, sine-wave and free-surface water. Motion comes from recordings (raw \
      IMU CSV, Sensor Logger, phyphox), scripts, Linux IIO sensors, a phone streaming over \
      UDP or phyphox remote access, and is fused by Swell's own sensor fusion, CoreMotion \
      style. 'swell COMMAND --help' prints a command's options.
      """
    return tool
  }

  /// The declaration of `swell` itself, for completions and the man page.
  static var toolSpec: CommandSpec { tool.spec }

  /// Runs the tool with the given arguments (without the program name) and returns the exit code.
  ///
  /// `swell help [COMMAND]`, `swell COMMAND --help` print help; a misspelt command or option
  /// gets a "did you mean"; `--` ends the options.
  ///
  /// - Parameter arguments: The command-line arguments.
  /// - Returns: The process exit status: 0 success, 1 failure, 64 usage error.
  public static func main(_ arguments: [String]) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    // A motion effect that cannot work on its layer is said once, in the tool's words.
    let report: @Sendable (MotionEffectProblem) -> Void = { problem in
      FileHandle.standardError.write(
        Data("swell: warning: \(problem); ignored (see 'swell scene check')\n".utf8))
    }
    MotionEffectDiagnostics.setReporter(report)
    return tool.main(arguments)
  }
}
