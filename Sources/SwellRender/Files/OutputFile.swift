import Foundation
import SwellFiles

/// An output file written under a temporary name in its destination folder and renamed into
/// place by ``commit()``, so an interrupted or failed run never leaves a partial file.
///
/// Creating one checks that the folder exists and is writable (by creating the temporary file).
/// If the value is dropped without a commit, the temporary file is removed.
///
/// Special destinations are written, never replaced (`OutputDestination`): for `-` (standard
/// output), a FIFO, a character device or a symbolic link to one, the output is spooled to a
/// temporary file in the system's temporary folder (ffmpeg needs a seekable file for MP4) and
/// copied into the destination by ``commit()``; a symbolic link to a regular file keeps the link
/// and its target is replaced atomically.
final class OutputFile {
  /// The destination path, as given.
  let path: String
  /// The temporary path (in the destination's folder, or the spool), renamed to or copied into
  /// the destination on commit.
  let temporaryPath: String
  private let target: OutputDestination
  private var descriptor: Int32
  private var isFinished = false

  /// Creates the temporary file for `path`.
  ///
  /// - Parameter path: The destination path (`-` for standard output).
  /// - Throws: ``RenderError`` (`unwritableOutput`) naming the folder when it is missing, not a
  ///   folder or not writable.
  init(path: String) throws(RenderError) {
    self.path = path
    do {
      target = try OutputDestination.resolve(path)
    } catch {
      throw RenderError(.unwritableOutput, path: path, reason: "the output path names a folder")
    }
    let token = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    switch target {
    case .replace(let destination):
      let (folder, name) = OutputFile.split(destination)
      guard !name.isEmpty else {
        throw RenderError(.unwritableOutput, path: path, reason: "the output path names a folder")
      }
      var info = stat()
      guard stat(folder, &info) == 0 else {
        let reason = String(cString: strerror(errno))
        throw RenderError(
          .unwritableOutput, path: path, reason: "output folder '\(folder)': \(reason)")
      }
      guard (info.st_mode & S_IFMT) == S_IFDIR else {
        throw RenderError(
          .unwritableOutput, path: path, reason: "'\(folder)' is not a folder")
      }
      let prefix = destination.dropLast(name.count)
      temporaryPath = prefix + ".\(name).swell-\(getpid())-\(token).tmp"
    case .standardOutput, .stream:
      let folder = FileManager.default.temporaryDirectory.path
      let name = OutputFile.split(path).name
      temporaryPath = folder + "/.swell-spool-\(getpid())-\(token)-\(name.isEmpty ? "out" : name)"
    }
    descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      let folder = OutputFile.split(temporaryPath).folder
      throw RenderError(
        .unwritableOutput, path: path, reason: "cannot create a file in '\(folder)': \(reason)")
    }
    UnfinishedOutputs.insert(temporaryPath)
  }

  deinit { discard() }

  /// Splits a path into its folder (`.` when none) and its last component.
  ///
  /// - Parameter path: The path.
  /// - Returns: The folder and the file name.
  static func split(_ path: String) -> (folder: String, name: String) { splitPath(path) }

  /// Appends bytes to the temporary file.
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``RenderError`` (`writeFailed`) with the system's reason, e.g. a full disk.
  func write(_ bytes: UnsafeRawBufferPointer) throws(RenderError) {
    guard descriptor >= 0, bytes.baseAddress != nil else {
      if bytes.isEmpty { return }
      throw RenderError(.invalidState, path: path, reason: "the file is already closed")
    }
    let code = SwellFiles.writeAll(descriptor, bytes)
    if code != 0 {
      throw RenderError(.writeFailed, path: path, reason: String(cString: strerror(code)))
    }
  }

  /// Appends data to the temporary file.
  ///
  /// - Parameter data: The bytes.
  /// - Throws: ``RenderError`` (`writeFailed`) with the system's reason.
  func write(_ data: Data) throws(RenderError) {
    let result: Result<Void, RenderError> = data.withUnsafeBytes { bytes in
      do throws(RenderError) {
        try write(bytes)
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }

  /// Closes the temporary file's descriptor (for a file another process writes by name).
  ///
  /// - Throws: ``RenderError`` (`writeFailed`) when the system reports a delayed write error.
  func closeDescriptor() throws(RenderError) {
    guard descriptor >= 0 else { return }
    let result = close(descriptor)
    descriptor = -1
    if result != 0 {
      throw RenderError(.writeFailed, path: path, reason: String(cString: strerror(errno)))
    }
  }

  /// Closes the temporary file and renames it to ``path`` (or copies it into a special
  /// destination).
  ///
  /// - Throws: ``RenderError`` (`writeFailed`); the temporary file is removed on failure.
  func commit() throws(RenderError) {
    guard !isFinished else { return }
    do {
      try closeDescriptor()
    } catch {
      discard()
      throw error
    }
    switch target {
    case .replace(let destination):
      guard rename(temporaryPath, destination) == 0 else {
        let reason = String(cString: strerror(errno))
        discard()
        throw RenderError(
          .writeFailed, path: path, reason: "cannot move the finished file: \(reason)")
      }
    case .standardOutput, .stream:
      do {
        try copySpool()
      } catch {
        discard()
        throw error
      }
      unlink(temporaryPath)
    }
    UnfinishedOutputs.remove(temporaryPath)
    isFinished = true
  }

  /// Copies the spooled output into the special destination.
  private func copySpool() throws(RenderError) {
    let source = open(temporaryPath, O_RDONLY | O_CLOEXEC)
    guard source >= 0 else {
      throw RenderError(.writeFailed, path: path, reason: String(cString: strerror(errno)))
    }
    defer { close(source) }
    let destination = target.openStream()
    guard destination >= 0 else {
      throw RenderError(.writeFailed, path: path, reason: String(cString: strerror(errno)))
    }
    defer { close(destination) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 {
        throw RenderError(.writeFailed, path: path, reason: String(cString: strerror(errno)))
      }
      if n == 0 { return }
      let code = buffer.withUnsafeBytes {
        SwellFiles.writeAll(destination, .init(rebasing: $0[0..<n]))
      }
      if code != 0 {
        throw RenderError(.writeFailed, path: path, reason: String(cString: strerror(code)))
      }
    }
  }

  /// Closes and removes the temporary file; does nothing after ``commit()``.
  func discard() {
    guard !isFinished else { return }
    isFinished = true
    if descriptor >= 0 {
      close(descriptor)
      descriptor = -1
    }
    unlink(temporaryPath)
    UnfinishedOutputs.remove(temporaryPath)
  }
}

/// The temporary files of the outputs this process is writing (every Swell writer's: frames,
/// videos, traces, recordings, device motion), and the encoder processes writing them: the one
/// public handle on SwellFiles' registry of unfinished files.
public enum OutputFiles {
  /// Removes the temporary file of every output in progress in this process (for a signal
  /// handler: an interrupted render leaves no hidden `.NAME.swell-PID-*.tmp` behind), after
  /// killing the encoder processes writing them. Safe to call from any thread; the sinks' later
  /// writes fail. (The same registry holds the temporary files of SwellMotion's writers.)
  public static func removeUnfinishedFiles() { UnfinishedOutputs.removeAll() }
}
