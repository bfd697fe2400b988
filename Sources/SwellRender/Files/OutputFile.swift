import Foundation

/// An output file written under a temporary name in its destination folder and renamed into
/// place by ``commit()``, so an interrupted or failed run never leaves a partial file.
///
/// Creating one checks that the folder exists and is writable (by creating the temporary file).
/// If the value is dropped without a commit, the temporary file is removed.
final class OutputFile {
  /// The destination path.
  let path: String
  /// The temporary path in the same folder, renamed to ``path`` on commit.
  let temporaryPath: String
  private var descriptor: Int32
  private var isFinished = false

  /// Creates the temporary file for `path`.
  ///
  /// - Parameter path: The destination path.
  /// - Throws: ``RenderError`` (`unwritableOutput`) naming the folder when it is missing, not a
  ///   folder or not writable.
  init(path: String) throws(RenderError) {
    self.path = path
    let (folder, name) = OutputFile.split(path)
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
    let token = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    let prefix = path.dropLast(name.count)
    temporaryPath = prefix + ".\(name).swell-\(getpid())-\(token).tmp"
    descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      throw RenderError(
        .unwritableOutput, path: path, reason: "cannot create a file in '\(folder)': \(reason)")
    }
  }

  deinit { discard() }

  /// Splits a path into its folder (`.` when none) and its last component.
  ///
  /// - Parameter path: The path.
  /// - Returns: The folder and the file name.
  static func split(_ path: String) -> (folder: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let folder = String(path[..<slash])
    let name = String(path[path.index(after: slash)...])
    return (folder.isEmpty ? "/" : folder, name)
  }

  /// Appends bytes to the temporary file.
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``RenderError`` (`writeFailed`) with the system's reason, e.g. a full disk.
  func write(_ bytes: UnsafeRawBufferPointer) throws(RenderError) {
    guard descriptor >= 0, var base = bytes.baseAddress else {
      if bytes.isEmpty { return }
      throw RenderError(.invalidState, path: path, reason: "the file is already closed")
    }
    var remaining = bytes.count
    while remaining > 0 {
      let n = Foundation.write(descriptor, base, remaining)
      if n < 0 {
        if errno == EINTR { continue }
        throw RenderError(.writeFailed, path: path, reason: String(cString: strerror(errno)))
      }
      remaining -= n
      base += n
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

  /// Closes the temporary file and renames it to ``path``.
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
    guard rename(temporaryPath, path) == 0 else {
      let reason = String(cString: strerror(errno))
      discard()
      throw RenderError(
        .writeFailed, path: path, reason: "cannot move the finished file: \(reason)")
    }
    isFinished = true
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
  }
}
