import Foundation
import Testing

/// The module picture: every module a source file imports is a declared dependency of its
/// target in Package.swift (SwiftPM lets a target import any module built before it, so a
/// missing declaration compiles today and breaks a product that does not happen to build it).
@Suite("Package.swift declares every import")
private struct PackageGraphTests {
  static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Each target's name and its declared dependencies, read from Package.swift's text.
  static func targets() throws -> [String: Set<String>] {
    let text = try String(
      contentsOf: package.appendingPathComponent("Package.swift"), encoding: .utf8)
    var out: [String: Set<String>] = [:]
    let pieces =
      text.components(separatedBy: "Target(").dropFirst()
      + text.components(separatedBy: ".target(").dropFirst()
    for piece in pieces {
      guard let nameRange = piece.range(of: "name: \""),
        let nameEnd = piece[nameRange.upperBound...].firstIndex(of: "\"")
      else { continue }
      let name = String(piece[nameRange.upperBound..<nameEnd])
      // The dependencies list up to its closing bracket, before the next target begins.
      var dependencies: Set<String> = []
      if let d = piece.range(of: "dependencies: ["),
        let close = piece[d.upperBound...].firstIndex(of: "]")
      {
        for part in piece[d.upperBound..<close]
          .split(separator: "\"", omittingEmptySubsequences: false).enumerated()
        where part.offset % 2 == 1 {
          dependencies.insert(String(part.element))
        }
      }
      out[name] = dependencies
    }
    return out
  }

  /// The Swell and C modules a folder's Swift files import.
  static func imports(in folder: URL) -> Set<String> {
    var found: Set<String> = []
    guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    else { return found }
    for case let file as URL in files where file.pathExtension == "swift" {
      guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
      for line in text.split(separator: "\n") {
        var words = line.split(separator: " ").map(String.init)
        while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
        guard words.count >= 2, words[0] == "import" else { continue }
        let module = words[1]
        if module.hasPrefix("Swell")
          || (module.hasPrefix("C") && module.count > 1 && module != "CoreFoundation")
        {
          found.insert(module)
        }
      }
    }
    return found
  }

  @Test("every Swell or C module a target's sources import is in its dependencies")
  func declared() throws {
    let targets = try Self.targets()
    #expect(targets["SwellMotion"] != nil && targets["SwellToolTests"] != nil, "\(targets.keys)")
    let root = Self.package.appendingPathComponent("Sources")
    var checked = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() {
      guard let declared = targets[name] else { continue }
      checked += 1
      let missing = Self.imports(in: root.appendingPathComponent(name))
        .subtracting(declared).subtracting([name])
      #expect(missing.isEmpty, "\(name) imports \(missing.sorted()) without declaring them")
    }
    #expect(checked >= 15, "\(checked) source targets found")
    #expect(targets["SwellGeometry"] == [], "a target without dependencies reads as none")
  }

  @Test("the check sees a missing declaration (an import planted in a scratch copy)")
  func seesMissing() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swell-graph-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try "import Foundation\n@preconcurrency import SwellTime\nimport CZlib\n".write(
      to: folder.appendingPathComponent("a.swift"), atomically: true, encoding: .utf8)
    #expect(Self.imports(in: folder) == ["SwellTime", "CZlib"])
  }
}
