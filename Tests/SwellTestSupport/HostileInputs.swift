import Foundation

/// Builders for the hostile inputs of issue 13 (zip bombs, overlapping archives), made at test
/// time so no large file is checked in.
public enum HostileInputs {
  /// A raw DEFLATE stream (RFC 1951, one fixed-Huffman block) that inflates to
  /// `1 + 258 × matches` zero bytes: a literal 0, then `matches` copies of (length 258,
  /// distance 1), 13 bits each (a ratio of about 159 to 1).
  ///
  /// - Parameter matches: The number of length-258 matches.
  /// - Returns: The compressed bytes.
  public static func zeroBomb(matches: Int) -> [UInt8] {
    var writer = BitWriter()
    writer.bits(1, 1)  // BFINAL
    writer.bits(1, 2)  // BTYPE = 01, fixed Huffman
    writer.code(0x30, 8)  // literal 0
    for _ in 0..<matches {
      // Length symbol 285 (258 bytes, code 11000101) then distance code 0 (distance 1, 00000):
      // 13 bits, the codes already bit-reversed.
      writer.bits(0xA3, 13)
    }
    writer.code(0, 7)  // end of block (256)
    return writer.finish()
  }

  /// One entry of a hand-made zip archive.
  public struct ZipEntry {
    /// The path inside the archive.
    public var name: String
    /// 0 stored, 8 deflated.
    public var method: UInt16
    /// The bytes as stored in the archive.
    public var data: [UInt8]
    /// The uncompressed size the directory declares.
    public var declaredSize: UInt32
    /// The CRC-32 the directory declares.
    public var crc: UInt32

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - name: The path inside the archive.
    ///   - method: 0 stored, 8 deflated.
    ///   - data: The stored bytes.
    ///   - declaredSize: The declared uncompressed size.
    ///   - crc: The declared CRC-32.
    public init(name: String, method: UInt16, data: [UInt8], declaredSize: UInt32, crc: UInt32 = 0)
    {
      self.name = name
      self.method = method
      self.data = data
      self.declaredSize = declaredSize
      self.crc = crc
    }
  }

  /// A zip archive of entries; `aliases` adds central-directory entries that point at the
  /// local header of entry 0 (the "overlapping files" zip bomb).
  ///
  /// - Parameters:
  ///   - entries: The entries, each with its own local header.
  ///   - aliases: Extra directory entries (named `alias-N.csv`) sharing entry 0's data.
  /// - Returns: The archive's bytes.
  public static func zip(_ entries: [ZipEntry], aliases: Int = 0) -> Data {
    var out: [UInt8] = []
    var offsets: [UInt32] = []
    func u16(_ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: UInt32) { for k in 0..<4 { out.append(UInt8((v >> (8 * UInt32(k))) & 0xFF)) } }
    for e in entries {
      offsets.append(UInt32(out.count))
      u32(0x0403_4B50)
      u16(20)
      u16(0)
      u16(e.method)
      u16(0)
      u16(0)
      u32(e.crc)
      u32(UInt32(e.data.count))
      u32(e.declaredSize)
      u16(UInt16(e.name.utf8.count))
      u16(0)
      out += Array(e.name.utf8)
      out += e.data
    }
    let directoryStart = out.count
    var all: [(ZipEntry, UInt32)] = Array(Swift.zip(entries, offsets))
    if let first = entries.first {
      for k in 0..<aliases {
        var alias = first
        alias.name = "alias-\(k).csv"
        all.append((alias, offsets[0]))
      }
    }
    for (e, offset) in all {
      u32(0x0201_4B50)
      u16(20)
      u16(20)
      u16(0)
      u16(e.method)
      u16(0)
      u16(0)
      u32(e.crc)
      u32(UInt32(e.data.count))
      u32(e.declaredSize)
      u16(UInt16(e.name.utf8.count))
      u16(0)
      u16(0)
      u16(0)
      u16(0)
      u32(0)
      u32(offset)
      out += Array(e.name.utf8)
    }
    let directorySize = out.count - directoryStart
    u32(0x0605_4B50)
    u16(0)
    u16(0)
    u16(UInt16(all.count))
    u16(UInt16(all.count))
    u32(UInt32(directorySize))
    u32(UInt32(directoryStart))
    u16(0)
    return Data(out)
  }
}

/// Writes bits least significant first, as DEFLATE packs them.
private struct BitWriter {
  var bytes: [UInt8] = []
  var buffer: UInt64 = 0
  var count = 0

  /// Appends the low `n` bits of `value`, least significant first.
  mutating func bits(_ value: UInt64, _ n: Int) {
    buffer |= value << UInt64(count)
    count += n
    while count >= 8 {
      bytes.append(UInt8(buffer & 0xFF))
      buffer >>= 8
      count -= 8
    }
  }

  /// Appends a Huffman code of `n` bits, most significant bit first.
  mutating func code(_ value: UInt64, _ n: Int) {
    var reversed: UInt64 = 0
    for k in 0..<n where value & (1 << UInt64(k)) != 0 { reversed |= 1 << UInt64(n - 1 - k) }
    bits(reversed, n)
  }

  mutating func finish() -> [UInt8] {
    if count > 0 { bytes.append(UInt8(buffer & 0xFF)) }
    count = 0
    return bytes
  }
}
