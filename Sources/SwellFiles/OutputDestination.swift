import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an output path really leads, decided before anything is written (`docs/limits.md`,
/// "Outputs"). Shared by every writer of Swell (recordings, traces, device motion, frames and
/// videos), which turn its failures into their own errors:
///
/// - `-` is standard output;
/// - a FIFO, a character device or a socket, or a symbolic link to one (`/dev/stdout` when
///   standard output is a pipe or a terminal), is opened and written in place, never replaced;
/// - a link under `/dev` or `/proc` to a regular file (`/dev/stdout` redirected to a file) is
///   truncated and written in place, like the shell's `>`;
/// - a symbolic link to a regular file keeps the link: the target is replaced atomically;
/// - anything else (a regular file, a new name) is written to a temporary file in its folder and
///   renamed into place.
public enum OutputDestination: Equatable, Sendable {
  /// This process's standard output.
  case standardOutput
  /// A special file written in place; `truncate` for a regular file reached through `/dev` or
  /// `/proc`.
  case stream(path: String, truncate: Bool)
  /// A regular file (or a new one) replaced atomically at this path.
  case replace(path: String)

  /// The path names a folder (directly or through a symbolic link).
  public struct NamesFolder: Error, Hashable, Sendable {}

  /// Decides where `path` leads.
  ///
  /// - Parameter path: The output path as given (`-` for standard output).
  /// - Returns: The destination.
  /// - Throws: ``NamesFolder`` when the path names a folder.
  public static func resolve(_ path: String) throws(NamesFolder) -> OutputDestination {
    if path == "-" { return .standardOutput }
    var link = stat()
    guard lstat(path, &link) == 0 else { return .replace(path: path) }
    switch link.st_mode & S_IFMT {
    case S_IFREG: return .replace(path: path)
    case S_IFDIR: throw NamesFolder()
    case S_IFLNK: break
    default: return .stream(path: path, truncate: false)
    }
    var target = stat()
    guard stat(path, &target) == 0 else {
      // A dangling link: create its target, keeping the link.
      return .replace(path: danglingTarget(of: path) ?? path)
    }
    switch target.st_mode & S_IFMT {
    case S_IFDIR: throw NamesFolder()
    case S_IFREG:
      if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") {
        return .stream(path: path, truncate: true)
      }
      guard let real = realpath(path, nil) else { return .replace(path: path) }
      defer { free(real) }
      return .replace(path: String(cString: real))
    default: return .stream(path: path, truncate: false)
    }
  }

  /// The path a dangling symbolic link points to (relative targets resolved against the link's
  /// folder), or `nil`.
  private static func danglingTarget(of path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink(path, &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if target.hasPrefix("/") { return target }
    return splitPath(path).folder + "/" + target
  }

  /// Opens a stream destination (or standard output) for writing.
  ///
  /// - Returns: A descriptor the caller closes, or -1 with `errno` set (always -1 for
  ///   ``replace(path:)``, which is written through a temporary file instead).
  public func openStream() -> Int32 {
    switch self {
    case .standardOutput: return fcntl(1, F_DUPFD_CLOEXEC, 3)
    case .stream(let path, let truncate):
      return open(path, O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0))
    case .replace:
      errno = EINVAL
      return -1
    }
  }
}

/// Splits a path into its folder (`.` when none, `/` for the root) and its last component.
///
/// - Parameter path: The path.
/// - Returns: The folder and the file name.
package func splitPath(_ path: String) -> (folder: String, name: String) {
  guard let slash = path.lastIndex(of: "/") else { return (".", path) }
  let folder = String(path[..<slash])
  let name = String(path[path.index(after: slash)...])
  return (folder.isEmpty ? "/" : folder, name)
}

/// Writes every byte to a descriptor, retrying interrupted writes.
///
/// - Parameters:
///   - fd: The descriptor.
///   - bytes: The bytes.
/// - Returns: 0, or the `errno` of the failed write.
package func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
  guard var base = bytes.baseAddress else { return 0 }
  var remaining = bytes.count
  while remaining > 0 {
    let n = write(fd, base, remaining)
    if n < 0 {
      if errno == EINTR { continue }
      return errno
    }
    remaining -= n
    base += n
  }
  return 0
}

/// The temporary files of the outputs this process is writing, and the encoder processes
/// writing them, so that a signal handler can remove them (``removeAll()``).
package enum UnfinishedOutputs {
  private static let paths = Mutex<Set<String>>([])
  private static let encoders = Mutex<Set<Int32>>([])
  /// Set by ``removeAll()``: the process is ending, so nothing may be recorded any more.
  private static let closed = Atomic<Bool>(false)

  /// Records a temporary file. After ``removeAll()`` (the process is ending on a signal) the
  /// file is removed at once instead, and the writer must not rename it into place.
  ///
  /// - Parameter path: The file.
  /// - Returns: False when the file was removed instead of recorded.
  @discardableResult
  package static func insert(_ path: String) -> Bool {
    let recorded = paths.withLock { p in
      guard !closed.load(ordering: .acquiring) else { return false }
      p.insert(path)
      return true
    }
    if !recorded { unlink(path) }
    return recorded
  }

  /// Forgets a temporary file (renamed or removed).
  package static func remove(_ path: String) { _ = paths.withLock { $0.remove(path) } }

  /// Whether a temporary file is recorded.
  package static func contains(_ path: String) -> Bool { paths.withLock { $0.contains(path) } }

  /// Records an encoder process (ffmpeg) writing a temporary file.
  package static func insertEncoder(_ pid: Int32) { _ = encoders.withLock { $0.insert(pid) } }

  /// Forgets an encoder process that ended.
  package static func removeEncoder(_ pid: Int32) { _ = encoders.withLock { $0.remove(pid) } }

  /// Kills every recorded encoder (first, so none creates its file again), then removes every
  /// recorded temporary file. Safe to call from any thread; the writers' later calls fail.
  package static func removeAll() {
    for pid in encoders.withLock({ e in
      defer { e.removeAll() }
      return e
    }) {
      kill(pid, SIGKILL)
    }
    let recorded = paths.withLock { p in
      closed.store(true, ordering: .releasing)
      defer { p.removeAll() }
      return p
    }
    // Twice: a writer renaming its temporary file into place between the removal of the
    // final name and that of the temporary one (the set has no order) leaves the final file,
    // and the second pass removes it; after the first pass no temporary file is left to rename.
    for _ in 0..<2 {
      for path in recorded { unlink(path) }
    }
  }
}
