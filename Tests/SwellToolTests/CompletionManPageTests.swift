import Foundation
import SwellTestSupport
import Testing

@testable import SwellTool

@Suite("Completions and the man page, generated from the declarations")
private struct CompletionManPageTests {
  @Test("swell completion bash is valid bash and completes commands, options, values, scenes")
  func bash() throws {
    let r = try runSwell(["completion", "bash"])
    #expect(r.status == 0 && r.err.isEmpty)
    let folder = try scratchFolder("completion")
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("swell.bash")
    try Data(r.out.utf8).write(to: script)
    let check = try runProgram("bash", ["-n", script.path])
    #expect(check.status == 0, "\(check.err)")
    let probe = """
      source '\(script.path)'
      complete() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _swell; echo "${COMPREPLY[*]}"; }
      complete swell rend
      complete swell fuse x --reference-frame xM
      complete swell record --mo
      complete swell trace wat
      complete swell completion z
      complete swell scene -o x ''
      complete swell scene -o x check wat
      """
    let run = try runProgram("bash", ["-c", probe])
    #expect(
      run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
        "render", "xMagneticNorthZVertical", "--mode", "waterwave", "zsh",
        // An option's value is not a positional argument: `x` is the output, so the first
        // argument (print or check) is still to come, and after it, the scene.
        "print check", "waterwave", "",
      ], "\(run.out) \(run.err)")
  }

  /// What fish offers for a command line, one word per line (descriptions dropped), sorted.
  private static func fishOffers(_ script: URL, _ line: String) throws -> [String] {
    let run = try runProgram(
      "fish", ["--no-config", "-c", "source '\(script.path)'; complete -C '\(line)'"])
    #expect(run.status == 0 && run.err.isEmpty, "\(run.err)")
    return run.out.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.sorted()
  }

  @Test("fish completes each positional argument in its place, past options and their values")
  func fishPositions() throws {
    let r = try runSwell(["completion", "fish"])
    #expect(r.status == 0)
    let folder = try scratchFolder("completion")
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("swell.fish")
    try Data(r.out.utf8).write(to: script)
    _ = try requireProgram("fish")
    #expect(try Self.fishOffers(script, "swell rend") == ["render"])
    #expect(try Self.fishOffers(script, "swell scene ") == ["check", "print"])
    #expect(try Self.fishOffers(script, "swell scene -o x ") == ["check", "print"])
    #expect(try Self.fishOffers(script, "swell scene check wat") == ["waterwave"])
    #expect(try Self.fishOffers(script, "swell scene -o out.json print gl") == ["glass"])
    #expect(
      try Self.fishOffers(script, "swell fuse x --reference-frame xM") == [
        "xMagneticNorthZVertical"
      ])
    #expect(try Self.fishOffers(script, "swell completion z") == ["zsh"])
  }

  @Test("zsh and fish scripts name every command and option", arguments: ["zsh", "fish"])
  func otherShells(shell: String) throws {
    let r = try runSwell(["completion", shell])
    #expect(r.status == 0)
    for c in SwellTool.commands.map({ $0.spec }) {
      #expect(r.out.contains(c.name), "\(shell): \(c.name)")
      for o in c.options { #expect(r.out.contains(o.displayName.dropFirst(2)), "\(o.displayName)") }
    }
    #expect(r.out.contains("auto json csv"))
    let folder = try scratchFolder("completion")
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("swell.\(shell)")
    try Data(r.out.utf8).write(to: script)
    let check = try runProgram(shell, ["-n", script.path])
    #expect(check.status == 0 && check.err.isEmpty, "\(check.err)")
  }

  @Test("an unknown shell is a usage error listing the three")
  func unknownShell() throws {
    let r = try runSwell(["completion", "tcsh"])
    #expect(r.status == 64)
    #expect(r.err == "swell completion: SHELL must be one of bash, zsh, fish, got 'tcsh'\n")
  }

  @Test("the man page renders without warnings at 80 columns, a section per command, examples")
  func manPage() throws {
    let folder = try scratchFolder("manpage")
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("swell.1")
    let r = try runSwell(["manpage", "-o", page.path])
    #expect(r.status == 0 && r.out.isEmpty, "\(r.err)")
    _ = try requireProgram("man")
    _ = try requireProgram("groff")
    let shown = try runProgram("env", ["MANWIDTH=80", "man", "--warnings", "-l", page.path])
    #expect(shown.status == 0)
    #expect(shown.err.isEmpty, "\(shown.err)")
    for c in SwellTool.commands.map({ $0.spec }) {
      #expect(shown.out.contains("   swell \(c.name)\n"), "\(c.name)")
    }
    #expect(shown.out.contains("EXAMPLES") && shown.out.contains("swell fuse recording.zip"))
    let roff = try String(contentsOf: page, encoding: .utf8)
    #expect(roff.contains("seconds between polls (default: 0.05)"))
    for line in shown.out.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
  }

  @Test("swell version and --version print the same one line")
  func version() throws {
    let a = try runSwell(["version"])
    let b = try runSwell(["--version"])
    #expect(a.status == 0 && a.out == b.out && a.out.hasPrefix("swell "))
    #expect(a.out.split(separator: "\n").count == 1)
    #expect(a.out.hasPrefix("swell \(SwellTool.version)"))
  }
}
