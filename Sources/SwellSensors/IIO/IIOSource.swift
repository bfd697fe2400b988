import Glibc
import SwellGeometry
import SwellMotion
import SwellTime
import Synchronization

/// How an ``IIOSource`` reads its devices.
public enum IIOReadMode: String, Hashable, Sendable {
  /// Buffered reads from `/dev/iio:deviceN` when every device allows it, else polling.
  case automatic
  /// Buffered reads only; fail when the buffer cannot be used.
  case buffered
  /// Poll the sysfs `_raw` files on the source's clock.
  case polled
}

/// Which channels an ``IIOSource`` reads from a device that has both rate and delta channels
/// (the ADIS16475 family: `in_anglvel_*`/`in_accel_*` and `in_deltaangl_*`/`in_deltavelocity_*`).
public enum IIOChannelSelection: String, Hashable, Sendable, CaseIterable {
  /// Rates when the device has accelerometer channels, else its delta channels.
  case automatic
  /// The rate channels: `in_accel_*`, `in_anglvel_*` (and `in_magn_*`).
  case rates
  /// The delta channels: `in_deltavelocity_*`, `in_deltaangl_*` (and `in_magn_*`), turned into
  /// specific force and angular rate by dividing by the sample interval.
  case deltas
}

/// Options of an ``IIOSource``.
public struct IIOSourceConfiguration: Hashable, Sendable {
  /// The sysfs directory of `iio:deviceN` entries.
  public var sysfsRoot: String = IIOSysfs.defaultRoot
  /// The folder holding the character devices `iio:deviceN`.
  public var devRoot: String = "/dev"
  /// Which device to use: a chip name (`bmi160`), a name prefix shared by split devices
  /// (`lsm6dsm` for `lsm6dsm_accel` + `lsm6dsm_gyro`) or a directory name (`iio:device2`);
  /// `nil` picks the first accelerometer.
  public var deviceName: String?
  /// Buffered, polled, or buffered with a fallback to polling.
  public var mode: IIOReadMode = .automatic
  /// Rate or delta channels (see ``IIOChannelSelection``).
  public var channels: IIOChannelSelection = .automatic
  /// A sampling frequency to set on the devices, Hz (`nil` leaves it alone).
  public var samplingFrequency: Double?
  /// The polling rate, Hz; `nil` uses the device's sampling frequency, capped to 1...200 Hz
  /// (100 Hz when the device reports none).
  public var pollingRate: Double?
  /// Scans the kernel buffer holds (`buffer/length`).
  public var bufferLength: Int = 128
  /// How often a lost device is looked for, seconds on the source's clock.
  public var reconnectInterval: Double = 0.5
  /// In `.automatic` mode, how long to wait for the first buffered scan before falling back to
  /// polling (a device whose trigger is not set never delivers scans), seconds on the source's
  /// clock.
  public var firstScanTimeout: Double = 2

  /// Creates the default configuration.
  public init() {}
}

/// A live motion source over Linux Industrial I/O accelerometers, gyroscopes and magnetometers.
///
/// It combines one device with several channel types (bmi160 style) or separate accelerometer,
/// gyroscope and magnetometer devices (st_lsm6dsx style) into one stream of `IMUSample`s in
/// the **device frame** (after each type's mount matrix): m/s² specific force, rad/s, µT (IIO
/// magnetometers report Gauss; the source multiplies by 100).
///
/// Buffered mode emits one sample per gyroscope scan (accelerometer scan when there is no
/// gyroscope), holding the latest value of the other devices, timestamped with the scan's
/// `in_timestamp` in seconds. Polled mode reads the `_raw` files at the polling rate on the
/// source's clock and timestamps samples with that clock (`MonotonicClock.continuous` by
/// default: `CLOCK_MONOTONIC` seconds, the time base of `in_timestamp` once the source has set
/// `current_timestamp_clock` to `monotonic`). Buffered scans without an `in_timestamp` channel are
/// stamped with the clock when they are read: k scans read together at T are stamped
/// T − (k − 1)/f, …, T, with f the device's sampling frequency.
/// A device without a gyroscope yields samples with a zero gyroscope (see ``hasGyroscope``).
///
/// **Delta channels** (``IIOSourceConfiguration/channels``): a device's `in_deltaangl_*` (rad)
/// and `in_deltavelocity_*` (m/s) become rad/s and m/s² per scan, divided by one period of the
/// device's sampling frequency, or, when it reports none, by the time since the previous scan
/// (the first scan then gives no sample).
///
/// **The scan mask** is the source's while it reads: exactly its channels and the timestamp are
/// enabled, the others disabled, and ``stop()`` puts back what it found (see
/// the internal `IIOBufferStream`). A mask the driver refuses is one error line naming the channels.
///
/// **Unplugging.** When a device disappears (its sysfs directory vanishes, a read fails with
/// `ENODEV`, or its character device hangs up), ``next()`` throws a transient
/// `MotionSourceError`. The following call to ``next()`` then polls the sysfs root every
/// ``IIOSourceConfiguration/reconnectInterval`` seconds (on the source's clock) for a device with
/// the same name and channel types, which may come back under a new `iio:deviceN`, and resumes
/// once it is there. Cancel the calling task to stop waiting.
///
/// Calls to ``next()`` must not overlap.
public final class IIOSource: MotionSource {
  /// `iio:` followed by the device names, e.g. `iio:bmi160`.
  public let name: String
  /// True when one of the devices has magnetometer channels.
  public let hasMagnetometer: Bool
  /// True when one of the devices has gyroscope channels.
  public let hasGyroscope: Bool
  /// The devices in use, with the channel types each one supplies.
  public let parts: [(device: IIODevice, types: [IIOChannelType])]
  /// `iio:` and the chip names, then the gyroscope device's label (`#LABEL`) or parent device
  /// path (`@platform/soc/i2c-1/1-0068`), ``IIODevice/stableIdentity``: stable across runs and
  /// across the kernel numbering the device differently; `nil` without a gyroscope (no bias to
  /// save) or when the gyroscope device has neither a label nor a location below
  /// `/sys/devices`.
  public let deviceIdentity: String?

  private let core: Core
  private let status = StatusBox()

  private final class StatusBox: Sendable {
    struct Status {
      var activeMode: IIOReadMode?
      var fallbackReason: String?
    }
    let state = Mutex(Status())
  }

  /// Opens the source: discovers the devices and sets their sampling frequency. Reading starts
  /// with the first call to ``next()``.
  ///
  /// - Parameters:
  ///   - configuration: Where to look and how to read.
  ///   - clock: The clock for polling, timestamps of polled samples and reconnection.
  /// - Throws: ``IIOError`` when there is no matching accelerometer or a device is unreadable.
  public convenience init(
    configuration: IIOSourceConfiguration = IIOSourceConfiguration(),
    clock: MonotonicClock = .continuous
  ) throws(IIOError) {
    try self.init(
      configuration: configuration, clock: clock, sysfs: IIOSysfs(root: configuration.sysfsRoot))
  }

  init(configuration: IIOSourceConfiguration, clock: MonotonicClock, sysfs: IIOSysfs)
    throws(IIOError)
  {
    let devices = try sysfs.devices()
    var parts = try IIOSource.select(
      from: devices, named: configuration.deviceName, channels: configuration.channels,
      root: sysfs.root)
    if let hz = configuration.samplingFrequency {
      for i in parts.indices {
        try sysfs.setSamplingFrequency(hz, of: parts[i].device)
        parts[i].device = try sysfs.device(id: parts[i].device.id) ?? parts[i].device
      }
    }
    self.parts = parts
    let names = parts.map(\.device.name)
    name = "iio:" + names.joined(separator: "+")
    hasMagnetometer = parts.contains { $0.types.contains(.magn) }
    hasGyroscope = parts.contains { $0.types.contains(.anglvel) || $0.types.contains(.deltaAngle) }
    deviceIdentity = parts.first { $0.types.contains(.anglvel) || $0.types.contains(.deltaAngle) }
      .flatMap { part in
        var d = part.device
        d.name = names.joined(separator: "+")
        return d.stableIdentity
      }
    let status = self.status
    core = Core(
      configuration: configuration, clock: clock, sysfs: sysfs, parts: parts,
      hasGyroscope: hasGyroscope, hasMagnetometer: hasMagnetometer, name: name,
      report: { mode, reason in
        status.state.withLock {
          $0.activeMode = mode
          $0.fallbackReason = reason
        }
      })
  }

  /// The mode in use once reading started: `.buffered` or `.polled` (`nil` before).
  public var activeMode: IIOReadMode? { status.state.withLock { $0.activeMode } }

  /// Why buffered reads were not used in `.automatic` mode (e.g. a permission problem, with the
  /// fix), or `nil`.
  public var fallbackReason: String? { status.state.withLock { $0.fallbackReason } }

  /// `polling sysfs because buffered reads failed: REASON` once ``fallbackReason`` is known.
  public var fallbackNote: String? {
    fallbackReason.map { "polling sysfs because buffered reads failed: \($0)" }
  }

  /// Returns the next sample, waiting for it.
  ///
  /// - Returns: The next `.sample`; never `nil` (a live source does not end).
  /// - Throws: A transient `MotionSourceError` when a device disappeared (call again to wait
  ///   for its return), a permanent one for malformed data, or `CancellationError`.
  public func next() async throws -> MotionEvent? {
    try await core.next()
  }

  /// Stops the reader threads, disables the device buffers and restores the scan masks, buffer
  /// lengths and buffer states found when they were opened.
  public func stop() async {
    await core.stopStreams()
  }

  /// Picks the devices: the first (or named) accelerometer (or delta-velocity device), then a
  /// gyroscope (or delta-angle device) and a magnetometer from the same device, from a device
  /// whose name shares its prefix, or any device.
  ///
  /// With ``IIOChannelSelection/automatic`` an accelerometer anywhere is preferred and read as
  /// rates; a device with delta channels only is read through its deltas.
  static func select(
    from devices: [IIODevice], named wanted: String?,
    channels selection: IIOChannelSelection = .automatic, root: String
  ) throws(IIOError) -> [(device: IIODevice, types: [IIOChannelType])] {
    var pool = devices
    if let wanted {
      pool = devices.filter { $0.name == wanted || $0.id == wanted || $0.name.hasPrefix(wanted) }
      guard !pool.isEmpty else {
        let list = devices.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
        throw IIOError(
          "no IIO motion device named '\(wanted)' under \(root); found: "
            + (list.isEmpty ? "none" : list), path: root)
      }
    }
    // Automatic mode prefers an accelerometer anywhere to a delta-only device.
    let primaryTypes: [IIOChannelType] =
      switch selection {
      case .automatic: [.accel, .deltaVelocity]
      case .rates: [.accel]
      case .deltas: [.deltaVelocity]
      }
    guard
      let accel = primaryTypes.lazy.compactMap({ t in pool.first { $0.types.contains(t) } }).first
    else {
      if selection == .deltas {
        throw IIOError(
          "no IIO device with delta-velocity channels (in_deltavelocity_*) under \(root)"
            + (devices.isEmpty ? " (no motion devices at all)" : ""), path: root)
      }
      let deltaOnly = pool.first { $0.types.contains(.deltaVelocity) }
      throw IIOError(
        "no IIO accelerometer under \(root)"
          + (devices.isEmpty ? " (no motion devices at all)" : "")
          + (deltaOnly.map {
            " (\($0.id) \($0.name) has delta-velocity and delta-angle channels only: read its deltas)"
          } ?? ""), path: root)
    }
    let readsDeltas = selection == .deltas || !accel.types.contains(.accel)
    let wantedTypes: [IIOChannelType] =
      readsDeltas ? [.deltaVelocity, .deltaAngle, .magn] : [.accel, .anglvel, .magn]
    func stem(_ n: String) -> String {
      for s in ["_accel", "_gyro", "_magn", "_anglvel"] where n.hasSuffix(s) {
        return String(n.dropLast(s.count))
      }
      return n
    }
    func pick(_ type: IIOChannelType) -> IIODevice? {
      if accel.types.contains(type) { return accel }
      return pool.first { $0.types.contains(type) && stem($0.name) == stem(accel.name) }
        ?? pool.first { $0.types.contains(type) }
    }
    var parts: [(device: IIODevice, types: [IIOChannelType])] = []
    for type in wantedTypes {
      guard let d = pick(type) else { continue }
      if let i = parts.firstIndex(where: { $0.device.id == d.id }) {
        parts[i].types.append(type)
      } else {
        parts.append((d, [type]))
      }
    }
    return parts
  }
}

/// The driver of an ``IIOSource``: the I/O behind each ``IIOReaderMachine`` step, isolated in
/// an actor. The machine decides the phases; this actor opens and closes buffers, reads, polls,
/// waits on the source's clock and merges readings into samples.
private actor Core {
  private let configuration: IIOSourceConfiguration
  private let clock: MonotonicClock
  private let sysfs: IIOSysfs
  private var parts: [(device: IIODevice, types: [IIOChannelType])]
  private let hasGyroscope: Bool
  private let hasMagnetometer: Bool
  private let name: String
  private let report: @Sendable (IIOReadMode?, String?) -> Void
  private var machine: IIOReaderMachine
  private var streams: [IIOBufferStream] = []
  private var queue = EventQueue<IIOReading>()
  private var held = IIOReading()
  private var lastTimestamp = -Double.infinity
  /// When the last reading of each delta type came, seconds (for devices without a sampling
  /// frequency, whose deltas are divided by the time between scans).
  private var lastDeltaTime: [IIOChannelType: Double] = [:]

  init(
    configuration: IIOSourceConfiguration, clock: MonotonicClock, sysfs: IIOSysfs,
    parts: [(device: IIODevice, types: [IIOChannelType])], hasGyroscope: Bool,
    hasMagnetometer: Bool, name: String,
    report: @escaping @Sendable (IIOReadMode?, String?) -> Void
  ) {
    self.configuration = configuration
    self.clock = clock
    self.sysfs = sysfs
    self.parts = parts
    self.hasGyroscope = hasGyroscope
    self.hasMagnetometer = hasMagnetometer
    self.name = name
    self.report = report
    let deviceRate = parts.compactMap(\.device.samplingFrequency).max() ?? 100
    let rate = configuration.pollingRate ?? min(max(deviceRate, 1), 200)
    machine = IIOReaderMachine(
      mode: configuration.mode, pollingPeriod: 1 / rate,
      firstScanTimeout: configuration.firstScanTimeout,
      reconnectInterval: configuration.reconnectInterval)
  }

  deinit {
    for s in streams { s.stop() }
  }

  func stopStreams() {
    if machine.stopped() == .closeBuffers { closeBuffers() }
  }

  func next() async throws -> MotionEvent? {
    while true {
      try Task.checkCancellation()
      switch machine.step {
      case .open(let buffered):
        held = IIOReading()
        lastDeltaTime = [:]
        if buffered, let e = startBuffered() {
          try apply(machine.buffersFailed(e.message, at: clock.now()))
        } else if buffered {
          machine.buffersOpened(at: clock.now())
          report(.buffered, nil)
        } else {
          try apply(machine.pollingStarted(at: clock.now()))
        }
      case .search(let time):
        try await clock.sleep(until: time)
        if let found = rediscover() {
          parts = found
          machine.devicesReturned()
        } else {
          machine.devicesStillMissing()
        }
      case .poll(let tick):
        try await clock.sleep(until: tick)
        let now = clock.now()
        machine.polled(at: now)
        switch pollOnce() {
        case .success(let reading):
          if let s = combine(reading, timestamp: now) { return .sample(s) }
        case .failure(let e):
          if e.isDeviceGone { throw lose(e.message) }
          throw MotionSourceError("\(name): \(e.message)")
        }
      case .readScan(let deadline):
        let reading: IIOReading
        do {
          guard let r = try await nextReading(until: deadline) else {
            try apply(machine.firstScanTimedOut(at: clock.now()))
            continue
          }
          reading = r
        } catch let e as IIOError {
          throw lose(e.message)
        }
        machine.scanArrived()
        let t =
          reading.timestampNanoseconds.map(IIOSourceTime.seconds) ?? reading.clockTime
          ?? clock.now()
        if let s = combine(reading, timestamp: t) { return .sample(s) }
      }
    }
  }

  /// Carries out what the machine asked for.
  private func apply(_ effect: IIOReaderMachine.Effect) throws {
    switch effect {
    case .none:
      break
    case .closeBuffers:
      closeBuffers()
    case .fail(let message):
      closeBuffers()
      throw MotionSourceError("\(name): \(message)")
    case .fallBackToPolling(let reason):
      closeBuffers()
      report(.polled, reason)
      for part in parts {
        for type in part.types {
          if let c = part.device.channels(of: type).first(where: { !$0.hasRawFile }) {
            throw MotionSourceError(
              "\(name): \(part.device.path)/\(c.name)_raw is missing, and polling needs it")
          }
          // A polled delta covers one sample period of the device, not the time between polls.
          if type.isDelta && (part.device.samplingFrequency ?? 0) <= 0 {
            throw MotionSourceError(
              "\(name): \(part.device.path) reports no sampling frequency, and polling its "
                + "\(type.rawValue) channels needs one (each value covers one sample period)")
          }
        }
      }
    }
  }

  private func closeBuffers() {
    for s in streams { s.stop() }
    streams = []
  }

  private func pollOnce() -> Result<IIOReading, IIOError> {
    var reading = IIOReading()
    for part in parts {
      for type in part.types {
        do {
          reading[type] = try sysfs.readVector(type, of: part.device)
        } catch {
          return .failure(error)
        }
        if type.isDelta, let f = part.device.samplingFrequency, f > 0 {
          reading.deltaInterval = 1 / f
        }
      }
    }
    return .success(reading)
  }

  /// Waits for the next buffered reading; `nil` when the deadline passed first.
  private func nextReading(until deadline: Double?) async throws -> IIOReading? {
    let queue = self.queue
    guard let deadline else { return try await queue.next() }
    let clock = self.clock
    return try await withThrowingTaskGroup(of: IIOReading?.self) { group in
      group.addTask { try await queue.next() }
      group.addTask {
        try await clock.sleep(until: deadline)
        return nil
      }
      defer { group.cancelAll() }
      return try await group.next() ?? nil
    }
  }

  /// Starts the buffered streams; returns the reason when that is not possible.
  private func startBuffered() -> IIOError? {
    for part in parts {
      for type in part.types where !part.device.canBuffer(type) {
        return IIOError(
          "\(part.device.path): the \(type.rawValue) channels cannot be buffered "
            + "(no scan_elements or buffer directory)", path: part.device.path, code: ENOENT)
      }
    }
    let queue = EventQueue<IIOReading>()
    var started: [IIOBufferStream] = []
    do throws(IIOError) {
      for part in parts {
        started.append(
          try IIOBufferStream.start(
            device: part.device, types: part.types, devRoot: configuration.devRoot,
            bufferLength: configuration.bufferLength, sysfs: sysfs, clock: clock, queue: queue))
      }
    } catch {
      for s in started { s.stop() }
      return error
    }
    streams = started
    self.queue = queue
    return nil
  }

  /// Marks the source lost and returns the transient error to throw.
  private func lose(_ why: String) -> MotionSourceError {
    if machine.deviceGone(why, at: clock.now()) == .closeBuffers { closeBuffers() }
    return MotionSourceError(
      "\(name): \(why); waiting for the device to return", isTransient: true)
  }

  private func rediscover() -> [(device: IIODevice, types: [IIOChannelType])]? {
    guard let devices = try? sysfs.devices() else { return nil }
    var found: [(device: IIODevice, types: [IIOChannelType])] = []
    for part in parts {
      guard
        let d = devices.first(where: { d in
          d.name == part.device.name && part.types.allSatisfy { d.types.contains($0) }
        })
      else { return nil }
      found.append((d, part.types))
    }
    return found
  }

  /// Merges a reading into the held values and returns a sample when the primary type arrived.
  ///
  /// Deltas become rates here: angular rate = Δangle / Δt and specific force = Δvelocity / Δt,
  /// with Δt the reading's ``IIOReading/deltaInterval`` (one period of the device's sampling
  /// frequency) or, when the device reports none, the time since the previous reading of that
  /// type (the first reading after opening has no such time and gives no sample).
  private func combine(_ incoming: IIOReading, timestamp: Double) -> IMUSample? {
    var reading = incoming
    for delta in [IIOChannelType.deltaAngle, .deltaVelocity] {
      guard let d = reading[delta] else { continue }
      let previous = lastDeltaTime[delta]
      lastDeltaTime[delta] = timestamp
      if let dt = reading.deltaInterval ?? previous.map({ timestamp - $0 }), dt > 0, dt.isFinite {
        reading[delta.rateType] = d * (1 / dt)
      }
    }
    if let a = reading.accel { held.accel = a }
    if let g = reading.gyro { held.gyro = g }
    if let m = reading.magn { held.magn = m }
    let primary = hasGyroscope ? reading.gyro : reading.accel
    guard primary != nil, let accel = held.accel, timestamp > lastTimestamp else { return nil }
    guard !hasGyroscope || held.gyro != nil else { return nil }
    lastTimestamp = timestamp
    return IMUSample(
      timestamp: timestamp, gyroscope: held.gyro ?? .zero, accelerometer: accel,
      magnetometer: hasMagnetometer ? held.magn : nil)
  }
}

/// Conversions of IIO timestamps.
enum IIOSourceTime {
  /// Nanoseconds (`in_timestamp`, an Int64) to seconds, splitting whole seconds first so large
  /// realtime values keep their precision as long as a `Double` can.
  static func seconds(_ ns: Int64) -> Double {
    Double(ns / 1_000_000_000) + Double(ns % 1_000_000_000) / 1e9
  }
}
