import Foundation
import Glibc
import SwellGeometry
import SwellTime
import Synchronization

/// What one buffered scan or one poll delivered: whichever vectors its channels carry, converted
/// to the device frame and IMUSample units (m/s², rad/s, µT).
struct IIOReading: Sendable, Hashable {
  /// The scan's `in_timestamp` in nanoseconds, when the scan has one.
  var timestampNanoseconds: Int64?
  /// For a scan without `in_timestamp`: when it was read, seconds on the source's clock (scans
  /// read together are spread over the sampling period, see ``IIOBufferStream``).
  var clockTime: Double?
  /// Specific force, m/s², device frame.
  var accel: Vector3?
  /// Angular velocity, rad/s, device frame.
  var gyro: Vector3?
  /// Magnetic field, µT, device frame.
  var magn: Vector3?
  /// Angular displacement since the previous sample, rad, device frame (`in_deltaangl_*`).
  var deltaAngle: Vector3?
  /// Velocity change since the previous sample, m/s, device frame (`in_deltavelocity_*`).
  var deltaVelocity: Vector3?
  /// The interval the deltas cover, seconds: one period of the device's sampling frequency, when
  /// it reports one (`nil` otherwise: the source then takes the time since the previous scan).
  var deltaInterval: Double?

  subscript(type: IIOChannelType) -> Vector3? {
    get {
      switch type {
      case .accel: accel
      case .anglvel: gyro
      case .magn: magn
      case .deltaAngle: deltaAngle
      case .deltaVelocity: deltaVelocity
      }
    }
    set {
      switch type {
      case .accel: accel = newValue
      case .anglvel: gyro = newValue
      case .magn: magn = newValue
      case .deltaAngle: deltaAngle = newValue
      case .deltaVelocity: deltaVelocity = newValue
      }
    }
  }
}

/// A device's buffer set-up as an ``IIOBufferStream`` found it, to be put back when it stops.
struct IIOScanMask: Sendable {
  /// Every `scan_elements/*_en` file with its value (`0` or `1`), in listing order.
  var enables: [(file: String, value: String)]
  /// The `buffer/length` text, when readable.
  var length: String?
  /// Whether `buffer/enable` read 1.
  var bufferEnabled: Bool
}

/// Streams one IIO device's buffer (`/dev/iio:deviceN`) on its own thread into an event queue.
///
/// Set-up (kernel `Documentation/iio/iio_devbuf.rst` and the sysfs ABI): the scan mask, length
/// and buffer state are read and remembered; the buffer is disabled; the wanted
/// `scan_elements/*_en` are set to 1 and **every other one to 0** (another program's channels
/// would change the layout, and drivers such as adis16475 refuse some mixes); `length` is
/// written, then `enable`. A driver's -EINVAL for the mask (on an `_en` or on `enable`) is one
/// error naming the channels. The scan layout is computed from every channel that reads back
/// enabled, so a channel a driver keeps on does not shift the offsets. ``stop()`` disables the
/// buffer and writes back what was found.
///
/// Reads may end anywhere, also in the middle of a scan: the bytes of an unfinished scan are
/// kept and completed by the next read.
///
/// **Scans without a timestamp** (a device with no `in_timestamp` channel, e.g. adxl345) are
/// stamped on the source's clock when they are read. A read that returns k scans at time T
/// stamps them T − (k − 1)·p, …, T − p, T, with p one period of the device's sampling frequency
/// (0 when it reports none): a batch the kernel buffered is spread back over the time it took,
/// not piled on one instant. A stamp is never earlier than 1 µs after the previous one.
final class IIOBufferStream: Sendable {
  let device: IIODevice
  let types: [IIOChannelType]
  let layout: IIOScanLayout
  let characterDevice: String
  private let fd: Int32
  private let sysfs: IIOSysfs
  private let clock: MonotonicClock
  private let stopRequested = Atomic<Bool>(false)
  /// The scan mask, length and buffer state found before the stream set its own.
  let found: IIOScanMask
  /// The `_en` files the stream set to 1 (every other one it set to 0).
  let wanted: Set<String>

  private init(
    device: IIODevice, types: [IIOChannelType], layout: IIOScanLayout, characterDevice: String,
    fd: Int32, sysfs: IIOSysfs, clock: MonotonicClock, found: IIOScanMask, wanted: Set<String>
  ) {
    self.found = found
    self.wanted = wanted
    self.device = device
    self.types = types
    self.layout = layout
    self.characterDevice = characterDevice
    self.fd = fd
    self.sysfs = sysfs
    self.clock = clock
  }

  /// Configures the device's buffer, opens its character device and starts the reader thread.
  ///
  /// - Parameters:
  ///   - device: The device.
  ///   - types: The channel types to stream (each must be bufferable).
  ///   - devRoot: The folder holding `iio:deviceN` (normally `/dev`).
  ///   - bufferLength: Scans the kernel buffer holds.
  ///   - sysfs: The sysfs reader.
  ///   - clock: The clock scans without a timestamp are stamped on.
  ///   - queue: Where readings and failures go.
  /// - Returns: The running stream.
  /// - Throws: ``IIOError`` naming the file that could not be opened or written.
  static func start(
    device: IIODevice, types: [IIOChannelType], devRoot: String, bufferLength: Int,
    sysfs: IIOSysfs, clock: MonotonicClock, queue: EventQueue<IIOReading>
  ) throws(IIOError) -> IIOBufferStream {
    guard let bufferDir = device.bufferDirectory else {
      throw IIOError("\(device.path): no buffer directory", path: device.path, code: ENOENT)
    }
    let charDev = devRoot + "/" + device.id
    let (fd, err) = sysfs.system.open(charDev, O_RDONLY | O_NONBLOCK)
    if fd < 0 { throw IIOError.system("cannot open", path: charDev, code: err) }
    let buffer = device.path + "/" + bufferDir
    let scan = device.path + "/scan_elements/"
    var found = IIOScanMask(enables: [], length: nil, bufferEnabled: false)
    do throws(IIOError) {
      // Remember the mask as found, to put it back when the stream stops.
      for file in sysfs.list(device.path + "/scan_elements") ?? [] where file.hasSuffix("_en") {
        if let value = try sysfs.readAttribute(scan + file) { found.enables.append((file, value)) }
      }
      found.length = try sysfs.readAttribute(buffer + "/length")
      found.bufferEnabled = try sysfs.readAttribute(buffer + "/enable") == "1"
    } catch {
      sysfs.system.close(fd)
      throw error
    }
    var wanted: Set<String> = []
    for type in types {
      for c in device.channels(of: type) { wanted.insert(c.name + "_en") }
    }
    if device.timestamp != nil { wanted.insert("in_timestamp_en") }
    do throws(IIOError) {
      try sysfs.writeAttribute("0", to: buffer + "/enable")
      // Exactly the channels read (and the timestamp) are enabled, every other one turned off:
      // a channel left enabled by someone else changes the layout, and a driver may refuse the
      // mix (`adis16475_update_scan_mode` returns -EINVAL for gyroscope/accelerometer together
      // with delta channels). The rest of the mask is only written where it differs.
      for (file, value) in found.enables {
        let want = wanted.contains(file) ? "1" : "0"
        guard value != want else { continue }
        do {
          try sysfs.writeAttribute(want, to: scan + file)
        } catch  where error.code == EINVAL {
          throw refused(device, channels: wanted.sorted(), file: scan + file, value: want)
        }
      }
      var enabled: [(name: String, index: Int, type: IIOScanType)] = []
      for file in sysfs.list(device.path + "/scan_elements") ?? [] where file.hasSuffix("_en") {
        guard try sysfs.readAttribute(scan + file) == "1" else { continue }
        let base = String(file.dropLast(3))
        // The type file is per channel in the kernel ABI; a shared `in_<type>_type` is
        // accepted too, as discovery does.
        let shared = base.split(separator: "_").count == 3 ? String(base.dropLast(2)) : base
        guard let index = try sysfs.readScanIndex(scan + base + "_index"),
          let typeText = try sysfs.firstAttribute(scan + base + "_type", scan + shared + "_type")
        else { continue }
        do {
          enabled.append((base, index, try IIOScanType(parsing: typeText)))
        } catch {
          throw IIOError("\(scan)\(base)_type: \(error.message)", path: scan + base + "_type")
        }
      }
      let layout = IIOScanLayout(channels: enabled)
      guard layout.scanBytes > 0 else {
        throw IIOError("\(scan): no channel is enabled", path: scan)
      }
      try sysfs.writeAttribute(String(max(2, bufferLength)), to: buffer + "/length")
      // Without a trigger most drivers deliver no scans: pick the device's own data-ready
      // trigger (named `<name>-dev<N>`) when none is set.
      if let current = try? sysfs.readAttribute(device.path + "/trigger/current_trigger"),
        current.isEmpty, let n = device.number
      {
        for entry in sysfs.list(sysfs.root) ?? [] where entry.hasPrefix("trigger") {
          if (try? sysfs.readAttribute(sysfs.root + "/" + entry + "/name"))
            == "\(device.name)-dev\(n)"
          {
            try? sysfs.writeAttribute(
              "\(device.name)-dev\(n)", to: device.path + "/trigger/current_trigger")
          }
        }
      }
      try? sysfs.writeAttribute("monotonic", to: device.path + "/current_timestamp_clock")
      do {
        try sysfs.writeAttribute("1", to: buffer + "/enable")
      } catch  where error.code == EINVAL {
        // The IIO core hands the mask to the driver's `update_scan_mode` when the buffer is
        // enabled; its -EINVAL ends the write.
        throw refused(
          device, channels: layout.elements.map { $0.name + "_en" }, file: buffer + "/enable",
          value: "1")
      }
      let stream = IIOBufferStream(
        device: device, types: types, layout: layout, characterDevice: charDev, fd: fd,
        sysfs: sysfs, clock: clock, found: found, wanted: wanted)
      let thread = Thread { stream.run(queue: queue) }
      thread.name = "swell.iio.\(device.id)"
      thread.start()
      return stream
    } catch {
      restore(found, wanted: wanted, device: device, sysfs: sysfs)
      sysfs.system.close(fd)
      throw error
    }
  }

  /// The error for a channel set the driver refused: one line naming the channels.
  private static func refused(
    _ device: IIODevice, channels: [String], file: String, value: String
  ) -> IIOError {
    let names = channels.map { String($0.dropLast(3)) }.joined(separator: ", ")
    return IIOError(
      "\(device.id) (\(device.name)) refused the channel set \(names): writing \(value) to "
        + "\(file) failed (Invalid argument); its driver buffers only some combinations of "
        + "channels", path: file, code: EINVAL)
  }

  /// Puts the scan mask, buffer length and buffer state back as they were found (best effort:
  /// a device that is gone is left alone). The buffer is disabled first, as the kernel needs
  /// for changing the mask.
  private static func restore(
    _ found: IIOScanMask, wanted: Set<String>, device: IIODevice, sysfs: IIOSysfs
  ) {
    guard let dir = device.bufferDirectory else { return }
    let buffer = device.path + "/" + dir
    let scan = device.path + "/scan_elements/"
    try? sysfs.writeAttribute("0", to: buffer + "/enable")
    for (file, value) in found.enables where value != (wanted.contains(file) ? "1" : "0") {
      try? sysfs.writeAttribute(value, to: scan + file)
    }
    if let length = found.length {
      try? sysfs.writeAttribute(length, to: buffer + "/length")
    }
    if found.bufferEnabled { try? sysfs.writeAttribute("1", to: buffer + "/enable") }
  }

  /// Asks the reader thread to stop (it exits within about 100 ms), disables the buffer and puts
  /// back the scan mask, buffer length and buffer state found when the stream started.
  func stop() {
    guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
    IIOBufferStream.restore(
      found, wanted: wanted, device: device, sysfs: sysfs)
  }

  /// Decodes one scan into a reading.
  ///
  /// - Parameter scan: Exactly ``IIOScanLayout/scanBytes`` bytes.
  /// - Returns: The converted vectors and the timestamp.
  func decode(_ scan: UnsafeRawBufferPointer) -> IIOReading {
    IIOBufferStream.decode(scan, layout: layout, device: device, types: types)
  }

  static func decode(
    _ scan: UnsafeRawBufferPointer, layout: IIOScanLayout, device: IIODevice,
    types: [IIOChannelType]
  ) -> IIOReading {
    var reading = IIOReading()
    for type in types {
      var v = [0.0, 0.0, 0.0]
      for c in device.channels(of: type) {
        guard let e = layout.element(named: c.name) else { continue }
        v[c.axis] = c.convert(e.type.decode(scan, at: e.offset))
      }
      let m = device.mountMatrices[type] ?? .identity
      reading[type] = (m * Vector3(v[0], v[1], v[2])) * type.siFactor
    }
    if let t = layout.element(named: "in_timestamp") {
      reading.timestampNanoseconds = t.type.decodeInteger(scan, at: t.offset)
    }
    return reading
  }

  private func run(queue: EventQueue<IIOReading>) {
    let system = sysfs.system
    defer { system.close(fd) }
    let scanBytes = layout.scanBytes
    var chunk = [UInt8](repeating: 0, count: max(scanBytes * 64, 4096))
    var pending: [UInt8] = []
    let stampsOnClock = layout.element(named: "in_timestamp") == nil
    let period = device.samplingFrequency.flatMap { $0 > 0 ? 1 / $0 : nil } ?? 0
    var lastStamp = -Double.infinity
    func gone(_ why: String, code: Int32) {
      queue.push(
        .failure(
          IIOError(
            "\(characterDevice): \(why) (the device is gone)", path: characterDevice, code: code)))
    }
    while !stopRequested.load(ordering: .acquiring) {
      let (events, perr) = system.pollInput(fd, 100)
      if events < 0 {
        if perr == EINTR { continue }
        queue.push(.failure(IIOError.system("cannot poll", path: characterDevice, code: perr)))
        return
      }
      if events == 0 { continue }
      if events & Int16(POLLIN) != 0 {
        let (n, rerr) = chunk.withUnsafeMutableBytes { system.read(fd, $0) }
        if n < 0 {
          if rerr == EAGAIN || rerr == EWOULDBLOCK { continue }
          if stopRequested.load(ordering: .acquiring) { return }
          queue.push(.failure(IIOError.system("cannot read", path: characterDevice, code: rerr)))
          return
        }
        if n == 0 {
          if !stopRequested.load(ordering: .acquiring) { gone("end of stream", code: ENODEV) }
          return
        }
        pending += chunk[0..<n]
        let complete = pending.count / scanBytes
        let readAt = stampsOnClock ? clock.now() : 0
        for k in 0..<complete {
          let used = k * scanBytes
          var reading = pending.withUnsafeBytes { raw in
            decode(UnsafeRawBufferPointer(rebasing: raw[used..<(used + scanBytes)]))
          }
          if stampsOnClock {
            let t = max(readAt - Double(complete - 1 - k) * period, lastStamp + 1e-6)
            reading.clockTime = t
            lastStamp = t
          }
          if period > 0 && (reading.deltaAngle != nil || reading.deltaVelocity != nil) {
            reading.deltaInterval = period
          }
          queue.push(.success(reading))
        }
        pending.removeFirst(complete * scanBytes)
        continue
      }
      if !stopRequested.load(ordering: .acquiring) { gone("hung up", code: ENODEV) }
      return
    }
  }
}
