import Foundation

/// A fresh, empty scratch folder under the temporary directory, named
/// `swell-<tag>-<random number>`; the caller removes it (`defer { try? ...removeItem(at:) }`).
///
/// - Parameter tag: A word naming the suite or test, part of the folder name.
/// - Returns: The folder's URL.
/// - Throws: An error creating it.
public func scratchFolder(_ tag: String) throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "swell-\(tag)-\(UInt64.random(in: 0...UInt64.max))")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
