import Foundation

/// One subcommand of a tool: its declaration (options, arguments, help) and its work.
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
  /// - Throws: ``UsageError`` (exit 64) or any other error (exit 1), reported as one line.
  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32
}

/// A subcommand whose options are one ``ParsableOptions`` value: declared once, read by the
/// same code, checked by its `validate()` before ``run(_:console:)`` does anything.
public protocol TypedToolCommand: ToolCommand {
  /// The command's options.
  associatedtype Options: ParsableOptions
  /// The command's name and help text around its options.
  static var about: CommandAbout { get }
  /// Runs the command with its parsed and validated options.
  ///
  /// - Parameters:
  ///   - options: The options.
  ///   - console: Where output and progress go.
  /// - Returns: The exit status (0 on success).
  /// - Throws: ``UsageError`` (exit 64) or any other error (exit 1), reported as one line.
  static func run(_ options: Options, console: Console) throws -> Int32
}

extension TypedToolCommand {
  /// The declaration, made by a declaring pass over ``Options``.
  public static var spec: CommandSpec { CommandSpec(about, options: Options.self) }

  /// Parses ``Options`` from the words and runs the command.
  ///
  /// - Parameters:
  ///   - arguments: The words after the command name.
  ///   - console: Where output and progress go.
  /// - Returns: The exit status.
  /// - Throws: ``UsageError`` for bad options, or what the command throws.
  public static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    try run(OptionParser.parse(Options.self, from: arguments), console: console)
  }
}

/// Output streams of a tool: standard output, standard error, and whether stderr is a terminal
/// (progress bars are drawn only then).
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

/// A tool of subcommands: `TOOL COMMAND [options]`, `TOOL help [COMMAND]`, `TOOL COMMAND --help`,
/// `TOOL --version`; a misspelt command or option gets a "did you mean"; errors are one line
/// with exit status 64 (usage) or 1 (the work failed).
public struct CommandLineTool: Sendable {
  /// The tool's name (`swell`).
  public var name: String
  /// One line on what it is, first in the overview.
  public var summary: String
  /// The version `--version` prints.
  public var version: String
  /// Every subcommand, in the order the overview lists them.
  public var commands: [any ToolCommand.Type]
  /// Called with a command's name just before it runs (signal handling).
  public var willRun: @Sendable (String) -> Void = { _ in }
  /// The message of a failure that is not a ``UsageError`` (the library's errors in the tool's
  /// words).
  public var describe: @Sendable (any Error) -> String = { "\($0)" }
  /// Whether a failure that is not a ``UsageError`` is still a mistake in the command line (exit
  /// 64): a library error about a value the user typed, such as a script that does not parse.
  public var isUsage: @Sendable (any Error) -> Bool = { _ in false }
  /// Makes an error message one safe line (escapes control characters).
  public var escape: @Sendable (String) -> String = { $0 }
  /// Writes a file that a built-in command makes (`manpage -o FILE`); the default writes it
  /// atomically through Foundation.
  public var writeFile: @Sendable (Data, String) throws -> Void = { data, path in
    try data.write(to: URL(fileURLWithPath: path), options: .atomic)
  }
  /// The words completed where a command takes a scene (``OptionValueKind/scene``).
  public var sceneNames: [String] = []
  /// What the manual page says beyond the declarations.
  public var manual = Manual()

  /// The parts of the manual page (`manpage`) that the declarations do not hold.
  public struct Manual: Sendable {
    /// The version named in the page's footer (the number, without a commit).
    public var version = ""
    /// The DESCRIPTION paragraphs (blank lines separate them).
    public var description = ""
    /// Pages named under SEE ALSO, such as `ffmpeg(1)`.
    public var seeAlso: [String] = []

    /// An empty manual text.
    public init() {}
  }

  /// Describes a tool.
  ///
  /// - Parameters:
  ///   - name: The tool's name.
  ///   - summary: One line on what it is.
  ///   - version: The version.
  ///   - commands: The subcommands.
  public init(name: String, summary: String, version: String, commands: [any ToolCommand.Type]) {
    self.name = name
    self.summary = summary
    self.version = version
    self.commands = commands
  }

  /// The tool's own options (before any command).
  struct Options: ParsableOptions {
    var version: Bool

    init(_ p: inout OptionParser) throws(UsageError) {
      version = p.flag("--version", help: "print the version and exit")
      if !p.isDeclaring && !version { throw UsageError("needs a COMMAND") }
    }
  }

  /// The declaration of the tool itself: its options and the COMMAND argument (for completions
  /// and the man page).
  public var spec: CommandSpec {
    var spec = CommandSpec(
      CommandAbout("", summary: summary, discussion: ""), options: Options.self)
    var command = ArgumentSpec("COMMAND")
    command.valueKind = .choice(commands.map { $0.spec.name })
    spec.arguments = [command]
    return spec
  }

  /// The command list of `TOOL --help`.
  public var overview: String {
    var s = "\(name): \(summary)\n\nUsage: \(name) COMMAND [options]\n\nCommands:\n"
    let specs = commands.map { $0.spec }
    let column = max(10, (specs.map(\.name.count).max() ?? 0) + 2)
    for c in specs {
      s += "  " + c.name.padding(toLength: column, withPad: " ", startingAt: 0) + c.summary + "\n"
    }
    s += "\nRun '\(name) help COMMAND' (or '\(name) COMMAND --help') for a command's options.\n"
    return s
  }

  /// Runs the tool.
  ///
  /// - Parameter arguments: The command-line arguments without the program name.
  /// - Returns: The exit status: 0 success, 1 failure, 64 usage error.
  public func main(_ arguments: [String]) -> Int32 {
    let console = Console()
    guard let first = arguments.first else {
      console.err(overview)
      return ExitCode.usage
    }
    if first.hasPrefix("-") {
      do {
        let words = try Arguments(arguments, spec: spec)
        if words.wantsHelp {
          console.out(overview)
          return ExitCode.success
        }
        if try OptionParser.parse(Options.self, from: words).version {
          console.out("\(name) \(version)\n")
        }
        return ExitCode.success
      } catch {
        console.err("\(name): \(line(error.message))\n")
        return ExitCode.usage
      }
    }
    if first == "help" {
      guard let topic = arguments.dropFirst().first else {
        console.out(overview)
        return ExitCode.success
      }
      guard let command = commands.first(where: { $0.spec.name == topic }) else {
        console.err("\(name) help: \(unknownCommand(topic))\n")
        return ExitCode.usage
      }
      console.out(command.spec.helpText(tool: name))
      return ExitCode.success
    }
    guard let command = commands.first(where: { $0.spec.name == first }) else {
      console.err("\(name): \(unknownCommand(first))\n")
      return ExitCode.usage
    }
    willRun(first)
    do {
      var args = try Arguments(Array(arguments.dropFirst()), spec: command.spec)
      if args.wantsHelp {
        console.out(command.spec.helpText(tool: name))
        return ExitCode.success
      }
      return try command.run(&args, console: console)
    } catch let e as UsageError {
      console.err("\(name) \(first): \(line(e.message))\n")
      return ExitCode.usage
    } catch {
      console.err("\(name) \(first): \(line(describe(error)))\n")
      return isUsage(error) ? ExitCode.usage : ExitCode.failure
    }
  }

  private func unknownCommand(_ word: String) -> String {
    let names = commands.map { $0.spec.name }
    var suggestion = Suggestion.didYouMean(word, among: names)
    // A command's name cut short (`man` for `manpage`) is too many edits away to be found as a
    // misspelling; the one command it begins is meant.
    let extending = word.count >= 3 ? names.filter { $0.hasPrefix(word) } : []
    if suggestion.isEmpty, extending.count == 1 { suggestion = " (did you mean \(extending[0])?)" }
    return "unknown command '\(word)'" + suggestion + "; see '\(name) --help'"
  }

  /// An error message as one safe line: escaped and at most about 280 characters (a backstop:
  /// untrusted parts are already cut where the message is made).
  private func line(_ message: String) -> String {
    let text = escape(message)
    return text.count > 280 ? String(text.prefix(279)) + "…" : text
  }
}
