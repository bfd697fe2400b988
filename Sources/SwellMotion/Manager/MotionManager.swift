import Foundation
import Synchronization

/// Device motion for apps, mirroring CoreMotion's `CMMotionManager`.
///
/// A manager pulls events from one ``MotionSource``: raw samples are fused (every sample) by a
/// ``DeviceMotionFuser``, device motion passes through. Updates are delivered three ways:
/// - **push**: ``startDeviceMotionUpdates(using:to:withHandler:)`` calls a handler on an
///   `OperationQueue` (as CoreMotion does) once per ``deviceMotionUpdateInterval``;
/// - **pull**: ``startDeviceMotionUpdates(using:)``, then read ``deviceMotion`` (the latest
///   fused motion, updated on every sample) whenever you like, e.g. on each display-link tick;
/// - **async**: ``deviceMotionUpdates(using:)``, an `AsyncThrowingStream`, once per interval.
///
/// The interval is measured on the samples' timestamps: an update is delivered when a sample's
/// timestamp reaches the next due time (the first at the first sample, then every interval), so
/// a 100 Hz source with a 0.05 s interval gives 20 updates per second of data, whatever the
/// pace at which the source is replayed. A source slower than the interval delivers every
/// sample (like the hardware cap CoreMotion documents).
///
/// Errors (``MotionManagerError``, `CMError` codes) go to the handler or end the stream:
/// - `trueNorthNotAvailable` (102) when `xTrueNorthZVertical` is asked for without a
///   ``magneticDeclination``; updates do not start.
/// - `notAvailable` (109) when the frame needs a magnetometer the source lacks (updates do not
///   start), or when the source fails (updates stop).
/// - `deviceRequiresMovement` (101), once per start, when a frame that uses the magnetometer is
///   in use and the fused ``DeviceMotion/magneticField`` accuracy is still `.uncalibrated` one
///   second (of sample time) after the first sample; updates continue.
///
/// When a recorded source ends, updates stop and ``isDeviceMotionActive`` becomes false.
public final class MotionManager: Sendable {
  private struct State {
    var interval = 0.01
    var declination: Double?
    var frame = AttitudeReferenceFrame.xArbitraryZVertical
    var deviceMotion: DeviceMotion?
    var active = false
    var generation = 0
    var task: Task<Void, Never>?
    var finish: (@Sendable () -> Void)?
  }

  /// Where updates go.
  private enum Delivery: Sendable {
    case pull
    case push(OperationQueue, @Sendable (DeviceMotion?, MotionManagerError?) -> Void)
    case stream(AsyncThrowingStream<DeviceMotion, any Error>.Continuation)

    func deliver(_ motion: DeviceMotion) {
      switch self {
      case .pull: break
      case .push(let queue, let handler): queue.addOperation { handler(motion, nil) }
      case .stream(let c): c.yield(motion)
      }
    }

    func fail(_ error: MotionManagerError, final: Bool) {
      switch self {
      case .pull: break
      case .push(let queue, let handler): queue.addOperation { handler(nil, error) }
      case .stream(let c): if final { c.finish(throwing: error) }
      }
    }

    func end() {
      if case .stream(let c) = self { c.finish() }
    }
  }

  /// The source of samples or device motion.
  public let source: any MotionSource
  /// Estimator settings used for fusion.
  public let settings: AttitudeEstimator.Settings
  private let state = Mutex(State())

  /// The shortest and longest update intervals, seconds.
  public static let updateIntervalRange: ClosedRange<Double> = 0.001...1

  /// Creates a manager over a source.
  ///
  /// - Parameters:
  ///   - source: Where samples come from.
  ///   - settings: Estimator settings for fusing raw samples.
  public init(source: any MotionSource, settings: AttitudeEstimator.Settings = .init()) {
    self.source = source
    self.settings = settings
  }

  /// True: a manager always has a source (`CMMotionManager.isDeviceMotionAvailable`).
  public var isDeviceMotionAvailable: Bool { true }

  /// Seconds between pushed or streamed updates (default 0.01), clamped to
  /// ``updateIntervalRange``; takes effect at the next start.
  public var deviceMotionUpdateInterval: Double {
    get { state.withLock { $0.interval } }
    set {
      let v = newValue.isFinite ? newValue : 0.01
      let clamped = min(
        Self.updateIntervalRange.upperBound, max(Self.updateIntervalRange.lowerBound, v))
      state.withLock { $0.interval = clamped }
    }
  }

  /// Magnetic declination, degrees, east positive; needed for `xTrueNorthZVertical`
  /// (CoreMotion gets it from the location; here the user gives it).
  public var magneticDeclination: Double? {
    get { state.withLock { $0.declination } }
    set { state.withLock { $0.declination = newValue } }
  }

  /// True while updates are running.
  public var isDeviceMotionActive: Bool { state.withLock { $0.active } }

  /// The latest device motion (every fused sample), or `nil` before the first.
  public var deviceMotion: DeviceMotion? { state.withLock { $0.deviceMotion } }

  /// The reference frame of the running (or last) updates.
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

  /// Starts updates for pulling: read ``deviceMotion`` when needed.
  ///
  /// - Parameter referenceFrame: The frame of the attitudes.
  public func startDeviceMotionUpdates(
    using referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical
  ) {
    start(referenceFrame, .pull)
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
    start(referenceFrame, .push(queue, handler))
  }

  /// Starts updates as an asynchronous sequence, one element per ``deviceMotionUpdateInterval``.
  ///
  /// The stream ends when updates stop (``stopDeviceMotionUpdates()``, or the source ends) and
  /// throws a ``MotionManagerError`` when they fail. Starting other updates ends it.
  ///
  /// - Parameter referenceFrame: The frame of the attitudes.
  /// - Returns: The updates.
  public func deviceMotionUpdates(
    using referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical
  ) -> AsyncThrowingStream<DeviceMotion, any Error> {
    let (stream, continuation) = AsyncThrowingStream<DeviceMotion, any Error>.makeStream()
    continuation.onTermination = { [weak self] reason in
      if case .cancelled = reason { self?.stopDeviceMotionUpdates() }
    }
    start(referenceFrame, .stream(continuation))
    return stream
  }

  /// Stops updates; ``deviceMotion`` keeps its last value.
  public func stopDeviceMotionUpdates() {
    let (task, finish) = state.withLock { s in
      s.generation += 1
      s.active = false
      defer {
        s.task = nil
        s.finish = nil
      }
      return (s.task, s.finish)
    }
    task?.cancel()
    finish?()
  }

  /// Waits until the running updates end (the source ended, failed, or updates were stopped).
  public func waitUntilUpdatesEnd() async {
    let task = state.withLock { $0.task }
    await task?.value
  }

  private func start(_ frame: AttitudeReferenceFrame, _ delivery: Delivery) {
    stopDeviceMotionUpdates()
    let declination = state.withLock { $0.declination }
    if frame.needsMagnetometer && !source.hasMagnetometer {
      state.withLock { $0.frame = frame }
      delivery.fail(
        MotionManagerError(
          .notAvailable, "\(frame.name) needs a magnetometer and \(source.name) has none"),
        final: true)
      return
    }
    if frame == .xTrueNorthZVertical && declination == nil {
      state.withLock { $0.frame = frame }
      delivery.fail(
        MotionManagerError(
          .trueNorthNotAvailable, "xTrueNorthZVertical needs magneticDeclination to be set"),
        final: true)
      return
    }
    state.withLock { s in
      s.frame = frame
      s.active = true
      let generation = s.generation
      let interval = s.interval
      let fuser = DeviceMotionFuser(
        mode: frame.needsMagnetometer ? .nineD : .sixD, referenceFrame: frame,
        declinationDegrees: declination ?? 0, settings: settings)
      s.finish = { delivery.end() }
      s.task = Task { [self] in
        await run(generation: generation, interval: interval, fuser: fuser, delivery: delivery)
      }
    }
  }

  private func isCurrent(_ generation: Int) -> Bool {
    state.withLock { $0.generation == generation }
  }

  private func run(
    generation: Int, interval: Double, fuser initial: DeviceMotionFuser, delivery: Delivery
  ) async {
    var fuser = initial
    var nextDue: Double?
    var firstTime: Double?
    var warnedMovement = false
    let tolerance = min(1e-6, interval * 1e-3)
    let usesMagnetometer = fuser.referenceFrame.needsMagnetometer
    while !Task.isCancelled {
      let event: MotionEvent?
      do {
        event = try await source.next()
      } catch is CancellationError {
        return
      } catch {
        guard isCurrent(generation) else { return }
        finishRun(generation)
        delivery.fail(
          MotionManagerError(.notAvailable, "\(source.name) failed: \(error)"), final: true)
        return
      }
      guard let event else { break }
      let motion: DeviceMotion
      switch event {
      case .sample(let s): motion = fuser.update(s)
      case .deviceMotion(let m): motion = m
      }
      guard motion.attitude.quaternion.isFinite, motion.gravity.isFinite else { continue }
      let stillCurrent: Bool = state.withLock { s in
        guard s.generation == generation else { return false }
        s.deviceMotion = motion
        return true
      }
      guard stillCurrent else { return }
      let t = motion.timestamp
      if firstTime == nil { firstTime = t }
      if usesMagnetometer, !warnedMovement, let t0 = firstTime, t - t0 >= 1,
        motion.magneticField.accuracy == .uncalibrated
      {
        warnedMovement = true
        delivery.fail(
          MotionManagerError(
            .deviceRequiresMovement,
            "the magnetometer is not calibrated; move the device in a figure eight"),
          final: false)
      }
      if t + tolerance >= (nextDue ?? t) {
        delivery.deliver(motion)
        var due = (nextDue ?? t) + interval
        if due <= t { due = t + interval }
        nextDue = due
      }
    }
    guard isCurrent(generation) else { return }
    finishRun(generation)
    delivery.end()
  }

  private func finishRun(_ generation: Int) {
    state.withLock { s in
      guard s.generation == generation else { return }
      s.active = false
      s.finish = nil
    }
  }
}
