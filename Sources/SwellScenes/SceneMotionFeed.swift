import Foundation
import SwellEffects
import SwellGeometry
import SwellMotion
import SwellRecordings
import SwellTime
import Synchronization

/// A motion feed failed: a recording's row is malformed, a live source failed for good, or the
/// motion asked for cannot be made (a start time past a recording's end, a script that does not
/// parse).
public struct SceneMotionError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, for a program that words it in its own terms (the `swell` tool names its
  /// flags).
  public enum Problem: Hashable, Sendable {
    /// The feed or its source failed (see ``SceneMotionError/message``).
    case failed
    /// The start time, seconds after a recording's first sample, is past its end.
    case startTimePastEnd(startTime: Double, recordingLength: Double)
    /// A motion script does not parse: the parser's reason, with its line and column.
    case invalidScript(String)
    /// A motion script would make more samples than one run may have.
    case tooManyScriptSamples(count: Double, maximum: Int)
  }

  /// What went wrong.
  public var problem: Problem
  /// The one-line reason in the library's terms, naming the file (and line and column) or the
  /// source.
  public var message: String

  /// Creates an error of a failed feed or source.
  ///
  /// - Parameter message: The one-line reason.
  public init(_ message: String) {
    problem = .failed
    self.message = message
  }

  /// Creates an error with its problem.
  ///
  /// - Parameters:
  ///   - problem: What went wrong.
  ///   - message: The one-line reason in the library's terms.
  public init(_ problem: Problem, message: String) {
    self.problem = problem
    self.message = message
  }

  /// The message.
  public var description: String { message }
}

/// Where a ``SceneDriver`` gets its motion: the device motion due by each frame.
///
/// The driver asks, once per frame and with increasing times, for the samples with timestamps up
/// to the frame's target time that it has not had yet. A replayed recording answers exactly
/// (``ReplayMotionFeed``: the same samples for the same frame times, every run); a live source
/// answers with what has arrived (``LiveSourceFeed``); the keyboard and the mouse answer with a
/// simulated device (``TiltMotionFeed``).
public protocol SceneMotionFeed: AnyObject {
  /// A short name for status lines (`recording motion.csv`, `iio:bmi160`, `keyboard`).
  var name: String { get }
  /// The scene time of the first frame, seconds: the first sample's time for a recording, 0
  /// for live and simulated motion.
  var startTime: Double { get }
  /// The samples with timestamps up to `time` not delivered yet, in order.
  ///
  /// - Parameter time: The frame's target time, seconds (increasing across calls).
  /// - Returns: Device motion, CoreMotion units.
  /// - Throws: ``SceneMotionError`` when the motion failed for good.
  func motions(upTo time: Double) throws -> [DeviceMotion]
  /// A line about the motion for a HUD.
  ///
  /// - Parameter time: The scene time, seconds.
  /// - Returns: The line.
  func statusLine(at time: Double) -> String
  /// Stops a live source (the view has closed). The default does nothing.
  func close()

  // Capabilities: a host (ScenePlayer, LiveSession) asks every feed, and a feed that lacks one
  // keeps the default.

  /// Whether frames should start as late as they can, to carry the newest samples (a live
  /// source). The default is `false`.
  var latchesLate: Bool { get }
  /// The arrival times of the samples delivered since the last call (`CLOCK_MONOTONIC`
  /// seconds), for motion-to-photon latency. The default is none (recorded or simulated
  /// motion has no arrival).
  ///
  /// - Returns: The times, in order.
  func takeArrivals() -> [Double]
  /// An arrow key was pressed (a simulated device steps its tilt). The default ignores it.
  ///
  /// - Parameters:
  ///   - direction: The arrow.
  ///   - time: The scene time, seconds.
  func press(_ direction: TiltDirection, at time: Double)
  /// The pointer moved over the view (a simulated device follows it). The default ignores it.
  ///
  /// - Parameters:
  ///   - x: 0...1 across the view.
  ///   - y: 0...1 down the view.
  ///   - time: The scene time, seconds.
  func point(x: Double, y: Double, at time: Double)
  /// The interface orientation the scene is shown in (a simulated device is held in it, so at
  /// rest the water is level). The default ignores it.
  ///
  /// - Parameter orientation: The scene's orientation.
  func setInterfaceOrientation(_ orientation: InterfaceOrientation)
  /// Where the feed's one-line messages go (a device unplugged, a unit warning). The default
  /// ignores the handler (a feed with nothing to say).
  ///
  /// - Parameter handler: Called on the frame loop's thread with each line.
  func setMessageHandler(_ handler: @escaping (String) -> Void)
  /// The clock the feed's samples arrive on (``takeArrivals()``'s times): a live view runs its
  /// loop and measures motion-to-photon latency on this same instance, so a host that hands a
  /// manual clock to the manager gets a whole session on it. The default is the system's
  /// monotonic clock, `MonotonicClock.continuous`; a feed over a `MotionManager` returns the
  /// manager's clock.
  var clock: MonotonicClock { get }
}

extension SceneMotionFeed {
  /// Does nothing.
  public func close() {}
  /// `false`.
  public var latchesLate: Bool { false }
  /// None.
  ///
  /// - Returns: An empty list.
  public func takeArrivals() -> [Double] { [] }
  /// Ignores the key.
  ///
  /// - Parameters:
  ///   - direction: The arrow.
  ///   - time: The scene time, seconds.
  public func press(_ direction: TiltDirection, at time: Double) {}
  /// Ignores the pointer.
  ///
  /// - Parameters:
  ///   - x: 0...1 across the view.
  ///   - y: 0...1 down the view.
  ///   - time: The scene time, seconds.
  public func point(x: Double, y: Double, at time: Double) {}
  /// Ignores the orientation.
  ///
  /// - Parameter orientation: The scene's orientation.
  public func setInterfaceOrientation(_ orientation: InterfaceOrientation) {}
  /// Ignores the handler.
  ///
  /// - Parameter handler: The handler.
  public func setMessageHandler(_ handler: @escaping (String) -> Void) {}
  /// The system's monotonic clock.
  public var clock: MonotonicClock { .continuous }
}

/// Motion held in memory, delivered by timestamp (tests, a resting device).
public final class ArrayMotionFeed: SceneMotionFeed {
  /// The name.
  public let name: String
  /// The samples, increasing timestamps.
  public let motions: [DeviceMotion]
  private var next = 0

  /// Creates a feed.
  ///
  /// - Parameters:
  ///   - motions: Device motion, increasing timestamps (may be empty).
  ///   - name: A name for status lines.
  public init(_ motions: [DeviceMotion], name: String = "motion") {
    self.motions = motions
    self.name = name
  }

  /// The first sample's time, or 0.
  public var startTime: Double { motions.first?.timestamp ?? 0 }

  /// The samples up to `time` not delivered yet.
  ///
  /// - Parameter time: Seconds.
  /// - Returns: The samples, in order.
  public func motions(upTo time: Double) -> [DeviceMotion] {
    var out: [DeviceMotion] = []
    while next < motions.count && motions[next].timestamp <= time + 1e-9 {
      out.append(motions[next])
      next += 1
    }
    return out
  }

  /// `NAME T s`.
  ///
  /// - Parameter time: Seconds.
  /// - Returns: The line.
  public func statusLine(at time: Double) -> String {
    name + String(format: " %.1f s", time - startTime)
  }
}

/// Every sample of a `MotionManager` replayed by timestamp: the feed of offline export,
/// `swell trace` and a recording shown live. It waits for the manager (blocking the calling
/// thread, which must be a thread of its own, not a Swift concurrency task), so the same
/// frames get the same samples every run.
public final class ReplayMotionFeed: SceneMotionFeed {
  /// The name.
  public let name: String
  /// The manager's samples.
  public let samples: MotionSamples<DeviceMotion>
  /// The manager (kept alive while the feed is).
  public let manager: MotionManager
  /// The manager's clock.
  public var clock: MonotonicClock { manager.clock }
  /// Seconds after the recording's first sample before which samples are fused but not
  /// delivered (a demo's start time).
  public let skip: Double
  private var lookahead: DeviceMotion?
  private var started = false
  private var ended = false
  private var first: Double?
  /// The failure met while finding the first sample (inside the start-skip window), thrown by
  /// the next ``motions(upTo:)``.
  private var startFailure: SceneMotionError?

  /// Starts every-sample delivery of a manager in a frame.
  ///
  /// - Parameters:
  ///   - manager: The manager over the recording or script.
  ///   - referenceFrame: The frame of fused attitudes (default `xArbitraryZVertical`).
  ///   - name: A name for status lines.
  ///   - skip: Seconds after the first sample whose samples are fused but not delivered
  ///     (default 0).
  public init(
    manager: MotionManager, referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical,
    name: String, skip: Double = 0
  ) {
    self.manager = manager
    self.name = name
    self.skip = skip
    samples = manager.deviceMotionSamples(using: referenceFrame)
  }

  deinit { samples.cancel() }

  private func take() throws(SceneMotionError) -> DeviceMotion? {
    do {
      return try samples.waitForNext()
    } catch let e as MotionManagerError {
      throw SceneMotionError(e.sourceMessage ?? e.message)
    } catch {
      throw SceneMotionError("\(name): \(error)")
    }
  }

  /// The first delivered sample's time (waiting for it), or 0 when there is none.
  ///
  /// Finding it consumes the samples of the start-skip window (``skip``). When the source
  /// fails meanwhile, the time is 0 and the failure is thrown by the next
  /// ``motions(upTo:)`` (a failed source is not a recording that ended).
  public var startTime: Double {
    if !started {
      started = true
      do {
        lookahead = try take()
        if let t0 = lookahead?.timestamp, skip > 0 {
          while let m = lookahead, m.timestamp < t0 + skip { lookahead = try take() }
        }
      } catch {
        lookahead = nil
        startFailure = error
      }
      first = lookahead?.timestamp
      if lookahead == nil { ended = true }
    }
    return first ?? 0
  }

  /// True once every sample has been delivered (false after a failure).
  public var isExhausted: Bool { ended && lookahead == nil && startFailure == nil }

  /// The samples up to `time` not delivered yet, waiting for the manager as needed.
  ///
  /// - Parameter time: Seconds.
  /// - Returns: The samples, in order.
  /// - Throws: ``SceneMotionError`` naming the file, line and column of a malformed row, or the
  ///   failed source.
  public func motions(upTo time: Double) throws -> [DeviceMotion] {
    _ = startTime
    if let startFailure { throw startFailure }
    var out: [DeviceMotion] = []
    while true {
      if lookahead == nil {
        guard !ended else { break }
        lookahead = try take()
        if lookahead == nil {
          ended = true
          break
        }
      }
      guard let m = lookahead, m.timestamp <= time + 1e-9 else { break }
      out.append(m)
      lookahead = nil
    }
    return out
  }

  /// `NAME T s`.
  ///
  /// - Parameter time: Seconds.
  /// - Returns: The line.
  public func statusLine(at time: Double) -> String {
    name + String(format: " %.1f s", time - startTime)
  }

  /// Stops the manager's updates.
  public func close() { samples.cancel() }
}

/// Maps a live source's timestamps onto scene time.
///
/// The offset (scene − source) is the smallest `frame target − timestamp` seen for the newest
/// sample of each batch, so every queued sample maps to the frame it is drained at or earlier,
/// and latency stays at the smallest seen. When the newest sample would map more than
/// ``tolerance`` behind the frame (the source's clock runs slow, or the stream stalled), the
/// offset is raised so it maps to the frame. Samples mapping at or before the last delivered
/// one (those queued while the view was paused) are dropped, so delivered times increase.
public struct LiveClockMapper: Sendable {
  /// How far the newest sample may map behind the frame target before re-anchoring, seconds.
  public static let tolerance = 0.25
  /// Scene time minus source time, seconds; `nil` before the first sample.
  public private(set) var offset: Double?
  /// The scene time of the last delivered sample, seconds.
  public private(set) var lastDelivered = -Double.infinity
  /// The number of samples dropped so far.
  public private(set) var dropped = 0

  /// Creates a mapper.
  public init() {}

  /// Maps a batch drained at a frame.
  ///
  /// - Parameters:
  ///   - batch: Motions in source time, in order.
  ///   - time: The frame's target time, scene seconds.
  /// - Returns: The motions to deliver, timestamps in scene time, increasing, ≤ `time`.
  public mutating func map(_ batch: [DeviceMotion], at time: Double) -> [DeviceMotion] {
    guard let newest = batch.last?.timestamp else { return [] }
    var o = min(offset ?? .infinity, time - newest)
    if time - (newest + o) > LiveClockMapper.tolerance { o = time - newest }
    offset = o
    var out: [DeviceMotion] = []
    out.reserveCapacity(batch.count)
    for var m in batch {
      let t = m.timestamp + o
      guard t > lastDelivered, t.isFinite else {
        dropped += 1
        continue
      }
      m.timestamp = t
      lastDelivered = t
      out.append(m)
    }
    return out
  }
}

/// A live source through a `MotionManager`: every fused sample, taken without waiting at each
/// frame and mapped onto scene time by a ``LiveClockMapper``. Transient source errors become
/// messages (``onMessage``) and the source is asked again; a final error fails the feed. What
/// the manager reports of a saved gyroscope calibration (used, ignored, a corrupt file) becomes
/// a message too.
public final class LiveSourceFeed: SceneMotionFeed {
  /// The manager.
  public let manager: MotionManager
  /// The manager's clock: sample arrivals are stamped on it.
  public var clock: MonotonicClock { manager.clock }
  /// Its samples.
  public let samples: MotionSamples<DeviceMotion>
  private var mapper = LiveClockMapper()
  private let messages = MessageQueue()
  private var lastMessage: (text: String, time: Double)?
  private var ended = false
  private var lastSampleTime: Double?
  private var delivered = 0
  private var arrivals: [Double] = []
  /// Receives one-line messages (a device unplugged, the source ended).
  public var onMessage: (String) -> Void = { _ in }

  /// `true`: frames start late to carry the newest samples.
  public var latchesLate: Bool { true }

  /// Sets ``onMessage``.
  ///
  /// - Parameter handler: Called with each line.
  public func setMessageHandler(_ handler: @escaping (String) -> Void) { onMessage = handler }

  /// A handler that posts one-line messages to this feed from any thread (a unit warning from
  /// the source's thread), shown as the source's other messages are (``onMessage``, the status
  /// line) at the next frame; give it lines without the source's name.
  public var messagePoster: @Sendable (String) -> Void {
    let messages = self.messages
    return { messages.append($0) }
  }

  /// Starts every-sample delivery in a frame.
  ///
  /// - Parameters:
  ///   - manager: The manager over the live source.
  ///   - referenceFrame: The frame of fused attitudes.
  ///   - capacity: The most samples queued between frames (default 4096).
  public init(
    manager: MotionManager, referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical,
    capacity: Int = 4096
  ) {
    self.manager = manager
    let messages = self.messages
    manager.sourceErrorHandler = { e in
      if e.isTransient { messages.append(e.sourceMessage ?? e.message) }
    }
    // The saved gyroscope calibration: used, ignored (why), or a corrupt file; saves are quiet.
    manager.calibrationHandler = { e in
      if case .saved = e { return }
      messages.append(e.description)
    }
    samples = manager.deviceMotionSamples(using: referenceFrame, capacity: capacity)
  }

  deinit { samples.cancel() }

  /// The source's name.
  public var name: String { manager.source.name }
  /// 0: live scene time starts at 0.
  public var startTime: Double { 0 }
  /// The samples delivered so far.
  public var deliveredCount: Int { delivered }
  /// The samples dropped by the clock mapping (stale or out of order).
  public var droppedCount: Int { mapper.dropped }

  /// What arrived since the last call, mapped onto scene time.
  ///
  /// - Parameter time: The frame's target time, seconds.
  /// - Returns: The samples, in order.
  /// - Throws: ``SceneMotionError`` when the source failed for good.
  public func motions(upTo time: Double) throws -> [DeviceMotion] {
    for m in messages.takeAll() {
      lastMessage = (m, time)
      onMessage("\(name): \(m)")
    }
    let batch: [DeviceMotion]
    do {
      let taken = try samples.pollWithArrivals()
      batch = taken.map(\.element)
      arrivals += taken.map(\.arrival)
    } catch let e as MotionManagerError {
      throw SceneMotionError("\(name): \(e.sourceMessage ?? e.message)")
    }
    if samples.isExhausted && !ended {
      ended = true
      lastMessage = ("the source ended", time)
      onMessage("\(name): the source ended")
    }
    let out = mapper.map(batch, at: time)
    delivered += out.count
    if let last = out.last { lastSampleTime = last.timestamp }
    return out
  }

  /// `NAME 6D|9D: N samples[, none for T s][ | message]`.
  ///
  /// - Parameter time: Seconds.
  /// - Returns: The line.
  public func statusLine(at time: Double) -> String {
    // The mode the manager fuses in, the override (`--9d`, `fusionMode`) applied.
    let active =
      manager.activeFusionMode ?? manager.fusionMode
      ?? AttitudeEstimator.Mode(referenceFrame: manager.attitudeReferenceFrame)
    let mode = active == .nineD ? " 9D" : " 6D"
    var line = "\(name)\(delivered > 0 ? mode : ""): \(delivered) samples"
    if let last = lastSampleTime, time - last > 0.5 {
      line += String(format: ", none for %.1f s", time - last)
    }
    if let m = lastMessage, time - m.time < 5 { line += " | " + m.text }
    return line
  }

  /// Stops the manager's updates (and so the source).
  public func close() {
    samples.cancel()
  }

  /// The arrival times of the samples delivered since the last call (`CLOCK_MONOTONIC`
  /// seconds, when the manager queued each one), for motion-to-photon latency.
  ///
  /// - Returns: The times, in order.
  public func takeArrivals() -> [Double] {
    defer { arrivals = [] }
    return arrivals
  }
}

/// The keyboard (arrows) or the mouse (pointer position) tilting a simulated device
/// (`TiltController`), sampled once per frame.
public final class TiltMotionFeed: SceneMotionFeed {
  /// What drives the tilt.
  public enum Kind: Sendable {
    /// Arrow keys step the tilt.
    case keyboard
    /// The pointer's position over the window sets it.
    case mouse
  }

  /// The input.
  public let kind: Kind
  /// The simulated device.
  public private(set) var controller = TiltController()
  /// The interface orientation the simulated phone is held in (a live view sets the scene's):
  /// the controller's pose is the interface's, turned into the device's axes, so at rest the
  /// water is level in every orientation and the arrows and pointer tilt the phone relative to
  /// the screen.
  public var orientation: InterfaceOrientation = .portrait
  private var lastSample: Double?

  /// Creates a feed.
  ///
  /// - Parameter kind: Keyboard or mouse.
  public init(kind: Kind) { self.kind = kind }

  /// Holds the simulated device in the scene's orientation (``orientation``).
  ///
  /// - Parameter orientation: The scene's orientation.
  public func setInterfaceOrientation(_ orientation: InterfaceOrientation) {
    self.orientation = orientation
  }

  /// `keyboard` or `mouse`.
  public var name: String { kind == .keyboard ? "keyboard" : "mouse" }
  /// 0.
  public var startTime: Double { 0 }

  /// The simulated device's motion at `time` (one sample per new frame time).
  ///
  /// - Parameter time: Seconds.
  /// - Returns: Zero or one sample.
  public func motions(upTo time: Double) -> [DeviceMotion] {
    if let last = lastSample, time <= last { return [] }
    lastSample = time
    return [Self.held(controller.motion(at: time), in: orientation)]
  }

  /// A motion of a phone held upright in portrait, as the same motion of a phone held in an
  /// interface orientation: vectors turned from the interface's axes into the device's
  /// (`interfaceVector(fromDevice:)` undone) and the attitude turned alike, so that
  /// `attitude.quaternion.rotate(gravity)` is unchanged.
  ///
  /// - Parameters:
  ///   - motion: The portrait motion (the interface's axes).
  ///   - orientation: The interface orientation.
  /// - Returns: The motion in the device's axes.
  public static func held(_ motion: DeviceMotion, in orientation: InterfaceOrientation)
    -> DeviceMotion
  {
    let angle: Double
    switch orientation {
    case .portrait: return motion
    case .portraitUpsideDown: angle = .pi
    case .landscapeLeft: angle = .pi / 2
    case .landscapeRight: angle = -.pi / 2
    }
    let turn = Quaternion(axis: Vector3(0, 0, 1), angle: angle)
    var m = motion
    m.attitude = Attitude(quaternion: motion.attitude.quaternion * turn.conjugate)
    m.gravity = turn.rotate(motion.gravity)
    m.userAcceleration = turn.rotate(motion.userAcceleration)
    m.rotationRate = turn.rotate(motion.rotationRate)
    m.magneticField.field = turn.rotate(motion.magneticField.field)
    return m
  }

  /// An arrow key pressed (keyboard kind).
  ///
  /// - Parameters:
  ///   - direction: The arrow.
  ///   - time: Seconds.
  public func press(_ direction: TiltDirection, at time: Double) {
    guard kind == .keyboard else { return }
    controller.press(direction, at: time)
  }

  /// The pointer moved (mouse kind).
  ///
  /// - Parameters:
  ///   - x: 0...1 across the window.
  ///   - y: 0...1 down the window.
  ///   - time: Seconds.
  public func point(x: Double, y: Double, at time: Double) {
    guard kind == .mouse else { return }
    controller.point(x: x, y: y, at: time)
  }

  /// `NAME: pitch P° roll R°`.
  ///
  /// - Parameter time: Seconds.
  /// - Returns: The line.
  public func statusLine(at time: Double) -> String {
    let m = controller.currentMotion
    return name
      + String(
        format: ": pitch %.1f° roll %.1f°", m.attitude.pitch * 180 / .pi,
        m.attitude.roll * 180 / .pi)
  }
}

/// One-line messages handed from the manager's task to the frame loop.
private final class MessageQueue: Sendable {
  private let lines = Mutex<[String]>([])

  func append(_ line: String) { lines.withLock { $0.append(line) } }

  func takeAll() -> [String] {
    lines.withLock { l in
      defer { l = [] }
      return l
    }
  }
}
