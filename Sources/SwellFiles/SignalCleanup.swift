import Foundation
import SwellTime
import Synchronization

/// The write end of the self-pipe the signal handler writes to (set once, before any handler is
/// installed, and never changed: reading it in the handler is async-signal-safe).
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

/// The signal handler: writes the signal number to the self-pipe (the only async-signal-safe
/// thing it needs to do); a watcher thread does the rest.
private func forwardSignal(_ signal: Int32) {
  var byte = UInt8(truncatingIfNeeded: signal)
  _ = write(signalPipeWrite, &byte, 1)
}

/// How a process answers `SIGINT` and `SIGTERM` once ``OutputFiles/installSignalCleanup(programName:)``
/// has run (`docs/limits.md`, "Signals").
///
/// By default: the temporary files of every output in progress are removed (atomic writes,
/// renders, spools), and the process exits with 128 + the signal (130 for `SIGINT`, 143 for
/// `SIGTERM`), as a shell reports a killed command. A caller may take the first signal over
/// (``OutputFiles/interceptNextSignal(_:)``): a recorder then stops and keeps what it recorded; a
/// second signal still exits at once. The handler is installed with `sigaction` (`SA_RESTART`), so
/// a child process such as ffmpeg starts with the default dispositions.
extension OutputFiles {
  private static let interceptor = Mutex<(@Sendable (Int32) -> Void)?>(nil)
  private static let installed = Atomic<Bool>(false)
  nonisolated(unsafe) private static var programName = ""

  /// Installs the `SIGINT` and `SIGTERM` handlers and their watcher thread (once per process;
  /// later calls do nothing): a signal removes every unfinished output
  /// (``removeUnfinishedFiles()``), writes one line to standard error and exits with 128 + the
  /// signal, unless ``interceptNextSignal(_:)`` took it.
  ///
  /// - Parameter programName: The name the line on standard error starts with
  ///   (`NAME: interrupted (SIGINT); temporary files removed`).
  public static func installSignalCleanup(programName: String) {
    guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    Self.programName = programName
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return }
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    signalPipeWrite = fds[1]
    let readEnd = fds[0]
    let watcher = Thread { watch(readEnd) }
    watcher.name = "swell.signals"
    watcher.start()
    var action = sigaction()
    action.__sigaction_handler.sa_handler = forwardSignal
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    var unblock = sigset_t()
    sigemptyset(&unblock)
    for signal in [SIGINT, SIGTERM] {
      sigaction(signal, &action, nil)
      sigaddset(&unblock, signal)
    }
    // A parent (a test runner) may have started us with these blocked.
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
  }

  /// Lets the caller handle the next signal itself (once); `nil` restores the default.
  ///
  /// - Parameter handler: Called on the watcher thread with the signal number.
  public static func interceptNextSignal(_ handler: (@Sendable (Int32) -> Void)?) {
    interceptor.withLock { $0 = handler }
  }

  private static func watch(_ fd: Int32) {
    // The signal a handler took and when (monotonic seconds): `timeout -s INT` sends its signal
    // to the child and then to its whole process group, so one interruption can arrive twice
    // within microseconds; the copy is not a second Ctrl-C.
    var intercepted: (signal: Int32, at: Double)?
    while true {
      var byte: UInt8 = 0
      let n = read(fd, &byte, 1)
      if n < 0 && errno == EINTR { continue }
      guard n == 1 else { return }
      let signal = Int32(byte)
      let seconds = MonotonicClock.continuous.now()
      if let last = intercepted, last.signal == signal, seconds - last.at < 0.05 { continue }
      let handler = interceptor.withLock { h in
        defer { h = nil }
        return h
      }
      if let handler {
        intercepted = (signal, seconds)
        handler(signal)
        continue
      }
      removeUnfinishedFiles()
      let name = signal == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)"
      let line = "\n\(programName): \(name); temporary files removed\n"
      _ = line.withCString { write(2, $0, strlen($0)) }
      _exit(128 + signal)
    }
  }
}
