import Foundation
import SwellMotion

/// A minimal zip reader: the central directory, and entries stored or deflated (RFC 1951,
/// inflated by zlib), with their CRC-32 checked. Enough for phone exports; ZIP64, encryption and
/// other methods are reported as errors.
///
/// Layout after PKWARE's APPNOTE.TXT: end-of-central-directory record (signature 0x06054b50),
/// central directory headers (0x02014b50), local file headers (0x04034b50).
///
/// **Limits** (``Limits``), checked before anything is allocated or while inflating, never after:
/// each entry's declared size is at most ``Limits/maximumEntrySize`` (1 GiB) and at most
/// ``Limits/maximumRatio`` (1100, above DEFLATE's own maximum of 1032) times its compressed size;
/// the declared sizes add up to at most ``Limits/maximumTotalSize`` (2 GiB); an entry never
/// inflates past its declared size; entries whose data overlap each other or the central
/// directory (the "overlapping files" zip bomb) are refused when the archive is opened.
public struct ZipArchive: Sendable {
  /// How much an archive may expand to.
  public struct Limits: Sendable, Hashable {
    /// The largest uncompressed entry, bytes (default 1 GiB).
    public var maximumEntrySize: Int
    /// The largest sum of the entries' uncompressed sizes, bytes (default 2 GiB).
    public var maximumTotalSize: Int
    /// The largest ratio of an entry's uncompressed to compressed size (default 1100; DEFLATE
    /// cannot exceed about 1032).
    public var maximumRatio: Int
    /// The most entries (default 65,535, the classic zip format's own maximum).
    public var maximumEntries: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumEntrySize: Bytes.
    ///   - maximumTotalSize: Bytes.
    ///   - maximumRatio: Uncompressed over compressed size.
    ///   - maximumEntries: Entries.
    public init(
      maximumEntrySize: Int = 1 << 30, maximumTotalSize: Int = 1 << 31, maximumRatio: Int = 1100,
      maximumEntries: Int = 65_535
    ) {
      self.maximumEntrySize = maximumEntrySize
      self.maximumTotalSize = maximumTotalSize
      self.maximumRatio = maximumRatio
      self.maximumEntries = maximumEntries
    }

    /// The defaults: 1 GiB per entry, 2 GiB in all, ratio 1100, 65,535 entries.
    public static let standard = Limits()
  }

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
  /// The limits the archive was opened with.
  public let limits: Limits
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

  /// Opens an archive from its bytes, reads its central directory and checks it against the
  /// limits.
  ///
  /// - Parameters:
  ///   - data: The archive's bytes.
  ///   - name: The archive's name, for errors.
  ///   - limits: How much it may expand to (default ``Limits/standard``).
  /// - Throws: `RecordingError` when the archive is truncated, not a zip, has overlapping
  ///   entries, or declares sizes beyond the limits.
  public init(data: Data, name: String, limits: Limits = .standard) throws(RecordingError) {
    let bytes = [UInt8](data)
    self.data = bytes
    self.name = name
    self.limits = limits
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
    guard count <= limits.maximumEntries else {
      throw fail("\(count) entries is more than the limit of \(limits.maximumEntries)")
    }
    guard directoryOffset + directorySize <= eocd else {
      throw fail("truncated archive (central directory out of range)")
    }
    var entries: [Entry] = []
    entries.reserveCapacity(count)
    var total = 0
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
      let shown = UntrustedText.clipped(path)
      if flags & 1 != 0 { throw fail("entry '\(shown)' is encrypted") }
      guard uncompressed <= limits.maximumEntrySize else {
        throw fail(
          "entry '\(shown)' declares \(uncompressed) bytes, more than the limit of "
            + "\(limits.maximumEntrySize)")
      }
      guard uncompressed <= max(1, compressed) * limits.maximumRatio else {
        throw fail(
          "entry '\(shown)' declares \(uncompressed) bytes from \(compressed) compressed (more "
            + "than \(limits.maximumRatio) to 1): not a real archive")
      }
      total += uncompressed
      guard total <= limits.maximumTotalSize else {
        throw fail(
          "the entries declare more than \(limits.maximumTotalSize) bytes in all (the limit)")
      }
      entries.append(
        Entry(
          path: path, method: method, crc32: crc, compressedSize: compressed,
          uncompressedSize: uncompressed, localHeaderOffset: offset))
      p += 46 + nameLength + extraLength + commentLength
    }
    self.entries = entries
    try Self.checkLayout(
      entries, bytes: bytes, directory: directoryOffset..<(directoryOffset + directorySize),
      fail: fail)
  }

  /// Refuses entries whose local header and data overlap another entry's or the central
  /// directory (each byte of a real archive belongs to one entry).
  private static func checkLayout(
    _ entries: [Entry], bytes: [UInt8], directory: Range<Int>,
    fail: (String) -> RecordingError
  ) throws(RecordingError) {
    var spans: [(range: Range<Int>, path: String)] = []
    spans.reserveCapacity(entries.count)
    for e in entries {
      let p = e.localHeaderOffset
      guard p + 30 <= bytes.count, u32(bytes, p) == 0x0403_4B50 else {
        throw fail("entry '\(UntrustedText.clipped(e.path))': corrupt local header")
      }
      let start = p + 30 + Int(u16(bytes, p + 26)) + Int(u16(bytes, p + 28))
      let end = start + e.compressedSize
      guard end <= bytes.count else {
        throw fail("entry '\(UntrustedText.clipped(e.path))': truncated entry")
      }
      guard end <= directory.lowerBound || p >= directory.upperBound else {
        throw fail("entry '\(UntrustedText.clipped(e.path))' overlaps the central directory")
      }
      spans.append((p..<end, e.path))
    }
    spans.sort { $0.range.lowerBound < $1.range.lowerBound }
    for k in spans.indices.dropFirst()
    where spans[k].range.lowerBound < spans[k - 1].range.upperBound {
      throw fail(
        "entries '\(UntrustedText.clipped(spans[k - 1].path))' and "
          + "'\(UntrustedText.clipped(spans[k].path))' overlap: not a real archive")
    }
  }

  /// Extracts an entry's contents, checking its size and CRC-32; inflating stops as soon as
  /// the data passes the entry's declared size.
  ///
  /// - Parameter entry: One of ``entries``.
  /// - Returns: The uncompressed bytes.
  /// - Throws: `RecordingError` naming the entry when it is corrupt, larger than it declares
  ///   or uses an unsupported compression method.
  public func extract(_ entry: Entry) throws(RecordingError) -> Data {
    let location = "\(name)/\(UntrustedText.clipped(entry.path))"
    func fail(_ m: String) -> RecordingError { RecordingError(file: location, message: m) }
    let p = entry.localHeaderOffset
    guard p + 30 <= data.count, Self.u32(data, p) == 0x0403_4B50 else {
      throw fail("corrupt local header")
    }
    guard entry.uncompressedSize <= limits.maximumEntrySize else {
      throw fail("declares more than \(limits.maximumEntrySize) bytes (the limit)")
    }
    let start = p + 30 + Int(Self.u16(data, p + 26)) + Int(Self.u16(data, p + 28))
    guard start + entry.compressedSize <= data.count else { throw fail("truncated entry") }
    let raw = data[start..<(start + entry.compressedSize)]
    let out: [UInt8]
    switch entry.method {
    case 0:
      guard entry.compressedSize == entry.uncompressedSize else {
        throw fail(
          "stored entry of \(entry.compressedSize) bytes declares \(entry.uncompressedSize)")
      }
      out = Array(raw)
    case 8:
      do {
        out = try Inflate.decompress(
          raw, expectedSize: entry.uncompressedSize, limit: entry.uncompressedSize)
      } catch {
        throw fail(
          "corrupt deflate data: \(error.message) (declared size \(entry.uncompressedSize))")
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
  /// - Throws: `RecordingError` when the entry is corrupt.
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
