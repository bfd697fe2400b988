import Foundation

/// A program that a test starts is not installed: the error names the program and the Debian
/// package that `Scripts/install-deps.sh` installs it from.
public struct MissingProgram: Error, CustomStringConvertible {
  /// The program's name, as the test gave it.
  public var program: String
  /// Its Debian package from `Scripts/install-deps.sh`'s table, or `nil` when the table has none.
  public var package: String?

  /// An error for a missing program.
  ///
  /// - Parameters:
  ///   - program: The program's name.
  ///   - package: Its Debian package, or `nil` when `Scripts/install-deps.sh` lists none.
  public init(program: String, package: String?) {
    self.program = program
    self.package = package
  }

  /// The one-line reason.
  public var description: String {
    if let package {
      return "\(program) is not installed: it comes from the Debian package \(package); "
        + "run Scripts/install-deps.sh (or apt-get install \(package))"
    }
    return "\(program) is not installed, and Scripts/install-deps.sh does not list it: "
      + "add it to that script's programs table with its Debian package"
  }
}

/// The programs table of `Scripts/install-deps.sh`: program name → Debian package.
///
/// Read from the script itself (the lines of its `programs=( ... )` array), so the tests and the
/// installer share one list.
public let installedProgramPackages: [String: String] = {
  let script = packageRoot.appendingPathComponent("Scripts/install-deps.sh")
  guard let text = try? String(contentsOf: script, encoding: .utf8),
    let open = text.range(of: "programs=(\n"),
    let close = text[open.upperBound...].range(of: "\n)")
  else { return [:] }
  var table: [String: String] = [:]
  for line in text[open.upperBound..<close.lowerBound].split(separator: "\n") {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("\"") else { continue }
    let words = trimmed.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).split(
      separator: " ", omittingEmptySubsequences: true)
    if words.count == 2 { table[String(words[0])] = String(words[1]) }
  }
  return table
}()

/// The full path of `name` in a `PATH` folder, or `nil`.
///
/// - Parameters:
///   - name: A program name without a slash.
///   - environment: The environment whose `PATH` is searched (default: this process's).
/// - Returns: The first executable file named `name` on `PATH`.
public func findProgram(
  _ name: String, environment: [String: String] = ProcessInfo.processInfo.environment
) -> String? {
  let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
  for folder in path.split(separator: ":") where !folder.isEmpty {
    let candidate = "\(folder)/\(name)"
    var info = stat()
    if access(candidate, X_OK) == 0, stat(candidate, &info) == 0,
      (info.st_mode & S_IFMT) == S_IFREG
    {
      return candidate
    }
  }
  return nil
}

/// Checks that a program a test needs is installed.
///
/// - Parameter name: The program.
/// - Returns: Its full path.
/// - Throws: ``MissingProgram``, naming the program and its Debian package, when it is absent.
@discardableResult
public func requireProgram(_ name: String) throws -> String {
  guard let path = findProgram(name) else {
    throw MissingProgram(program: name, package: installedProgramPackages[name])
  }
  return path
}
