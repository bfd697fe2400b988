/// One `struct input_event` read from an evdev node (`linux/input.h`): the kernel's timestamp, the
/// event's type and code, and its value.
///
/// The timestamp is the time the kernel queued the event, on the clock the reader selected with
/// `EVIOCSCLOCKID` (`CLOCK_MONOTONIC` for Swell's live source; the kernel default is
/// `CLOCK_REALTIME`). An evemu recording stores the same fields as `E: SEC.USEC TYPE CODE VALUE`.
public struct EvdevEvent: Hashable, Sendable {
  /// Whole seconds of the event's timestamp (`input_event.input_event_sec`).
  public var seconds: Int64
  /// Microseconds past ``seconds``, 0...999 999 for a kernel event (`input_event.input_event_usec`).
  public var microseconds: Int64
  /// The event's type (`input_event.type`).
  public var type: EvdevEventType
  /// The event's code within its type (`input_event.code`), such as `ABS_X` or `SYN_REPORT`.
  public var code: UInt16
  /// The event's value (`input_event.value`): an axis position in the axis's raw units, a
  /// `MSC_TIMESTAMP` in microseconds (a 32-bit counter, read as signed), 0 for `SYN_REPORT`.
  public var value: Int32

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - seconds: Whole seconds of the timestamp.
  ///   - microseconds: Microseconds past `seconds`.
  ///   - type: The event type.
  ///   - code: The code within the type.
  ///   - value: The value, in the code's raw units.
  public init(
    seconds: Int64, microseconds: Int64, type: EvdevEventType, code: UInt16, value: Int32
  ) {
    self.seconds = seconds
    self.microseconds = microseconds
    self.type = type
    self.code = code
    self.value = value
  }

  /// The timestamp in seconds (``seconds`` + ``microseconds`` / 10⁶).
  public var time: Double { Double(seconds) + Double(microseconds) * 1e-6 }

  /// The timestamp in whole microseconds.
  var timeMicroseconds: Int64 { seconds &* 1_000_000 &+ microseconds }
}

/// An evdev event type (`EV_*` in `linux/input-event-codes.h`).
public struct EvdevEventType: RawRepresentable, Hashable, Sendable, Comparable {
  /// The type's number (`input_event.type`).
  public var rawValue: UInt16

  /// Creates a type from its number.
  ///
  /// - Parameter rawValue: The `EV_*` number.
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// `EV_SYN` (0): frame markers such as `SYN_REPORT` and `SYN_DROPPED`.
  public static let synchronization = EvdevEventType(rawValue: 0x00)
  /// `EV_KEY` (1): buttons and keys.
  public static let key = EvdevEventType(rawValue: 0x01)
  /// `EV_REL` (2): relative axes.
  public static let relative = EvdevEventType(rawValue: 0x02)
  /// `EV_ABS` (3): absolute axes; on a motion node, the accelerometer and gyroscope.
  public static let absolute = EvdevEventType(rawValue: 0x03)
  /// `EV_MSC` (4): miscellaneous events such as `MSC_TIMESTAMP`.
  public static let miscellaneous = EvdevEventType(rawValue: 0x04)

  /// The largest type number (`EV_MAX`, 0x1f).
  public static let maximum: UInt16 = 0x1f

  /// Orders types by number.
  ///
  /// - Parameters:
  ///   - a: A type.
  ///   - b: Another type.
  /// - Returns: Whether `a`'s number is smaller.
  public static func < (a: EvdevEventType, b: EvdevEventType) -> Bool { a.rawValue < b.rawValue }
}

/// The event codes and property bits a motion node uses, with their numbers from
/// `linux/input-event-codes.h`.
public enum EvdevCode {
  /// `SYN_REPORT` (0, type `EV_SYN`): closes a frame of events that happened at once.
  public static let synReport: UInt16 = 0
  /// `SYN_DROPPED` (3, type `EV_SYN`): the client's buffer overflowed and events were lost;
  /// `Documentation/input/event-codes.rst` says to discard events up to and including the next
  /// `SYN_REPORT` and re-read the device's state.
  public static let synDropped: UInt16 = 3
  /// `MSC_TIMESTAMP` (5, type `EV_MSC`): the device's own clock in microseconds, a 32-bit counter
  /// that wraps (`Documentation/input/event-codes.rst`).
  public static let mscTimestamp: UInt16 = 5
  /// `ABS_X` (0): on a motion node, the accelerometer's x axis.
  public static let absX: UInt16 = 0x00
  /// `ABS_Y` (1): on a motion node, the accelerometer's y axis.
  public static let absY: UInt16 = 0x01
  /// `ABS_Z` (2): on a motion node, the accelerometer's z axis.
  public static let absZ: UInt16 = 0x02
  /// `ABS_RX` (3): on a motion node, the gyroscope about x.
  public static let absRX: UInt16 = 0x03
  /// `ABS_RY` (4): on a motion node, the gyroscope about y.
  public static let absRY: UInt16 = 0x04
  /// `ABS_RZ` (5): on a motion node, the gyroscope about z.
  public static let absRZ: UInt16 = 0x05
  /// The largest `ABS_*` code (`ABS_MAX`, 0x3f).
  public static let absMaximum: UInt16 = 0x3f
  /// The largest code of any type that this module keeps in a description (`KEY_MAX`, 0x2ff).
  public static let codeMaximum: UInt16 = 0x2ff
  /// `INPUT_PROP_ACCELEROMETER` (6): the node's x/y/z axes are an accelerometer (and its rx/ry/rz
  /// axes a gyroscope).
  public static let propertyAccelerometer = 0x06
  /// The largest `INPUT_PROP_*` bit (`INPUT_PROP_MAX`, 0x1f).
  public static let propertyMaximum = 0x1f
}
