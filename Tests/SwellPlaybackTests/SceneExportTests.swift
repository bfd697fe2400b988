import Foundation
import SwellCairo
import SwellMotion
import SwellPlayback
import SwellRender
import SwellScenes
import SwellTestSupport
import Testing

@Suite("SceneExport and SceneTraceExport: offline playback in one call")
private struct SceneExportTests {
  @Test("a PNG sequence: round(d·fps) frames, progress after each, every frame named")
  func sequence() throws {
    let folder = try scratchFolder("scene-export-seq")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (scene, motion) = try smallWave()
    let export = SceneExport(
      scene: scene, motion: motion, framesPerSecond: 10, duration: 0.75,
      output: folder.appendingPathComponent("f-%02d.png").path)
    var seen: [(Int, Int)] = []
    let report = try export.run(progress: { seen.append(($0, $1)) })
    #expect(report.frames == 8)
    #expect(seen.map(\.0) == Array(1...8) && seen.allSatisfy { $0.1 == 8 })
    #expect((report.pixelWidth, report.pixelHeight) == (60, 120))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == (0..<8).map { String(format: "f-%02d.png", $0) })
  }

  @Test("a single PNG without a time holds the last frame of the duration")
  func singleFrameIsLast() throws {
    let folder = try scratchFolder("scene-export-last")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (s1, m1) = try smallWave()
    let last = SceneExport(
      scene: s1, motion: m1, framesPerSecond: 10, duration: 1,
      output: folder.appendingPathComponent("last.png").path)
    _ = try last.run()
    let (s2, m2) = try smallWave()
    var at = SceneExport(
      scene: s2, motion: m2, framesPerSecond: 10, duration: 1,
      output: folder.appendingPathComponent("at.png").path)
    at.singleTime = 0.9
    _ = try at.run()
    let a = try ImageSurface.load(contentsOfPNGFile: last.output)
    let b = try ImageSurface.load(contentsOfPNGFile: at.output)
    #expect(differingPixels(a, b) == 0)
  }

  @Test("cancelled part way, or failing, an export leaves nothing under the output's name")
  func cancelLeavesNothing() throws {
    let folder = try scratchFolder("scene-export-cancel")
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["c.gif", "seq/%03d.png", "v.pdf"] {
      if name.hasPrefix("seq") {
        try FileManager.default.createDirectory(
          at: folder.appendingPathComponent("seq"), withIntermediateDirectories: true)
      }
      let (scene, motion) = try smallWave()
      let export = SceneExport(
        scene: scene, motion: motion, framesPerSecond: 10, duration: 1,
        output: folder.appendingPathComponent(name).path)
      var asked = 0
      let error = #expect(throws: PlaybackError.self, "\(name)") {
        try export.run(isCancelled: {
          asked += 1
          return asked > 4
        })
      }
      #expect(error?.problem == .cancelled)
    }
    let left = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
    #expect(left == ["seq"], "\(left)")
  }

  @Test("limits are typed problems with messages in the library's terms")
  func limits() throws {
    let (scene, motion) = try smallWave()
    var export = SceneExport(
      scene: scene, motion: motion, framesPerSecond: 1000, duration: 2000, output: "x.mp4")
    let tooMany = #expect(throws: PlaybackError.self) { try export.run() }
    #expect(tooMany?.problem == .tooManyFrames(frames: 2_000_000, maximum: 1_000_000))
    #expect(tooMany?.description.contains("--") == false)
    export.duration = 1
    export.singleTime = 5000
    export.output = "x.png"
    let beyond = #expect(throws: PlaybackError.self) { try export.run() }
    #expect(beyond?.problem == .timeBeyondLimit(time: 5000, maximumFrames: 1_000_000))
    let trace = SceneTraceExport(
      scene: scene, motion: motion, framesPerSecond: 1000, duration: 6000)
    let traced = #expect(throws: PlaybackError.self) { try trace.run(to: .text { _ in }) }
    #expect(traced?.problem == .tooManyFrames(frames: 6_000_000, maximum: 5_000_000))
  }

  @Test(
    "a trace to a text sink equals the trace to a file; CSV and JSON have one row per frame",
    arguments: [false, true])
  func trace(json: Bool) throws {
    let folder = try scratchFolder("scene-trace")
    defer { try? FileManager.default.removeItem(at: folder) }
    var text = ""
    var progress: [Int] = []
    let (s1, m1) = try smallWave()
    let rows = try SceneTraceExport(
      scene: s1, motion: m1, framesPerSecond: 30, duration: 1.2, json: json
    ).run(to: .text { text += $0 }, progress: { done, _ in progress.append(done) })
    #expect(rows == 36 && progress.last == 36)
    let url = folder.appendingPathComponent("t.txt")
    let (s2, m2) = try smallWave()
    try SceneTraceExport(scene: s2, motion: m2, framesPerSecond: 30, duration: 1.2, json: json)
      .run(to: .file(url))
    #expect(try String(contentsOf: url, encoding: .utf8) == text)
    if json {
      let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Double]]
      #expect(parsed?.count == 36)
    } else {
      let lines = text.split(separator: "\n")
      #expect(lines.count == 37 && lines[0].hasPrefix("time,"))
    }
  }

  @Test("a trace into a missing folder fails before playing, naming the file, and leaves nothing")
  func traceUnwritable() throws {
    let (scene, motion) = try smallWave()
    let error = #expect(throws: PlaybackError.self) {
      try SceneTraceExport(scene: scene, motion: motion, framesPerSecond: 30, duration: 1)
        .run(to: .file(URL(fileURLWithPath: "/nonexistent-folder/t.csv")))
    }
    guard case .output(let reason) = error?.problem else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(reason.contains("/nonexistent-folder/t.csv"))
  }
}
