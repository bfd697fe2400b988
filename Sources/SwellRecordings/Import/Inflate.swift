import CZlib
import SwellMotion

/// Raw DEFLATE decoding (RFC 1951) and CRC-32, through zlib (`inflate`, `crc32`).
///
/// Decoding is bounded: the output never grows past a limit given by the caller, and the limit
/// is checked while inflating (zlib writes into a buffer that is never larger than the limit),
/// so a small stream that expands to gigabytes stops after `limit + 1` bytes.
enum Inflate {
  /// A malformed stream, or one that expands past its limit.
  struct Failure: Error {
    /// What is wrong.
    var message: String
  }

  /// Decompresses a raw DEFLATE stream.
  ///
  /// - Parameters:
  ///   - input: The compressed bytes.
  ///   - expectedSize: The size to reserve for the output, bytes (a hint, capped by `limit`).
  ///   - limit: The most bytes the output may have (default 1 GiB); a stream that decodes to
  ///     more fails as soon as it passes the limit.
  /// - Returns: The decompressed bytes.
  /// - Throws: ``Failure`` for a malformed or truncated stream, or one longer than `limit`.
  static func decompress(
    _ input: some Collection<UInt8>, expectedSize: Int = 0, limit: Int = 1 << 30
  ) throws(Failure) -> [UInt8] {
    let source = Array(input)
    var stream = z_stream()
    let initialised = inflateInit2_(
      &stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard initialised == Z_OK else {
      throw Failure(message: "zlib could not start (\(initialised))")
    }
    defer { inflateEnd(&stream) }
    // Room for one byte past the limit, so "longer than the limit" is seen, not silently cut.
    let ceiling = limit + 1
    var capacity = min(ceiling, max(64, min(expectedSize, 1 << 26) + 1))
    var out = [UInt8](repeating: 0, count: capacity)
    var produced = 0
    var status: Int32 = Z_OK
    source.withUnsafeBufferPointer { src in
      stream.next_in = UnsafeMutablePointer(mutating: src.baseAddress)
      stream.avail_in = UInt32(src.count)
      while true {
        if produced == capacity {
          guard capacity < ceiling else { break }
          capacity = min(ceiling, capacity * 2)
          out.append(contentsOf: repeatElement(0, count: capacity - out.count))
        }
        let room = min(capacity - produced, Int(UInt32.max))
        out.withUnsafeMutableBufferPointer { dst in
          stream.next_out = dst.baseAddress.map { $0 + produced }
          stream.avail_out = UInt32(room)
          status = inflate(&stream, Z_NO_FLUSH)
          produced += room - Int(stream.avail_out)
        }
        if status != Z_OK { break }
        if stream.avail_in == 0 && stream.avail_out > 0 { break }
      }
    }
    if produced > limit {
      throw Failure(message: "expands past \(limit) bytes")
    }
    switch status {
    case Z_STREAM_END:
      return Array(out[0..<produced])
    case Z_OK, Z_BUF_ERROR:
      throw Failure(message: "unexpected end of data")
    default:
      let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
      throw Failure(message: UntrustedText.clipped(reason))
    }
  }
}

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as zip uses it, through zlib's `crc32`.
enum CRC32 {
  /// The CRC-32 of some bytes.
  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt = crc32(0, nil, 0)
    bytes.withUnsafeBufferPointer { b in
      var base = b.baseAddress
      var left = b.count
      while left > 0, let p = base {
        let n = min(left, 1 << 30)
        crc = crc32(crc, p, UInt32(n))
        base = p + n
        left -= n
      }
    }
    return UInt32(truncatingIfNeeded: crc)
  }
}
