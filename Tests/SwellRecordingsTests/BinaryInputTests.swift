import Foundation
import SwellTestSupport
import Testing

@testable import SwellMotion
@testable import SwellRecordings

/// The first bytes of files that are not recordings, and what they must be called.
private let binaries: [(String, [UInt8], String)] = [
  ("clip.mp4", [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [0, 0, 2, 0], "an MP4/QuickTime video"),
  ("clip.mov", [0, 0, 0, 0x14] + Array("ftypqt  ".utf8), "an MP4/QuickTime video"),
  ("old.mov", [0, 0, 0, 8] + Array("wide".utf8) + [0, 0, 0, 9], "a QuickTime video"),
  ("clip.mkv", [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81], "a Matroska/WebM video"),
  ("clip.avi", Array("RIFF".utf8) + [1, 2, 3, 4] + Array("AVI LIST".utf8), "an AVI video"),
  ("photo.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], "a PNG image"),
  ("photo.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8), "a JPEG image"),
  ("anim.gif", Array("GIF89a".utf8) + [1, 0, 1, 0], "a GIF image"),
  ("photo.heic", [0, 0, 0, 0x18] + Array("ftypheic".utf8), "a HEIF/AVIF image"),
  ("paper.pdf", Array("%PDF-1.7\n".utf8), "a PDF document"),
  ("data.csv.gz", [0x1F, 0x8B, 8, 0, 0, 0, 0, 0], "a gzip-compressed file"),
  ("data.xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0, 4], "an xz-compressed file"),
  ("data.7z", [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0, 4], "a 7-Zip archive"),
  ("swell", [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0], "an ELF executable"),
  ("blob.bin", [0x01, 0x02, 0x00, 0x41, 0x42], "a binary file"),
]

@Suite("Binary files given as recordings")
private struct BinaryInputTests {
  @Test("each kind is named from its first bytes", arguments: binaries.indices)
  func named(index: Int) throws {
    let (name, head, kind) = binaries[index]
    let data = Data(head + [UInt8](repeating: 0x41, count: 64))
    #expect(BinaryFileKind.describe(data) == kind)
    #expect {
      try MotionRecording.load(file: data, name: name)
    } throws: { error in
      "\(error)"
        == "\(name): this is \(kind), not a motion recording; expected a raw IMU CSV, a "
        + "device-motion CSV, a phyphox CSV, an evemu recording, or a Sensor Logger folder or .zip"
    }
  }

  @Test("a video file on disk: one line naming it, no escaped NUL bytes")
  func videoFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swell-binary-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("video.mp4")
    var bytes: [UInt8] = [0, 0, 0, 0x1C] + Array("ftypmp42".utf8)
    bytes += [UInt8](repeating: 0, count: 4000)
    try Data(bytes).write(to: url)
    let message = try #require(
      { () -> String? in
        do {
          _ = try MotionRecording.load(from: url)
          return nil
        } catch { return "\(error)" }
      }())
    #expect(
      message.hasSuffix(
        "video.mp4: this is an MP4/QuickTime video, not a motion recording; "
          + "expected a raw IMU CSV, a device-motion CSV, a phyphox CSV, an evemu recording, or a "
          + "Sensor Logger folder or .zip"))
    #expect(!message.contains("\\u{0}") && !message.contains("\\0"))
    #expect(message.split(separator: "\n").count == 1)
  }

  @Test("a ZIP archive without a recording says so and lists what it holds")
  func zipWithoutRecording() throws {
    let text = Array("hello\n".utf8)
    let zip = HostileInputs.zip([
      HostileInputs.ZipEntry(
        name: "notes.txt", method: 0, data: text, declaredSize: UInt32(text.count),
        crc: crc32(text))
    ])
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swell-zip-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("photos.zip")
    try zip.write(to: url)
    #expect {
      try MotionRecording.load(from: url)
    } throws: { error in
      "\(error)".hasPrefix(
        "photos.zip: a ZIP archive that is not a recording: no recognised recording: found no CSV "
          + "files")
    }
  }

  @Test("text recordings are still read, and text that is not one keeps its layout message")
  func textIsNotBinary() throws {
    #expect(BinaryFileKind.describe(Data("t_s,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,1\n".utf8)) == nil)
    #expect(BinaryFileKind.describe(Data("é,ü\n1,2\n".utf8)) == nil)
    #expect {
      try MotionRecording.load(file: Data("a,b\n1,2\n".utf8), name: "other.csv")
    } throws: { error in
      "\(error)".contains("unknown layout")
    }
  }
}

/// CRC-32 (IEEE), for the test archive.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for b in bytes {
    crc ^= UInt32(b)
    for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}
