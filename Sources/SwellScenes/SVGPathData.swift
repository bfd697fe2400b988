import Foundation
import SwellGeometry

/// A problem in SVG path data: what is wrong and where (1-based character position).
public struct SVGPathDataError: Error, CustomStringConvertible, Sendable {
  /// The one-line reason, with the character position.
  public var description: String
}

/// SVG path data (`d` attribute) to and from `SwellGeometry/Path`, for `path` shapes in scene
/// files.
///
/// Reads the commands M, L, H, V, C, Q, A and Z (upper case absolute, lower case relative;
/// repeated coordinate pairs after M are lines, as in SVG; a quadratic Q becomes the equivalent
/// cubic; an elliptical arc A becomes cubics of at most 90° each, by the SVG 1.1 endpoint-to-centre
/// conversion, W3C SVG 1.1 Appendix F.6.5–F.6.6). Writes M, L, C and Z with absolute coordinates,
/// numbers in their shortest exact form, so a path read back is the same path.
///
/// Parsing stops with an error past `SceneLimits.maximumPathPoints` path elements.
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
      guard path.elements.count <= SceneLimits.maximumPathPoints else {
        throw scanner.error(
          "more than \(SceneLimits.maximumPathPoints) path elements (the limit per shape)")
      }
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
      case UInt8(ascii: "a"):
        let rx = try scanner.number()
        let ry = try scanner.number()
        let rotation = try scanner.number()
        let largeArc = try scanner.flag()
        let sweep = try scanner.flag()
        let end = try point()
        appendArc(
          to: &path, from: current, to: end, radii: (rx, ry), rotation: rotation,
          largeArc: largeArc, sweep: sweep)
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

  /// Appends an SVG elliptical arc as cubic Béziers of at most 90° each (W3C SVG 1.1, Appendix
  /// F.6.5 "conversion from endpoint to center parameterization" and F.6.6 "correction of
  /// out-of-range radii"; each piece uses the control distance 4/3·tan(δ/4) of the radius).
  ///
  /// Equal endpoints draw nothing, a zero radius draws a line (as SVG says); radii too small to
  /// reach the end are scaled up; a computation that overflows draws a line.
  private static func appendArc(
    to path: inout Path, from p1: Point, to p2: Point, radii: (Double, Double),
    rotation degrees: Double, largeArc: Bool, sweep: Bool
  ) {
    if p1 == p2 { return }
    var rx = abs(radii.0)
    var ry = abs(radii.1)
    guard rx > 0, ry > 0 else {
      path.line(to: p2)
      return
    }
    let phi = degrees.truncatingRemainder(dividingBy: 360) * .pi / 180
    let (cosPhi, sinPhi) = (cos(phi), sin(phi))
    let dx = (p1.x - p2.x) / 2
    let dy = (p1.y - p2.y) / 2
    let x1 = cosPhi * dx + sinPhi * dy
    let y1 = -sinPhi * dx + cosPhi * dy
    let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
    if lambda > 1 {
      rx *= lambda.squareRoot()
      ry *= lambda.squareRoot()
    }
    let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
    let sign: Double = largeArc == sweep ? -1 : 1
    let coef = sign * max(0, numerator / denominator).squareRoot()
    let cxp = coef * rx * y1 / ry
    let cyp = -coef * ry * x1 / rx
    let cx = cosPhi * cxp - sinPhi * cyp + (p1.x + p2.x) / 2
    let cy = sinPhi * cxp + cosPhi * cyp + (p1.y + p2.y) / 2
    let ux = (x1 - cxp) / rx
    let uy = (y1 - cyp) / ry
    let vx = (-x1 - cxp) / rx
    let vy = (-y1 - cyp) / ry
    let theta1 = atan2(uy, ux)
    var delta = atan2(ux * vy - uy * vx, ux * vx + uy * vy)
    if !sweep && delta > 0 { delta -= 2 * .pi }
    if sweep && delta < 0 { delta += 2 * .pi }
    guard [cx, cy, theta1, delta, rx, ry].allSatisfy(\.isFinite) else {
      path.line(to: p2)
      return
    }
    // A piece a hair over 90° (rounding in a half circle) is not worth a third piece.
    let pieces = max(1, Int((abs(delta) / (.pi / 2) - 1e-6).rounded(.up)))
    let step = delta / Double(pieces)
    let k = 4.0 / 3 * tan(step / 4)
    func onEllipse(_ u: Double, _ v: Double) -> Point {
      Point(
        x: cx + rx * u * cosPhi - ry * v * sinPhi, y: cy + rx * u * sinPhi + ry * v * cosPhi)
    }
    for i in 0..<pieces {
      let a = theta1 + Double(i) * step
      let b = a + step
      let (ca, sa, cb, sb) = (cos(a), sin(a), cos(b), sin(b))
      let c1 = onEllipse(ca - k * sa, sa + k * ca)
      let c2 = onEllipse(cb + k * sb, sb - k * cb)
      // The last piece ends exactly on the given endpoint (no drift from the trigonometry).
      path.curve(to: i == pieces - 1 ? p2 : onEllipse(cb, sb), control1: c1, control2: c2)
    }
  }

  private static let commands: Set<UInt8> = Set("MmLlHhVvCcQqAaZz".utf8)

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

    /// An arc flag: `0` or `1`, which SVG allows without a separator before the next number.
    mutating func flag() throws(SVGPathDataError) -> Bool {
      skipSeparators()
      guard let c = peek, c == UInt8(ascii: "0") || c == UInt8(ascii: "1") else {
        throw error(peek == nil ? "an arc flag is missing" : "expected an arc flag (0 or 1)")
      }
      index += 1
      return c == UInt8(ascii: "1")
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

/// SVG path data kept as written, with the path it describes: a scene file read and written
/// back keeps its arcs, relative commands and short numbers (a star field of circles stays a few
/// dozen characters per star instead of four written-out cubics).
public struct SVGPath: Sendable, Hashable {
  /// The path data as written.
  public let data: String
  /// The path it describes, points.
  public let path: Path

  /// Parses path data and keeps the text.
  ///
  /// - Parameter data: The path data, such as `M 10 0 A 5 5 0 1 1 0 0 Z`.
  /// - Throws: ``SVGPathDataError`` naming the character position of the problem.
  public init(_ data: String) throws(SVGPathDataError) {
    self.data = data
    path = try SVGPathData.parse(data)
  }

  /// Two values are equal when their texts are (the text determines the path).
  ///
  /// - Parameters:
  ///   - lhs: A value.
  ///   - rhs: Another value.
  /// - Returns: Whether the texts are equal.
  public static func == (lhs: SVGPath, rhs: SVGPath) -> Bool { lhs.data == rhs.data }

  /// Hashes the text.
  ///
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) { hasher.combine(data) }
}
