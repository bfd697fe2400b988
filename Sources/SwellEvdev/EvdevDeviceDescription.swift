/// One absolute axis's description, `struct input_absinfo` from `linux/input.h` (read with
/// `EVIOCGABS`, or an evemu `A:` line).
///
/// `resolution` is what gives a motion node its units: the `input_absinfo` comment in
/// `linux/input.h` says it is in units per g for the accelerometer axes (`ABS_X`, `ABS_Y`,
/// `ABS_Z`) and in units per degree per second for the gyroscope axes (`ABS_RX`, `ABS_RY`,
/// `ABS_RZ`) of an `INPUT_PROP_ACCELEROMETER` device.
public struct EvdevAbsInfo: Hashable, Sendable {
  /// The axis's current value, raw units.
  public var value: Int32
  /// The smallest value the axis reports, raw units.
  public var minimum: Int32
  /// The largest value the axis reports, raw units.
  public var maximum: Int32
  /// The kernel drops changes smaller than this, raw units.
  public var fuzz: Int32
  /// Values within this of 0 are reported as 0 (joysticks' dead zone), raw units.
  public var flat: Int32
  /// Raw units per g (accelerometer) or per °/s (gyroscope) on a motion node.
  public var resolution: Int32

  /// Creates an axis description.
  ///
  /// - Parameters:
  ///   - value: Current value, raw units.
  ///   - minimum: Smallest value, raw units.
  ///   - maximum: Largest value, raw units.
  ///   - fuzz: Noise filter, raw units.
  ///   - flat: Dead zone, raw units.
  ///   - resolution: Raw units per g or per °/s.
  public init(
    value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0,
    resolution: Int32
  ) {
    self.value = value
    self.minimum = minimum
    self.maximum = maximum
    self.fuzz = fuzz
    self.flat = flat
    self.resolution = resolution
  }
}

/// What an evdev node says about itself: its name and ids (`EVIOCGNAME`, `EVIOCGID`), its
/// properties (`EVIOCGPROP`), the event codes it can send (`EVIOCGBIT`), its absolute axes
/// (`EVIOCGABS`) and its `uniq`/`phys` strings (`EVIOCGUNIQ`, `EVIOCGPHYS`); or the header of an
/// evemu recording.
public struct EvdevDeviceDescription: Hashable, Sendable {
  /// The device's name, such as `Sony Interactive Entertainment DualSense Wireless Controller
  /// Motion Sensors`.
  public var name: String
  /// The bus type (`BUS_USB` 0x03, `BUS_BLUETOOTH` 0x05, ... in `linux/input.h`).
  public var bus: UInt16
  /// The USB/Bluetooth vendor id.
  public var vendor: UInt16
  /// The product id.
  public var product: UInt16
  /// The version number the driver reports.
  public var version: UInt16
  /// The `INPUT_PROP_*` bits set, as bit numbers (6 is `INPUT_PROP_ACCELEROMETER`).
  public var properties: Set<Int>
  /// The absolute axes by `ABS_*` code.
  public var absoluteAxes: [UInt16: EvdevAbsInfo]
  /// The codes the device can send, by type.
  public var eventCodes: [EvdevEventType: Set<UInt16>]
  /// The device's unique id (often the pad's MAC address), when it has one; the motion node and
  /// its gamepad node share it.
  public var uniq: String?
  /// The device's physical path (such as `usb-0000:00:14.0-1/input3`), when known.
  public var phys: String?

  /// Creates a description.
  ///
  /// - Parameters:
  ///   - name: The device's name.
  ///   - bus: The bus type.
  ///   - vendor: The vendor id.
  ///   - product: The product id.
  ///   - version: The version number.
  ///   - properties: `INPUT_PROP_*` bit numbers.
  ///   - absoluteAxes: Axis descriptions by `ABS_*` code.
  ///   - eventCodes: Supported codes by type.
  ///   - uniq: The unique id, or `nil`.
  ///   - phys: The physical path, or `nil`.
  public init(
    name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
    properties: Set<Int> = [], absoluteAxes: [UInt16: EvdevAbsInfo] = [:],
    eventCodes: [EvdevEventType: Set<UInt16>] = [:], uniq: String? = nil, phys: String? = nil
  ) {
    self.name = name
    self.bus = bus
    self.vendor = vendor
    self.product = product
    self.version = version
    self.properties = properties
    self.absoluteAxes = absoluteAxes
    self.eventCodes = eventCodes
    self.uniq = uniq
    self.phys = phys
  }

  /// Whether the node is a motion sensor: it has `INPUT_PROP_ACCELEROMETER` (bit 6).
  public var isMotionSensor: Bool { properties.contains(EvdevCode.propertyAccelerometer) }

  /// Whether the node can send `MSC_TIMESTAMP`.
  public var hasTimestamp: Bool {
    eventCodes[.miscellaneous]?.contains(EvdevCode.mscTimestamp) ?? false
  }
}
