import SwellGeometry

/// A problem in SVG path data: what is wrong and where (1-based character position).
public struct SVGPathDataError: Error, CustomStringConvertible, Sendable {
  /// The one-line reason, with the character position.
  public var description: String
}

/// SVG path data (`d` attribute) to and from ``SwellGeometry/Path``, for `path` shapes in scene
/// files.
///
/// Reads the commands M, L, H, V, C, Q and Z (upper case absolute, lower case relative; repeated
/// coordinate pairs after M are lines, as in SVG; a quadratic Q becomes the equivalent cubic).
/// Writes M, L, C and Z with absolute coordinates, numbers in their shortest exact form, so a
/// path read back is the same path.
public enum SVGPathData {
  /// Parses path data.
  ///
  /// - Parameter text: The path data, such as `M 0 0 L 10 0 L 10 10 Z`.
  /// - Returns: The path, points.
  /// - Throws: ``SVGPathDataError`` naming the character position of the problem.
  public static func parse(_ text: String) throws(SVGPathDataError) -> Path {
    var scanner = Scanner(Array(text.utf8))
    var path = Path()
    var current = Point(x: 0, y: 0)
    var start = Point(x: 0, y: 0)
    var command: UInt8?
    while true {
      scanner.skipSeparators()
      guard let c = scanner.peek else { break }
      if Self.commands.contains(c) {
        command = c
        scanner.index += 1
      } else if command == nil || !scanner.startsNumber {
        throw scanner.error("unexpected '\(Character(UnicodeScalar(c)))'")
      }
      guard let cmd = command else { break }
      if path.isEmpty && cmd | 0x20 != UInt8(ascii: "m") {
        throw scanner.error("path data must start with M")
      }
      let relative = cmd >= UInt8(ascii: "a")
      func point() throws(SVGPathDataError) -> Point {
        let x = try scanner.number()
        let y = try scanner.number()
        return relative ? Point(x: current.x + x, y: current.y + y) : Point(x: x, y: y)
      }
      switch cmd | 0x20 {
      case UInt8(ascii: "m"):
        current = try point()
        start = current
        path.move(to: current)
        // Further pairs after a move are lines.
        command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")
      case UInt8(ascii: "l"):
        current = try point()
        path.line(to: current)
      case UInt8(ascii: "h"):
        let x = try scanner.number()
        current = Point(x: relative ? current.x + x : x, y: current.y)
        path.line(to: current)
      case UInt8(ascii: "v"):
        let y = try scanner.number()
        current = Point(x: current.x, y: relative ? current.y + y : y)
        path.line(to: current)
      case UInt8(ascii: "c"):
        let c1 = try point()
        let c2 = try point()
        let end = try point()
        path.curve(to: end, control1: c1, control2: c2)
        current = end
      case UInt8(ascii: "q"):
        let q = try point()
        let end = try point()
        let c1 = Point(
          x: current.x + 2 / 3 * (q.x - current.x), y: current.y + 2 / 3 * (q.y - current.y))
        let c2 = Point(x: end.x + 2 / 3 * (q.x - end.x), y: end.y + 2 / 3 * (q.y - end.y))
        path.curve(to: end, control1: c1, control2: c2)
        current = end
      default:  // z
        path.close()
        current = start
        command = nil
      }
    }
    return path
  }

  /// Formats a path as path data with absolute M, L, C and Z commands.
  ///
  /// - Parameter path: The path, points.
  /// - Returns: The path data.
  public static func format(_ path: Path) -> String {
    var parts: [String] = []
    func n(_ v: Double) -> String {
      guard v.isFinite else { return "0" }
      if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
      return "\(v)"
    }
    func p(_ pt: Point) -> String { "\(n(pt.x)) \(n(pt.y))" }
    for e in path.elements {
      switch e {
      case .move(let to): parts.append("M \(p(to))")
      case .line(let to): parts.append("L \(p(to))")
      case .curve(let to, let c1, let c2): parts.append("C \(p(c1)) \(p(c2)) \(p(to))")
      case .close: parts.append("Z")
      }
    }
    return parts.joined(separator: " ")
  }

  private static let commands: Set<UInt8> = Set("MmLlHhVvCcQqZz".utf8)

  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    var startsNumber: Bool {
      guard let c = peek else { return false }
      return (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-")
        || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
    }

    mutating func skipSeparators() {
      while let c = peek, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x2C {
        index += 1
      }
    }

    func error(_ why: String) -> SVGPathDataError {
      SVGPathDataError(description: "\(why) at character \(index + 1) of the path data")
    }

    mutating func number() throws(SVGPathDataError) -> Double {
      skipSeparators()
      let begin = index
      if let c = peek, c == UInt8(ascii: "-") || c == UInt8(ascii: "+") { index += 1 }
      var digits = 0
      var seenDot = false
      var seenExponent = false
      while let c = peek {
        if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
          digits += 1
        } else if c == UInt8(ascii: "."), !seenDot, !seenExponent {
          seenDot = true
        } else if c | 0x20 == UInt8(ascii: "e"), digits > 0, !seenExponent {
          seenExponent = true
          if index + 1 < bytes.count,
            bytes[index + 1] == UInt8(ascii: "-") || bytes[index + 1] == UInt8(ascii: "+")
          {
            index += 1
          }
        } else {
          break
        }
        index += 1
      }
      let text = String(decoding: bytes[begin..<index], as: UTF8.self)
      guard digits > 0, let v = Double(text), v.isFinite else {
        index = begin
        throw error(peek == nil ? "a number is missing" : "expected a number")
      }
      return v
    }
  }
}
