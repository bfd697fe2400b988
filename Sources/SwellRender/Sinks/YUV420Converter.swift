import SwellCairo

/// Converts Cairo frames (ARGB32, premultiplied) to the planar YUV 4:2:0 that libx264 encodes
/// (`yuv420p`, also called I420): BT.709's matrix, limited range, so that an MP4 gets the
/// pixel format it is stored in through its pipe and ffmpeg does no conversion.
///
/// The numbers (ITU-R BT.709-6, Table 4 items 3.2-3.5, and BT.709's 8-bit limited range: luma
/// 16...235, chroma 16...240 around 128), for R, G and B in 0...255:
/// - `Y  = 16  + (219/255)·(0.2126·R + 0.7152·G + 0.0722·B)`,
/// - `Cb = 128 + (224/255)·(B − Y′)/1.8556`, `Cr = 128 + (224/255)·(R − Y′)/1.5748`, with
///   `Y′ = 0.2126·R + 0.7152·G + 0.0722·B`,
///
/// in 16-bit fixed point, rounded to nearest. Chroma is taken from the mean R, G and B of each
/// 2 × 2 block of pixels (centred chroma); ffmpeg's scaler samples it at the left pixels'
/// column, a difference of a quarter of a chroma sample that no player shows.
///
/// The colour bytes are used as they are, alpha ignored, as ffmpeg treats `bgra` input: a
/// translucent pixel shows as composited over black. An odd width or height is padded by one
/// black column at the right or row at the bottom, as the `pad` filter did for ffmpeg's own
/// conversion.
public enum YUV420Converter {
  /// The size of the converted frame: the pixel size rounded up to even numbers.
  ///
  /// - Parameters:
  ///   - pixelWidth: The frame width, pixels.
  ///   - pixelHeight: The frame height, pixels.
  /// - Returns: The padded width and height, pixels.
  public static func paddedSize(pixelWidth: Int, pixelHeight: Int) -> (width: Int, height: Int) {
    ((pixelWidth + 1) & ~1, (pixelHeight + 1) & ~1)
  }

  /// The bytes of one converted frame: a luma plane of `width × height` bytes, then the Cb and
  /// Cr planes of `width/2 × height/2` bytes each (padded sizes).
  ///
  /// - Parameters:
  ///   - pixelWidth: The frame width, pixels.
  ///   - pixelHeight: The frame height, pixels.
  /// - Returns: Bytes.
  public static func byteCount(pixelWidth: Int, pixelHeight: Int) -> Int {
    let (w, h) = paddedSize(pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    return w * h + 2 * (w / 2) * (h / 2)
  }

  // Luma weights × (219/255) × 65536, and the offset 16.5 × 65536 (rounding included).
  private static let yR: Int32 = 11966
  private static let yG: Int32 = 40254
  private static let yB: Int32 = 4064
  private static let yOffset: Int32 = 1_081_344
  // Chroma weights × (224/255) / (2 − 2·K) × 65536 / 4 (applied to sums of four pixels); each
  // row sums to zero, so a grey has Cb = Cr = 128 exactly. Offset 128.5 × 65536.
  private static let uR: Int32 = -1649
  private static let uG: Int32 = -5547
  private static let uB: Int32 = 7196
  private static let vR: Int32 = 7196
  private static let vG: Int32 = -6536
  private static let vB: Int32 = -660
  private static let cOffset: Int32 = 8_421_376

  /// Converts a frame.
  ///
  /// - Parameters:
  ///   - frame: The pixels (Cairo ARGB32: 32-bit words `A << 24 | R << 16 | G << 8 | B`).
  ///   - output: Room for ``byteCount(pixelWidth:pixelHeight:)`` bytes; the planes are written
  ///     from its start.
  /// - Precondition: `frame.isConsistent` and `output` large enough.
  public static func convert(_ frame: FramePixels, into output: UnsafeMutableRawBufferPointer) {
    let width = frame.pixelWidth
    let height = frame.pixelHeight
    let (w, h) = paddedSize(pixelWidth: width, pixelHeight: height)
    precondition(frame.isConsistent && output.count >= byteCount(pixelWidth: w, pixelHeight: h))
    guard let source = frame.bytes.baseAddress, let out = output.baseAddress else { return }
    let luma = out.assumingMemoryBound(to: UInt8.self)
    let cb = luma + w * h
    let cr = cb + (w / 2) * (h / 2)
    let halfWidth = w / 2
    var row = 0
    while row < h {
      let top = (source + row * frame.bytesPerRow).assumingMemoryBound(to: UInt32.self)
      // The row below, or the padding's black when the height is odd.
      let hasBottom = row + 1 < height
      let bottom =
        hasBottom
        ? (source + (row + 1) * frame.bytesPerRow).assumingMemoryBound(to: UInt32.self) : nil
      convertRows(
        top: top, bottom: bottom, width: width, lumaTop: luma + row * w,
        lumaBottom: luma + (row + 1) * w, cb: cb + (row / 2) * halfWidth,
        cr: cr + (row / 2) * halfWidth, paddedWidth: w)
      row += 2
    }
  }

  /// The luma of one pixel word.
  @inline(__always)
  private static func luma(_ p: UInt32) -> UInt8 {
    let r = Int32(truncatingIfNeeded: (p >> 16) & 0xFF)
    let g = Int32(truncatingIfNeeded: (p >> 8) & 0xFF)
    let b = Int32(truncatingIfNeeded: p & 0xFF)
    return UInt8(truncatingIfNeeded: (yR &* r &+ yG &* g &+ yB &* b &+ yOffset) >> 16)
  }

  /// Two rows of pixels into two rows of luma and one of each chroma plane.
  @inline(__always)
  private static func convertRows(
    top: UnsafePointer<UInt32>, bottom: UnsafePointer<UInt32>?, width: Int,
    lumaTop: UnsafeMutablePointer<UInt8>, lumaBottom: UnsafeMutablePointer<UInt8>,
    cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>, paddedWidth: Int
  ) {
    // Luma first, row by row (a loop the compiler vectorises).
    for x in 0..<width { lumaTop[x] = luma(top[x]) }
    if let bottom {
      for x in 0..<width { lumaBottom[x] = luma(bottom[x]) }
    } else {
      for x in 0..<width { lumaBottom[x] = 16 }
    }
    if paddedWidth > width {
      lumaTop[width] = 16
      lumaBottom[width] = 16
    }
    // Chroma from the sums of R, G and B over each 2 × 2 block (black beyond the frame).
    let pairs = width / 2
    if let bottom {
      for k in 0..<pairs {
        let x = 2 * k
        chroma(top[x], top[x + 1], bottom[x], bottom[x + 1], cb: cb + k, cr: cr + k)
      }
    } else {
      for k in 0..<pairs {
        let x = 2 * k
        chroma(top[x], top[x + 1], 0, 0, cb: cb + k, cr: cr + k)
      }
    }
    if paddedWidth > width {
      chroma(top[width - 1], 0, bottom?[width - 1] ?? 0, 0, cb: cb + pairs, cr: cr + pairs)
    }
  }

  /// The chroma of a 2 × 2 block of pixel words.
  @inline(__always)
  private static func chroma(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, cb: UnsafeMutablePointer<UInt8>,
    cr: UnsafeMutablePointer<UInt8>
  ) {
    // The sums of two words' channels side by side: red and blue in 16-bit lanes of one word,
    // green in another (four 8-bit values never carry out of a 16-bit lane).
    let mask: UInt32 = 0x00FF_00FF
    let redBlue = (a & mask) &+ (b & mask) &+ (c & mask) &+ (d & mask)
    let green = ((a >> 8) & 0xFF) &+ ((b >> 8) & 0xFF) &+ ((c >> 8) & 0xFF) &+ ((d >> 8) & 0xFF)
    let r = Int32(truncatingIfNeeded: redBlue >> 16)
    let g = Int32(truncatingIfNeeded: green)
    let bl = Int32(truncatingIfNeeded: redBlue & 0xFFFF)
    cb.pointee = UInt8(truncatingIfNeeded: (uR &* r &+ uG &* g &+ uB &* bl &+ cOffset) >> 16)
    cr.pointee = UInt8(truncatingIfNeeded: (vR &* r &+ vG &* g &+ vB &* bl &+ cOffset) >> 16)
  }
}
