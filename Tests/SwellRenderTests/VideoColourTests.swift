import Foundation
import SwellGeometry
import SwellLayers
import SwellRender
import SwellTestSupport
import Testing

/// The colour patches of the test frames: 32-point squares in a row, saturated primaries (where
/// the BT.601 and BT.709 matrices disagree most), the water's blue and a grey.
private let patches: [(name: String, red: UInt8, green: UInt8, blue: UInt8)] = [
  ("red", 230, 30, 30), ("green", 30, 200, 40), ("blue", 30, 50, 220), ("water", 51, 102, 204),
  ("grey", 128, 128, 128),
]

/// Frame `index` of colour patches, 32 points each, on a 160 × 32-point canvas, with a small
/// black marker moving along the bottom edge so that consecutive frames differ.
private func patchTree(_ index: Int) -> Layer {
  let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 160, height: 32))
  for (i, p) in patches.enumerated() {
    let patch = Layer(name: p.name, frame: Rect(x: Double(32 * i), y: 0, width: 32, height: 32))
    patch.backgroundColor = Color(
      red: Double(p.red) / 255, green: Double(p.green) / 255, blue: Double(p.blue) / 255)
    root.addSublayer(patch)
  }
  let marker = Layer(name: "marker", frame: Rect(x: Double(8 * index), y: 28, width: 4, height: 4))
  marker.backgroundColor = .black
  root.addSublayer(marker)
  return root
}

/// Writes `count` identical patch frames through the export pipeline.
private func export(to path: String, count: Int) throws {
  let exporter = try FrameExporter(
    path: path,
    configuration: FrameConfiguration(
      size: Size(width: 160, height: 32), scale: 1, framesPerSecond: 10),
    background: .white)
  for i in 0..<count { try exporter.add(patchTree(i)) }
  try exporter.finish()
}

/// ffprobe's colour fields of the first video stream.
private func colourTags(_ path: String) throws -> [String: String] {
  let r = try runProgram(
    "ffprobe",
    [
      "-v", "error", "-select_streams", "v:0", "-show_entries",
      "stream=color_space,color_transfer,color_primaries,color_range", "-of",
      "default=noprint_wrappers=1", path,
    ])
  try #require(r.status == 0, "ffprobe: \(r.err)")
  var tags: [String: String] = [:]
  for line in r.out.split(separator: "\n") {
    let kv = line.split(separator: "=", maxSplits: 1).map(String.init)
    if kv.count == 2 { tags[kv[0]] = kv[1] }
  }
  return tags
}

/// The largest channel difference between each patch's centre in a decoded image and its
/// source colour.
private func worstPatchError(_ image: ImageSurface) throws -> (error: Int, patch: String) {
  var worst = (error: 0, patch: "")
  for (i, p) in patches.enumerated() {
    let px = try #require(image.pixel(x: 32 * i + 16, y: 16))
    let e = max(
      abs(Int(px.red) - Int(p.red)), abs(Int(px.green) - Int(p.green)),
      abs(Int(px.blue) - Int(p.blue)))
    if e > worst.error { worst = (e, "\(p.name): \(px)") }
  }
  return worst
}

@Suite("Video colour")
private struct VideoColourTests {
  @Test("an MP4 is BT.709 (matrix, transfer, primaries, limited range) and decodes to its colours")
  func mp4IsTaggedAndConvertedBT709() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("patches.mp4")
    try export(to: path, count: 3)
    let tags = try colourTags(path)
    #expect(tags["color_space"] == "bt709", "\(tags)")
    #expect(tags["color_transfer"] == "bt709", "\(tags)")
    #expect(tags["color_primaries"] == "bt709", "\(tags)")
    #expect(tags["color_range"] == "tv", "\(tags)")
    // ffmpeg decodes with the tagged matrix; a stream converted with BT.601 but tagged BT.709
    // would be off by 15-40 levels on the saturated patches.
    let png = folder.file("frame0.png")
    try requireTool("ffmpeg", ["-v", "error", "-y", "-i", path, "-frames:v", "1", png])
    let worst = try worstPatchError(try ImageSurface.load(contentsOfPNGFile: png))
    #expect(worst.error <= 5, "worst patch \(worst.patch)")
  }

  @Test(
    "an animated WebP is VP8's BT.601 (the only matrix the format has) and decodes to its colours"
  )
  func webPIsBT601AndDecodesToItsColours() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("patches.webp")
    try export(to: path, count: 3)
    // ffmpeg 5.1 cannot decode animated WebP: take frame 1 out as a still WebP (its VP8
    // bitstream unchanged), which ffprobe and dwebp read.
    let still = folder.file("frame1.webp")
    try requireTool("webpmux", ["-get", "frame", "1", path, "-o", still])
    let tags = try colourTags(still)
    #expect(tags["color_space"] == "bt470bg", "\(tags)")
    #expect(tags["color_range"] == "tv", "\(tags)")
    let ppm = folder.file("frame1.png")
    try requireTool("dwebp", [still, "-o", ppm])
    let worst = try worstPatchError(try ImageSurface.load(contentsOfPNGFile: ppm))
    #expect(worst.error <= 6, "worst patch \(worst.patch)")
  }
}
