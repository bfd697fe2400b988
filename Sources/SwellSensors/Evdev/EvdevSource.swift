import Glibc
import SwellEvdev
import SwellMotion
import SwellTime
import Synchronization

/// Options of an ``EvdevSource``.
public struct EvdevSourceConfiguration: Hashable, Sendable {
  /// The folder of the `eventN` sysfs entries.
  public var sysfsRoot = EvdevDiscovery.defaultSysfsRoot
  /// The folder of the `eventN` character devices.
  public var devRoot = EvdevDiscovery.defaultDevRoot
  /// Which motion node: `nil` for the first; `eventN` or a path ending in `/eventN`; else a
  /// case-insensitive part of the node's or its pad's name (`dualsense`, `joy-con (l)`).
  public var device: String?
  /// How often a lost node is looked for, seconds on the source's clock.
  public var reconnectInterval = 0.5
  /// Axis ranges and resolutions to use instead of what the node reports (`EVIOCGABS`), by
  /// `ABS_*` code: for a driver that reports no resolution, or a node that is not a real input
  /// device (a FIFO replaying events). Empty: the node's own.
  public var axisOverrides: [UInt16: EvdevAbsInfo] = [:]
  /// The driver family whose axis mapping is used, or `nil` to recognise it from the ids.
  public var family: EvdevDriverFamily?

  /// Creates the default configuration.
  public init() {}
}

/// Counters of an ``EvdevSource``.
public struct EvdevSourceStatistics: Hashable, Sendable {
  /// Frames decoded into samples.
  public var frames = 0
  /// `SYN_DROPPED` events: the kernel's buffer overflowed and events were lost; each one was
  /// followed by re-reading every axis.
  public var droppedSynchronizations = 0
  /// Times the node was lost and found again.
  public var reconnections = 0
  /// The frame rate measured from the events' arrival times, Hz (`nil` before two frames).
  public var measuredRateHertz: Double?
  /// The standard deviation of the intervals between frames' arrival times, seconds.
  public var jitterSeconds: Double?

  /// Creates zeroed counters.
  public init() {}
}

/// A live motion source over the motion-sensor node of a game controller or handheld
/// (`/dev/input/eventN` with `INPUT_PROP_ACCELEROMETER`: DualSense, DualShock 4, Switch Pro,
/// Joy-Con, Steam Deck).
///
/// Opening finds the node (``EvdevDiscovery``), opens it, asks for event times on
/// `CLOCK_MONOTONIC` (`EVIOCSCLOCKID`, so they share the time base of
/// `MonotonicClock.continuous`), and reads each axis's range and resolution (`EVIOCGABS`): the
/// units come from the resolution (units per g on `ABS_X/Y/Z`, per °/s on `ABS_RX/RY/RZ`,
/// `linux/input.h`). A reader thread then hands `struct input_event` records to the
/// `EvdevMotionDecoder`, which turns each `SYN_REPORT` frame into an `IMUSample` in the
/// device frame (m/s² specific force, rad/s; see `EvdevDriverFamily` for each pad's axes and
/// clock).
///
/// **Dropped events.** On `SYN_DROPPED` the decoder discards the rest of the frame; once the
/// next `SYN_REPORT` has passed, the source re-reads every axis (`EVIOCGABS`) and installs the
/// values, and counts the loss in ``statistics``.
///
/// **Unplugging.** When the node disappears (a read fails with `ENODEV`, end of file, a
/// hang-up, or its sysfs folder vanished), ``next()`` throws a transient `MotionSourceError`.
/// The next call looks for the same controller (same `uniq`, else the same name and `phys`)
/// every ``EvdevSourceConfiguration/reconnectInterval`` seconds on the source's clock, possibly
/// under a new `eventN`, and resumes once it is back. Cancel the calling task to stop waiting.
///
/// **Permissions.** A node that cannot be opened for lack of permission fails the opening with
/// one line naming the node, its group and the udev rule that grants access
/// (``EvdevError/udevRule``).
///
/// **Recording.** ``setEventTap(_:)`` hands every event fed to the decoder, with the node's
/// description, to a consumer (`swell record evdev -o x.evemu` writes them as evemu text).
///
/// Calls to ``next()`` must not overlap.
public final class EvdevSource: MotionSource {
  /// `evdev:` followed by the node's name, e.g. `evdev:Steam Deck Motion Sensors`.
  public let name: String
  /// False: the pads have no magnetometer.
  public let hasMagnetometer = false
  /// The node opened first.
  public let node: EvdevNode
  /// The node's description with its axis information, as the decoder got it.
  public let deviceDescription: EvdevDeviceDescription
  /// The driver family whose axes and clock rules decode the node.
  public let family: EvdevDriverFamily
  /// False for a node with an accelerometer alone (the DualShock 3's): its samples carry a zero
  /// gyroscope, and `MotionManager` estimates motion from the accelerometer.
  public let hasGyroscope: Bool
  /// A stable id of the controller for saving its calibration: `evdev:` and its `uniq` when the
  /// driver publishes one, else `evdev:` and its name and `phys`.
  public var deviceIdentity: String? { node.identity }

  private let core: Core
  private let box: Box

  final class Box: Sendable {
    struct State {
      var statistics = EvdevSourceStatistics()
      var tap: (@Sendable (EvdevDeviceDescription, [EvdevEvent]) -> Void)?
    }
    let state = Mutex(State())
  }

  /// Opens the source: finds the node, opens it and reads its axes. Reading starts with the
  /// first call to ``next()``.
  ///
  /// - Parameters:
  ///   - configuration: Where to look and which node.
  ///   - clock: The clock reconnection waits on.
  /// - Throws: ``EvdevError`` when there is no matching node, it cannot be opened (a permission
  ///   problem names the fix), or its description cannot be decoded (no resolution).
  public convenience init(
    configuration: EvdevSourceConfiguration = EvdevSourceConfiguration(),
    clock: MonotonicClock = .continuous
  ) throws(EvdevError) {
    try self.init(configuration: configuration, clock: clock, system: .live, io: .live)
  }

  init(
    configuration: EvdevSourceConfiguration, clock: MonotonicClock, system: SystemCalls,
    io: EvdevDeviceIO
  ) throws(EvdevError) {
    let discovery = EvdevDiscovery(
      sysfsRoot: configuration.sysfsRoot, devRoot: configuration.devRoot, system: system)
    let node = try discovery.select(
      from: try discovery.motionNodes(), matching: configuration.device)
    let opened = try Opened.open(node, configuration: configuration, system: system, io: io)
    self.node = node
    deviceDescription = opened.description
    family = opened.decoder.family
    hasGyroscope = opened.decoder.hasGyroscope
    name = "evdev:" + node.name
    let box = Box()
    self.box = box
    core = Core(
      configuration: configuration, clock: clock, discovery: discovery, io: io, opened: opened,
      name: name, box: box)
  }

  /// The counters so far (across reconnections).
  public var statistics: EvdevSourceStatistics { box.state.withLock { $0.statistics } }

  /// Sets (or with `nil` removes) the consumer of the raw events: it is called, before the
  /// samples they make are delivered, with the node's description and each batch of events fed
  /// to the decoder, in order. Besides what the node sent, a batch carries `EV_ABS` events
  /// with the axes' values at the start (and after a resynchronisation or reconnection), so a
  /// replay of the events decodes to the same samples.
  ///
  /// - Parameter tap: The consumer; it runs on the task calling ``next()`` and must not block.
  public func setEventTap(_ tap: (@Sendable (EvdevDeviceDescription, [EvdevEvent]) -> Void)?) {
    box.state.withLock { $0.tap = tap }
  }

  /// Returns the next sample, waiting for it.
  ///
  /// - Returns: The next `.sample`, or `nil` after ``stop()``.
  /// - Throws: A transient `MotionSourceError` when the node disappeared (call again to wait for
  ///   its return), or `CancellationError`.
  public func next() async throws -> MotionEvent? {
    try await core.next()
  }

  /// Stops the reader thread and closes the node; ``next()`` then returns `nil` until
  /// ``restart()``.
  public func stop() async {
    await core.stop()
  }

  /// Reopens the node after ``stop()`` (found again by its identity).
  public func restart() async throws {
    await core.restart()
  }
}

/// An open node: its stream (not yet started), its description and a fresh decoder.
private struct Opened: Sendable {
  var node: EvdevNode
  var stream: EvdevEventStream
  var description: EvdevDeviceDescription
  var decoder: EvdevMotionDecoder

  static func open(
    _ node: EvdevNode, configuration: EvdevSourceConfiguration, system: SystemCalls,
    io: EvdevDeviceIO
  ) throws(EvdevError) -> Opened {
    let (fd, err) = system.open(node.devicePath, O_RDONLY | O_NONBLOCK)
    if fd < 0 { throw EvdevError.system("cannot open", path: node.devicePath, code: err) }
    let stream = EvdevEventStream(
      fd: fd, path: node.devicePath, sysfsPath: node.sysfsPath, system: system)
    // Event times on the monotonic clock; a node that refuses (an old kernel, a FIFO) keeps its
    // own clock, and the times are used as they come.
    _ = io.useMonotonicClock(fd)
    var axes: [UInt16: EvdevAbsInfo] = [:]
    for code in node.absoluteCodes.sorted() {
      if let info = configuration.axisOverrides[code] {
        var i = info
        if let current = io.absInfo(fd, code).info { i.value = current.value }
        axes[code] = i
      } else if let info = io.absInfo(fd, code).info {
        axes[code] = info
      } else {
        let (_, e) = io.absInfo(fd, code)
        throw EvdevError(
          "\(node.devicePath): cannot read the range and resolution of axis \(code) "
            + "(EVIOCGABS: \(errorText(e)))", path: node.devicePath, code: e)
      }
    }
    let description = node.description(absoluteAxes: axes)
    do {
      let decoder = try EvdevMotionDecoder(description: description, family: configuration.family)
      return Opened(node: node, stream: stream, description: description, decoder: decoder)
    } catch {
      throw EvdevError("\(node.devicePath): \(error.description)", path: node.devicePath)
    }
  }
}

/// The driver of an ``EvdevSource``: its stream, decoder and reconnection, isolated in an
/// actor.
private actor Core {
  private let configuration: EvdevSourceConfiguration
  private let clock: MonotonicClock
  private let discovery: EvdevDiscovery
  private let io: EvdevDeviceIO
  private let name: String
  private let box: EvdevSource.Box
  /// The controller's identity, to find it again.
  private let identity: String
  private var opened: Opened?
  private var queue = EventQueue<[EvdevEvent]>()
  private var samples: [IMUSample] = []
  private var nextSample = 0
  /// The samples of one read, before those not after the last one delivered are dropped.
  private var decoded: [IMUSample] = []
  /// Set when the node was lost: when to look for it next.
  private var searchAt: Double?
  private var stopped = false
  private var streaming = false
  /// The axes' values to hand the tap before the next batch (the start, a resync, a reconnect).
  private var announce: [UInt16: Int32]?
  /// After a `SYN_DROPPED`: re-read the axes once its `SYN_REPORT` has passed.
  private var resyncPending = false
  private var earlier = EvdevSourceStatistics()
  private var lastTimestamp = -Double.infinity

  init(
    configuration: EvdevSourceConfiguration, clock: MonotonicClock, discovery: EvdevDiscovery,
    io: EvdevDeviceIO, opened: Opened, name: String, box: EvdevSource.Box
  ) {
    self.configuration = configuration
    self.clock = clock
    self.discovery = discovery
    self.io = io
    self.opened = opened
    self.name = name
    self.box = box
    identity = Core.identity(of: opened.node)
    announce = Core.values(of: opened.description)
  }

  deinit { opened?.stream.stop() }

  /// `uniq` when there is one, else name and `phys`.
  static func identity(of node: EvdevNode) -> String {
    node.uniq.map { "uniq:" + $0 } ?? "name:\(node.name)|phys:\(node.phys ?? "")"
  }

  static func values(of description: EvdevDeviceDescription) -> [UInt16: Int32] {
    description.absoluteAxes.mapValues(\.value)
  }

  func stop() {
    stopped = true
    opened?.stream.stop()
    opened = nil
    streaming = false
  }

  func restart() {
    guard stopped else { return }
    stopped = false
    searchAt = searchAt ?? clock.now()
  }

  func next() async throws -> MotionEvent? {
    while true {
      try Task.checkCancellation()
      if stopped { return nil }
      if nextSample < samples.count {
        let s = samples[nextSample]
        nextSample += 1
        if nextSample == samples.count {
          samples.removeAll(keepingCapacity: true)
          nextSample = 0
        }
        return .sample(s)
      }
      if let time = searchAt {
        try await clock.sleep(until: time)
        if stopped { return nil }
        if let found = reopen() {
          opened = found
          searchAt = nil
          announce = Core.values(of: found.description)
          box.state.withLock { $0.statistics.reconnections += 1 }
        } else {
          searchAt = max(time + configuration.reconnectInterval, clock.now())
          continue
        }
      }
      guard let current = opened else {
        searchAt = clock.now()
        continue
      }
      if !streaming {
        queue = EventQueue<[EvdevEvent]>()
        current.stream.start(into: queue)
        streaming = true
      }
      let batch: [EvdevEvent]
      do {
        batch = try await queue.next()
      } catch let e as EvdevError {
        throw lose(e.message)
      }
      decode(batch)
    }
  }

  /// Feeds a batch to the decoder (and the tap), collecting samples.
  private func decode(_ batch: [EvdevEvent]) {
    guard var current = opened else { return }
    // The decoder is changed in `current` alone: a copy left in `opened` would share its ring
    // of deltas, which the first store would then copy whole.
    opened = nil
    let tap = box.state.withLock { $0.tap }
    var fed: [EvdevEvent] = []
    if let values = announce, let first = batch.first {
      announce = nil
      if tap != nil { fed += Core.events(values, at: first) }
    }
    if !resyncPending, !batch.contains(where: Self.isDropped) {
      // The common read: no loss to resynchronise from, so the decoder takes the whole batch in
      // one call.
      if tap != nil { fed += batch }
      decoded.removeAll(keepingCapacity: true)
      current.decoder.feed(contentsOf: batch, into: &decoded)
      for s in decoded where s.timestamp > lastTimestamp {
        lastTimestamp = s.timestamp
        samples.append(s)
      }
    } else {
      decodeEachEvent(batch, &current, tap: tap != nil, fed: &fed)
    }
    opened = current
    let stats = current.decoder.statisticsBesideDeclaredInterval
    let earlier = self.earlier
    box.state.withLock { s in
      s.statistics.frames = earlier.frames + stats.frames
      s.statistics.droppedSynchronizations =
        earlier.droppedSynchronizations + stats.droppedSynchronizations
      s.statistics.measuredRateHertz = stats.measuredRateHertz ?? earlier.measuredRateHertz
      s.statistics.jitterSeconds = stats.jitterSeconds ?? earlier.jitterSeconds
    }
    if let tap, !fed.isEmpty { tap(current.description, fed) }
  }

  private static func isDropped(_ event: EvdevEvent) -> Bool {
    event.type == .synchronization && event.code == EvdevCode.synDropped
  }

  /// Feeds a batch that holds or follows a `SYN_DROPPED` one event at a time, re-reading the
  /// axes after the `SYN_REPORT` that ends the loss.
  private func decodeEachEvent(
    _ batch: [EvdevEvent], _ current: inout Opened, tap: Bool, fed: inout [EvdevEvent]
  ) {
    for event in batch {
      if tap { fed.append(event) }
      let isDropped = Self.isDropped(event)
      let isReport = event.type == .synchronization && event.code == EvdevCode.synReport
      if let s = current.decoder.feed(event), s.timestamp > lastTimestamp {
        lastTimestamp = s.timestamp
        samples.append(s)
      }
      if isDropped {
        resyncPending = true
      } else if isReport && resyncPending {
        // The kernel's rule (Documentation/input/event-codes.rst, SYN_DROPPED): discard up to
        // and including the next SYN_REPORT, then query the state.
        resyncPending = false
        var values: [UInt16: Int32] = [:]
        for code in current.description.absoluteAxes.keys {
          if let info = io.absInfo(current.stream.fd, code).info { values[code] = info.value }
        }
        current.decoder.resynchronize(values: values)
        if tap { fed += Core.events(values, at: event) }
      }
    }
  }

  /// `EV_ABS` events carrying axis values, stamped with another event's time.
  static func events(_ values: [UInt16: Int32], at event: EvdevEvent) -> [EvdevEvent] {
    values.keys.sorted().compactMap { code in
      values[code].map {
        EvdevEvent(
          seconds: event.seconds, microseconds: event.microseconds, type: .absolute, code: code,
          value: $0)
      }
    }
  }

  /// Marks the node lost and returns the transient error to throw.
  private func lose(_ why: String) -> MotionSourceError {
    if let current = opened {
      current.stream.stop()
      let stats = current.decoder.statistics
      earlier.frames += stats.frames
      earlier.droppedSynchronizations += stats.droppedSynchronizations
      earlier.measuredRateHertz = stats.measuredRateHertz ?? earlier.measuredRateHertz
      earlier.jitterSeconds = stats.jitterSeconds ?? earlier.jitterSeconds
    }
    opened = nil
    streaming = false
    resyncPending = false
    searchAt = clock.now() + configuration.reconnectInterval
    return MotionSourceError(
      "\(name): \(why); waiting for the controller to return", isTransient: true)
  }

  /// Looks for the controller again: the same identity among the motion nodes, opened.
  private func reopen() -> Opened? {
    guard let nodes = try? discovery.motionNodes(),
      let node = nodes.first(where: { Core.identity(of: $0) == identity })
    else { return nil }
    return try? Opened.open(
      node, configuration: configuration, system: discovery.system, io: io)
  }
}

/// A live source that reads a device's own input events and hands them, as read, to a consumer
/// before it decodes them (``EvdevSource``): an evemu recording keeps the device's events, not
/// the samples decoded from them, so a replay decodes to the same samples.
public protocol InputEventTapping: MotionSource {
  /// Sets (or with `nil` removes) the consumer of the raw events: called with the node's
  /// description and each batch of events, in order, before the samples they make.
  ///
  /// - Parameter tap: The consumer; it must not block.
  func setEventTap(_ tap: (@Sendable (EvdevDeviceDescription, [EvdevEvent]) -> Void)?)
}

extension EvdevSource: InputEventTapping {}
