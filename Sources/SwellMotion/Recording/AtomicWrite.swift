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
