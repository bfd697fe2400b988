import Glibc
import SwellGeometry

/// A plain-text description of IIO motion devices for people: what `swell sensors` prints, in a
/// form to paste into a bug report.
///
/// For each device: its folder and chip name, the sampling rate, every channel (motion channels
/// with their scan index, storage format, scale and offset as read; the timestamp; any other
/// channel left enabled in `scan_elements`, which changes the scan layout), each type's unit and
/// mount matrix with what kind of matrix it is (identity, a rotation, a reflection, or neither:
/// every matrix is applied as published, `v_device = M · v_sensor`), and whether buffered reads
/// are possible with the scan size they would have.
///
/// ```
/// iio:device0  bmi160
///   rate: 100 Hz (available: 25 50 100 200)
///   channels:
///     in_accel_x    accel    index 0  le:s16/16>>0  scale 0.000598  offset 0
///     ...
///     in_timestamp  time     index 6  le:s64/64>>0  ns
///   accel: m/s² per count, mount matrix 0, 1, 0; -1, 0, 0; 0, 0, 1 (a rotation, determinant 1)
///   anglvel: rad/s per count, mount matrix identity
///   buffered: yes (buffer/), 16 bytes per scan, /dev/iio:device0 readable
/// ```
public struct IIODeviceReport: Sendable, CustomStringConvertible {
  /// The devices described.
  public let devices: [IIODevice]
  /// The report, one block per device, each line ending in a newline.
  public let text: String

  /// Describes devices.
  ///
  /// - Parameters:
  ///   - devices: The devices, e.g. `IIOSysfs.devices()`.
  ///   - sysfs: The sysfs reader they came from (for the other enabled scan elements).
  ///   - devRoot: The folder of the `iio:deviceN` character devices (normally `/dev`).
  public init(devices: [IIODevice], sysfs: IIOSysfs, devRoot: String = "/dev") {
    self.devices = devices
    text = devices.map { IIODeviceReport.describe($0, sysfs: sysfs, devRoot: devRoot) }
      .joined()
  }

  /// Finds and describes the motion sensors under a sysfs root (what `IIOSysfs.devices()`
  /// finds: devices with accelerometer, gyroscope or magnetometer channels).
  ///
  /// - Parameters:
  ///   - root: The sysfs folder of the `iio:deviceN` entries (normally `IIOSysfs.defaultRoot`).
  ///   - devRoot: The folder of the `iio:deviceN` character devices (normally `/dev`).
  /// - Throws: ``IIOError`` when the root cannot be read or holds no motion sensor (the message
  ///   starts "no motion sensors: " and says why).
  public init(scanning root: String, devRoot: String = "/dev") throws(IIOError) {
    let sysfs = IIOSysfs(root: root)
    let devices: [IIODevice]
    do {
      devices = try sysfs.devices()
    } catch {
      throw IIOError("no motion sensors: \(error.message)", path: error.path, code: error.code)
    }
    guard !devices.isEmpty else {
      throw IIOError(
        "no motion sensors: \(root) has no device with accel, anglvel or magn channels",
        path: root)
    }
    self.init(devices: devices, sysfs: sysfs, devRoot: devRoot)
  }

  /// The report text.
  public var description: String { text }

  /// What kind of transformation a mount matrix is, in words: `identity`,
  /// `a rotation, determinant 1`, `a reflection, determinant -1: …` or
  /// `not a rotation, determinant D: …`.
  ///
  /// - Parameter m: The matrix as published.
  /// - Returns: The words.
  public static func kind(of m: Matrix3) -> String {
    if m == .identity { return "identity" }
    let p = m * m.transposed
    let rows = [p.row0 - Vector3.unitX, p.row1 - Vector3.unitY, p.row2 - Vector3.unitZ]
    let orthonormal = rows.allSatisfy { max(abs($0.x), abs($0.y), abs($0.z)) < 1e-6 }
    let d = m.determinant
    if orthonormal && abs(d - 1) < 1e-6 { return "a rotation, determinant 1" }
    if orthonormal && abs(d + 1) < 1e-6 {
      return "a reflection, determinant -1: one axis mirrored; applied as published"
    }
    return "not a rotation, determinant \(decimal(d)); applied as published"
  }

  /// A number in plain decimal notation with up to 12 significant digits and no exponent, so a
  /// scale such as 2.6e-8 prints as the kernel writes it, `0.000000026`.
  ///
  /// - Parameter v: The number.
  /// - Returns: The text.
  public static func decimal(_ v: Double) -> String {
    guard v.isFinite else { return String(v) }
    if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
    let magnitude = Int(log10(abs(v)).rounded(.down))
    let places = min(max(11 - magnitude, 0), 30)
    var text = String(format: "%.\(places)f", v)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text
  }

  private struct Line {
    var name: String
    var kind: String
    var place: String
    var storage: String
    var values: String
  }

  private static func describe(_ d: IIODevice, sysfs: IIOSysfs, devRoot: String) -> String {
    var out = "\(d.id)  \(d.name)\n"
    if let f = d.samplingFrequency {
      out += "  rate: \(decimal(f)) Hz"
      if !d.availableFrequencies.isEmpty {
        out += " (available: \(d.availableFrequencies.map(decimal).joined(separator: " ")))"
      }
      out += "\n"
    } else {
      out += "  rate: not reported\n"
    }
    var lines: [Line] = []
    var scan: [(name: String, index: Int, type: IIOScanType)] = []
    for c in d.channels {
      var place = "polled only"
      var storage = ""
      if let i = c.scanIndex, let t = c.scanType {
        place = "index \(i)"
        storage = t.description
        scan.append((c.name, i, t))
      }
      lines.append(
        Line(
          name: c.name, kind: c.type.rawValue, place: place, storage: storage,
          values: "scale \(decimal(c.scale))  offset \(decimal(c.offset))"
            + (c.hasRawFile ? "" : "  (no _raw file)")))
    }
    if let t = d.timestamp {
      lines.append(
        Line(
          name: "in_timestamp", kind: "time", place: "index \(t.index)",
          storage: t.type.description, values: "ns"))
      scan.append(("in_timestamp", t.index, t.type))
    }
    for other in otherEnabledElements(of: d, sysfs: sysfs) {
      lines.append(
        Line(
          name: other.name, kind: "other", place: "index \(other.index)",
          storage: other.type.description, values: "enabled (part of every scan)"))
      scan.append(other)
    }
    lines.sort { a, b in
      let ia = Int(a.place.dropFirst(6)) ?? Int.max
      let ib = Int(b.place.dropFirst(6)) ?? Int.max
      return (ia, a.name) < (ib, b.name)
    }
    let widths = (
      lines.map(\.name.count).max() ?? 0, lines.map(\.kind.count).max() ?? 0,
      lines.map(\.place.count).max() ?? 0, lines.map(\.storage.count).max() ?? 0
    )
    out += "  channels:\n"
    for l in lines {
      var row = "    " + pad(l.name, widths.0) + "  " + pad(l.kind, widths.1) + "  "
      row += pad(l.place, widths.2) + "  "
      row += widths.3 > 0 ? pad(l.storage, widths.3) + "  " : ""
      out += row + l.values + "\n"
    }
    for t in d.types {
      let unit =
        switch t {
        case .accel: "m/s² per count"
        case .anglvel: "rad/s per count"
        case .magn: "Gauss per count (×100 for µT)"
        }
      let m = d.mountMatrices[t] ?? .identity
      let matrix = m == .identity ? "identity" : "\(text(of: m)) (\(kind(of: m)))"
      out += "  \(t.rawValue): \(unit), mount matrix \(matrix)\n"
    }
    let buffered = d.types.allSatisfy { d.canBuffer($0) }
    let charDev = devRoot + "/" + d.id
    var access = "missing"
    if Glibc.access(charDev, F_OK) == 0 {
      access = Glibc.access(charDev, R_OK) == 0 ? "readable" : "not readable"
    }
    if buffered {
      let bytes = IIOScanLayout(channels: scan).scanBytes
      out +=
        "  buffered: yes (\(d.bufferDirectory ?? "buffer")/), \(bytes) bytes per scan, "
        + "\(charDev) \(access)\n"
    } else {
      out += "  buffered: no, \(charDev) \(access)\n"
    }
    return out
  }

  /// Scan elements other than the motion channels and the timestamp whose `_en` is 1 now.
  private static func otherEnabledElements(of d: IIODevice, sysfs: IIOSysfs)
    -> [(name: String, index: Int, type: IIOScanType)]
  {
    let folder = d.path + "/scan_elements/"
    let known = Set(d.channels.map(\.name) + ["in_timestamp"])
    var found: [(name: String, index: Int, type: IIOScanType)] = []
    for file in sysfs.list(d.path + "/scan_elements") ?? [] where file.hasSuffix("_en") {
      let base = String(file.dropLast(3))
      guard !known.contains(base), (try? sysfs.readAttribute(folder + file)) == "1",
        let index = (try? sysfs.readScanIndex(folder + base + "_index")) ?? nil,
        let typeText = (try? sysfs.readAttribute(folder + base + "_type")) ?? nil,
        let type = try? IIOScanType(parsing: typeText)
      else { continue }
      found.append((base, index, type))
    }
    return found
  }

  private static func text(of m: Matrix3) -> String {
    [m.row0, m.row1, m.row2].map { r in [r.x, r.y, r.z].map(decimal).joined(separator: ", ") }
      .joined(separator: "; ")
  }

  private static func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
  }
}
