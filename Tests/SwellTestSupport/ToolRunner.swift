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
///   - environment: Variables to set or override (`nil` values remove a variable).
///   - input: Bytes for standard input (default: none, stdin at end of file).
///   - directory: The working directory (default: the current one).
/// - Returns: The exit status, standard output and standard error.
/// - Throws: ``ToolNotBuilt`` or an error starting the process.
public func runSwell(
  _ arguments: [String], environment: [String: String?] = [:], input: Data? = nil,
  directory: URL? = nil
) throws -> (status: Int32, out: String, err: String) {
  try runProcess(
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
/// - Throws: An error starting the process.
public func runProgram(_ name: String, _ arguments: [String]) throws -> (
  status: Int32, out: String, err: String
) {
  try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments)
}

/// Runs an executable and collects its exit status and output (both pipes are drained
/// concurrently, so large output cannot deadlock).
private func runProcess(
  _ executable: URL, _ arguments: [String], environment: [String: String?] = [:],
  input: Data? = nil, directory: URL? = nil
) throws -> (status: Int32, out: String, err: String) {
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
  return (
    process.terminationStatus, String(decoding: outData, as: UTF8.self),
    String(decoding: errBox.get(), as: UTF8.self)
  )
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
