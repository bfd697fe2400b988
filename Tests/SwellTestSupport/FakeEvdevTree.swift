import Foundation
import Glibc

/// One absolute axis of a fake input device: `struct input_absinfo` as the driver sets it with
/// `input_set_abs_params` and `input_abs_set_res`.
public struct FakeEvdevAxis: Sendable, Hashable {
  /// The `ABS_*` code (`ABS_X` 0 ... `ABS_RZ` 5).
  public var code: UInt16
  /// The current value (`EVIOCGABS`'s `value`).
  public var value: Int32
  /// The minimum.
  public var minimum: Int32
  /// The maximum.
  public var maximum: Int32
  /// The fuzz.
  public var fuzz: Int32
  /// The flat.
  public var flat: Int32
  /// Units per g (`ABS_X/Y/Z`) or per °/s (`ABS_RX/RY/RZ`), `linux/input.h`.
  public var resolution: Int32

  /// Creates an axis.
  ///
  /// - Parameters:
  ///   - code: The code.
  ///   - range: The maximum; the minimum is its negation.
  ///   - fuzz: The fuzz.
  ///   - resolution: The resolution.
  ///   - value: The current value.
  public init(_ code: UInt16, range: Int32, fuzz: Int32, resolution: Int32, value: Int32 = 0) {
    self.code = code
    self.value = value
    minimum = -range
    maximum = range
    self.fuzz = fuzz
    flat = 0
    self.resolution = resolution
  }
}

/// A fake input device as its sysfs folder and `EVIOCGABS` describe it.
public struct FakeEvdevDevice: Sendable, Hashable {
  /// `device/name`.
  public var name: String
  /// `device/id/bustype` (`BUS_USB` 3, `BUS_BLUETOOTH` 5).
  public var bus: UInt16
  /// `device/id/vendor`.
  public var vendor: UInt16
  /// `device/id/product`.
  public var product: UInt16
  /// `device/id/version`.
  public var version: UInt16
  /// `device/uniq` (empty for none).
  public var uniq: String
  /// `device/phys` (empty for none).
  public var phys: String
  /// The property bits (`INPUT_PROP_ACCELEROMETER` is 6).
  public var properties: [Int]
  /// The event types (`EV_SYN` 0, `EV_KEY` 1, `EV_ABS` 3, `EV_MSC` 4, `EV_FF` 0x15).
  public var eventTypes: [Int]
  /// The key codes.
  public var keys: [Int]
  /// The miscellaneous codes (`MSC_TIMESTAMP` 5).
  public var miscellaneous: [Int]
  /// The absolute axes.
  public var axes: [FakeEvdevAxis]

  /// The motion node of a pad: properties `INPUT_PROP_ACCELEROMETER`, events `EV_SYN`,
  /// `EV_ABS` and `EV_MSC` with `MSC_TIMESTAMP` (when `timestamp`), axes `ABS_X`...`ABS_RZ`.
  static func motion(
    _ name: String, bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16,
    uniq: String, phys: String, accel: (range: Int32, fuzz: Int32, resolution: Int32),
    gyro: (range: Int32, fuzz: Int32, resolution: Int32)?, timestamp: Bool = true
  ) -> FakeEvdevDevice {
    var axes: [FakeEvdevAxis] = []
    for code in UInt16(0)...2 {
      axes.append(
        FakeEvdevAxis(code, range: accel.range, fuzz: accel.fuzz, resolution: accel.resolution))
    }
    if let gyro {
      for code in UInt16(3)...5 {
        axes.append(
          FakeEvdevAxis(code, range: gyro.range, fuzz: gyro.fuzz, resolution: gyro.resolution))
      }
    }
    return FakeEvdevDevice(
      name: name, bus: bus, vendor: vendor, product: product, version: version, uniq: uniq,
      phys: phys, properties: [6], eventTypes: timestamp ? [0, 3, 4] : [0, 3], keys: [],
      miscellaneous: timestamp ? [5] : [], axes: axes)
  }

  /// The gamepad node beside a motion node: buttons (`BTN_SOUTH` 0x130 ... `BTN_THUMBR`
  /// 0x13e), sticks and triggers (`ABS_X`...`ABS_RZ`, `ABS_HAT0X/Y`), no properties.
  public func gamepad(_ name: String) -> FakeEvdevDevice {
    var axes = (UInt16(0)...5).map { FakeEvdevAxis($0, range: 255, fuzz: 0, resolution: 0) }
    axes += [FakeEvdevAxis(0x10, range: 1, fuzz: 0, resolution: 0)]
    axes += [FakeEvdevAxis(0x11, range: 1, fuzz: 0, resolution: 0)]
    return FakeEvdevDevice(
      name: name, bus: bus, vendor: vendor, product: product, version: version, uniq: uniq,
      phys: phys.replacingOccurrences(of: "/input3", with: "/input0"), properties: [],
      eventTypes: [0, 1, 3, 0x15],
      keys: [
        0x130, 0x131, 0x133, 0x134, 0x136, 0x137, 0x13a, 0x13b,
        0x13c, 0x13d, 0x13e,
      ],
      miscellaneous: [], axes: axes)
  }

  /// The DualSense's motion node (`hid-playstation`): `DS_ACC_RES_PER_G` 8192 over
  /// ±`DS_ACC_RANGE` (4 g), `DS_GYRO_RES_PER_DEG_S` 1024 over ±`DS_GYRO_RANGE` (2048 °/s),
  /// fuzz 16 (`ps_sensors_create`); name = the HID name + " Motion Sensors"; Sony 054c:0ce6.
  public static let dualSense = motion(
    "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors", bus: 3,
    vendor: 0x054c, product: 0x0ce6, version: 0x8111, uniq: "a0:ab:51:5e:c0:01",
    phys: "usb-0000:00:14.0-2/input3", accel: (32768, 16, 8192), gyro: (2_097_152, 16, 1024))

  /// The DualShock 4 v2's motion node (`hid-playstation` since 6.2, `hid-sony` before):
  /// `DS4_ACC_RES_PER_G` 8192, `DS4_GYRO_RES_PER_DEG_S` 1024, the DualSense's ranges; over
  /// Bluetooth, Sony 054c:09cc.
  public static let dualShock4 = motion(
    "Sony Interactive Entertainment Wireless Controller Motion Sensors", bus: 5,
    vendor: 0x054c, product: 0x09cc, version: 0x8100, uniq: "1c:a0:b8:4d:22:02",
    phys: "a4:c3:f0:11:22:33", accel: (32768, 16, 8192), gyro: (2_097_152, 16, 1024))

  /// The DualShock 3's motion node (`hid-sony`, `sony_register_sensors`): the accelerometer
  /// alone, `SIXAXIS_ACC_RES_PER_G` 113 over −512...511 (here ±512), fuzz 4, no
  /// `MSC_TIMESTAMP`; the HID name + " Motion Sensors"; Sony 054c:0268 on USB.
  public static let dualShock3 = motion(
    "Sony PLAYSTATION(R)3 Controller Motion Sensors", bus: 3, vendor: 0x054c, product: 0x0268,
    version: 0x8111, uniq: "00:1b:fb:63:c5:10", phys: "usb-0000:00:14.0-1/input0",
    accel: (512, 4, 113), gyro: nil, timestamp: false)

  /// The Switch Pro Controller's IMU (`hid-nintendo`): `JC_IMU_ACCEL_RES_PER_G` 4096 over
  /// ±`JC_IMU_MAX_ACCEL_MAG` 32767, `JC_IMU_GYRO_RES_PER_DPS` 14247 over ±`JC_IMU_MAX_GYRO_MAG`
  /// 32767000, fuzz 10; name "%s (IMU)"; Nintendo 057e:2009.
  public static let switchPro = nintendo("Nintendo Switch Pro Controller (IMU)", product: 0x2009)
  /// A left Joy-Con's IMU (`hid-nintendo`, 057e:2006).
  public static let joyConLeft = nintendo("Nintendo Switch Left Joy-Con (IMU)", product: 0x2006)
  /// A right Joy-Con's IMU (`hid-nintendo`, 057e:2007).
  public static let joyConRight = nintendo("Nintendo Switch Right Joy-Con (IMU)", product: 0x2007)

  private static func nintendo(_ name: String, product: UInt16) -> FakeEvdevDevice {
    motion(
      name, bus: 5, vendor: 0x057e, product: product, version: 0x8001,
      uniq: String(format: "98:b6:e9:%02x:%02x:03", product >> 8, product & 0xff), phys: "",
      accel: (32767, 10, 4096), gyro: (32_767_000, 10, 14247))
  }

  /// The Steam Deck's motion node (`hid-steam`, "Steam Deck Motion Sensors"):
  /// `STEAM_DECK_ACCEL_RES_PER_G` 16384 over ±`STEAM_DECK_ACCEL_RANGE` 32768 (fuzz 32),
  /// `STEAM_DECK_GYRO_RES_PER_DPS` 16 over ±`STEAM_DECK_GYRO_RANGE` 32768 (fuzz 1); Valve
  /// 28de:1205 on USB.
  public static let steamDeck = motion(
    "Steam Deck Motion Sensors", bus: 3, vendor: 0x28de, product: 0x1205, version: 0x0110,
    uniq: "FVAA23400123", phys: "usb-0000:04:00.3-3/input2", accel: (32768, 32, 16384),
    gyro: (32768, 1, 16))

  /// The name of the gamepad node each driver registers beside its motion node.
  public var padName: String {
    if name.hasSuffix(" Motion Sensors") { return String(name.dropLast(" Motion Sensors".count)) }
    if name.hasSuffix(" (IMU)") { return String(name.dropLast(" (IMU)".count)) }
    return name + " Pad"
  }

  /// The device's description as `evemu-describe` prints it (`# EVEMU 1.3`, then `N:`, `I:`,
  /// `P:`, `B:` and `A:` lines, bitmasks as bytes in hex, eight a line), written from the
  /// evemu file format independently of Swell's writer.
  public var evemuDescription: String {
    var s = "# EVEMU 1.3\nN: \(name)\n"
    s += String(format: "I: %04x %04x %04x %04x\n", bus, vendor, product, version)
    func mask(_ bits: [Int], bytes: Int) -> [String] {
      var b = [UInt8](repeating: 0, count: bytes)
      for bit in bits { b[bit / 8] |= 1 << UInt8(bit % 8) }
      return stride(from: 0, to: bytes, by: 8).map { i in
        b[i..<min(i + 8, bytes)].map { String(format: "%02x", $0) }.joined(separator: " ")
      }
    }
    for line in mask(properties, bytes: 8) { s += "P: \(line)\n" }
    for line in mask(eventTypes, bytes: 8) { s += "B: 00 \(line)\n" }
    if eventTypes.contains(3) {
      for line in mask(axes.map { Int($0.code) }, bytes: 8) { s += "B: 03 \(line)\n" }
    }
    if eventTypes.contains(4) {
      for line in mask(miscellaneous, bytes: 8) { s += "B: 04 \(line)\n" }
    }
    for a in axes {
      s += String(format: "A: %02x", a.code)
      s += " \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
    }
    return s
  }
}

/// A fake `/sys/class/input` tree and `/dev/input` folder in a temporary directory.
///
/// Each node is laid out as the input core exports it (`drivers/input/input.c`): an
/// `inputM` folder with `name`, `phys`, `uniq`, `properties`, `id/{bustype,vendor,product,
/// version}` (`%04x`) and `capabilities/{ev,key,abs,msc}` (bitmaps as `input_print_bitmap`
/// prints them), and an `eventN` folder whose `device` link points at it; a FIFO stands in for
/// `/dev/input/eventN`. It knows nothing of Swell's evdev code. The folder is removed when the
/// tree is released.
public final class FakeEvdevTree {
  /// The temporary folder.
  public let root: String
  /// The fake sysfs root (the `eventN` entries).
  public var sysfs: String { root + "/sys/class/input" }
  /// The fake device folder.
  public var dev: String { root + "/dev/input" }
  /// The devices added, by node number.
  public private(set) var devices: [Int: FakeEvdevDevice] = [:]

  /// Creates an empty tree in a fresh temporary folder.
  ///
  /// - Throws: A file-system error.
  public init() throws {
    var template = Array((NSTemporaryDirectory() + "/swell-evdev-XXXXXX").utf8CString)
    guard let p = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    root = String(cString: p)
    try FileManager.default.createDirectory(atPath: sysfs, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: dev, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  /// Adds a node: its `inputM` folder (M = `number` + 100), its `eventN` folder and the FIFO.
  ///
  /// - Parameters:
  ///   - number: N of `eventN`.
  ///   - device: The device.
  ///   - fifo: Whether to create the FIFO in the device folder.
  /// - Throws: A file-system error.
  public func add(_ number: Int, _ device: FakeEvdevDevice, fifo: Bool = true) throws {
    let input = sysfs + "/input\(number + 100)"
    let files: [String: String] = [
      "name": device.name, "phys": device.phys, "uniq": device.uniq,
      "properties": FakeEvdevTree.bitmap(device.properties),
      "id/bustype": String(format: "%04x", device.bus),
      "id/vendor": String(format: "%04x", device.vendor),
      "id/product": String(format: "%04x", device.product),
      "id/version": String(format: "%04x", device.version),
      "capabilities/ev": FakeEvdevTree.bitmap(device.eventTypes),
      "capabilities/key": FakeEvdevTree.bitmap(device.keys),
      "capabilities/abs": FakeEvdevTree.bitmap(device.axes.map { Int($0.code) }),
      "capabilities/msc": FakeEvdevTree.bitmap(device.miscellaneous),
    ]
    for (file, text) in files { try write(input + "/" + file, text) }
    let event = sysfs + "/event\(number)"
    try FileManager.default.createDirectory(atPath: event, withIntermediateDirectories: true)
    try write(event + "/dev", "13:\(64 + number)")
    try FileManager.default.createSymbolicLink(
      atPath: event + "/device", withDestinationPath: "../input\(number + 100)")
    if fifo {
      // Mode 0660 as udev creates input nodes (root:input), whatever the umask.
      guard mkfifo(dev + "/event\(number)", 0o660) == 0, chmod(dev + "/event\(number)", 0o660) == 0
      else { throw POSIXError(.EIO) }
    }
    devices[number] = device
  }

  /// Adds a pad's motion node as `eventN` and its gamepad node as `event(N-1)`.
  ///
  /// - Parameters:
  ///   - number: N of the motion node's `eventN` (at least 1).
  ///   - device: The motion device.
  /// - Throws: A file-system error.
  public func addPad(_ number: Int, _ device: FakeEvdevDevice) throws {
    try add(number - 1, device.gamepad(device.padName), fifo: false)
    try add(number, device)
  }

  /// Removes a node's folders and FIFO, as an unplug does.
  ///
  /// - Parameter number: N of `eventN`.
  /// - Throws: A file-system error.
  public func remove(_ number: Int) throws {
    try FileManager.default.removeItem(atPath: sysfs + "/event\(number)")
    try FileManager.default.removeItem(atPath: sysfs + "/input\(number + 100)")
    try? FileManager.default.removeItem(atPath: dev + "/event\(number)")
    devices[number] = nil
  }

  /// The path of a node's FIFO.
  ///
  /// - Parameter number: N of `eventN`.
  /// - Returns: The path.
  public func node(_ number: Int) -> String { dev + "/event\(number)" }

  /// Writes a file with a trailing newline (as sysfs attributes end), creating its folders.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - contents: The text.
  /// - Throws: A file-system error.
  public func write(_ path: String, _ contents: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try (contents + "\n").write(toFile: path, atomically: false, encoding: .utf8)
  }

  /// A bitmap as `input_print_bitmap` (`drivers/input/input.c`) prints it: each 64-bit word in
  /// hex without padding, most significant first, separated by spaces, leading zero words left
  /// out, `0` when empty.
  ///
  /// - Parameter bits: The bits set.
  /// - Returns: The text.
  public static func bitmap(_ bits: [Int]) -> String {
    guard let top = bits.max() else { return "0" }
    var words = [UInt64](repeating: 0, count: top / 64 + 1)
    for b in bits { words[b / 64] |= 1 << UInt64(b % 64) }
    return words.reversed().map { String($0, radix: 16) }.joined(separator: " ")
  }
}

/// The bytes of `struct input_event` records (`include/uapi/linux/input.h`, 64-bit layout,
/// little-endian): `tv_sec` and `tv_usec` as Int64, `type` and `code` as UInt16, `value` as
/// Int32; 24 bytes each.
///
/// - Parameter events: Each event's seconds, microseconds, type, code and value.
/// - Returns: The bytes.
public func inputEventBytes(
  _ events: [(seconds: Int64, microseconds: Int64, type: UInt16, code: UInt16, value: Int32)]
) -> [UInt8] {
  var out: [UInt8] = []
  for e in events {
    withUnsafeBytes(of: e.seconds.littleEndian) { out += $0 }
    withUnsafeBytes(of: e.microseconds.littleEndian) { out += $0 }
    withUnsafeBytes(of: e.type.littleEndian) { out += $0 }
    withUnsafeBytes(of: e.code.littleEndian) { out += $0 }
    withUnsafeBytes(of: e.value.littleEndian) { out += $0 }
  }
  return out
}

/// One motion frame as a driver sends it: the changed axes (`EV_ABS`), `MSC_TIMESTAMP` when
/// given (before the axes, or after them as hid-playstation does), then `SYN_REPORT`, all at one
/// event time.
///
/// - Parameters:
///   - time: The event time, microseconds.
///   - axes: The changed axes, `ABS_*` code and value.
///   - deviceMicroseconds: The `MSC_TIMESTAMP` value, or `nil`.
///   - timestampFirst: Put `MSC_TIMESTAMP` before the axes.
/// - Returns: The events.
public func motionFrame(
  time: Int64, axes: [(code: UInt16, value: Int32)], deviceMicroseconds: UInt32? = nil,
  timestampFirst: Bool = false
) -> [(seconds: Int64, microseconds: Int64, type: UInt16, code: UInt16, value: Int32)] {
  let (s, u) = (time / 1_000_000, time % 1_000_000)
  var out = axes.map { (s, u, UInt16(3), $0.code, $0.value) }
  if let d = deviceMicroseconds {
    let msc = (s, u, UInt16(4), UInt16(5), Int32(bitPattern: d))
    if timestampFirst { out.insert(msc, at: 0) } else { out.append(msc) }
  }
  out.append((s, u, 0, 0, 0))
  return out
}
