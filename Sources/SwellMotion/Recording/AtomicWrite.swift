import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing files so that a failed or interrupted run leaves no partial output.
public enum AtomicWrite {
  /// Writes data to a temporary file in the destination's folder, then renames it into place.
  ///
  /// - Parameters:
  ///   - data: The bytes to write.
  ///   - url: The destination file.
  /// - Throws: ``RecordingError`` naming the file when the folder is not writable or the
  ///   rename fails; the temporary file is removed then.
  public static func write(_ data: Data, to url: URL) throws(RecordingError) {
    let folder = url.deletingLastPathComponent()
    let name = url.lastPathComponent
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw RecordingError(
        file: url.path, message: "cannot write: folder '\(folder.path)' does not exist")
    }
    let temp = folder.appendingPathComponent(
      ".\(name).tmp-\(UInt32.random(in: 0...UInt32.max))")
    do {
      try data.write(to: temp)
    } catch {
      try? FileManager.default.removeItem(at: temp)
      throw RecordingError(file: url.path, message: "cannot write: \(reason(error))")
    }
    if rename(temp.path, url.path) != 0 {
      let code = errno
      try? FileManager.default.removeItem(at: temp)
      throw RecordingError(
        file: url.path, message: "cannot write: \(String(cString: strerror(code)))")
    }
  }

  private static func reason(_ error: any Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
    return ns.localizedDescription
  }
}

/// Shortest text that reads back as the same `Double` (Swift's round-trip formatting), with
/// integers written without a fraction (`3` rather than `3.0`).
func formatNumber(_ v: Double) -> String {
  if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
  return "\(v)"
}

/// A file written piece by piece under a temporary name in its destination's folder and renamed
/// into place by ``commit()``: the streaming form of ``AtomicWrite``, for outputs too large to
/// hold in memory (``DeviceMotionCSV`` rows of a long recording). Text is buffered and written
/// in blocks of about 1 MiB. Dropped without a commit (an error, an early return), the
/// temporary file is removed.
public final class AtomicFileWriter {
  /// The destination.
  public let url: URL
  private let temporary: URL
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private var finished = false

  /// Creates the temporary file.
  ///
  /// - Parameter url: The destination file.
  /// - Throws: ``RecordingError`` naming the file when its folder is missing or not writable.
  public init(url: URL) throws(RecordingError) {
    self.url = url
    let folder = url.deletingLastPathComponent()
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw RecordingError(
        file: url.path, message: "cannot write: folder '\(folder.path)' does not exist")
    }
    temporary = folder.appendingPathComponent(
      ".\(url.lastPathComponent).tmp-\(UInt32.random(in: 0...UInt32.max))")
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard fd >= 0 else {
      throw RecordingError(
        file: url.path, message: "cannot write: \(String(cString: strerror(errno)))")
    }
    handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    buffer.reserveCapacity(Self.blockSize + 4096)
  }

  deinit {
    if !finished { try? FileManager.default.removeItem(at: temporary) }
  }

  private static let blockSize = 1 << 20

  /// Appends text (UTF-8).
  ///
  /// - Parameter text: The text.
  /// - Throws: ``RecordingError`` when the file cannot be written (a full disk).
  public func write(_ text: String) throws(RecordingError) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= Self.blockSize { try flush() }
  }

  private func flush() throws(RecordingError) {
    guard !buffer.isEmpty else { return }
    do {
      try handle.write(contentsOf: buffer)
    } catch {
      throw RecordingError(file: url.path, message: "cannot write: \(error.localizedDescription)")
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes what is buffered and renames the file into place.
  ///
  /// - Throws: ``RecordingError`` when the last write or the rename fails (the temporary file is
  ///   removed then).
  public func commit() throws(RecordingError) {
    try flush()
    try? handle.close()
    finished = true
    if rename(temporary.path, url.path) != 0 {
      let code = errno
      try? FileManager.default.removeItem(at: temporary)
      throw RecordingError(
        file: url.path, message: "cannot write: \(String(cString: strerror(code)))")
    }
  }
}
