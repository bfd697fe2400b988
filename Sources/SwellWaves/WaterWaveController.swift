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
  /// The amplitude rise time constant, seconds.
  public var amplitudeRiseTime = 0.06
  /// The amplitude release time constant, seconds.
  public var amplitudeReleaseTime = 0.6
  /// How long the amplitude target holds its peak, seconds (default 0.25).
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

/// Drives a ``WaterWaveLayer`` from device motion and display-link time: the motion response of
/// the WaterWave demo.
///
/// Feed every motion sample in timestamp order with ``receive(_:)``, and call
/// ``advance(to:)`` with each frame's target time before reading presentation values. The
/// result depends only on the motion and the frame times (never the wall clock), and values at
/// a time do not depend on the frame rate.
public final class WaterWaveController {
  /// The water layer driven.
  public let layer: WaterWaveLayer
  /// The options.
  public let options: WaterWaveOptions
  private var tilt: TiltSampler
  private var amplitude: AmplitudeSmoother
  private var sloshing: SloshingResponse
  private var lastMotionTime: Double?
  private var heldTarget = 0.0
  private var heldSince = -Double.infinity

  /// Creates a controller.
  ///
  /// - Parameters:
  ///   - layer: The water.
  ///   - options: The response options.
  public init(layer: WaterWaveLayer, options: WaterWaveOptions = WaterWaveOptions()) {
    self.layer = layer
    self.options = options
    tilt = TiltSampler(rule: options.tiltRule, updateRate: options.tiltUpdateRate)
    amplitude = AmplitudeSmoother(
      riseTime: options.amplitudeRiseTime, releaseTime: options.amplitudeReleaseTime)
    sloshing = SloshingResponse(
      widthPoints: layer.visibleSize.width,
      depthPoints: max(layer.fillLevel * layer.visibleSize.height, 1))
    layer.isPhaseFrozen = options.reduceMotion
  }

  /// Takes one device-motion sample (timestamps increasing; others are ignored).
  ///
  /// - Parameter motion: The sample, CoreMotion units (g, rad/s, device frame).
  public func receive(_ motion: DeviceMotion) {
    let t = motion.timestamp
    guard t.isFinite, !options.reduceMotion else { return }
    if let last = lastMotionTime, t <= last { return }
    lastMotionTime = t
    switch options.response {
    case .classic:
      for u in tilt.receive(time: t, gravity: motion.gravity) {
        layer.animate(
          keyPath: "transform.rotation.z", to: .number(u.target), duration: options.tiltDuration,
          timingFunction: .easeInEaseOut, at: u.time)
      }
    case .sloshing:
      sloshing.receive(
        time: t, gravity: motion.gravity, userAcceleration: motion.userAcceleration)
    }
    let raw = options.tiltRule.amplitudeTarget(rotationRate: motion.rotationRate)
    if raw >= heldTarget || t - heldSince >= options.amplitudePeakHold {
      heldTarget = raw.isFinite ? raw : 0
      heldSince = t
    }
    amplitude.setTarget(heldTarget, at: t)
  }

  /// Moves the water to a frame time: sets the eased extra amplitude and, for sloshing, the
  /// tilt; drops finished tilt animations.
  ///
  /// - Parameter time: The frame's target time, seconds on the motion clock.
  public func advance(to time: Double) {
    guard time.isFinite, !options.reduceMotion else { return }
    layer.extraAmplitude = amplitude.value(at: time)
    if options.response == .sloshing && lastMotionTime != nil {
      layer.setValue(
        .number(wrappedAngle(sloshing.angle(at: time))), forKeyPath: "transform.rotation.z")
    }
    layer.removeFinishedAnimations(at: time)
  }

  /// The tilt target last asked for by the classic rule, radians (`nil` before any).
  public var tiltTarget: Double? { tilt.lastTarget }
}
