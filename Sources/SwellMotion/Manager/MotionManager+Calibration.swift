import SwellGeometry

extension MotionManager {
  /// Where the gyroscope bias of a source with a ``MotionSource/deviceIdentity`` is saved
  /// between runs, or `nil` (the default) for none.
  ///
  /// With a store, a run that fuses raw samples of such a source starts its bias estimate from
  /// the device's saved value (unless it is stale or implausible,
  /// ``GyroscopeCalibrationStore/lookUp(_:limitDegreesPerSecond:maximumSigma:)``), so the
  /// attitude does not drift for the first seconds while the bias is learnt again; and it saves
  /// the bias the fusion estimated at rest (``CalibrationPolicy``) at most once per
  /// ``CalibrationPolicy/saveInterval`` and when the run ends. What happens goes to
  /// ``calibrationHandler``. Off by default, because a library should not write in the user's
  /// home unasked; `swell live` turns it on with ``GyroscopeCalibrationStore/standard(environment:wallClock:)``
  /// (and `--no-saved-calibration` off). Takes effect at the next start.
  public var gyroscopeCalibrationStore: GyroscopeCalibrationStore? {
    get { state.withLock { $0.calibrationStore } }
    set { state.withLock { $0.calibrationStore = newValue } }
  }

  /// When the fusion's bias is good enough to save, and how often it is saved.
  public var calibrationPolicy: CalibrationPolicy {
    get { state.withLock { $0.calibrationPolicy } }
    set { state.withLock { $0.calibrationPolicy = newValue } }
  }

  /// Receives what happens to the saved gyroscope calibration (seeded, ignored with the reason,
  /// saved, a warning for a corrupt or unwritable file); called on the manager's task.
  public var calibrationHandler: (@Sendable (GyroscopeCalibrationEvent) -> Void)? {
    get { state.withLock { $0.calibrationHandler } }
    set { state.withLock { $0.calibrationHandler = newValue } }
  }

  /// When a bias is saved and how a saved one seeds the fusion.
  public struct CalibrationPolicy: Hashable, Sendable {
    /// How long the rest detector must have found the device still before its bias is saved,
    /// seconds of sample time (default 2, on top of the detector's own
    /// ``AttitudeEstimator/Settings/restMinimumDuration``).
    public var minimumRestDuration: Double = 2
    /// The largest bias uncertainty saved (every axis), degrees per second (default 0.1: the
    /// estimate has converged at rest; it starts at
    /// ``AttitudeEstimator/Settings/biasInitialSigmaDegreesPerSecond``, 0.5).
    public var maximumSigmaDegreesPerSecond: Double = 0.1
    /// The shortest time between two saves in a run, seconds of sample time (default 60); the
    /// last good value is also saved when the run ends.
    public var saveInterval: Double = 60
    /// The smallest uncertainty a saved value seeds the fusion with, degrees per second
    /// (default 0.1, ``AttitudeEstimator/Settings/biasDriftSigmaDegreesPerSecond``): the bias
    /// may have moved since it was saved.
    public var minimumSeedSigmaDegreesPerSecond: Double = 0.1

    /// The defaults.
    public init() {}
  }

  /// The calibration work of one run, for a source with an identity and a store.
  struct CalibrationSession {
    let store: GyroscopeCalibrationStore
    let identity: String
    let policy: CalibrationPolicy
    let settings: AttitudeEstimator.Settings
    let handler: (@Sendable (GyroscopeCalibrationEvent) -> Void)?
    /// The saved value, once looked up (`.some(nil)`: nothing usable).
    private var loaded: GyroscopeCalibration??
    private var restStart: Double?
    private var restSamples = 0
    private var candidate: GyroscopeCalibration?
    private var lastSave: Double?

    init?(manager: MotionManager) {
      let (store, policy, handler) = manager.state.withLock {
        ($0.calibrationStore, $0.calibrationPolicy, $0.calibrationHandler)
      }
      guard let store, manager.source.providesRawSamples,
        let identity = manager.source.deviceIdentity, !identity.isEmpty
      else { return nil }
      self.store = store
      self.identity = identity
      self.policy = policy
      self.settings = manager.settings
      self.handler = handler
    }

    /// The largest sigma saved, rad/s.
    private var maximumSigma: Double { policy.maximumSigmaDegreesPerSecond * Double.pi / 180 }

    /// Seeds a new fuser from the saved value (looked up at the first call of the run).
    mutating func seed(_ fuser: inout DeviceMotionFuser) {
      restStart = nil
      restSamples = 0
      if loaded == nil {
        let (lookup, warnings) = store.lookUp(
          identity, limitDegreesPerSecond: settings.biasLimitDegreesPerSecond,
          maximumSigma: maximumSigma)
        for w in warnings { handler?(.warning(w)) }
        switch lookup {
        case .found(let c, let age):
          loaded = .some(c)
          handler?(.seeded(identity: identity, calibration: c, age: age))
        case .missing:
          loaded = .some(nil)
        case .ignored(let reason):
          loaded = .some(nil)
          handler?(.ignored(identity: identity, reason: reason))
        }
      }
      guard case .some(.some(let c)) = loaded else { return }
      let savedSigma = max(c.sigma.x, c.sigma.y, c.sigma.z) * 180 / Double.pi
      fuser.seedGyroscopeBias(
        c.bias, sigmaDegreesPerSecond: max(savedSigma, policy.minimumSeedSigmaDegreesPerSecond))
    }

    /// Looks at the estimator after a sample: keeps the bias as the value to save while the
    /// device has rested long enough with a small uncertainty, and saves it when the last save
    /// is ``CalibrationPolicy/saveInterval`` old.
    mutating func observe(_ estimator: AttitudeEstimator, timestamp t: Double) {
      guard estimator.isAtRest, t.isFinite else {
        restStart = nil
        restSamples = 0
        return
      }
      let start = restStart ?? t
      restStart = start
      restSamples += 1
      guard t - start >= policy.minimumRestDuration else { return }
      let sigma = estimator.gyroscopeBiasSigma
      guard max(sigma.x, sigma.y, sigma.z) <= maximumSigma else { return }
      let c = GyroscopeCalibration(
        bias: estimator.gyroscopeBias, sigma: sigma, savedAt: store.wallClock(),
        restDuration: t - start + settings.restMinimumDuration, sampleCount: restSamples)
      guard
        c.implausibility(
          limitDegreesPerSecond: settings.biasLimitDegreesPerSecond, maximumSigma: maximumSigma)
          == nil
      else { return }
      candidate = c
      if let last = lastSave, t - last < policy.saveInterval, t >= last { return }
      lastSave = t
      write()
    }

    /// Saves the value kept since the last save, if any (at the end of the run).
    mutating func finish() {
      write()
    }

    private mutating func write() {
      guard let c = candidate else { return }
      candidate = nil
      do {
        try store.save(c, for: identity)
        handler?(.saved(identity: identity, calibration: c))
      } catch {
        handler?(.warning("cannot save the gyroscope calibration: \(error.message)"))
      }
    }
  }
}
