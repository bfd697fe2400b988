/// Encodes an ARGB32 frame as true-colour half blocks for a terminal: each character cell shows
/// two pixels with `ESC[38;2;R;G;Bm` (top pixel, foreground) `ESC[48;2;R;G;Bm` (bottom pixel,
/// background) and `▀` (U+2580 UPPER HALF BLOCK).
///
/// The frame is scaled to `columns × 2·rows` pixels with a box filter (each output pixel is the
/// mean of the source pixels it covers); premultiplied colours are shown over black.
public enum HalfBlockEncoder {
  /// Downscales a frame to a grid with a box filter.
  ///
  /// - Parameters:
  ///   - pixels: `height` rows of `bytesPerRow` bytes of native-endian `0xAARRGGBB` words.
  ///   - width: The source width, pixels.
  ///   - height: The source height, pixels.
  ///   - bytesPerRow: The source stride, bytes.
  ///   - gridWidth: The output width, pixels, positive.
  ///   - gridHeight: The output height, pixels, positive.
  /// - Returns: `gridWidth × gridHeight` colours, row-major, as `0x00RRGGBB` words.
  public static func downscale(
    pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, gridWidth: Int,
    gridHeight: Int
  ) -> [UInt32] {
    guard width > 0, height > 0, gridWidth > 0, gridHeight > 0,
      pixels.count >= bytesPerRow * (height - 1) + 4 * width
    else { return Array(repeating: 0, count: max(0, gridWidth) * max(0, gridHeight)) }
    var out = [UInt32](repeating: 0, count: gridWidth * gridHeight)
    let xs = spans(source: width, target: gridWidth)
    let ys = spans(source: height, target: gridHeight)
    for (gy, yr) in ys.enumerated() {
      for (gx, xr) in xs.enumerated() {
        var r = 0
        var g = 0
        var b = 0
        for y in yr {
          let row = y * bytesPerRow
          for x in xr {
            let p = pixels.loadUnaligned(fromByteOffset: row + 4 * x, as: UInt32.self)
            r += Int((p >> 16) & 0xFF)
            g += Int((p >> 8) & 0xFF)
            b += Int(p & 0xFF)
          }
        }
        let n = yr.count * xr.count
        let half = n / 2
        out[gy * gridWidth + gx] =
          UInt32((r + half) / n) << 16 | UInt32((g + half) / n) << 8 | UInt32((b + half) / n)
      }
    }
    return out
  }

  /// Encodes a frame as the escape sequences that draw it from the top-left cell: one line per
  /// cell row, each starting with a cursor move (`ESC[row;1H`), colours set only when they
  /// change, attributes reset at the end of each row.
  ///
  /// - Parameters:
  ///   - pixels: `height` rows of `bytesPerRow` bytes of native-endian `0xAARRGGBB` words.
  ///   - width: The source width, pixels.
  ///   - height: The source height, pixels.
  ///   - bytesPerRow: The source stride, bytes.
  ///   - columns: Character cells across, positive.
  ///   - rows: Character cells down, positive (the frame is scaled to `2·rows` pixel rows).
  ///   - statusLine: Text lines (the HUD) to print in the last row instead of its half blocks,
  ///     joined and fitted by ``statusLine(_:columns:)``, white on dark grey; `nil` (the
  ///     default) draws the whole frame.
  /// - Returns: The bytes to write to the terminal.
  public static func encode(
    pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, columns: Int,
    rows: Int, statusLine: [String]? = nil
  ) -> [UInt8] {
    guard columns > 0, rows > 0 else { return [] }
    let grid = downscale(
      pixels: pixels, width: width, height: height, bytesPerRow: bytesPerRow,
      gridWidth: columns, gridHeight: 2 * rows)
    var out: [UInt8] = []
    out.reserveCapacity(rows * (12 + columns * 12))
    let pictureRows = statusLine == nil ? rows : rows - 1
    if let statusLine {
      append(
        "\u{1B}[\(rows);1H\u{1B}[0m\u{1B}[38;2;255;255;255m\u{1B}[48;2;40;40;40m"
          + Self.statusLine(statusLine, columns: columns) + "\u{1B}[0m", to: &out)
    }
    for row in 0..<pictureRows {
      append("\u{1B}[\(row + 1);1H", to: &out)
      var fg: UInt32 = .max
      var bg: UInt32 = .max
      for col in 0..<columns {
        let top = grid[(2 * row) * columns + col]
        let bottom = grid[(2 * row + 1) * columns + col]
        if top != fg {
          append("\u{1B}[38;2;\((top >> 16) & 0xFF);\((top >> 8) & 0xFF);\(top & 0xFF)m", to: &out)
          fg = top
        }
        if bottom != bg {
          append(
            "\u{1B}[48;2;\((bottom >> 16) & 0xFF);\((bottom >> 8) & 0xFF);\(bottom & 0xFF)m",
            to: &out)
          bg = bottom
        }
        out += [0xE2, 0x96, 0x80]  // U+2580 in UTF-8
      }
      append("\u{1B}[0m", to: &out)
    }
    return out
  }

  /// The HUD as one terminal row: the lines joined by ` | `, control characters replaced by
  /// spaces, cut to `columns` characters (the last one `…` when cut) or padded with spaces to
  /// `columns`, so it covers the row it is printed on.
  ///
  /// Each `Character` is counted as one cell; the HUD's text (digits, Latin letters, `×`, `°`)
  /// is one cell wide in every terminal.
  ///
  /// - Parameters:
  ///   - lines: The HUD lines.
  ///   - columns: Character cells across.
  /// - Returns: Exactly `columns` characters (none for `columns` < 1).
  public static func statusLine(_ lines: [String], columns: Int) -> String {
    guard columns > 0 else { return "" }
    let joined = lines.joined(separator: " | ")
    var text = String(
      String.UnicodeScalarView(
        joined.unicodeScalars.map {
          $0.properties.generalCategory == .control ? " " : $0
        }))
    if text.count > columns {
      text = String(text.prefix(columns - 1)) + "…"
    }
    return text + String(repeating: " ", count: columns - text.count)
  }

  /// The source index ranges each of `target` output pixels covers (each at least one pixel).
  private static func spans(source: Int, target: Int) -> [Range<Int>] {
    (0..<target).map { i in
      let a = i * source / target
      let b = max(a + 1, (i + 1) * source / target)
      return min(a, source - 1)..<min(b, source)
    }
  }

  private static func append(_ s: String, to out: inout [UInt8]) { out += Array(s.utf8) }
}

/// Decodes the bytes a terminal sends in raw mode into keys, several per read: arrow keys in
/// both cursor modes (`ESC [ A` and `ESC O A`, with optional modifier parameters such as
/// `ESC [ 1 ; 2 A`), a lone Escape, Ctrl-C (as `SwellLiveLoop/LiveKey/escape`: quit), space and printable
/// characters.
public struct TerminalKeyDecoder: Sendable {
  private var pending: [UInt8] = []

  /// Creates a decoder.
  public init() {}

  /// Decodes bytes; an incomplete escape sequence at the end is kept for the next call unless
  /// `final` says no more bytes follow (then a lone ESC is Escape).
  ///
  /// - Parameters:
  ///   - bytes: The bytes read.
  ///   - final: True when no continuation is expected now (the read returned all there was).
  /// - Returns: The keys, in order.
  public mutating func decode(_ bytes: [UInt8], final: Bool = true) -> [LiveKey] {
    var input = pending + bytes
    pending = []
    var keys: [LiveKey] = []
    var i = 0
    while i < input.count {
      let b = input[i]
      if b == 0x1B {
        guard i + 1 < input.count else {
          if final { keys.append(.escape) } else { pending = [b] }
          i += 1
          continue
        }
        let next = input[i + 1]
        if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
          // CSI / SS3: parameters (digits and ';') then one final byte in 0x40...0x7E.
          var j = i + 2
          while j < input.count, input[j] >= 0x30 && input[j] <= 0x3F { j += 1 }
          guard j < input.count else {
            if final { keys.append(.escape) } else { pending = Array(input[i...]) }
            input.removeAll()
            break
          }
          switch input[j] {
          case UInt8(ascii: "A"): keys.append(.up)
          case UInt8(ascii: "B"): keys.append(.down)
          case UInt8(ascii: "C"): keys.append(.right)
          case UInt8(ascii: "D"): keys.append(.left)
          default: break
          }
          i = j + 1
        } else {
          keys.append(.escape)
          i += 1
        }
      } else if b == 0x03 {
        keys.append(.escape)
        i += 1
      } else if b == 0x20 {
        keys.append(.space)
        i += 1
      } else if b > 0x20 && b < 0x7F {
        let c = Character(Unicode.Scalar(b)).lowercased().first ?? "?"
        keys.append(.character(c))
        i += 1
      } else {
        i += 1
      }
    }
    return keys
  }
}
