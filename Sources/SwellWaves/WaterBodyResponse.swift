import SwellLayers
import SwellMotion

/// Options of the physical water's motion response (`WaterWaveResponse.physical`).
public struct PhysicalWaterOptions: Hashable, Sendable {
  /// The damping ratio ζ of every surface mode, 0 ≤ ζ < 1 (default 0.06).
  public var dampingRatio = 0.06
  /// The fraction of a turn of the container the surface follows at once, 0...1 (default
  /// 0.25).
  public var rotationCoupling = 0.25
  /// Reduce Motion: the water stays at rest and the ripples stand still.
  public var reduceMotion = false

  /// Creates default options.
  public init() {}
}

/// The physical water's motion response as a value, of the same shape as
/// ``WaterMotionResponse``: fed every device-motion sample (``receive(_:)``) and each frame's
/// time (``advance(to:)``), it returns the ``FreeSurface`` the water shows then, which a
/// ``WaterBodyApplicator`` writes onto a ``WaterBodyLayer``.
///
/// The result depends only on the motion and the frame times (never the wall clock); the
/// surface at a time does not depend on the frame rate (``WaterBody``).
public struct WaterBodyResponse: Sendable {
  /// The options (``setReduceMotion(_:)`` changes their `reduceMotion`).
  public private(set) var options: PhysicalWaterOptions
  /// The simulation.
  public private(set) var body: WaterBody
  private let rest: FreeSurface
  private let container: WaterContainer
  private let parameters: WaterBody.Parameters

  /// Creates a response for a water layer (its container and constants, with the options'
  /// damping and coupling).
  ///
  /// - Parameters:
  ///   - layer: The water.
  ///   - options: The options.
  public init(for layer: WaterBodyLayer, options: PhysicalWaterOptions = PhysicalWaterOptions()) {
    var p = layer.parameters
    p.dampingRatio = options.dampingRatio
    p.rotationCoupling = options.rotationCoupling
    self.options = options
    container = layer.container
    parameters = p
    body = WaterBody(container: layer.container, parameters: p)
    rest = body.surface()
  }

  /// Turns Reduce Motion on or off while the water runs (the system's setting changed).
  ///
  /// On: from the next frame the water shows its surface at rest. Off: the simulation starts
  /// again at rest, with the water it was made with (a glass that poured is full again), and
  /// follows the samples that arrive from then on. Setting the value it has does nothing.
  ///
  /// - Parameter enabled: Whether motion is reduced.
  public mutating func setReduceMotion(_ enabled: Bool) {
    guard enabled != options.reduceMotion else { return }
    options.reduceMotion = enabled
    if !enabled { body = WaterBody(container: container, parameters: parameters) }
  }

  /// Takes one device-motion sample (timestamps increasing; others are ignored).
  ///
  /// - Parameter motion: The sample, CoreMotion units (g, rad/s, device frame).
  public mutating func receive(_ motion: DeviceMotion) {
    guard !options.reduceMotion else { return }
    body.receive(
      time: motion.timestamp, gravity: motion.gravity,
      userAcceleration: motion.userAcceleration, rotationRate: motion.rotationRate)
  }

  /// The surface at a frame time (the water at rest under Reduce Motion or before any motion).
  ///
  /// - Parameter time: The frame's target time, seconds on the motion clock.
  /// - Returns: The surface.
  public mutating func advance(to time: Double) -> FreeSurface {
    guard !options.reduceMotion, body.time != nil, time.isFinite else { return rest }
    return body.surface(at: time)
  }
}

/// Writes a ``FreeSurface`` onto a ``WaterBodyLayer``, as ``WaterWaveApplicator`` writes a
/// ``WaterPresentation``.
public struct WaterBodyApplicator: Hashable, Sendable {
  /// Creates an applicator.
  public init() {}

  /// Applies a surface.
  ///
  /// - Parameters:
  ///   - surface: What the water shows.
  ///   - layer: The water layer.
  public func apply(_ surface: FreeSurface, to layer: WaterBodyLayer) {
    layer.surface = surface
  }
}
