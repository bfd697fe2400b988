import Foundation

/// Checks that a video file ffmpeg finished is complete, by its structure: ffmpeg can exit with
/// status 0 after "Error writing trailer" (a full disk), leaving an MP4 without its `moov` atom
/// that no player opens.
///
/// - MP4: the top-level boxes (ISO/IEC 14496-12: 32-bit big-endian size, 4-character type; size
///   1 means a 64-bit size follows, 0 means "to the end") chain exactly to the end of the file,
///   and there is a `moov` box.
/// - GIF: `GIF87a`/`GIF89a` at the start and the trailer byte 0x3B at the end.
/// - WebP: `RIFF`, a size equal to the file's length minus 8, then `WEBP`.
/// - APNG: the PNG signature at the start and an `IEND` chunk at the end.
enum VideoFileCheck {
  /// The problem with a finished file, or `nil` when it is complete.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - format: Its format.
  /// - Returns: A short reason, or `nil`.
  static func problem(at path: String, format: OutputFormat) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return "cannot read it back" }
    defer { try? handle.close() }
    guard let size = try? handle.seekToEnd(), size > 0 else { return "it is empty" }
    func read(_ offset: UInt64, _ count: Int) -> [UInt8]? {
      guard (try? handle.seek(toOffset: offset)) != nil,
        let data = try? handle.read(upToCount: count), data.count == count
      else { return nil }
      return [UInt8](data)
    }
    func bigEndian(_ b: ArraySlice<UInt8>) -> UInt64 { b.reduce(0) { $0 << 8 | UInt64($1) } }
    switch format {
    case .mp4:
      var offset: UInt64 = 0
      var hasMovie = false
      while offset < size {
        guard let header = read(offset, 8) else { return "a box is cut off at byte \(offset)" }
        var length = bigEndian(header[0..<4])
        let type = String(decoding: header[4..<8], as: UTF8.self)
        if length == 1 {
          guard let large = read(offset + 8, 8) else { return "a box is cut off" }
          length = bigEndian(large[0..<8])
        } else if length == 0 {
          length = size - offset
        }
        guard length >= 8, length <= size - offset else {
          return "the '\(type)' box at byte \(offset) runs past the end of the file"
        }
        if type == "moov" { hasMovie = true }
        offset += length
      }
      return hasMovie ? nil : "it has no 'moov' box (the encoder could not write the trailer)"
    case .gif:
      guard let head = read(0, 6), String(decoding: head, as: UTF8.self).hasPrefix("GIF8"),
        let tail = read(size - 1, 1), tail == [0x3B]
      else { return "it does not end with the GIF trailer" }
      return nil
    case .webp:
      guard let head = read(0, 12), String(decoding: head[0..<4], as: UTF8.self) == "RIFF",
        String(decoding: head[8..<12], as: UTF8.self) == "WEBP"
      else { return "it is not a RIFF WebP file" }
      let riff = head[4..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return riff + 8 == size ? nil : "its RIFF size does not match its length (cut off)"
    case .apng:
      let end: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
      guard size >= 20, let head = read(0, 8),
        head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
        let tail = read(size - 12, 12), tail == end
      else { return "it does not end with the PNG IEND chunk" }
      return nil
    case .png, .pngSequence, .svg, .pdf:
      return nil
    }
  }
}
