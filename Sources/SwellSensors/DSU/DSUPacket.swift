import SwellMotion

/// The DSU ("DualShock UDP", cemuhook) motion protocol, version 1001: the byte layout of its
/// datagrams as pure values.
///
/// Sources (see `docs/sensors.md`, "DSU (cemuhook) streams"): the protocol description
/// v1993/cemuhook-protocol `README.md` (commit 82bf8a8), and the reference server DS4Windows
/// `DS4Control/UdpServer.cs` (rajkosto's, which wrote cemuhook). Every number is little endian.
///
/// The header is 16 bytes, then the message type (u32):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic: `DSUC` from a client, `DSUS` from a server |
/// | 4 | 2 | protocol version, 1001 |
/// | 6 | 2 | length: the datagram's bytes after offset 16, so it **counts the message type** (DS4Windows `BeginPacket`: `packetBuf.Length - 16`) |
/// | 8 | 4 | CRC-32 (zlib's) of the whole datagram with these 4 bytes zeroed |
/// | 12 | 4 | sender id, random per run |
/// | 16 | 4 | message type: 0x100000 version, 0x100001 port info, 0x100002 pad data |
///
/// A datagram longer than its length field is cut to it (the CRC covers the cut datagram, as
/// DS4Windows computes it); a shorter one is refused ("drop packet if it's too short, truncate
/// if it's too long", cemuhook-protocol).
public enum DSUProtocol {
  /// The protocol version every known implementation speaks (cemuhook-protocol: "only one
  /// known and existing version").
  public static let version: UInt16 = 1001
  /// The port cemuhook looks for a server on (cemuhook-protocol, "Common information").
  public static let defaultPort: UInt16 = 26760
  /// The bytes before the message type.
  public static let headerSize = 16
  /// The number of controller slots a server reports (cemuhook-protocol: "up to four").
  public static let slotCount = 4
  /// The largest datagram Swell reads, bytes (a pad-data datagram, the largest message, is 100).
  public static let maximumDatagramSize = 2048
  /// The slot state of a connected controller (cemuhook-protocol, shared response: 2).
  public static let stateConnected: UInt8 = 2
  /// The device model of a controller with a full gyroscope (cemuhook-protocol: 2).
  public static let modelFullGyro: UInt8 = 2
}

/// What a DSU datagram carries.
public enum DSUMessageType: UInt32, Hashable, Sendable, CaseIterable {
  /// Protocol version information (`0x100000`).
  case version = 0x10_0000
  /// Information about connected controllers (`0x100001`).
  case portInfo = 0x10_0001
  /// Controller data, and the subscription to it (`0x100002`).
  case padData = 0x10_0002
}

/// The 11 bytes that begin both a port-info and a pad-data response (cemuhook-protocol, "Shared
/// response beginning"): slot, slot state, model, connection type, MAC address, battery.
public struct DSUController: Hashable, Sendable, Codable {
  /// The slot reported about, 0...3.
  public var slot: UInt8
  /// 0 not connected, 1 reserved, 2 connected.
  public var state: UInt8
  /// 0 not applicable, 1 no or partial gyroscope, 2 full gyroscope.
  public var model: UInt8
  /// 0 not applicable, 1 USB, 2 Bluetooth.
  public var connection: UInt8
  /// The device's MAC address, 6 bytes as sent (zero when not applicable).
  public var mac: [UInt8]
  /// 0 not applicable, 1 dying ... 5 full, 0xEE charging, 0xEF charged.
  public var battery: UInt8

  /// Creates a controller description.
  ///
  /// - Parameters:
  ///   - slot: The slot, 0...3.
  ///   - state: 0 not connected, 1 reserved, 2 connected.
  ///   - model: 0 not applicable, 1 partial gyroscope, 2 full gyroscope.
  ///   - connection: 0 not applicable, 1 USB, 2 Bluetooth.
  ///   - mac: 6 bytes (padded with zeros or cut to 6).
  ///   - battery: The battery code.
  public init(
    slot: UInt8, state: UInt8 = 0, model: UInt8 = 0, connection: UInt8 = 0,
    mac: [UInt8] = [0, 0, 0, 0, 0, 0], battery: UInt8 = 0
  ) {
    self.slot = slot
    self.state = state
    self.model = model
    self.connection = connection
    self.mac = Array((mac + [0, 0, 0, 0, 0, 0]).prefix(6))
    self.battery = battery
  }

  /// True when the slot state is 2, connected.
  public var isConnected: Bool { state == DSUProtocol.stateConnected }

  /// The MAC address as `aa:bb:cc:dd:ee:ff`, in the order the bytes are sent.
  public var macText: String {
    mac.map { b in
      let h = String(b, radix: 16)
      return h.count == 1 ? "0" + h : h
    }.joined(separator: ":")
  }

  /// The battery code in words (cemuhook-protocol, "Battery values").
  public var batteryText: String {
    switch battery {
    case 0: return "not applicable"
    case 1: return "dying"
    case 2: return "low"
    case 3: return "medium"
    case 4: return "high"
    case 5: return "full"
    case 0xEE: return "charging"
    case 0xEF: return "charged"
    default: return "unknown (\(battery))"
    }
  }

  /// The model code in words (cemuhook-protocol, shared response "Device model").
  public var modelText: String {
    switch model {
    case 0: return "not applicable"
    case 1: return "no or partial gyroscope"
    case 2: return "full gyroscope"
    case 3: return "generic"
    default: return "unknown (\(model))"
    }
  }
}

/// One touch of a pad-data response: active, id, x, y (cemuhook-protocol, "Touch data
/// structure", 6 bytes).
public struct DSUTouch: Hashable, Sendable {
  /// Whether the touch is active.
  public var isActive: Bool
  /// The touch's id (the same for one continuous touch).
  public var id: UInt8
  /// Position, rightward, in the server's own units.
  public var x: UInt16
  /// Position, downward, in the server's own units.
  public var y: UInt16

  /// Creates a touch.
  ///
  /// - Parameters:
  ///   - isActive: Whether it is active.
  ///   - id: Its id.
  ///   - x: Rightward position.
  ///   - y: Downward position.
  public init(isActive: Bool = false, id: UInt8 = 0, x: UInt16 = 0, y: UInt16 = 0) {
    self.isActive = isActive
    self.id = id
    self.x = x
    self.y = y
  }
}

/// The controller data of a pad-data response (cemuhook-protocol, "Actual controllers data",
/// outgoing: 80 bytes after the message type, 100 in all).
///
/// Motion is in the protocol's own units and axes: accelerometer in **g**, gyroscope in **°/s**
/// as pitch, yaw, roll (the axes are described at ``DSUMotionAxes``).
public struct DSUPadData: Hashable, Sendable {
  /// Slot, state, model, connection, MAC, battery.
  public var controller: DSUController
  /// The "is controller connected" byte (1 connected).
  public var isConnected: Bool
  /// The packet number, counting up for this client.
  public var packetNumber: UInt32
  /// Two button bitmasks: D-pad left, down, right, up, options, R3, L3, share; Y, B, A, X,
  /// R1, L1, R2, L2 (most significant bit first).
  public var buttons: [UInt8]
  /// The HOME button (0 or 1).
  public var home: UInt8
  /// The touch button (0 or 1).
  public var touchButton: UInt8
  /// Left X, left Y (plus upward), right X, right Y (plus upward); 128 is neutral.
  public var sticks: [UInt8]
  /// Analog D-pad left, down, right, up, Y, B, A, X, R1, L1, R2, L2 (0...255).
  public var analogButtons: [UInt8]
  /// The two touches.
  public var touches: [DSUTouch]
  /// The motion timestamp, µs, on the server's clock ("update only with accelerometer
  /// changes").
  public var motionTimestamp: UInt64
  /// Accelerometer x, y, z, g.
  public var accelerometer: [Float]
  /// Gyroscope pitch, yaw, roll, °/s.
  public var gyroscope: [Float]

  /// Creates pad data; arrays are padded with neutral values or cut to their sizes.
  ///
  /// - Parameters:
  ///   - controller: The shared beginning.
  ///   - isConnected: The connected byte.
  ///   - packetNumber: The packet number.
  ///   - motionTimestamp: µs.
  ///   - accelerometer: x, y, z, g.
  ///   - gyroscope: Pitch, yaw, roll, °/s.
  public init(
    controller: DSUController, isConnected: Bool = true, packetNumber: UInt32 = 0,
    motionTimestamp: UInt64 = 0, accelerometer: [Float] = [0, 0, 0],
    gyroscope: [Float] = [0, 0, 0]
  ) {
    self.controller = controller
    self.isConnected = isConnected
    self.packetNumber = packetNumber
    buttons = [0, 0]
    home = 0
    touchButton = 0
    sticks = [128, 128, 128, 128]
    analogButtons = Array(repeating: 0, count: 12)
    touches = [DSUTouch(), DSUTouch()]
    self.motionTimestamp = motionTimestamp
    self.accelerometer = Array((accelerometer + [0, 0, 0]).prefix(3))
    self.gyroscope = Array((gyroscope + [0, 0, 0]).prefix(3))
  }
}

/// A client's data subscription (cemuhook-protocol, "Actual controllers data", incoming).
public enum DSUSubscription: Hashable, Sendable {
  /// Flags 0: every controller.
  case all
  /// Flag 1: the controller in a slot.
  case slot(UInt8)
  /// Flag 2: the controller with a MAC address (6 bytes).
  case mac([UInt8])
}

/// One DSU message: requests come from a client (`DSUC`), responses from a server (`DSUS`).
public enum DSUMessage: Hashable, Sendable {
  /// A client asks for the server's protocol version (no payload).
  case versionRequest
  /// The server's highest protocol version (u16, then 2 padding bytes as DS4Windows sends).
  case version(UInt16)
  /// A client asks about slots (i32 count, 0...4, then one byte per slot).
  case portInfoRequest(slots: [UInt8])
  /// The server describes one slot (the 11-byte beginning and a zero byte).
  case portInfo(DSUController)
  /// A client subscribes to controller data (flags, slot, MAC: 8 bytes).
  case padDataRequest(DSUSubscription)
  /// The server's controller data.
  case padData(DSUPadData)

  /// The message type.
  public var type: DSUMessageType {
    switch self {
    case .versionRequest, .version: return .version
    case .portInfoRequest, .portInfo: return .portInfo
    case .padDataRequest, .padData: return .padData
    }
  }

  /// True for a server's message (`DSUS`), false for a client's (`DSUC`).
  public var isFromServer: Bool {
    switch self {
    case .version, .portInfo, .padData: return true
    case .versionRequest, .portInfoRequest, .padDataRequest: return false
    }
  }
}

/// Why a datagram is not a valid DSU packet.
public struct DSUPacketError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kinds of problem, each counted on its own by a client or server.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// Fewer bytes than the header and message type, or than the length field says.
    case truncated
    /// Not `DSUC` / `DSUS` (or the wrong one of the two for the receiver).
    case badMagic
    /// A protocol version above 1001.
    case unsupportedVersion
    /// A length field too small for the message type.
    case badLength
    /// The CRC-32 does not match.
    case badChecksum
    /// A message type other than the three of the protocol.
    case unknownType
    /// A field out of its range (a slot count above 4, a non-finite float).
    case invalidField
  }

  /// The kind of problem.
  public var kind: Kind
  /// A one-line reason naming the field.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - kind: The kind.
  ///   - message: The reason.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// The reason.
  public var description: String { message }
}

/// A DSU datagram: the sender id and the message (the magic and the type follow from it).
public struct DSUPacket: Hashable, Sendable {
  /// The protocol version in the header (1001).
  public var protocolVersion: UInt16
  /// The sender's id, random per run.
  public var senderID: UInt32
  /// The message.
  public var message: DSUMessage

  /// Creates a packet.
  ///
  /// - Parameters:
  ///   - message: The message.
  ///   - senderID: The sender's id.
  ///   - protocolVersion: The header's version (1001).
  public init(
    _ message: DSUMessage, senderID: UInt32, protocolVersion: UInt16 = DSUProtocol.version
  ) {
    self.message = message
    self.senderID = senderID
    self.protocolVersion = protocolVersion
  }

  /// The datagram's bytes, with the length and CRC-32 filled in.
  public func encoded() -> [UInt8] {
    var w = ByteWriter()
    w.bytes(Array((message.isFromServer ? "DSUS" : "DSUC").utf8))
    w.u16(protocolVersion)
    w.u16(0)  // length, below
    w.u32(0)  // CRC-32, below
    w.u32(senderID)
    w.u32(message.type.rawValue)
    switch message {
    case .versionRequest: break
    case .version(let v):
      w.u16(v)
      w.u16(0)
    case .portInfoRequest(let slots):
      let some = Array(slots.prefix(DSUProtocol.slotCount))
      w.u32(UInt32(some.count))
      w.bytes(some)
    case .portInfo(let c):
      w.controller(c)
      w.u8(0)
    case .padDataRequest(let s):
      switch s {
      case .all: w.bytes([0, 0, 0, 0, 0, 0, 0, 0])
      case .slot(let slot): w.bytes([1, slot, 0, 0, 0, 0, 0, 0])
      case .mac(let mac):
        w.bytes([2, 0])
        w.bytes(Array((mac + [0, 0, 0, 0, 0, 0]).prefix(6)))
      }
    case .padData(let p):
      w.controller(p.controller)
      w.u8(p.isConnected ? 1 : 0)
      w.u32(p.packetNumber)
      w.bytes(fixed(p.buttons, 2, 0))
      w.u8(p.home)
      w.u8(p.touchButton)
      w.bytes(fixed(p.sticks, 4, 128))
      w.bytes(fixed(p.analogButtons, 12, 0))
      for t in (p.touches + [DSUTouch(), DSUTouch()]).prefix(2) {
        w.u8(t.isActive ? 1 : 0)
        w.u8(t.id)
        w.u16(t.x)
        w.u16(t.y)
      }
      w.u64(p.motionTimestamp)
      for f in fixed(p.accelerometer, 3, 0) + fixed(p.gyroscope, 3, 0) { w.u32(f.bitPattern) }
    }
    var out = w.data
    let length = UInt16(out.count - DSUProtocol.headerSize)
    out[6] = UInt8(length & 0xFF)
    out[7] = UInt8(length >> 8)
    let crc = DSUChecksum.crc32(out)
    for i in 0..<4 { out[8 + i] = UInt8((crc >> (8 * UInt32(i))) & 0xFF) }
    return out
  }

  /// Decodes a datagram.
  ///
  /// - Parameters:
  ///   - bytes: The datagram as received.
  ///   - verifyingChecksum: Refuse a datagram whose CRC-32 does not match (default true;
  ///     Dolphin, Citra and yuzu refuse such datagrams too).
  /// - Returns: The packet.
  /// - Throws: ``DSUPacketError`` naming the field.
  public static func decode(_ bytes: [UInt8], verifyingChecksum: Bool = true)
    throws(DSUPacketError) -> DSUPacket
  {
    guard bytes.count >= DSUProtocol.headerSize + 4 else {
      throw DSUPacketError(.truncated, "\(bytes.count) bytes is shorter than the 20-byte header")
    }
    let magic = String(decoding: bytes[0..<4], as: UTF8.self)
    guard magic == "DSUC" || magic == "DSUS" else {
      throw DSUPacketError(.badMagic, "magic '\(UntrustedText.clipped(magic))' is not DSUC or DSUS")
    }
    let fromServer = magic == "DSUS"
    var r = ByteReader(bytes: bytes, position: 4)
    let version = r.u16()
    guard version <= DSUProtocol.version else {
      throw DSUPacketError(.unsupportedVersion, "protocol version \(version) is above 1001")
    }
    let length = Int(r.u16())
    let total = DSUProtocol.headerSize + length
    guard length >= 4 else {
      throw DSUPacketError(.badLength, "length \(length) leaves no room for the message type")
    }
    guard bytes.count >= total else {
      throw DSUPacketError(
        .truncated, "\(bytes.count) bytes is shorter than the length field's \(total)")
    }
    var packet = Array(bytes.prefix(total))
    let crc = r.u32()
    if verifyingChecksum {
      for i in 8..<12 { packet[i] = 0 }
      let computed = DSUChecksum.crc32(packet)
      guard computed == crc else {
        throw DSUPacketError(
          .badChecksum,
          "CRC-32 \(hex(crc)) does not match the datagram's \(hex(computed))")
      }
    }
    let sender = r.u32()
    let rawType = r.u32()
    guard let type = DSUMessageType(rawValue: rawType) else {
      throw DSUPacketError(.unknownType, "message type \(hex(rawType)) is not a DSU message")
    }
    r = ByteReader(bytes: packet, position: 20)
    let payload = total - 20
    func need(_ n: Int, _ what: String) throws(DSUPacketError) {
      guard payload >= n else {
        throw DSUPacketError(
          .badLength, "\(what) needs \(n) bytes after the message type, the length gives \(payload)"
        )
      }
    }
    let message: DSUMessage
    switch (type, fromServer) {
    case (.version, false): message = .versionRequest
    case (.version, true):
      try need(2, "a version response")
      message = .version(r.u16())
    case (.portInfo, false):
      try need(4, "a port-info request")
      let count = Int32(bitPattern: r.u32())
      guard (0...Int32(DSUProtocol.slotCount)).contains(count) else {
        throw DSUPacketError(.invalidField, "port-info request count \(count) is not 0...4")
      }
      try need(4 + Int(count), "a port-info request for \(count) slots")
      message = .portInfoRequest(slots: r.take(Int(count)))
    case (.portInfo, true):
      try need(11, "a port-info response")
      message = .portInfo(r.controller())
    case (.padData, false):
      try need(8, "a pad-data request")
      let flags = r.u8()
      let slot = r.u8()
      let mac = r.take(6)
      message = .padDataRequest(flags & 1 != 0 ? .slot(slot) : flags & 2 != 0 ? .mac(mac) : .all)
    case (.padData, true):
      try need(80, "a pad-data response")
      var p = DSUPadData(controller: r.controller())
      p.isConnected = r.u8() != 0
      p.packetNumber = r.u32()
      p.buttons = r.take(2)
      p.home = r.u8()
      p.touchButton = r.u8()
      p.sticks = r.take(4)
      p.analogButtons = r.take(12)
      p.touches = (0..<2).map { _ in
        DSUTouch(isActive: r.u8() != 0, id: r.u8(), x: r.u16(), y: r.u16())
      }
      p.motionTimestamp = r.u64()
      p.accelerometer = (0..<3).map { _ in Float(bitPattern: r.u32()) }
      p.gyroscope = (0..<3).map { _ in Float(bitPattern: r.u32()) }
      guard (p.accelerometer + p.gyroscope).allSatisfy(\.isFinite) else {
        throw DSUPacketError(.invalidField, "pad data has a non-finite accelerometer or gyroscope")
      }
      message = .padData(p)
    }
    return DSUPacket(message, senderID: sender, protocolVersion: version)
  }
}

/// CRC-32 as zlib computes it (reflected polynomial 0xEDB88320, initial and final value
/// 0xFFFFFFFF), which the DSU header carries (cemuhook-protocol; DS4Windows `Crc32.Compute`).
public enum DSUChecksum {
  private static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  /// The CRC-32 of bytes.
  ///
  /// - Parameter bytes: The bytes.
  /// - Returns: The checksum (`0xCBF43926` for the ASCII digits "123456789").
  public static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }
}

private func hex(_ v: UInt32) -> String { "0x" + String(v, radix: 16) }

private func fixed<T>(_ values: [T], _ count: Int, _ fill: T) -> [T] {
  Array((values + Array(repeating: fill, count: count)).prefix(count))
}

private struct ByteWriter {
  var data: [UInt8] = []
  mutating func u8(_ v: UInt8) { data.append(v) }
  mutating func bytes(_ v: [UInt8]) { data += v }
  mutating func u16(_ v: UInt16) { for i in 0..<2 { data.append(UInt8((v >> (8 * i)) & 0xFF)) } }
  mutating func u32(_ v: UInt32) {
    for i in 0..<4 { data.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) }
  }
  mutating func u64(_ v: UInt64) {
    for i in 0..<8 { data.append(UInt8((v >> (8 * UInt64(i))) & 0xFF)) }
  }
  mutating func controller(_ c: DSUController) {
    bytes([c.slot, c.state, c.model, c.connection])
    bytes(fixed(c.mac, 6, 0))
    u8(c.battery)
  }
}

/// Reads little-endian numbers; the caller checked the length first.
private struct ByteReader {
  let bytes: [UInt8]
  var position: Int
  mutating func u8() -> UInt8 {
    defer { position += 1 }
    return bytes[position]
  }
  mutating func take(_ n: Int) -> [UInt8] {
    defer { position += n }
    return Array(bytes[position..<position + n])
  }
  mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }
  mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }
  mutating func u64() -> UInt64 { UInt64(u32()) | UInt64(u32()) << 32 }
  mutating func controller() -> DSUController {
    let head = take(4)
    return DSUController(
      slot: head[0], state: head[1], model: head[2], connection: head[3], mac: take(6),
      battery: u8())
  }
}
