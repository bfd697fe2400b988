import Glibc
import SwellGeometry
import SwellMotion

/// The kind of motion quantity an IIO channel measures.
public enum IIOChannelType: String, Hashable, Sendable, CaseIterable, Comparable {
  /// Accelerometer (`in_accel_*`): m/s² after scale and offset.
  case accel
  /// Gyroscope (`in_anglvel_*`): rad/s after scale and offset.
  case anglvel
  /// Magnetometer (`in_magn_*`): Gauss after scale and offset (×100 gives µT).
  case magn
  /// Delta angle (`in_deltaangl_*`): the angular displacement between two consecutive samples,
  /// radians after scale and offset (`Documentation/ABI/testing/sysfs-bus-iio`,
  /// `in_deltaangl_x_raw`, kernel 6.5). Divided by the sample interval it is an angular rate.
  case deltaAngle = "deltaangl"
  /// Delta velocity (`in_deltavelocity_*`): the change of velocity between two consecutive
  /// samples, m/s after scale and offset (`Documentation/ABI/testing/sysfs-bus-iio`,
  /// `in_deltavelocity_x_raw`, kernel 6.5). Divided by the sample interval it is specific force.
  case deltaVelocity = "deltavelocity"

  /// Orders types accel, anglvel, magn, deltaangl, deltavelocity.
  public static func < (a: IIOChannelType, b: IIOChannelType) -> Bool {
    allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
  }

  /// The factor from the channel's ABI unit to the IMUSample unit: 1 for m/s², rad/s, rad and
  /// m/s, 100 for Gauss to µT.
  public var siFactor: Double { self == .magn ? 100 : 1 }

  /// True for the delta types (``deltaAngle``, ``deltaVelocity``).
  public var isDelta: Bool { self == .deltaAngle || self == .deltaVelocity }

  /// The rate type a delta type becomes once divided by the sample interval (``anglvel`` for
  /// ``deltaAngle``, ``accel`` for ``deltaVelocity``); the type itself for the others.
  public var rateType: IIOChannelType {
    switch self {
    case .deltaAngle: .anglvel
    case .deltaVelocity: .accel
    default: self
    }
  }
}

/// Where a channel sits in the buffer scan order and how it is stored.
public struct IIOScanSlot: Hashable, Sendable {
  /// The scan index (`scan_elements/<name>_index`).
  public var index: Int
  /// The storage format (`scan_elements/<name>_type`).
  public var type: IIOScanType
}

/// One motion channel (one axis) of an IIO device.
public struct IIOChannel: Hashable, Sendable {
  /// What it measures.
  public var type: IIOChannelType
  /// The axis: 0 for x, 1 for y, 2 for z (sensor frame, before the mount matrix).
  public var axis: Int
  /// The multiplier from raw counts to the ABI unit (m/s², rad/s, Gauss, rad or m/s per count).
  public var scale: Double
  /// Added to the raw value before scaling, in raw counts (0 when the device has none).
  public var offset: Double
  /// True when the channel can be polled through its `_raw` file.
  public var hasRawFile: Bool
  /// The scan index when the channel can be buffered (`scan_elements/<name>_index`).
  public var scanIndex: Int?
  /// The buffer storage format when the channel can be buffered (`scan_elements/<name>_type`).
  public var scanType: IIOScanType?

  /// The sysfs base name, e.g. `in_accel_x`.
  public var name: String { "in_\(type.rawValue)_\(["x", "y", "z"][axis])" }

  /// Converts a raw count to the ABI unit: `(raw + offset) × scale`.
  ///
  /// - Parameter raw: The raw count.
  /// - Returns: m/s², rad/s, Gauss, rad or m/s.
  public func convert(_ raw: Double) -> Double { (raw + offset) * scale }
}

/// A Linux Industrial I/O device with motion channels, as found under the sysfs root.
public struct IIODevice: Hashable, Sendable {
  /// The sysfs directory name, e.g. `iio:device0`.
  public var id: String
  /// The sysfs directory.
  public var path: String
  /// The chip name (the `name` file), e.g. `bmi160` or `lsm6dsm_accel`.
  public var name: String
  /// The motion channels, ordered by type and axis.
  public var channels: [IIOChannel]
  /// The sampling frequency in Hz, when the device reports one.
  public var samplingFrequency: Double?
  /// The sampling frequencies the device accepts, Hz (empty when not listed).
  public var availableFrequencies: [Double]
  /// The mount matrix of each channel type (identity when the device has none). Applied as
  /// `v_device = M · v_sensor`.
  public var mountMatrices: [IIOChannelType: Matrix3]
  /// The scan index and format of the timestamp channel (`in_timestamp`, nanoseconds), when
  /// buffered reads can carry it.
  public var timestamp: IIOScanSlot?
  /// The buffer control directory name (`buffer` or `buffer0`), when the device has one.
  public var bufferDirectory: String?
  /// The `label` attribute, when the firmware gives the device one (`accel-display`,
  /// `accel-base`): "optional symbolic label for a device ... useful for userspace to be able to
  /// better identify an individual device" (`Documentation/ABI/testing/sysfs-bus-iio`,
  /// `iio:deviceX/label`).
  public var label: String?
  /// Where the device sits in the kernel's device tree: the path of its parent device below
  /// `/sys/devices/` (such as `platform/soc/i2c-1/1-0068`), found by resolving the
  /// `iio:deviceN` entry, which under `/sys/bus/iio/devices` is a symbolic link into
  /// `/sys/devices` (`Documentation/admin-guide/sysfs-rules.rst`: devices live only there, the
  /// bus and class folders hold links to them); `nil` when the entry does not resolve into a
  /// `devices/` folder. The parent is the bus device the driver was bound to, so the path does not
  /// change when the kernel numbers the IIO device differently (`iio:device0` one boot,
  /// `iio:device3` the next).
  public var location: String?

  /// A name for this physical device that stays the same across runs and renumbering:
  /// `iio:NAME#LABEL` when the device has a ``label``, else `iio:NAME@LOCATION` (``location``);
  /// `nil` when it has neither (the `iio:deviceN` number alone is not stable).
  public var stableIdentity: String? {
    if let label, !label.isEmpty { return "iio:\(name)#\(label)" }
    if let location, !location.isEmpty { return "iio:\(name)@\(location)" }
    return nil
  }

  /// The channel types this device measures, in order accel, anglvel, magn, deltaangl,
  /// deltavelocity.
  public var types: [IIOChannelType] {
    IIOChannelType.allCases.filter { t in channels.contains { $0.type == t } }
  }

  /// The device number N of `iio:deviceN`, or `nil` for other names.
  public var number: Int? {
    id.hasPrefix("iio:device") ? Int(id.dropFirst("iio:device".count)) : nil
  }

  /// The channels of one type, ordered x, y, z.
  ///
  /// - Parameter type: The type.
  /// - Returns: The channels (0 to 3 of them).
  public func channels(of type: IIOChannelType) -> [IIOChannel] {
    channels.filter { $0.type == type }
  }

  /// True when every axis of `type` can be buffered and the device has a buffer directory.
  ///
  /// - Parameter type: The type.
  /// - Returns: Whether buffered reads can deliver that type.
  public func canBuffer(_ type: IIOChannelType) -> Bool {
    let c = channels(of: type)
    return bufferDirectory != nil && c.count == 3 && c.allSatisfy { $0.scanType != nil }
  }

  /// Creates a device description.
  ///
  /// - Parameters:
  ///   - id: The directory name, e.g. `iio:device0`.
  ///   - path: The sysfs directory.
  ///   - name: The chip name.
  ///   - channels: The motion channels.
  public init(id: String, path: String, name: String, channels: [IIOChannel]) {
    self.id = id
    self.path = path
    self.name = name
    self.channels = channels
    samplingFrequency = nil
    availableFrequencies = []
    mountMatrices = [:]
    bufferDirectory = nil
  }
}

/// Finds and reads IIO motion devices under a sysfs root.
///
/// The root defaults to `/sys/bus/iio/devices`; tests point it at a fake tree in a temporary
/// folder. Values follow the kernel ABI (`Documentation/ABI/testing/sysfs-bus-iio`): SI value =
/// (raw + offset) × scale, with per-channel `_scale`/`_offset` taking precedence over the shared
/// per-type ones, and the mount matrix applied by userspace.
public struct IIOSysfs: Sendable {
  /// The default sysfs root of IIO devices.
  public static let defaultRoot = "/sys/bus/iio/devices"

  /// The directory holding the `iio:deviceN` entries.
  public var root: String
  let system: SystemCalls

  /// Creates a reader for a sysfs root.
  ///
  /// - Parameter root: The directory of `iio:deviceN` entries.
  public init(root: String = IIOSysfs.defaultRoot) {
    self.init(root: root, system: .live)
  }

  init(root: String, system: SystemCalls) {
    self.root = root
    self.system = system
  }

  // MARK: Attributes

  /// Reads a sysfs attribute as text.
  ///
  /// - Parameter path: The file.
  /// - Returns: The content without surrounding white space, or `nil` when the file does not
  ///   exist.
  /// - Throws: ``IIOError`` for any other failure (permission, device gone).
  func readAttribute(_ path: String) throws(IIOError) -> String? {
    // Opened without blocking and checked: a FIFO in a sysfs tree would otherwise block the
    // open (or the read) for ever.
    let (fd, err) = system.open(path, O_RDONLY | O_NONBLOCK)
    if fd < 0 {
      if err == ENOENT { return nil }
      throw IIOError.system("cannot open", path: path, code: err)
    }
    defer { system.close(fd) }
    guard system.isRegularFile(fd) else {
      throw IIOError("\(path): not a regular file (a sysfs attribute is one)", path: path)
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 65_536 {
      let (n, rerr) = chunk.withUnsafeMutableBytes { system.read(fd, $0) }
      if n < 0 { throw IIOError.system("cannot read", path: path, code: rerr) }
      if n == 0 { break }
      bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
  }

  /// Writes a sysfs attribute.
  ///
  /// - Parameters:
  ///   - value: The text to write (a newline is added).
  ///   - path: The file.
  /// - Throws: ``IIOError`` naming the file, with the permission fix when access is denied.
  func writeAttribute(_ value: String, to path: String) throws(IIOError) {
    let (fd, err) = system.open(path, O_WRONLY | O_TRUNC)
    if fd < 0 { throw IIOError.system("cannot write '\(value)' to", path: path, code: err) }
    defer { system.close(fd) }
    let bytes = Array((value + "\n").utf8)
    let (n, werr) = bytes.withUnsafeBytes { system.write(fd, $0) }
    if n < 0 { throw IIOError.system("cannot write '\(value)' to", path: path, code: werr) }
  }

  /// Reads a numeric attribute.
  func readNumber(_ path: String) throws(IIOError) -> Double? {
    guard let text = try readAttribute(path) else { return nil }
    guard let v = Double(text), v.isFinite else {
      throw IIOError(
        "\(path): expected a number, got '\(UntrustedText.clipped(text, limit: 40))'", path: path)
    }
    return v
  }

  /// The largest scan index accepted (`scan_elements/*_index`): 4095. Kernel drivers number
  /// their channels from 0 and a scan holds at most a few dozen.
  static let maximumScanIndex = 4095

  /// Reads a scan index: a whole number 0...``maximumScanIndex``.
  func readScanIndex(_ path: String) throws(IIOError) -> Int? {
    guard let v = try readNumber(path) else { return nil }
    guard v == v.rounded(), v >= 0, v <= Double(Self.maximumScanIndex) else {
      throw IIOError(
        "\(path): expected a scan index 0...\(Self.maximumScanIndex), got \(v)", path: path)
    }
    return Int(v)
  }

  func firstNumber(_ paths: String...) throws(IIOError) -> Double? {
    for p in paths {
      if let v = try readNumber(p) { return v }
    }
    return nil
  }

  func firstAttribute(_ paths: String...) throws(IIOError) -> String? {
    for p in paths {
      if let v = try readAttribute(p) { return v }
    }
    return nil
  }

  func list(_ path: String) -> [String]? {
    system.listDirectory(path).entries
  }

  // MARK: Discovery

  /// Lists the IIO devices that have accelerometer, gyroscope, magnetometer, delta-angle or
  /// delta-velocity channels.
  ///
  /// - Returns: The devices, ordered by device number.
  /// - Throws: ``IIOError`` when the root is missing or unreadable (the message says why:
  ///   no IIO subsystem, no permission) or a device's attribute is malformed.
  public func devices() throws(IIOError) -> [IIODevice] {
    let (entries, err) = system.listDirectory(root)
    guard let entries else {
      if err == ENOENT || err == ENOTDIR {
        throw IIOError(
          "no IIO devices: \(root) does not exist (this machine has no Industrial I/O sensors, "
            + "or their drivers are not loaded)", path: root, code: err)
      }
      throw IIOError.system("cannot list", path: root, code: err)
    }
    var found: [IIODevice] = []
    for id in entries where id.hasPrefix("iio:device") {
      do {
        if let d = try device(id: id) { found.append(d) }
      } catch  where error.isDeviceGone {
        continue  // vanished while we looked
      }
    }
    return found.sorted { ($0.number ?? Int.max, $0.id) < ($1.number ?? Int.max, $1.id) }
  }

  /// Reads one device directory.
  ///
  /// - Parameter id: The directory name, e.g. `iio:device0`.
  /// - Returns: The device, or `nil` when it has no motion channels.
  /// - Throws: ``IIOError`` when an attribute is unreadable or malformed.
  public func device(id: String) throws(IIOError) -> IIODevice? {
    let path = root + "/" + id
    guard let files = list(path) else {
      throw IIOError.system("cannot list", path: path, code: system.listDirectory(path).error)
    }
    let fileSet = Set(files)
    let scanFiles = Set(list(path + "/scan_elements") ?? [])
    var channels: [IIOChannel] = []
    for type in IIOChannelType.allCases {
      for (axis, a) in ["x", "y", "z"].enumerated() {
        let base = "in_\(type.rawValue)_\(a)"
        let hasRaw = fileSet.contains(base + "_raw")
        let hasScan = scanFiles.contains(base + "_en")
        guard hasRaw || hasScan else { continue }
        let scale =
          try firstNumber(path + "/\(base)_scale", path + "/in_\(type.rawValue)_scale") ?? 1
        let offset =
          try firstNumber(path + "/\(base)_offset", path + "/in_\(type.rawValue)_offset") ?? 0
        var channel = IIOChannel(
          type: type, axis: axis, scale: scale, offset: offset, hasRawFile: hasRaw)
        if hasScan {
          let scanPath = path + "/scan_elements/"
          if let idx = try readScanIndex(scanPath + base + "_index"),
            let typeText = try firstAttribute(
              scanPath + base + "_type", scanPath + "in_\(type.rawValue)_type")
          {
            channel.scanIndex = idx
            do {
              channel.scanType = try IIOScanType(parsing: typeText)
            } catch {
              throw IIOError(
                "\(scanPath)\(base)_type: \(error.message)", path: scanPath + base + "_type")
            }
          }
        }
        channels.append(channel)
      }
    }
    guard !channels.isEmpty else { return nil }
    let name = try readAttribute(path + "/name") ?? id
    var device = IIODevice(id: id, path: path, name: name, channels: channels)
    let firstType = device.types.first ?? .accel
    device.samplingFrequency = try firstNumber(
      path + "/in_\(firstType.rawValue)_sampling_frequency", path + "/sampling_frequency")
    let available =
      try firstAttribute(
        path + "/in_\(firstType.rawValue)_sampling_frequency_available",
        path + "/sampling_frequency_available") ?? ""
    device.availableFrequencies = available.split(whereSeparator: { $0 == " " || $0 == "\t" })
      .compactMap { Double($0) }.filter { $0.isFinite && $0 > 0 }
    for type in device.types {
      device.mountMatrices[type] = try mountMatrix(of: type, in: path) ?? .identity
    }
    if scanFiles.contains("in_timestamp_en"),
      let idx = try readScanIndex(path + "/scan_elements/in_timestamp_index"),
      let t = try readAttribute(path + "/scan_elements/in_timestamp_type")
    {
      device.timestamp = IIOScanSlot(
        index: idx,
        type: try IIOSysfs.scanType(t, file: path + "/scan_elements/in_timestamp_type"))
    }
    device.label = try fileSet.contains("label") ? readAttribute(path + "/label") : nil
    device.location = Self.parentLocation(system.resolvePath(path))
    if fileSet.contains("buffer0") && list(path + "/buffer0") != nil {
      device.bufferDirectory = "buffer0"
    } else if fileSet.contains("buffer") && list(path + "/buffer") != nil {
      device.bufferDirectory = "buffer"
    }
    return device
  }

  /// The part of a resolved device path between its first `/devices/` folder and its last
  /// component (the `iio:deviceN` folder itself), or `nil` when there is none.
  ///
  /// - Parameter resolved: The device folder with every symbolic link resolved.
  /// - Returns: The parent device's path below `devices/`, e.g. `platform/soc/i2c-1/1-0068`.
  static func parentLocation(_ resolved: String?) -> String? {
    guard let resolved, let range = resolved.range(of: "/devices/") else { return nil }
    let below = resolved[range.upperBound...].split(separator: "/")
    guard below.count >= 2 else { return nil }
    return below.dropLast().joined(separator: "/")
  }

  private static func scanType(_ text: String, file: String) throws(IIOError) -> IIOScanType {
    do { return try IIOScanType(parsing: text) } catch {
      throw IIOError("\(file): \(error.message)", path: file)
    }
  }

  /// Reads the mount matrix of a channel type: `in_<type>_mount_matrix`, then the shared
  /// `mount_matrix` / `in_mount_matrix`, then the older `in_<type>_matrix` (mpu6050); a delta
  /// type then falls back to its rate type's matrix (`in_anglvel_…` for `deltaangl`).
  ///
  /// - Parameters:
  ///   - type: The channel type.
  ///   - path: The device directory.
  /// - Returns: The matrix, or `nil` when the device has none.
  /// - Throws: ``IIOError`` when the file is malformed.
  func mountMatrix(of type: IIOChannelType, in path: String) throws(IIOError) -> Matrix3? {
    var files = [
      "in_\(type.rawValue)_mount_matrix", "mount_matrix", "in_mount_matrix",
      "in_\(type.rawValue)_matrix",
    ]
    // A delta channel integrates the same sensor as its rate channel: without a matrix of its
    // own it takes the rate channel's (the ABI defines `in_accel_mount_matrix` and
    // `in_anglvel_mount_matrix`, none for the delta types).
    if type.isDelta {
      files += ["in_\(type.rateType.rawValue)_mount_matrix", "in_\(type.rateType.rawValue)_matrix"]
    }
    for file in files {
      if let text = try readAttribute(path + "/" + file) {
        return try IIOSysfs.parseMountMatrix(text, file: path + "/" + file)
      }
    }
    return nil
  }

  /// Parses a mount matrix in the kernel's text form `"a, b, c; d, e, f; g, h, i"` (rows
  /// separated by `;`, values by `,`).
  ///
  /// - Parameters:
  ///   - text: The file's content.
  ///   - file: The file name, for the error message.
  /// - Returns: The matrix, rows as written.
  /// - Throws: ``IIOError`` unless there are exactly nine finite numbers in three rows.
  public static func parseMountMatrix(_ text: String, file: String) throws(IIOError) -> Matrix3 {
    let rows = text.split(separator: ";", omittingEmptySubsequences: false)
    var values: [Double] = []
    if rows.count == 3 {
      for row in rows {
        let cells = row.split(separator: ",", omittingEmptySubsequences: false)
        guard cells.count == 3 else { break }
        for cell in cells {
          guard let v = Double(cell.trimmingWhitespace()), v.isFinite else { break }
          values.append(v)
        }
      }
    }
    guard values.count == 9 else {
      throw IIOError(
        "\(file): expected a mount matrix 'a, b, c; d, e, f; g, h, i', got '\(UntrustedText.clipped(text, limit: 60))'",
        path: file)
    }
    return Matrix3(rowMajor: values)
  }

  // MARK: Sampling frequency

  /// Sets a device's sampling frequency and reads back the value the driver chose.
  ///
  /// - Parameters:
  ///   - hertz: The requested frequency, Hz.
  ///   - device: The device.
  /// - Returns: The frequency now in effect, Hz (drivers round to a supported value).
  /// - Throws: ``IIOError`` naming the file when it cannot be written (permission) or read.
  @discardableResult
  public func setSamplingFrequency(_ hertz: Double, of device: IIODevice) throws(IIOError)
    -> Double
  {
    guard hertz.isFinite, hertz > 0, hertz <= 1e7 else {
      throw IIOError(
        "sampling frequency must be a positive number of Hz, at most 1e7", path: device.path)
    }
    let type = device.types.first ?? .accel
    var file = device.path + "/in_\(type.rawValue)_sampling_frequency"
    if system.listDirectory(device.path).entries?.contains("in_\(type.rawValue)_sampling_frequency")
      != true
    {
      file = device.path + "/sampling_frequency"
    }
    let text = hertz == hertz.rounded() ? String(Int(hertz)) : String(hertz)
    try writeAttribute(text, to: file)
    return try readNumber(file) ?? hertz
  }

  // MARK: Polling

  /// Reads one type's three `_raw` files and converts them: scale and offset, the mount matrix,
  /// then the unit factor (Gauss → µT). Delta types come back as they are (rad, m/s).
  ///
  /// - Parameters:
  ///   - type: The channel type.
  ///   - device: The device.
  /// - Returns: The vector in the device frame: m/s², rad/s, µT, rad or m/s.
  /// - Throws: ``IIOError`` when a file is missing, unreadable (the device is gone) or malformed.
  public func readVector(_ type: IIOChannelType, of device: IIODevice) throws(IIOError) -> Vector3 {
    let chans = device.channels(of: type)
    var v = [0.0, 0.0, 0.0]
    for c in chans {
      let file = device.path + "/" + c.name + "_raw"
      guard let text = try readAttribute(file) else {
        throw IIOError("\(file): missing (the device is gone)", path: file, code: ENOENT)
      }
      guard let raw = Double(text), raw.isFinite else {
        throw IIOError(
          "\(file): expected a number, got '\(UntrustedText.clipped(text, limit: 40))'", path: file)
      }
      v[c.axis] = c.convert(raw)
    }
    let m = device.mountMatrices[type] ?? .identity
    return (m * Vector3(v[0], v[1], v[2])) * type.siFactor
  }
}
