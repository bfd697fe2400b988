import Dispatch
import Foundation
import SwellTime
import Synchronization

/// Device motion for apps, mirroring CoreMotion's `CMMotionManager`, over any ``MotionSource``.
///
/// **The manager is the one loop that pulls its source.** While any updates run, one task pulls
/// ``MotionSource/next()``, fuses raw samples (every sample, by a ``DeviceMotionFuser``; device
/// motion passes through) and hands the results to every kind of update:
///
/// - **device motion**, paced by ``deviceMotionUpdateInterval`` as CoreMotion does: push
///   (``startDeviceMotionUpdates(using:to:withHandler:)`` calls a handler on an
///   `OperationQueue`), pull (``startDeviceMotionUpdates(using:)``, then read ``deviceMotion``,
///   updated on every sample, e.g. on each display-link tick) or async
///   (``deviceMotionUpdates(using:)``);
/// - **every fused sample**, in order, with back-pressure (``deviceMotionSamples(using:capacity:)``):
///   what engines that integrate over samples need (the viewer-offset engine, the water wave), and
///   what offline export and `swell fuse` read;
/// - **raw sensor data** like CoreMotion's accelerometer, gyroscope and magnetometer updates
///   (``startAccelerometerUpdates(to:withHandler:)`` and friends, in `MotionManager+Sensors`),
///   and every raw sample (``imuSamples(capacity:)``, for recorders).
///
/// Device-motion updates and sample delivery share one fusion, so they share one reference
/// frame: starting either in a frame ends the other's run in a different frame. The raw updates
/// run beside them.
///
/// **Intervals** are measured on the samples' timestamps: an update is delivered when a sample's
/// timestamp reaches the next due time (the first at the first sample, then every interval), so
/// a 100 Hz source with a 0.05 s interval gives 20 updates per second of data, whatever the
/// pace at which the source is replayed. A source slower than the interval delivers every
/// sample (like the hardware cap CoreMotion documents).
///
/// **6D or 9D** follows one rule (``AttitudeEstimator/Mode/init(referenceFrame:)``): the frames
/// that need north (every frame but `xArbitraryZVertical`) fuse the magnetometer, the arbitrary
/// frame does not. True north is computed in one place, ``DeviceMotionFuser``, from
/// ``magneticDeclination``.
///
/// **Errors** (``MotionManagerError``, `CMError` codes) go to the handlers or end the streams:
/// - `trueNorthNotAvailable` (102) when `xTrueNorthZVertical` is asked for without a
///   ``magneticDeclination``; updates do not start.
/// - `notAvailable` (109) when the frame needs a magnetometer the source lacks, or raw updates
///   are asked of a source of fused motion (updates do not start); or when the source fails for
///   good (updates stop).
/// - `deviceRequiresMovement` (101), once per start, when a frame that uses the magnetometer is
///   in use and the fused `DeviceMotion.magneticField` accuracy is still `.uncalibrated` one
///   second (of sample time) after the first sample; updates continue.
/// - A **transient** source error (``MotionSourceError/isTransient``: a device unplugged, a
///   phone out of reach) never ends updates: it is reported to push handlers as a
///   `notAvailable` error with ``MotionManagerError/isTransient`` set, and to
///   ``sourceErrorHandler``; then the source is asked again after a delay from ``retryPolicy``
///   (50 ms, doubling up to 1 s while it keeps failing, back to 50 ms after a success).
///
/// **Saved gyroscope calibration** (``gyroscopeCalibrationStore``, off by default): a source
/// with a ``MotionSource/deviceIdentity`` starts its fusion from the bias saved for that device,
/// and the bias found at rest is saved for the next run (`MotionManager+Calibration`).
///
/// **Start, stop, start again** (as `CMMotionManager`): a *run* lasts from a start that finds
/// nothing running to the stop of the last updates, or to the end or failure of the source
/// (`MotionRunState`). When a run ends the manager calls ``MotionSource/stop()``; the next
/// start begins a new run, which first calls ``MotionSource/restart()``: a live source reopens,
/// a recording replays from its first event. Any start after a stop therefore delivers, or fails
/// with a `notAvailable` (109) error that says why (the source cannot restart, or ended at once
/// when restarted); never nothing and no error. When a recorded source ends, updates stop and
/// the `is…Active` properties become false.
///
/// **One stream, shared.** All updates running at the same time (device motion, sample delivery,
/// raw accelerometer, gyroscope and magnetometer updates, ``imuSamples(capacity:)``) share the
/// run's one pass over the source: each event goes to every one of them, so consumers started
/// together (before the run's first event) see the same samples, and a consumer that starts
/// during a run joins it where it is, as on a device. Starting updates that replace running ones
/// (another reference frame) keeps the run. A recording replayed as fast as possible
/// (``RecordingSource/init(_:loops:)``) has no time of its own: its run pulls it as fast as the
/// consumers with back-pressure (``deviceMotionSamples(using:capacity:)``,
/// ``imuSamples(capacity:)``) take it, and pull-only updates (``startDeviceMotionUpdates(using:)``,
/// ``startAccelerometerUpdates()``) see it rush by; stopping them ends the run, so a later start
/// gets the whole recording again. For device-like timing, pace it
/// (``RecordingSource/init(_:pacedBy:)-(_,MonotonicClock)``).
public final class MotionManager: Sendable {
  /// How long to wait before asking a source again after a transient error.
  public struct RetryPolicy: Hashable, Sendable {
    /// The wait after the first failure in a row, seconds (default 0.05).
    public var initialDelay: Double
    /// The longest wait, seconds (default 1).
    public var maximumDelay: Double
    /// The factor between successive waits (default 2).
    public var multiplier: Double

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - initialDelay: Seconds after the first failure in a row.
    ///   - maximumDelay: The longest wait, seconds.
    ///   - multiplier: The factor between successive waits.
    public init(initialDelay: Double = 0.05, maximumDelay: Double = 1, multiplier: Double = 2) {
      self.initialDelay = initialDelay
      self.maximumDelay = maximumDelay
      self.multiplier = multiplier
    }

    /// The wait after `failures` failures in a row, seconds.
    ///
    /// - Parameter failures: 1 for the first failure.
    /// - Returns: `initialDelay · multiplier^(failures − 1)`, at most `maximumDelay`.
    public func delay(afterFailures failures: Int) -> Double {
      let exponent = Double(max(0, min(failures - 1, 64)))
      let d = initialDelay * pow(max(multiplier, 1), exponent)
      return d.isFinite ? max(0, min(d, maximumDelay)) : max(0, maximumDelay)
    }
  }

  /// The source of samples or device motion.
  public let source: any MotionSource
  /// Estimator settings used for fusion.
  public let settings: AttitudeEstimator.Settings
  /// How transient source errors are retried.
  public let retryPolicy: RetryPolicy
  /// The clock: retry waits, and the arrival times of ``MotionSamples``.
  public let clock: MonotonicClock
  let state = Mutex(State())
  /// Where the pull loop runs.
  let executor = QueueTaskExecutor(label: "swell.motion-manager")

  /// The shortest and longest update intervals, seconds.
  public static let updateIntervalRange: ClosedRange<Double> = 0.001...1

  /// Creates a manager over a source.
  ///
  /// - Parameters:
  ///   - source: Where samples come from.
  ///   - settings: Estimator settings for fusing raw samples.
  ///   - retryPolicy: The waits after transient source errors.
  ///   - clock: The clock the retry waits run on and sample arrivals are stamped with (default
  ///     `MonotonicClock/continuous`; tests pass a `ManualMonotonicClock`'s).
  public init(
    source: any MotionSource, settings: AttitudeEstimator.Settings = .init(),
    retryPolicy: RetryPolicy = RetryPolicy(), clock: MonotonicClock = .continuous
  ) {
    self.source = source
    self.settings = settings
    self.retryPolicy = retryPolicy
    self.clock = clock
  }

  // MARK: - State

  /// What runs: the subscriptions and the loop.
  struct State {
    var deviceMotionInterval = 0.01
    var declination: Double?
    var fusionMode: AttitudeEstimator.Mode?
    var frame = AttitudeReferenceFrame.xArbitraryZVertical
    var deviceMotion: DeviceMotion?
    var motion: MotionSubscription?
    var raw: [RawKind: RawSubscription] = [:]
    var imu: MotionSamples<IMUSample>?
    var nextID = 1
    /// Whether a run goes on, and which.
    var run = MotionRunState()
    /// The running run's loop.
    var loop: Task<Void, Never>?
    /// The end of the last run: its loop finished and its source stopped. The next run waits
    /// for it before it restarts the source.
    var lastRunEnd: Task<Void, Never>?
    var sourceErrorHandler: (@Sendable (MotionManagerError) -> Void)?
    var intervals: [RawKind: Double] = [:]
    var latestRaw = LatestRaw()
    var calibrationStore: GyroscopeCalibrationStore?
    var calibrationPolicy = CalibrationPolicy()
    var calibrationHandler: (@Sendable (GyroscopeCalibrationEvent) -> Void)?

    var isIdle: Bool { motion == nil && raw.isEmpty && imu == nil }
  }

  /// The latest raw readings.
  struct LatestRaw {
    var accelerometer: AccelerometerData?
    var gyro: GyroData?
    var magnetometer: MagnetometerData?
  }

  /// The kinds of raw update.
  enum RawKind: Hashable, Sendable, CaseIterable {
    case accelerometer, gyro, magnetometer
  }

  /// Where device-motion updates go.
  enum Delivery: Sendable {
    case pull
    case push(OperationQueue, @Sendable (DeviceMotion?, MotionManagerError?) -> Void)
    case stream(AsyncThrowingStream<DeviceMotion, any Error>.Continuation)
    case samples(MotionSamples<DeviceMotion>)

    func fail(_ error: MotionManagerError, final: Bool) {
      switch self {
      case .pull: break
      case .push(let queue, let handler): queue.addOperation { handler(nil, error) }
      case .stream(let c): if final { c.finish(throwing: error) }
      case .samples(let s):
        if final { s.finish(throwing: error) } else if error.isTransient { s.noteTransientError() }
      }
    }

    func end() {
      switch self {
      case .stream(let c): c.finish()
      case .samples(let s): s.finish()
      default: break
      }
    }
  }

  /// The running device-motion updates.
  struct MotionSubscription {
    var id: Int
    var frame: AttitudeReferenceFrame
    var mode: AttitudeEstimator.Mode
    var declination: Double
    var interval: Double
    var delivery: Delivery
    var nextDue: Double?
    var firstTime: Double?
    var warnedMovement = false
  }

  /// Where raw updates go.
  enum RawDelivery: Sendable {
    case pull
    case push(@Sendable (RawReading) -> Void, @Sendable (MotionManagerError) -> Void)
    case stream(@Sendable (RawReading) -> Void, @Sendable (MotionManagerError?) -> Void)

    func fail(_ error: MotionManagerError, final: Bool) {
      switch self {
      case .pull: break
      case .push(_, let failed): failed(error)
      case .stream(_, let finish): if final { finish(error) }
      }
    }

    func end() {
      if case .stream(_, let finish) = self { finish(nil) }
    }
  }

  /// One raw reading of any kind.
  enum RawReading: Sendable {
    case accelerometer(AccelerometerData)
    case gyro(GyroData)
    case magnetometer(MagnetometerData)
  }

  /// Running raw updates of one kind.
  struct RawSubscription {
    var id: Int
    var interval: Double
    var delivery: RawDelivery
    var nextDue: Double?
  }

  // MARK: - Device motion: settings and state

  /// True: a manager always has a source (`CMMotionManager.isDeviceMotionAvailable`).
  public var isDeviceMotionAvailable: Bool { true }

  /// Seconds between pushed or streamed device-motion updates (default 0.01), clamped to
  /// ``updateIntervalRange``; takes effect at the next start
  /// (`CMMotionManager.deviceMotionUpdateInterval`).
  public var deviceMotionUpdateInterval: Double {
    get { state.withLock { $0.deviceMotionInterval } }
    set { state.withLock { $0.deviceMotionInterval = Self.clampedInterval(newValue) } }
  }

  static func clampedInterval(_ value: Double) -> Double {
    let v = value.isFinite ? value : 0.01
    return min(updateIntervalRange.upperBound, max(updateIntervalRange.lowerBound, v))
  }

  /// Magnetic declination, degrees, east positive; needed for `xTrueNorthZVertical`
  /// (CoreMotion gets it from the location; here the user gives it). The one place where true
  /// north comes from.
  public var magneticDeclination: Double? {
    get { state.withLock { $0.declination } }
    set { state.withLock { $0.declination = newValue } }
  }

  /// The fusion mode; `nil` (the default) follows the one rule,
  /// ``AttitudeEstimator/Mode/init(referenceFrame:)``. `.nineD` in `xArbitraryZVertical` fuses
  /// the magnetometer in an arbitrary frame (`swell fuse --9d`); a source without a magnetometer
  /// then fails with `notAvailable`. Takes effect at the next start.
  public var fusionMode: AttitudeEstimator.Mode? {
    get { state.withLock { $0.fusionMode } }
    set { state.withLock { $0.fusionMode = newValue } }
  }

  /// The fusion mode of the running device-motion updates: the one 6D/9D decision with
  /// ``fusionMode``'s override applied; `nil` while no device-motion updates run.
  public var activeFusionMode: AttitudeEstimator.Mode? {
    state.withLock { $0.motion?.mode }
  }

  /// Receives every source error as it happens, transient or final (for logs and status lines);
  /// called on the manager's task.
  public var sourceErrorHandler: (@Sendable (MotionManagerError) -> Void)? {
    get { state.withLock { $0.sourceErrorHandler } }
    set { state.withLock { $0.sourceErrorHandler = newValue } }
  }

  /// True while device-motion updates (or sample delivery) run.
  public var isDeviceMotionActive: Bool { state.withLock { $0.motion != nil } }

  /// The latest device motion (every fused sample), or `nil` before the first.
  public var deviceMotion: DeviceMotion? { state.withLock { $0.deviceMotion } }

  /// The reference frame of the running (or last) device-motion updates.
  public var attitudeReferenceFrame: AttitudeReferenceFrame { state.withLock { $0.frame } }

  /// The reference frames a source supports: all four with a magnetometer, else only
  /// `xArbitraryZVertical` (`CMMotionManager.availableAttitudeReferenceFrames()`).
  ///
  /// - Parameter source: The source.
  /// - Returns: The available frames.
  public static func availableAttitudeReferenceFrames(
    for source: any MotionSource
  ) -> Set<AttitudeReferenceFrame> {
    source.hasMagnetometer ? Set(AttitudeReferenceFrame.allCases) : [.xArbitraryZVertical]
  }

  /// The reference frames this manager's source supports.
  public var availableAttitudeReferenceFrames: Set<AttitudeReferenceFrame> {
    Self.availableAttitudeReferenceFrames(for: source)
  }

  // MARK: - Device motion: starting and stopping

  /// Starts updates for pulling: read ``deviceMotion`` when needed.
  ///
  /// - Parameter referenceFrame: The frame of the attitudes.
  public func startDeviceMotionUpdates(
    using referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical
  ) {
    startMotion(referenceFrame, .pull)
  }

  /// Starts pushed updates: `handler` is called on `queue` once per
  /// ``deviceMotionUpdateInterval`` with the motion, or with an error.
  ///
  /// - Parameters:
  ///   - referenceFrame: The frame of the attitudes.
  ///   - queue: The operation queue the handler runs on.
  ///   - handler: Receives `(motion, nil)` or `(nil, error)`.
  public func startDeviceMotionUpdates(
    using referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical, to queue: OperationQueue,
    withHandler handler: @escaping @Sendable (DeviceMotion?, MotionManagerError?) -> Void
  ) {
    startMotion(referenceFrame, .push(queue, handler))
  }

  /// Starts updates as an asynchronous sequence, one element per ``deviceMotionUpdateInterval``.
  ///
  /// The stream ends when updates stop (``stopDeviceMotionUpdates()``, or the source ends) and
  /// throws a ``MotionManagerError`` when they fail. Starting other device-motion updates ends
  /// it.
  ///
  /// - Parameter referenceFrame: The frame of the attitudes.
  /// - Returns: The updates.
  public func deviceMotionUpdates(
    using referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical
  ) -> AsyncThrowingStream<DeviceMotion, any Error> {
    let (stream, continuation) = AsyncThrowingStream<DeviceMotion, any Error>.makeStream()
    let id = startMotion(referenceFrame, .stream(continuation))
    continuation.onTermination = { [weak self] reason in
      if case .cancelled = reason { self?.stopMotion(id: id) }
    }
    return stream
  }

  /// Starts delivery of **every** fused sample, in order, with back-pressure: the pull waits
  /// while `capacity` samples are queued, so nothing is dropped and memory stays bounded.
  ///
  /// The samples end when updates stop (``stopDeviceMotionUpdates()``, ``MotionSamples/cancel()``,
  /// or the source ends) and throw a ``MotionManagerError`` when the source fails for good.
  /// Sample delivery is the device-motion update of this manager (it replaces running
  /// device-motion updates, and starting those replaces it); ``deviceMotion`` follows it.
  ///
  /// - Parameters:
  ///   - referenceFrame: The frame of the attitudes.
  ///   - capacity: The most samples queued before the pull waits (default 1024).
  /// - Returns: The samples.
  public func deviceMotionSamples(
    using referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical, capacity: Int = 1024
  ) -> MotionSamples<DeviceMotion> {
    let samples = MotionSamples<DeviceMotion>(capacity: capacity, clock: clock)
    let id = startMotion(referenceFrame, .samples(samples))
    samples.onCancel { [weak self] in self?.stopMotion(id: id) }
    return samples
  }

  /// Stops device-motion updates and sample delivery; ``deviceMotion`` keeps its last value.
  public func stopDeviceMotionUpdates() {
    stopMotion(id: nil)
  }

  /// Waits until the running updates of every kind end (the source ended or failed, or the
  /// updates were stopped) and the source has been stopped.
  public func waitUntilUpdatesEnd() async {
    let task = state.withLock { $0.loop }
    await task?.value
    let end = state.withLock { $0.loop == nil ? $0.lastRunEnd : nil }
    await end?.value
  }

  @discardableResult
  private func startMotion(_ frame: AttitudeReferenceFrame, _ delivery: Delivery) -> Int {
    // Replacing running device-motion updates keeps the run (and the source) going.
    let replaced: MotionSubscription? = state.withLock { s in
      defer { s.motion = nil }
      return s.motion
    }
    replaced?.delivery.end()
    let (declination, id, interval, override) = state.withLock { s in
      s.frame = frame
      defer { s.nextID += 1 }
      return (s.declination, s.nextID, s.deviceMotionInterval, s.fusionMode)
    }
    // The one 6D/9D decision (fusionMode(for:override:sourceName:hasMagnetometer:)); a source
    // that learns its sensors from its samples is checked at its first sample instead.
    let mode: AttitudeEstimator.Mode
    do {
      mode = try Self.fusionMode(
        source: source, frame: frame, override: override, declination: declination)
    } catch {
      delivery.fail(error, final: true)
      stopLoopIfIdle()
      return id
    }
    state.withLock { s in
      s.motion = MotionSubscription(
        id: id, frame: frame, mode: mode, declination: declination ?? 0, interval: interval,
        delivery: delivery)
    }
    ensureLoop()
    return id
  }

  /// The error of a 9D request to a source without a magnetometer.
  static func missingMagnetometer(source: String, frame: AttitudeReferenceFrame)
    -> MotionManagerError
  {
    MotionManagerError(
      .notAvailable,
      "\(source) has no magnetometer; \(frame.name) with 9D fusion needs one")
  }

  /// Ends the device-motion subscription (`id`: only if it is still that one).
  func stopMotion(id: Int?) {
    let ended: MotionSubscription? = state.withLock { s in
      guard let m = s.motion, id == nil || m.id == id else { return nil }
      s.motion = nil
      return m
    }
    ended?.delivery.end()
    stopLoopIfIdle()
  }

  // MARK: - The loop (the driver of MotionRunState)

  /// Begins a run if none goes on (called after a subscription was added).
  func ensureLoop() {
    state.withLock { s in
      guard case .beginRun(let run, let restart) = s.run.started() else { return }
      let previous = s.lastRunEnd
      // The loop runs on a thread of the manager's own (a serial dispatch queue), not on
      // Swift's cooperative pool: consumers may block a thread while they wait for samples
      // (`MotionSamples.waitForNext()`), and on a small machine they could otherwise take every
      // thread of the pool the loop needs.
      s.loop = Task.detached(executorPreference: executor) { [self] in
        await previous?.value
        await self.run(run, restart: restart)
      }
    }
  }

  /// Ends the run when nothing subscribes any more: cancels the loop and stops the source.
  func stopLoopIfIdle() {
    state.withLock { s in
      guard s.isIdle, case .endRun = s.run.lastUpdatesStopped() else { return }
      s.loop?.cancel()
      s.lastRunEnd = stoppingSource(after: s.loop)
      s.loop = nil
    }
  }

  /// A task that stops the source (at once, so that a pending `next()` returns) and then
  /// waits for the run's loop to finish.
  private func stoppingSource(after loop: Task<Void, Never>?) -> Task<Void, Never> {
    let source = self.source
    return Task.detached {
      await source.stop()
      await loop?.value
    }
  }

  private func run(_ run: Int, restart: Bool) async {
    if restart {
      do {
        try await source.restart()
      } catch is CancellationError {
        return
      } catch {
        endAll(
          run: run,
          failure: MotionManagerError(
            .notAvailable, "\(source.name) cannot restart after a stop: \(error)",
            sourceMessage: "\(error)"))
        return
      }
    }
    var fuser: DeviceMotionFuser?
    var fuserID = 0
    var failures = 0
    // The saved gyroscope calibration (MotionManager+Calibration): seeds each fuser, saves the
    // bias found at rest, and the last one when the run ends, whichever way it ends.
    // A source without a gyroscope has no bias to save or seed.
    var calibration = source.hasGyroscope ? CalibrationSession(manager: self) : nil
    defer { calibration?.finish() }
    while !Task.isCancelled {
      let event: MotionEvent?
      do {
        event = try await source.next()
        failures = 0
      } catch is CancellationError {
        break
      } catch let error as MotionSourceError where error.isTransient {
        if Task.isCancelled { break }
        failures += 1
        reportTransient(error)
        do {
          try await clock.sleep(until: clock.now() + retryPolicy.delay(afterFailures: failures))
        } catch {
          break
        }
        continue
      } catch {
        if Task.isCancelled { break }
        endAll(
          run: run,
          failure: MotionManagerError(
            .notAvailable, "\(source.name) failed: \(error)", sourceMessage: "\(error)"))
        return
      }
      guard let event else {
        sourceEnded(run: run)
        return
      }
      // A run that was stopped while its `next()` was pending must not hand its event to the
      // subscriptions of the run that replaced it (that run replays the source from its start).
      guard !Task.isCancelled, state.withLock({ $0.run.isRunning(run) }) else { break }
      // Fuse for the device-motion subscription (the fuser is this task's own).
      let subscription = state.withLock { s in
        s.run.delivered(run: run)
        return s.motion.map { ($0.id, $0.frame, $0.mode, $0.declination) }
      }
      var motion: DeviceMotion?
      if let (id, frame, mode, declination) = subscription {
        if fuserID != id || fuser == nil {
          var created = DeviceMotionFuser(
            mode: mode, referenceFrame: frame, declinationDegrees: declination,
            settings: settings, hasGyroscope: source.hasGyroscope)
          calibration?.seed(&created)
          fuser = created
          fuserID = id
        }
        switch event {
        case .sample(let s):
          if mode == .nineD && s.magnetometer == nil && !source.sensorsAreKnown {
            let error = Self.missingMagnetometer(source: source.name, frame: frame)
            endAll(run: run, failure: error)
            return
          }
          motion = fuser?.update(s)
          if calibration != nil, let estimator = fuser?.estimator {
            calibration?.observe(estimator, timestamp: s.timestamp)
          }
        case .deviceMotion(let m): motion = m
        }
        if let m = motion, !(m.attitude.quaternion.isFinite && m.gravity.isFinite) { motion = nil }
      }
      var deliveries = state.withLock { s in
        collectDeliveries(&s, event: event, motion: motion, motionID: fuserID)
      }
      await deliveries.perform()
    }
    // Cancelled by a stop (the run is already over: ignored), or the source threw a
    // cancellation of its own: the run ends as if the source had ended.
    sourceEnded(run: run)
  }

  /// The source ended: end the updates, or fail them when a restarted source gave nothing.
  private func sourceEnded(run: Int) {
    let action = state.withLock { s in
      // Peek: endAll makes the transition.
      var copy = s.run
      return copy.sourceEnded(run: run)
    }
    switch action {
    case .ignore: return
    case .endUpdates: endAll(run: run, failure: nil)
    case .failEndedAfterRestart:
      endAll(
        run: run,
        failure: MotionManagerError(
          .notAvailable,
          "\(source.name) ended at once when restarted: it cannot deliver after a stop"))
    }
  }

  /// What one event delivers, gathered under the lock and performed outside it. Samples go
  /// straight into a queue with room; only a full queue makes the loop wait (back-pressure).
  struct Deliveries {
    var motion: (Delivery, DeviceMotion)?
    var movementWarning: Delivery?
    var imu: (MotionSamples<IMUSample>, IMUSample)?
    var raw: [(RawDelivery, RawReading)] = []

    mutating func perform() async {
      if let warning = movementWarning {
        warning.fail(
          MotionManagerError(
            .deviceRequiresMovement,
            "the magnetometer is not calibrated; move the device in a figure eight"),
          final: false)
      }
      if let (delivery, m) = motion {
        switch delivery {
        case .samples(let samples): if !samples.tryPush(m) { await samples.push(m) }
        case .push(let queue, let handler): queue.addOperation { handler(m, nil) }
        case .stream(let c): c.yield(m)
        case .pull: break
        }
      }
      if let (samples, sample) = imu, !samples.tryPush(sample) { await samples.push(sample) }
      for (delivery, reading) in raw {
        switch delivery {
        case .pull: break
        case .push(let deliver, _), .stream(let deliver, _): deliver(reading)
        }
      }
    }
  }

  /// Updates the state for one event and returns the deliveries to make outside the lock.
  private func collectDeliveries(
    _ s: inout State, event: MotionEvent, motion: DeviceMotion?, motionID: Int
  ) -> Deliveries {
    var out = Deliveries()
    if let motion, var sub = s.motion, sub.id == motionID {
      s.deviceMotion = motion
      let t = motion.timestamp
      if sub.firstTime == nil { sub.firstTime = t }
      if sub.frame.needsMagnetometer, !sub.warnedMovement, let t0 = sub.firstTime, t - t0 >= 1,
        motion.magneticField.accuracy == .uncalibrated
      {
        sub.warnedMovement = true
        out.movementWarning = sub.delivery
      }
      switch sub.delivery {
      case .samples:
        out.motion = (sub.delivery, motion)
      case .pull:
        break
      case .push, .stream:
        let tolerance = min(1e-6, sub.interval * 1e-3)
        if t + tolerance >= (sub.nextDue ?? t) {
          var due = (sub.nextDue ?? t) + sub.interval
          if due <= t { due = t + sub.interval }
          sub.nextDue = due
          out.motion = (sub.delivery, motion)
        }
      }
      s.motion = sub
    }
    guard case .sample(let sample) = event else { return out }
    if let imu = s.imu { out.imu = (imu, sample) }
    s.latestRaw.accelerometer = AccelerometerData(sample)
    s.latestRaw.gyro = GyroData(sample)
    if let m = MagnetometerData(sample) { s.latestRaw.magnetometer = m }
    guard !s.raw.isEmpty else { return out }
    for (kind, var sub) in s.raw {
      let reading: RawReading?
      switch kind {
      case .accelerometer: reading = .accelerometer(AccelerometerData(sample))
      case .gyro: reading = .gyro(GyroData(sample))
      case .magnetometer: reading = MagnetometerData(sample).map(RawReading.magnetometer)
      }
      guard let reading else { continue }
      let t = sample.timestamp
      let tolerance = min(1e-6, sub.interval * 1e-3)
      guard t + tolerance >= (sub.nextDue ?? t) else { continue }
      var due = (sub.nextDue ?? t) + sub.interval
      if due <= t { due = t + sub.interval }
      sub.nextDue = due
      s.raw[kind] = sub
      out.raw.append((sub.delivery, reading))
    }
    return out
  }

  private func reportTransient(_ error: MotionSourceError) {
    let reported = MotionManagerError(
      .notAvailable, "\(source.name): \(error.message)", isTransient: true,
      sourceMessage: error.message)
    let (motion, raw, imu, handler) = state.withLock { s in
      (s.motion?.delivery, s.raw.values.map(\.delivery), s.imu, s.sourceErrorHandler)
    }
    motion?.fail(reported, final: false)
    for r in raw { r.fail(reported, final: false) }
    imu?.noteTransientError()
    handler?(reported)
  }

  /// Ends every subscription of a run: the source ended (`failure` nil) or failed for good.
  /// Called by the run's own loop, which returns right after.
  private func endAll(run: Int, failure: MotionManagerError?) {
    let ended = state.withLock {
      s -> (MotionSubscription?, [RawSubscription], MotionSamples<IMUSample>?)? in
      guard s.run.sourceFailed(run: run) else { return nil }
      defer {
        s.motion = nil
        s.raw = [:]
        s.imu = nil
        s.lastRunEnd = stoppingSource(after: s.loop)
        s.loop = nil
      }
      return (s.motion, Array(s.raw.values), s.imu)
    }
    guard let (motion, raw, imu) = ended else { return }
    let handler = state.withLock { $0.sourceErrorHandler }
    if let failure {
      handler?(failure)
      motion?.delivery.fail(failure, final: true)
      for r in raw { r.delivery.fail(failure, final: true) }
      imu?.finish(throwing: failure)
    } else {
      motion?.delivery.end()
      for r in raw { r.delivery.end() }
      imu?.finish()
    }
  }
}

/// A task executor running jobs on a serial dispatch queue: a thread outside Swift's cooperative
/// pool.
final class QueueTaskExecutor: TaskExecutor, @unchecked Sendable {
  // @unchecked: the queue is thread-safe; it is the only stored property.
  private let queue: DispatchQueue

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    queue.async { unowned.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }

  func asUnownedTaskExecutor() -> UnownedTaskExecutor {
    UnownedTaskExecutor(ordinary: self)
  }
}
