import Foundation
import SwellTestSupport
import Testing

@Suite("External programs: every one the tests start is installed by Scripts/install-deps.sh")
private struct ExternalProgramTests {
  @Test("the tests read the same program table that install-deps.sh --list-programs prints")
  func tableMatchesScript() throws {
    let r = try runProgram(
      "bash",
      [packageRoot.appendingPathComponent("Scripts/install-deps.sh").path, "--list-programs"])
    #expect(r.status == 0, "\(r.err)")
    var printed: [String: String] = [:]
    for line in r.out.split(separator: "\n") {
      let words = line.split(separator: " ")
      if words.count == 2 { printed[String(words[0])] = String(words[1]) }
    }
    #expect(printed == installedProgramPackages)
    #expect(installedProgramPackages["xdotool"] == "xdotool")
    #expect(installedProgramPackages["ffprobe"] == "ffmpeg")
  }

  @Test("a program that is absent fails with its name and its Debian package, not a POSIX code")
  func absentProgramIsNamed() throws {
    let name = "swell-absent-program-\(UInt32.random(in: 0...UInt32.max))"
    #expect(throws: MissingProgram.self) { try runProgram(name, []) }
    do {
      _ = try spawnProgram(name, [])
      Issue.record("spawnProgram started a program that does not exist")
    } catch let error as MissingProgram {
      #expect(error.description.hasPrefix("\(name) is not installed"))
      #expect(error.description.contains("Scripts/install-deps.sh"))
    }
    // A listed program names its package.
    let listed = MissingProgram(program: "xdotool", package: installedProgramPackages["xdotool"])
    #expect(
      listed.description
        == "xdotool is not installed: it comes from the Debian package xdotool; "
        + "run Scripts/install-deps.sh (or apt-get install xdotool)")
  }

  @Test("every program in the table is installed here (install-deps.sh has run)")
  func everyListedProgramIsInstalled() throws {
    #expect(!installedProgramPackages.isEmpty)
    for program in installedProgramPackages.keys.sorted() {
      #expect(findProgram(program) != nil, "\(program) is listed but not on PATH")
    }
  }

  @Test(
    "check-programs.pl fails, naming the program and its package, when one is dropped from the list",
    arguments: ["xdotool", "tmux", "ffprobe"])
  func checkFailsWhenAProgramIsDropped(program: String) throws {
    let copy = try scratchFolder("check-programs")
    defer { try? FileManager.default.removeItem(at: copy) }
    let fm = FileManager.default
    for item in ["Scripts", "Sources", "Tests", ".ci"] {
      try fm.copyItem(
        at: packageRoot.appendingPathComponent(item), to: copy.appendingPathComponent(item))
    }
    let script = copy.appendingPathComponent("Scripts/install-deps.sh")
    let text = try String(contentsOf: script, encoding: .utf8)
    let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter {
      !$0.trimmingCharacters(in: .whitespaces).hasPrefix("\"\(program) ")
    }
    #expect(kept.count == text.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
    try kept.joined(separator: "\n").write(to: script, atomically: true, encoding: .utf8)

    let checker = copy.appendingPathComponent("Scripts/check-programs.pl").path
    let dropped = try runProgram("perl", [checker])
    #expect(dropped.status == 1)
    let lines = dropped.err.split(separator: "\n")
    #expect(lines.count == 1, "\(dropped.err)")
    let package = try #require(installedProgramPackages[program])
    #expect(
      dropped.err.hasPrefix(
        "check-programs: \(program) (Debian package \(package)) is started by "),
      "\(dropped.err)")

    // The untouched tree passes.
    let whole = try runProgram(
      "perl", [packageRoot.appendingPathComponent("Scripts/check-programs.pl").path])
    #expect(whole.status == 0, "\(whole.err)")
  }
}
