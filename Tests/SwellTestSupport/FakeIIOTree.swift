import Foundation
import Glibc

/// A fake `/sys/bus/iio/devices` tree and `/dev` folder in a temporary directory, shared by the
/// sensor-library tests and the CLI tests.
///
/// It only writes files (attributes as text, a FIFO standing in for each `/dev/iio:deviceN`
/// character device); it knows nothing of Swell's IIO code. The folder is removed when the tree
/// is released.
public final class FakeIIOTree {
  /// The temporary folder holding `sys/` and `dev/`.
  public let root: String
  /// The fake sysfs root (pass it as `--sysfs-root`).
  public var sysfs: String { root + "/sys" }
  /// The fake device folder (pass it as `--dev-root`).
  public var dev: String { root + "/dev" }

  /// Creates an empty tree in a fresh temporary folder.
  ///
  /// - Throws: A file-system error when the folder cannot be created.
  public init() throws {
    var template = Array((NSTemporaryDirectory() + "/swell-iio-XXXXXX").utf8CString)
    guard let p = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    root = String(cString: p)
    try FileManager.default.createDirectory(atPath: sysfs, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: dev, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  /// Writes an attribute file below the sysfs root (with a trailing newline, as the kernel does),
  /// creating its folders.
  ///
  /// - Parameters:
  ///   - relative: The path below the sysfs root, e.g. `iio:device0/name`.
  ///   - contents: The text, without the newline.
  /// - Throws: A file-system error.
  public func write(_ relative: String, _ contents: String) throws {
    let path = sysfs + "/" + relative
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try (contents + "\n").write(toFile: path, atomically: false, encoding: .utf8)
  }

  /// Reads an attribute file below the sysfs root, trimmed of white space.
  ///
  /// - Parameter relative: The path below the sysfs root.
  /// - Returns: The trimmed text.
  /// - Throws: A file-system error.
  public func read(_ relative: String) throws -> String {
    try String(contentsOfFile: sysfs + "/" + relative, encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Removes a device folder and its character device, as an unplug does.
  ///
  /// - Parameter id: The device folder name, e.g. `iio:device0`.
  /// - Throws: A file-system error when the folder does not exist.
  public func remove(_ id: String) throws {
    try FileManager.default.removeItem(atPath: sysfs + "/" + id)
    try? FileManager.default.removeItem(atPath: dev + "/" + id)
  }

  /// Moves a device folder to `devices/PARENT/iio:deviceN` beside the fake sysfs root and puts a
  /// relative symbolic link in its place, as the kernel's `/sys/bus/iio/devices/iio:deviceN`
  /// entries are links into `/sys/devices/…/PARENT/iio:deviceN`
  /// (`Documentation/admin-guide/sysfs-rules.rst`).
  ///
  /// - Parameters:
  ///   - id: The device folder name, e.g. `iio:device0`.
  ///   - parent: The parent device's path below `devices/`, e.g. `platform/soc/i2c-1/1-0068`.
  /// - Throws: A file-system error.
  public func attach(_ id: String, toParent parent: String) throws {
    let folder = root + "/devices/" + parent
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: sysfs + "/" + id, toPath: folder + "/" + id)
    let target = "../devices/" + parent + "/" + id
    try FileManager.default.createSymbolicLink(
      atPath: sysfs + "/" + id, withDestinationPath: target)
  }

  /// Gives an attached device another number, as a reboot or a replug may: its folder under
  /// the parent and its link become `iio:deviceN`, and so does its character device.
  ///
  /// - Parameters:
  ///   - id: The device folder name now, e.g. `iio:device0` (attached with
  ///     ``attach(_:toParent:)``).
  ///   - parent: Its parent device's path below `devices/`.
  ///   - number: The new N.
  /// - Returns: The new folder name.
  /// - Throws: A file-system error.
  @discardableResult
  public func renumber(_ id: String, underParent parent: String, to number: Int) throws -> String {
    let new = "iio:device\(number)"
    let folder = root + "/devices/" + parent
    try FileManager.default.removeItem(atPath: sysfs + "/" + id)
    try FileManager.default.moveItem(atPath: folder + "/" + id, toPath: folder + "/" + new)
    try FileManager.default.createSymbolicLink(
      atPath: sysfs + "/" + new, withDestinationPath: "../devices/" + parent + "/" + new)
    if FileManager.default.fileExists(atPath: dev + "/" + id) {
      try FileManager.default.moveItem(atPath: dev + "/" + id, toPath: dev + "/" + new)
    }
    return new
  }

  /// Adds a device with x/y/z channels of the given types, all of one scan type, scan indices in
  /// type order, and a timestamp channel after them.
  ///
  /// - Parameters:
  ///   - number: N of `iio:deviceN`.
  ///   - name: The chip name (`name` attribute).
  ///   - types: Channel types such as `accel`, `anglvel`, `magn`.
  ///   - raw: `_raw` values keyed `TYPE_AXIS` (e.g. `accel_z`); missing ones are 0.
  ///   - scales: Shared `in_TYPE_scale` values keyed by type; missing ones are `1.0`.
  ///   - scanType: The `_type` string of every channel.
  ///   - timestamp: Whether a buffered device has an `in_timestamp` channel (Int64 ns).
  ///   - buffered: Whether to add `scan_elements/`, the buffer folder and a FIFO in `dev/`.
  ///   - bufferDir: `buffer` or `buffer0`.
  ///   - samplingFrequency: The `sampling_frequency` text (Hz), or `nil` for none.
  ///   - availableFrequencies: The `sampling_frequency_available` text (Hz).
  /// - Returns: The device folder name, `iio:deviceN`.
  /// - Throws: A file-system error.
  @discardableResult
  public func addDevice(
    _ number: Int, name: String, types: [String], raw: [String: Int] = [:],
    scales: [String: String] = [:], scanType: String = "le:s16/16>>0", timestamp: Bool = true,
    buffered: Bool = true, bufferDir: String = "buffer", samplingFrequency: String? = "100.000000",
    availableFrequencies: String = "12.5 26 52 104 208 416"
  ) throws -> String {
    let id = "iio:device\(number)"
    try write("\(id)/name", name)
    if let f = samplingFrequency {
      try write("\(id)/sampling_frequency", f)
      try write("\(id)/sampling_frequency_available", availableFrequencies)
    }
    var index = 0
    for t in types {
      try write("\(id)/in_\(t)_scale", scales[t] ?? "1.0")
      for a in ["x", "y", "z"] {
        try write("\(id)/in_\(t)_\(a)_raw", String(raw["\(t)_\(a)"] ?? 0))
        if buffered {
          try write("\(id)/scan_elements/in_\(t)_\(a)_en", "0")
          try write("\(id)/scan_elements/in_\(t)_\(a)_index", String(index))
          try write("\(id)/scan_elements/in_\(t)_\(a)_type", scanType)
        }
        index += 1
      }
    }
    if buffered {
      if timestamp {
        try write("\(id)/scan_elements/in_timestamp_en", "0")
        try write("\(id)/scan_elements/in_timestamp_index", String(index))
        try write("\(id)/scan_elements/in_timestamp_type", "le:s64/64>>0")
      }
      try write("\(id)/\(bufferDir)/enable", "0")
      try write("\(id)/\(bufferDir)/length", "0")
      guard mkfifo(dev + "/" + id, 0o600) == 0 else { throw POSIXError(.EIO) }
    }
    return id
  }

  /// Adds a bmi160-style `iio:device0`: accel and anglvel x/y/z (`le:s16/16>>0`, scales
  /// 0.000598 m/s² and 0.001065 rad/s per count), scan indices 0...5, timestamp at 6, 100 Hz of
  /// `25 50 100 200`, the accelerometer mount matrix `0, 1, 0; -1, 0, 0; 0, 0, 1`, a `buffer/`
  /// folder and a FIFO as its character device.
  ///
  /// - Parameter raw: The six `_raw` values, accel x y z then anglvel x y z.
  /// - Throws: A file-system error.
  public func addBMI160(raw: [Int] = [0, 0, 16150, 0, 0, 0]) throws {
    var values: [String: Int] = [:]
    for (i, key) in ["accel_x", "accel_y", "accel_z", "anglvel_x", "anglvel_y", "anglvel_z"]
      .enumerated() where i < raw.count
    {
      values[key] = raw[i]
    }
    try addDevice(
      0, name: "bmi160", types: ["accel", "anglvel"], raw: values,
      scales: ["accel": "0.000598", "anglvel": "0.001065"], availableFrequencies: "25 50 100 200")
    try write("iio:device0/in_accel_mount_matrix", "0, 1, 0; -1, 0, 0; 0, 0, 1")
  }
}

/// Little-endian bytes of one IIO scan: int16 values, then (when given) an int64 timestamp
/// aligned to 8 bytes; without a timestamp the scan is padded to 2 bytes.
///
/// - Parameters:
///   - values: The channel values in scan order.
///   - timestampNs: The scan timestamp in nanoseconds, or `nil`.
/// - Returns: The scan's bytes.
public func scanBytes(_ values: [Int16], timestampNs: Int64?) -> [UInt8] {
  var out: [UInt8] = []
  for v in values { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
  if let t = timestampNs {
    while out.count % 8 != 0 { out.append(0) }
    withUnsafeBytes(of: t.littleEndian) { out += $0 }
  } else {
    while out.count % 2 != 0 { out.append(0) }
  }
  return out
}

/// Plays the kernel on a fake character device, writing its bytes in chunks: the chunked form
/// of ``PiecewiseFIFOWriter``, made by its `init(path:bytes:chunk:holdOpen:drainBeforeClose:)`.
public typealias FIFOWriter = PiecewiseFIFOWriter

/// A test gave up waiting (see ``withDeadline(_:_:)``).
public struct TimedOut: Error, CustomStringConvertible {
  /// Creates the error.
  public init() {}

  /// "timed out".
  public var description: String { "timed out" }
}

/// Runs `body`, failing with ``TimedOut`` if it takes longer than `seconds` (a guard against
/// hangs; passing tests finish long before, so this never measures speed).
///
/// - Parameters:
///   - seconds: The most wall-clock seconds to wait.
///   - body: The work.
/// - Returns: What `body` returned.
/// - Throws: What `body` threw, or ``TimedOut``.
public func withDeadline<T: Sendable>(
  _ seconds: Double = 90, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(for: .seconds(seconds))
      return nil
    }
    defer { group.cancelAll() }
    guard let first = try await group.next(), let value = first else { throw TimedOut() }
    return value
  }
}
