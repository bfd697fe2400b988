import Glibc
import SwellGeometry

/// A plain-text description of IIO motion devices for people: what `swell sensors` prints, in a
/// form to paste into a bug report.
///
/// For each device: its folder and chip name, the sampling rate, every channel (motion channels
/// with their scan index, storage format, scale and offset as read; the timestamp; every other
/// scan element, which Swell turns off while it reads), the scan elements enabled now, the
/// channels Swell reads (rates or deltas, and the enabled ones it turns off meanwhile), each
/// type's unit and mount matrix with what kind of matrix it is (identity, a rotation, a
/// reflection, or neither: every matrix is applied as published, `v_device = M · v_sensor`), and
/// whether buffered reads are possible with the scan size Swell's mask gives.
///
/// ```
/// iio:device0  bmi160
///   rate: 100 Hz (available: 25 50 100 200)
///   channels:
///     in_accel_x    accel    index 0  le:s16/16>>0  scale 0.000598  offset 0
///     ...
///     in_timestamp  time     index 6  le:s64/64>>0  ns
///   enabled now: none
///   Swell reads: in_accel_x/y/z, in_anglvel_x/y/z, in_timestamp (rates)
///   accel: m/s² per count, mount matrix 0, 1, 0; -1, 0, 0; 0, 0, 1 (a rotation, determinant 1)
///   anglvel: rad/s per count, mount matrix identity
///   buffered: yes (buffer/), 24 bytes per scan, /dev/iio:device0 readable
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
  ///   - sysfs: The sysfs reader they came from (for the scan elements and their `_en`).
  ///   - devRoot: The folder of the `iio:deviceN` character devices (normally `/dev`).
  ///   - selection: Which channels Swell would read from a device with rate and delta
  ///     channels (as ``IIOSourceConfiguration/channels``).
  public init(
    devices: [IIODevice], sysfs: IIOSysfs, devRoot: String = "/dev",
    selection: IIOChannelSelection = .automatic
  ) {
    self.devices = devices
    text = devices.map {
      IIODeviceReport.describe($0, sysfs: sysfs, devRoot: devRoot, selection: selection)
    }
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

  private static func describe(
    _ d: IIODevice, sysfs: IIOSysfs, devRoot: String, selection: IIOChannelSelection
  ) -> String {
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
    var slots: [String: (index: Int, type: IIOScanType)] = [:]
    for c in d.channels {
      var place = "polled only"
      var storage = ""
      if let i = c.scanIndex, let t = c.scanType {
        place = "index \(i)"
        storage = t.description
        slots[c.name] = (i, t)
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
      slots["in_timestamp"] = (t.index, t.type)
    }
    let elements = scanElements(of: d, sysfs: sysfs)
    for other in elements where slots[other.name] == nil {
      lines.append(
        Line(
          name: other.name, kind: "other", place: "index \(other.index)",
          storage: other.type.description, values: "not read by Swell"))
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
    let enabledNow = elements.filter(\.enabled).sorted { ($0.index, $0.name) < ($1.index, $1.name) }
    if !elements.isEmpty {
      out +=
        "  enabled now: "
        + (enabledNow.isEmpty ? "none" : enabledNow.map(\.name).joined(separator: ", ")) + "\n"
    }
    let reads = readTypes(of: d, selection: selection)
    var readNames = reads.map { t in
      let axes = d.channels(of: t).map { ["x", "y", "z"][$0.axis] }
      return "in_\(t.rawValue)_" + axes.joined(separator: "/")
    }
    let buffered = !reads.isEmpty && reads.allSatisfy { d.canBuffer($0) }
    if buffered && d.timestamp != nil { readNames.append("in_timestamp") }
    let what = reads.contains(where: \.isDelta) ? "deltas" : "rates"
    if reads.isEmpty {
      out += "  Swell reads: nothing (no \(selection == .deltas ? "delta" : "rate") channels)\n"
    } else {
      let others = d.types.contains { t in !reads.contains(t) && t != .magn }
      out += "  Swell reads: \(readNames.joined(separator: ", ")) (\(what)"
      out += others ? "; \(what == "rates" ? "deltas" : "rates") on request)" : ")"
      var readChannels = Set(reads.flatMap { d.channels(of: $0).map(\.name) })
      readChannels.insert("in_timestamp")
      let turnedOff = enabledNow.filter { !readChannels.contains($0.name) }
      if buffered && !turnedOff.isEmpty {
        out += "; turns off \(turnedOff.map(\.name).joined(separator: ", ")) while it reads"
      }
      out += "\n"
    }
    for t in d.types {
      let unit =
        switch t {
        case .accel: "m/s² per count"
        case .anglvel: "rad/s per count"
        case .magn: "Gauss per count (×100 for µT)"
        case .deltaAngle: "rad per count (÷ sample interval for rad/s)"
        case .deltaVelocity: "m/s per count (÷ sample interval for m/s²)"
        }
      let m = d.mountMatrices[t] ?? .identity
      let matrix = m == .identity ? "identity" : "\(text(of: m)) (\(kind(of: m)))"
      out += "  \(t.rawValue): \(unit), mount matrix \(matrix)\n"
    }
    let charDev = devRoot + "/" + d.id
    var access = "missing"
    if Glibc.access(charDev, F_OK) == 0 {
      access = Glibc.access(charDev, R_OK) == 0 ? "readable" : "not readable"
    }
    if buffered {
      var scan: [(name: String, index: Int, type: IIOScanType)] = []
      for t in reads {
        for c in d.channels(of: t) {
          if let slot = slots[c.name] { scan.append((c.name, slot.index, slot.type)) }
        }
      }
      if let t = d.timestamp { scan.append(("in_timestamp", t.index, t.type)) }
      let bytes = IIOScanLayout(channels: scan).scanBytes
      out +=
        "  buffered: yes (\(d.bufferDirectory ?? "buffer")/), \(bytes) bytes per scan, "
        + "\(charDev) \(access)\n"
    } else {
      out += "  buffered: no, \(charDev) \(access)\n"
    }
    return out
  }

  /// The types Swell reads from a device with a channel selection: its rate types (accel,
  /// anglvel, magn), or its delta types (with magn), as ``IIOSource`` picks them.
  static func readTypes(of d: IIODevice, selection: IIOChannelSelection) -> [IIOChannelType] {
    let rates = d.types.filter { !$0.isDelta }
    let deltas = d.types.filter { $0.isDelta || $0 == .magn }
    switch selection {
    case .rates: return rates
    case .deltas: return deltas.contains(where: \.isDelta) ? deltas : []
    case .automatic:
      return d.types.contains(.accel) || d.types.contains(.anglvel)
        || !deltas.contains(where: \.isDelta)
        ? rates : deltas
    }
  }

  /// Every scan element with a readable index and type, and whether its `_en` is 1 now.
  private static func scanElements(of d: IIODevice, sysfs: IIOSysfs)
    -> [(name: String, index: Int, type: IIOScanType, enabled: Bool)]
  {
    let folder = d.path + "/scan_elements/"
    var found: [(name: String, index: Int, type: IIOScanType, enabled: Bool)] = []
    for file in sysfs.list(d.path + "/scan_elements") ?? [] where file.hasSuffix("_en") {
      let base = String(file.dropLast(3))
      let shared = base.split(separator: "_").count == 3 ? String(base.dropLast(2)) : base
      guard let index = (try? sysfs.readScanIndex(folder + base + "_index")) ?? nil,
        let typeText =
          (try? sysfs.firstAttribute(folder + base + "_type", folder + shared + "_type"))
            ?? nil,
        let type = try? IIOScanType(parsing: typeText)
      else { continue }
      found.append((base, index, type, (try? sysfs.readAttribute(folder + file)) == "1"))
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
