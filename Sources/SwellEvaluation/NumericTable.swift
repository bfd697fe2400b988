import Foundation
import SwellMotion

/// An error reading a numeric CSV file: names the file, the line (1-based) and the column.
public struct NumericTableError: Error, CustomStringConvertible, Sendable, Hashable {
  /// The file's name or path as given.
  public var file: String
  /// The 1-based line number, or 0 for the file as a whole.
  public var line: Int
  /// The column name, or empty when the error is not about one column.
  public var column: String
  /// What is wrong.
  public var reason: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - file: The file's name or path.
  ///   - line: The 1-based line, or 0.
  ///   - column: The column name, or empty.
  ///   - reason: What is wrong.
  public init(file: String, line: Int, column: String = "", reason: String) {
    self.file = file
    self.line = line
    self.column = column
    self.reason = reason
  }

  /// One line: `FILE:LINE: column 'NAME': REASON`.
  public var description: String {
    var s = file
    if line > 0 { s += ":\(line)" }
    s += ": "
    if !column.isEmpty { s += "column '\(column)': " }
    return s + reason
  }
}

/// A CSV file of numbers read column-wise: a header row, comma-separated values, `#` comment
/// lines skipped, empty fields and `nan` read as NaN. Parsing works on bytes (no per-line
/// strings), fast enough for recordings of millions of rows.
public struct NumericTable: Sendable {
  /// The column names of the header, in file order.
  public var header: [String]
  /// The values, one array per requested column, in the order requested.
  public var columns: [[Double]]
  /// The 1-based file line of each row.
  public var lines: [Int]
  /// The comment lines (without the leading `#` and surrounding spaces) in file order.
  public var comments: [String]

  /// The number of data rows.
  public var rowCount: Int { lines.count }

  /// Reads a file.
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - required: Column names that must be present; their values are returned in this order.
  ///   - optional: Column names read when present (NaN-filled when absent), appended after the
  ///     required ones.
  /// - Throws: ``NumericTableError`` for an unreadable file, a missing column, a short row or a
  ///   malformed number (naming line and column).
  public init(contentsOf url: URL, required: [String], optional: [String] = []) throws {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw NumericTableError(file: url.path, line: 0, reason: "cannot read the file")
    }
    try self.init(data: data, name: url.path, required: required, optional: optional)
  }

  /// Parses file contents.
  ///
  /// - Parameters:
  ///   - data: The bytes of the file.
  ///   - name: The file name used in error messages.
  ///   - required: Column names that must be present.
  ///   - optional: Column names read when present.
  /// - Throws: ``NumericTableError`` as ``init(contentsOf:required:optional:)``.
  public init(data: Data, name: String, required: [String], optional: [String] = []) throws {
    var bytes = [UInt8](data)
    bytes.append(0)
    var header: [String] = []
    var comments: [String] = []
    var columns: [[Double]] = Array(repeating: [], count: required.count + optional.count)
    var lines: [Int] = []
    var map: [Int] = []  // file column → output column (or −1)
    var wanted = required + optional
    let count = bytes.count - 1
    try bytes.withUnsafeMutableBufferPointer { buf in
      guard let base = buf.baseAddress else { return }
      var pos = 0
      var lineNo = 0
      var row = [Double](repeating: .nan, count: wanted.count)
      while pos < count {
        lineNo += 1
        var end = pos
        while end < count && buf[end] != 10 { end += 1 }
        var lineEnd = end
        if lineEnd > pos && buf[lineEnd - 1] == 13 { lineEnd -= 1 }
        defer { pos = end + 1 }
        if lineEnd == pos { continue }
        if buf[pos] == 35 {  // '#'
          let text = String(
            decoding: UnsafeBufferPointer(start: base + pos + 1, count: lineEnd - pos - 1),
            as: UTF8.self)
          comments.append(text.trimmingCharacters(in: .whitespaces))
          continue
        }
        if header.isEmpty {
          let text = String(
            decoding: UnsafeBufferPointer(start: base + pos, count: lineEnd - pos), as: UTF8.self)
          header = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
          }
          for r in required where !header.contains(r) {
            throw NumericTableError(
              file: name, line: lineNo,
              reason: "missing column '\(r)' in the header" + Self.kindHint(header: header))
          }
          map = header.map { h in wanted.firstIndex(of: h) ?? -1 }
          // Optional columns that are absent stay NaN.
          wanted = wanted.map { header.contains($0) ? $0 : "" }
          continue
        }
        // A data row.
        for i in 0..<row.count { row[i] = .nan }
        var field = 0
        var p = pos
        while true {
          var q = p
          while q < lineEnd && buf[q] != 44 { q += 1 }
          if field < map.count, map[field] >= 0 {
            var a = p
            var b = q
            while a < b && (buf[a] == 32 || buf[a] == 9) { a += 1 }
            while b > a && (buf[b - 1] == 32 || buf[b - 1] == 9) { b -= 1 }
            if b > a {
              let saved = buf[b]
              buf[b] = 0
              var endPtr: UnsafeMutablePointer<CChar>?
              let v = (base + a).withMemoryRebound(to: CChar.self, capacity: b - a + 1) { s in
                strtod(s, &endPtr)
              }
              let consumed =
                endPtr.map { UnsafeMutableRawPointer($0) - UnsafeMutableRawPointer(base + a) } ?? 0
              buf[b] = saved
              if consumed != b - a {
                let text = String(
                  decoding: UnsafeBufferPointer(start: base + a, count: b - a), as: UTF8.self)
                throw NumericTableError(
                  file: name, line: lineNo, column: header[field],
                  reason: "malformed number '\(text)'")
              }
              row[map[field]] = v
            }
          }
          field += 1
          if q >= lineEnd { break }
          p = q + 1
        }
        if field < header.count {
          let missing = map[field...].firstIndex { $0 >= 0 && $0 < required.count }
          if let missing {
            throw NumericTableError(
              file: name, line: lineNo, column: header[missing],
              reason: "row has \(field) fields, the header \(header.count)")
          }
        }
        for i in 0..<row.count { columns[i].append(row[i]) }
        lines.append(lineNo)
      }
    }
    if header.isEmpty {
      throw NumericTableError(file: name, line: 0, reason: "no header row")
    }
    self.header = header
    self.columns = columns
    self.lines = lines
    self.comments = comments
  }
}

extension NumericTable {
  /// What a table with the wrong columns is, when its header says (a device-motion CSV, a raw
  /// IMU recording), as a suffix for the missing-column message; empty otherwise.
  ///
  /// - Parameter header: The header's column names.
  /// - Returns: `"; this is a device-motion CSV ..."`, or `""`.
  static func kindHint(header: [String]) -> String {
    let has = Set(header)
    if has.isSuperset(of: ["time", "attitude.w", "attitude.x", "gravity.x"]) {
      return "; this is a device-motion CSV (an estimate, as swell fuse writes), not a BROAD trial "
        + "with its ground truth (t_s, gyroscope, accelerometer, magnetometer, qw, qx, qy, qz, "
        + "movement)"
    }
    if has.isSuperset(of: ["t_s", "gx", "ax"]) && !has.contains("qw") {
      return "; this is a raw IMU recording without ground truth, not a BROAD trial"
    }
    return ""
  }
}
