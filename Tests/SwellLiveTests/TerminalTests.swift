import Foundation
import SwellTestSupport
import Testing

@testable import SwellLive

@Suite("Terminal half blocks and keys")
private struct TerminalTests {
  /// A `width × height` ARGB32 buffer from a pixel function.
  private func buffer(_ width: Int, _ height: Int, _ f: (Int, Int) -> UInt32) -> [UInt32] {
    (0..<height).flatMap { y in (0..<width).map { x in f(x, y) } }
  }

  @Test("box filter: each grid pixel is the rounded mean of the pixels it covers")
  func boxFilter() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SplitMix64(seed: seed)
    let px = buffer(8, 6) { _, _ in 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
    }
    let grid = px.withUnsafeBytes {
      HalfBlockEncoder.downscale(
        pixels: $0, width: 8, height: 6, bytesPerRow: 32, gridWidth: 4, gridHeight: 3)
    }
    for gy in 0..<3 {
      for gx in 0..<4 {
        var sums = [0, 0, 0]
        for y in (2 * gy)..<(2 * gy + 2) {
          for x in (2 * gx)..<(2 * gx + 2) {
            let p = px[y * 8 + x]
            sums[0] += Int(p >> 16 & 0xFF)
            sums[1] += Int(p >> 8 & 0xFF)
            sums[2] += Int(p & 0xFF)
          }
        }
        let expected = sums.map { UInt32(($0 + 2) / 4) }
        #expect(
          grid[gy * 4 + gx] == expected[0] << 16 | expected[1] << 8 | expected[2],
          "seed \(seed) at \(gx),\(gy)")
      }
    }
  }

  @Test("encode: ▀ per cell, fg = top pixel, bg = bottom pixel, colours set only on change")
  func encode() {
    // 2 columns × 1 row: left column red over blue, right column red over green.
    let px = buffer(2, 2) { x, y in
      y == 0 ? 0xFFFF_0000 : (x == 0 ? 0xFF00_00FF : 0xFF00_FF00)
    }
    let bytes = px.withUnsafeBytes {
      HalfBlockEncoder.encode(pixels: $0, width: 2, height: 2, bytesPerRow: 8, columns: 2, rows: 1)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(
      text
        == "\u{1B}[1;1H\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀\u{1B}[48;2;0;255;0m▀\u{1B}[0m")
  }

  static let keyCases: [([UInt8], [LiveKey])] = [
    (Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D".utf8), [.up, .down, .right, .left]),
    (Array("\u{1B}OA\u{1B}OC".utf8), [.up, .right]),
    (Array("\u{1B}[1;2D".utf8), [.left]),
    (Array("q".utf8), [.character("q")]),
    (Array(" R\u{1B}".utf8), [.space, .character("r"), .escape]),
    ([0x03], [.escape]),
    (Array("\u{1B}x".utf8), [.escape, .character("x")]),
  ]

  @Test("keys: several escape sequences in one read", arguments: keyCases)
  func keys(bytes: [UInt8], expected: [LiveKey]) {
    var d = TerminalKeyDecoder()
    #expect(d.decode(bytes) == expected)
  }

  @Test("keys: a sequence split across reads is kept until complete")
  func split() {
    var d = TerminalKeyDecoder()
    #expect(d.decode([0x1B, UInt8(ascii: "[")], final: false) == [])
    #expect(d.decode([UInt8(ascii: "C"), UInt8(ascii: "h")]) == [.right, .character("h")])
  }
}
