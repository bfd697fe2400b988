import SwellSensors

/// Opens an IIO source from the command-line words that `swell record` and `swell live` share.
enum IIOSourceSpec {
  /// Opens `iio` or `iio:NAME`.
  ///
  /// - Parameters:
  ///   - spec: `iio` or `iio:NAME` (a chip name, name prefix or `iio:deviceN`).
  ///   - sysfsRoot: `--sysfs-root`, or `nil` for the system's.
  ///   - devRoot: `--dev-root`, or `nil` for `/dev`.
  ///   - mode: `--mode` (`auto`, `buffered`, `polled`), or `nil` for automatic.
  ///   - rate: `--rate`, Hz, or `nil` for the device's.
  /// - Returns: The opened source.
  /// - Throws: ``UsageError`` for an unknown mode, ``ToolError`` when the sensor cannot be opened.
  static func open(
    _ spec: String, sysfsRoot: String?, devRoot: String?, mode: String?, rate: Double?
  ) throws -> IIOSource {
    var c = IIOSourceConfiguration()
    if let sysfsRoot { c.sysfsRoot = sysfsRoot }
    if let devRoot { c.devRoot = devRoot }
    if spec.hasPrefix("iio:") { c.deviceName = String(spec.dropFirst(4)) }
    switch mode {
    case nil, "auto", "automatic": c.mode = .automatic
    case "buffered": c.mode = .buffered
    case "polled", "poll": c.mode = .polled
    case let m?: throw UsageError("--mode must be auto, buffered or polled, got '\(m)'")
    }
    c.samplingFrequency = rate
    c.pollingRate = rate
    do {
      return try IIOSource(configuration: c)
    } catch {
      throw ToolError(error.message)
    }
  }
}
