/// Text that came from an input file, a packet or a server, made safe to show in a one-line
/// message: cut to a length and with control characters escaped, so a crafted input can neither
/// flood the terminal nor send it escape sequences.
public enum UntrustedText {
  /// The default number of characters kept: 80.
  public static let defaultLimit = 80

  /// The text with control characters escaped and cut to `limit` characters.
  ///
  /// C0 and C1 control characters and DEL become `\n`, `\t`, `\r`, `\e` or `\u{XX}`; a text
  /// longer than `limit` characters keeps its first `limit` and ends with `…`. Invalid UTF-8
  /// (already repaired to U+FFFD by `String(decoding:as:)`) is kept as U+FFFD.
  ///
  /// - Parameters:
  ///   - text: The untrusted text.
  ///   - limit: The most characters of `text` kept (default ``defaultLimit``).
  /// - Returns: A single line of at most about `limit` characters plus escapes.
  public static func clipped(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
    var out = ""
    var kept = 0
    for scalar in text.unicodeScalars {
      if kept >= limit {
        out += "…"
        return out
      }
      kept += 1
      out += escaped(scalar)
    }
    return out
  }

  /// Escapes control characters without cutting (for text that is already short, such as a
  /// file name inside a message built by Swell).
  ///
  /// - Parameter text: The text.
  /// - Returns: The text with control characters escaped.
  public static func escaped(_ text: some StringProtocol) -> String {
    var out = ""
    for scalar in text.unicodeScalars { out += escaped(scalar) }
    return out
  }

  private static func escaped(_ scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0x0A: return "\\n"
    case 0x09: return "\\t"
    case 0x0D: return "\\r"
    case 0x1B: return "\\e"
    case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029:
      return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    default: return String(scalar)
    }
  }

  /// A message built around untrusted text, made safe: control characters escaped, each
  /// `'quoted'` part cut to 3 × ``defaultLimit`` characters (room for Swell's own quoted
  /// headers; untrusted parts are cut to ``defaultLimit`` where the message is made), and the
  /// text outside quotes cut to 4 × ``defaultLimit`` characters.
  ///
  /// - Parameter message: The message, quoting the untrusted parts in `'single quotes'`.
  /// - Returns: One line.
  public static func sanitizedMessage(_ message: String) -> String {
    var out = ""
    var inside = false
    var part = ""
    var outsideCount = 0
    for ch in message {
      if ch == "'" {
        if inside { out += clipped(part, limit: 3 * defaultLimit) }
        part = ""
        inside.toggle()
        out.append(ch)
      } else if inside {
        if part.unicodeScalars.count <= 3 * defaultLimit { part.append(ch) }
      } else {
        outsideCount += 1
        if outsideCount <= 4 * defaultLimit {
          out += escaped(String(ch))
        } else if outsideCount == 4 * defaultLimit + 1 {
          out += "…"
        }
      }
    }
    if inside { out += clipped(part, limit: 3 * defaultLimit) }
    return out
  }

}
