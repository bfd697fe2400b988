import Foundation
import SwellTestSupport
import Testing

@testable import SwellTool

/// The golden help files: `Tests/SwellToolTests/Help/NAME.txt`. Run with `SWELL_RECORD_GOLDENS=1`
/// to write them again (the test then fails, so a recording is never mistaken for a pass).
private let helpFolder = packageRoot.appendingPathComponent("Tests/SwellToolTests/Help")

private func expectGolden(_ text: String, named name: String) throws {
  let url = helpFolder.appendingPathComponent("\(name).txt")
  if ProcessInfo.processInfo.environment["SWELL_RECORD_GOLDENS"] != nil {
    try Data(text.utf8).write(to: url)
    Issue.record("recorded \(url.lastPathComponent); run again without SWELL_RECORD_GOLDENS")
    return
  }
  let golden = try String(contentsOf: url, encoding: .utf8)
  #expect(text == golden, "help of \(name) differs from Help/\(name).txt")
}

@Suite("The command line: generated help, help goldens, did you mean, exit codes")
private struct CommandLineTests {
  static let names = SwellTool.commands.map { $0.spec.name }

  @Test(
    "each command's help equals its golden file, and `swell help NAME` prints the same",
    arguments: names)
  func helpGolden(name: String) throws {
    let r = try runSwell([name, "--help"])
    #expect(r.status == 0)
    try expectGolden(r.out, named: name)
    let viaHelp = try runSwell(["help", name])
    #expect(viaHelp.status == 0 && viaHelp.out == r.out)
    // Every line fits in 100 columns.
    for line in r.out.split(separator: "\n") { #expect(line.count <= 100, "\(name): \(line)") }
  }

  @Test("the overview lists every command")
  func overview() throws {
    let r = try runSwell(["--help"])
    #expect(r.status == 0)
    try expectGolden(r.out, named: "swell")
    let bare = try runSwell([])
    #expect(bare.status == 64 && bare.err == r.out)
  }

  @Test(
    "every option a command reads is declared: help shows each declared option once",
    arguments: names)
  func declarationsAreUnique(name: String) throws {
    let command = try #require(SwellTool.commands.first { $0.spec.name == name })
    let all = command.spec.options.flatMap(\.allNames)
    #expect(Set(all).count == all.count, "\(name) declares a name twice")
  }

  @Test(
    "misspellings get a suggestion and exit 64",
    arguments: [
      (["rendr"], "swell: unknown command 'rendr' (did you mean render?); see 'swell --help'"),
      (
        ["render", "waterwave", "--fsp", "3"],
        "swell render: unknown option --fsp (did you mean --fps?)"
      ),
      (
        ["trace", "waterwave", "--scirpt", "x"],
        "swell trace: unknown option --scirpt (did you mean --script?)"
      ),
      (
        ["help", "lvie"],
        "swell help: unknown command 'lvie' (did you mean live?); see 'swell --help'"
      ),
      (
        ["fuse", "x.csv", "--ouput", "y.csv"],
        "swell fuse: unknown option --ouput (did you mean --output?)"
      ),
    ])
  func didYouMean(arguments: [String], message: String) throws {
    let r = try runSwell(arguments)
    #expect(r.status == 64)
    #expect(r.err == message + "\n")
  }

  @Test("-o/--output everywhere, --out still accepted, --name=value, and -- ends the options")
  func outputSpellings() throws {
    let folder = try scratchFolder("cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (i, spelling) in ["-o", "--output", "--out"].enumerated() {
      let path = folder.appendingPathComponent("t\(i).csv").path
      let r = try runSwell(["trace", "waterwave", "--duration", "0.1", spelling, path])
      #expect(r.status == 0, "\(spelling): \(r.err)")
      #expect(FileManager.default.fileExists(atPath: path))
    }
    let eq = try runSwell(["trace", "waterwave", "--duration=0.1", "--fps=10"])
    #expect(eq.status == 0 && eq.out.split(separator: "\n").count >= 2, "\(eq.err)")
    // After --, a word that looks like an option is a positional argument.
    let dashed = try runSwell(["trace", "--duration", "0.1", "--", "--waterwave"])
    #expect(dashed.status == 64)
    #expect(dashed.err.contains("unknown scene '--waterwave'"), "\(dashed.err)")
  }

  @Test("numbers in messages print without float noise")
  func displayNumbers() {
    #expect(displayNumber(0.1 + 0.02) == "0.12")
    #expect(displayNumber(0.12023754900000001) == "0.120237549")
    #expect(displayNumber(3) == "3")
    #expect(displayNumber(-2.5) == "-2.5")
    #expect(Double(displayNumber(1.0 / 3)) == 1.0 / 3)
    #expect(Double(displayNumber(1e-300)) == 1e-300)
  }

  @Test("scene check warns about unknown keys; --strict makes them errors")
  func sceneCheckUnknownKeys() throws {
    let folder = try scratchFolder("cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let printed = try runSwell(["scene", "print", "waterwave"])
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(printed.out.utf8)) as? [String: Any])
    var canvas = try #require(object["canvas"] as? [String: Any])
    canvas["backgrund"] = "#ffffff"
    object["canvas"] = canvas
    let path = folder.appendingPathComponent("typo.json").path
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    let lenient = try runSwell(["scene", "check", path])
    #expect(lenient.status == 0)
    #expect(lenient.err == "swell scene: warning: \(path): 1 unknown key: canvas.backgrund\n")
    let strict = try runSwell(["scene", "check", path, "--strict"])
    #expect(strict.status == 1)
    #expect(strict.err.contains("canvas.backgrund (--strict)"))
    // The printed built-in scenes have no unknown keys.
    for name in ["waterwave", "homescreen", "glass"] {
      let file = folder.appendingPathComponent("\(name).json").path
      #expect(try runSwell(["scene", "print", name, "-o", file]).status == 0)
      let check = try runSwell(["scene", "check", file, "--strict"])
      #expect(check.status == 0 && check.err.isEmpty, "\(check.err)")
    }
  }
}
