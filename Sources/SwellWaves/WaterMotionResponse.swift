import Foundation
import SwellGeometry
import SwellLayers
import SwellMotion

/// How the water reacts to device motion.
public enum WaterWaveResponse: String, Hashable, Sendable, CaseIterable {
  /// The seed's response: the tilt target from gravity (``TiltRule``) animated over 1 s with
  /// UIKit's ease-in-out additive retargeting; extra amplitude from the pitch rate.
  case classic
  /// The physically based response: the tilt is the first sloshing mode (``SloshingResponse``)
  /// driven by gravity and user acceleration; extra amplitude as in ``classic``.
  case sloshing
  /// Physical water: a damped free surface in a container (``WaterBody``), shown by a
  /// ``WaterBodyLayer`` and driven by a ``WaterBodyResponse`` instead of this response.
  case physical
}

/// Options of the water's motion response.
public struct WaterWaveOptions: Hashable, Sendable {
  /// The tilt and amplitude rule (default ``TiltRule/corrected``).
  public var tiltRule: TiltRule = .corrected
  /// The response model (default ``WaterWaveResponse/classic``).
  public var response: WaterWaveResponse = .classic
  /// Reduce Motion: no phase motion, no tilt and no amplitude response (a still water).
  public var reduceMotion = false
  /// The duration of each tilt animation, seconds (the seed's 1 s).
  public var tiltDuration = 1.0
  /// The rate of the tilt-update grid, per second (see ``TiltSampler``).
  public var tiltUpdateRate = 60.0
  /// The amplitude rise time constant, seconds (``TiltRule/corrected`` only: the seed's rule
  /// assigns the amplitude directly).
  public var amplitudeRiseTime = 0.06
  /// The amplitude release time constant, seconds (``TiltRule/corrected`` only).
  public var amplitudeReleaseTime = 0.6
  /// How long the amplitude target holds its peak, seconds (default 0.25; ``TiltRule/corrected``
  /// only).
  ///
  /// A shake is an oscillation: its pitch rate swings through zero twice per cycle, so the
  /// seed's per-sample target `20·|rotationRate.x|` flickers between 0 and its peak. Holding
  /// the largest target of the last 0.25 s makes the target follow the shake's **envelope**:
  /// a 2 rad/s shake at 2 Hz or faster keeps a steady 40-point target for as long as it lasts,
  /// and the target falls 0.25 s after the last peak. Zero turns the hold off (the per-sample
  /// target, as the seed).
  public var amplitudePeakHold = 0.25

  /// Creates default options.
  public init() {}
}

/// What the water's motion response asks the water layer to show at a frame: the values a
/// ``WaterWaveApplicator`` writes, as `SwellEffects`' viewer offset is what a
/// `MotionEffectApplicator` writes.
public struct WaterPresentation: Hashable, Sendable {
  /// The water's tilt, radians, UIKit's sign (positive turns clockwise on screen), the
  /// layer's `transform.rotation.z`; `nil` leaves the layer's rotation as it is (no motion yet).
  public var tilt: Double?
  /// The extra amplitude of every wave, points (added to each wave's own); `nil` leaves it.
  public var extraAmplitude: Double?
  /// Reduce Motion: the waves' phase stands still.
  public var isPhaseFrozen: Bool
  /// The steepest surface slope `|dy/dx|` the extra amplitude may give a wave at this tilt
  /// (dimensionless, in the water's own axes): each wave's drawn amplitude is at most
  /// `max(|A|, maximumSlope / k)` (``TiltRule/maximumSurfaceSlope(tilt:)``,
  /// ``WaveLayer/limitedAmplitude(base:extra:wavenumber:maximumSlope:)``). `.infinity` (the
  /// default) draws every amplitude as it is.
  public var maximumSlope: Double

  /// Creates a presentation.
  ///
  /// - Parameters:
  ///   - tilt: Radians, or `nil` to leave the rotation.
  ///   - extraAmplitude: Points, or `nil` to leave it.
  ///   - isPhaseFrozen: Whether the phase stands still.
  ///   - maximumSlope: The steepest slope a wave may be drawn with, dimensionless (default
  ///     `.infinity`: no limit).
  public init(
    tilt: Double?, extraAmplitude: Double?, isPhaseFrozen: Bool = false,
    maximumSlope: Double = .infinity
  ) {
    self.tilt = tilt
    self.extraAmplitude = extraAmplitude
    self.isPhaseFrozen = isPhaseFrozen
    self.maximumSlope = maximumSlope
  }
}

/// The motion response of the WaterWave demo as a value: fed every device-motion sample
/// (``receive(_:)``) and each frame's time (``advance(to:)``), it returns what the water shows
/// then (``WaterPresentation``), which a ``WaterWaveApplicator`` writes onto the layer. The same
/// shape as `ViewerOffsetEngine` and its applicator.
///
/// The result depends only on the motion and the frame times (never the wall clock), and values
/// at a time do not depend on the frame rate.
///
/// - **classic**: the tilt target from gravity (``TiltRule``), re-targeted on a fixed 60 Hz
///   grid (``TiltSampler``) with UIKit's additive 1 s ease-in-out animation: each re-target
///   jumps the target and adds an animation of `old − new` to zero, so the shown tilt is
///   `target + Σ Δᵢ · (1 − E((t − tᵢ) / 1 s))` (additive `UIView.animate` since iOS 8, WWDC 2014
///   session 236; E the `easeInEaseOut` Bézier (0.42, 0), (0.58, 1)), evaluated with
///   SwellLayers' `BasicAnimation`, the same arithmetic as `Layer.animate`.
/// - **sloshing**: the tilt is the first sloshing mode (``SloshingResponse``).
/// - In both, with ``TiltRule/corrected`` the extra amplitude follows the pitch rate through a
///   peak hold and an asymmetric smoother (``AmplitudeSmoother``), and the presentation carries
///   the fold limit of the shown tilt (``WaterPresentation/maximumSlope``,
///   ``TiltRule/maximumSurfaceSlope(tilt:)``), so no wave folds over itself on screen. With
///   ``TiltRule/seedExact`` the extra amplitude is the seed's direct assignment: the target of
///   the latest sample (`20·ω_x` above 0.7 rad/s, else 0), with no smoothing, hold or limit.
public struct WaterMotionResponse: Sendable {
  /// The options (``setReduceMotion(_:)`` changes their `reduceMotion`).
  public private(set) var options: WaterWaveOptions
  private var tilt: TiltSampler
  private var amplitude: AmplitudeSmoother
  private var sloshing: SloshingResponse
  private var lastMotionTime: Double?
  private var heldTarget = 0.0
  private var heldSince = -Double.infinity
  /// The seed's `tmpAmplitude`: the latest sample's target, assigned as is (seed-exact only).
  private var assignedAmplitude = 0.0
  /// The classic response's model tilt (the last target), radians.
  private var modelTilt: Double
  private var hasTarget = false
  /// The classic response's running additive animations, in the order they started.
  private var animations: [BasicAnimation] = []
  /// What the response was made for, to start again at rest (``setReduceMotion(_:)``).
  private var size: Size
  private var fillLevel: Double
  private let initialTilt: Double

  /// Creates a response for water of a given size.
  ///
  /// - Parameters:
  ///   - options: The response options.
  ///   - size: The water's visible size, points (sets the sloshing mode's length).
  ///   - fillLevel: The water's fill level, 0...1 of the height (sets the sloshing depth).
  ///   - initialTilt: The layer's tilt before any motion, radians (default 0).
  public init(
    options: WaterWaveOptions = WaterWaveOptions(), size: Size, fillLevel: Double,
    initialTilt: Double = 0
  ) {
    self.options = options
    tilt = TiltSampler(rule: options.tiltRule, updateRate: options.tiltUpdateRate)
    amplitude = AmplitudeSmoother(
      riseTime: options.amplitudeRiseTime, releaseTime: options.amplitudeReleaseTime)
    sloshing = SloshingResponse(
      widthPoints: size.width, depthPoints: max(fillLevel * size.height, 1))
    modelTilt = initialTilt
    self.size = size
    self.fillLevel = fillLevel
    self.initialTilt = initialTilt
  }

  /// Creates a response for a water layer (its size, fill level and current tilt).
  ///
  /// - Parameters:
  ///   - layer: The water.
  ///   - options: The response options.
  public init(for layer: WaterWaveLayer, options: WaterWaveOptions = WaterWaveOptions()) {
    self.init(
      options: options, size: layer.visibleSize, fillLevel: layer.fillLevel,
      initialTilt: layer[.rotationZ] ?? 0)
  }

  /// Follows the water to another size (its canvas laid out again): the sloshing mode's tank
  /// becomes the new width and depth; the tilt, its animations and the amplitude are kept.
  ///
  /// - Parameters:
  ///   - size: The water's visible size, points.
  ///   - fillLevel: The fill level, 0...1 of the height.
  public mutating func resize(to size: Size, fillLevel: Double) {
    self.size = size
    self.fillLevel = fillLevel
    sloshing.setTank(widthPoints: size.width, depthPoints: max(fillLevel * size.height, 1))
  }

  /// Turns Reduce Motion on or off while the water runs (the system's setting changed, as
  /// `UIAccessibility.reduceMotionStatusDidChangeNotification` tells an iOS app).
  ///
  /// On: from the next frame the water shows its initial tilt with no extra amplitude and its
  /// phase stands still, whatever it was doing. Off: the response starts again at rest, as a
  /// new one made for the same water, and follows the samples that arrive from then on (the
  /// phase moves on from where the frame clock is). Setting the value it has does nothing.
  ///
  /// - Parameter enabled: Whether motion is reduced.
  public mutating func setReduceMotion(_ enabled: Bool) {
    guard enabled != options.reduceMotion else { return }
    var o = options
    o.reduceMotion = enabled
    self = WaterMotionResponse(
      options: o, size: size, fillLevel: fillLevel, initialTilt: initialTilt)
  }

  /// Takes one device-motion sample (timestamps increasing; others are ignored).
  ///
  /// - Parameter motion: The sample, CoreMotion units (g, rad/s, device frame).
  public mutating func receive(_ motion: DeviceMotion) {
    let t = motion.timestamp
    guard t.isFinite, !options.reduceMotion else { return }
    if let last = lastMotionTime, t <= last { return }
    lastMotionTime = t
    switch options.response {
    case .classic, .physical:
      for u in tilt.receive(time: t, gravity: motion.gravity) { retarget(to: u.target, at: u.time) }
    case .sloshing:
      sloshing.receive(
        time: t, gravity: motion.gravity, userAcceleration: motion.userAcceleration)
    }
    let raw = options.tiltRule.amplitudeTarget(rotationRate: motion.rotationRate)
    if options.tiltRule == .seedExact {
      // The seed: `self.waterView.tmpAmplitude = 20*motion.rotationRate.x` (or 0), no easing.
      assignedAmplitude = raw.isFinite ? raw : 0
      return
    }
    if raw >= heldTarget || t - heldSince >= options.amplitudePeakHold {
      heldTarget = raw.isFinite ? raw : 0
      heldSince = t
    }
    amplitude.setTarget(heldTarget, at: t)
  }

  /// UIKit's re-targeting: the model jumps, an additive animation of `old − new` to zero
  /// starts (none when the duration is not positive or nothing changes).
  private mutating func retarget(to target: Double, at time: Double) {
    let delta = modelTilt - target
    modelTilt = target
    hasTarget = true
    let duration = options.tiltDuration
    guard duration > 0, duration.isFinite, delta != 0, delta.isFinite else { return }
    animations.append(
      BasicAnimation(
        keyPath: "transform.rotation.z", fromValue: .number(delta), toValue: .number(0),
        beginTime: time, duration: duration, timingFunction: .easeInEaseOut, isAdditive: true))
  }

  /// Moves the response to a frame time and returns what the water shows then.
  ///
  /// - Parameter time: The frame's target time, seconds on the motion clock.
  /// - Returns: The tilt (radians) and extra amplitude (points), `nil` where nothing changes.
  public mutating func advance(to time: Double) -> WaterPresentation {
    if options.reduceMotion {
      // At rest: the initial tilt (what the layer had before any motion), no extra amplitude.
      return WaterPresentation(tilt: initialTilt, extraAmplitude: 0, isPhaseFrozen: true)
    }
    guard time.isFinite else {
      return WaterPresentation(tilt: nil, extraAmplitude: nil, isPhaseFrozen: false)
    }
    let extra =
      options.tiltRule == .seedExact ? assignedAmplitude : amplitude.value(at: time)
    var shown: Double?
    switch options.response {
    case .sloshing:
      if lastMotionTime != nil { shown = wrappedAngle(sloshing.angle(at: time)) }
    case .classic, .physical:
      animations.removeAll { $0.isFinished(at: time) }
      if hasTarget {
        var value = modelTilt
        for a in animations {
          if case .number(let v)? = a.value(at: time, model: .number(modelTilt)) { value += v }
        }
        shown = value.isFinite ? value : modelTilt
      }
    }
    let slope =
      options.tiltRule == .corrected
      ? TiltRule.maximumSurfaceSlope(tilt: shown ?? modelTilt) : .infinity
    return WaterPresentation(
      tilt: shown, extraAmplitude: extra, isPhaseFrozen: false, maximumSlope: slope)
  }

  /// The tilt target last asked for by the classic rule, radians (`nil` before any).
  public var tiltTarget: Double? { tilt.lastTarget }
}

/// Writes a ``WaterPresentation`` onto a water layer, as `MotionEffectApplicator` writes a
/// viewer offset: the tilt to the model `transform.rotation.z` (through the typed key path
/// `TypedLayerKeyPath.rotationZ`), the extra amplitude, the fold limit
/// (``WaterWaveLayer/maximumSlope``) and the phase freeze to the layer's own properties.
public struct WaterWaveApplicator: Hashable, Sendable {
  /// Creates an applicator.
  public init() {}

  /// Applies a presentation.
  ///
  /// - Parameters:
  ///   - presentation: What the water shows.
  ///   - layer: The water layer.
  public func apply(_ presentation: WaterPresentation, to layer: WaterWaveLayer) {
    if layer.isPhaseFrozen != presentation.isPhaseFrozen {
      layer.isPhaseFrozen = presentation.isPhaseFrozen
    }
    if let extra = presentation.extraAmplitude { layer[keyPath: \.extraAmplitude] = extra }
    if layer.maximumSlope != presentation.maximumSlope {
      layer.maximumSlope = presentation.maximumSlope
    }
    if let tilt = presentation.tilt { layer[.rotationZ] = tilt }
  }
}
