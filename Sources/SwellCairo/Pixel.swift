/// One pixel of an ARGB32 image: 8-bit sRGB components, **premultiplied** by alpha.
///
/// In memory (little-endian) a pixel is the four bytes blue, green, red, alpha, which is what
/// Cairo's `CAIRO_FORMAT_ARGB32`, SDL's `ARGB8888` and ffmpeg's `bgra` all mean on x86 and ARM.
public struct Pixel: Hashable, Sendable, CustomStringConvertible {
  /// Red, premultiplied, 0...255.
  public var red: UInt8
  /// Green, premultiplied, 0...255.
  public var green: UInt8
  /// Blue, premultiplied, 0...255.
  public var blue: UInt8
  /// Opacity, 0...255.
  public var alpha: UInt8

  /// Creates a pixel from premultiplied components.
  ///
  /// - Parameters:
  ///   - red: Red, premultiplied.
  ///   - green: Green, premultiplied.
  ///   - blue: Blue, premultiplied.
  ///   - alpha: Opacity.
  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// The pixel as a native-endian ARGB32 word (`0xAARRGGBB`).
  public var argb: UInt32 {
    UInt32(alpha) << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
  }

  /// Creates a pixel from a native-endian ARGB32 word (`0xAARRGGBB`).
  ///
  /// - Parameter argb: The word.
  public init(argb: UInt32) {
    self.init(
      red: UInt8(truncatingIfNeeded: argb >> 16), green: UInt8(truncatingIfNeeded: argb >> 8),
      blue: UInt8(truncatingIfNeeded: argb), alpha: UInt8(truncatingIfNeeded: argb >> 24))
  }

  /// The largest difference of any component from another pixel, 0...255.
  ///
  /// - Parameter other: The other pixel.
  /// - Returns: The largest absolute component difference.
  public func distance(to other: Pixel) -> Int {
    max(
      abs(Int(red) - Int(other.red)), abs(Int(green) - Int(other.green)),
      abs(Int(blue) - Int(other.blue)), abs(Int(alpha) - Int(other.alpha)))
  }

  /// `#RRGGBBAA` (premultiplied values).
  public var description: String {
    let word = UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
    let hex = String(word, radix: 16, uppercase: true)
    return "#" + String(repeating: "0", count: 8 - hex.count) + hex
  }
}

/// A view of one frame's pixels in memory: ARGB32 premultiplied (bytes B, G, R, A per pixel),
/// rows top to bottom, `bytesPerRow` apart.
///
/// The bytes are only valid inside the call that hands out the value.
public struct FramePixels {
  /// The width, pixels.
  public var pixelWidth: Int
  /// The height, pixels.
  public var pixelHeight: Int
  /// The distance between rows, bytes (at least `4 × pixelWidth`).
  public var bytesPerRow: Int
  /// The pixel bytes, `bytesPerRow × pixelHeight` of them.
  public var bytes: UnsafeRawBufferPointer

  /// Describes pixels in memory.
  ///
  /// - Parameters:
  ///   - pixelWidth: The width, pixels.
  ///   - pixelHeight: The height, pixels.
  ///   - bytesPerRow: The distance between rows, bytes.
  ///   - bytes: The bytes; at least `bytesPerRow × pixelHeight`.
  public init(pixelWidth: Int, pixelHeight: Int, bytesPerRow: Int, bytes: UnsafeRawBufferPointer) {
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.bytesPerRow = bytesPerRow
    self.bytes = bytes
  }

  /// True when the sizes are positive and the buffer holds every row.
  public var isConsistent: Bool {
    pixelWidth > 0 && pixelHeight > 0 && bytesPerRow >= 4 * pixelWidth
      && bytes.count >= bytesPerRow * pixelHeight
  }
}

@available(*, unavailable)
extension FramePixels: Sendable {}
