import SwellGeometry
import SwellMotion

/// What an ``EvdevMotionDecoder`` has seen: frames, losses, and the stream's rate and jitter as
/// measured from the kernel's event (arrival) times.
public struct EvdevDecoderStatistics: Hashable, Sendable {
  /// Samples produced (frames closed by `SYN_REPORT` with motion data).
  public var frames: Int = 0
  /// `SYN_DROPPED` events seen (each is a buffer overflow in the kernel: events were lost).
  public var droppedSynchronizations: Int = 0
  /// Events thrown away after a `SYN_DROPPED`, up to and including the next `SYN_REPORT`.
  public var discardedEvents: Int = 0
  /// Times the 32-bit `MSC_TIMESTAMP` counter wrapped (about every 71.6 minutes).
  public var timestampWraps: Int = 0
  /// Times the device clock jumped by more than a second beyond the event clock (a device
  /// reset or reconnect); the mapping onto the event clock started again.
  public var deviceClockResets: Int = 0
  /// Frames per second measured from the event times of the first and last frame (`nil`
  /// before two frames).
  public var measuredRateHertz: Double?
  /// Standard deviation of the intervals between frames' event times, seconds (`nil` before
  /// three frames).
  public var jitterSeconds: Double?
  /// The median interval between consecutive `MSC_TIMESTAMP`s over the last 255 frames that had
  /// one, seconds: what the driver declares, which for `hid-steam` is a fixed 0.004 s (`nil`
  /// without timestamps).
  public var declaredIntervalSeconds: Double?

  /// Creates empty statistics.
  public init() {}
}

/// Turns the events of one evdev motion node into `IMUSample`s: the same code decodes a live
/// node and an evemu recording.
///
/// Semantics (`Documentation/input/event-codes.rst`, `linux/input.h`):
/// - `EV_ABS` values of `ABS_X`...`ABS_RZ` accumulate into a frame that `EV_SYN`/`SYN_REPORT`
///   closes; axes that did not change in a frame keep their last value (the kernel sends only
///   changes), starting from the description's `absinfo.value`.
/// - Units come only from `absinfo.resolution`: `ABS_X/Y/Z` in units per g (× `standardGravity`
///   gives m/s²), `ABS_RX/RY/RZ` in units per °/s (× π/180 gives rad/s).
/// - Axes are turned into the device frame by the family's ``EvdevAxisMapping``.
/// - `SYN_DROPPED`: events up to and including the next `SYN_REPORT` are discarded; the owner
///   re-reads the axes (`EVIOCGABS`) and calls ``resynchronize(values:)``.
/// - Time: when the family has a device clock and the frame has an `MSC_TIMESTAMP` (µs, a
///   32-bit counter that wraps and may read negative as a signed value; its place in the frame,
///   before or after the axes, does not matter), the sample time is the unwrapped device time
///   plus an offset onto the event clock. Each frame observes (event time − device time);
///   transport delays only ever add to it, so the smallest observations are the delay-free
///   offset. The target offset is the smallest observation of the last one to two seconds
///   (two one-second blocks), so it follows a device clock that drifts against the host; the
///   offset applied moves toward the target by at most 2000 µs per second of device time, so
///   the samples keep the device's fine spacing (a 4 ms step moves by at most 8 µs). During the
///   first block the lowest observation so far is used at once, while the stream's delay floor
///   is being found. Without a timestamp (or for `hid-steam`, whose timestamp
///   is synthesised) the event time is used. Times are made strictly increasing by at least
///   1 µs.
public struct EvdevMotionDecoder: Sendable {
  /// The node's description.
  public let description: EvdevDeviceDescription
  /// The driver family whose axis mapping and clock rules are used.
  public let family: EvdevDriverFamily
  /// False for a node with an accelerometer alone (no `ABS_RX`...`ABS_RZ`, as the DualShock 3's):
  /// its samples carry a zero gyroscope.
  public let hasGyroscope: Bool
  /// The mapping from evdev axes to the device frame.
  public let axisMapping: EvdevAxisMapping
  /// Whether `MSC_TIMESTAMP` is used as the sample clock.
  public let usesDeviceClock: Bool

  /// The length of one block of the offset's running minimum, seconds of event time.
  static let offsetBlockSeconds = 1.0
  /// How fast the applied offset may move toward the target: seconds per second of device time
  /// (2000 ppm).
  static let offsetSlewPerSecond = 2000e-6
  /// A device-time step this much beyond the event-time step is a clock reset, seconds.
  static let clockResetThreshold = 1.0
  /// The number of `MSC_TIMESTAMP` deltas kept for the declared interval's median.
  static let declaredIntervalWindow = 255

  // Scale from raw units to m/s² (indices 0-2) and rad/s (3-5).
  private let scale: InlineArray<6, Double>
  // Which of the known axis mappings `axisMapping` is, bit for bit.
  private let layout: AxisLayout
  private var raw: RawAxes
  private var frameHasMotion = false
  // The frame's `MSC_TIMESTAMP`, valid when `frameHasTimestamp`.
  private var frameHasTimestamp = false
  private var frameTimestamp: UInt32 = 0
  private var discarding = false

  // Device clock (`lastDeviceRaw` and `lastDeviceEventTime` valid when `hasDeviceRaw`).
  private var hasDeviceRaw = false
  private var lastDeviceRaw: UInt32 = 0
  private var deviceMicroseconds: Int64 = 0
  private var lastDeviceEventTime: Double = 0
  // Offset onto the event clock (the offset fields valid when `hasOffset`).
  private var hasOffset = false
  private var appliedOffset = 0.0
  private var currentBlockMinimum = Double.infinity
  private var previousBlockMinimum = Double.infinity
  private var blockStart = 0.0
  private var lastMappedDevice = 0.0
  // The last sample's time; −∞ before the first, so that no first time is moved.
  private var lastTimestamp = -Double.infinity

  // Statistics (`firstFrameEventTime` and `lastFrameEventTime` valid once `stats.frames` > 0).
  private var stats = EvdevDecoderStatistics()
  private var firstFrameEventTime = 0.0
  private var lastFrameEventTime = 0.0
  private var intervalCount = 0
  // Sums of the intervals less the first one (a shift that keeps the sums exact enough), so
  // that no division runs per frame.
  private var intervalShift = 0.0
  private var intervalSum = 0.0
  private var intervalSquares = 0.0
  // The last `declaredIntervalWindow` MSC_TIMESTAMP deltas, µs: a ring allocated whole at the
  // start and taken out of `self` while frames close, so that noting one is a store through a
  // pointer; `deltaCount` of them are valid. (An inline ring made the compiler copy all 2 KB of
  // it for each store.)
  private var deltas = [Int64](repeating: 0, count: declaredIntervalWindow)
  private var deltaCount = 0
  private var deltaNext = 0

  /// Creates a decoder for a motion node.
  ///
  /// - Parameters:
  ///   - description: The node's description (from the live node or an evemu header).
  ///   - family: The driver family, or `nil` to recognise it from the description.
  /// - Throws: `EvdevDecodeError` when the node is not a motion sensor, lacks one of
  ///   `ABS_X`...`ABS_Z`, has some but not all of `ABS_RX`...`ABS_RZ`, or an axis's resolution
  ///   is not positive. A node with none of the gyroscope axes is an accelerometer alone (the
  ///   DualShock 3's, `hid-sony`): its samples carry a zero gyroscope and ``hasGyroscope`` is
  ///   false.
  public init(description: EvdevDeviceDescription, family: EvdevDriverFamily? = nil)
    throws(EvdevDecodeError)
  {
    guard description.isMotionSensor else {
      throw .notMotionSensor(device: description.name)
    }
    var scale = InlineArray<6, Double>(repeating: 0)
    var raw = RawAxes()
    let hasGyroscope = (EvdevCode.absRX...EvdevCode.absRZ).contains {
      description.absoluteAxes[$0] != nil
    }
    for code in EvdevCode.absX...EvdevCode.absRZ {
      guard let info = description.absoluteAxes[code] else {
        // An accelerometer alone: the gyroscope's scale stays 0, so it reads zero.
        if code >= EvdevCode.absRX && !hasGyroscope { continue }
        throw .missingAxis(device: description.name, code: code)
      }
      guard info.resolution > 0 else {
        throw .missingResolution(device: description.name, code: code)
      }
      let perUnit = code <= EvdevCode.absZ ? standardGravity : Double.pi / 180
      scale[Int(code)] = perUnit / Double(info.resolution)
      raw[code] = info.value
    }
    self.description = description
    self.hasGyroscope = hasGyroscope
    let family = family ?? EvdevDriverFamily(description: description)
    self.family = family
    self.axisMapping = family.axisMapping
    self.layout = AxisLayout(family.axisMapping)
    self.usesDeviceClock = family.hasDeviceClock
    self.scale = scale
    self.raw = raw
  }

  /// What the decoder has seen so far.
  public var statistics: EvdevDecoderStatistics {
    var s = statisticsBesideDeclaredInterval
    if deltaCount > 0 {
      let sorted = (0..<deltaCount).map { deltas[$0] }.sorted()
      let n = sorted.count
      let median =
        n % 2 == 1 ? Double(sorted[n / 2]) : Double(sorted[n / 2 - 1] + sorted[n / 2]) / 2
      s.declaredIntervalSeconds = median / 1e6
    }
    return s
  }

  /// ``statistics`` without ``EvdevDecoderStatistics/declaredIntervalSeconds`` (`nil`), which
  /// takes a sort of up to 255 deltas: what a live source reads after every read of the node.
  package var statisticsBesideDeclaredInterval: EvdevDecoderStatistics {
    var s = stats
    if s.frames >= 2, lastFrameEventTime > firstFrameEventTime {
      s.measuredRateHertz = Double(s.frames - 1) / (lastFrameEventTime - firstFrameEventTime)
    }
    if intervalCount >= 2 {
      let n = Double(intervalCount)
      let m2 = max(intervalSquares - intervalSum * intervalSum / n, 0)
      s.jitterSeconds = (m2 / (n - 1)).squareRoot()
    }
    return s
  }

  /// Feeds one event.
  ///
  /// - Parameter event: The next event from the node, in the order the kernel sent them.
  /// - Returns: A sample when the event is a `SYN_REPORT` that closes a frame with motion data
  ///   (an axis change or an `MSC_TIMESTAMP`); otherwise `nil`.
  public mutating func feed(_ event: EvdevEvent) -> IMUSample? {
    // Type numbers compared directly (EV_SYN 0, EV_ABS 3, EV_MSC 4): this runs per event.
    let type = event.type.rawValue
    let code = event.code
    if discarding
      || (type == EvdevEventType.synchronization.rawValue
        && code == EvdevCode.synDropped)
    {
      discard(event)
      return nil
    }
    if type == EvdevEventType.absolute.rawValue {
      if code <= EvdevCode.absRZ {
        raw[code] = event.value
        frameHasMotion = true
      }
    } else if type == EvdevEventType.miscellaneous.rawValue {
      if code == EvdevCode.mscTimestamp {
        frameTimestamp = UInt32(bitPattern: event.value)
        frameHasTimestamp = true
        frameHasMotion = true
      }
    } else if type == EvdevEventType.synchronization.rawValue && code == EvdevCode.synReport {
      guard frameHasMotion else { return nil }
      let hasTimestamp = frameHasTimestamp
      frameHasMotion = false
      frameHasTimestamp = false
      var sample = IMUSample(timestamp: 0, gyroscope: .zero, accelerometer: .zero)
      var ring = deltas
      deltas = []
      ring.withUnsafeMutableBufferPointer { ring in
        closeFrame(
          raw, at: event.time, hasTimestamp: hasTimestamp, device: frameTimestamp,
          ring: ring, into: &sample)
      }
      deltas = ring
      return sample
    }
    return nil
  }

  /// Feeds a batch of events, appending the sample each closed frame makes: the same as calling
  /// ``feed(_:)`` for each event, in one call (the loop runs inside this module, so a caller in
  /// another module pays one call per batch rather than per event).
  ///
  /// - Parameters:
  ///   - events: The next events from the node, in the order the kernel sent them.
  ///   - samples: Where the samples go, appended in order.
  public mutating func feed(
    contentsOf events: UnsafeBufferPointer<EvdevEvent>, into samples: inout [IMUSample]
  ) {
    // Samples are staged on the stack and appended a run at a time: one copy-on-write check
    // and one copy per run rather than per sample. The ring of deltas is taken out of `self`
    // for the batch, so that noting a delta is a store through a pointer rather than a
    // copy-on-write check per frame.
    var ring = deltas
    deltas = []
    withUnsafeTemporaryAllocation(of: IMUSample.self, capacity: Self.stagedSamples) { staged in
      ring.withUnsafeMutableBufferPointer { ring in
        feed(events, staging: staged, ring: ring, into: &samples)
      }
    }
    deltas = ring
  }

  /// How many samples are staged before they are appended (704 bytes: small enough for the
  /// standard library to put the room on the stack rather than the heap).
  static let stagedSamples = 8

  /// The batch loop, with `staged` as room for samples before they go to `samples`.
  private mutating func feed(
    _ events: UnsafeBufferPointer<EvdevEvent>,
    staging staged: UnsafeMutableBufferPointer<IMUSample>,
    ring: UnsafeMutableBufferPointer<Int64>, into samples: inout [IMUSample]
  ) {
    guard let stage = staged.baseAddress, let first = events.baseAddress else { return }
    let wordOffset = Self.wordOffset
    let room = staged.count
    var pending = 0
    // The frame's state is kept in locals while the loop runs (stores to `self` per event are
    // what a per-event `feed(_:)` pays) and written back before anything else reads it.
    var i = 0
    let n = events.count
    while i < n {
      if discarding {
        discard(events[i])
        i += 1
        continue
      }
      var values = raw
      var hasMotion = frameHasMotion
      var hasTimestamp = frameHasTimestamp
      var timestamp = frameTimestamp
      frame: while i < n {
        // The common frame, on a fast path: all six axes in order with `MSC_TIMESTAMP` just
        // after them (as `hid-playstation` sends a DualSense's) or just before them, then
        // `SYN_REPORT`, starting where no frame is open. It does what the events one at a time
        // would do.
        if !hasMotion && n - i >= 8,
          let frame = Self.wholeFrame(at: first + i, wordOffset: wordOffset)
        {
          let e = first + i
          for k in 0..<6 { values.slots[k] = e[frame.axes + k].value }
          closeFrame(
            values, at: e[7].time, hasTimestamp: true,
            device: UInt32(bitPattern: e[frame.timestamp].value), ring: ring,
            into: stage + pending)
          pending += 1
          if pending == room {
            samples.append(contentsOf: UnsafeBufferPointer(start: stage, count: pending))
            pending = 0
          }
          i += 8
          continue
        }
        let event = events[i]
        i += 1
        // Type and code as one number, type in the high half: an axis event is 0x3_0000 plus
        // its code, so one comparison finds the events that make most of a frame.
        let key = Self.key(event)
        let axis = key &- Self.absoluteKey
        if axis <= UInt32(EvdevCode.absRZ) {
          values.slots[Int(axis)] = event.value
          hasMotion = true
        } else if key == Self.timestampKey {
          timestamp = UInt32(bitPattern: event.value)
          hasTimestamp = true
          hasMotion = true
        } else if key == Self.reportKey {
          if hasMotion {
            closeFrame(
              values, at: event.time, hasTimestamp: hasTimestamp, device: timestamp, ring: ring,
              into: stage + pending)
            pending += 1
            if pending == room {
              samples.append(contentsOf: UnsafeBufferPointer(start: stage, count: pending))
              pending = 0
            }
            hasMotion = false
            hasTimestamp = false
          }
        } else if key == Self.droppedKey {
          // `discard` clears the frame and starts discarding: the outer loop takes over.
          hasMotion = false
          hasTimestamp = false
          discard(event)
          break frame
        }
      }
      raw = values
      frameHasMotion = hasMotion
      frameHasTimestamp = hasTimestamp
      frameTimestamp = timestamp
    }
    if pending > 0 {
      samples.append(contentsOf: UnsafeBufferPointer(start: stage, count: pending))
    }
  }

  /// Where the axes and the timestamp of a whole frame start, when the eight events at `e` are
  /// one: `ABS_X`...`ABS_RZ` in order with `MSC_TIMESTAMP` just before or just after, then
  /// `SYN_REPORT`.
  @inline(__always)
  private static func wholeFrame(
    at e: UnsafePointer<EvdevEvent>, wordOffset: Int?
  ) -> (axes: Int, timestamp: Int)? {
    guard let offset = wordOffset else {
      let before = key(e[0]) == timestampKey
      let axes = before ? 1 : 0
      let timestamp = before ? 0 : 6
      var mismatch = (key(e[timestamp]) ^ timestampKey) | (key(e[7]) ^ reportKey)
      for k in 0..<6 { mismatch |= key(e[axes + k]) ^ (absoluteKey + UInt32(k)) }
      return mismatch == 0 ? (axes, timestamp) : nil
    }
    // Type and code read as one word, `type | code << 16`: one load an event.
    func word(_ k: Int) -> UInt32 {
      UnsafeRawPointer(e + k).load(fromByteOffset: offset, as: UInt32.self)
    }
    let before = word(0) == timestampWord
    let axes = before ? 1 : 0
    let timestamp = before ? 0 : 6
    var mismatch = (word(timestamp) ^ timestampWord) | (word(7) ^ reportWord)
    for k in 0..<6 { mismatch |= word(axes + k) ^ (absoluteWord + UInt32(k) << 16) }
    return mismatch == 0 ? (axes, timestamp) : nil
  }

  /// The byte offset of an event's `type` when its `code` follows it and the two read as one
  /// little-endian 32-bit word, `type | code << 16`; `nil` when the layout is otherwise (then
  /// the fields are read one by one).
  private static let wordOffset: Int? = {
    guard let type = MemoryLayout<EvdevEvent>.offset(of: \EvdevEvent.type),
      MemoryLayout<EvdevEvent>.offset(of: \EvdevEvent.code) == type + 2, type % 4 == 0,
      MemoryLayout<EvdevEvent>.stride % 4 == 0, UInt16(1).littleEndian == 1
    else { return nil }
    return type
  }()

  // Events' type and code as one word, `type | code << 16`.
  private static let absoluteWord = UInt32(EvdevEventType.absolute.rawValue)
  private static let timestampWord =
    UInt32(EvdevEventType.miscellaneous.rawValue) | UInt32(EvdevCode.mscTimestamp) << 16
  private static let reportWord =
    UInt32(EvdevEventType.synchronization.rawValue) | UInt32(EvdevCode.synReport) << 16

  /// An event's type and code as `type << 16 | code`.
  @inline(__always)
  private static func key(_ event: EvdevEvent) -> UInt32 {
    UInt32(event.type.rawValue) << 16 | UInt32(event.code)
  }

  // Events' type and code as `type << 16 | code`.
  private static let absoluteKey = UInt32(EvdevEventType.absolute.rawValue) << 16
  private static let timestampKey =
    UInt32(EvdevEventType.miscellaneous.rawValue) << 16 | UInt32(EvdevCode.mscTimestamp)
  private static let reportKey =
    UInt32(EvdevEventType.synchronization.rawValue) << 16 | UInt32(EvdevCode.synReport)
  private static let droppedKey =
    UInt32(EvdevEventType.synchronization.rawValue) << 16 | UInt32(EvdevCode.synDropped)

  /// Feeds a batch of events held in an array (the buffer form above, for an array).
  ///
  /// - Parameters:
  ///   - events: The next events, in order.
  ///   - samples: Where the samples go, appended in order.
  public mutating func feed(contentsOf events: [EvdevEvent], into samples: inout [IMUSample]) {
    events.withUnsafeBufferPointer { feed(contentsOf: $0, into: &samples) }
  }

  /// `SYN_DROPPED`, and the events after it up to and including the next `SYN_REPORT`.
  private mutating func discard(_ event: EvdevEvent) {
    if event.type == .synchronization && event.code == EvdevCode.synDropped {
      stats.droppedSynchronizations += 1
      discarding = true
      frameHasMotion = false
      frameHasTimestamp = false
      return
    }
    stats.discardedEvents += 1
    if event.type == .synchronization && event.code == EvdevCode.synReport {
      discarding = false
    }
  }

  /// Installs the axes' current values after a `SYN_DROPPED`, as re-read with `EVIOCGABS`.
  ///
  /// Events up to and including the next `SYN_REPORT` are still discarded (the kernel's rule in
  /// `Documentation/input/event-codes.rst`); the frames after it start from these values.
  ///
  /// - Parameter values: Raw values by `ABS_*` code; codes other than `ABS_X`...`ABS_RZ` are
  ///   ignored, and axes not given keep their last value.
  public mutating func resynchronize(values: [UInt16: Int32]) {
    for (code, value) in values where code <= EvdevCode.absRZ {
      raw[code] = value
    }
  }

  /// Closes a frame whose axes are `values`: the caller has already cleared the frame's flags.
  ///
  /// The axes in the device frame are, bit for bit, `axisMapping` × the scaled axes. For a
  /// signed permutation each component of that product is ± one scaled axis plus two signed
  /// zeros, which is the axis itself unless it is zero; a zero axis read with +1 gives +0
  /// either way (a scaled axis is never −0), one read with −1 gives −0 only when the other two
  /// axes are negative, so a frame with such a zero takes the products.
  @inline(__always)
  private mutating func closeFrame(
    _ values: RawAxes, at eventTime: Double, hasTimestamp: Bool, device: UInt32,
    ring: UnsafeMutableBufferPointer<Int64>, into sample: UnsafeMutablePointer<IMUSample>
  ) {
    noteArrival(eventTime)
    var t = eventTime
    if hasTimestamp {
      let deviceTime = unwrap(device, eventTime: eventTime, ring: ring)
      if usesDeviceClock {
        t = mapped(deviceTime: deviceTime, eventTime: eventTime)
      }
    }
    // −∞ before the first sample, so the first time is kept.
    if !(t > lastTimestamp + 1e-6) {
      t = lastTimestamp + 1e-6
    }
    lastTimestamp = t
    stats.frames += 1
    // Stored properties are read one by one: a call of a non-mutating method here would copy
    // the whole decoder first.
    let v = values.slots
    let ax = Double(v[0]) * scale[0]
    let ay = Double(v[1]) * scale[1]
    let az = Double(v[2]) * scale[2]
    let gx = Double(v[3]) * scale[3]
    let gy = Double(v[4]) * scale[4]
    let gz = Double(v[5]) * scale[5]
    let accelerometer: Vector3
    let gyroscope: Vector3
    switch layout {
    case .sdlController where v[2] != 0 && v[5] != 0:
      // Device = (x, −z, y).
      accelerometer = Vector3(ax, -az, ay)
      gyroscope = Vector3(gx, -gz, gy)
    case .nintendo where v[1] != 0 && v[4] != 0:
      // Device = (−y, x, z).
      accelerometer = Vector3(-ay, ax, az)
      gyroscope = Vector3(-gy, gx, gz)
    case .identity:
      accelerometer = Vector3(ax, ay, az)
      gyroscope = Vector3(gx, gy, gz)
    default:
      accelerometer = axisMapping.accelerometer * Vector3(ax, ay, az)
      gyroscope = axisMapping.gyroscope * Vector3(gx, gy, gz)
    }
    sample.initialize(
      to: IMUSample(timestamp: t, gyroscope: gyroscope, accelerometer: accelerometer))
  }

  /// Unwraps a 32-bit device timestamp to 64-bit microseconds, counting wraps and resets, and
  /// notes its delta for the declared interval.
  @inline(__always)
  private mutating func unwrap(
    _ device: UInt32, eventTime: Double, ring: UnsafeMutableBufferPointer<Int64>
  ) -> Int64 {
    guard hasDeviceRaw else {
      hasDeviceRaw = true
      lastDeviceRaw = device
      deviceMicroseconds = Int64(device)
      lastDeviceEventTime = eventTime
      return deviceMicroseconds
    }
    let last = lastDeviceRaw
    let delta = Int64(device &- last)
    let eventDelta = eventTime - lastDeviceEventTime
    lastDeviceRaw = device
    lastDeviceEventTime = eventTime
    if Double(delta) * 1e-6 > max(eventDelta, 0) + Self.clockResetThreshold {
      stats.deviceClockResets += 1
      hasOffset = false
    } else {
      if device < last { stats.timestampWraps += 1 }
      noteDelta(delta, ring: ring)
    }
    deviceMicroseconds += delta
    return deviceMicroseconds
  }

  /// The device time in seconds mapped onto the event clock (see the type's discussion).
  @inline(__always)
  private mutating func mapped(deviceTime: Int64, eventTime: Double) -> Double {
    let device = Double(deviceTime) * 1e-6
    let observed = eventTime - device
    guard hasOffset else {
      hasOffset = true
      appliedOffset = observed
      currentBlockMinimum = observed
      previousBlockMinimum = .infinity
      blockStart = eventTime
      lastMappedDevice = device
      return eventTime
    }
    if eventTime - blockStart >= Self.offsetBlockSeconds {
      previousBlockMinimum = currentBlockMinimum
      currentBlockMinimum = .infinity
      blockStart = eventTime
    }
    currentBlockMinimum = min(currentBlockMinimum, observed)
    let target = min(previousBlockMinimum, currentBlockMinimum)
    // During the first block the lowest offset seen so far is taken at once (the stream's
    // delay floor is being found); after it, the offset slews.
    // Once the offset has reached its target (most frames) it stays: the slew is skipped.
    let applied = appliedOffset
    var next = target
    if target != applied && !previousBlockMinimum.isInfinite {
      let step = max(device - lastMappedDevice, 0) * Self.offsetSlewPerSecond
      next = applied + min(max(target - applied, -step), step)
    }
    appliedOffset = next
    lastMappedDevice = device
    return device + next
  }

  @inline(__always)
  private mutating func noteDelta(_ delta: Int64, ring: UnsafeMutableBufferPointer<Int64>) {
    ring[deltaNext] = delta
    deltaNext = deltaNext == Self.declaredIntervalWindow - 1 ? 0 : deltaNext + 1
    if deltaCount < Self.declaredIntervalWindow { deltaCount += 1 }
  }

  @inline(__always)
  private mutating func noteArrival(_ eventTime: Double) {
    if stats.frames == 0 {
      firstFrameEventTime = eventTime
    } else {
      let interval = eventTime - lastFrameEventTime
      if intervalCount == 0 { intervalShift = interval }
      intervalCount += 1
      let d = interval - intervalShift
      intervalSum += d
      intervalSquares += d * d
    }
    lastFrameEventTime = eventTime
  }
}

/// The six raw axis values of a frame (`ABS_X`...`ABS_RZ`) in memory, one 32-bit slot each: a
/// lane write into a SIMD vector held in registers is a narrow store followed by a wide reload,
/// which stalls store forwarding on every axis event; slots written and read one at a time do
/// not.
private struct RawAxes: Sendable {
  var slots = InlineArray<6, Int32>(repeating: 0)

  /// The value of axis `code` (0...5); other codes read 0 and are not written.
  subscript(code: UInt16) -> Int32 {
    get { code <= 5 ? slots[Int(code)] : 0 }
    set { if code <= 5 { slots[Int(code)] = newValue } }
  }
}

/// Which known ``EvdevAxisMapping`` a decoder's is, compared bit for bit (a −0 entry would give
/// other signed zeros), so that its signed permutation runs without the matrix products.
private enum AxisLayout: Sendable {
  case identity, sdlController, nintendo
  /// Any other mapping: the matrix products.
  case matrices

  init(_ mapping: EvdevAxisMapping) {
    func bits(_ m: EvdevAxisMapping) -> [UInt64] {
      [m.accelerometer, m.gyroscope].flatMap { m in
        [m.row0, m.row1, m.row2].flatMap { [$0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern] }
      }
    }
    switch bits(mapping) {
    case bits(.identity): self = .identity
    case bits(.sdlController): self = .sdlController
    case bits(.nintendo): self = .nintendo
    default: self = .matrices
    }
  }
}
