import Glibc
import SwellEvdev
import SwellMotion

/// Finds the motion-sensor nodes of game controllers and handhelds under a sysfs root.
///
/// The kernel drivers (hid-playstation, hid-sony, hid-nintendo, hid-steam) register a pad's
/// accelerometer and gyroscope as a separate input device with `INPUT_PROP_ACCELEROMETER` set,
/// next to the gamepad device of buttons and sticks. Discovery lists every `eventN` under the
/// root whose `device/properties` has that bit, reads its identity and capabilities, and pairs
/// it with its gamepad node: the non-motion node with the same `uniq` (the drivers copy the
/// controller's address into both), else with the same `phys` up to its last `/input` (the USB
/// or Bluetooth path of the one HID device).
///
/// The roots are configurable (`/sys/class/input` and `/dev/input` by default) so tests point
/// them at a fake tree in a temporary folder.
public struct EvdevDiscovery: Sendable {
  /// The default sysfs root of input nodes.
  public static let defaultSysfsRoot = "/sys/class/input"
  /// The default folder of the `eventN` character devices.
  public static let defaultDevRoot = "/dev/input"

  /// The folder of the `eventN` sysfs entries.
  public var sysfsRoot: String
  /// The folder of the `eventN` character devices.
  public var devRoot: String
  let system: SystemCalls

  /// Creates a discovery over two roots.
  ///
  /// - Parameters:
  ///   - sysfsRoot: The folder of the `eventN` sysfs entries.
  ///   - devRoot: The folder of the `eventN` character devices.
  public init(
    sysfsRoot: String = EvdevDiscovery.defaultSysfsRoot,
    devRoot: String = EvdevDiscovery.defaultDevRoot
  ) {
    self.init(sysfsRoot: sysfsRoot, devRoot: devRoot, system: .live)
  }

  init(sysfsRoot: String, devRoot: String, system: SystemCalls) {
    self.sysfsRoot = sysfsRoot
    self.devRoot = devRoot
    self.system = system
  }

  /// Every motion-sensor node, numerically ordered (`event2` before `event10`), each paired
  /// with its gamepad node when there is one.
  ///
  /// - Returns: The motion nodes (empty when there are none).
  /// - Throws: ``EvdevError`` when the root cannot be listed or an attribute is malformed.
  public func motionNodes() throws(EvdevError) -> [EvdevNode] {
    let nodes = try allNodes()
    let pads = nodes.filter { !$0.isMotionSensor }
    return nodes.filter(\.isMotionSensor).map { motion in
      var m = motion
      m.pad = EvdevDiscovery.pad(of: motion, among: pads).map {
        EvdevPadNode(id: $0.id, name: $0.name)
      }
      return m
    }
  }

  /// Every `eventN` node under the root, numerically ordered.
  ///
  /// - Returns: The nodes.
  /// - Throws: ``EvdevError`` when the root cannot be listed or an attribute is malformed.
  public func allNodes() throws(EvdevError) -> [EvdevNode] {
    let (entries, err) = system.listDirectory(sysfsRoot)
    guard let entries else {
      throw EvdevError.system("cannot list", path: sysfsRoot, code: err)
    }
    var nodes: [EvdevNode] = []
    for entry in entries where entry.hasPrefix("event") && Int(entry.dropFirst(5)) != nil {
      // A node that vanishes while it is read is simply not there.
      do throws(EvdevError) {
        if let node = try node(entry) { nodes.append(node) }
      } catch {
        if error.isDeviceGone { continue }
        throw error
      }
    }
    return nodes.sorted { $0.number < $1.number }
  }

  /// Reads one node.
  ///
  /// - Parameter id: `eventN`.
  /// - Returns: The node, or `nil` when it has no `device/name` (it is not there).
  /// - Throws: ``EvdevError`` for a malformed or unreadable attribute.
  func node(_ id: String) throws(EvdevError) -> EvdevNode? {
    let folder = sysfsRoot + "/" + id
    let device = folder + "/device"
    guard let name = try read(device + "/name") else { return nil }
    var node = EvdevNode(
      id: id, devicePath: devRoot + "/" + id, sysfsPath: folder,
      name: UntrustedText.clipped(name, limit: 256))
    node.uniq = try read(device + "/uniq").flatMap { $0.isEmpty ? nil : $0 }
    node.phys = try read(device + "/phys").flatMap { $0.isEmpty ? nil : $0 }
    node.bus = try hexWord(device + "/id/bustype")
    node.vendor = try hexWord(device + "/id/vendor")
    node.product = try hexWord(device + "/id/product")
    node.version = try hexWord(device + "/id/version")
    node.properties = try bitmap(device + "/properties")
    node.eventTypes = Set(try bitmap(device + "/capabilities/ev").map { UInt16($0) })
    node.absoluteCodes = Set(try bitmap(device + "/capabilities/abs").map { UInt16($0) })
    node.miscellaneousCodes = Set(try bitmap(device + "/capabilities/msc").map { UInt16($0) })
    node.keyCodes = Set(try bitmap(device + "/capabilities/key").map { UInt16($0) })
    return node
  }

  /// The gamepad node of a motion node: same `uniq`, else the same `phys` before its last
  /// `/input`.
  static func pad(of motion: EvdevNode, among pads: [EvdevNode]) -> EvdevNode? {
    if let uniq = motion.uniq, let pad = pads.first(where: { $0.uniq == uniq }) { return pad }
    guard let stem = motion.phys.flatMap(physicalStem) else { return nil }
    return pads.first { $0.phys.flatMap(physicalStem) == stem }
  }

  /// `usb-0000:00:14.0-2/input3` → `usb-0000:00:14.0-2`: the path of the HID device without
  /// the interface (hid-core names each input `<phys>/input<N>`); `nil` for an empty one.
  static func physicalStem(_ phys: String) -> String? {
    guard !phys.isEmpty else { return nil }
    var last: String.Index?
    var rest = phys[...]
    while let r = rest.firstRange(of: "/input") {
      last = r.lowerBound
      rest = rest[r.upperBound...]
    }
    return String(phys[..<(last ?? phys.endIndex)])
  }

  /// Picks the node a selector names.
  ///
  /// - Parameters:
  ///   - nodes: The motion nodes (``motionNodes()``).
  ///   - selector: `nil` for the first; `eventN` or a path ending in `/eventN`; else a
  ///     case-insensitive part of the motion node's or its pad's name.
  /// - Returns: The node.
  /// - Throws: ``EvdevError`` listing the nodes found when none matches.
  public func select(from nodes: [EvdevNode], matching selector: String?) throws(EvdevError)
    -> EvdevNode
  {
    guard let selector else {
      guard let first = nodes.first else {
        throw EvdevError(
          "no game-controller motion sensors under \(sysfsRoot) (no input node has "
            + "INPUT_PROP_ACCELEROMETER; is the pad connected and its driver loaded?)",
          path: sysfsRoot, code: ENODEV)
      }
      return first
    }
    let last = selector.split(separator: "/").last.map(String.init) ?? selector
    if last.hasPrefix("event"), Int(last.dropFirst(5)) != nil {
      if let node = nodes.first(where: { $0.id == last }) { return node }
    } else {
      let wanted = selector.lowercased()
      if let node = nodes.first(where: {
        $0.name.lowercased().contains(wanted)
          || ($0.pad?.name.lowercased().contains(wanted) ?? false)
      }) {
        return node
      }
    }
    let list = nodes.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")
    throw EvdevError(
      "no motion sensor '\(UntrustedText.clipped(selector))' under \(sysfsRoot); found: "
        + (list.isEmpty ? "none" : list), path: sysfsRoot, code: ENODEV)
  }

  // MARK: Attributes

  /// Reads a sysfs attribute: its text without surrounding white space, or `nil` when the file
  /// does not exist.
  func read(_ path: String) throws(EvdevError) -> String? {
    // Opened without blocking and checked: a FIFO in place of an attribute would block.
    let (fd, err) = system.open(path, O_RDONLY | O_NONBLOCK)
    if fd < 0 {
      if err == ENOENT { return nil }
      throw EvdevError.system("cannot open", path: path, code: err)
    }
    defer { system.close(fd) }
    guard system.isRegularFile(fd) else {
      throw EvdevError("\(path): not a regular file (a sysfs attribute is one)", path: path)
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 65_536 {
      let (n, rerr) = chunk.withUnsafeMutableBytes { system.read(fd, $0) }
      if n < 0 { throw EvdevError.system("cannot read", path: path, code: rerr) }
      if n == 0 { break }
      bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
  }

  /// A bitmap attribute (empty when the file is missing).
  private func bitmap(_ path: String) throws(EvdevError) -> Set<Int> {
    guard let text = try read(path) else { return [] }
    guard let bits = EvdevBitmap.parse(text) else {
      throw EvdevError(
        "\(path): '\(UntrustedText.clipped(text))' is not an input bitmap (hexadecimal words "
          + "separated by spaces)", path: path)
    }
    return bits
  }

  /// An `id/*` attribute: four hexadecimal digits (`%04x`, `drivers/input/input.c`
  /// `INPUT_DEV_ID_ATTR`); 0 when the file is missing.
  private func hexWord(_ path: String) throws(EvdevError) -> UInt16 {
    guard let text = try read(path) else { return 0 }
    guard let value = UInt16(text, radix: 16) else {
      throw EvdevError(
        "\(path): '\(UntrustedText.clipped(text))' is not a 16-bit hexadecimal number",
        path: path)
    }
    return value
  }
}
