import Foundation
import SwellGeometry
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
    let root = options.sysfsRoot
    let devices: [IIODeviceDescription]
    do {
      devices = try IIOSysfs(root: root).describeDevices(devRoot: options.devRoot)
    } catch {
      throw ToolError("no motion sensors: \(error.message)")
    }
    guard !devices.isEmpty else {
      throw ToolError(
        "no motion sensors: \(root) has no device with accel, anglvel or magn channels")
    }
    var out = ""
    for d in devices {
      out += "\(d.id)  \(d.name)\n"
      out += "  channels: "
      out +=
        d.channelGroups.map { "\($0.type.rawValue) " + $0.axes.joined(separator: " ") }
        .joined(separator: ", ") + "\n"
      if let f = d.samplingFrequency {
        out += "  rate: \(number(f)) Hz"
        if !d.availableFrequencies.isEmpty {
          out += " (available: \(d.availableFrequencies.map(number).joined(separator: " ")))"
        }
        out += "\n"
      } else {
        out += "  rate: not reported\n"
      }
      for g in d.channelGroups {
        let scales = g.scales.map(number).joined(separator: "/")
        let offsets = g.offsets.map(number).joined(separator: "/")
        out += "  \(g.type.rawValue): scale \(scales) \(g.unit) per count, offset \(offsets)"
        let m = g.mountMatrix
        out += ", mount matrix " + (m == .identity ? "identity" : matrix(m)) + "\n"
      }
      out +=
        "  buffered: " + (d.canBuffer ? "yes (\(d.bufferDirectory ?? "buffer")/)" : "no")
        + ", \(d.characterDevicePath) \(d.characterDevice.rawValue)\n"
    }
    console.out(out)
    return 0
  }

  private static func number(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e12 ? String(Int(v)) : String(v)
  }

  private static func matrix(_ m: Matrix3) -> String {
    [m.row0, m.row1, m.row2].map { r in [r.x, r.y, r.z].map(number).joined(separator: ", ") }
      .joined(separator: "; ")
  }
}
