import Foundation
import SwellMotion

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a delimited text file record by record without holding the whole file: the file is
/// read in blocks of about ``blockSize`` bytes, each cut after its last line break and scanned
/// by a ``CSVScanner`` whose line numbers continue from the block before.
///
/// Memory stays at about one block whatever the file's size (a line longer than a block grows
/// the block to hold it, up to ``maximumLineLength``).
struct CSVFileReader {
  /// The block size, bytes (1 MiB).
  static let blockSize = 1 << 20
  /// The longest line accepted, bytes (16 MiB): a longer one is an error, not an allocation.
  static let maximumLineLength = 16 << 20

  /// The scanner over the current block; the line returned by ``nextRecord(comment:)`` belongs
  /// to it.
  private(set) var scanner: CSVScanner
  private let handle: FileHandle
  private let fileName: String
  private var carry: [UInt8] = []
  private var atEnd = false

  /// Opens a file.
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - fileName: The name used in errors.
  /// - Throws: `RecordingError` when the file cannot be opened.
  init(url: URL, fileName: String) throws(RecordingError) {
    var info = stat()
    guard stat(url.path, &info) == 0 else {
      throw RecordingError(file: url.path, message: "no such file")
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw RecordingError(file: url.path, message: "not a regular file")
    }
    do {
      handle = try FileHandle(forReadingFrom: url)
    } catch {
      throw RecordingError(file: url.path, message: "cannot read (\(error.localizedDescription))")
    }
    self.fileName = fileName
    scanner = CSVScanner(bytes: [], fileName: fileName)
  }

  /// The delimiter, kept across blocks.
  var delimiter: UInt8 {
    get { scanner.delimiter }
    set { scanner.delimiter = newValue }
  }

  /// The next record (neither blank nor a comment) and the scanner it belongs to, or `nil` at
  /// the end of the file; comment lines go to `comment`.
  ///
  /// - Parameter comment: Receives each comment line's number and text (without the `#`).
  /// - Returns: The line, valid for ``scanner``.
  /// - Throws: `RecordingError` when the file cannot be read or a line is too long.
  mutating func nextRecord(comment: (Int, String) -> Void = { _, _ in }) throws(RecordingError)
    -> CSVScanner.Line?
  {
    while true {
      if let line = scanner.nextRecord(comment: comment) { return line }
      guard try loadBlock() else { return nil }
    }
  }

  /// Replaces the scanner with one over the next block of whole lines.
  ///
  /// - Returns: False at the end of the file.
  private mutating func loadBlock() throws(RecordingError) -> Bool {
    guard !atEnd || !carry.isEmpty else { return false }
    var block = carry
    carry = []
    while !atEnd {
      let data: Data
      do {
        data = try handle.read(upToCount: Self.blockSize) ?? Data()
      } catch {
        throw RecordingError(file: fileName, message: "cannot read (\(error.localizedDescription))")
      }
      if data.isEmpty {
        atEnd = true
        try? handle.close()
        break
      }
      block.append(contentsOf: data)
      if let lastBreak = block.lastIndex(of: 0x0A) {
        carry = Array(block[(lastBreak + 1)...])
        block.removeSubrange((lastBreak + 1)...)
        break
      }
      guard block.count <= Self.maximumLineLength else {
        throw RecordingError(
          file: fileName, line: scanner.linesRead + 1,
          message: "a line longer than \(Self.maximumLineLength >> 20) MiB")
      }
    }
    if block.isEmpty { return false }
    let delimiter = scanner.delimiter
    scanner = CSVScanner(bytes: block, fileName: fileName, linesBefore: scanner.linesRead)
    scanner.delimiter = delimiter
    return true
  }
}
