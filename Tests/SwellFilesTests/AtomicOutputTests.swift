import Foundation
import SwellFiles
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh, empty folder under the temporary directory.
private func freshFolder() throws -> String {
  let path =
    FileManager.default.temporaryDirectory.path
    + "/swell-atomic-\(UInt64.random(in: 0...UInt64.max))"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
  return path
}

/// The names in a folder, sorted.
private func names(in folder: String) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
}

/// Writes text through an output.
private func write(_ text: String, to output: AtomicOutput) throws(AtomicOutput.Failure) {
  let written = Array(text.utf8).withUnsafeBytes { bytes in
    Result { () throws(AtomicOutput.Failure) in try output.write(bytes) }
  }
  try written.get()
}

/// Reads a FIFO to its end on a thread of its own (its open waits for a writer).
private final class FIFOReader: @unchecked Sendable {
  // @unchecked: `bytes` is written once by the reader thread before `done` is signalled.
  private var bytes: [UInt8] = []
  private let done = DispatchSemaphore(value: 0)

  init(_ path: String) {
    let thread = Thread { [self] in
      defer { done.signal() }
      let fd = open(path, O_RDONLY)
      guard fd >= 0 else { return }
      defer { close(fd) }
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { return }
        bytes += buffer[0..<n]
      }
    }
    thread.start()
  }

  /// What was read once the writer closed the FIFO, or `nil` after 30 s.
  func text() -> String? {
    guard done.wait(timeout: .now() + 30) == .success else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }
}

@Suite("AtomicOutput: the one temporary-file-and-rename core")
private struct AtomicOutputTests {
  @Test(
    "a regular file is written to a hidden temporary beside it and renamed on commit",
    arguments: [AtomicOutput.SpecialDestinations.writtenInPlace, .spooled])
  func replaces(mode: AtomicOutput.SpecialDestinations) throws {
    let folder = try freshFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/out.csv"
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
    let output = try AtomicOutput(path: path, specialDestinations: mode)
    let temporary = try #require(output.temporaryPath)
    #expect(temporary.hasPrefix(folder + "/.out.csv.swell-\(getpid())-"))
    #expect(temporary.hasSuffix(".tmp"))
    try write("new\n", to: output)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    try output.commit()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    #expect(try names(in: folder) == ["out.csv"])
    #expect(throws: AtomicOutput.Failure.closed) { try write("late", to: output) }
    // No bytes are always accepted, and a second commit does nothing.
    try output.write(UnsafeRawBufferPointer(start: nil, count: 0))
    try output.commit()
  }

  @Test("a discarded output leaves the destination as it was and no temporary file")
  func discards() throws {
    let folder = try freshFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/out.csv"
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
    do {
      let output = try AtomicOutput(path: path, specialDestinations: .spooled)
      try write("new\n", to: output)
      #expect(try names(in: folder).count == 2)
      output.discard()
      #expect(try names(in: folder) == ["out.csv"])
    }
    do {
      // Dropped without a commit.
      _ = try AtomicOutput(path: path, specialDestinations: .writtenInPlace)
    }
    #expect(try names(in: folder) == ["out.csv"])
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
  }

  @Test("a temporary file removed before the commit (a signal handler) fails the rename")
  func renameFailure() throws {
    let folder = try freshFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let output = try AtomicOutput(path: folder + "/out.csv", specialDestinations: .spooled)
    unlink(try #require(output.temporaryPath))
    #expect(throws: AtomicOutput.Failure.rename(code: ENOENT)) { try output.commit() }
    #expect(try names(in: folder).isEmpty)
  }

  @Test("folders, missing folders and files standing in for a folder are refused by name")
  func refusals() throws {
    let folder = try freshFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/file"
    try Data().write(to: URL(fileURLWithPath: file))
    let cases: [(String, AtomicOutput.Failure)] = [
      (folder, .namesFolder),
      (folder + "/new/", .namesFolder),
      (folder + "/missing/out.csv", .folderUnreachable(folder: folder + "/missing", code: ENOENT)),
      (file + "/out.csv", .notAFolder(folder: file)),
    ]
    for (path, failure) in cases {
      #expect(throws: failure, "\(path)") {
        _ = try AtomicOutput(path: path, specialDestinations: .spooled)
      }
    }
    #expect(try names(in: folder) == ["file"])
  }

  @Test("a FIFO written in place is opened at once and receives the bytes before the commit")
  func fifoInPlace() throws {
    let folder = try freshFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let fifo = folder + "/pipe.csv"
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = FIFOReader(fifo)
    let output = try AtomicOutput(path: fifo, specialDestinations: .writtenInPlace)
    #expect(output.temporaryPath == nil)
    try write("rows\n", to: output)
    // Discarded, the output keeps what it sent; the FIFO stays a FIFO.
    output.discard()
    #expect(reader.text() == "rows\n")
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
    #expect(try names(in: folder) == ["pipe.csv"])
  }

  @Test("a spooled FIFO is opened only by the commit, which copies the whole output into it")
  func fifoSpooled() throws {
    let folder = try freshFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let fifo = folder + "/pipe.png"
    #expect(mkfifo(fifo, 0o600) == 0)
    // No reader yet: creating and writing do not wait for one.
    let output = try AtomicOutput(path: fifo, specialDestinations: .spooled)
    let spool = try #require(output.temporaryPath)
    #expect(spool.hasPrefix(FileManager.default.temporaryDirectory.path + "/.swell-spool-"))
    let text = String(repeating: "0123456789abcdef", count: 10_000)
    try write(text, to: output)
    let reader = FIFOReader(fifo)
    try output.commit()
    #expect(reader.text() == text)
    #expect(!FileManager.default.fileExists(atPath: spool))
    #expect(try names(in: folder) == ["pipe.png"])
  }

  @Test("a discarded spool sends nothing to its special destination")
  func spoolDiscarded() throws {
    let folder = try freshFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let link = folder + "/null.csv"
    #expect(symlink("/dev/null", link) == 0)
    let output = try AtomicOutput(path: link, specialDestinations: .spooled)
    #expect(output.destination == .stream(path: link, truncate: false))
    let spool = try #require(output.temporaryPath)
    #expect(FileManager.default.fileExists(atPath: spool))
    output.discard()
    #expect(!FileManager.default.fileExists(atPath: spool))
    var info = stat()
    #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
  }
}

@Suite("The registry of unfinished outputs (OutputFiles)")
private struct OutputFilesRegistryTests {
  @Test("an output's temporary file is registered until it is committed or discarded")
  func outputsRegister() throws {
    let folder = try freshFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let committed = try AtomicOutput(path: folder + "/a.csv", specialDestinations: .spooled)
    let kept = try #require(committed.temporaryPath)
    #expect(OutputFiles.isRegistered(temporaryFile: kept))
    try committed.commit()
    #expect(!OutputFiles.isRegistered(temporaryFile: kept))
    let discarded = try AtomicOutput(path: folder + "/b.csv", specialDestinations: .spooled)
    let dropped = try #require(discarded.temporaryPath)
    #expect(OutputFiles.isRegistered(temporaryFile: dropped))
    discarded.discard()
    #expect(!OutputFiles.isRegistered(temporaryFile: dropped))
    #expect(try names(in: folder) == ["a.csv"])
  }

  @Test("a program's own temporary file is in the registry until it is forgotten")
  func ownFiles() throws {
    // `removeUnfinishedFiles()` itself is not called here: it would remove the temporary files
    // of the tests running beside this one. `Scripts/test.sh` interrupts Examples/MotionOnly
    // while it writes, and the tool's signal tests interrupt renders and recordings.
    let folder = try freshFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let own = folder + "/.own.tmp"
    let forgotten = folder + "/.forgotten.tmp"
    for path in [own, forgotten] {
      #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
      OutputFiles.register(temporaryFile: path)
      #expect(OutputFiles.isRegistered(temporaryFile: path))
    }
    OutputFiles.forget(temporaryFile: forgotten)
    #expect(!OutputFiles.isRegistered(temporaryFile: forgotten))
    #expect(OutputFiles.isRegistered(temporaryFile: own))
    OutputFiles.forget(temporaryFile: own)
    #expect(!OutputFiles.isRegistered(temporaryFile: own))
    // Forgetting leaves the files to their owner.
    #expect(try names(in: folder) == [".forgotten.tmp", ".own.tmp"])
  }
}
