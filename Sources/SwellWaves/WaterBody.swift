import Foundation
import SwellGeometry

/// Water in a container, moving like water: a damped free surface made of the
/// container's standing sloshing modes, driven by the apparent gravity the liquid feels and by
/// the container's turning, with its volume conserved.
///
/// **Model** (docs/waterwave.md, "Physical water"). Linear potential-flow sloshing (the theory
/// of Lamb, *Hydrodynamics* §257, and of Ibrahim, *Liquid Sloshing Dynamics*, ch. 2), in the
/// frame of gravity: the free surface is `z(s) = level + η(s)`, `s` the horizontal position
/// along the surface (points), with
/// `η(s) = Σₙ aₙ · cos(nπ·(s − s_L)/L)`, `n = 1…N`, over the surface's length `L` between the
/// walls. Each mode is a damped oscillator
/// `äₙ + 2ζωₙ·ȧₙ + ωₙ²·(aₙ − bₙ) = 0`, `ωₙ² = g_eff·kₙ·tanh(kₙ·H)`, `kₙ = nπ/L`,
/// with `H` the mean depth (the water's area over `L`), so every mode has the exact
/// finite-depth dispersion of linear theory: long waves travel at `√(gH)`, short ones at the
/// deep-water speed, and the walls reflect them (the cosines have no slope there).
///
/// - **Forcing**: `bₙ` is mode n's share of the surface the apparent gravity asks for, the line
///   perpendicular to it: `bₙ = m·Xₙ`, `m` the slope of that line in the frame of gravity and
///   `Xₙ = −4L/(nπ)²` (odd n; 0 for even n) the modes of `s − s_mid`. This is exactly linear
///   theory's forcing of a rectangular tank by a horizontal acceleration. `g_eff` is the
///   apparent gravity along the frame's down, at least ``Parameters/minimumGravity``.
/// - **Frame**: the frame of gravity follows the *true* gravity in the screen plane, so the
///   water stays level with the world while the device turns under it; the frame is kept
///   fixed to the container between updates of at most ``frameStep`` radians, and within that
///   the surface is re-expressed kinematically (a turn under world-fixed water).
/// - **Turning**: a turn of the container by `δ` (the gyroscope's z rate) drags the surface by
///   `c·δ` (``Parameters/rotationCoupling``; 0 an ideal fluid, 1 water glued to the walls).
/// - **Volume**: the modes have zero mean, so they move no water; the level is solved from the
///   volume whenever the frame turns, and the drawn surface (``FreeSurface``) is shifted so the
///   area under it inside the outline is the volume exactly.
/// - **Breaking**: when the summed mode amplitudes would lift the surface more than
///   ``Parameters/breakingSlope`` × L/2 from its level, amplitudes and rates are scaled down
///   (a breaking wave's loss of energy), which bounds the surface under any input.
/// - **Open containers** (``WaterContainer/isOpen``, a glass): what stands above the rim's lower
///   end (the lip) in the frame of gravity pours over it as weir flow,
///   `q = C_d·(2/3)·√(2g_in)·h^{3/2}` per unit width (``weirFlow(head:gravity:coefficient:metresPerPoint:)``,
///   `h` the rest level's height above the lip, `g_in` the in-plane gravity), never more per
///   substep than the water above the lip (``capacity``), so a glass turned past its tipping
///   angle pours down to its lip over time and one turned upside down empties. Within
///   ``Parameters/flatTilt`` of lying flat the in-plane pull counts as none: the frame is held
///   and nothing pours. Standing upright again (gravity within
///   ``Parameters/refillTilt`` of the container's down), it refills at
///   ``Parameters/refillRate``, up to ``fullVolume``: a visible choice, as if someone poured
///   again, so a recording that turns the phone over does not leave the glass empty for good.
///   A closed container keeps its volume: its water falls to whichever side is down.
///
/// **Time**: inputs are sampled on a fixed grid of ``Parameters/substep`` seconds on the motion
/// clock (linearly interpolated between motion samples, held across gaps longer than
/// ``maximumInterpolatedGap``), and each mode is advanced exactly over each substep (closed-form
/// damped oscillator with the input held), so the result is unconditionally stable, never NaN,
/// and the same at any motion rate and any frame rate. ``surface(at:)`` evaluates a frame time
/// without changing the state, carrying the newest turn of the gravity on between samples (so a
/// slow motion rate does not make the water lag a turning device).
public struct WaterBody: Sendable {
  /// Standard gravity, m/s².
  public static let standardGravity = 9.806_65
  /// The largest turn of the container between two updates of the frame of gravity, radians.
  public static let frameStep = 1e-3
  /// Motion gaps longer than this, seconds, are not interpolated: the input is held.
  public static let maximumInterpolatedGap = 0.25

  /// The constants of a water body.
  public struct Parameters: Hashable, Sendable {
    /// The water's area as a fraction of the container's, 0...1.
    public var fillFraction: Double
    /// The damping ratio ζ of every mode, 0 ≤ ζ < 1 (default 0.06: a first mode rings for
    /// about a second in a phone-sized tank).
    public var dampingRatio = 0.06
    /// The fraction of a turn of the container the surface follows at once, 0...1 (default
    /// 0.25; a visual choice, as in ``SloshingResponse``).
    public var rotationCoupling = 0.25
    /// The number of modes N (default 48; 1...256).
    public var modeCount = 48
    /// The internal time step, seconds (default 0.002).
    public var substep = 0.002
    /// The smallest apparent gravity along the frame's down, g (default 0.1), so that a device
    /// lying flat or falling still has a restoring force.
    public var minimumGravity = 0.1
    /// The steepest surface the modes may make before breaking, as a slope over half the
    /// surface's length (default 1: 45°).
    public var breakingSlope = 1.0
    /// The largest distance between surface samples, points (default 2.5).
    public var sampleSpacing = 2.5
    /// How fast an open container that has spilled refills while it stands upright, as a
    /// fraction of ``WaterBody/fullVolume`` per second (default 0.5: a half-full glass that
    /// poured everything out is full again after a second upright; 0 never refills). Closed
    /// containers never lose water.
    public var refillRate = 0.5
    /// How far the container's down may be from gravity for it to count as upright and refill,
    /// radians (default 0.35, 20°).
    public var refillTilt = 0.35
    /// How far from lying flat (gravity into or out of the screen) the device may be for the
    /// screen-plane gravity to count as none, radians (default 5°: an in-plane gravity below
    /// sin 5° ≈ 0.087 g). Within it the frame of gravity is held (its direction is not known
    /// well enough to turn the water) and an open container pours nothing.
    public var flatTilt = 5 * Double.pi / 180
    /// The discharge coefficient `C_d` of the weir flow over an open container's lip (default
    /// 0.602, the constant term of Rehbock's coefficient for a sharp-crested rectangular weir,
    /// `C_d ≈ 0.602 + 0.083·h/P` (Rehbock, Trans. ASCE 93, 1929), and of Kindsvater-Carter's
    /// for a weir as wide as its channel, `0.602 + 0.075·h/P` (USBR Water Measurement Manual,
    /// ch. 7); a glass's rim is a thin, sharp crest; the `h/P` term is left out, P having no fixed
    /// meaning in a glass that turns).
    public var weirCoefficient = 0.602

    /// Creates parameters with the defaults.
    ///
    /// - Parameter fillFraction: The water's area as a fraction of the container's, 0...1.
    public init(fillFraction: Double) {
      self.fillFraction = fillFraction
    }
  }

  /// One motion input, CoreMotion units in the device frame (x right, y up).
  struct Input {
    var time: Double
    var gravityX: Double
    var gravityY: Double
    var apparentX: Double
    var apparentY: Double
    var rotationZ: Double

    func interpolated(to other: Input, at t: Double) -> Input {
      let f = min(max((t - time) / (other.time - time), 0), 1)
      func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * f }
      return Input(
        time: t, gravityX: mix(gravityX, other.gravityX), gravityY: mix(gravityY, other.gravityY),
        apparentX: mix(apparentX, other.apparentX), apparentY: mix(apparentY, other.apparentY),
        rotationZ: mix(rotationZ, other.rotationZ))
    }
  }

  /// The container.
  public let container: WaterContainer
  /// The constants.
  public let parameters: Parameters
  /// The water's area now, points²: ``fullVolume`` in a closed container; in an open one less
  /// after a spill, until it has refilled.
  public private(set) var volume: Double
  /// The water's area at rest, upright (`fillFraction` × the container's area), points².
  public let fullVolume: Double
  /// The most water the container holds without pouring in the current frame of gravity,
  /// points²: the area below the rim's lower end (the lip) for an open container
  /// (``WaterContainer/isOpen``; more water pours over the lip, ``outflowRate``), the whole area
  /// for a closed one.
  public private(set) var capacity: Double
  /// The rim's ends of an open container (empty for a closed one).
  let rim: [Point]
  /// The height of the rim's lower end (the lip) in the current frame, points up from the
  /// centroid (the container's top for a closed one).
  private var lipHeight = 0.0
  /// How high the water's rest level stands above the lip, points (0 when it does not reach it
  /// or the container is closed), as of the last substep.
  public private(set) var head = 0.0
  /// The in-plane gravity the water felt at the last substep, g: the length of the true
  /// gravity's projection onto the screen plane, `√(g_x² + g_y²)`, or 0 within
  /// ``Parameters/flatTilt`` of lying flat.
  public private(set) var inPlaneGravity = 0.0
  /// The weir flow over the lip at the last substep, points² per second (0 when nothing pours).
  public private(set) var outflowRate = 0.0
  /// Outflow not yet folded into the rest geometry, points².
  private var pendingOutflow = 0.0
  /// Refilling not yet applied, points² (applied in steps of a small fraction of the volume,
  /// since each application solves the rest geometry again).
  private var pendingRefill = 0.0

  private let modes: Int
  private let damping: Double
  private let coupling: Double
  /// The frame of gravity's down, unit vector in the layer's bounds space (y down).
  private(set) var down = Point(x: 0, y: 1)
  private(set) var section: ContainerSection
  private(set) var geometry: Geometry
  /// Mode amplitudes aₙ (points) and rates ȧₙ (points/s), n = 1...N at index n − 1.
  private(set) var amplitudes: [Double]
  private(set) var rates: [Double]
  /// The held input: the target slope, the effective gravity (m/s²).
  private var targetSlope = 0.0
  private var gravity = WaterBody.standardGravity
  /// The slope of the world's level line in the frame (it lags the world by < frameStep).
  private var worldSlope = 0.0
  /// How fast the true gravity turns on screen, radians/s (from the two newest samples; 0 after
  /// a gap), for the frames between samples.
  private var gravityTurnRate = 0.0
  private var propagator: Propagator
  /// The time of the state, seconds on the motion clock (on the substep grid).
  public private(set) var time: Double?
  private var last: Input?

  /// The free surface's geometry at rest in the current frame.
  struct Geometry {
    var level = 0.0
    var left = 0.0
    var right = 0.0
    /// √(kₙ·tanh(kₙH)), 1/√m, so that ωₙ = √g_eff · κₙ.
    var kappa: [Double] = []
    /// Each mode's share `Xₙ` of the tilt line `s − s_mid`, points.
    var tilt: [Double] = []
    var length: Double { right - left }
  }

  /// The vertical sections of the container at the surface samples, in the current frame.
  struct Columns {
    var positions: [Double] = []
    var bottoms: [Double] = []
    var tops: [Double] = []
    var weights: [Double] = []
  }

  /// Per-mode transition coefficients for one substep.
  struct Propagator {
    var gravity = -1.0
    var step = 0.0
    var c11: [Double] = []
    var c12: [Double] = []
    var c21: [Double] = []
    var c22: [Double] = []
  }

  /// Creates water at rest, level with the screen's down, in a container.
  ///
  /// - Parameters:
  ///   - container: The vessel.
  ///   - parameters: The constants (`fillFraction` 0...1, `dampingRatio` in [0, 1), `modeCount`
  ///     1...256, `substep` in (0, 0.05] seconds; out-of-range values are clamped).
  public init(container: WaterContainer, parameters: Parameters) {
    var p = parameters
    p.fillFraction = p.fillFraction.isFinite ? min(max(p.fillFraction, 0), 1) : 0.5
    p.dampingRatio = p.dampingRatio.isFinite ? min(max(p.dampingRatio, 0), 0.99) : 0.06
    p.rotationCoupling = p.rotationCoupling.isFinite ? min(max(p.rotationCoupling, 0), 1) : 0.25
    p.modeCount = min(max(p.modeCount, 1), 256)
    p.substep = p.substep.isFinite ? min(max(p.substep, 1e-4), 0.05) : 0.002
    p.minimumGravity = p.minimumGravity.isFinite ? min(max(p.minimumGravity, 1e-3), 1) : 0.1
    p.breakingSlope = p.breakingSlope.isFinite ? min(max(p.breakingSlope, 0.01), 100) : 1
    p.sampleSpacing = p.sampleSpacing.isFinite ? min(max(p.sampleSpacing, 0.25), 1000) : 2.5
    p.refillRate = p.refillRate.isFinite ? min(max(p.refillRate, 0), 1000) : 0.5
    p.refillTilt = p.refillTilt.isFinite ? min(max(p.refillTilt, 0), .pi) : 0.35
    p.flatTilt = p.flatTilt.isFinite ? min(max(p.flatTilt, 0), 1.5) : 5 * .pi / 180
    p.weirCoefficient = p.weirCoefficient.isFinite ? min(max(p.weirCoefficient, 0), 2) : 0.602
    self.container = container
    self.parameters = p
    volume = p.fillFraction * container.area
    fullVolume = volume
    capacity = container.area
    rim = container.isOpen ? container.rim : []
    modes = p.modeCount
    damping = p.dampingRatio
    coupling = p.rotationCoupling
    amplitudes = Array(repeating: 0, count: p.modeCount)
    rates = Array(repeating: 0, count: p.modeCount)
    section = ContainerSection(container, down: Point(x: 0, y: 1))
    geometry = Geometry()
    propagator = Propagator()
    updateFrame(down: Point(x: 0, y: 1))
  }

  // MARK: - Motion

  /// Takes one device-motion sample: advances the state on the substep grid up to its time
  /// (inputs interpolated from the previous sample) and holds it as the newest input.
  ///
  /// The first sample sets the frame and starts the water at rest in its equilibrium. Samples
  /// at or before the previous one, or with non-finite values, are ignored; values are clamped
  /// to ±50 g and ±100 rad/s.
  ///
  /// - Parameters:
  ///   - time: Seconds on the motion clock.
  ///   - gravity: Gravity, g, device frame (CoreMotion's `gravity`).
  ///   - userAcceleration: User acceleration, g, device frame (CoreMotion's).
  ///   - rotationRate: Rotation rate, rad/s, device frame (CoreMotion's, bias-corrected).
  public mutating func receive(
    time: Double, gravity: Vector3, userAcceleration: Vector3, rotationRate: Vector3
  ) {
    guard time.isFinite, gravity.isFinite else { return }
    if let last, time <= last.time { return }
    func clamp(_ v: Double, _ limit: Double) -> Double {
      v.isFinite ? min(max(v, -limit), limit) : 0
    }
    let user = userAcceleration.isFinite ? userAcceleration : .zero
    let input = Input(
      time: time, gravityX: clamp(gravity.x, 50), gravityY: clamp(gravity.y, 50),
      apparentX: clamp(gravity.x + user.x, 50), apparentY: clamp(gravity.y + user.y, 50),
      rotationZ: rotationRate.isFinite ? clamp(rotationRate.z, 100) : 0)
    guard let previous = last, let now = self.time else {
      start(with: input)
      return
    }
    let dt = parameters.substep
    gravityTurnRate = 0
    if let a = downVector(previous), let b = downVector(input) {
      let turn = atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y)
      let rate = turn / (input.time - previous.time)
      if rate.isFinite { gravityTurnRate = rate }
    }
    if input.time - previous.time > Self.maximumInterpolatedGap {
      gravityTurnRate = 0
      // A gap: the previous input held over it, solved in one exact step.
      let steps = ((input.time - now) / dt).rounded(.down)
      if steps >= 1 {
        advanceHeld(by: steps * dt)
        self.time = now + steps * dt
        // The held input goes on pouring over the gap, substep by substep, until it stops.
        var k = 0.0
        while k < steps, volume > capacity {
          pour(previous, over: dt)
          if outflowRate == 0 { break }
          k += 1
        }
        settleOutflow()
      }
      last = input
      return
    }
    var t = now
    while t + dt <= input.time + 1e-12 {
      t += dt
      step(previous.interpolated(to: input, at: t))
    }
    self.time = t
    last = input
  }

  private mutating func start(with input: Input) {
    gravityTurnRate = 0
    time = input.time
    last = input
    if let d = downVector(input) { updateFrame(down: d) }
    worldSlope = 0
    setForcing(input)
    for n in 0..<modes {
      amplitudes[n] = targetSlope * geometry.tilt[n]
      rates[n] = 0
    }
    // A first sample in a hard shake asks for a surface steeper than water can stand.
    limit()
  }

  /// The screen-space unit vector of the true gravity, or `nil` when the device lies within
  /// ``Parameters/flatTilt`` of flat (the in-plane gravity below its sine).
  func downVector(_ input: Input) -> Point? {
    let x = input.gravityX
    let y = -input.gravityY
    let norm = (x * x + y * y).squareRoot()
    guard norm >= sin(parameters.flatTilt), norm >= 1e-6, norm.isFinite else { return nil }
    return Point(x: x / norm, y: y / norm)
  }

  /// The share of mode n in the tilt line `s − s_mid` over a surface of length `length`.
  static func tiltShare(_ n: Int, _ length: Double) -> Double {
    n % 2 == 1 ? -4 * length / (Double(n * n) * .pi * .pi) : 0
  }

  /// One substep with the input at its end.
  private mutating func step(_ input: Input) {
    let dt = parameters.substep
    // The world's level line in the frame: the water stays put while the container turns.
    var newWorldSlope = worldSlope
    if let d = downVector(input) {
      let tx = down.y
      let ty = -down.x
      let along = d.x * tx + d.y * ty
      let across = d.x * down.x + d.y * down.y
      if across < cos(Self.frameStep) {
        // Re-express the surface in the new frame (it was level-with-the-world-relative).
        shiftTilt(by: -worldSlope)
        updateFrame(down: d)
        worldSlope = 0
        newWorldSlope = 0
      } else {
        newWorldSlope = along / across
      }
    }
    shiftTilt(by: newWorldSlope - worldSlope)
    worldSlope = newWorldSlope
    // The turn of the container drags the surface.
    shiftTilt(by: coupling * input.rotationZ * dt)
    setForcing(input)
    advanceModes(by: dt)
    limit()
    pour(input, over: dt)
    refill(over: dt)
  }

  /// The weir flow of an open container over `dt`: the water whose rest level stands a head
  /// `h` above the lip leaves over it at `q = C_d·(2/3)·√(2g)·h^{3/2}` per unit width (the
  /// sharp-crested rectangular weir; in two dimensions the flow per unit width is the area
  /// per second), with `g` the in-plane gravity, never more than the water above the lip.
  private mutating func pour(_ input: Input, over dt: Double) {
    let g = (input.gravityX * input.gravityX + input.gravityY * input.gravityY).squareRoot()
    inPlaneGravity = downVector(input) == nil ? 0 : min(g, 50)
    outflowRate = 0
    head = 0
    guard !rim.isEmpty, volume > capacity, inPlaneGravity > 0 else {
      settleOutflow()
      return
    }
    let level = section.level(forArea: volume, total: container.area)
    head = max(level - lipHeight, 0)
    let q = Self.weirFlow(
      head: head, gravity: inPlaneGravity, coefficient: parameters.weirCoefficient,
      metresPerPoint: container.metresPerPoint)
    let out = min(q * dt, volume - capacity)
    guard out > 0, out.isFinite else {
      settleOutflow()
      return
    }
    outflowRate = q
    volume = max(volume - out, capacity)
    pendingOutflow += out
    // The rest geometry follows in steps of 0.2 % of the full volume (each solves it again);
    // the drawn surface is made volume-exact at every frame regardless.
    if pendingOutflow >= 0.002 * fullVolume || volume <= capacity { settleOutflow() }
  }

  /// Folds the outflow not yet applied into the rest geometry.
  private mutating func settleOutflow() {
    guard pendingOutflow > 0 else { return }
    pendingOutflow = 0
    updateGeometry()
  }

  /// The two-dimensional weir flow over a lip, points² per second.
  ///
  /// - Parameters:
  ///   - head: The height of the water's level above the lip, points.
  ///   - gravity: The in-plane gravity, g.
  ///   - coefficient: The discharge coefficient `C_d`.
  ///   - metresPerPoint: The container's scale.
  /// - Returns: `C_d·(2/3)·√(2g)·h^{3/2}` (m²/s, the flow per unit width of a rectangular
  ///   weir), in points²/s; 0 for a head or gravity that is not positive.
  public static func weirFlow(
    head: Double, gravity: Double, coefficient: Double, metresPerPoint: Double
  ) -> Double {
    guard head > 0, gravity > 0, metresPerPoint > 0, head.isFinite, gravity.isFinite else {
      return 0
    }
    let h = head * metresPerPoint
    let g = gravity * standardGravity
    let q = coefficient * (2.0 / 3.0) * (2 * g).squareRoot() * h * h.squareRoot()
    return q / (metresPerPoint * metresPerPoint)
  }

  /// Refills an open container that stands upright (its down within
  /// ``Parameters/refillTilt`` of gravity) toward ``fullVolume``, at most to ``capacity``.
  private mutating func refill(over dt: Double) {
    guard !rim.isEmpty, volume < fullVolume, parameters.refillRate > 0 else {
      pendingRefill = 0
      return
    }
    // The container's down is the screen's (0, 1): `down.y` is the cosine of its tilt.
    guard down.y >= cos(parameters.refillTilt) else {
      pendingRefill = 0
      return
    }
    pendingRefill += parameters.refillRate * fullVolume * dt
    let room = min(fullVolume, capacity) - volume
    guard room > 0 else {
      pendingRefill = 0
      return
    }
    // Apply in steps of 0.5 % of the full volume (or what is left), about every 10 ms.
    if pendingRefill >= min(0.005 * fullVolume, room) {
      volume += min(pendingRefill, room)
      pendingRefill = 0
      updateGeometry()
    }
  }

  private mutating func setForcing(_ input: Input) {
    let ax = input.apparentX
    let ay = -input.apparentY
    let tx = down.y
    let ty = -down.x
    let along = ax * tx + ay * ty
    let vertical = max(ax * down.x + ay * down.y, parameters.minimumGravity)
    targetSlope = along / vertical
    gravity = vertical * Self.standardGravity
  }

  /// Adds a tilt of `slope` (dz/ds) about the surface's middle.
  private mutating func shiftTilt(by slope: Double) {
    guard slope != 0, slope.isFinite else { return }
    for i in stride(from: 0, to: modes, by: 2) { amplitudes[i] += slope * geometry.tilt[i] }
  }

  private mutating func advanceModes(by dt: Double) {
    if propagator.gravity != gravity || propagator.step != dt || propagator.c11.count != modes {
      propagator = Self.makePropagator(
        kappa: geometry.kappa, gravity: gravity, damping: damping, step: dt)
    }
    apply(propagator)
  }

  /// Moves every mode by a propagator about its equilibrium under the held input (the target
  /// slope's share of the mode): `(x, v) → (c11·x + c12·v, c21·x + c22·v)` with `x` measured
  /// from that equilibrium. The one modal update loop, for fixed steps and held spans alike.
  private mutating func apply(_ p: Propagator) {
    for i in 0..<modes {
      let target = targetSlope * geometry.tilt[i]
      let x = amplitudes[i] - target
      let v = rates[i]
      amplitudes[i] = target + p.c11[i] * x + p.c12[i] * v
      rates[i] = p.c21[i] * x + p.c22[i] * v
    }
  }

  static func makePropagator(kappa: [Double], gravity: Double, damping z: Double, step dt: Double)
    -> Propagator
  {
    var p = Propagator(gravity: gravity, step: dt)
    let root = gravity.squareRoot()
    let n = kappa.count
    p.c11.reserveCapacity(n)
    p.c12.reserveCapacity(n)
    p.c21.reserveCapacity(n)
    p.c22.reserveCapacity(n)
    for k in kappa {
      let c = transition(omega: root * k, damping: z, dt: dt)
      p.c11.append(c.0)
      p.c12.append(c.1)
      p.c21.append(c.2)
      p.c22.append(c.3)
    }
    return p
  }

  /// The exact transition of `x'' + 2ζωx' + ω²x = 0` over `dt`: `(x, v) → (c11·x + c12·v,
  /// c21·x + c22·v)`.
  static func transition(omega w: Double, damping z: Double, dt: Double) -> (
    Double, Double, Double, Double
  ) {
    guard w > 0, w.isFinite, dt > 0 else { return (1, 0, 0, 1) }
    let wd = w * (1 - z * z).squareRoot()
    let e = exp(-z * w * dt)
    let c = cos(wd * dt)
    let s = sin(wd * dt)
    let r = z * w / wd
    return (e * (c + r * s), e * s / wd, -e * w * w / wd * s, e * (c - r * s))
  }

  /// Advances with the held input over `span` seconds in one exact step.
  private mutating func advanceHeld(by span: Double) {
    guard span > 0, span.isFinite else { return }
    apply(
      Self.makePropagator(kappa: geometry.kappa, gravity: gravity, damping: damping, step: span))
    limit()
  }

  /// Breaking and the NaN guard.
  private mutating func limit() {
    var sum = 0.0
    for a in amplitudes { sum += abs(a) }
    guard sum.isFinite, rates.allSatisfy(\.isFinite) else {
      for i in 0..<modes {
        amplitudes[i] = 0
        rates[i] = 0
      }
      return
    }
    let bound = parameters.breakingSlope * geometry.length / 2
    if sum > bound, sum > 0 {
      let f = bound / sum
      for i in 0..<modes {
        amplitudes[i] *= f
        rates[i] *= f
      }
    }
  }

  // MARK: - Frame and geometry

  /// Sets the frame of gravity and recomputes the sections, the capacity (what an open
  /// container holds below its lip) and the rest geometry.
  private mutating func updateFrame(down d: Point) {
    down = d
    section = ContainerSection(container, down: d)
    if !rim.isEmpty {
      let c = container.centroid
      // The rim's lower end: the smallest height (up, from the centroid) of its points.
      let rimHeight = rim.map { -(($0.x - c.x) * d.x + ($0.y - c.y) * d.y) }.min() ?? section.maxZ
      capacity = rimHeight >= section.maxZ - 1e-9 ? container.area : section.below(rimHeight).area
      lipHeight = rimHeight
      // What stands above the lip is not lost at once: it leaves as weir flow (`pour`).
    }
    updateGeometry()
  }

  /// Recomputes the rest geometry (level, surface ends, mode frequencies and shares) for the
  /// current frame and volume; the mode amplitudes are kept.
  private mutating func updateGeometry() {
    let level = section.level(forArea: volume, total: container.area)
    let cut = section.below(level)
    var g = Geometry(level: level, left: cut.left, right: cut.right)
    let lengthMetres = max(g.length, 1e-9) * container.metresPerPoint
    let depthMetres = max(volume / max(g.length, 1e-9), 1e-9) * container.metresPerPoint
    g.kappa = (1...modes).map { n in
      let k = Double(n) * .pi / lengthMetres
      return (k * tanh(k * depthMetres)).squareRoot()
    }
    g.tilt = (1...modes).map { Self.tiltShare($0, g.length) }
    geometry = g
    propagator = Propagator()
  }

  /// The sections at the surface samples in the current frame (computed per frame: the
  /// dynamics do not need them).
  func makeColumns() -> Columns {
    let count = min(
      max(Int((2 * container.radius / parameters.sampleSpacing).rounded(.up)), 16), 4096)
    let lo = section.minS
    let hi = section.maxS
    let span = hi - lo
    let nudge = span * 1e-7
    var c = Columns()
    c.positions.reserveCapacity(count + 1)
    for j in 0...count {
      var s = lo + span * Double(j) / Double(count)
      if j == 0 { s += nudge }
      if j == count { s -= nudge }
      let e = section.verticalExtent(at: s) ?? (section.minZ, section.minZ)
      c.positions.append(s)
      c.bottoms.append(e.bottom)
      c.tops.append(e.top)
      let w = span / Double(count)
      c.weights.append(j == 0 || j == count ? w / 2 : w)
    }
    return c
  }

  // MARK: - Reading

  /// The undamped angular frequency of mode n in the current frame and gravity, rad/s.
  ///
  /// - Parameter n: The mode, 1...``Parameters/modeCount``.
  /// - Returns: ωₙ = √(g_eff·kₙ·tanh(kₙH)), or 0 for a mode out of range.
  public func frequency(mode n: Int) -> Double {
    guard n >= 1, n <= geometry.kappa.count else { return 0 }
    return gravity.squareRoot() * geometry.kappa[n - 1]
  }

  /// The free surface's length between the walls at rest, points.
  public var surfaceLength: Double { geometry.length }

  /// The water's mean depth (area over surface length), points.
  public var meanDepth: Double { volume / max(geometry.length, 1e-9) }

  /// Displaces the surface by a profile (released with the rates it has): the profile's mean is
  /// removed so that no water is created.
  ///
  /// - Parameter profile: The displacement, points up, as a function of the position along
  ///   the surface from its left wall as a fraction 0...1 of its length.
  public mutating func displace(by profile: (Double) -> Double) {
    let samples = 16 * modes
    for i in 0..<modes {
      let n = Double(i + 1)
      var sum = 0.0
      for j in 0..<samples {
        let u = (Double(j) + 0.5) / Double(samples)
        let f = profile(u)
        if f.isFinite { sum += f * cos(n * .pi * u) }
      }
      amplitudes[i] += 2 * sum / Double(samples)
    }
    limit()
  }

  /// The surface's displacement from its level at a point along it, at a time.
  ///
  /// - Parameters:
  ///   - u: The position from the left wall, a fraction 0...1 of the surface's length.
  ///   - time: Seconds on the motion clock (at or after ``time``; default: the state's time).
  /// - Returns: η, points up.
  public func displacement(at u: Double, time: Double? = nil) -> Double {
    let a = predictedAmplitudes(at: time)
    let theta = .pi * min(max(u, 0), 1)
    var sum = 0.0
    for i in 0..<modes { sum += a[i] * cos(Double(i + 1) * theta) }
    return sum
  }

  /// The mode amplitudes at a time, predicted from the state with the input held.
  func predictedAmplitudes(at t: Double?) -> [Double] {
    guard let t, let now = time, t > now, t.isFinite else { return amplitudes }
    let p = Self.makePropagator(
      kappa: geometry.kappa, gravity: gravity, damping: damping, step: t - now)
    let length = geometry.length
    var out = amplitudes
    for i in 0..<modes {
      let target = targetSlope * geometry.tilt[i]
      out[i] = target + p.c11[i] * (amplitudes[i] - target) + p.c12[i] * rates[i]
    }
    // Between samples the device goes on turning as it did: the surface is re-expressed as the
    // frame turns (as the substeps do, kinematically, at most 50 ms and 0.1 rad ahead), so a
    // slow motion rate does not make the water lag a turning device.
    let ahead = min(t - now, 0.05)
    let turn = min(max(gravityTurnRate * ahead, -0.1), 0.1)
    let slope = tan(atan(worldSlope) - turn) - worldSlope
    let drag = coupling * (last?.rotationZ ?? 0) * ahead
    if (slope + drag).isFinite, slope + drag != 0 {
      for i in stride(from: 0, to: modes, by: 2) { out[i] += (slope + drag) * geometry.tilt[i] }
    }
    var sum = 0.0
    for a in out { sum += abs(a) }
    let bound = parameters.breakingSlope * length / 2
    guard sum.isFinite else { return Array(repeating: 0, count: modes) }
    if sum > bound, sum > 0 { out = out.map { $0 * bound / sum } }
    return out
  }
}
