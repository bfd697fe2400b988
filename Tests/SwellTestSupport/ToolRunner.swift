import Foundation

/// The package's root folder (three levels above this file).
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The `swell` binary could not be found: build it first (`swift build`).
public struct ToolNotBuilt: Error, CustomStringConvertible {
  /// The reason.
  public var description: String { "the swell executable is not built (run swift build)" }
}

/// The built `swell` executable: next to the test bundle, else in `.build/debug` or
/// `.build/release`.
///
/// - Returns: Its URL.
/// - Throws: ``ToolNotBuilt`` when none is found.
public func swellExecutable() throws -> URL {
  let candidates = [
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("swell"),
    Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("swell"),
    packageRoot.appendingPathComponent(".build/debug/swell"),
    packageRoot.appendingPathComponent(".build/release/swell"),
  ]
  guard let url = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
  else { throw ToolNotBuilt() }
  return url
}

/// Runs the `swell` binary and collects its exit status and output (both pipes are drained
/// concurrently, so large output cannot deadlock).
///
/// - Parameters:
///   - arguments: The command-line arguments.
///   - environment: Variables to set or override (`nil` values remove a variable). Unless it
///     names `XDG_STATE_HOME`, that is set to a fresh, not yet existing folder under the
///     temporary directory, so that no run reads or writes the user's saved state (the
///     gyroscope calibration) and no run sees another's. Unless it names
///     `DBUS_SESSION_BUS_ADDRESS`, that names a bus that does not exist, so that no run reads
///     the user's desktop settings.
///   - input: Bytes for standard input (default: none, stdin at end of file).
///   - directory: The working directory (default: the current one).
/// - Returns: The exit status, standard output and standard error.
/// - Throws: ``ToolNotBuilt`` or an error starting the process.
public func runSwell(
  _ arguments: [String], environment: [String: String?] = [:], input: Data? = nil,
  directory: URL? = nil
) throws -> (status: Int32, out: String, err: String) {
  var environment = environment
  if environment.index(forKey: "XDG_STATE_HOME") == nil {
    environment["XDG_STATE_HOME"] =
      FileManager.default.temporaryDirectory.appendingPathComponent(
        "swell-tool-state-\(UInt64.random(in: 0...UInt64.max))"
      ).path
  }
  // Never the user's desktop settings (its Reduce Motion): a bus that is not there.
  if environment.index(forKey: "DBUS_SESSION_BUS_ADDRESS") == nil {
    environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/swell-tests-no-bus"
  }
  return try runProcess(
    try swellExecutable(), arguments, environment: environment, input: input,
    directory: directory)
}

/// Runs a program found on `PATH` (through `/usr/bin/env`), such as a Debian tool that reads an
/// output back (`ffprobe`, `pdfinfo`, `rsvg-convert`, ...), with standard input at end of file.
///
/// - Parameters:
///   - name: The program.
///   - arguments: Its arguments.
/// - Returns: The exit status, standard output and standard error.
/// - Throws: ``MissingProgram`` (naming the program and its Debian package) when it is not
///   installed, or an error starting the process.
public func runProgram(_ name: String, _ arguments: [String]) throws -> (
  status: Int32, out: String, err: String
) {
  try runProcess(URL(fileURLWithPath: try requireProgram(name)), arguments)
}

/// Runs a program built with the package (an example) and collects its exit status and output.
///
/// - Parameters:
///   - executable: The program.
///   - arguments: Its arguments.
///   - directory: The working directory (default: the current one).
/// - Returns: The exit status, standard output and standard error.
/// - Throws: An error starting the process.
public func runExecutable(_ executable: URL, _ arguments: [String], directory: URL? = nil) throws
  -> (status: Int32, out: String, err: String)
{
  try runProcess(executable, arguments, directory: directory)
}

/// Runs an executable and collects its exit status and output (both pipes are drained
/// concurrently, so large output cannot deadlock).
/// Runs `swell` with arguments and returns its exit status, standard output as bytes (a
/// binary output such as `render -o -`) and standard error.
///
/// - Parameter arguments: The command-line arguments.
/// - Returns: The exit status, standard output's bytes and standard error.
/// - Throws: ``ToolNotBuilt`` or an error starting the process.
public func runSwellBytes(_ arguments: [String]) throws -> (status: Int32, out: Data, err: String) {
  try runProcessData(try swellExecutable(), arguments)
}

private func runProcess(
  _ executable: URL, _ arguments: [String], environment: [String: String?] = [:],
  input: Data? = nil, directory: URL? = nil
) throws -> (status: Int32, out: String, err: String) {
  let r = try runProcessData(
    executable, arguments, environment: environment, input: input, directory: directory)
  return (r.status, String(decoding: r.out, as: UTF8.self), r.err)
}

private func runProcessData(
  _ executable: URL, _ arguments: [String], environment: [String: String?] = [:],
  input: Data? = nil, directory: URL? = nil
) throws -> (status: Int32, out: Data, err: String) {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  if !environment.isEmpty {
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
  }
  if let directory { process.currentDirectoryURL = directory }
  let out = Pipe()
  let err = Pipe()
  let inPipe = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = inPipe
  try process.run()
  if let input { inPipe.fileHandleForWriting.write(input) }
  try? inPipe.fileHandleForWriting.close()
  let errBox = DataBox()
  let group = DispatchGroup()
  group.enter()
  DispatchQueue.global().async {
    errBox.set(err.fileHandleForReading.readDataToEndOfFile())
    group.leave()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  process.waitUntilExit()
  return (process.terminationStatus, outData, String(decoding: errBox.get(), as: UTF8.self))
}

/// A lock-protected byte buffer handed between threads.
private final class DataBox: @unchecked Sendable {
  // @unchecked: every access goes through `lock`.
  private let lock = NSLock()
  private var data = Data()

  func set(_ d: Data) {
    lock.lock()
    data = d
    lock.unlock()
  }

  func get() -> Data {
    lock.lock()
    defer { lock.unlock() }
    return data
  }
}

/// Runs a helper program (xdotool, tmux) with `posix_spawnp` and `waitpid` and returns its
/// standard output. The output goes through a file, not a pipe: a tmux server started by
/// `new-session` would inherit a pipe and keep it open.
///
/// - Parameters:
///   - name: The program, found on `PATH`.
///   - arguments: Its arguments.
///   - display: An X display to set as `DISPLAY`, or `nil` to keep this process's.
/// - Returns: What it wrote to standard output (standard error is discarded).
/// - Throws: ``MissingProgram`` when it is not installed, or the `posix_spawnp` error.
@discardableResult
public func spawnProgram(_ name: String, _ arguments: [String], display: String? = nil) throws
  -> String
{
  let executable = try requireProgram(name)
  let file = FileManager.default.temporaryDirectory.appendingPathComponent(
    "swell-tool-out-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  ).path
  defer { unlink(file) }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv = ([name] + arguments).map { strdup($0) } + [nil]
  defer { for a in argv { free(a) } }
  var environment = ProcessInfo.processInfo.environment
  if let display { environment["DISPLAY"] = display }
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer { for e in envp { free(e) } }
  var pid: pid_t = 0
  let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
  guard rc == 0 else {
    throw ProgramFailed(description: "\(name) could not start: \(String(cString: strerror(rc)))")
  }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
}

/// A helper program could not be started or did not do its job.
public struct ProgramFailed: Error, CustomStringConvertible {
  /// The one-line reason.
  public var description: String

  /// An error with a reason.
  ///
  /// - Parameter description: The one-line reason.
  public init(description: String) { self.description = description }
}

/// Polls `condition` every 20 ms for up to `seconds`.
///
/// - Parameters:
///   - seconds: The longest wait, seconds.
///   - condition: What to wait for.
/// - Returns: Whether `condition` became true in time.
public func waitFor(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
  let deadline = TestDeadline(seconds: seconds)
  while !deadline.hasPassed {
    if try condition() { return true }
    usleep(20_000)
  }
  return try condition()
}

/// An Xvfb server of its own for a test that sends keys: xdotool sends to the focused window
/// through XTEST, which on a shared server can reach another test's window when focus moves.
///
/// The server ends when the value is released.
public final class PrivateXServer {
  /// The server's display name (`:N`), for `DISPLAY`.
  public let display: String
  private let pid: pid_t

  /// Starts Xvfb on a free display number.
  ///
  /// - Throws: ``MissingProgram`` when Xvfb is not installed, ``ProgramFailed`` when no server
  ///   came up.
  public init() throws {
    // Starts: Xvfb (through bash, which first closes inherited descriptors)
    try requireProgram("Xvfb")
    var chosen: (String, pid_t)?
    for _ in 0..<20 {
      let n = Int.random(in: 200...900)
      guard !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)"),
        !FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock")
      else { continue }
      guard
        let pid = spawnServer(
          "exec Xvfb :\(n) -screen 0 1024x768x24 -nolisten tcp")
      else { continue }
      let up = waitFor(seconds: 10) {
        FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)")
          || waitpid(pid, nil, WNOHANG) == pid
      }
      if up && FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") {
        chosen = (":\(n)", pid)
        break
      }
      kill(pid, SIGTERM)
      waitpid(pid, nil, 0)
    }
    guard let chosen else { throw ProgramFailed(description: "no Xvfb server came up") }
    (display, pid) = chosen
  }

  deinit {
    kill(pid, SIGTERM)
    waitpid(pid, nil, 0)
  }
}

/// A D-Bus session bus of the test's own (`dbus-daemon --session` on a socket in a scratch
/// folder), so that tests of the desktop's settings never touch the user's bus.
///
/// The daemon ends when the value is released.
public final class PrivateSessionBus {
  /// The bus's address, for `DBUS_SESSION_BUS_ADDRESS` or a connection.
  public let address: String
  private let pid: pid_t
  private let folder: URL

  /// Starts the daemon and waits for its socket.
  ///
  /// - Throws: ``MissingProgram`` when dbus-daemon is not installed, ``ProgramFailed`` when it
  ///   did not come up within 10 s.
  public init() throws {
    // Starts: dbus-daemon (through bash, which first closes inherited descriptors)
    try requireProgram("dbus-daemon")
    folder = try scratchFolder("bus")
    let socket = folder.appendingPathComponent("bus").path
    guard
      let child = spawnServer(
        "exec dbus-daemon --session --nofork --nopidfile --address=unix:path=\(socket)")
    else { throw ProgramFailed(description: "dbus-daemon could not start") }
    // The socket's file appears when dbus-daemon binds it, before it listens: a connection
    // made then is refused. Wait until one is accepted.
    let up = waitFor(seconds: 10) {
      acceptsConnections(socket) || waitpid(child, nil, WNOHANG) == child
    }
    guard up, acceptsConnections(socket) else {
      kill(child, SIGTERM)
      waitpid(child, nil, 0)
      throw ProgramFailed(description: "no dbus-daemon came up")
    }
    pid = child
    address = "unix:path=" + socket
  }

  deinit {
    kill(pid, SIGTERM)
    waitpid(pid, nil, 0)
    try? FileManager.default.removeItem(at: folder)
  }
}

/// Whether a Unix stream socket at `path` accepts a connection (it is bound and listening).
///
/// - Parameter path: The socket's path.
/// - Returns: `true` when `connect` succeeded.
func acceptsConnections(_ path: String) -> Bool {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { return false }
  defer { close(fd) }
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  let bytes = Array(path.utf8)
  guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    for (i, byte) in bytes.enumerated() { raw[i] = byte }
  }
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
    }
  }
}

/// Starts a long-running server for a test through bash, which first closes every inherited
/// descriptor above 2 (other tests' output pipes must not stay open in the server, or their
/// reads would hang) and then runs `command` (an `exec ...`). The server starts with no signal
/// blocked and SIGTERM, SIGINT, SIGHUP and SIGPIPE at their defaults (test threads block
/// signals, and SIGTERM must end it); its output goes to /dev/null.
///
/// - Parameter command: The shell command that becomes the server.
/// - Returns: The server's process id, or `nil` when bash could not start.
func spawnServer(_ command: String) -> pid_t? {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let script =
    "for f in /proc/$$/fd/*; do n=${f##*/}; if [ \"$n\" -gt 2 ]; then eval \"exec $n>&-\"; "
    + "fi; done; " + command
  let words: [String] = ["bash", "-c", script]
  let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
  defer { for a in argv { free(a) } }
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var none = sigset_t()
  sigemptyset(&none)
  posix_spawnattr_setsigmask(&attributes, &none)
  var defaults = sigset_t()
  sigemptyset(&defaults)
  for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
  posix_spawnattr_setsigdefault(&attributes, &defaults)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  var pid: pid_t = 0
  guard posix_spawnp(&pid, "bash", &actions, &attributes, argv, environ) == 0 else { return nil }
  return pid
}
