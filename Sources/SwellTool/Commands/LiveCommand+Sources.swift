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
    LiveSourceSpec.names(spec)
  }

  /// Opens the live source named by `spec`.
  ///
  /// - Parameter spec: `iio`, `iio:NAME`, `udp:PORT` or `phone:URL`.
  /// - Returns: The source (its `stop()` disables IIO buffers, closes the socket).
  /// - Throws: ``UsageError`` for options that do not fit the source, ``ToolError`` when it
  ///   cannot be opened.
  func open(_ spec: String) throws -> any MotionSource {
    let parsed: LiveSourceSpec
    do {
      parsed = try LiveSourceSpec(parsing: spec)
    } catch {
      throw UsageError(error.message)
    }
    let iioOnly = sysfsRoot != nil || devRoot != nil || mode != nil || rate != nil
    if parsed.kind == .iio {
      guard listen == nil else { throw UsageError("--listen applies to udp: sources") }
    } else {
      guard !iioOnly else {
        throw UsageError("--sysfs-root, --dev-root, --mode and --rate apply to iio sources")
      }
      if parsed.kind == .phone, listen != nil {
        throw UsageError("--listen applies to udp: sources")
      }
    }
    var settings = LiveSourceSettings()
    if let sysfsRoot { settings.iio.sysfsRoot = sysfsRoot }
    if let devRoot { settings.iio.devRoot = devRoot }
    if let mode {
      guard let m = IIOModeName(rawValue: mode) ?? ["automatic": .auto, "poll": .polled][mode]
      else { throw UsageError("--mode must be one of auto, buffered, polled, got '\(mode)'") }
      settings.iio.mode = m.mode
    }
    settings.iio.samplingFrequency = rate
    settings.iio.pollingRate = rate
    if let listen { settings.udpAddress = listen }
    do {
      return try parsed.open(settings)
    } catch {
      throw error.isUsage ? UsageError(error.message) : ToolError(error.message) as any Error
    }
  }
}
