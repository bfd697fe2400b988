import Foundation

// MARK: - Raw sensor updates (CMMotionManager's accelerometer, gyro and magnetometer triplets)

extension MotionManager {
  /// True when the source delivers raw samples, so accelerometer readings exist
  /// (`CMMotionManager.isAccelerometerAvailable`).
  public var isAccelerometerAvailable: Bool { source.providesRawSamples }
  /// True when the source delivers raw samples (`CMMotionManager.isGyroAvailable`).
  public var isGyroAvailable: Bool { source.providesRawSamples }
  /// True when the source delivers raw samples with a magnetometer
  /// (`CMMotionManager.isMagnetometerAvailable`).
  public var isMagnetometerAvailable: Bool { source.providesRawSamples && source.hasMagnetometer }

  /// Seconds between pushed or streamed accelerometer updates (default 0.01), clamped to
  /// ``updateIntervalRange`` (`CMMotionManager.accelerometerUpdateInterval`).
  public var accelerometerUpdateInterval: Double {
    get { interval(.accelerometer) }
    set { setInterval(.accelerometer, newValue) }
  }
  /// Seconds between pushed or streamed gyroscope updates (default 0.01)
  /// (`CMMotionManager.gyroUpdateInterval`).
  public var gyroUpdateInterval: Double {
    get { interval(.gyro) }
    set { setInterval(.gyro, newValue) }
  }
  /// Seconds between pushed or streamed magnetometer updates (default 0.01)
  /// (`CMMotionManager.magnetometerUpdateInterval`).
  public var magnetometerUpdateInterval: Double {
    get { interval(.magnetometer) }
    set { setInterval(.magnetometer, newValue) }
  }

  /// True while accelerometer updates run (`CMMotionManager.isAccelerometerActive`).
  public var isAccelerometerActive: Bool { state.withLock { $0.raw[.accelerometer] != nil } }
  /// True while gyroscope updates run (`CMMotionManager.isGyroActive`).
  public var isGyroActive: Bool { state.withLock { $0.raw[.gyro] != nil } }
  /// True while magnetometer updates run (`CMMotionManager.isMagnetometerActive`).
  public var isMagnetometerActive: Bool { state.withLock { $0.raw[.magnetometer] != nil } }

  /// The latest accelerometer reading, or `nil` before the first
  /// (`CMMotionManager.accelerometerData`).
  public var accelerometerData: AccelerometerData? { state.withLock { $0.latestRaw.accelerometer } }
  /// The latest gyroscope reading, or `nil` before the first (`CMMotionManager.gyroData`).
  public var gyroData: GyroData? { state.withLock { $0.latestRaw.gyro } }
  /// The latest magnetometer reading, or `nil` before the first
  /// (`CMMotionManager.magnetometerData`).
  public var magnetometerData: MagnetometerData? { state.withLock { $0.latestRaw.magnetometer } }

  private func interval(_ kind: RawKind) -> Double {
    state.withLock { $0.intervals[kind] ?? 0.01 }
  }

  private func setInterval(_ kind: RawKind, _ value: Double) {
    state.withLock { $0.intervals[kind] = Self.clampedInterval(value) }
  }

  // MARK: Accelerometer

  /// Starts accelerometer updates for pulling: read ``accelerometerData`` when needed.
  public func startAccelerometerUpdates() { startRaw(.accelerometer, .pull) }

  /// Starts pushed accelerometer updates: `handler` is called on `queue` once per
  /// ``accelerometerUpdateInterval`` with a reading, or with an error
  /// (`startAccelerometerUpdates(to:withHandler:)`).
  ///
  /// - Parameters:
  ///   - queue: The operation queue the handler runs on.
  ///   - handler: Receives `(data, nil)` or `(nil, error)`.
  public func startAccelerometerUpdates(
    to queue: OperationQueue,
    withHandler handler: @escaping @Sendable (AccelerometerData?, MotionManagerError?) -> Void
  ) {
    startRaw(
      .accelerometer,
      .push(
        { r in if case .accelerometer(let a) = r { queue.addOperation { handler(a, nil) } } },
        { e in queue.addOperation { handler(nil, e) } }))
  }

  /// Accelerometer updates as an asynchronous sequence, one per ``accelerometerUpdateInterval``.
  ///
  /// - Returns: The readings; the stream ends when updates stop and throws a
  ///   ``MotionManagerError`` when they fail.
  public func accelerometerUpdates() -> AsyncThrowingStream<AccelerometerData, any Error> {
    rawStream(.accelerometer) { r in
      if case .accelerometer(let a) = r { return a }
      return nil
    }
  }

  /// Stops accelerometer updates (`stopAccelerometerUpdates()`).
  public func stopAccelerometerUpdates() { stopRaw(.accelerometer, id: nil) }

  // MARK: Gyroscope

  /// Starts gyroscope updates for pulling: read ``gyroData`` when needed.
  public func startGyroUpdates() { startRaw(.gyro, .pull) }

  /// Starts pushed gyroscope updates: `handler` is called on `queue` once per
  /// ``gyroUpdateInterval`` (`startGyroUpdates(to:withHandler:)`).
  ///
  /// - Parameters:
  ///   - queue: The operation queue the handler runs on.
  ///   - handler: Receives `(data, nil)` or `(nil, error)`.
  public func startGyroUpdates(
    to queue: OperationQueue,
    withHandler handler: @escaping @Sendable (GyroData?, MotionManagerError?) -> Void
  ) {
    startRaw(
      .gyro,
      .push(
        { r in if case .gyro(let g) = r { queue.addOperation { handler(g, nil) } } },
        { e in queue.addOperation { handler(nil, e) } }))
  }

  /// Gyroscope updates as an asynchronous sequence, one per ``gyroUpdateInterval``.
  ///
  /// - Returns: The readings.
  public func gyroUpdates() -> AsyncThrowingStream<GyroData, any Error> {
    rawStream(.gyro) { r in
      if case .gyro(let g) = r { return g }
      return nil
    }
  }

  /// Stops gyroscope updates (`stopGyroUpdates()`).
  public func stopGyroUpdates() { stopRaw(.gyro, id: nil) }

  // MARK: Magnetometer

  /// Starts magnetometer updates for pulling: read ``magnetometerData`` when needed.
  public func startMagnetometerUpdates() { startRaw(.magnetometer, .pull) }

  /// Starts pushed magnetometer updates: `handler` is called on `queue` once per
  /// ``magnetometerUpdateInterval`` (`startMagnetometerUpdates(to:withHandler:)`).
  ///
  /// - Parameters:
  ///   - queue: The operation queue the handler runs on.
  ///   - handler: Receives `(data, nil)` or `(nil, error)`.
  public func startMagnetometerUpdates(
    to queue: OperationQueue,
    withHandler handler: @escaping @Sendable (MagnetometerData?, MotionManagerError?) -> Void
  ) {
    startRaw(
      .magnetometer,
      .push(
        { r in if case .magnetometer(let m) = r { queue.addOperation { handler(m, nil) } } },
        { e in queue.addOperation { handler(nil, e) } }))
  }

  /// Magnetometer updates as an asynchronous sequence, one per ``magnetometerUpdateInterval``.
  ///
  /// - Returns: The readings.
  public func magnetometerUpdates() -> AsyncThrowingStream<MagnetometerData, any Error> {
    rawStream(.magnetometer) { r in
      if case .magnetometer(let m) = r { return m }
      return nil
    }
  }

  /// Stops magnetometer updates (`stopMagnetometerUpdates()`).
  public func stopMagnetometerUpdates() { stopRaw(.magnetometer, id: nil) }

  // MARK: Every raw sample

  /// Starts delivery of every raw sample, in order, with back-pressure (for recorders: the
  /// samples as the source gives them, unfused).
  ///
  /// - Parameter capacity: The most samples queued before the pull waits (default 4096).
  /// - Returns: The samples; empty and finished with a `notAvailable` error when the source
  ///   delivers fused motion only. Starting it again ends the previous one.
  public func imuSamples(capacity: Int = 4096) -> MotionSamples<IMUSample> {
    let samples = MotionSamples<IMUSample>(capacity: capacity, clock: clock)
    guard source.providesRawSamples else {
      samples.finish(
        throwing: MotionManagerError(.notAvailable, "\(source.name) gives no raw samples"))
      return samples
    }
    let previous = state.withLock { s in
      defer { s.imu = samples }
      return s.imu
    }
    previous?.finish()
    samples.onCancel { [weak self, weak samples] in
      guard let self else { return }
      let ended = self.state.withLock { s -> Bool in
        guard let samples, s.imu === samples else { return false }
        s.imu = nil
        return true
      }
      if ended { self.stopLoopIfIdle() }
    }
    ensureLoop()
    return samples
  }

  // MARK: Plumbing

  private func startRaw(_ kind: RawKind, _ delivery: RawDelivery) {
    _ = startRawReturningID(kind, delivery)
  }

  private func startRawReturningID(_ kind: RawKind, _ delivery: RawDelivery) -> Int {
    // Replacing running updates of this kind keeps the run (and the source) going.
    let replaced: RawSubscription? = state.withLock { s in
      defer { s.raw[kind] = nil }
      return s.raw[kind]
    }
    replaced?.delivery.end()
    let available =
      switch kind {
      case .accelerometer: isAccelerometerAvailable
      case .gyro: isGyroAvailable
      case .magnetometer: isMagnetometerAvailable
      }
    guard available else {
      let what =
        kind == .magnetometer && source.providesRawSamples ? "a magnetometer" : "raw samples"
      delivery.fail(
        MotionManagerError(.notAvailable, "\(source.name) gives no \(what)"), final: true)
      stopLoopIfIdle()
      return 0
    }
    let id = state.withLock { s in
      defer { s.nextID += 1 }
      s.raw[kind] = RawSubscription(
        id: s.nextID, interval: s.intervals[kind] ?? 0.01, delivery: delivery)
      return s.nextID
    }
    ensureLoop()
    return id
  }

  private func stopRaw(_ kind: RawKind, id: Int?) {
    let ended: RawSubscription? = state.withLock { s in
      guard let r = s.raw[kind], id == nil || r.id == id else { return nil }
      s.raw[kind] = nil
      return r
    }
    ended?.delivery.end()
    stopLoopIfIdle()
  }

  private func rawStream<T: Sendable>(
    _ kind: RawKind, _ pick: @escaping @Sendable (RawReading) -> T?
  ) -> AsyncThrowingStream<T, any Error> {
    let (stream, continuation) = AsyncThrowingStream<T, any Error>.makeStream()
    let id = startRawReturningID(
      kind,
      .stream(
        { r in if let v = pick(r) { continuation.yield(v) } },
        { e in
          if let e { continuation.finish(throwing: e) } else { continuation.finish() }
        }))
    continuation.onTermination = { [weak self] reason in
      if case .cancelled = reason { self?.stopRaw(kind, id: id) }
    }
    return stream
  }
}
