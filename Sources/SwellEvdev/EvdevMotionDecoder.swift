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
  private let scale: SIMD8<Double>
  private var raw: RawAxes
  private var frameHasMotion = false
  private var frameDeviceTimestamp: UInt32?
  private var discarding = false

  // Device clock.
  private var lastDeviceRaw: UInt32?
  private var deviceMicroseconds: Int64 = 0
  private var lastDeviceEventTime: Double = 0
  // Offset onto the event clock.
  private var appliedOffset: Double?
  private var currentBlockMinimum = Double.infinity
  private var previousBlockMinimum = Double.infinity
  private var blockStart = 0.0
  private var lastMappedDevice = 0.0
  private var lastTimestamp: Double?

  // Statistics.
  private var stats = EvdevDecoderStatistics()
  private var firstFrameEventTime: Double?
  private var lastFrameEventTime: Double?
  private var intervalCount = 0
  // Sums of the intervals less the first one (a shift that keeps the sums exact enough), so
  // that no division runs per frame.
  private var intervalShift = 0.0
  private var intervalSum = 0.0
  private var intervalSquares = 0.0
  private var deltas: [Int64] = []
  private var deltaNext = 0

  /// Creates a decoder for a motion node.
  ///
  /// - Parameters:
  ///   - description: The node's description (from the live node or an evemu header).
  ///   - family: The driver family, or `nil` to recognise it from the description.
  /// - Throws: `EvdevDecodeError` when the node is not a motion sensor, lacks one of
  ///   `ABS_X`...`ABS_RZ`, or an axis's resolution is not positive.
  public init(description: EvdevDeviceDescription, family: EvdevDriverFamily? = nil)
    throws(EvdevDecodeError)
  {
    guard description.isMotionSensor else {
      throw .notMotionSensor(device: description.name)
    }
    var scale = SIMD8<Double>()
    var raw = RawAxes()
    for code in EvdevCode.absX...EvdevCode.absRZ {
      guard let info = description.absoluteAxes[code] else {
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
    let family = family ?? EvdevDriverFamily(description: description)
    self.family = family
    self.axisMapping = family.axisMapping
    self.usesDeviceClock = family.hasDeviceClock
    self.scale = scale
    self.raw = raw
  }

  /// What the decoder has seen so far.
  public var statistics: EvdevDecoderStatistics {
    var s = stats
    if let first = firstFrameEventTime, let last = lastFrameEventTime, s.frames >= 2,
      last > first
    {
      s.measuredRateHertz = Double(s.frames - 1) / (last - first)
    }
    if intervalCount >= 2 {
      let n = Double(intervalCount)
      let m2 = max(intervalSquares - intervalSum * intervalSum / n, 0)
      s.jitterSeconds = (m2 / (n - 1)).squareRoot()
    }
    if !deltas.isEmpty {
      let sorted = deltas.sorted()
      let n = sorted.count
      let median =
        n % 2 == 1 ? Double(sorted[n / 2]) : Double(sorted[n / 2 - 1] + sorted[n / 2]) / 2
      s.declaredIntervalSeconds = median / 1e6
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
      return discard(event)
    }
    if type == EvdevEventType.absolute.rawValue {
      if code <= EvdevCode.absRZ {
        raw[code] = event.value
        frameHasMotion = true
      }
    } else if type == EvdevEventType.miscellaneous.rawValue {
      if code == EvdevCode.mscTimestamp {
        frameDeviceTimestamp = UInt32(bitPattern: event.value)
        frameHasMotion = true
      }
    } else if type == EvdevEventType.synchronization.rawValue && code == EvdevCode.synReport {
      guard frameHasMotion else { return nil }
      let device = frameDeviceTimestamp
      frameHasMotion = false
      frameDeviceTimestamp = nil
      return closeFrame(at: event.time, device: device)
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
    // The frame's state is kept in locals while the loop runs (stores to `self` per event are
    // what a per-event `feed(_:)` pays) and written back before anything else reads it.
    var i = 0
    let n = events.count
    while i < n {
      if discarding {
        _ = discard(events[i])
        i += 1
        continue
      }
      var values = raw
      var hasMotion = frameHasMotion
      var timestamp = frameDeviceTimestamp
      frame: while i < n {
        let event = events[i]
        i += 1
        let code = event.code
        switch event.type.rawValue {
        case EvdevEventType.absolute.rawValue:
          if code <= EvdevCode.absRZ {
            values[code] = event.value
            hasMotion = true
          }
        case EvdevEventType.miscellaneous.rawValue:
          if code == EvdevCode.mscTimestamp {
            timestamp = UInt32(bitPattern: event.value)
            hasMotion = true
          }
        case EvdevEventType.synchronization.rawValue:
          if code == EvdevCode.synReport {
            if hasMotion {
              raw = values
              samples.append(closeFrame(at: event.time, device: timestamp))
              hasMotion = false
              timestamp = nil
            }
          } else if code == EvdevCode.synDropped {
            // `discard` clears the frame and starts discarding: the outer loop takes over.
            hasMotion = false
            timestamp = nil
            _ = discard(event)
            break frame
          }
        default:
          break
        }
      }
      raw = values
      frameHasMotion = hasMotion
      frameDeviceTimestamp = timestamp
    }
  }

  /// Feeds a batch of events held in an array (the buffer form above, for an array).
  ///
  /// - Parameters:
  ///   - events: The next events, in order.
  ///   - samples: Where the samples go, appended in order.
  public mutating func feed(contentsOf events: [EvdevEvent], into samples: inout [IMUSample]) {
    events.withUnsafeBufferPointer { feed(contentsOf: $0, into: &samples) }
  }

  /// `SYN_DROPPED`, and the events after it up to and including the next `SYN_REPORT`.
  private mutating func discard(_ event: EvdevEvent) -> IMUSample? {
    if event.type == .synchronization && event.code == EvdevCode.synDropped {
      stats.droppedSynchronizations += 1
      discarding = true
      frameHasMotion = false
      frameDeviceTimestamp = nil
      return nil
    }
    stats.discardedEvents += 1
    if event.type == .synchronization && event.code == EvdevCode.synReport {
      discarding = false
    }
    return nil
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

  /// Closes a frame: the frame's flags are already cleared by the caller, the axes are in `raw`.
  private mutating func closeFrame(at eventTime: Double, device: UInt32?) -> IMUSample {
    noteArrival(eventTime)
    var t = eventTime
    if let device {
      let deviceTime = unwrap(device, eventTime: eventTime)
      if usesDeviceClock {
        t = mapped(deviceTime: deviceTime, eventTime: eventTime)
      }
    }
    if let last = lastTimestamp, !(t > last + 1e-6) {
      t = last + 1e-6
    }
    lastTimestamp = t
    stats.frames += 1
    let v = raw.values * scale
    let accel = Vector3(v[0], v[1], v[2])
    let gyro = Vector3(v[3], v[4], v[5])
    return IMUSample(
      timestamp: t, gyroscope: axisMapping.gyroscope * gyro,
      accelerometer: axisMapping.accelerometer * accel)
  }

  /// Unwraps a 32-bit device timestamp to 64-bit microseconds, counting wraps and resets, and
  /// notes its delta for the declared interval.
  private mutating func unwrap(_ device: UInt32, eventTime: Double) -> Int64 {
    guard let last = lastDeviceRaw else {
      lastDeviceRaw = device
      deviceMicroseconds = Int64(device)
      lastDeviceEventTime = eventTime
      return deviceMicroseconds
    }
    let delta = Int64(device &- last)
    let eventDelta = eventTime - lastDeviceEventTime
    lastDeviceRaw = device
    lastDeviceEventTime = eventTime
    if Double(delta) * 1e-6 > max(eventDelta, 0) + Self.clockResetThreshold {
      stats.deviceClockResets += 1
      appliedOffset = nil
    } else {
      if device < last { stats.timestampWraps += 1 }
      noteDelta(delta)
    }
    deviceMicroseconds += delta
    return deviceMicroseconds
  }

  /// The device time in seconds mapped onto the event clock (see the type's discussion).
  private mutating func mapped(deviceTime: Int64, eventTime: Double) -> Double {
    let device = Double(deviceTime) * 1e-6
    let observed = eventTime - device
    guard let applied = appliedOffset else {
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
    let step = max(device - lastMappedDevice, 0) * Self.offsetSlewPerSecond
    let next =
      previousBlockMinimum.isInfinite ? target : applied + min(max(target - applied, -step), step)
    appliedOffset = next
    lastMappedDevice = device
    return device + next
  }

  private mutating func noteDelta(_ delta: Int64) {
    if deltas.count < Self.declaredIntervalWindow {
      deltas.append(delta)
    } else {
      deltas[deltaNext] = delta
      deltaNext += 1
      if deltaNext == Self.declaredIntervalWindow { deltaNext = 0 }
    }
  }

  private mutating func noteArrival(_ eventTime: Double) {
    if firstFrameEventTime == nil { firstFrameEventTime = eventTime }
    if let last = lastFrameEventTime {
      let interval = eventTime - last
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

  /// The values as doubles in lanes 0-5.
  var values: SIMD8<Double> {
    SIMD8(
      Double(slots[0]), Double(slots[1]), Double(slots[2]), Double(slots[3]), Double(slots[4]),
      Double(slots[5]), 0, 0)
  }
}
