import SwellRecordings
import SwellSensors

/// The `phone:URL` motion source (phyphox remote access), shared by `swell record` and
/// `swell live`.
enum PhoneSource {
  /// Opens `phone:URL`, e.g. `phone:http://192.168.1.20:8080`.
  ///
  /// - Parameters:
  ///   - spec: The whole `phone:URL` word.
  ///   - buffers: `--buffers` (`X,Y,Z,TIME;X,Y,Z,TIME[;X,Y,Z,TIME]`), or `nil` for phyphox's names.
  ///   - pollInterval: `--poll-interval` in seconds, or `nil` for 0.05 s.
  /// - Returns: The source; nothing is sent before its first `next()`.
  /// - Throws: ``UsageError`` for a bad URL or buffer list.
  static func open(_ spec: String, buffers: String? = nil, pollInterval: Double? = nil) throws
    -> PhyphoxSource
  {
    do {
      var c = PhyphoxConfiguration(address: try PhyphoxAddress(parsing: String(spec.dropFirst(6))))
      if let buffers { c.buffers = try PhyphoxBufferNames(parsing: buffers) }
      if let pollInterval { c.pollInterval = pollInterval }
      return PhyphoxSource(configuration: c)
    } catch {
      throw UsageError(error.message)
    }
  }
}
