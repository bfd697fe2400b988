import SwellSensors

/// `swell sensors`: lists the Linux IIO motion sensors.
struct SensorsCommand: ToolCommand {
  static let spec = CommandSpec(
    "sensors", summary: "list Linux motion sensors (IIO accelerometers, gyroscopes, magnetometers)",
    discussion: """
      Lists the Industrial I/O devices with accelerometer, gyroscope or magnetometer channels: \
      name, device, channels, sampling rate, scale, offset, mount matrix, and whether buffered \
      reads are possible. Exits with status 1 and says why when there are none.
      """,
    groups: [
      OptionGroup(
        nil,
        [
          OptionSpec(
            "--sysfs-root", kind: .value("DIR"),
            help: "where the iio:deviceN folders are (default /sys/bus/iio/devices)"),
          OptionSpec(
            "--dev-root", kind: .value("DIR"),
            help: "where the iio:deviceN character devices are (default /dev)"),
        ])
    ])

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    let root = arguments.option("--sysfs-root") ?? IIOSysfs.defaultRoot
    let devRoot = arguments.option("--dev-root") ?? "/dev"
    try arguments.finish()
    let devices: [IIODevice]
    do {
      devices = try IIOSysfs(root: root).devices()
    } catch {
      throw ToolError("no motion sensors: \(error.message)")
    }
    guard !devices.isEmpty else {
      throw ToolError(
        "no motion sensors: \(root) has no device with accel, anglvel or magn channels")
    }
    console.out(
      IIODeviceReport(devices: devices, sysfs: IIOSysfs(root: root), devRoot: devRoot).text)
    return 0
  }
}
