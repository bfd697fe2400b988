import SwellCairo
import SwellRender
import SwellTestSupport
import Testing

/// BT.709 limited range from its definition (ITU-R BT.709-6 and its 8-bit quantisation), in
/// floating point: the independent reference the fixed-point converter is held to.
private func reference(_ r: Double, _ g: Double, _ b: Double) -> (y: Double, cb: Double, cr: Double)
{
  let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
  return (
    16 + 219 / 255 * luma, 128 + 224 / 255 * (b - luma) / 1.8556,
    128 + 224 / 255 * (r - luma) / 1.5748
  )
}

/// Seeded ARGB32 words: opaque random colours, some translucent ones (premultiplied: no colour
/// above its alpha), and the extremes.
private func randomWords(_ count: Int, seed: UInt64) -> [UInt32] {
  var random = SplitMix64(seed: seed)
  return (0..<count).map { i in
    if i == 0 { return 0xFF00_0000 }
    if i == 1 { return 0xFFFF_FFFF }
    let a = Bool.random(using: &random) ? 255 : UInt32.random(in: 0...255, using: &random)
    func channel() -> UInt32 { UInt32.random(in: 0...a, using: &random) }
    return a << 24 | channel() << 16 | channel() << 8 | channel()
  }
}

/// Converts words laid out as a `width × height` frame (rows `stride` words apart).
private func convert(_ words: [UInt32], width: Int, height: Int, stride: Int) -> [UInt8] {
  var out = [UInt8](
    repeating: 0xAA, count: YUV420Converter.byteCount(pixelWidth: width, pixelHeight: height))
  words.withUnsafeBytes { bytes in
    out.withUnsafeMutableBytes { o in
      YUV420Converter.convert(
        FramePixels(pixelWidth: width, pixelHeight: height, bytesPerRow: 4 * stride, bytes: bytes),
        into: o)
    }
  }
  return out
}

private func channels(_ w: UInt32) -> (r: Double, g: Double, b: Double) {
  (Double((w >> 16) & 0xFF), Double((w >> 8) & 0xFF), Double(w & 0xFF))
}

@Suite("YUV 4:2:0 conversion (BT.709, limited range)")
private struct YUV420ConverterTests {
  @Test(
    "every plane is within half a level of the standard's formula, at any size and stride",
    arguments: [(8, 6, 8), (7, 5, 9), (1, 1, 1), (2, 3, 5), (33, 17, 40)] as [(Int, Int, Int)])
  func matchesTheFormula(width: Int, height: Int, stride: Int) {
    let words = randomWords(stride * height, seed: UInt64(width * 1000 + height))
    let out = convert(words, width: width, height: height, stride: stride)
    let (pw, ph) = YUV420Converter.paddedSize(pixelWidth: width, pixelHeight: height)
    #expect(pw % 2 == 0 && ph % 2 == 0 && pw - width <= 1 && ph - height <= 1)
    #expect(out.count == pw * ph + 2 * (pw / 2) * (ph / 2))
    // Outside the frame the padding is black.
    func pixel(_ x: Int, _ y: Int) -> (r: Double, g: Double, b: Double) {
      x < width && y < height ? channels(words[y * stride + x]) : (0, 0, 0)
    }
    var worst = 0.0
    for y in 0..<ph {
      for x in 0..<pw {
        let p = pixel(x, y)
        worst = max(worst, abs(Double(out[y * pw + x]) - reference(p.r, p.g, p.b).y))
      }
    }
    let chroma = pw * ph
    for cy in 0..<(ph / 2) {
      for cx in 0..<(pw / 2) {
        let block = [
          pixel(2 * cx, 2 * cy), pixel(2 * cx + 1, 2 * cy), pixel(2 * cx, 2 * cy + 1),
          pixel(2 * cx + 1, 2 * cy + 1),
        ]
        let mean = block.reduce((0.0, 0.0, 0.0)) {
          ($0.0 + $1.r / 4, $0.1 + $1.g / 4, $0.2 + $1.b / 4)
        }
        let expected = reference(mean.0, mean.1, mean.2)
        let k = cy * (pw / 2) + cx
        worst = max(worst, abs(Double(out[chroma + k]) - expected.cb))
        worst = max(worst, abs(Double(out[chroma + (pw / 2) * (ph / 2) + k]) - expected.cr))
      }
    }
    #expect(worst <= 0.5 + 0.02, "worst difference \(worst) levels")
  }

  @Test("black, white and greys land on the range's ends and chroma's centre exactly")
  func rangeEnds() {
    for level in [0, 1, 64, 128, 200, 254, 255] as [UInt32] {
      let word = 0xFF00_0000 | level << 16 | level << 8 | level
      let out = convert([UInt32](repeating: word, count: 4), width: 2, height: 2, stride: 2)
      let expectedY = UInt8((16 + 219 * Double(level) / 255).rounded())
      #expect(out == [expectedY, expectedY, expectedY, expectedY, 128, 128], "level \(level)")
    }
  }
}
