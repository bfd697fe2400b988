import Foundation
import SwellTestSupport
import Testing

/// Notes kept outside the repository that docs and comments once pointed at instead of citing
/// the facts: the names are built from pieces so that this file does not name them itself.
/// (The repository's own `docs/formats.md` and `docs/architecture.md` hold what the outside
/// `FORMATS` and `DESIGN` notes held for readers; the search is case-sensitive.)
let outsideNotes = [
  "apple" + "-semantics" + ".md", "peers" + ".md", "FORMATS" + ".md", "DESIGN" + ".md",
  "linux" + "-platform",
]

/// The files under the checked folders and the README, skipping hidden folders (a package's
/// `.build`, `.swiftpm`), as paths relative to the package root.
func checkedFiles() throws -> [String] {
  var paths = ["README.md"]
  let manager = FileManager.default
  for folder in ["Sources", "Tests", "docs", "Examples", "Scripts"] {
    let root = packageRoot.appendingPathComponent(folder)
    guard
      let walker = manager.enumerator(
        at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
    else { continue }
    for case let url as URL in walker
    where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
      paths.append(folder + "/" + url.path.dropFirst(root.path.count + 1))
    }
  }
  return paths
}

@Suite("Docs and comments cite their facts")
private struct DocumentReferenceTests {
  @Test(
    "no file under Sources, Tests, docs, Examples or Scripts, nor the README, points at notes the repository does not have"
  )
  func noPointersToOutsideNotes() throws {
    let files = try checkedFiles()
    #expect(files.contains("Sources/SwellEffects/Engine/ViewerOffsetEngine.swift"))
    #expect(files.contains("docs/waterwave.md"))
    var offenders: [String] = []
    for path in files {
      let data = try Data(contentsOf: packageRoot.appendingPathComponent(path))
      for note in outsideNotes where data.range(of: Data(note.utf8)) != nil {
        offenders.append("\(path): \(note)")
      }
    }
    #expect(offenders.isEmpty, "cite the fact and its source where it is used: \(offenders)")
  }
}
