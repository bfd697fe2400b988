import Foundation
import Glibc

/// A fake `/sys/bus/iio/devices` tree and `/dev` folder in a temporary directory.
final class FakeIIOTree {
  let root: String
  var sysfs: String { root + "/sys" }
  var dev: String { root + "/dev" }

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/swell-iio-XXXXXX").utf8CString)
    guard let p = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    root = String(cString: p)
    try FileManager.default.createDirectory(
      atPath: root + "/sys", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: root + "/dev", withIntermediateDirectories: true)
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

  func remove(_ id: String) throws {
    try FileManager.default.removeItem(atPath: sysfs + "/" + id)
    try? FileManager.default.removeItem(atPath: dev + "/" + id)
  }

  /// Adds a device with x/y/z channels of the given types, all `le:s16/16>>0`, scan indices in
  /// type order, and a timestamp channel after them.
  @discardableResult
  func addDevice(
    _ number: Int, name: String, types: [String], raw: [String: Int] = [:],
    scales: [String: String] = [:], scanType: String = "le:s16/16>>0", timestamp: Bool = true,
    buffered: Bool = true, bufferDir: String = "buffer", samplingFrequency: String? = "100.000000"
  ) throws -> String {
    let id = "iio:device\(number)"
    try write("\(id)/name", name)
    if let f = samplingFrequency {
      try write("\(id)/sampling_frequency", f)
      try write("\(id)/sampling_frequency_available", "12.5 26 52 104 208 416")
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
}

/// Little-endian bytes of one scan: int16 values, padded, then an int64 timestamp aligned to 8.
func scanBytes(_ values: [Int16], timestampNs: Int64?) -> [UInt8] {
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

/// Plays the kernel: opens a FIFO for writing on another thread (waiting up to 10 s for the
/// reader), writes the bytes in chunks, then closes it.
final class FIFOWriter: Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let drained = DispatchSemaphore(value: 0)
  private let closeNow = DispatchSemaphore(value: 0)

  /// Starts the writer. With `holdOpen`, it keeps the FIFO open after writing (until
  /// ``release()``) and signals ``waitDrained()`` once the reader has read every byte.
  init(path: String, bytes: [UInt8], chunk: Int = 48, holdOpen: Bool = false) {
    let done = self.done
    let drained = self.drained
    let closeNow = self.closeNow
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
        let n = min(chunk, bytes.count - offset)
        let w = bytes[offset..<(offset + n)].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, n) }
        if w <= 0 { break }
        offset += w
      }
      if holdOpen {
        for _ in 0..<10_000 {
          var queued: Int32 = 0
          if ioctl(fd, UInt(FIONREAD), &queued) != 0 || queued == 0 { break }
          usleep(1000)
        }
        drained.signal()
        _ = closeNow.wait(timeout: .now() + 20)
      }
      close(fd)
    }
    thread.start()
  }

  /// Waits until the reader has taken every byte (only with `holdOpen`).
  func waitDrained() { drained.wait() }

  /// Lets a `holdOpen` writer close the FIFO.
  func release() { closeNow.signal() }

  /// Waits until the writer has closed the FIFO.
  func wait() { done.wait() }
}

struct TimedOut: Error, CustomStringConvertible {
  var description: String { "timed out" }
}

/// Runs `body`, failing with ``TimedOut`` if it takes longer than `seconds` (a guard against
/// hangs; passing tests finish long before).
func withDeadline<T: Sendable>(
  _ seconds: Double = 20, _ body: @escaping @Sendable () async throws -> T
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
