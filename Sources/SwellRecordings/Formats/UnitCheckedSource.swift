import Foundation
import SwellMotion
import Synchronization

/// A live source whose raw samples are checked for the wrong units as they arrive, with the
/// checks `swell fuse` makes on a file (``RecordingUnitCheck``): a phone app streaming
/// acceleration in g or times in milliseconds, a sensor bridge sending the gyroscope in °/s.
///
/// Every event passes through unchanged. The first samples are kept (at most
/// ``maximumSamples``, up to ``window`` seconds of the source's time) and checked every
/// ``checkInterval`` seconds of it; each quantity's warning is handed to the warning handler
/// once per run. The gyroscope check needs the device to turn (half a radian in all), so its
/// warning may come later than the others, or never for a device at rest. Fused
/// `MotionEvent.deviceMotion` events (CoreMotion's own units, as a phone sends them) are not
/// checked.
public final class UnitCheckedSource: MotionSource {
  /// The longest stretch of samples kept for the checks, seconds of the source's time.
  public static let window = 30.0
  /// How often the kept samples are checked, seconds of the source's time.
  public static let checkInterval = 2.0
  /// The most samples kept (30 s of a 1 kHz source).
  public static let maximumSamples = 30_000

  /// The wrapped source.
  public let source: any MotionSource
  private let state = Mutex(State())
  /// The handler, and the warnings found while there was none (handed to the next one set).
  private let handler:
    Mutex<(call: (@Sendable (RecordingUnitWarning) -> Void)?, held: [RecordingUnitWarning])>

  private struct State {
    var samples: [IMUSample] = []
    var lastCheck: Double?
    var reported: Set<RecordingUnitWarning.Quantity> = []
    var done = false
  }

  /// Wraps a source.
  ///
  /// - Parameters:
  ///   - source: The live source.
  ///   - onWarning: Called on the pulling thread with each warning, once per quantity and run.
  public init(
    _ source: any MotionSource, onWarning: (@Sendable (RecordingUnitWarning) -> Void)? = nil
  ) {
    self.source = source
    handler = Mutex((onWarning, []))
  }

  /// Replaces the warning handler (for a handler made after the source, such as a feed's, whose
  /// source may already be pulling): warnings found while there was no handler are handed to it
  /// at once, so none is lost to the order of set-up.
  ///
  /// - Parameter handler: Called with each warning.
  public func setWarningHandler(_ handler: (@Sendable (RecordingUnitWarning) -> Void)?) {
    let held = self.handler.withLock { h -> [RecordingUnitWarning] in
      h.call = handler
      guard handler != nil else { return [] }
      defer { h.held = [] }
      return h.held
    }
    for w in held { handler?(w) }
  }

  /// The wrapped source's name.
  public var name: String { source.name }
  /// The wrapped source's.
  public var hasMagnetometer: Bool { source.hasMagnetometer }
  /// The wrapped source's.
  public var hasGyroscope: Bool { source.hasGyroscope }
  /// The wrapped source's.
  public var sensorsAreKnown: Bool { source.sensorsAreKnown }
  /// The wrapped source's.
  public var providesRawSamples: Bool { source.providesRawSamples }
  /// The wrapped source's.
  public var deviceIdentity: String? { source.deviceIdentity }

  /// The wrapped source's next event, after checking a raw sample.
  ///
  /// - Returns: The event, or `nil` when the source has ended.
  /// - Throws: The wrapped source's errors.
  public func next() async throws -> MotionEvent? {
    let event = try await source.next()
    if case .sample(let s)? = event { check(s) }
    return event
  }

  /// Stops the wrapped source.
  public func stop() async { await source.stop() }

  /// Restarts the wrapped source; the checks start again (a new run may be another device).
  ///
  /// - Throws: The wrapped source's errors.
  public func restart() async throws {
    state.withLock { $0 = State() }
    try await source.restart()
  }

  /// A warning as one line for a live view: what was measured and where the fix lies (the
  /// sender's settings: a live stream's units are the sender's).
  ///
  /// - Parameter warning: The warning.
  /// - Returns: The line, without the source's name.
  public static func liveMessage(for warning: RecordingUnitWarning) -> String {
    let unit: String
    switch warning.quantity {
    case .time: unit = "seconds"
    case .acceleration: unit = "m/s²"
    case .angularVelocity: unit = "rad/s"
    }
    return warning.message + "; the stream must send \(unit) (docs/sensors.md)"
  }

  private func check(_ sample: IMUSample) {
    let warnings: [RecordingUnitWarning] = state.withLock { s in
      guard !s.done, sample.timestamp.isFinite else { return [] }
      s.samples.append(sample)
      let first = s.samples[0].timestamp
      let span = sample.timestamp - first
      if span >= Self.window || s.samples.count >= Self.maximumSamples { s.done = true }
      guard s.done || span - (s.lastCheck ?? 0) >= Self.checkInterval else { return [] }
      s.lastCheck = span
      let found = RecordingUnitCheck.warnings(s.samples).filter {
        !s.reported.contains($0.quantity)
      }
      for w in found { s.reported.insert(w.quantity) }
      if s.done { s.samples = [] }
      return found
    }
    guard !warnings.isEmpty else { return }
    let call = handler.withLock { h -> (@Sendable (RecordingUnitWarning) -> Void)? in
      if h.call == nil { h.held += warnings }
      return h.call
    }
    for w in warnings { call?(w) }
  }
}
