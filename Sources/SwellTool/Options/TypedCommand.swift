/// A `swell` subcommand whose options are one ``ParsableOptions`` value: declared once, read by
/// the same code, checked by its `validate()` before ``run(_:console:)`` does anything.
protocol TypedToolCommand: ToolCommand {
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
  /// - Throws: `UsageError` (exit 64) or any other error (exit 1), reported as one line.
  static func run(_ options: Options, console: Console) throws -> Int32
}

extension TypedToolCommand {
  /// The declaration, made by a declaring pass over ``Options``.
  static var spec: CommandSpec { CommandSpec(about, options: Options.self) }

  /// Parses ``Options`` from the words and runs the command.
  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    try run(OptionParser.parse(Options.self, from: arguments), console: console)
  }
}
