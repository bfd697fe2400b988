import Foundation
import SwellTestSupport
import Testing

/// Runs an example program built with the package (next to the `swell` binary).
private func runExample(_ name: String, _ arguments: [String], directory: URL? = nil) throws
  -> (status: Int32, out: String, err: String)
{
  let binary = try swellExecutable().deletingLastPathComponent().appendingPathComponent(name)
  try #require(FileManager.default.isExecutableFile(atPath: binary.path), "\(name) is not built")
  return try runExecutable(binary, arguments, directory: directory)
}

@Suite("Examples/: each example program builds and does its job")
private struct ExamplesTests {
  @Test("motion-attitude: a MotionManager pushes one attitude per 0.5 s of the bundled recording")
  func motionAttitude() throws {
    let r = try runExample("motion-attitude", [])
    #expect(r.status == 0, "\(r.err)")
    let rows = r.out.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
    // The bundled recording spans about 27 s: 0.5 s updates give about 55 rows.
    #expect((50...60).contains(rows.count), "\(rows.count) rows")
    let times = rows.compactMap { Double($0[0]) }
    for (a, b) in zip(times, times.dropFirst()) {
      #expect(abs(b - a - 0.5) < 0.02, "interval \(b - a)")
    }
    for row in rows {
      let g = row[4...6].compactMap { Double($0) }
      let norm = (g.map { $0 * $0 }.reduce(0, +)).squareRoot()
      #expect(abs(norm - 1) < 0.01, "|gravity| \(norm)")
    }
  }

  @Test("custom-effect: the seed's center.y = 512 · horizontal, on whole pixels")
  func customEffect() throws {
    let r = try runExample("custom-effect", [])
    #expect(r.status == 0, "\(r.err)")
    let rows = r.out.split(separator: "\n").dropFirst().map {
      $0.split(separator: ",").compactMap { Double($0) }
    }
    #expect(rows.count > 80)
    for row in rows {
      #expect(row[2] == (50 + 512 * row[1]).rounded(), "\(row)")
    }
    // The turn moves the offset well away from 0 and back.
    #expect(rows.map { abs($0[1]) }.max() ?? 0 > 0.15)
  }

  @Test("waterwave-window: the live window in a few library calls runs and quits after N frames")
  func waterwaveWindow() throws {
    let recording = packageRoot.appendingPathComponent(
      "Tests/SwellToolTests/Fixtures/live-roll.csv")
    for arguments in [["--frames", "20"], [recording.path, "--frames", "20"]] {
      let r = try runExample("waterwave-window", arguments)
      #expect(r.status == 0, "\(r.err)")
      let stats = try #require(r.out.split(separator: "\n").last)
      #expect(stats.contains("\"frames\": 20"), "\(stats)")
    }
  }

  @Test("progress-wave: a GIF of the water-wave progress badge, one frame per 1/25 s")
  func progressWave() throws {
    let folder = try scratchFolder("progress-wave")
    defer { try? FileManager.default.removeItem(at: folder) }
    let gif = folder.appendingPathComponent("progress.gif").path
    let r = try runExample("progress-wave", [gif, "--seconds", "2"])
    #expect(r.status == 0, "\(r.err)")
    let info = try #require(try probeVideoStream(gif))
    #expect(info.frames == 50)
    #expect(info.width == 320 && info.height == 320)
  }
}
