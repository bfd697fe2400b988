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
  /// The temporary file and the path it is renamed to; `nil` for a destination written in place.
  private let rename: (temporary: String, destination: String)?
  private var descriptor: Int32
  private var buffer: [UInt8] = []
  private var finished = false

  /// Opens the destination: creates the temporary file, or opens a special file for writing.
  ///
  /// - Parameter url: The destination file (`-` for standard output).
  /// - Throws: ``RecordingError`` naming the file when its folder is missing or not writable.
  public init(url: URL) throws(RecordingError) {
    self.url = url
    let given = url.relativePath == "-" ? "-" : url.path
    shownPath = given == "-" ? "standard output" : given
    let destination: OutputDestination
    do {
      destination = try OutputDestination.resolve(given)
    } catch {
      throw RecordingError(file: shownPath, message: "cannot write: it is a folder")
    }
    guard case .replace(let path) = destination else {
      let fd = destination.openStream()
      guard fd >= 0 else {
        throw RecordingError(
          file: shownPath, message: "cannot write: \(String(cString: strerror(errno)))")
      }
      descriptor = fd
      rename = nil
      return
    }
    let folder = (path as NSString).deletingLastPathComponent
    let folderPath = folder.isEmpty ? "." : folder
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folderPath, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw RecordingError(
        file: shownPath, message: "cannot write: folder '\(folderPath)' does not exist")
    }
    let name = (path as NSString).lastPathComponent
    let temporary = folderPath + "/.\(name).tmp-\(UInt32.random(in: 0...UInt32.max))"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard fd >= 0 else {
      throw RecordingError(
        file: shownPath, message: "cannot write: \(String(cString: strerror(errno)))")
    }
    UnfinishedOutputs.insert(temporary)
    descriptor = fd
    rename = (temporary, path)
    buffer.reserveCapacity(Self.blockSize + 4096)
  }

  deinit { discard() }

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
  /// - Throws: ``RecordingError`` when the file cannot be written (a full disk, a closed pipe).
  public func flush() throws(RecordingError) {
    guard !buffer.isEmpty else { return }
    guard !finished, descriptor >= 0 else {
      throw RecordingError(file: shownPath, message: "cannot write: the file is closed")
    }
    let code = buffer.withUnsafeBytes { writeAll(descriptor, $0) }
    guard code == 0 else {
      discard()
      throw RecordingError(
        file: shownPath, message: "cannot write: \(String(cString: strerror(code)))")
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes what is buffered and renames the file into place (or closes a special
  /// destination).
  ///
  /// - Throws: ``RecordingError`` when the last write, the close or the rename fails (the
  ///   temporary file is removed then).
  public func commit() throws(RecordingError) {
    try flush()
    guard !finished else { return }
    finished = true
    let closed = close(descriptor)
    let closeError = errno
    descriptor = -1
    guard let rename else {
      if closed != 0 && closeError != EINTR {
        throw RecordingError(
          file: shownPath, message: "cannot write: \(String(cString: strerror(closeError)))")
      }
      return
    }
    defer { UnfinishedOutputs.remove(rename.temporary) }
    guard closed == 0 else {
      unlink(rename.temporary)
      throw RecordingError(
        file: shownPath, message: "cannot write: \(String(cString: strerror(closeError)))")
    }
    // The temporary file may be gone: a signal handler removed it.
    if Glibc.rename(rename.temporary, rename.destination) != 0 {
      let code = errno
      unlink(rename.temporary)
      throw RecordingError(
        file: shownPath, message: "cannot write: \(String(cString: strerror(code)))")
    }
  }

  /// Closes and removes the temporary file; does nothing after ``commit()``.
  private func discard() {
    guard !finished else { return }
    finished = true
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    if let rename {
      unlink(rename.temporary)
      UnfinishedOutputs.remove(rename.temporary)
    }
  }
}
