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

  subscript(type: IIOChannelType) -> Vector3? {
    get {
      switch type {
      case .accel: accel
      case .anglvel: gyro
      case .magn: magn
      }
    }
    set {
      switch type {
      case .accel: accel = newValue
      case .anglvel: gyro = newValue
      case .magn: magn = newValue
      }
    }
  }
}

/// Streams one IIO device's buffer (`/dev/iio:deviceN`) on its own thread into an event queue.
///
/// Set-up (kernel `Documentation/iio/iio_devbuf.rst` and the sysfs ABI): the buffer is disabled,
/// the wanted `scan_elements/*_en` are set to 1, `length` is written, then `enable`. The scan
/// layout is computed from **every** enabled channel, including ones Swell does not use, so a
/// channel left enabled by another program does not shift the offsets.
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

  private init(
    device: IIODevice, types: [IIOChannelType], layout: IIOScanLayout, characterDevice: String,
    fd: Int32, sysfs: IIOSysfs, clock: MonotonicClock
  ) {
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
    do throws(IIOError) {
      let buffer = device.path + "/" + bufferDir
      let scan = device.path + "/scan_elements/"
      try sysfs.writeAttribute("0", to: buffer + "/enable")
      for type in types {
        for c in device.channels(of: type) {
          try sysfs.writeAttribute("1", to: scan + c.name + "_en")
        }
      }
      if device.timestamp != nil { try sysfs.writeAttribute("1", to: scan + "in_timestamp_en") }
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
      try sysfs.writeAttribute("1", to: buffer + "/enable")
      let stream = IIOBufferStream(
        device: device, types: types, layout: layout, characterDevice: charDev, fd: fd,
        sysfs: sysfs, clock: clock)
      let thread = Thread { stream.run(queue: queue) }
      thread.name = "swell.iio.\(device.id)"
      thread.start()
      return stream
    } catch {
      sysfs.system.close(fd)
      throw error
    }
  }

  /// Asks the reader thread to stop (it exits within about 100 ms) and disables the buffer.
  func stop() {
    guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
    if let dir = device.bufferDirectory {
      try? sysfs.writeAttribute("0", to: device.path + "/" + dir + "/enable")
    }
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
    let period = device.samplingFrequency.map { 1 / $0 } ?? 0
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
