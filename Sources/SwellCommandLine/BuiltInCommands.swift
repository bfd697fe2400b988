import Foundation

/// A tool whose built-in commands (`version`, `completion`, `manpage`) can ask it about itself:
/// its name, version, commands and manual text.
///
/// A tool declares one type conforming to this protocol and registers
/// ``BuiltInCommands/all(for:)`` after its own commands; the built-in commands read the tool
/// through the type, so their help, completions and man page name the tool that runs them.
public protocol ToolDefinition {
  /// The tool, as its `main` runs it.
  static var tool: CommandLineTool { get }
}

/// The commands every tool gets from its declarations: `version`, `completion SHELL` and
/// `manpage`, generated from the same ``CommandSpec``s that parse the command lines.
public enum BuiltInCommands {
  /// `version`, `completion` and `manpage` for a tool, in the order its overview lists them.
  ///
  /// - Parameter definition: The tool's definition.
  /// - Returns: The three command types.
  public static func all<T: ToolDefinition>(for definition: T.Type) -> [any ToolCommand.Type] {
    [VersionCommand<T>.self, CompletionCommand<T>.self, ManPageCommand<T>.self]
  }
}

/// `TOOL version`: the version, as `TOOL --version` prints it.
struct VersionCommand<T: ToolDefinition>: TypedToolCommand {
  static var about: CommandAbout {
    CommandAbout(
      "version", summary: "print the version (and the git commit it was built from)",
      discussion: "Prints one line: \(T.tool.name), the version number (semantic versioning) "
        + "and, for a build from a git checkout, the commit.")
  }

  struct Options: ParsableOptions {
    init(_ p: inout OptionParser) throws(UsageError) {}
  }

  static func run(_ options: Options, console: Console) throws -> Int32 {
    console.out("\(T.tool.name) \(T.tool.version)\n")
    return ExitCode.success
  }
}

/// `TOOL completion SHELL`: a completion script generated from the declarations.
struct CompletionCommand<T: ToolDefinition>: TypedToolCommand {
  static var about: CommandAbout {
    let name = T.tool.name
    return CommandAbout(
      "completion", summary: "print a shell completion script (bash, zsh or fish)",
      discussion: """
        Prints a completion script for SHELL, generated from the commands' declarations: \
        commands, options, the values of options that take one of a list, files where a path is \
        expected and the built-in scenes where a scene is. Install it where your shell looks, \
        e.g. '\(name) completion bash > ~/.local/share/bash-completion/completions/\(name)', \
        '\(name) completion zsh > ~/.zfunc/_\(name)' or \
        '\(name) completion fish > ~/.config/fish/completions/\(name).fish'.
        """,
      examples: ["completion bash > /etc/bash_completion.d/\(name)"])
  }

  struct Options: ParsableOptions {
    var shell: CompletionScript.Shell?

    init(_ p: inout OptionParser) throws(UsageError) {
      let shells = CompletionScript.Shell.allCases.map(\.rawValue)
      let word = p.argument("SHELL", kind: .choice(shells))
      guard let word else { return }
      guard let shell = CompletionScript.Shell(rawValue: word) else {
        throw UsageError(
          "SHELL must be one of \(shells.joined(separator: ", ")), got '\(word.prefix(80))'")
      }
      self.shell = shell
    }

    func validate() throws(UsageError) {
      guard shell != nil else { throw UsageError("needs a SHELL: bash, zsh or fish") }
    }
  }

  static func run(_ options: Options, console: Console) throws -> Int32 {
    let tool = T.tool
    console.out(
      CompletionScript.script(
        for: options.shell ?? .bash, tool: tool.name, toolOptions: tool.spec.options,
        commands: tool.commands.map { $0.spec }, sceneNames: tool.sceneNames))
    return ExitCode.success
  }
}

/// `TOOL manpage`: the tool's manual page in roff, generated from the declarations.
struct ManPageCommand<T: ToolDefinition>: TypedToolCommand {
  static var about: CommandAbout {
    let name = T.tool.name
    return CommandAbout(
      "manpage", summary: "print the \(name)(1) manual page (roff)",
      discussion: """
        Prints the manual page, generated from the commands' declarations (the same as their \
        help): a section per command with its options and defaults, and examples. Read it with \
        '\(name) manpage > \(name).1 && man -l \(name).1'.
        """,
      examples: ["manpage -o \(name).1"])
  }

  struct Options: ParsableOptions {
    var output: String?

    init(_ p: inout OptionParser) throws(UsageError) {
      output = p.output(
        help: "write to FILE (atomically) instead of standard output")
    }
  }

  static func run(_ options: Options, console: Console) throws -> Int32 {
    let tool = T.tool
    let page = ManPage.roff(
      tool: tool.name, version: tool.manual.version, summary: tool.summary,
      description: tool.manual.description, toolOptions: tool.spec.options,
      commands: tool.commands.map { $0.spec }, seeAlso: tool.manual.seeAlso)
    guard let output = options.output else {
      console.out(page)
      return ExitCode.success
    }
    try tool.writeFile(Data(page.utf8), output)
    return ExitCode.success
  }
}
