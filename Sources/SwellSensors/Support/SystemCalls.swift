import Glibc

/// The small set of system calls the sensor sources make, behind one seam.
///
/// Production code uses ``live``; tests wrap it to inject failures (`EACCES`, `ENODEV`) while
/// the fake sysfs tree and FIFO still go through the very same code path. Every call returns the
/// `errno` it saw instead of leaving it in thread-local state.
struct SystemCalls: Sendable {
  /// `open(2)`: a descriptor, or -1 and the error.
  var open: @Sendable (_ path: String, _ flags: Int32) -> (fd: Int32, error: Int32)
  /// `read(2)`: the byte count (0 at end of file), or -1 and the error.
  var read:
    @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> (count: Int, error: Int32)
  /// `write(2)`: the byte count, or -1 and the error.
  var write: @Sendable (_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> (count: Int, error: Int32)
  /// `close(2)`.
  var close: @Sendable (_ fd: Int32) -> Void
  /// `poll(2)` on one descriptor for input: the returned events (0 on timeout), or -1 and the error.
  var pollInput:
    @Sendable (_ fd: Int32, _ timeoutMilliseconds: Int32) -> (events: Int16, error: Int32)
  /// The entries of a directory (without `.` and `..`), or `nil` and the error.
  var listDirectory: @Sendable (_ path: String) -> (entries: [String]?, error: Int32)
  /// `fstat(2)`: whether an open descriptor is a regular file (sysfs attributes are; a FIFO or a
  /// device put in their place is refused, since reading it could block for ever).
  var isRegularFile: @Sendable (_ fd: Int32) -> Bool = { fd in
    var info = stat()
    return fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }
  /// `realpath(3)`: the path with every symbolic link resolved, or `nil` when it does not
  /// resolve (used for the stable location of an IIO device, whose `/sys/bus/iio/devices` entry
  /// is a link into `/sys/devices`).
  var resolvePath: @Sendable (_ path: String) -> String? = { path in
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }

  /// The real system calls.
  static let live = SystemCalls(
    open: { path, flags in
      let fd = Glibc.open(path, flags | O_CLOEXEC)
      return (fd, fd < 0 ? errno : 0)
    },
    read: { fd, buffer in
      while true {
        let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if n < 0 && errno == EINTR { continue }
        return (n, n < 0 ? errno : 0)
      }
    },
    write: { fd, bytes in
      while true {
        let n = Glibc.write(fd, bytes.baseAddress, bytes.count)
        if n < 0 && errno == EINTR { continue }
        return (n, n < 0 ? errno : 0)
      }
    },
    close: { fd in _ = Glibc.close(fd) },
    pollInput: { fd, timeout in
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let r = Glibc.poll(&p, 1, timeout)
      if r < 0 { return (-1, errno) }
      return (r == 0 ? 0 : p.revents, 0)
    },
    listDirectory: { path in
      guard let dir = opendir(path) else { return (nil, errno) }
      defer { closedir(dir) }
      var names: [String] = []
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
      }
      return (names.sorted(), 0)
    })
}

/// The text of an `errno` value, e.g. "Permission denied".
func errorText(_ code: Int32) -> String {
  guard let s = strerror(code) else { return "error \(code)" }
  return String(cString: s)
}
