import CZlib
import SwellCairo

/// Encodes Cairo's ARGB32 frames as PNG images through zlib, for speed: one row filter for every
/// row and a low zlib level, where Cairo's writer (libpng's defaults) tries five filters on every
/// row and compresses at level 6.
///
/// The image holds what `cairo_surface_write_to_png` writes, so a decoder returns the same
/// pixels: an opaque frame (every alpha 255) becomes 8-bit RGB, any other 8-bit RGBA with the
/// premultiplied colours divided by alpha and rounded as Cairo rounds them (`(c·255 + a/2) / a`;
/// a transparent pixel is 0, 0, 0, 0), and the same white `bKGD` chunk. Only the compressed
/// bytes differ.
///
/// A value: encoding keeps no state between frames, so each thread may encode its own frames.
struct PNGEncoder: Sendable {
  /// The filter applied to every row (PNG filter method 0, ISO/IEC 15948 §9.2).
  enum RowFilter: UInt8, Sendable {
    /// The bytes as they are (filter type 0).
    case none = 0
    /// Each byte minus the byte of the pixel to its left (filter type 1).
    case sub = 1
    /// Each byte minus the byte above it (filter type 2).
    case up = 2
  }

  /// Why a frame could not be encoded.
  struct Failure: Error, Hashable, Sendable {
    /// What went wrong, in words.
    var reason: String
  }

  /// The zlib compression level, 1 (fastest) ... 9 (smallest).
  var compressionLevel: Int32
  /// The row filter.
  var filter: RowFilter
  /// The zlib strategy (`Z_DEFAULT_STRATEGY`, `Z_FILTERED`, `Z_RLE`).
  var strategy: Int32

  /// The settings PNG sequences are written with: the `sub` filter and zlib's run-length
  /// strategy (level 1). Measured on 1170×2532 frames (docs/rendering-cli.md), zlib takes about
  /// as long with these as at level 1 with any filter (15-30 ms a frame, against 46-86 ms at
  /// level 6), and the files stay within 1.15× of Cairo's writer's (35 against 31 KB for a
  /// `waterwave` frame, 179 against 157 KB for `homescreen`), where `up` at level 1 doubles the
  /// `waterwave` frame and `up` with run-length encoding triples the `homescreen` frame.
  static let fast = PNGEncoder(compressionLevel: 1, filter: .sub, strategy: Z_RLE)

  /// The most compressed bytes in one `IDAT` chunk (any size up to 2³¹ − 1 is valid).
  private static let chunkLimit = 1 << 20

  /// Encodes one frame.
  ///
  /// - Parameter frame: The pixels (premultiplied native-endian ARGB32, as Cairo holds them).
  /// - Returns: The PNG file's bytes.
  /// - Throws: ``Failure`` when zlib fails (out of memory) or the frame is inconsistent.
  func encode(_ frame: FramePixels) throws(Failure) -> [UInt8] {
    guard frame.isConsistent, frame.pixelWidth > 0, frame.pixelHeight > 0,
      let source = frame.bytes.baseAddress
    else {
      throw Failure(reason: "inconsistent frame of \(frame.pixelWidth)×\(frame.pixelHeight)")
    }
    let width = frame.pixelWidth
    let height = frame.pixelHeight
    let opaque = Self.isOpaque(frame)
    let channels = opaque ? 3 : 4
    let rowBytes = width * channels
    // Two unfiltered rows (this one and the one above) and the filtered line: filter byte, row.
    let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * 3 + 1)
    defer { rows.deallocate() }
    var previous = rows
    var current = rows + rowBytes
    let line = rows + 2 * rowBytes
    previous.initialize(repeating: 0, count: rowBytes)
    let compressor = try Compressor(level: compressionLevel, strategy: strategy)
    for y in 0..<height {
      let pixels = (source + y * frame.bytesPerRow).assumingMemoryBound(to: UInt32.self)
      if opaque {
        Self.convertOpaque(pixels, count: width, into: current)
      } else {
        Self.convertUnpremultiplying(pixels, count: width, into: current)
      }
      line[0] = filter.rawValue
      Self.apply(
        filter, row: current, previous: previous, bytes: rowBytes, channels: channels,
        into: line + 1)
      try compressor.add(line, count: rowBytes + 1, last: y == height - 1)
      swap(&previous, &current)
    }
    return Self.file(
      width: width, height: height, colorType: opaque ? 2 : 6, compressed: compressor.output)
  }

  /// True when every pixel's alpha is 255 (Cairo then writes RGB, not RGBA).
  private static func isOpaque(_ frame: FramePixels) -> Bool {
    guard let source = frame.bytes.baseAddress else { return false }
    for y in 0..<frame.pixelHeight {
      let pixels = (source + y * frame.bytesPerRow).assumingMemoryBound(to: UInt32.self)
      var all: UInt32 = 0xFF00_0000
      for x in 0..<frame.pixelWidth { all &= pixels[x] }
      if all & 0xFF00_0000 != 0xFF00_0000 { return false }
    }
    return true
  }

  /// Native-endian `0xAARRGGBB` words to R, G, B bytes (alpha 255: nothing to divide).
  private static func convertOpaque(
    _ pixels: UnsafePointer<UInt32>, count: Int, into row: UnsafeMutablePointer<UInt8>
  ) {
    var out = row
    for x in 0..<count {
      let p = pixels[x]
      out[0] = UInt8(truncatingIfNeeded: p >> 16)
      out[1] = UInt8(truncatingIfNeeded: p >> 8)
      out[2] = UInt8(truncatingIfNeeded: p)
      out += 3
    }
  }

  /// Premultiplied `0xAARRGGBB` words to straight R, G, B, A bytes, rounded as Cairo's
  /// `unpremultiply_data` rounds (`(c·255 + a/2) / a`, kept to 8 bits as C's assignment does).
  private static func convertUnpremultiplying(
    _ pixels: UnsafePointer<UInt32>, count: Int, into row: UnsafeMutablePointer<UInt8>
  ) {
    var out = row
    for x in 0..<count {
      let p = pixels[x]
      let alpha = p >> 24
      if alpha == 0 {
        out[0] = 0
        out[1] = 0
        out[2] = 0
        out[3] = 0
      } else if alpha == 255 {
        out[0] = UInt8(truncatingIfNeeded: p >> 16)
        out[1] = UInt8(truncatingIfNeeded: p >> 8)
        out[2] = UInt8(truncatingIfNeeded: p)
        out[3] = 255
      } else {
        let half = alpha / 2
        out[0] = UInt8(truncatingIfNeeded: (((p >> 16) & 0xFF) * 255 + half) / alpha)
        out[1] = UInt8(truncatingIfNeeded: (((p >> 8) & 0xFF) * 255 + half) / alpha)
        out[2] = UInt8(truncatingIfNeeded: ((p & 0xFF) * 255 + half) / alpha)
        out[3] = UInt8(truncatingIfNeeded: alpha)
      }
      out += 4
    }
  }

  /// Filters one row (`previous` is the unfiltered row above, zeros for the first).
  private static func apply(
    _ filter: RowFilter, row: UnsafeMutablePointer<UInt8>, previous: UnsafeMutablePointer<UInt8>,
    bytes: Int, channels: Int, into out: UnsafeMutablePointer<UInt8>
  ) {
    switch filter {
    case .none:
      out.update(from: row, count: bytes)
    case .sub:
      for i in 0..<channels { out[i] = row[i] }
      for i in channels..<bytes { out[i] = row[i] &- row[i - channels] }
    case .up:
      for i in 0..<bytes { out[i] = row[i] &- previous[i] }
    }
  }

  /// A zlib stream being written (owns zlib's state: a class for its lifetime), its output
  /// growing in steps of up to 256 KiB.
  private final class Compressor {
    private var stream = z_stream()
    private(set) var output: [UInt8] = []
    private let chunkSize = 1 << 18
    private let chunk: UnsafeMutablePointer<UInt8>

    init(level: Int32, strategy: Int32) throws(Failure) {
      chunk = .allocate(capacity: chunkSize)
      let status = deflateInit2_(
        &stream, level, Z_DEFLATED, 15, 8, strategy, ZLIB_VERSION,
        Int32(MemoryLayout<z_stream>.size))
      guard status == Z_OK else {
        chunk.deallocate()
        throw Failure(reason: "zlib cannot start (status \(status))")
      }
    }

    deinit {
      deflateEnd(&stream)
      chunk.deallocate()
    }

    /// Compresses `count` bytes (a row is far below zlib's 32-bit counts); `last` ends the
    /// stream.
    func add(_ bytes: UnsafeMutablePointer<UInt8>, count: Int, last: Bool) throws(Failure) {
      stream.next_in = bytes
      stream.avail_in = UInt32(count)
      let flush = last ? Z_FINISH : Z_NO_FLUSH
      while true {
        stream.next_out = chunk
        stream.avail_out = UInt32(chunkSize)
        let result = deflate(&stream, flush)
        let produced = chunkSize - Int(stream.avail_out)
        if produced > 0 {
          output.append(contentsOf: UnsafeBufferPointer(start: chunk, count: produced))
        }
        if result == Z_STREAM_END { return }
        guard result == Z_OK || result == Z_BUF_ERROR else {
          throw Failure(reason: "zlib could not compress the frame (status \(result))")
        }
        // Done with this input once zlib took all of it and left room in the output.
        if !last, stream.avail_in == 0, stream.avail_out > 0 { return }
      }
    }
  }

  /// The file: signature, `IHDR`, the `IDAT` chunks, `IEND`.
  private static func file(width: Int, height: Int, colorType: UInt8, compressed: [UInt8])
    -> [UInt8]
  {
    var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    out.reserveCapacity(compressed.count + 64 + 12 * (compressed.count / chunkLimit + 1))
    var header: [UInt8] = []
    appendBigEndian(UInt32(width), to: &header)
    appendBigEndian(UInt32(height), to: &header)
    // Bit depth 8, the colour type, deflate, filter method 0, no interlacing.
    header += [8, colorType, 0, 0, 0]
    compressed.withUnsafeBufferPointer { data in
      header.withUnsafeBufferPointer { appendChunk("IHDR", $0, to: &out) }
      // White, 16 bits a channel, as Cairo writes it (`png_set_bKGD`).
      let white: [UInt8] = [0, 0xFF, 0, 0xFF, 0, 0xFF]
      white.withUnsafeBufferPointer { appendChunk("bKGD", $0, to: &out) }
      var start = 0
      repeat {
        let end = min(start + chunkLimit, data.count)
        appendChunk("IDAT", UnsafeBufferPointer(rebasing: data[start..<end]), to: &out)
        start = end
      } while start < data.count
      appendChunk("IEND", UnsafeBufferPointer(start: nil, count: 0), to: &out)
    }
    return out
  }

  private static func appendBigEndian(_ value: UInt32, to out: inout [UInt8]) {
    out += [
      UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
      UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
    ]
  }

  /// Appends a chunk: length, type, data, and the CRC-32 of type and data.
  private static func appendChunk(
    _ type: String, _ data: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]
  ) {
    let typeBytes = Array(type.utf8)
    appendBigEndian(UInt32(data.count), to: &out)
    out += typeBytes
    out.append(contentsOf: data)
    var crc = typeBytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }
    if let base = data.baseAddress, !data.isEmpty {
      crc = crc32(crc, base, UInt32(data.count))
    }
    appendBigEndian(UInt32(truncatingIfNeeded: crc), to: &out)
  }
}
