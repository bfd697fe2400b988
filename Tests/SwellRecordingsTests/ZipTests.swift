import Foundation
import Testing

@testable import SwellMotion
@testable import SwellRecordings

/// The folder holding the committed test fixtures.
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Fixtures")

@Suite("Zip reader and inflate")
private struct ZipTests {
  // mixed.zip was made with Python's zipfile: the same entries stored and deflated at levels
  // 1, 6 and 9 (fixed and dynamic Huffman blocks, stored blocks for random data, distances
  // close to 32 KiB in far.bin), plus a directory entry.
  @Test(
    "deflated entries equal their stored copies",
    arguments: ["deflate1", "deflate6", "deflate9"])
  func deflatedEqualsStored(folder: String) throws {
    let data = try Data(contentsOf: fixtures.appendingPathComponent("mixed.zip"))
    let zip = try ZipArchive(data: data, name: "mixed.zip")
    let names = ["empty.txt", "hello.txt", "repeat.txt", "csvlike.csv", "random.bin", "far.bin"]
    for n in names {
      let stored = try #require(try zip.extract(path: "stored/\(n)"))
      let deflated = try #require(try zip.extract(path: "\(folder)/\(n)"))
      #expect(deflated == stored, "\(folder)/\(n)")
      let entry = try #require(zip.entries.first { $0.path == "\(folder)/\(n)" })
      #expect(entry.method == 8)
    }
    #expect(try zip.extract(path: "stored/hello.txt") == Data("hello, zip\n".utf8))
    #expect(try zip.extract(path: "stored/far.bin")?.count == 34_000)
    #expect(zip.entries.contains { $0.path == "folder/" })
  }

  @Test("a flipped byte is caught by the CRC or the decoder")
  func corruption() throws {
    var bytes = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("mixed.zip")))
    let zip = try ZipArchive(data: Data(bytes), name: "mixed.zip")
    let entry = try #require(zip.entries.first { $0.path == "deflate9/csvlike.csv" })
    // Flip one byte in the middle of the compressed data.
    let headerEnd = entry.localHeaderOffset + 30 + "deflate9/csvlike.csv".utf8.count
    bytes[headerEnd + entry.compressedSize / 2] ^= 0x5A
    let broken = try ZipArchive(data: Data(bytes), name: "mixed.zip")
    #expect(throws: RecordingError.self) { try broken.extract(path: "deflate9/csvlike.csv") }
  }

  @Test("not a zip and truncated archives are errors")
  func badArchives() throws {
    #expect(!ZipArchive.isZip(Data("t_s,gx".utf8)))
    #expect(throws: RecordingError.self) {
      try ZipArchive(data: Data("PK\u{3}\u{4}garbage".utf8), name: "x.zip")
    }
    let data = try Data(contentsOf: fixtures.appendingPathComponent("mixed.zip"))
    #expect(throws: RecordingError.self) {
      // Cut off in the middle: the end-of-central-directory record is gone.
      try ZipArchive(data: data.prefix(data.count / 2), name: "x.zip")
    }
  }

  @Test("CRC-32 of known strings")
  func crc() {
    // Check values from the CRC catalogue (CRC-32/ISO-HDLC): "123456789" → 0xCBF43926.
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([]) == 0)
  }

  @Test("a hand-made fixed-Huffman stream and a stored block")
  func handMadeStreams() throws {
    // Stored block: BFINAL=1, BTYPE=00, then LEN=3, NLEN=~3, "abc".
    let stored: [UInt8] = [0x01, 0x03, 0x00, 0xFC, 0xFF, 0x61, 0x62, 0x63]
    #expect(try Inflate.decompress(stored) == Array("abc".utf8))
    // zlib's raw deflate of "a" (fixed Huffman): 4b 04 00.
    #expect(try Inflate.decompress([0x4B, 0x04, 0x00]) == Array("a".utf8))
    #expect(throws: Inflate.Failure.self) { try Inflate.decompress([0x07]) }
  }
}
