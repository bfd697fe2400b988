/// A DEFLATE decoder (RFC 1951, "DEFLATE Compressed Data Format Specification version 1.3"):
/// stored, fixed-Huffman and dynamic-Huffman blocks, decoded with canonical Huffman codes.
enum Inflate {
  /// A malformed stream.
  struct Failure: Error {
    /// What is wrong.
    var message: String
  }

  /// A canonical Huffman code: how many codes have each length, and the symbols in code order.
  private struct Huffman {
    var counts = [Int](repeating: 0, count: 16)
    var symbols: [Int] = []

    init(lengths: ArraySlice<Int>) throws(Failure) {
      for l in lengths { counts[l] += 1 }
      counts[0] = 0
      // Refuse over-subscribed codes (more codes of a length than the code space allows).
      var left = 1
      for len in 1...15 {
        left <<= 1
        left -= counts[len]
        if left < 0 { throw Failure(message: "over-subscribed Huffman code") }
      }
      var offsets = [Int](repeating: 0, count: 16)
      for len in 1..<15 { offsets[len + 1] = offsets[len] + counts[len] }
      symbols = [Int](repeating: 0, count: lengths.count)
      for (i, l) in lengths.enumerated() where l != 0 {
        symbols[offsets[l]] = i
        offsets[l] += 1
      }
    }
  }

  private struct BitReader {
    let bytes: [UInt8]
    var position = 0
    var bitBuffer: UInt32 = 0
    var bitCount = 0

    mutating func bits(_ n: Int) throws(Failure) -> Int {
      while bitCount < n {
        guard position < bytes.count else { throw Failure(message: "unexpected end of data") }
        bitBuffer |= UInt32(bytes[position]) << UInt32(bitCount)
        position += 1
        bitCount += 8
      }
      let v = Int(bitBuffer & ((1 << UInt32(n)) - 1))
      bitBuffer >>= UInt32(n)
      bitCount -= n
      return v
    }

    mutating func decode(_ h: Huffman) throws(Failure) -> Int {
      var code = 0
      var first = 0
      var index = 0
      for len in 1...15 {
        code |= try bits(1)
        let count = h.counts[len]
        if code - first < count { return h.symbols[index + code - first] }
        index += count
        first = (first + count) << 1
        code <<= 1
      }
      throw Failure(message: "invalid Huffman code")
    }

    mutating func alignToByte() {
      bitBuffer = 0
      bitCount = 0
    }
  }

  private static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  private static let lengthExtra = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]
  private static let codeLengthOrder = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
  ]

  /// Decompresses a raw DEFLATE stream.
  ///
  /// - Parameters:
  ///   - input: The compressed bytes.
  ///   - expectedSize: The size to reserve for the output (a hint).
  /// - Returns: The decompressed bytes.
  /// - Throws: ``Failure`` for a malformed stream.
  static func decompress(
    _ input: some Collection<UInt8>, expectedSize: Int = 0
  ) throws(Failure) -> [UInt8] {
    var reader = BitReader(bytes: Array(input))
    var out: [UInt8] = []
    out.reserveCapacity(expectedSize)
    var last = false
    while !last {
      last = try reader.bits(1) == 1
      switch try reader.bits(2) {
      case 0:
        reader.alignToByte()
        let p = reader.position
        guard p + 4 <= reader.bytes.count else { throw Failure(message: "truncated stored block") }
        let len = Int(reader.bytes[p]) | Int(reader.bytes[p + 1]) << 8
        let nlen = Int(reader.bytes[p + 2]) | Int(reader.bytes[p + 3]) << 8
        guard len == (~nlen & 0xFFFF) else { throw Failure(message: "stored block length check") }
        guard p + 4 + len <= reader.bytes.count else {
          throw Failure(message: "truncated stored block")
        }
        out.append(contentsOf: reader.bytes[(p + 4)..<(p + 4 + len)])
        reader.position = p + 4 + len
      case 1:
        var lengths = [Int](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        let literal = try Huffman(lengths: lengths[...])
        let distance = try Huffman(lengths: [Int](repeating: 5, count: 30)[...])
        try inflateBlock(&reader, &out, literal, distance)
      case 2:
        let nlen = try reader.bits(5) + 257
        let ndist = try reader.bits(5) + 1
        let ncode = try reader.bits(4) + 4
        guard nlen <= 286, ndist <= 30 else { throw Failure(message: "bad code counts") }
        var codeLengths = [Int](repeating: 0, count: 19)
        for i in 0..<ncode { codeLengths[codeLengthOrder[i]] = try reader.bits(3) }
        let lengthCode = try Huffman(lengths: codeLengths[...])
        var lengths = [Int](repeating: 0, count: nlen + ndist)
        var i = 0
        while i < nlen + ndist {
          let symbol = try reader.decode(lengthCode)
          if symbol < 16 {
            lengths[i] = symbol
            i += 1
            continue
          }
          var value = 0
          var repeatCount: Int
          switch symbol {
          case 16:
            guard i > 0 else { throw Failure(message: "repeat with no previous length") }
            value = lengths[i - 1]
            repeatCount = 3 + (try reader.bits(2))
          case 17: repeatCount = 3 + (try reader.bits(3))
          default: repeatCount = 11 + (try reader.bits(7))
          }
          guard i + repeatCount <= nlen + ndist else {
            throw Failure(message: "too many code lengths")
          }
          for _ in 0..<repeatCount {
            lengths[i] = value
            i += 1
          }
        }
        guard lengths[256] != 0 else { throw Failure(message: "no end-of-block code") }
        let literal = try Huffman(lengths: lengths[0..<nlen])
        let distance = try Huffman(lengths: lengths[nlen...])
        try inflateBlock(&reader, &out, literal, distance)
      default:
        throw Failure(message: "invalid block type 3")
      }
    }
    return out
  }

  private static func inflateBlock(
    _ reader: inout BitReader, _ out: inout [UInt8], _ literal: Huffman, _ distance: Huffman
  ) throws(Failure) {
    while true {
      let symbol = try reader.decode(literal)
      if symbol < 256 {
        out.append(UInt8(symbol))
      } else if symbol == 256 {
        return
      } else {
        let s = symbol - 257
        guard s < 29 else { throw Failure(message: "invalid length symbol") }
        let length = lengthBase[s] + (try reader.bits(lengthExtra[s]))
        let d = try reader.decode(distance)
        guard d < 30 else { throw Failure(message: "invalid distance symbol") }
        let dist = distanceBase[d] + (try reader.bits(distanceExtra[d]))
        guard dist <= out.count else { throw Failure(message: "distance too far back") }
        let start = out.count - dist
        for k in 0..<length { out.append(out[start + k]) }
      }
    }
  }
}
