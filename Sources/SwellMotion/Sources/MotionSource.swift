/// An error a motion source reports (CoreMotion reports these through `CMError`).
public struct MotionSourceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A one-line, human-readable reason naming the source.
  public var message: String
  /// True when the source may come back (a device that disappeared); false when it is finished.
  public var isTransient: Bool

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - message: A one-line reason.
  ///   - isTransient: Whether the source may recover.
  public init(_ message: String, isTransient: Bool = false) {
    self.message = message
    self.isTransient = isTransient
  }

  /// The message.
  public var description: String { message }
}

/// What a ``MotionSource`` delivers: raw inertial samples to be fused, or device motion that is
/// already fused (a device-motion recording, scripted motion, keyboard or mouse tilt).
public enum MotionEvent: Sendable, Hashable {
  /// A raw sample, device frame, SI units.
  case sample(IMUSample)
  /// Fused device motion, CoreMotion units.
  case deviceMotion(DeviceMotion)
}

/// A source of motion: a Linux IIO sensor, a recording, a phone stream, scripted motion.
///
/// Sources are pulled, by one ``MotionManager`` (the one loop that pulls a source): ``next()``
/// returns the next event, suspending until one is available, and `nil` when the source has
/// ended. Live sources pace themselves with their own clock; recorded sources may be replayed
/// live (at recorded speed) or as fast as possible.
///
/// The error contract: a ``MotionSourceError`` with ``MotionSourceError/isTransient`` set means
/// "nothing now, call again" (a device that went away and may come back; the source itself
/// waits before it answers again); any other error ends the source.
public protocol MotionSource: AnyObject, Sendable {
  /// A short, human-readable name such as `iio:bmi160` or `recording:trial.csv`.
  var name: String { get }

  /// True when the source delivers magnetometer readings (9D fusion is possible).
  var hasMagnetometer: Bool { get }

  /// False for a source without a gyroscope, whose samples carry a zero one (a DualShock 3, a
  /// laptop whose only motion sensor is an accelerometer): ``MotionManager`` then estimates
  /// device motion from the accelerometer alone (``TiltEstimator``) in the frame that does not
  /// refer to north. Default: true.
  var hasGyroscope: Bool { get }

  /// True when ``hasMagnetometer`` is known before the first sample (a device's channels, a
  /// recording's columns); false for a stream that learns it from the samples (a phone over the
  /// network). ``MotionManager`` checks a frame that needs the magnetometer up front when it is
  /// known, else at the first raw sample. Default: true.
  var sensorsAreKnown: Bool { get }

  /// True when the source delivers raw ``IMUSample``s (so the raw accelerometer, gyroscope and
  /// magnetometer updates of ``MotionManager`` are available); false for sources of fused
  /// device motion (a device-motion recording, scripted motion). Default: true.
  var providesRawSamples: Bool { get }

  /// A name for the physical device behind the source that stays the same across runs, reboots
  /// and replugging, or `nil` when there is none: what a saved gyroscope calibration
  /// (``GyroscopeCalibrationStore``) is keyed by. A game pad's `uniq` (its Bluetooth or
  /// serial address), an IIO device's chip name and its place on the bus (`iio:bmi160@…`), never
  /// a number the kernel hands out in discovery order (`iio:device2`, `event7`). Recordings,
  /// scripts and streams whose device cannot be told apart return `nil`. Default: `nil`.
  var deviceIdentity: String? { get }

  /// Why the source reads in a slower or less exact way than it was asked to, once it knows,
  /// for a one-line note to the user: an IIO device polled through sysfs because buffered
  /// reads failed (with the fix). `nil` while it reads as asked. Default: `nil`.
  var fallbackNote: String? { get }

  /// Returns the next event, or `nil` at the end of the source.
  ///
  /// - Returns: The next sample or device motion.
  /// - Throws: ``MotionSourceError`` when the source fails (transient or not), or
  ///   `CancellationError` when the waiting task is cancelled.
  func next() async throws -> MotionEvent?

  /// Ends delivery: releases what the source holds (a device's buffers, a socket, a file) and
  /// makes a pending or later ``next()`` return `nil`. ``MotionManager`` calls it when its
  /// updates stop. Calling it twice is harmless. (A synchronous `stop()` fulfils it.)
  func stop() async

  /// Makes a stopped (or ended) source deliver again: ``MotionManager`` calls it when updates
  /// start after a ``stop()``, before it asks for the next event (never while a ``next()`` is
  /// pending, never before the ``stop()`` has returned).
  ///
  /// A live source reopens what ``stop()`` released; a recording replays from its first event
  /// (``RecordingSource``). A source that cannot deliver again throws; the manager then fails
  /// the updates with `notAvailable` (109) and the reason. Default: nothing, for a source whose
  /// ``next()`` opens what it needs (an `IIOSource`); if such a source still ends at once,
  /// the manager reports that as `notAvailable` too.
  ///
  /// - Throws: A ``MotionSourceError`` saying why the source cannot deliver again.
  func restart() async throws
}

extension MotionSource {
  /// True: most sources know their sensors before the first sample.
  public var sensorsAreKnown: Bool { true }

  /// True: most sources have a gyroscope.
  public var hasGyroscope: Bool { true }

  /// True: most sources deliver raw samples.
  public var providesRawSamples: Bool { true }

  /// `nil`: a source names no physical device unless it says so.
  public var deviceIdentity: String? { nil }

  /// `nil`: the source reads as asked.
  public var fallbackNote: String? { nil }

  /// Nothing: the source's ``next()`` reopens what it needs.
  public func restart() async throws {}

}
