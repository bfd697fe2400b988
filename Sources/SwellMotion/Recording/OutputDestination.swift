import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an output path really leads, decided before anything is written (`docs/limits.md`,
/// "Outputs"):
///
/// - `-` is standard output;
/// - a FIFO, a character device or a socket, or a symbolic link to one (`/dev/stdout` when
///   standard output is a pipe or a terminal), is opened and written in place, never replaced;
/// - a link under `/dev` or `/proc` to a regular file (`/dev/stdout` redirected to a file) is
///   truncated and written in place, like the shell's `>`;
/// - a symbolic link to a regular file keeps the link: the target is replaced atomically;
/// - anything else (a regular file, a new name) is written to a temporary file in its folder and
///   renamed into place.
enum OutputDestination: Equatable {
  /// This process's standard output.
  case standardOutput
  /// A special file written in place; `truncate` for a regular file reached through `/dev` or
  /// `/proc`.
  case stream(path: String, truncate: Bool)
  /// A regular file (or a new one) replaced atomically at this path.
  case replace(path: String)

  /// Decides where `path` leads.
  ///
  /// - Parameter path: The output path as given (`-` for standard output).
  /// - Returns: The destination.
  /// - Throws: ``RecordingError`` when the path names a folder.
  static func resolve(_ path: String) throws(RecordingError) -> OutputDestination {
    if path == "-" { return .standardOutput }
    var link = stat()
    guard lstat(path, &link) == 0 else { return .replace(path: path) }
    switch link.st_mode & S_IFMT {
    case S_IFREG: return .replace(path: path)
    case S_IFDIR: throw RecordingError(file: path, message: "cannot write: it is a folder")
    case S_IFLNK: break
    default: return .stream(path: path, truncate: false)
    }
    var target = stat()
    guard stat(path, &target) == 0 else {
      // A dangling link: create its target, keeping the link.
      return .replace(path: danglingTarget(of: path) ?? path)
    }
    switch target.st_mode & S_IFMT {
    case S_IFDIR: throw RecordingError(file: path, message: "cannot write: it is a folder")
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
    let folder = (path as NSString).deletingLastPathComponent
    return folder.isEmpty ? target : folder + "/" + target
  }

  /// Opens a stream destination for writing.
  ///
  /// - Parameter shownPath: The path named in errors.
  /// - Returns: A descriptor the caller closes.
  /// - Throws: ``RecordingError`` with the system's reason.
  func openStream(shownPath: String) throws(RecordingError) -> Int32 {
    let fd: Int32
    switch self {
    case .standardOutput: fd = fcntl(1, F_DUPFD_CLOEXEC, 3)
    case .stream(let path, let truncate):
      fd = open(path, O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0))
    case .replace: fd = -1
    }
    guard fd >= 0 else {
      throw RecordingError(
        file: shownPath, message: "cannot write: \(String(cString: strerror(errno)))")
    }
    return fd
  }
}

/// The temporary files this process is writing (their names in the destination folders), so a
/// signal handler can remove them (``AtomicWrite/removeUnfinishedFiles()``).
enum UnfinishedFiles {
  private static let paths = Mutex<Set<String>>([])

  /// Records a temporary file.
  static func insert(_ path: String) { _ = paths.withLock { $0.insert(path) } }

  /// Forgets a temporary file (renamed or removed).
  static func remove(_ path: String) { _ = paths.withLock { $0.remove(path) } }

  /// Removes every recorded temporary file.
  static func removeAll() {
    for path in paths.withLock({ p in
      defer { p.removeAll() }
      return p
    }) {
      unlink(path)
    }
  }
}

/// Writes every byte to a descriptor, retrying interrupted writes; 0 or the `errno`.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
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
