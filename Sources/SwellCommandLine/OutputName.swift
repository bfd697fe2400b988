import Foundation

/// What an output's name says about its format: a command refuses an `-o` whose extension names
/// a format it does not write, so a file's name and its content never disagree (`-o m.json`
/// holding CSV). Standard output (`-`) and existing special files (FIFOs, devices), which are
/// written to rather than replaced, are not judged by name.
public enum OutputName {
  /// The lower-cased extension of an output path's last component, or `nil` for `-`, a name
  /// without one, or an existing path that is not a regular file.
  ///
  /// - Parameter path: The output path.
  /// - Returns: The extension, lower case, without the dot.
  public static func judgedExtension(_ path: String) -> String? {
    guard path != "-" else { return nil }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      let type =
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
      if isDirectory.boolValue || (type != nil && type != .typeRegular) { return nil }
    }
    let name = URL(fileURLWithPath: path).lastPathComponent
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    let ext = name[name.index(after: dot)...].lowercased()
    return ext.isEmpty ? nil : ext
  }

  /// Refuses an output whose extension names a format the command does not write.
  ///
  /// - Parameters:
  ///   - path: The `-o` value.
  ///   - extensions: The extensions the command writes (lower case, without the dot).
  ///   - what: What it writes, for the message ("a device-motion CSV").
  /// - Throws: ``UsageError`` naming the extension and what the command writes.
  public static func require(_ path: String?, oneOf extensions: [String], writing what: String)
    throws(UsageError)
  {
    guard let path, let ext = judgedExtension(path), !extensions.contains(ext) else { return }
    throw UsageError(
      "-o \(clipped(path)) names a .\(ext) file, but this command writes \(what) "
        + "(." + extensions.joined(separator: ", .") + "); rename the output, or use - for "
        + "standard output")
  }

  /// Refuses an output that names a folder (an existing one, a link to one, or a name ending in
  /// `/`): the command writes one file, so the mistake is the command line's, found before any
  /// work starts.
  ///
  /// - Parameter path: The `-o` value, or `nil` when not given.
  /// - Throws: ``UsageError`` saying the output is a folder.
  public static func requireNotFolder(_ path: String?) throws(UsageError) {
    guard let path, path != "-" else { return }
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    guard path.hasSuffix("/") || (exists && isDirectory.boolValue) else { return }
    throw UsageError(
      "-o \(clipped(path)) is a folder; name a file (in it, or elsewhere) to write")
  }

  /// Refuses an output whose name has no extension when the extension picks the format (and no
  /// `--format` says it), and an output that names a folder.
  ///
  /// - Parameters:
  ///   - path: The `-o` value, or `nil` when not given.
  ///   - examples: Extensions to suggest, with the dot (".mp4").
  /// - Throws: ``UsageError`` asking for an extension.
  public static func requireExtension(_ path: String?, examples: [String]) throws(UsageError) {
    try requireNotFolder(path)
    guard let path, path != "-", judgedExtension(path) == nil else { return }
    // An existing special file (a FIFO, a device) is written to, and has no name to judge.
    if let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type]
      as? FileAttributeType, type != .typeRegular
    {
      return
    }
    throw UsageError(
      "-o \(clipped(path)) has no extension; add an extension such as "
        + examples.joined(separator: "/") + " (it picks the format), or give --format")
  }

  /// Refuses a `--format` that contradicts what the output's name says.
  ///
  /// - Parameters:
  ///   - format: `--format` as given, or `nil`.
  ///   - named: The format the output's name says, or `nil` when it says none.
  ///   - output: The `-o` value, for the message.
  /// - Throws: ``UsageError`` naming both when they differ.
  public static func requireAgreement(format: String?, named: String?, output: String)
    throws(UsageError)
  {
    guard let format, let named, format != named else { return }
    throw UsageError(
      "--format \(format) contradicts -o \(clipped(output)) (a .\(named) file); drop --format "
        + "or rename the output")
  }

  /// At most 80 characters of a path, for a message (the tool escapes control characters in
  /// every message it prints).
  static func clipped(_ path: String) -> String {
    path.count > 80 ? String(path.prefix(80)) + "…" : path
  }
}
