import Foundation
import SwellMotion
import SwellRender
import SwellScenes
import SwellTestSupport
import Testing

@Suite("Export frame counts")
private struct ExportFrameCountTests {
  @Test(
    "an export of d seconds at f fps through FrameExporter has round(d·f) frames, and plays d seconds",
    arguments: ["mp4", "gif"])
  func exportedFrames(format: String) throws {
    let folder = try scratchFolder("export-frame-count")
    defer { try? FileManager.default.removeItem(at: folder) }
    var options = SceneOptions()
    (options.width, options.height, options.scale) = (40, 80, 1)
    let scene = FileScene(file: .waterwave, options: options)
    let motion = try MotionScript(parsing: "tilt 20deg right over 0.5s; hold 0.5s").samples(
      rate: 100)
    let fps = 20.0
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: fps)
    let count = driver.frameCount(duration: 1)
    #expect(count == 20)
    let path = folder.appendingPathComponent("clip.\(format)").path
    let exporter = try FrameExporter(
      path: path,
      configuration: FrameConfiguration(size: scene.size, scale: 1, framesPerSecond: fps),
      background: scene.background)
    var times: [Double] = []
    for _ in 0..<count {
      let frame = try #require(try driver.step())
      times.append(frame.targetTimestamp - driver.startTime)
      try exporter.add(scene.root.presentation(at: frame.targetTimestamp))
    }
    try exporter.finish()
    #expect(abs((times.last ?? 0) - 0.95) < 1e-9, "the last frame is at 19/20 s")
    let info = try #require(try probeVideoStream(path))
    #expect(info.frames == 20, "\(info)")
    let seconds = try #require(info.duration)
    #expect(abs(seconds - 1) < 0.011, "plays \(seconds) s: a loop shows no frame twice")
  }
}
