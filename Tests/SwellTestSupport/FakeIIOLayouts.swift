import Foundation
import Glibc

/// One channel of a fake IIO device, as its sysfs files spell it.
public struct FakeIIOChannel: Sendable {
  /// The base name, e.g. `in_accel_x`, `in_temp0` or `in_timestamp`.
  public var name: String
  /// `scan_elements/<name>_index`.
  public var index: Int
  /// `scan_elements/<name>_type`, e.g. `be:s32/32>>0`.
  public var type: String
  /// The initial `scan_elements/<name>_en` (another program may have left a channel enabled).
  public var enabled: Bool
  /// The `_raw` file's value, or `nil` for no `_raw` file (timestamps have none).
  public var raw: Int?

  /// Creates a channel.
  ///
  /// - Parameters:
  ///   - name: The base name.
  ///   - index: The scan index.
  ///   - type: The scan type text.
  ///   - enabled: The initial `_en` value.
  ///   - raw: The `_raw` value, or `nil`.
  public init(_ name: String, index: Int, type: String, enabled: Bool = false, raw: Int? = 0) {
    self.name = name
    self.index = index
    self.type = type
    self.enabled = enabled
    self.raw = name == "in_timestamp" ? nil : raw
  }
}

extension FakeIIOTree {
  /// Adds a device with the channels given (any names, indices and scan types), the attribute
  /// files given, a buffer folder and a FIFO as its character device.
  ///
  /// - Parameters:
  ///   - number: N of `iio:deviceN`.
  ///   - name: The chip name.
  ///   - channels: The channels.
  ///   - attributes: Further files below the device folder, e.g. `in_accel_scale`.
  ///   - bufferDir: `buffer` or `buffer0`.
  /// - Returns: The device folder name.
  /// - Throws: A file-system error.
  @discardableResult
  public func addDevice(
    _ number: Int, name: String, channels: [FakeIIOChannel], attributes: [String: String],
    bufferDir: String = "buffer"
  ) throws -> String {
    let id = "iio:device\(number)"
    try write("\(id)/name", name)
    for c in channels {
      if let raw = c.raw { try write("\(id)/\(c.name)_raw", String(raw)) }
      try write("\(id)/scan_elements/\(c.name)_en", c.enabled ? "1" : "0")
      try write("\(id)/scan_elements/\(c.name)_index", String(c.index))
      try write("\(id)/scan_elements/\(c.name)_type", c.type)
    }
    for (file, text) in attributes { try write("\(id)/\(file)", text) }
    try write("\(id)/\(bufferDir)/enable", "0")
    try write("\(id)/\(bufferDir)/length", "0")
    guard mkfifo(dev + "/" + id, 0o600) == 0 else { throw POSIXError(.EIO) }
    return id
  }

  /// The adis16475 driver's adis16470 as `iio:device0`, its channels as the driver's
  /// `adis16475_channels[]` declares them (`drivers/iio/imu/adis16475.c`): gyroscope x/y/z at
  /// scan indices 0...2 and accelerometer x/y/z at 3...5 as `be:s32/32>>0`
  /// (`ADIS16475_GYRO_CHANNEL`, `ADIS16475_ACCEL_CHANNEL`), the temperature `in_temp0` at 6 as
  /// `be:s16/16>>0` (`ADIS16475_TEMP_CHANNEL`, left enabled), the soft timestamp at 7
  /// (`IIO_CHAN_SOFT_TIMESTAMP(7)`); the delta-angle and delta-velocity channels have `_raw`
  /// files only (`ADIS16475_DELTANG_CHAN_NO_SCAN`: scan index -1, not buffered). Scales as the
  /// kernel prints them (`iio_format_value`, nine decimals) from the adis16470 chip info:
  /// anglvel 1/`IIO_RAD_TO_DEGREE(10 << 16)` = `0.000000026` rad/s, accel
  /// 1/`IIO_M_S_2_TO_G(800 << 16)` = `0.000000187` m/s², deltaangl
  /// `IIO_DEGREE_TO_RAD(2160)` / 2^31 = `0.000000017` rad, deltavelocity 400 / 2^31 =
  /// `0.000000186` m/s; 2000 Hz. A scan: six words at 0...20, the temperature at 24, padding,
  /// the timestamp at 32: 40 bytes.
  public func addADIS16475() throws {
    var channels: [FakeIIOChannel] = []
    for (i, a) in ["x", "y", "z"].enumerated() {
      channels.append(FakeIIOChannel("in_anglvel_\(a)", index: i, type: "be:s32/32>>0"))
    }
    for (i, a) in ["x", "y", "z"].enumerated() {
      channels.append(FakeIIOChannel("in_accel_\(a)", index: 3 + i, type: "be:s32/32>>0"))
    }
    channels.append(FakeIIOChannel("in_temp0", index: 6, type: "be:s16/16>>0", enabled: true))
    channels.append(FakeIIOChannel("in_timestamp", index: 7, type: "le:s64/64>>0"))
    var attributes = [
      "in_anglvel_scale": "0.000000026", "in_accel_scale": "0.000000187",
      "in_deltaangl_scale": "0.000000017", "in_deltavelocity_scale": "0.000000186",
      "in_temp0_scale": "100", "sampling_frequency": "2000.000000",
    ]
    for a in ["x", "y", "z"] {
      attributes["in_deltaangl_\(a)_raw"] = "0"
      attributes["in_deltavelocity_\(a)_raw"] = "0"
    }
    try addDevice(0, name: "adis16470", channels: channels, attributes: attributes)
  }

  /// The adis16475 driver's adis16505-2 as `iio:device0`, a part that buffers its delta
  /// channels (`ADIS16475_HAS_BURST_DELTA_DATA`), with the channels of `adis16477_channels[]`
  /// (`drivers/iio/imu/adis16475.c`): gyroscope x/y/z at 0...2, accelerometer x/y/z at 3...5,
  /// `in_temp0` at 6 (`be:s16/16>>0`), delta angle x/y/z at 7...9 and delta velocity x/y/z at
  /// 10...12 (`ADIS16475_DELTANG_CHAN`, `ADIS16475_DELTVEL_CHAN`), all but the temperature
  /// `be:s32/32>>0`, the timestamp at 13. Scales as the kernel prints them from the chip info:
  /// anglvel 1/`IIO_RAD_TO_DEGREE(40 << 16)` = `0.000000006` rad/s, accel 78/(32000 << 16) =
  /// `0.000000037` m/s² (both as in `Documentation/iio/adis16475.rst`'s adis16505-2 example),
  /// deltaangl `IIO_DEGREE_TO_RAD(720)` / 2^31 = 13 / 2^31 = `0.000000006` rad, deltavelocity
  /// 100 / 2^31 = `0.000000046` m/s; 2000 Hz.
  ///
  /// The driver refuses a mask with both gyroscope/accelerometer and delta channels
  /// (`adis16475_update_scan_mode` returns -EINVAL when the buffer is enabled); a file tree
  /// cannot refuse a write, so tests that need the refusal add it through the system-call seam.
  ///
  /// - Parameters:
  ///   - enabled: The channels whose `_en` starts at 1; by default what the kernel
  ///     documentation's buffer example leaves enabled: `in_deltavelocity_x/y/z` and `in_temp0`.
  ///   - samplingFrequency: The `sampling_frequency` text, or `nil` for none.
  /// - Throws: A file-system error.
  public func addADIS16505(
    enabled: Set<String> = [
      "in_deltavelocity_x", "in_deltavelocity_y", "in_deltavelocity_z", "in_temp0",
    ], samplingFrequency: String? = "2000.000000"
  ) throws {
    var channels: [FakeIIOChannel] = []
    let groups: [(String, Int)] = [
      ("anglvel", 0), ("accel", 3), ("deltaangl", 7), ("deltavelocity", 10),
    ]
    for (type, first) in groups {
      for (i, a) in ["x", "y", "z"].enumerated() {
        let name = "in_\(type)_\(a)"
        channels.append(
          FakeIIOChannel(
            name, index: first + i, type: "be:s32/32>>0", enabled: enabled.contains(name)))
      }
    }
    channels.append(
      FakeIIOChannel(
        "in_temp0", index: 6, type: "be:s16/16>>0", enabled: enabled.contains("in_temp0")))
    channels.append(
      FakeIIOChannel(
        "in_timestamp", index: 13, type: "le:s64/64>>0",
        enabled: enabled.contains("in_timestamp")))
    var attributes = [
      "in_anglvel_scale": "0.000000006", "in_accel_scale": "0.000000037",
      "in_deltaangl_scale": "0.000000006", "in_deltavelocity_scale": "0.000000046",
      "in_temp0_scale": "100",
    ]
    if let samplingFrequency { attributes["sampling_frequency"] = samplingFrequency }
    try addDevice(0, name: "adis16505-2", channels: channels, attributes: attributes)
  }

  /// st_accel's LNG2DM as `iio:device0`: accelerometer x/y/z as `le:s8/8>>0` (indices 0...2),
  /// a `le:s64/64>>0` timestamp at 3, scale `0.152983` m/s² per count (15.6 mg). A scan: three
  /// bytes, padding to 8, the timestamp: 16 bytes.
  public func addLNG2DM() throws {
    var channels: [FakeIIOChannel] = []
    for (i, a) in ["x", "y", "z"].enumerated() {
      channels.append(FakeIIOChannel("in_accel_\(a)", index: i, type: "le:s8/8>>0"))
    }
    channels.append(FakeIIOChannel("in_timestamp", index: 3, type: "le:s64/64>>0"))
    try addDevice(
      0, name: "lng2dm", channels: channels,
      attributes: ["in_accel_scale": "0.152983", "sampling_frequency": "100"])
  }

  /// adxl345 as `iio:device0`: accelerometer x/y/z as `le:s13/16>>0` (indices 0...2), no
  /// timestamp, `buffer0/` only, scale `0.038300` m/s² per count, 100 Hz. A scan: 6 bytes.
  public func addADXL345() throws {
    var channels: [FakeIIOChannel] = []
    for (i, a) in ["x", "y", "z"].enumerated() {
      channels.append(FakeIIOChannel("in_accel_\(a)", index: i, type: "le:s13/16>>0"))
    }
    try addDevice(
      0, name: "adxl345", channels: channels,
      attributes: ["in_accel_scale": "0.038300", "sampling_frequency": "100.000000"],
      bufferDir: "buffer0")
  }

  /// A Nexus 5's sensors: mpu6515 as `iio:device0` (accelerometer x/y/z at scan indices 0...2
  /// and gyroscope at 4...6 as `be:s16/16>>0`, the temperature at 3 not buffered, a timestamp
  /// at 7; scales `0.000598` m/s² and `0.001064724` rad/s) and ak8963 as `iio:device1`
  /// (magnetometer x/y/z as `le:s16/16>>0` at 0...2, a timestamp at 3, a scale for each axis:
  /// `in_magn_x_scale` `0.001763672`, `_y_` `0.001769531`, `_z_` `0.001693359` Gauss).
  public func addNexus5() throws {
    var mpu: [FakeIIOChannel] = []
    for (i, a) in ["x", "y", "z"].enumerated() {
      mpu.append(FakeIIOChannel("in_accel_\(a)", index: i, type: "be:s16/16>>0"))
      mpu.append(FakeIIOChannel("in_anglvel_\(a)", index: 4 + i, type: "be:s16/16>>0"))
    }
    mpu.append(FakeIIOChannel("in_timestamp", index: 7, type: "le:s64/64>>0"))
    try addDevice(
      0, name: "mpu6515", channels: mpu,
      attributes: [
        "in_accel_scale": "0.000598", "in_anglvel_scale": "0.001064724", "in_temp_raw": "1200",
        "sampling_frequency": "200",
      ])
    var ak: [FakeIIOChannel] = []
    for (i, a) in ["x", "y", "z"].enumerated() {
      ak.append(FakeIIOChannel("in_magn_\(a)", index: i, type: "le:s16/16>>0"))
    }
    ak.append(FakeIIOChannel("in_timestamp", index: 3, type: "le:s64/64>>0"))
    try addDevice(
      1, name: "ak8963", channels: ak,
      attributes: [
        "in_magn_x_scale": "0.001763672", "in_magn_y_scale": "0.001769531",
        "in_magn_z_scale": "0.001693359",
      ])
  }

  /// mpu9250 as `iio:device0`: accelerometer (0...2), gyroscope (4...6) and magnetometer
  /// (7...9) x/y/z as `be:s16/16>>0`, a timestamp at 10; the magnetometer's per-axis scales
  /// `0.001500000` Gauss and the mount matrix the driver publishes for the AK8963 inside the
  /// package, `in_magn_mount_matrix` = `0, 1, 0; 1, 0, 0; 0, 0, -1` (x and y swapped, z
  /// reversed).
  ///
  /// - Parameter magnetometerMatrix: The `in_magn_mount_matrix` text.
  /// - Throws: A file-system error.
  public func addMPU9250(magnetometerMatrix: String = "0, 1, 0; 1, 0, 0; 0, 0, -1") throws {
    var channels: [FakeIIOChannel] = []
    for (i, a) in ["x", "y", "z"].enumerated() {
      channels.append(FakeIIOChannel("in_accel_\(a)", index: i, type: "be:s16/16>>0"))
      channels.append(FakeIIOChannel("in_anglvel_\(a)", index: 4 + i, type: "be:s16/16>>0"))
      channels.append(FakeIIOChannel("in_magn_\(a)", index: 7 + i, type: "be:s16/16>>0"))
    }
    channels.append(FakeIIOChannel("in_timestamp", index: 10, type: "le:s64/64>>0"))
    try addDevice(
      0, name: "mpu9250", channels: channels,
      attributes: [
        "in_accel_scale": "0.000598", "in_anglvel_scale": "0.001064724",
        "in_magn_x_scale": "0.001500000", "in_magn_y_scale": "0.001500000",
        "in_magn_z_scale": "0.001500000", "in_magn_mount_matrix": magnetometerMatrix,
        "in_accel_mount_matrix": "1, 0, 0; 0, 1, 0; 0, 0, 1", "sampling_frequency": "100",
      ])
  }

  /// A HID sensor hub's `accel_3d` as `iio:device0`: accelerometer channels in the scan order
  /// y, x, z (indices 0, 1, 2) stored as `le:s16/32>>0`, a timestamp at 3, scale `0.009806650`
  /// m/s² per count and offset 0. A scan: three 4-byte words, padding to 16, the timestamp:
  /// 24 bytes.
  public func addHIDAccel3D() throws {
    let channels = [
      FakeIIOChannel("in_accel_y", index: 0, type: "le:s16/32>>0"),
      FakeIIOChannel("in_accel_x", index: 1, type: "le:s16/32>>0"),
      FakeIIOChannel("in_accel_z", index: 2, type: "le:s16/32>>0"),
      FakeIIOChannel("in_timestamp", index: 3, type: "le:s64/64>>0"),
    ]
    try addDevice(
      0, name: "accel_3d", channels: channels,
      attributes: [
        "in_accel_scale": "0.009806650", "in_accel_offset": "0", "in_accel_hysteresis": "0",
        "in_accel_sampling_frequency": "100",
      ])
  }
}

/// Encodes one IIO scan from channel values, written independently of Swell's decoder from the
/// kernel's rules: channels in ascending scan index, each stored as its type says (`be`/`le`,
/// the value shifted left by `shift` and cut to `storagebits`), aligned to its storage size, the
/// scan padded to a multiple of its largest element.
///
/// - Parameter channels: Each channel's scan index, `_type` text and raw value (for a
///   timestamp: nanoseconds).
/// - Returns: The scan's bytes.
public func encodeScan(_ channels: [(index: Int, type: String, value: Int64)]) -> [UInt8] {
  var out: [UInt8] = []
  var largest = 1
  for c in channels.sorted(by: { $0.index < $1.index }) {
    let bigEndian = c.type.hasPrefix("be:")
    let afterSlash = c.type.split(separator: "/")[1]
    let storageBits = Int(afterSlash.prefix(while: \.isNumber)) ?? 8
    let shift = c.type.components(separatedBy: ">>").last.flatMap { Int($0) } ?? 0
    let size = storageBits / 8
    largest = max(largest, size)
    while out.count % size != 0 { out.append(0) }
    let word = UInt64(bitPattern: c.value << Int64(shift))
    var bytes: [UInt8] = (0..<size).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) }
    if bigEndian { bytes.reverse() }
    out += bytes
  }
  while out.count % largest != 0 { out.append(0) }
  return out
}

/// Plays the kernel on a fake character device: opens a FIFO for writing on another thread
/// (waiting up to 60 s for the reader) and writes it piece by piece, each piece one `write(2)`
/// (repeated only for what a short write left). Pieces either follow each other at once (the
/// chunked form, ``init(path:bytes:chunk:holdOpen:drainBeforeClose:)``), or each is written only
/// once the reader has taken every byte of the one before, so a read can be made to end in the
/// middle of a scan (``init(path:pieces:)``).
public final class PiecewiseFIFOWriter: Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let closeNow = DispatchSemaphore(value: 0)
  private let allDrained = DispatchSemaphore(value: 0)

  /// Starts a writer thread that writes each piece once the reader has taken the one before,
  /// and keeps the FIFO open until ``release()``.
  ///
  /// - Parameters:
  ///   - path: The FIFO.
  ///   - pieces: The bytes of each `write(2)`.
  public convenience init(path: String, pieces: [[UInt8]]) {
    self.init(path: path, pieces: pieces, drainsEachPiece: true, holdOpen: true, drainAtEnd: true)
  }

  /// Starts a writer thread that writes the bytes in chunks, one after the other, then closes
  /// the FIFO.
  ///
  /// - Parameters:
  ///   - path: The FIFO.
  ///   - bytes: What to write.
  ///   - chunk: The largest single `write(2)`, bytes.
  ///   - holdOpen: Keep the FIFO open after writing until ``release()``; ``waitDrained()``
  ///     returns once the reader has read every byte.
  ///   - drainBeforeClose: Without `holdOpen`, wait until the reader has read every byte
  ///     before closing (so the reader sees the data before the hang-up).
  public convenience init(
    path: String, bytes: [UInt8], chunk: Int = 48, holdOpen: Bool = false,
    drainBeforeClose: Bool = false
  ) {
    let chunk = max(1, chunk)
    let pieces = stride(from: 0, to: bytes.count, by: chunk).map {
      Array(bytes[$0..<min($0 + chunk, bytes.count)])
    }
    self.init(
      path: path, pieces: pieces, drainsEachPiece: false, holdOpen: holdOpen,
      drainAtEnd: holdOpen || drainBeforeClose)
  }

  /// Starts the writer thread.
  ///
  /// - Parameters:
  ///   - path: The FIFO.
  ///   - pieces: The bytes of each `write(2)`.
  ///   - drainsEachPiece: Wait until the reader has taken a piece before writing the next.
  ///   - holdOpen: Keep the FIFO open after writing until ``release()``.
  ///   - drainAtEnd: Wait until the reader has taken every byte, then let ``waitDrained()``
  ///     return (without it, ``waitDrained()`` returns only when no reader came, or after 30 s).
  private init(
    path: String, pieces: [[UInt8]], drainsEachPiece: Bool, holdOpen: Bool, drainAtEnd: Bool
  ) {
    let done = self.done
    let closeNow = self.closeNow
    let allDrained = self.allDrained
    let thread = Thread {
      defer { done.signal() }
      // The reader opens the FIFO from a task: on a loaded machine, with other tests' blocking
      // waits holding the few threads tasks share, that can take well over 10 s (a 10 s limit
      // failed a loaded run), so wait up to 60 s of wall-clock time.
      var fd: Int32 = -1
      let deadline = TestDeadline(seconds: 60)
      while !deadline.hasPassed {
        fd = open(path, O_WRONLY | O_NONBLOCK)
        if fd >= 0 || errno != ENXIO { break }
        usleep(1000)
      }
      guard fd >= 0 else {
        // No reader ever opened the FIFO: wake anyone waiting for the drain.
        allDrained.signal()
        return
      }
      _ = fcntl(fd, F_SETFL, 0)
      // Waits until the reader has taken every byte written (at most 10 s).
      func waitUntilDrained() {
        for _ in 0..<10_000 {
          var queued: Int32 = 0
          if ioctl(fd, UInt(FIONREAD), &queued) != 0 || queued == 0 { break }
          usleep(1000)
        }
      }
      writing: for piece in pieces {
        var offset = 0
        while offset < piece.count {
          let w = piece[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
          if w <= 0 { break writing }
          offset += w
        }
        if drainsEachPiece { waitUntilDrained() }
      }
      if drainAtEnd {
        waitUntilDrained()
        allDrained.signal()
      }
      if holdOpen { _ = closeNow.wait(timeout: .now() + 20) }
      close(fd)
    }
    thread.start()
  }

  /// Waits until the reader has taken every byte (only with `holdOpen` or `drainBeforeClose`
  /// for the chunked form), or no reader came, or 30 s passed: a test never hangs here; its
  /// later checks fail instead.
  public func waitDrained() { _ = allDrained.wait(timeout: .now() + 30) }

  /// ``waitDrained()`` from async code: the wait blocks a thread of its own, never one of the
  /// few threads Swift's tasks share (blocking those starves every other test running
  /// in parallel, such as the reader tasks the writer waits for).
  public func drained() async {
    await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
      let thread = Thread {
        self.waitDrained()
        c.resume()
      }
      thread.start()
    }
  }

  /// Lets a writer that holds the FIFO open close it.
  public func release() { closeNow.signal() }

  /// Waits until the writer has closed the FIFO.
  public func wait() { done.wait() }
}
