import SwellEvdev

/// One input event node (`/dev/input/eventN`) as its sysfs folder describes it: a
/// motion-sensor node, or the gamepad node it belongs to.
///
/// Everything here comes from sysfs (`drivers/input/input.c` exports `name`, `phys`, `uniq`,
/// `properties`, `id/{bustype,vendor,product,version}` and `capabilities/*` under the input
/// device, which is the event node's `device` link). The axis ranges and resolutions are not in
/// sysfs; they come from the node itself (`EVIOCGABS`, see the internal `EvdevDeviceIO`).
public struct EvdevNode: Hashable, Sendable {
  /// The node's name, e.g. `event5`.
  public var id: String
  /// The character device, e.g. `/dev/input/event5`.
  public var devicePath: String
  /// The sysfs folder, e.g. `/sys/class/input/event5`.
  public var sysfsPath: String
  /// The device name (`device/name`), e.g. `Sony Interactive Entertainment DualSense Wireless
  /// Controller Motion Sensors`.
  public var name: String
  /// The unique id (`device/uniq`): for the pad drivers the controller's Bluetooth or serial
  /// address; `nil` when the file is empty or missing.
  public var uniq: String?
  /// The physical path (`device/phys`), e.g. `usb-0000:00:14.0-2/input3`; `nil` when empty.
  public var phys: String?
  /// `device/id/bustype` (`BUS_USB` 0x03, `BUS_BLUETOOTH` 0x05, `linux/input.h`).
  public var bus: UInt16
  /// `device/id/vendor`, e.g. 0x054c for Sony.
  public var vendor: UInt16
  /// `device/id/product`, e.g. 0x0ce6 for the DualSense.
  public var product: UInt16
  /// `device/id/version`.
  public var version: UInt16
  /// The input properties set (`device/properties`), e.g. `INPUT_PROP_ACCELEROMETER` (6).
  public var properties: Set<Int>
  /// The event types the node sends (`device/capabilities/ev`), e.g. `EV_ABS` (3).
  public var eventTypes: Set<UInt16>
  /// The absolute axes (`device/capabilities/abs`), e.g. `ABS_X` (0) ... `ABS_RZ` (5).
  public var absoluteCodes: Set<UInt16>
  /// The miscellaneous codes (`device/capabilities/msc`), e.g. `MSC_TIMESTAMP` (5).
  public var miscellaneousCodes: Set<UInt16>
  /// The key and button codes (`device/capabilities/key`), e.g. `BTN_SOUTH` (0x130).
  public var keyCodes: Set<UInt16>
  /// For a motion node: the gamepad node of the same controller, when one was found.
  public var pad: EvdevPadNode?

  /// Creates a node description.
  ///
  /// - Parameters:
  ///   - id: `eventN`.
  ///   - devicePath: The character device.
  ///   - sysfsPath: The sysfs folder.
  ///   - name: The device name.
  public init(id: String, devicePath: String, sysfsPath: String, name: String) {
    self.id = id
    self.devicePath = devicePath
    self.sysfsPath = sysfsPath
    self.name = name
    bus = 0
    vendor = 0
    product = 0
    version = 0
    properties = []
    eventTypes = []
    absoluteCodes = []
    miscellaneousCodes = []
    keyCodes = []
  }

  /// True when the node has `INPUT_PROP_ACCELEROMETER` (6, `linux/input-event-codes.h`): the
  /// drivers put a pad's accelerometer and gyroscope on such a separate node.
  public var isMotionSensor: Bool { properties.contains(EvdevCode.propertyAccelerometer) }

  /// True when the node sends `MSC_TIMESTAMP` (the sensor's own µs clock).
  public var hasTimestamp: Bool {
    eventTypes.contains(EvdevEventType.miscellaneous.rawValue)
      && miscellaneousCodes.contains(EvdevCode.mscTimestamp)
  }

  /// N of `eventN` (for ordering nodes numerically), or `Int.max` for other names.
  public var number: Int { Int(id.dropFirst("event".count)) ?? Int.max }

  /// A stable id of the controller, for saving its calibration: `evdev:` and the unique id when
  /// the driver publishes one, else `evdev:` and the name and physical path.
  public var identity: String {
    if let uniq { return "evdev:" + uniq }
    return "evdev:" + name + (phys.map { "@" + $0 } ?? "")
  }

  /// The description the decoder needs: this node's identity and capabilities with the axis
  /// information read from the node.
  ///
  /// - Parameter absoluteAxes: `EVIOCGABS` for each absolute axis.
  /// - Returns: The description.
  public func description(absoluteAxes: [UInt16: EvdevAbsInfo]) -> EvdevDeviceDescription {
    var codes: [EvdevEventType: Set<UInt16>] = [:]
    for t in eventTypes { codes[EvdevEventType(rawValue: t)] = [] }
    if !absoluteCodes.isEmpty { codes[.absolute] = absoluteCodes }
    if !miscellaneousCodes.isEmpty { codes[.miscellaneous] = miscellaneousCodes }
    if !keyCodes.isEmpty { codes[.key] = keyCodes }
    return EvdevDeviceDescription(
      name: name, bus: bus, vendor: vendor, product: product, version: version,
      properties: properties, absoluteAxes: absoluteAxes, eventCodes: codes, uniq: uniq,
      phys: phys)
  }
}

/// The gamepad node paired with a motion node: the buttons and sticks of the same controller.
public struct EvdevPadNode: Hashable, Sendable {
  /// The node's name, e.g. `event4`.
  public var id: String
  /// Its device name, e.g. `Sony Interactive Entertainment DualSense Wireless Controller`.
  public var name: String
}

/// Input bitmaps as the kernel prints them in sysfs.
///
/// `input_print_bitmap` (`drivers/input/input.c`) prints a bitmap as the hexadecimal value of
/// each `unsigned long` word (`%lx`, no padding), most significant word first, separated by
/// single spaces, with leading zero words left out and `0` for an empty bitmap. Each word holds
/// `BITS_PER_LONG` bits; for a 32-bit process on a 64-bit kernel the compat path prints 32-bit
/// words, so the word size is always the reading process's `long` (`Int.bitWidth`).
public enum EvdevBitmap {
  /// The most words accepted (`KEY_MAX` 0x2ff needs 12 of 64 bits).
  static let maximumWords = 64

  /// Parses a bitmap.
  ///
  /// - Parameter text: The file's content, e.g. `40` or `10000 0 0`.
  /// - Returns: The numbers of the bits that are set, or `nil` when the text is not a bitmap.
  public static func parse(_ text: String) -> Set<Int>? {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
    guard !words.isEmpty, words.count <= maximumWords else { return nil }
    let width = Int.bitWidth
    var bits = Set<Int>()
    for (i, word) in words.reversed().enumerated() {
      guard word.count <= width / 4, let value = UInt(word, radix: 16) else { return nil }
      for bit in 0..<width where value & (1 << UInt(bit)) != 0 { bits.insert(i * width + bit) }
    }
    return bits
  }
}
