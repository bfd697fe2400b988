extension ViewerOffsetEngine {
  /// The kind of device, which sets the application rate (`_UIMotionEffectEngine` sets its
  /// display link's `preferredFramesPerSecond` by idiom, as measured from iOS 26.1).
  public enum Idiom: String, Hashable, Sendable, Codable, CaseIterable {
    /// A phone: 30 applications per second (32 on displays above 60 Hz).
    case phone
    /// A tablet: 45 per second (48 above 60 Hz).
    case pad
    /// A Mac: 45 per second (48 above 60 Hz).
    case mac
  }

  /// Every constant of the engine, with the value measured from UIKit 26.1 as its default
  /// (iOS 26.1, build 23B85; the UIKit class or method each comes from is given per group).
  public struct Configuration: Hashable, Sendable, Codable {
    // MARK: Smoothing (_UIMotionAttitudeAnalyzer, _UIMotionAnalyzerSettings setDefaultValues)

    /// `inputSmoothingFactor`: the raw offset is low-passed as `out = prev·s + raw·(1 − s)` with
    /// `s = 0.9 · factor`, per update. Default **0** (no smoothing).
    public var inputSmoothingFactor = 0.0

    // MARK: Directional lock (_UIMotionAttitudeAnalyzer)

    /// Whether the directional lock holds one axis while the user tilts mostly along the other.
    /// Default **on**.
    public var isDirectionalLockEnabled = true
    /// The lock's stickiness: the accumulator decays by `k = 0.95 + 0.05 · stickiness` per
    /// update. Default **0.5** (k = 0.975).
    public var directionalLockStickiness = 0.5
    /// The accumulator magnitude (offset units) above which the lock engages. Default **0.3**.
    public var directionalLockThreshold = 0.3
    /// The lock's sharpness: strength = `clamp(((|lock| − T)/T) / (1 − sharpness + 1.2e−7), 0,
    /// 1)`. Default **0.1**.
    public var directionalLockSharpness = 0.1

    // MARK: Neutral pose and re-centering (_UIMotionAttitudeAnalyzer)

    /// `referenceShiftSpeed`: the base re-centering rate is `v = 0.1 · speed` rad/s.
    /// Default **0.3** (v = 0.03 rad/s ≈ 1.7°/s).
    public var referenceShiftSpeed = 0.3
    /// `referenceShiftDistanceDependence`: the rate grows with the angle θ as
    /// `ω(θ) = v + v · m · θ/π` with `m = 10 · dependence`. Default **0.5** (m = 5), so
    /// ω(θ) = 0.03 + 0.15·θ/π rad/s.
    public var referenceShiftDistanceDependence = 0.5
    /// `idleLeeway`: the raw offset counts as still while it stays within this distance
    /// (offset units) of where it settled. Default **0.01** (0.1·0.1).
    public var idleLeeway = 0.01
    /// `secondsBeforeIdle`: seconds of stillness before the analyzer is idle. Default
    /// **0.52 s** (0.3·1.4 + 0.1).
    public var secondsBeforeIdle = 0.52
    /// The angle between the screen normals past which an idle analyzer flips its reference
    /// so the angle becomes π − θ, radians. Default **135°** (0.5·π/2 + π/2).
    public var jumpThreshold = 0.75 * Double.pi

    // MARK: Stale-stream guard (_UIMotionEffectEngine)

    /// Seconds without a new attitude after which the stream counts as stale. Default **0.25 s**.
    public var staleStreamInterval = 0.25
    /// The movement of the offset across a stale gap (offset units) at or above which the
    /// reference is shifted so the view does not jump. Default **0.02**.
    public var staleStreamMovement = 0.02

    // MARK: Cadence, dead-band and hysteresis (_UIMotionEffectEngine)

    /// The device idiom, which sets the application rate. Default **phone**.
    public var idiom = Idiom.phone
    /// The display's maximum refresh rate, Hz; above 60 the rates become 32, 48 and 8 per
    /// second. Default **60**.
    public var maximumRefreshRate = 60.0
    /// The offset counts as centered while |h| and |v| are both below this (offset units).
    /// Default **0.03**.
    public var centeredThreshold = 0.03
    /// `UIMotionEffectAccumulationThreshold`: an update is not applied while the offset is
    /// closer than this (Euclidean, offset units) to the last applied one. Default **0.015**.
    public var deadBand = 0.015
    /// Whether the engine may enter slow mode (5 applications per second when centered).
    /// Default **on**.
    public var isSlowModeEnabled = true
    /// Seconds the offset's speed must stay low before slow mode starts. Default **0.5 s**.
    public var slowModeDelay = 0.5
    /// Slow mode starts below this squared offset speed, (offset units/s)². Default **0.006**.
    public var slowModeEntrySquaredSpeed = 0.006
    /// Slow mode ends above this squared offset speed, (offset units/s)². Default **0.0075**.
    public var slowModeExitSquaredSpeed = 0.0075

    // MARK: Reduce Motion (_UIMotionEffectEngine +_motionEffectsEnabled)

    /// Reduce Motion: no updates are generated and the offset stays at (0, 0), so
    /// interpolating effects sit at the midpoint of their range. Default **off**.
    public var reduceMotion = false

    /// Creates the system's defaults.
    public init() {}

    /// The directional lock's per-update decay `k = 0.95 + 0.05 · stickiness`.
    public var directionalLockDecay: Double { 0.95 + 0.05 * directionalLockStickiness }

    /// The re-centering rate at an angle, rad/s: `ω(θ) = v + v·m·θ/π` with
    /// `v = 0.1 · referenceShiftSpeed`, `m = 10 · referenceShiftDistanceDependence`.
    ///
    /// - Parameter angle: The angle between the current and reference screen normals, radians.
    /// - Returns: The rate at which the reference turns toward the current attitude, rad/s.
    public func referenceShiftRate(forAngle angle: Double) -> Double {
      let v = 0.1 * referenceShiftSpeed
      let m = 10 * referenceShiftDistanceDependence
      return v + v * m * (angle / .pi)
    }

    /// The application rate, per second: 30 (phone) or 45 (pad, Mac), 32 or 48 above 60 Hz;
    /// 5 (8 above 60 Hz) when centered in slow mode.
    ///
    /// - Parameter centeredSlow: Whether the offset is centered and slow mode is on.
    /// - Returns: Applications per second.
    public func applicationRate(centeredSlow: Bool) -> Double {
      let fast = maximumRefreshRate > 60
      if centeredSlow { return fast ? 8 : 5 }
      switch idiom {
      case .phone: return fast ? 32 : 30
      case .pad, .mac: return fast ? 48 : 45
      }
    }
  }
}
