import Foundation
import Glibc

/// A fake IIO sysfs tree and `/dev` folder in a temporary directory, for the CLI tests.
final class SensorsFakeTree {
  let root: String
  var sysfs: String { root + "/sys" }
  var dev: String { root + "/dev" }

  init() throws {
    root = NSTemporaryDirectory() + "/swell-cli-iio-\(UInt64.random(in: 0...UInt64.max))"
    try FileManager.default.createDirectory(atPath: sysfs, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: dev, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  func write(_ relative: String, _ contents: String) throws {
    let path = sysfs + "/" + relative
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try (contents + "\n").write(toFile: path, atomically: false, encoding: .utf8)
  }

  func read(_ relative: String) throws -> String {
    try String(contentsOfFile: sysfs + "/" + relative, encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A bmi160-style device: accel and anglvel x/y/z (`le:s16/16>>0`), scan indices 0...5,
  /// timestamp at 6, a `buffer/` folder and a FIFO as its character device.
  func addBMI160(raw: [Int] = [0, 0, 16150, 0, 0, 0]) throws {
    let id = "iio:device0"
    try write("\(id)/name", "bmi160")
    try write("\(id)/sampling_frequency", "100.000000")
    try write("\(id)/sampling_frequency_available", "25 50 100 200")
    try write("\(id)/in_accel_scale", "0.000598")
    try write("\(id)/in_anglvel_scale", "0.001065")
    try write("\(id)/in_accel_mount_matrix", "0, 1, 0; -1, 0, 0; 0, 0, 1")
    var index = 0
    for t in ["accel", "anglvel"] {
      for a in ["x", "y", "z"] {
        try write("\(id)/in_\(t)_\(a)_raw", String(raw[index]))
        try write("\(id)/scan_elements/in_\(t)_\(a)_en", "0")
        try write("\(id)/scan_elements/in_\(t)_\(a)_index", String(index))
        try write("\(id)/scan_elements/in_\(t)_\(a)_type", "le:s16/16>>0")
        index += 1
      }
    }
    try write("\(id)/scan_elements/in_timestamp_en", "0")
    try write("\(id)/scan_elements/in_timestamp_index", "6")
    try write("\(id)/scan_elements/in_timestamp_type", "le:s64/64>>0")
    try write("\(id)/buffer/enable", "0")
    try write("\(id)/buffer/length", "0")
    guard mkfifo(dev + "/" + id, 0o600) == 0 else { throw POSIXError(.EIO) }
  }
}

/// Opens a FIFO for writing on another thread (waiting up to 10 s for the reader), writes the
/// bytes, then keeps it open until the reader has drained it and closes it.
final class SensorsFIFOWriter: Sendable {
  private let done = DispatchSemaphore(value: 0)

  init(path: String, bytes: [UInt8]) {
    let done = self.done
    let thread = Thread {
      defer { done.signal() }
      var fd: Int32 = -1
      for _ in 0..<10_000 {
        fd = open(path, O_WRONLY | O_NONBLOCK)
        if fd >= 0 || errno != ENXIO { break }
        usleep(1000)
      }
      guard fd >= 0 else { return }
      _ = fcntl(fd, F_SETFL, 0)
      var offset = 0
      while offset < bytes.count {
        let w = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if w <= 0 { break }
        offset += w
      }
      for _ in 0..<10_000 {
        var queued: Int32 = 0
        if ioctl(fd, UInt(FIONREAD), &queued) != 0 || queued == 0 { break }
        usleep(1000)
      }
      close(fd)
    }
    thread.start()
  }

  func wait() { done.wait() }
}
