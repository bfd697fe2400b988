import SwellLive
import SwellMotion
import SwellSensors

/// The live sensor options of `swell live` (`--motion iio[:NAME] | udp:PORT | phone:URL`).
struct LiveSourceOptions {
  /// IIO sysfs root (`--sysfs-root`).
  var sysfsRoot: String?
  /// Folder of the IIO character devices (`--dev-root`).
  var devRoot: String?
  /// IIO read mode (`--mode`).
  var mode: String?
  /// IIO sampling and polling rate, Hz (`--rate`).
  var rate: Double?
  /// UDP listening address (`--listen`).
  var listen: String?
  /// The frame of fused attitudes (`--reference-frame`).
  var referenceFrame = AttitudeReferenceFrame.xArbitraryZVertical

  /// Whether `spec` names a live sensor source rather than a file or a simulated tilt.
  ///
  /// - Parameter spec: The `--motion` value.
  /// - Returns: True for `iio`, `iio:NAME`, `udp:PORT` and `phone:URL`.
  static func isSensor(_ spec: String) -> Bool {
    spec == "iio" || spec.hasPrefix("iio:") || spec.hasPrefix("udp:") || spec.hasPrefix("phone:")
  }

  /// Opens the live source named by `spec`.
  ///
  /// - Parameter spec: `iio`, `iio:NAME`, `udp:PORT` or `phone:URL`.
  /// - Returns: The source (its `stop()` disables IIO buffers, closes the socket).
  /// - Throws: ``UsageError`` for options that do not fit the source, ``ToolError`` when it
  ///   cannot be opened.
  func open(_ spec: String) throws -> any MotionSource {
    let iioOnly = sysfsRoot != nil || devRoot != nil || mode != nil || rate != nil
    if spec == "iio" || spec.hasPrefix("iio:") {
      guard listen == nil else { throw UsageError("--listen applies to udp: sources") }
      let iio = try IIOSourceSpec.open(
        spec, sysfsRoot: sysfsRoot, devRoot: devRoot, mode: mode, rate: rate)
      return iio
    }
    guard !iioOnly else {
      throw UsageError("--sysfs-root, --dev-root, --mode and --rate apply to iio sources")
    }
    if spec.hasPrefix("udp:") {
      guard let port = UInt16(spec.dropFirst(4)) else {
        throw UsageError("udp:PORT needs a port number 0...65535, got '\(spec.dropFirst(4))'")
      }
      let udp: UDPMotionSource
      do {
        udp = try UDPMotionSource(port: port, address: listen ?? "127.0.0.1")
      } catch {
        throw ToolError(error.message)
      }
      return udp
    }
    guard listen == nil else { throw UsageError("--listen applies to udp: sources") }
    return try PhoneSource.open(spec)
  }
}
