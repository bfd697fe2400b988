import Foundation
import SwellGeometry
import SwellLayers
import SwellRender
import Testing

@testable import SwellLiveLoop

/// Fills each frame with a colour that encodes the frame index and records the frames.
private final class StripeContent: LiveContent {
  var frames: [DisplayLinkFrame] = []
  var events: [LiveEvent] = []

  func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas) throws {
    frames.append(frame)
    let v = Double(frame.index % 256) / 255
    canvas.fill(Color(red: v, green: 0.5, blue: 1 - v))
  }

  func handle(_ event: LiveEvent, at time: Double) { events.append(event) }

  func hudLines(at time: Double) -> [String] { ["test content"] }
}

/// A display that needs no window: presents at exact 1/60 s steps of a fake clock.
private final class FakeDisplay: LiveDisplay {
  var frameSize: (width: Int, height: Int) = (8, 6)
  var isVsynced: Bool { true }
  var refreshRate: Double { 60 }
  var displayName: String { "fake" }
  var time = 0.0
  var queued: [[LiveEvent]] = []
  var presented: [UInt32] = []
  var slowFrames: Set<Int> = []

  func now() -> Double { time }

  func pollEvents() -> [LiveEvent] { queued.isEmpty ? [] : queued.removeFirst() }

  func present(
    _ canvas: LiveCanvas, readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double {
    if let readBack {
      try canvas.withUnsafeBytes {
        try readBack(canvas.width, canvas.height, canvas.bytesPerRow, $0)
      }
    }
    presented.append(canvas.pixel(x: 0, y: 0) ?? 0)
    time += slowFrames.contains(presented.count) ? 3.0 / 60 : 1.0 / 60
    return time
  }

  func wait(seconds: Double) { time += max(0, seconds) }
}

/// Content that draws a band of rows over the frame before unless forced, as a scene whose crest
/// moves does (`ScenePlayer.drawsOnlyDamage`), and records whether each render was forced.
private final class BandContent: LiveContent {
  var forced: [Bool] = []
  var lastRenderRegion: PixelRect?

  func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas) throws {
    try render(frame, into: canvas, force: true)
  }

  func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas, force: Bool) throws {
    forced.append(force)
    lastRenderRegion = force ? nil : PixelRect(x: 0, y: 2, width: 8, height: 2)
  }

  func handle(_ event: LiveEvent, at time: Double) {}

  func hudLines(at time: Double) -> [String] { [] }
}

/// A display that records the region each present was given (`nil`: the whole canvas).
private final class RegionDisplay: LiveDisplay {
  var frameSize: (width: Int, height: Int) = (8, 6)
  var isVsynced: Bool { true }
  var refreshRate: Double { 60 }
  var displayName: String { "fake regions" }
  var time = 0.0
  var queued: [[LiveEvent]] = []
  var regions: [PixelRect?] = []
  func now() -> Double { time }
  func pollEvents() -> [LiveEvent] { queued.isEmpty ? [] : queued.removeFirst() }
  func present(
    _ canvas: LiveCanvas, readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double {
    try present(canvas, region: nil, readBack: readBack)
  }
  func present(
    _ canvas: LiveCanvas, region: PixelRect?,
    readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double {
    regions.append(region)
    time += 1.0 / 60
    return time
  }
  func wait(seconds: Double) { time += max(0, seconds) }
}

/// A display whose presents wait for the next vsync of a fake 60 Hz clock, and content whose
/// drawing takes a fixed time on that clock: records how long before its vsync each frame began.
private final class VsyncDisplay: LiveDisplay {
  var frameSize: (width: Int, height: Int) = (8, 6)
  var isVsynced: Bool { true }
  var refreshRate: Double { 60 }
  var displayName: String { "fake vsync" }
  var time = 0.0
  func now() -> Double { time }
  func pollEvents() -> [LiveEvent] { [] }
  func present(
    _ canvas: LiveCanvas, readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double {
    time = ((time * 60 + 1e-6).rounded(.down) + 1) / 60
    return time
  }
  func wait(seconds: Double) { time += max(0, seconds) }
}

private final class TimedContent: LiveContent {
  let display: VsyncDisplay
  let drawSeconds: Double
  let latchesLate: Bool
  /// Seconds from each frame's start to the vsync it was presented at.
  var leads: [Double] = []

  init(display: VsyncDisplay, drawSeconds: Double, latchesLate: Bool) {
    self.display = display
    self.drawSeconds = drawSeconds
    self.latchesLate = latchesLate
  }

  func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas) throws {
    let start = display.time
    display.time += drawSeconds
    leads.append(((start * 60 + 1e-6).rounded(.down) + 1) / 60 - start)
  }
  func handle(_ event: LiveEvent, at time: Double) {}
  func hudLines(at time: Double) -> [String] { [] }
}

@Suite("Live loop with a fake display")
private struct LiveLoopTests {
  @Test(
    "live motion latches late: frames start just before their vsync, none is dropped",
    arguments: [0.001, 0.004, 0.009])
  func lateLatch(drawSeconds: Double) throws {
    let display = VsyncDisplay()
    let content = TimedContent(display: display, drawSeconds: drawSeconds, latchesLate: true)
    var options = LiveLoopOptions()
    options.frameLimit = 240
    let loop = LiveLoop(display: display, content: content, options: options)
    try loop.run()
    #expect(loop.statistics.dropped == 0)
    // After the first frames (the drawing time is learnt), each frame starts within
    // 1.5 x its drawing time plus the 3-4 ms margin of its vsync, not a whole interval before.
    let settled = content.leads.dropFirst(3)
    let worst = settled.max() ?? 1
    #expect(worst <= drawSeconds * 1.5 + 0.0041, "lead up to \(worst * 1000) ms")
    #expect(settled.allSatisfy { $0 >= drawSeconds }, "a frame started too late to be on time")

    // Recorded or keyboard motion: the frame starts right after the present.
    let early = VsyncDisplay()
    let plain = TimedContent(display: early, drawSeconds: drawSeconds, latchesLate: false)
    let plainLoop = LiveLoop(display: early, content: plain, options: options)
    try plainLoop.run()
    #expect(plain.leads.dropFirst().allSatisfy { abs($0 - 1.0 / 60) < 1e-9 })
  }

  @Test("frame limit, frame times follow presents, dropped frames counted")
  func frameLimitAndDrops() throws {
    let display = FakeDisplay()
    display.slowFrames = [10, 20]
    let content = StripeContent()
    var options = LiveLoopOptions()
    options.frameLimit = 30
    options.startTime = 5
    let loop = LiveLoop(display: display, content: content, options: options)
    try loop.run()
    #expect(loop.statistics.frames == 30)
    #expect(content.frames.count == 30)
    #expect(loop.statistics.dropped == 2)
    let first = try #require(content.frames.first)
    #expect(abs(first.targetTimestamp - 5) < 1e-9)
    for (a, b) in zip(content.frames, content.frames.dropFirst()) {
      #expect(b.targetTimestamp > a.targetTimestamp)
      #expect(b.index == a.index + 1)
    }
    #expect(abs(loop.statistics.intervalMedianMilliseconds - 1000.0 / 60) < 0.01)
    #expect(abs(loop.statistics.intervalP99Milliseconds - 50) < 0.01)
  }

  @Test("q quits, space pauses scene time, other keys reach the content")
  func keys() throws {
    let display = FakeDisplay()
    display.queued = [
      [], [], [.key(.space)], [], [], [.key(.space), .key(.left)], [], [.key(.character("q"))],
    ]
    let content = StripeContent()
    let loop = LiveLoop(display: display, content: content, options: LiveLoopOptions())
    try loop.run()
    #expect(content.events == [.key(.left)])
    // Frames 0, 1 before the pause; 2 paused polls; resumed frames after.
    #expect(content.frames.count == 4)
    let times = content.frames.map(\.targetTimestamp)
    // Scene time does not jump across the pause: successive targets stay about 1/60 s apart.
    for (a, b) in zip(times, times.dropFirst()) {
      #expect(abs((b - a) - 1.0 / 60) < 1e-6, "targets \(times)")
    }
  }

  @Test(
    "a frame drawn over the one before is presented as its region; the first, the HUD's and the one after the HUD are whole"
  )
  func regions() throws {
    let display = RegionDisplay()
    // Frames 0-2 plain, h before frame 3 (HUD on for frames 3-4), h again before frame 5.
    display.queued = [[], [], [], [.key(.character("h"))], [], [.key(.character("h"))], [], []]
    let content = BandContent()
    var options = LiveLoopOptions()
    options.frameLimit = 8
    let loop = LiveLoop(display: display, content: content, options: options)
    try loop.run()
    let band = PixelRect(x: 0, y: 2, width: 8, height: 2)
    #expect(content.forced == [true, false, false, true, true, true, false, false])
    #expect(display.regions == [nil, band, band, nil, nil, nil, band, band])
  }

  @Test("screenshot-at snaps a frame to the requested time and writes the PNG")
  func screenshotAt() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swell-live-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let display = FakeDisplay()
    let content = StripeContent()
    var options = LiveLoopOptions()
    options.frameLimit = 20
    options.screenshotAt = 0.1
    options.screenshotPath = dir.appendingPathComponent("shot.png").path
    let loop = LiveLoop(display: display, content: content, options: options)
    try loop.run()
    #expect(loop.screenshots == [dir.appendingPathComponent("shot.png").path])
    #expect(content.frames.contains { abs($0.targetTimestamp - 0.1) < 1e-12 })
    let data = try Data(contentsOf: dir.appendingPathComponent("shot.png"))
    #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
  }
}

@Suite("Frame statistics")
private struct FrameStatisticsTests {
  @Test("nearest-rank percentiles")
  func percentiles() {
    let values = (1...100).map(Double.init).shuffled()
    #expect(FrameStatistics.percentile(values, 0.5) == 50)
    #expect(FrameStatistics.percentile(values, 0.99) == 99)
    #expect(FrameStatistics.percentile([7], 0.99) == 7)
    #expect(FrameStatistics.percentile([], 0.5) == 0)
  }

  @Test("a dropped frame is an interval over 1.5 target intervals; JSON line keys")
  func dropped() {
    var s = FrameStatistics(targetFramesPerSecond: 60)
    for t in [0.0, 0.016, 0.033, 0.06, 0.062, 0.112] { s.recordPresent(at: t) }
    #expect(s.frames == 6)
    #expect(s.dropped == 2)  // 27 ms and 50 ms exceed 1.5 × 16.7 ms = 25 ms
    let line = s.jsonLine
    #expect(line.hasPrefix("{\"frames\": 6, \"dropped\": 2, \"interval_ms_median\": "))
    #expect(line.contains("\"fps_target\": 60"))
  }
}
