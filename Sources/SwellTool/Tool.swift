import Foundation
import SwellMotion

/// One `swell` subcommand.
public protocol ToolCommand: Sendable {
  /// The subcommand's name, e.g. `trace`.
  static var name: String { get }
  /// A one-line summary for `swell --help`.
  static var summary: String { get }
  /// The full help text shown by `swell NAME --help`.
  static var help: String { get }
  /// Runs the command.
  ///
  /// - Parameters:
  ///   - arguments: The words after the command name.
  ///   - console: Where output and progress go.
  /// - Returns: The exit status (0 on success).
  /// - Throws: ``UsageError`` (exit 2) or any other error (exit 1), reported as one line.
  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32
}

/// Output streams of the tool: standard output, standard error, and whether stderr is a
/// terminal (progress bars are drawn only then).
public struct Console: Sendable {
  /// True when standard error is a terminal.
  public var isInteractive: Bool

  /// Creates the console of this process.
  public init() { isInteractive = isatty(2) != 0 }

  /// Writes text to standard output.
  ///
  /// - Parameter text: The text, written as is.
  public func out(_ text: String) {
    // A reader that closed the pipe early (`swell trace ... | head`) is not an error worth a
    // crash: SIGPIPE is ignored and the failed write is dropped.
    try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
  }

  /// Writes text to standard error.
  ///
  /// - Parameter text: The text, written as is.
  public func err(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
  }
}

/// The `swell` command-line tool's entry point, a thin layer over the library.
public enum SwellTool {
  /// Every subcommand, in the order `swell --help` lists them.
  public static let commands: [any ToolCommand.Type] = registeredCommands

  /// Runs the tool with the given arguments (without the program name) and returns the exit code.
  ///
  /// - Parameter arguments: The command-line arguments.
  /// - Returns: The process exit status: 0 success, 1 failure, 2 usage error.
  public static func main(_ arguments: [String]) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let console = Console()
    guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
      console.out(overview)
      return arguments.isEmpty ? 2 : 0
    }
    if name == "--version" {
      console.out("swell \(version)\n")
      return 0
    }
    guard let command = commands.first(where: { $0.name == name }) else {
      console.err("swell: unknown command '\(name)'; see 'swell --help'\n")
      return 2
    }
    var args = Arguments(Array(arguments.dropFirst()))
    if args.wantsHelp {
      console.out(command.help)
      return 0
    }
    // SIGINT and SIGTERM remove temporary files and exit 130 / 143 (`live` keeps its own
    // handling: the SDL window and the terminal view end their loop and restore the display).
    if name != "live" { SignalHandling.install() }
    do {
      return try command.run(&args, console: console)
    } catch let e as UsageError {
      console.err("swell \(name): \(errorLine(e.message))\n")
      return 2
    } catch {
      console.err("swell \(name): \(errorLine("\(error)"))\n")
      return 1
    }
  }

  /// An error message as one safe line: control characters escaped and at most about 280
  /// characters (a backstop: untrusted parts are already cut where the message is made).
  static func errorLine(_ message: String) -> String {
    let line = UntrustedText.escaped(message)
    return line.count > 280 ? String(line.prefix(279)) + "…" : line
  }

  /// The tool's version.
  public static let version = "0.1.0"

  static var overview: String {
    var s =
      "swell: motion-driven interface effects of iOS on Linux\n\nUsage: swell COMMAND [options]\n\nCommands:\n"
    for c in commands {
      s += "  " + c.name.padding(toLength: 10, withPad: " ", startingAt: 0) + c.summary + "\n"
    }
    s += "\nRun 'swell COMMAND --help' for a command's options.\n"
    return s
  }
}
