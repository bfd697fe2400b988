import Foundation
import SwellMotion
import SwellScenes

/// `swell version`: the version, as `swell --version` prints it.
struct VersionCommand: TypedToolCommand {
  static let about = CommandAbout(
    "version", summary: "print the version (and the git commit it was built from)",
    discussion: "Prints one line: swell, the version number (semantic versioning) and, for a "
      + "build from a git checkout, the commit.")

  struct Options: ParsableOptions {
    init(_ p: inout OptionParser) throws(UsageError) {}
  }

  static func run(_ options: Options, console: Console) throws -> Int32 {
    console.out("swell \(SwellTool.versionText)\n")
    return 0
  }
}

/// `swell completion SHELL`: a completion script generated from the declarations.
struct CompletionCommand: TypedToolCommand {
  static let about = CommandAbout(
    "completion", summary: "print a shell completion script (bash, zsh or fish)",
    discussion: """
      Prints a completion script for SHELL, generated from the commands' declarations: \
      commands, options, the values of options that take one of a list, files where a path is \
      expected and the built-in scenes where a scene is. Install it where your shell looks, e.g. \
      'swell completion bash > ~/.local/share/bash-completion/completions/swell', \
      'swell completion zsh > ~/.zfunc/_swell' or \
      'swell completion fish > ~/.config/fish/completions/swell.fish'.
      """,
    examples: ["completion bash > /etc/bash_completion.d/swell"])

  struct Options: ParsableOptions {
    var shell: CompletionScript.Shell?

    init(_ p: inout OptionParser) throws(UsageError) {
      let word = p.argument(
        "SHELL", kind: .choice(CompletionScript.Shell.allCases.map(\.rawValue)))
      guard let word else { return }
      guard let shell = CompletionScript.Shell(rawValue: word) else {
        throw UsageError(
          "SHELL must be one of "
            + CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: ", ")
            + ", got '\(UntrustedText.clipped(word))'")
      }
      self.shell = shell
    }

    func validate() throws(UsageError) {
      guard shell != nil else { throw UsageError("needs a SHELL: bash, zsh or fish") }
    }
  }

  static func run(_ options: Options, console: Console) throws -> Int32 {
    console.out(
      CompletionScript.script(
        for: options.shell ?? .bash, tool: "swell", toolOptions: SwellTool.toolSpec.options,
        commands: SwellTool.commands.map { $0.spec },
        sceneNames: BuiltInScenes.names))
    return 0
  }
}

/// `swell manpage`: the swell(1) manual page in roff, generated from the declarations.
struct ManPageCommand: TypedToolCommand {
  static let about = CommandAbout(
    "manpage", summary: "print the swell(1) manual page (roff)",
    discussion: """
      Prints the manual page, generated from the commands' declarations (the same as their \
      help): a section per command with its options and defaults, and examples. Read it with \
      'swell manpage > swell.1 && man -l swell.1'.
      """,
    examples: ["manpage -o swell.1"])

  struct Options: ParsableOptions {
    var output: String?

    init(_ p: inout OptionParser) throws(UsageError) {
      output = p.option(
        "--output", short: "-o", value: "FILE", kind: .file,
        help: "write to FILE (atomically) instead of standard output")
    }
  }

  static func run(_ options: Options, console: Console) throws -> Int32 {
    let page = ManPage.roff(
      tool: "swell", version: SwellTool.version,
      summary: "motion-driven interface effects of iOS on Linux",
      description: """
        swell renders, shows and traces scenes driven by device motion: the WaterWave demo, \
        motion effects, sine-wave and free-surface water. Motion comes from recordings (raw \
        IMU CSV, Sensor Logger, phyphox), scripts, Linux IIO sensors, a phone streaming over \
        UDP or phyphox remote access, and is fused by Swell's own sensor fusion, CoreMotion \
        style. 'swell COMMAND --help' prints a command's options.
        """,
      toolOptions: SwellTool.toolSpec.options,
      commands: SwellTool.commands.map { $0.spec }, seeAlso: ["ffmpeg(1)"])
    guard let output = options.output else {
      console.out(page)
      return 0
    }
    do {
      try AtomicWrite.write(Data(page.utf8), to: URL(fileURLWithPath: output))
    } catch {
      throw ToolError(error.description)
    }
    return 0
  }
}
