/// An sRGB colour with alpha, each component in 0...1, **not** premultiplied.
public struct Color: Hashable, Sendable, Codable {
  /// The red component, 0...1.
  public var red: Double
  /// The green component, 0...1.
  public var green: Double
  /// The blue component, 0...1.
  public var blue: Double
  /// The opacity, 0...1.
  public var alpha: Double

  /// Creates a colour from sRGB components.
  ///
  /// - Parameters:
  ///   - red: Red, 0...1.
  ///   - green: Green, 0...1.
  ///   - blue: Blue, 0...1.
  ///   - alpha: Opacity, 0...1 (default 1).
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// Creates a colour from a hex string: `#RGB`, `#RRGGBB` or `#RRGGBBAA` (the `#` is optional).
  ///
  /// Fails (`nil`) when the string is not one of those forms.
  ///
  /// - Parameter hex: The string.
  public init?(hex: String) {
    var s = Substring(hex)
    if s.hasPrefix("#") { s = s.dropFirst() }
    guard s.allSatisfy(\.isHexDigit) else { return nil }
    var digits = String(s)
    if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
    guard digits.count == 6 || digits.count == 8, let v = UInt64(digits, radix: 16) else {
      return nil
    }
    if digits.count == 6 {
      self.init(
        red: Double((v >> 16) & 0xFF) / 255, green: Double((v >> 8) & 0xFF) / 255,
        blue: Double(v & 0xFF) / 255)
    } else {
      self.init(
        red: Double((v >> 24) & 0xFF) / 255, green: Double((v >> 16) & 0xFF) / 255,
        blue: Double((v >> 8) & 0xFF) / 255, alpha: Double(v & 0xFF) / 255)
    }
  }

  /// The colour as `#RRGGBBAA`, components rounded to 8 bits.
  public var hexString: String {
    func byte(_ v: Double) -> String {
      let b = Int((min(max(v, 0), 1) * 255).rounded())
      let s = String(b, radix: 16, uppercase: true)
      return s.count == 1 ? "0" + s : s
    }
    return "#" + byte(red) + byte(green) + byte(blue) + byte(alpha)
  }

  /// Opaque black.
  public static let black = Color(red: 0, green: 0, blue: 0)
  /// Opaque white.
  public static let white = Color(red: 1, green: 1, blue: 1)
  /// Fully transparent black.
  public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

  /// The same colour with another alpha.
  ///
  /// - Parameter alpha: The new opacity, 0...1.
  /// - Returns: The colour with that alpha.
  public func withAlpha(_ alpha: Double) -> Color {
    Color(red: red, green: green, blue: blue, alpha: alpha)
  }

  /// Linear interpolation of each component (as Core Animation interpolates colours).
  ///
  /// - Parameters:
  ///   - other: The end colour.
  ///   - t: The fraction; 0 gives `self`, 1 gives `other`.
  /// - Returns: The blended colour.
  public func interpolated(to other: Color, fraction t: Double) -> Color {
    Color(
      red: red + (other.red - red) * t, green: green + (other.green - green) * t,
      blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
  }

  /// The colour with every component clamped to 0...1.
  public var clamped: Color {
    Color(
      red: min(max(red, 0), 1), green: min(max(green, 0), 1), blue: min(max(blue, 0), 1),
      alpha: min(max(alpha, 0), 1))
  }
}
