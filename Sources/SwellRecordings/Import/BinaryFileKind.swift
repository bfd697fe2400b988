/// What a file that is not text is, from its first bytes (its "magic number"), so that a video,
/// an image or an archive given as a recording is named instead of read as CSV.
///
/// Only signatures that a CSV or text file cannot start with are used; a file with none of them
/// but a NUL byte in its first 512 bytes is "a binary file".
enum BinaryFileKind {
  /// The number of leading bytes ``describe(_:)`` looks at.
  static let prefixLength = 512

  /// Names the kind of binary file the bytes start, or `nil` for text.
  ///
  /// - Parameter data: The file's first bytes (at least the first ``prefixLength`` when the
  ///   file is that long).
  /// - Returns: A phrase such as `an MP4/QuickTime video` or `a PNG image`, or `nil`.
  static func describe<Bytes: Collection<UInt8>>(_ data: Bytes) -> String? {
    let b = Array(data.prefix(prefixLength))
    func starts(_ s: [UInt8], at offset: Int = 0) -> Bool {
      b.count >= offset + s.count && Array(b[offset..<(offset + s.count)]) == s
    }
    func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }
    if starts(ascii("ftyp"), at: 4) {
      let brand = b.count >= 12 ? String(decoding: b[8..<12], as: UTF8.self) : ""
      if ["heic", "heix", "mif1", "msf1", "avif"].contains(brand) { return "a HEIF/AVIF image" }
      if brand.hasPrefix("M4A") { return "an MPEG-4 audio file" }
      return "an MP4/QuickTime video"
    }
    for atom in ["moov", "mdat", "wide", "free", "skip"] where starts(ascii(atom), at: 4) {
      if b.count >= 4, b[0] == 0 { return "a QuickTime video" }
    }
    if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "a Matroska/WebM video" }
    if starts(ascii("RIFF")) {
      if starts(ascii("AVI "), at: 8) { return "an AVI video" }
      if starts(ascii("WAVE"), at: 8) { return "a WAV audio file" }
      if starts(ascii("WEBP"), at: 8) { return "a WebP image" }
      return "a RIFF file"
    }
    let signatures: [([UInt8], String)] = [
      ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG image"),
      ([0xFF, 0xD8, 0xFF], "a JPEG image"),
      (ascii("GIF87a"), "a GIF image"),
      (ascii("GIF89a"), "a GIF image"),
      (ascii("%PDF-"), "a PDF document"),
      ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive"),
      ([0x50, 0x4B, 0x05, 0x06], "a ZIP archive"),
      ([0x1F, 0x8B], "a gzip-compressed file"),
      (ascii("BZh"), "a bzip2-compressed file"),
      ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "an xz-compressed file"),
      ([0x28, 0xB5, 0x2F, 0xFD], "a Zstandard-compressed file"),
      ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "a 7-Zip archive"),
      (ascii("Rar!\u{1A}\u{07}"), "a RAR archive"),
      (ascii("OggS"), "an Ogg audio/video file"),
      (ascii("fLaC"), "a FLAC audio file"),
      (ascii("ID3"), "an MP3 audio file"),
      ([0x7F, 0x45, 0x4C, 0x46], "an ELF executable"),
      (ascii("SQLite format 3\u{0}"), "an SQLite database"),
      ([0x49, 0x49, 0x2A, 0x00], "a TIFF image"),
      ([0x4D, 0x4D, 0x00, 0x2A], "a TIFF image"),
    ]
    for (signature, kind) in signatures where starts(signature) { return kind }
    if starts(ascii("ustar"), at: 257) { return "a tar archive" }
    if b.contains(0) { return "a binary file" }
    return nil
  }

  /// The message for a binary file given where a recording was expected.
  ///
  /// - Parameter kind: The phrase from ``describe(_:)``.
  /// - Returns: One line saying what the file is and what a recording is.
  static func message(_ kind: String) -> String {
    "this is \(kind), not a motion recording; expected a raw IMU CSV, a device-motion CSV, "
      + "a phyphox CSV, an evemu recording, or a Sensor Logger folder or .zip"
  }
}
