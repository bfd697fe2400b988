import Foundation
import SwellFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing files so that a failed or interrupted run leaves no partial output.
///
/// Regular files are written under a temporary name in their folder and renamed into place.
/// Special destinations are written in place, never replaced: `-` is standard output; a FIFO, a
/// character device, a socket, or a symbolic link to one (`/dev/stdout`), is opened and written;
/// a symbolic link to a regular file keeps the link and its target is replaced atomically.
public enum AtomicWrite {
  /// Writes data to a temporary file in the destination's folder, then renames it into place
  /// (or writes it in place to a special destination; see ``AtomicWrite``).
  ///
  /// - Parameters:
  ///   - data: The bytes to write.
  ///   - url: The destination file (`-` for standard output).
  /// - Throws: ``RecordingError`` naming the file when the folder is not writable, the disk is
  ///   full or the rename fails; the temporary file is removed then.
  public static func write(_ data: Data, to url: URL) throws(RecordingError) {
    let writer = try AtomicFileWriter(url: url)
    try writer.write(data)
    try writer.commit()
  }
}

/// Shortest text that reads back as the same `Double` (Swift's round-trip formatting), with
/// integers written without a fraction (`3` rather than `3.0`).
package func formatNumber(_ v: Double) -> String {
  if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
  return "\(v)"
}

/// A file written piece by piece under a temporary name in its destination's folder and renamed
/// into place by ``commit()``: the streaming form of ``AtomicWrite``, for outputs too large to
/// hold in memory (`DeviceMotionCSV` rows of a long recording). Text is buffered and written
/// in blocks of about 1 MiB. Dropped without a commit (an error, an early return), the
/// temporary file is removed. A special destination (`-`, a FIFO, a character device, a link to
/// one) is written in place as the blocks fill (see ``AtomicWrite``).
public final class AtomicFileWriter {
  /// The destination, as given.
  public let url: URL
  private let shownPath: String
  /// The temporary file and its rename, or the special destination written in place.
  private let output: AtomicOutput
  private var buffer: [UInt8] = []

  /// Opens the destination: creates the temporary file, or opens a special file for writing.
  ///
  /// - Parameter url: The destination file (`-` for standard output).
  /// - Throws: ``RecordingError`` naming the file when its folder is missing or not writable.
  public init(url: URL) throws(RecordingError) {
    self.url = url
    let given = url.relativePath == "-" ? "-" : url.path
    let shownPath = given == "-" ? "standard output" : given
    self.shownPath = shownPath
    do {
      output = try AtomicOutput(path: given, specialDestinations: .writtenInPlace)
    } catch {
      throw Self.error(error, file: shownPath)
    }
    if output.temporaryPath != nil { buffer.reserveCapacity(Self.blockSize + 4096) }
  }

  private static let blockSize = 1 << 20

  /// Appends text (UTF-8).
  ///
  /// - Parameter text: The text.
  /// - Throws: ``RecordingError`` when the file cannot be written (a full disk, a closed pipe).
  public func write(_ text: String) throws(RecordingError) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= Self.blockSize { try flush() }
  }

  /// Appends bytes.
  ///
  /// - Parameter data: The bytes.
  /// - Throws: ``RecordingError`` when the file cannot be written.
  public func write(_ data: Data) throws(RecordingError) {
    buffer.append(contentsOf: data)
    if buffer.count >= Self.blockSize { try flush() }
  }

  /// Writes what is buffered.
  ///
  /// - Throws: ``RecordingError`` when the file cannot be written (a full disk, a closed pipe);
  ///   the temporary file is removed then.
  public func flush() throws(RecordingError) {
    guard !buffer.isEmpty else { return }
    let written = buffer.withUnsafeBytes { bytes in
      Result { () throws(AtomicOutput.Failure) in try output.write(bytes) }
    }
    guard case .failure(let failure) = written else {
      buffer.removeAll(keepingCapacity: true)
      return
    }
    output.discard()
    throw Self.error(failure, file: shownPath)
  }

  /// Writes what is buffered and renames the file into place (or closes a special
  /// destination).
  ///
  /// - Throws: ``RecordingError`` when the last write, the close or the rename fails (the
  ///   temporary file is removed then).
  public func commit() throws(RecordingError) {
    try flush()
    do {
      try output.commit()
    } catch {
      throw Self.error(error, file: shownPath)
    }
  }

  /// The error naming `file` for a failure of the output.
  private static func error(_ failure: AtomicOutput.Failure, file: String) -> RecordingError {
    let message: String
    switch failure {
    case .namesFolder: message = "it is a folder"
    case .folderUnreachable(let folder, _), .notAFolder(let folder):
      message = "folder '\(folder)' does not exist"
    case .closed: message = "the file is closed"
    case .cannotCreate(_, let code), .io(let code), .rename(let code):
      message = String(cString: strerror(code))
    }
    return RecordingError(file: file, message: "cannot write: \(message)")
  }
}
