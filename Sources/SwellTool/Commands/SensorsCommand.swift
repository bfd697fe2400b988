import SwellSensors

/// `swell sensors`: lists the Linux IIO motion sensors.
struct SensorsCommand: TypedToolCommand {
  static let about = CommandAbout(
    "sensors", summary: "list Linux motion sensors (IIO accelerometers, gyroscopes, magnetometers)",
    discussion: """
      Lists the Industrial I/O devices with accelerometer, gyroscope or magnetometer channels: \
      name, device, channels, sampling rate, scale, offset, mount matrix, and whether buffered \
      reads are possible. Exits with status 1 and says why when there are none.
      """,
    examples: ["sensors", "sensors --sysfs-root /tmp/fake-iio"])

  struct Options: ParsableOptions {
    var sysfsRoot: String
    var devRoot: String

    init(_ p: inout OptionParser) throws(UsageError) {
      sysfsRoot = p.option(
        "--sysfs-root", value: "DIR", kind: .directory, default: IIOSysfs.defaultRoot,
        help: "where the iio:deviceN folders are")
      devRoot = p.option(
        "--dev-root", value: "DIR", kind: .directory, default: "/dev",
        help: "where the iio:deviceN character devices are")
    }
  }

  static func run(_ options: Options, console: Console) throws -> Int32 {
    console.out(try IIODeviceReport(scanning: options.sysfsRoot, devRoot: options.devRoot).text)
    return 0
  }
}
