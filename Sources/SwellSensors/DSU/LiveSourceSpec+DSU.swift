import SwellMotion

extension LiveSourceSpec {
  /// Whether a word names a DSU source: `dsu`, `dsu:...` or `dsu#...`.
  static func isDSU(_ text: String) -> Bool {
    text == "dsu" || text.hasPrefix("dsu:") || text.hasPrefix("dsu#")
  }

  /// Parses `dsu[:HOST[:PORT]][#SLOT]`: host 127.0.0.1, port 26760 and slot 0 unless given.
  ///
  /// - Parameter text: The word.
  /// - Returns: The spec.
  /// - Throws: ``LiveSourceError`` (a usage mistake) naming the bad part.
  static func parseDSU(_ text: String) throws(LiveSourceError) -> LiveSourceSpec {
    var rest = Substring(text.dropFirst(3))
    var slot: UInt8 = 0
    if let hash = rest.lastIndex(of: "#") {
      let word = rest[rest.index(after: hash)...]
      guard let n = UInt8(word), n < UInt8(DSUProtocol.slotCount) else {
        throw LiveSourceError(
          "dsu#SLOT needs a slot 0...3, got '\(UntrustedText.clipped(String(word)))'",
          isUsage: true)
      }
      slot = n
      rest = rest[..<hash]
    }
    var host = "127.0.0.1"
    var port = DSUProtocol.defaultPort
    if rest.hasPrefix(":") {
      let parts = rest.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count <= 2 else {
        throw LiveSourceError(
          "dsu:HOST:PORT takes an IPv4 address or host name and a port, got "
            + "'\(UntrustedText.clipped(String(rest.dropFirst())))'", isUsage: true)
      }
      if let h = parts.first, !h.isEmpty { host = String(h) }
      if parts.count == 2 {
        guard let p = UInt16(parts[1]), p > 0 else {
          throw LiveSourceError(
            "dsu:HOST:PORT needs a port 1...65535, got "
              + "'\(UntrustedText.clipped(String(parts[1])))'", isUsage: true)
        }
        port = p
      }
    } else if !rest.isEmpty {
      throw LiveSourceError(
        "expected dsu[:HOST[:PORT]][#SLOT], got '\(UntrustedText.clipped(text))'", isUsage: true)
    }
    return .dsu(host: host, port: port, slot: slot)
  }
}
