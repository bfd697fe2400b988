import Foundation
import SwellGeometry
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
    var out = ""
    for d in devices {
      out += "\(d.id)  \(d.name)\n"
      out += "  channels: "
      out +=
        d.types.map { t in
          "\(t.rawValue) "
            + d.channels(of: t).map { ["x", "y", "z"][$0.axis] }.joined(separator: " ")
        }.joined(separator: ", ") + "\n"
      if let f = d.samplingFrequency {
        out += "  rate: \(number(f)) Hz"
        if !d.availableFrequencies.isEmpty {
          out += " (available: \(d.availableFrequencies.map(number).joined(separator: " ")))"
        }
        out += "\n"
      } else {
        out += "  rate: not reported\n"
      }
      for t in d.types {
        let c = d.channels(of: t)
        let unit = t == .accel ? "m/s²" : (t == .anglvel ? "rad/s" : "Gauss")
        let scales = Set(c.map(\.scale)).sorted().map(number).joined(separator: "/")
        let offsets = Set(c.map(\.offset)).sorted().map(number).joined(separator: "/")
        out += "  \(t.rawValue): scale \(scales) \(unit) per count, offset \(offsets)"
        let m = d.mountMatrices[t] ?? .identity
        out += ", mount matrix " + (m == .identity ? "identity" : matrix(m)) + "\n"
      }
      let buffered = d.types.allSatisfy { d.canBuffer($0) }
      let charDev = devRoot + "/" + d.id
      var access = "missing"
      if FileManager.default.fileExists(atPath: charDev) {
        access = FileManager.default.isReadableFile(atPath: charDev) ? "readable" : "not readable"
      }
      out +=
        "  buffered: " + (buffered ? "yes (\(d.bufferDirectory ?? "buffer")/)" : "no")
        + ", \(charDev) \(access)\n"
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
