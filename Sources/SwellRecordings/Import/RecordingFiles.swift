import Foundation
import SwellMotion

/// The files of a multi-file recording: a folder on disk or the entries of a zip archive.
struct RecordingFiles {
  /// One file.
  struct Entry {
    /// The file's own name (last path component), e.g. `Gyroscope.csv`.
    var name: String
    /// Where it is, for errors, e.g. `export.zip/rec/Gyroscope.csv`.
    var path: String
    fileprivate var location: Location
  }

  fileprivate enum Location {
    case file(URL)
    case zip(ZipArchive.Entry)
  }

  /// The files, in name order.
  var entries: [Entry]
  private var archive: ZipArchive?

  /// The files of a folder (and of its subfolders one level down, for exports that unzip into
  /// a folder of their own). Hidden files are skipped.
  static func folder(_ url: URL) throws(RecordingError) -> RecordingFiles {
    let fm = FileManager.default
    func list(_ folder: URL, prefix: String) -> [Entry] {
      guard let names = try? fm.contentsOfDirectory(atPath: folder.path) else { return [] }
      var out: [Entry] = []
      for n in names.sorted() where !n.hasPrefix(".") {
        let u = folder.appendingPathComponent(n)
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: u.path, isDirectory: &isDirectory), !isDirectory.boolValue {
          out.append(Entry(name: n, path: prefix + n, location: .file(u)))
        }
      }
      return out
    }
    guard (try? fm.contentsOfDirectory(atPath: url.path)) != nil else {
      throw RecordingError(file: url.path, message: "cannot list the folder")
    }
    var entries = list(url, prefix: url.lastPathComponent + "/")
    if entries.isEmpty, let subs = try? fm.contentsOfDirectory(atPath: url.path) {
      for s in subs.sorted() where !s.hasPrefix(".") {
        entries += list(
          url.appendingPathComponent(s), prefix: url.lastPathComponent + "/" + s + "/")
      }
    }
    return RecordingFiles(entries: entries, archive: nil)
  }

  /// The files of a zip archive (directories, hidden files and `__MACOSX` entries skipped).
  static func zip(_ archive: ZipArchive, name: String) -> RecordingFiles {
    var entries: [Entry] = []
    for e in archive.entries where !e.path.hasSuffix("/") && !e.path.hasPrefix("__MACOSX") {
      let base = e.path.split(separator: "/").last.map(String.init) ?? e.path
      guard !base.hasPrefix(".") else { continue }
      entries.append(Entry(name: base, path: name + "/" + e.path, location: .zip(e)))
    }
    entries.sort { $0.path < $1.path }
    return RecordingFiles(entries: entries, archive: archive)
  }

  /// The first file whose name matches (case-insensitively).
  func entry(named name: String) -> Entry? {
    entries.first { $0.name.lowercased() == name.lowercased() }
  }

  /// The contents of a file.
  func data(_ entry: Entry) throws(RecordingError) -> Data {
    switch entry.location {
    case .file(let url): return try readBytes(url)
    case .zip(let e):
      guard let archive else {
        throw RecordingError(file: entry.path, message: "archive is not open")
      }
      return try archive.extract(e)
    }
  }
}
