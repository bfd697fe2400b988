import SwellTestSupport
import Testing

@testable import SwellSensors

@Suite("IIO scan types and layout")
private struct IIOScanTypeTests {
  @Test(
    "parses _type strings",
    arguments: [
      ("le:s16/16>>0", false, IIOScanType.Kind.signed, 16, 16, 1, 0),
      ("le:s12/16>>4", false, .signed, 12, 16, 1, 4),
      ("be:u32/32", true, .unsigned, 32, 32, 1, 0),
      ("be:s24/32>>8", true, .signed, 24, 32, 1, 8),
      ("le:u8/8>>0", false, .unsigned, 8, 8, 1, 0),
      ("le:s16/16X3>>0", false, .signed, 16, 16, 3, 0),
      ("le:s64/64>>0", false, .signed, 64, 64, 1, 0),
      ("le:f32/32>>0", false, .float, 32, 32, 1, 0),
      ("be:f64/64", true, .float, 64, 64, 1, 0),
      (" le:S16/16>>0\n", false, .signed, 16, 16, 1, 0),
    ])
  func parse(
    text: String, bigEndian: Bool, kind: IIOScanType.Kind, bits: Int, storage: Int, rep: Int,
    shift: Int
  ) throws {
    let t = try IIOScanType(parsing: text)
    #expect(t.isBigEndian == bigEndian)
    #expect(t.kind == kind)
    #expect(t.bits == bits)
    #expect(t.storageBits == storage)
    #expect(t.repeatCount == rep)
    #expect(t.shift == shift)
    #expect(try IIOScanType(parsing: t.description) == t)
  }

  @Test(
    "rejects malformed _type strings",
    arguments: [
      "", "s16/16", "xx:s16/16>>0", "le:q16/16>>0", "le:s17/16>>0", "le:s16/24>>0",
      "le:s16/16>>", "le:s16/16>>1", "le:s0/16", "le:f16/16>>0", "le:s16/16X0>>0", "le:s16",
      "le:s16/16>>-1", "le:sab/16",
    ])
  func reject(text: String) {
    #expect(throws: IIOError.self) { try IIOScanType(parsing: text) }
  }

  @Test(
    "decodes elements",
    arguments: [
      ("le:s16/16>>0", [0x16, 0x3F] as [UInt8], 16150.0),
      ("le:s16/16>>0", [0x00, 0x80], -32768),
      ("be:s16/16>>0", [0xFF, 0xFE], -2),
      ("le:s12/16>>4", [0xB0, 0xFF], -5),
      ("le:s12/16>>4", [0xBF, 0xFF], -5),  // noise in the bits below the shift
      ("le:u12/16>>4", [0xB0, 0xFF], 4091),
      ("le:s12/16>>0", [0xFF, 0xF7], 2047),  // bits above 12 ignored
      ("le:s12/16>>0", [0x00, 0x08], -2048),
      ("be:u32/32", [0x00, 0x01, 0x02, 0x03], 66051),
      ("le:u32/32>>0", [0x00, 0x01, 0x02, 0x03], 50_462_976),
      ("be:s24/32>>8", [0xFF, 0xFF, 0xFE, 0x00], -2),
      ("le:u8/8>>0", [0xFE], 254),
      ("le:s8/8>>0", [0xFE], -2),
      ("le:f32/32>>0", [0x00, 0x00, 0xC0, 0x3F], 1.5),
      ("be:f32/32>>0", [0xC0, 0x20, 0x00, 0x00], -2.5),
      ("le:s64/64>>0", [0x15, 0xCD, 0x5B, 0x07, 0, 0, 0, 0], 123_456_789),
    ])
  func decode(text: String, bytes: [UInt8], expected: Double) throws {
    let t = try IIOScanType(parsing: text)
    let v = bytes.withUnsafeBytes { t.decode($0, at: 0) }
    #expect(v == expected)
  }

  @Test("timestamps decode as Int64 without losing nanoseconds")
  func timestampPrecision() throws {
    let t = try IIOScanType(parsing: "le:s64/64>>0")
    let ns: Int64 = 1_734_000_123_456_789_123
    let bytes = withUnsafeBytes(of: ns.littleEndian) { Array($0) }
    #expect(bytes.withUnsafeBytes { t.decodeInteger($0, at: 0) } == ns)
  }

  @Test("random integers round-trip through every integer layout")
  func roundTrip() throws {
    let seed: UInt64 = 0x5EED_0006
    var rng = SplitMix64(seed: seed)
    for _ in 0..<2000 {
      let storage = [8, 16, 32, 64].randomElement(using: &rng) ?? 16
      let bits = Int.random(in: 1...storage, using: &rng)
      let shift = Int.random(in: 0...(storage - bits), using: &rng)
      let signed = Bool.random(using: &rng)
      let big = Bool.random(using: &rng)
      let text = "\(big ? "be" : "le"):\(signed ? "s" : "u")\(bits)/\(storage)>>\(shift)"
      let type = try IIOScanType(parsing: text)
      // An independent encoder: value in the field, random noise outside it.
      let value: Int64
      if signed {
        let lo = bits == 64 ? Int64.min : -(Int64(1) << (bits - 1))
        let hi = bits == 64 ? Int64.max : (Int64(1) << (bits - 1)) - 1
        value = Int64.random(in: lo...hi, using: &rng)
      } else {
        let hi = bits >= 63 ? Int64.max : (Int64(1) << bits) - 1
        value = Int64.random(in: 0...hi, using: &rng)
      }
      let fieldMask: UInt64 = bits == 64 ? ~0 : (UInt64(1) << UInt64(bits)) - 1
      let noise = rng.next() & ~(fieldMask << UInt64(shift))
      let storageMask: UInt64 = storage == 64 ? ~0 : (UInt64(1) << UInt64(storage)) - 1
      let word = ((UInt64(bitPattern: value) & fieldMask) << UInt64(shift) | noise) & storageMask
      var bytes: [UInt8] = []
      for i in 0..<(storage / 8) {
        bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(8 * i)))
      }
      if big { bytes.reverse() }
      let decoded = bytes.withUnsafeBytes { type.decodeInteger($0, at: 0) }
      #expect(decoded == value, "seed \(seed): \(text) bytes \(bytes)")
      if decoded != value { return }
    }
  }

  @Test("accel x/y/z s16 + s64 timestamp: offsets 0, 2, 4, 8 and 16 bytes")
  func layoutAccelTimestamp() throws {
    let s16 = try IIOScanType(parsing: "le:s16/16>>0")
    let s64 = try IIOScanType(parsing: "le:s64/64>>0")
    let layout = IIOScanLayout(channels: [
      ("in_timestamp", 3, s64), ("in_accel_y", 1, s16), ("in_accel_x", 0, s16),
      ("in_accel_z", 2, s16),
    ])
    #expect(
      layout.elements.map(\.name) == ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"])
    #expect(layout.elements.map(\.offset) == [0, 2, 4, 8])
    #expect(layout.scanBytes == 16)
  }

  @Test("layouts align each element to its size and pad to the largest")
  func layouts() throws {
    let s16 = try IIOScanType(parsing: "le:s16/16>>0")
    let u8 = try IIOScanType(parsing: "le:u8/8>>0")
    let s32 = try IIOScanType(parsing: "be:s32/32>>0")
    let s64 = try IIOScanType(parsing: "le:s64/64>>0")
    let six = IIOScanLayout(channels: (0..<6).map { ("c\($0)", $0, s16) } + [("ts", 6, s64)])
    #expect(six.elements.map(\.offset) == [0, 2, 4, 6, 8, 10, 16])
    #expect(six.scanBytes == 24)
    let mixed = IIOScanLayout(channels: [("a", 0, u8), ("b", 1, s32), ("c", 2, u8)])
    #expect(mixed.elements.map(\.offset) == [0, 4, 8])
    #expect(mixed.scanBytes == 12)
    let noTimestamp = IIOScanLayout(channels: [("x", 0, s16), ("y", 1, s16), ("z", 2, s16)])
    #expect(noTimestamp.scanBytes == 6)
    #expect(IIOScanLayout(channels: []).scanBytes == 0)
  }

  @Test("mount matrices parse in the kernel's text form")
  func mountMatrix() throws {
    let m = try IIOSysfs.parseMountMatrix("0, 1, 0; -1, 0, 0; 0, 0, 1\n", file: "f")
    #expect(m.row0 == .init(0, 1, 0))
    #expect(m.row1 == .init(-1, 0, 0))
    #expect(m.row2 == .init(0, 0, 1))
    for bad in ["1, 0, 0; 0, 1, 0", "1, 0, 0; 0, 1, 0; 0, 0", "a, 0, 0; 0, 1, 0; 0, 0, 1", ""] {
      #expect(throws: IIOError.self) { try IIOSysfs.parseMountMatrix(bad, file: "f") }
    }
  }
}
