import Foundation

/// A minimal zip reader: the central directory, and entries stored or deflated (RFC 1951),
/// with their CRC-32 checked. Enough for phone exports; ZIP64, encryption and other methods
/// are reported as errors.
///
/// Layout after PKWARE's APPNOTE.TXT: end-of-central-directory record (signature 0x06054b50),
/// central directory headers (0x02014b50), local file headers (0x04034b50).
public struct ZipArchive: Sendable {
  /// One entry of the central directory.
  public struct Entry: Sendable, Hashable {
    /// The path inside the archive (`/` separated; directories end with `/`).
    public var path: String
    /// The compression method: 0 stored, 8 deflated.
    public var method: UInt16
    /// The CRC-32 of the uncompressed data.
    public var crc32: UInt32
    /// The compressed size, bytes.
    public var compressedSize: Int
    /// The uncompressed size, bytes.
    public var uncompressedSize: Int
    /// Where the entry's local header starts, bytes from the start of the archive.
    public var localHeaderOffset: Int
  }

  /// The archive's name, for errors.
  public let name: String
  /// The entries, in central-directory order.
  public let entries: [Entry]
  private let data: [UInt8]

  /// True when the data starts like a zip archive (`PK\u{3}\u{4}` or an empty archive's
  /// `PK\u{5}\u{6}`).
  ///
  /// - Parameter data: The file's contents.
  /// - Returns: Whether it looks like a zip.
  public static func isZip(_ data: Data) -> Bool {
    guard data.count >= 4 else { return false }
    let b = [UInt8](data.prefix(4))
    return b[0] == 0x50 && b[1] == 0x4B && ((b[2] == 3 && b[3] == 4) || (b[2] == 5 && b[3] == 6))
  }

  /// Opens an archive from its bytes and reads its central directory.
  ///
  /// - Parameters:
  ///   - data: The archive's bytes.
  ///   - name: The archive's name, for errors.
  /// - Throws: ``RecordingError`` when the archive is truncated or not a zip.
  public init(data: Data, name: String) throws(RecordingError) {
    let bytes = [UInt8](data)
    self.data = bytes
    self.name = name
    func fail(_ m: String) -> RecordingError { RecordingError(file: name, message: m) }
    // The end-of-central-directory record is in the last 22 + 65535 bytes.
    var eocd = -1
    var i = bytes.count - 22
    let lowest = max(0, bytes.count - 22 - 65_535)
    while i >= lowest {
      if bytes[i] == 0x50 && bytes[i + 1] == 0x4B && bytes[i + 2] == 5 && bytes[i + 3] == 6 {
        eocd = i
        break
      }
      i -= 1
    }
    guard eocd >= 0 else { throw fail("not a zip archive (no end-of-central-directory record)") }
    let count = Int(Self.u16(bytes, eocd + 10))
    let directorySize = Int(Self.u32(bytes, eocd + 12))
    let directoryOffset = Int(Self.u32(bytes, eocd + 16))
    guard count != 0xFFFF, directoryOffset != 0xFFFF_FFFF else {
      throw fail("ZIP64 archives are not supported")
    }
    guard directoryOffset + directorySize <= eocd else {
      throw fail("truncated archive (central directory out of range)")
    }
    var entries: [Entry] = []
    var p = directoryOffset
    for _ in 0..<count {
      guard p + 46 <= bytes.count, Self.u32(bytes, p) == 0x0201_4B50 else {
        throw fail("corrupt central directory at byte \(p)")
      }
      let flags = Self.u16(bytes, p + 8)
      let method = Self.u16(bytes, p + 10)
      let crc = Self.u32(bytes, p + 16)
      let compressed = Int(Self.u32(bytes, p + 20))
      let uncompressed = Int(Self.u32(bytes, p + 24))
      let nameLength = Int(Self.u16(bytes, p + 28))
      let extraLength = Int(Self.u16(bytes, p + 30))
      let commentLength = Int(Self.u16(bytes, p + 32))
      let offset = Int(Self.u32(bytes, p + 42))
      guard p + 46 + nameLength <= bytes.count else { throw fail("truncated central directory") }
      let path = String(decoding: bytes[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
      if flags & 1 != 0 { throw fail("entry '\(path)' is encrypted") }
      entries.append(
        Entry(
          path: path, method: method, crc32: crc, compressedSize: compressed,
          uncompressedSize: uncompressed, localHeaderOffset: offset))
      p += 46 + nameLength + extraLength + commentLength
    }
    self.entries = entries
  }

  /// Extracts an entry's contents, checking its size and CRC-32.
  ///
  /// - Parameter entry: One of ``entries``.
  /// - Returns: The uncompressed bytes.
  /// - Throws: ``RecordingError`` naming the entry when it is corrupt or uses an unsupported
  ///   compression method.
  public func extract(_ entry: Entry) throws(RecordingError) -> Data {
    let location = "\(name)/\(entry.path)"
    func fail(_ m: String) -> RecordingError { RecordingError(file: location, message: m) }
    let p = entry.localHeaderOffset
    guard p + 30 <= data.count, Self.u32(data, p) == 0x0403_4B50 else {
      throw fail("corrupt local header")
    }
    let start = p + 30 + Int(Self.u16(data, p + 26)) + Int(Self.u16(data, p + 28))
    guard start + entry.compressedSize <= data.count else { throw fail("truncated entry") }
    let raw = data[start..<(start + entry.compressedSize)]
    let out: [UInt8]
    switch entry.method {
    case 0: out = Array(raw)
    case 8:
      do {
        out = try Inflate.decompress(raw, expectedSize: entry.uncompressedSize)
      } catch {
        throw fail("corrupt deflate data: \(error.message)")
      }
    default: throw fail("unsupported compression method \(entry.method) (need 0 or 8)")
    }
    guard out.count == entry.uncompressedSize else {
      throw fail("size \(out.count) differs from the directory's \(entry.uncompressedSize)")
    }
    guard CRC32.checksum(out) == entry.crc32 else { throw fail("CRC-32 mismatch") }
    return Data(out)
  }

  /// Extracts the entry at a path.
  ///
  /// - Parameter path: The path inside the archive.
  /// - Returns: The bytes, or `nil` when there is no such entry.
  /// - Throws: ``RecordingError`` when the entry is corrupt.
  public func extract(path: String) throws(RecordingError) -> Data? {
    guard let e = entries.first(where: { $0.path == path }) else { return nil }
    return try extract(e)
  }

  private static func u16(_ b: [UInt8], _ i: Int) -> UInt16 {
    UInt16(b[i]) | UInt16(b[i + 1]) << 8
  }

  private static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
  }
}

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as zip uses it.
enum CRC32 {
  private static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  /// The CRC-32 of some bytes.
  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }
}
