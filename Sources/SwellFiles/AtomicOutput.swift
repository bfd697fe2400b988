import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One output of the public written so that a failed or interrupted run leaves no partial file:
/// the core of every writer (SwellMotion's `AtomicFileWriter`, SwellRender's `OutputFile`), which
/// turn its ``Failure`` into their own errors.
///
/// Where the bytes go is decided first (``OutputDestination``):
///
/// - a regular file or a new name (or the target of a symbolic link to one) is written to a
///   hidden temporary file in its folder, `.NAME.swell-PID-TOKEN.tmp`, renamed into place by
///   ``commit()``;
/// - a special destination (`-`, a FIFO, a character device, a link to one) is never replaced:
///   it is written in place or through a spool, as ``SpecialDestinations`` says.
///
/// Every temporary file is in the registry of unfinished outputs until it is renamed or removed
/// (``OutputFiles/removeUnfinishedFiles()`` removes it on a signal). Dropped
/// without a commit (an error, an early return), the output removes its temporary file.
public final class AtomicOutput {
  /// How a special destination (`-`, a FIFO, a character device, a link to one) receives the
  /// bytes.
  public enum SpecialDestinations: Sendable {
    /// Opened when the output is created (a FIFO waits for its reader there) and written as the
    /// bytes come: rows reach a pipe while a long run goes on, and what was written before a
    /// failure or a ``discard()`` has already been sent.
    case writtenInPlace
    /// Spooled to a hidden temporary file in the system's temporary folder (a seekable file, as
    /// ffmpeg needs for MP4), and copied into the destination by ``commit()``, which is when the
    /// destination is opened: a failed or discarded output sends nothing.
    case spooled
  }

  /// Why an output could not be created, written or committed. Each case that comes from the
  /// system carries its `errno`.
  public enum Failure: Error, Equatable, Sendable {
    /// The path names a folder (directly, through a symbolic link, or ending in `/`).
    case namesFolder
    /// The destination's folder cannot be reached (`stat` failed with `code`).
    case folderUnreachable(folder: String, code: Int32)
    /// The destination's folder exists but is not a folder.
    case notAFolder(folder: String)
    /// The temporary file could not be created in `folder`.
    case cannotCreate(folder: String, code: Int32)
    /// The output is already committed, discarded or its descriptor closed.
    case closed
    /// Opening a special destination, or a write, read or close failed.
    case io(code: Int32)
    /// The finished temporary file could not be renamed into place.
    case rename(code: Int32)
  }

  /// The destination path, as given (`-` for standard output).
  public let path: String
  /// Where ``path`` leads.
  public let destination: OutputDestination
  /// The temporary file renamed to (or copied into) the destination by ``commit()``; `nil` for
  /// a special destination written in place.
  public let temporaryPath: String?
  private var descriptor: Int32
  private var isFinished = false

  /// Opens the output: creates its temporary file, or opens a special destination written in
  /// place.
  ///
  /// - Parameters:
  ///   - path: The destination path (`-` for standard output).
  ///   - specialDestinations: How a special destination is written.
  /// - Throws: ``Failure`` when the path names a folder, its folder is missing or not a folder,
  ///   the temporary file cannot be created or the special destination cannot be opened.
  public init(path: String, specialDestinations: SpecialDestinations) throws(Failure) {
    self.path = path
    do {
      destination = try OutputDestination.resolve(path)
    } catch {
      throw .namesFolder
    }
    let token = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    let temporary: String
    switch destination {
    case .replace(let target):
      let (folder, name) = splitPath(target)
      guard !name.isEmpty else { throw .namesFolder }
      var info = stat()
      guard stat(folder, &info) == 0 else {
        throw .folderUnreachable(folder: folder, code: errno)
      }
      guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .notAFolder(folder: folder) }
      temporary = target.dropLast(name.count) + ".\(name).swell-\(getpid())-\(token).tmp"
    case .standardOutput, .stream:
      switch specialDestinations {
      case .writtenInPlace:
        let fd = destination.openStream()
        guard fd >= 0 else { throw .io(code: errno) }
        descriptor = fd
        temporaryPath = nil
        return
      case .spooled:
        let folder = FileManager.default.temporaryDirectory.path
        let name = splitPath(path).name
        temporary = folder + "/.swell-spool-\(getpid())-\(token)-\(name.isEmpty ? "out" : name)"
      }
    }
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard fd >= 0 else {
      let code = errno
      throw .cannotCreate(folder: splitPath(temporary).folder, code: code)
    }
    UnfinishedOutputs.insert(temporary)
    descriptor = fd
    temporaryPath = temporary
  }

  deinit { discard() }

  /// Appends bytes (to the temporary file, or to the special destination written in place).
  /// A failed write leaves the output as it is: the caller discards it or tries again.
  ///
  /// - Parameter bytes: The bytes; none is always accepted.
  /// - Throws: ``Failure/closed`` after ``closeDescriptor()``, ``commit()`` or ``discard()``;
  ///   ``Failure/io(code:)`` when the write fails (a full disk, a closed pipe).
  public func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
    guard !bytes.isEmpty else { return }
    guard descriptor >= 0 else { throw .closed }
    let code = writeAll(descriptor, bytes)
    guard code == 0 else { throw .io(code: code) }
  }

  /// Closes the temporary file's descriptor early, for a file another process writes by name
  /// (ffmpeg); does nothing when it is closed.
  ///
  /// - Throws: ``Failure/io(code:)`` when the system reports a delayed write error.
  public func closeDescriptor() throws(Failure) {
    guard descriptor >= 0 else { return }
    let result = close(descriptor)
    let code = errno
    descriptor = -1
    guard result == 0 else { throw .io(code: code) }
  }

  /// Finishes the output: closes it and renames the temporary file into place, copies the spool
  /// into its special destination, or closes the special destination written in place. Does
  /// nothing once finished.
  ///
  /// - Throws: ``Failure`` when the close, the copy or the rename fails; the output is discarded
  ///   then (its temporary file removed). An interrupted close of a destination written in place
  ///   (`EINTR`) is not a failure: the descriptor is closed.
  public func commit() throws(Failure) {
    guard !isFinished else { return }
    do throws(Failure) {
      if let temporaryPath {
        try closeDescriptor()
        switch destination {
        case .replace(let target):
          // The temporary file may be gone: a signal handler removed it.
          guard rename(temporaryPath, target) == 0 else { throw Failure.rename(code: errno) }
        case .standardOutput, .stream:
          try copySpool(from: temporaryPath)
          unlink(temporaryPath)
        }
        UnfinishedOutputs.remove(temporaryPath)
      } else if descriptor >= 0 {
        let result = close(descriptor)
        let code = errno
        descriptor = -1
        guard result == 0 || code == EINTR else { throw Failure.io(code: code) }
      }
    } catch {
      discard()
      throw error
    }
    isFinished = true
  }

  /// Copies the spooled output into the special destination (opened now; its close status is
  /// not checked).
  private func copySpool(from spool: String) throws(Failure) {
    let source = open(spool, O_RDONLY | O_CLOEXEC)
    guard source >= 0 else { throw .io(code: errno) }
    defer { close(source) }
    let target = destination.openStream()
    guard target >= 0 else { throw .io(code: errno) }
    defer { close(target) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { throw .io(code: errno) }
      if n == 0 { return }
      let code = buffer.withUnsafeBytes { writeAll(target, .init(rebasing: $0[0..<n])) }
      guard code == 0 else { throw .io(code: code) }
    }
  }

  /// Closes the output and removes its temporary file; does nothing once committed or
  /// discarded. Bytes already written to a special destination in place stay written.
  public func discard() {
    guard !isFinished else { return }
    isFinished = true
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    if let temporaryPath {
      unlink(temporaryPath)
      UnfinishedOutputs.remove(temporaryPath)
    }
  }
}
