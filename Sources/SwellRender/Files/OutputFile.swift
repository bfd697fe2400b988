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
  private let output: AtomicOutput

  /// Creates the temporary file for `path`.
  ///
  /// - Parameter path: The destination path (`-` for standard output).
  /// - Throws: ``RenderError`` (`unwritableOutput`) naming the folder when it is missing, not a
  ///   folder or not writable.
  init(path: String) throws(RenderError) {
    self.path = path
    do {
      output = try AtomicOutput(path: path, specialDestinations: .spooled)
    } catch {
      throw Self.error(error, path: path)
    }
    guard let temporaryPath = output.temporaryPath else {
      preconditionFailure("a spooled output always has a temporary file")
    }
    self.temporaryPath = temporaryPath
  }

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
    do {
      try output.write(bytes)
    } catch {
      throw Self.error(error, path: path)
    }
  }

  /// Appends data to the temporary file.
  ///
  /// - Parameter data: The bytes.
  /// - Throws: ``RenderError`` (`writeFailed`) with the system's reason.
  func write(_ data: Data) throws(RenderError) {
    let result = data.withUnsafeBytes { bytes in
      Result { () throws(RenderError) in try write(bytes) }
    }
    try result.get()
  }

  /// Closes the temporary file's descriptor (for a file another process writes by name).
  ///
  /// - Throws: ``RenderError`` (`writeFailed`) when the system reports a delayed write error.
  func closeDescriptor() throws(RenderError) {
    do {
      try output.closeDescriptor()
    } catch {
      throw Self.error(error, path: path)
    }
  }

  /// Closes the temporary file and renames it to ``path`` (or copies it into a special
  /// destination).
  ///
  /// - Throws: ``RenderError`` (`writeFailed`); the temporary file is removed on failure.
  func commit() throws(RenderError) {
    do {
      try output.commit()
    } catch {
      throw Self.error(error, path: path)
    }
  }

  /// Closes and removes the temporary file; does nothing after ``commit()``.
  func discard() { output.discard() }

  /// The error naming `path` for a failure of the output.
  private static func error(_ failure: AtomicOutput.Failure, path: String) -> RenderError {
    func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
    switch failure {
    case .namesFolder:
      return RenderError(
        .unwritableOutput, path: path, reason: "the output path names a folder")
    case .folderUnreachable(let folder, let code):
      return RenderError(
        .unwritableOutput, path: path, reason: "output folder '\(folder)': \(reason(code))")
    case .notAFolder(let folder):
      return RenderError(.unwritableOutput, path: path, reason: "'\(folder)' is not a folder")
    case .cannotCreate(let folder, let code):
      return RenderError(
        .unwritableOutput, path: path,
        reason: "cannot create a file in '\(folder)': \(reason(code))")
    case .closed:
      return RenderError(.invalidState, path: path, reason: "the file is already closed")
    case .io(let code):
      return RenderError(.writeFailed, path: path, reason: reason(code))
    case .rename(let code):
      return RenderError(
        .writeFailed, path: path, reason: "cannot move the finished file: \(reason(code))")
    }
  }
}
