import Foundation
@_exported import SwellCommandLine
import SwellMotion

/// One `swell` subcommand: its declaration (options, arguments, help) and its work.
public protocol ToolCommand: Sendable {
  /// The declaration: name, summary, arguments and options; usage and help are generated from
  /// it, and the parser accepts exactly what it declares.
  static var spec: CommandSpec { get }
  /// Runs the command.
  ///
  /// - Parameters:
  ///   - arguments: The words after the command name, parsed against ``spec``.
  ///   - console: Where output and progress go.
  /// - Returns: The exit status (0 on success).
  /// - Throws: `UsageError` (exit 64) or any other error (exit 1), reported as one line.
  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32
}

extension ToolCommand {
  /// The command's name (`render`).
  static var name: String { spec.name }
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
  /// `swell help [COMMAND]`, `swell COMMAND --help` print help; a misspelt command or option
  /// gets a "did you mean"; `--` ends the options.
  ///
  /// - Parameter arguments: The command-line arguments.
  /// - Returns: The process exit status: 0 success, 1 failure, 64 usage error.
  public static func main(_ arguments: [String]) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let console = Console()
    guard let name = arguments.first else {
      console.err(overview)
      return ExitCode.usage
    }
    if name.hasPrefix("-") {
      // The tool's own options: -h/--help and --version, declared like a command's.
      do {
        let words = try Arguments(arguments, spec: toolSpec)
        if words.wantsHelp {
          console.out(overview)
          return ExitCode.success
        }
        let options = try OptionParser.parse(ToolOptions.self, from: words)
        if options.version { console.out("swell \(version)\n") }
        return ExitCode.success
      } catch {
        console.err("swell: \(errorLine(error.message))\n")
        return ExitCode.usage
      }
    }
    if name == "help" {
      guard let topic = arguments.dropFirst().first else {
        console.out(overview)
        return ExitCode.success
      }
      guard let command = commands.first(where: { $0.spec.name == topic }) else {
        console.err("swell help: \(unknownCommand(topic))\n")
        return ExitCode.usage
      }
      console.out(command.spec.helpText())
      return ExitCode.success
    }
    guard let command = commands.first(where: { $0.spec.name == name }) else {
      console.err("swell: \(unknownCommand(name))\n")
      return ExitCode.usage
    }
    // SIGINT and SIGTERM remove temporary files and exit 130 / 143 (`live` keeps its own
    // handling: the SDL window and the terminal view end their loop and restore the display).
    if name != "live" { SignalHandling.install() }
    do {
      var args = try Arguments(Array(arguments.dropFirst()), spec: command.spec)
      if args.wantsHelp {
        console.out(command.spec.helpText())
        return ExitCode.success
      }
      return try command.run(&args, console: console)
    } catch let e as UsageError {
      console.err("swell \(name): \(errorLine(e.message))\n")
      return ExitCode.usage
    } catch {
      console.err("swell \(name): \(errorLine("\(error)"))\n")
      return ExitCode.failure
    }
  }

  /// The options of `swell` itself (before any command).
  struct ToolOptions: ParsableOptions {
    /// `--version`.
    var version: Bool

    init(_ p: inout OptionParser) throws(UsageError) {
      version = p.flag("--version", help: "print the version and exit")
      if !p.isDeclaring && !version {
        throw UsageError("needs a COMMAND; see 'swell --help'")
      }
    }

    func validate() throws(UsageError) {}
  }

  /// The declaration of `swell` itself: its options and the COMMAND argument.
  static var toolSpec: CommandSpec {
    var spec = CommandSpec(
      CommandAbout(
        "", summary: "motion-driven interface effects of iOS on Linux",
        discussion: "Run 'swell help COMMAND' (or 'swell COMMAND --help') for a command's options."),
      options: ToolOptions.self)
    spec.arguments = [ArgumentSpec("COMMAND")]
    spec.arguments[0].valueKind = .choice(commands.map { $0.spec.name })
    return spec
  }

  static func unknownCommand(_ name: String) -> String {
    "unknown command '\(name)'" + Suggestion.didYouMean(name, among: commands.map { $0.spec.name })
      + "; see 'swell --help'"
  }

  /// An error message as one safe line: control characters escaped and at most about 280
  /// characters (a backstop: untrusted parts are already cut where the message is made).
  static func errorLine(_ message: String) -> String {
    let line = UntrustedText.escaped(message)
    return line.count > 280 ? String(line.prefix(279)) + "…" : line
  }

  /// The package's version (the `VERSION` file), plus the git commit it was built from when
  /// built from a git checkout: `0.1.0 (1a2b3c4d5e6f)`.
  public static let version =
    packageCommit.isEmpty ? packageVersion : "\(packageVersion) (\(packageCommit))"

  static var overview: String {
    var s =
      "swell: motion-driven interface effects of iOS on Linux\n\nUsage: swell COMMAND [options]\n\nCommands:\n"
    let specs = commands.map { $0.spec }
    let column = max(10, (specs.map(\.name.count).max() ?? 0) + 2)
    for c in specs {
      s += "  " + c.name.padding(toLength: column, withPad: " ", startingAt: 0) + c.summary + "\n"
    }
    s += "\nRun 'swell help COMMAND' (or 'swell COMMAND --help') for a command's options.\n"
    return s
  }
}
