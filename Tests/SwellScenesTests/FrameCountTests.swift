import SwellMotion
import Testing

@testable import SwellScenes

@Suite("Frame count rule")
private struct FrameCountTests {
  @Test(
    "a duration of d seconds at f fps has round(d·f) frames, at least one",
    arguments: [
      (1.0, 60.0, 60), (1, 50, 50), (0.5, 10, 5), (2.8, 60, 168), (2.8, 120, 336),
      (0.25, 240, 60), (2.5, 1, 3), (1, 7, 7), (0.4, 10, 4), (0.2, 10, 2), (0, 30, 1),
      (1e-9, 60, 1), (1, 0.5, 1), (10, 60, 600),
    ] as [(Double, Double, Int)])
  func rule(duration: Double, fps: Double, frames: Int) {
    let driver = SceneDriver(
      scene: FileScene(file: .waterwave), motion: [DeviceMotion](), framesPerSecond: fps)
    #expect(driver.frameCount(duration: duration) == frames)
    #expect(SceneDriver.frameCount(duration: duration, framesPerSecond: fps) == frames)
  }

  @Test("the frames of a 1 s trace at 60 fps are at i/60 s, i = 0..<60: the 1 s instant is not one")
  func frameTimes() throws {
    var driver = SceneDriver(
      scene: FileScene(file: .waterwave), motion: [DeviceMotion](), framesPerSecond: 60,
      startTime: 3)
    let rows = try driver.trace(frames: driver.frameCount(duration: 1))
    #expect(rows.count == 60)
    for (i, row) in rows.enumerated() {
      #expect(abs(row[0] - (3 + Double(i) / 60)) < 1e-9, "frame \(i) at \(row[0])")
    }
    let last: Double = rows.last?[0] ?? 0
    let want: Double = 4 - 1.0 / 60
    #expect(abs(last - want) < 1e-9)
  }

  @Test("huge or non-finite products do not trap")
  func extremes() {
    #expect(SceneDriver.frameCount(duration: 1e300, framesPerSecond: 1e300) == Int.max)
    #expect(SceneDriver.frameCount(duration: .nan, framesPerSecond: 60) == 1)
  }
}
