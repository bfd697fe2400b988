import Foundation
import SwellTestSupport
import Testing

/// A scratch copy of what `Scripts/check-modules.pl` reads: Package.swift, docs/architecture.md
/// and the Swift files under Sources.
private func scratchPackage() throws -> URL {
  let folder = try scratchFolder("module-picture")
  let manager = FileManager.default
  try manager.createDirectory(
    at: folder.appendingPathComponent("docs"), withIntermediateDirectories: true)
  for path in ["Package.swift", "docs/architecture.md"] {
    try manager.copyItem(
      at: packageRoot.appendingPathComponent(path), to: folder.appendingPathComponent(path))
  }
  let sources = packageRoot.appendingPathComponent("Sources")
  for module in try manager.contentsOfDirectory(atPath: sources.path) {
    guard
      let walker = manager.enumerator(
        at: sources.appendingPathComponent(module), includingPropertiesForKeys: nil)
    else { continue }
    for case let file as URL in walker where file.pathExtension == "swift" {
      let relative =
        "Sources/" + module + "/"
        + file.path.dropFirst(
          sources.appendingPathComponent(module).path.count + 1)
      let target = folder.appendingPathComponent(relative)
      try manager.createDirectory(
        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try manager.copyItem(at: file, to: target)
    }
  }
  return folder
}

/// Runs the check on a tree.
private func check(_ root: URL) throws -> (status: Int32, out: String, err: String) {
  // Starts: perl
  try runProgram(
    "perl", [packageRoot.appendingPathComponent("Scripts/check-modules.pl").path, root.path])
}

/// Replaces the first occurrence of `old` in a file of the tree.
private func edit(_ root: URL, _ path: String, _ old: String, _ new: String) throws {
  let url = root.appendingPathComponent(path)
  let text = try String(contentsOf: url, encoding: .utf8)
  let range = try #require(text.range(of: old), "\(path) has no '\(old)'")
  try text.replacingCharacters(in: range, with: new).write(
    to: url, atomically: true, encoding: .utf8)
}

@Suite("The module picture is checked (Scripts/check-modules.pl)")
private struct ModulePictureTests {
  @Test("the package as it is passes")
  func packagePasses() throws {
    let r = try check(packageRoot)
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.contains("modules import only what Package.swift declares"))
  }

  @Test("an import Package.swift does not declare fails, naming the file, line and module")
  func undeclaredImport() throws {
    let root = try scratchPackage()
    defer { try? FileManager.default.removeItem(at: root) }
    #expect(try check(root).status == 0, "the copy passes before the plant")
    try edit(
      root, "Sources/SwellMotion/IMUSample.swift", "import SwellGeometry\n",
      "import SwellGeometry\nimport SwellRender\n")
    let r = try check(root)
    #expect(r.status == 1)
    #expect(
      r.err.contains(
        "Sources/SwellMotion/IMUSample.swift:2: SwellMotion imports SwellRender, which "
          + "Package.swift does not declare for it"), "\(r.err)")
  }

  @Test("a dependency up the table fails even when Package.swift declares it")
  func upwardDependency() throws {
    let root = try scratchPackage()
    defer { try? FileManager.default.removeItem(at: root) }
    try edit(
      root, "Package.swift",
      #"name: "SwellLayers", dependencies: ["SwellGeometry", "SwellTime"]"#,
      #"name: "SwellLayers", dependencies: ["SwellGeometry", "SwellTime", "SwellScenes"]"#)
    try edit(
      root, "Sources/SwellLayers/Layer.swift", "import Foundation\n",
      "import Foundation\nimport SwellScenes\n")
    let r = try check(root)
    #expect(r.status == 1)
    #expect(
      r.err.contains(
        "SwellLayers depends on SwellScenes in Package.swift, which is not above it"), "\(r.err)")
    #expect(
      r.err.contains("SwellLayers imports SwellScenes, which is not above it"), "\(r.err)")
  }

  @Test("a module missing from docs/architecture.md's table fails")
  func missingRow() throws {
    let root = try scratchPackage()
    defer { try? FileManager.default.removeItem(at: root) }
    try edit(root, "docs/architecture.md", "| `SwellDesktop` |", "| Desktop |")
    let r = try check(root)
    #expect(r.status == 1)
    #expect(r.err.contains("SwellDesktop is not in docs/architecture.md's module table"))
  }
}
