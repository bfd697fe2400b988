import Foundation
import SwellTestSupport
import Testing

@testable import SwellTool

@Suite("swell --version")
private struct VersionTests {
  @Test(
    "prints one line: the version number, and the commit when built from git",
    arguments: [
      "--version", "version",
    ])
  func oneLine(word: String) throws {
    let r = try runSwell([word])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.err.isEmpty)
    let pattern = #/^swell (\d+)\.(\d+)\.(\d+)(?: \(commit ([0-9a-f]{12})(-dirty)?\))?\n$/#
    let match = try #require(r.out.wholeMatch(of: pattern), "\(r.out)")
    #expect("\(match.1).\(match.2).\(match.3)" == SwellTool.version)
    let head = try runProgram("git", ["-C", packageRoot.path, "rev-parse", "--show-toplevel"])
    if head.status == 0 {
      // Built from this checkout: a commit of it (not necessarily HEAD: a commit made after the
      // build is not in the binary yet).
      let commit = try #require(match.4, "no commit in '\(r.out)'")
      let known = try runProgram(
        "git", ["-C", packageRoot.path, "cat-file", "-e", "\(commit)^{commit}"])
      #expect(known.status == 0, "\(commit) is not a commit of this checkout")
    } else {
      #expect(match.4 == nil)
    }
  }

  @Test("takes no arguments (a usage error, exit 64)", arguments: ["--version", "version"])
  func noArguments(word: String) throws {
    let r = try runSwell([word, "extra"])
    #expect(r.status == 64)
    #expect(r.out.isEmpty)
    let prefix = word == "version" ? "swell version" : "swell"
    #expect(r.err == "\(prefix): unexpected argument 'extra'\n")
  }

  @Test("the version number is MAJOR.MINOR.PATCH, still 0.x")
  func semantic() {
    #expect(SwellTool.version.wholeMatch(of: #/0\.\d+\.\d+/#) != nil, "\(SwellTool.version)")
  }
}

/// Runs `Scripts/build-commit.sh PACKAGE OUT` and returns the generated file's text.
private func buildCommit(package: URL, out: URL) throws -> String {
  let script = packageRoot.appendingPathComponent("Scripts/build-commit.sh").path
  let r = try runProgram("sh", [script, package.path, out.path])
  #expect(r.status == 0, "\(r.err)")
  return try String(
    contentsOf: out.appendingPathComponent("BuildCommit.swift"), encoding: .utf8)
}

/// Runs git in `folder` with a fixed identity; fails the test when git fails.
@discardableResult
private func git(_ folder: URL, _ arguments: [String]) throws -> String {
  let r = try runProgram(
    "git",
    ["-C", folder.path, "-c", "user.name=Swell Tests", "-c", "user.email=tests@swell.invalid"]
      + arguments)
  #expect(r.status == 0, "git \(arguments): \(r.err)")
  return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite("Scripts/build-commit.sh (the commit in --version)")
private struct BuildCommitScriptTests {
  @Test("outside git (a source tarball) it writes nil")
  func noGit() throws {
    let folder = try scratchFolder("build-commit")
    defer { try? FileManager.default.removeItem(at: folder) }
    let package = folder.appendingPathComponent("swell-src")
    try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
    let text = try buildCommit(package: package, out: folder.appendingPathComponent("out"))
    #expect(text.hasSuffix("\nlet buildCommit: String? = nil\n"), "\(text)")
  }

  @Test("a checkout's commit, -dirty with changed tracked files; unchanged, the file stays")
  func checkout() throws {
    let folder = try scratchFolder("build-commit")
    defer { try? FileManager.default.removeItem(at: folder) }
    let package = folder.appendingPathComponent("repo")
    let out = folder.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
    try git(package, ["init", "-q"])
    try Data("a\n".utf8).write(to: package.appendingPathComponent("Package.swift"))
    try git(package, ["add", "Package.swift"])
    try git(package, ["commit", "-q", "-m", "one"])
    let head = try git(package, ["rev-parse", "--short=12", "HEAD"])
    #expect(head.count == 12)

    let clean = try buildCommit(package: package, out: out)
    #expect(clean.hasSuffix("\nlet buildCommit: String? = \"\(head)\"\n"), "\(clean)")
    // An untracked file does not count; the same text leaves the file untouched.
    let file = out.appendingPathComponent("BuildCommit.swift")
    let before = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: file.path)
    try Data("b\n".utf8).write(to: package.appendingPathComponent("untracked.txt"))
    #expect(try buildCommit(package: package, out: out) == clean)
    let after = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]
    #expect(
      after as? Date == Date(timeIntervalSince1970: 1_000_000), "\(String(describing: before))")

    try Data("changed\n".utf8).write(to: package.appendingPathComponent("Package.swift"))
    let dirty = try buildCommit(package: package, out: out)
    #expect(dirty.hasSuffix("\nlet buildCommit: String? = \"\(head)-dirty\"\n"), "\(dirty)")
  }

  @Test("a source folder unpacked inside another checkout has no commit of its own")
  func nested() throws {
    let folder = try scratchFolder("build-commit")
    defer { try? FileManager.default.removeItem(at: folder) }
    try git(folder, ["init", "-q"])
    try git(folder, ["commit", "-q", "--allow-empty", "-m", "outer"])
    let package = folder.appendingPathComponent("swell-0.1.0")
    try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
    let text = try buildCommit(package: package, out: folder.appendingPathComponent("out"))
    #expect(text.hasSuffix("\nlet buildCommit: String? = nil\n"), "\(text)")
  }
}

@Suite("Bundled resources (beside the binary, ../share/swell, the SwiftPM bundle)")
private struct BundledResourcesTests {
  let bin = URL(fileURLWithPath: "/opt/swell/usr/bin")

  @Test("the folders searched, in order")
  func folders() {
    #expect(
      BundledResources.files.searchFolders(binaryFolder: bin).map(\.path) == [
        "/opt/swell/usr/bin", "/opt/swell/usr/share/swell",
        "/opt/swell/usr/bin/Swell_SwellTool.resources/Resources",
      ])
  }

  @Test(
    "the first folder that holds the resource wins",
    arguments: [
      (["/opt/swell/usr/bin/rec"], "/opt/swell/usr/bin/rec"),
      (["/opt/swell/usr/share/swell/rec"], "/opt/swell/usr/share/swell/rec"),
      (
        ["/opt/swell/usr/bin/Swell_SwellTool.resources/Resources/rec"],
        "/opt/swell/usr/bin/Swell_SwellTool.resources/Resources/rec"
      ),
      (
        [
          "/opt/swell/usr/share/swell/rec",
          "/opt/swell/usr/bin/Swell_SwellTool.resources/Resources/rec",
        ],
        "/opt/swell/usr/share/swell/rec"
      ),
    ])
  func firstMatch(present: [String], expected: String) throws {
    let found = try BundledResources.files.locate(
      "rec", what: "the thing", binaryFolder: bin, isFolder: { present.contains($0) })
    #expect(found.path == expected)
  }

  @Test("a missing resource is one line naming every folder searched")
  func missing() {
    #expect {
      try BundledResources.files.locate(
        "rec", what: "the thing", binaryFolder: bin, isFolder: { _ in false })
    } throws: { error in
      (error as? ToolError)?.message
        == "the thing rec is missing: looked in /opt/swell/usr/bin, /opt/swell/usr/share/swell and "
        + "/opt/swell/usr/bin/Swell_SwellTool.resources/Resources"
    }
  }
}

@Suite("A copied swell without the build folder")
private struct CopiedBinaryTests {
  @Test("demo fails in one line (exit 1) without the share folder, and works with it")
  func demo() throws {
    let folder = try scratchFolder("copy").resolvingSymlinksInPath()
    defer { try? FileManager.default.removeItem(at: folder) }
    let bin = folder.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let copy = bin.appendingPathComponent("swell")
    // A hard link is a copy as far as the binary can tell (its own path is the new one).
    let built = try swellExecutable()
    do { try FileManager.default.linkItem(at: built, to: copy) } catch {
      try FileManager.default.copyItem(at: built, to: copy)
    }
    let video = folder.appendingPathComponent("demo.mp4").path
    let demo = [
      "demo", "--file", "--duration", "0.3", "--fps", "10", "--size", "50x108@1", "-o", video,
    ]

    let missing = try runExecutable(copy, demo)
    #expect(missing.status == 1, "\(missing.err)")
    let share = folder.appendingPathComponent("share/swell")
    #expect(
      missing.err
        == "swell demo: the bundled recording sensorlogger-ios-rotation is missing: looked in "
        + "\(bin.path), \(share.path) and \(bin.path)/Swell_SwellTool.resources/Resources\n")
    #expect(!FileManager.default.fileExists(atPath: video))

    try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: packageRoot.appendingPathComponent(
        "Sources/SwellTool/Resources/sensorlogger-ios-rotation"),
      to: share.appendingPathComponent("sensorlogger-ios-rotation"))
    let works = try runExecutable(copy, demo)
    #expect(works.status == 0, "\(works.err)")
    #expect(works.out.hasSuffix("swell demo: the video is at \(video)\n"), "\(works.out)")
    let info = try #require(try probeVideoStream(video))
    #expect(info.frames == 3)
    #expect(info.width == 50)
  }
}
