import SwellLayers
import SwellTime
import Testing

@testable import SwellLiveLoop

/// A display on a manual clock: waits move the manual time (no real waits), a vsynced present
/// returns at the first refresh tick after now, an unsynced one at once. Events are handed out
/// per poll.
private final class ManualDisplay: LiveDisplay {
  let manual: ManualMonotonicClock
  let isVsynced: Bool
  let refreshRate: Double
  var frameSize: (width: Int, height: Int) = (4, 4)
  var displayName: String { "manual" }
  var queued: [[LiveEvent]] = []
  var presents: [Double] = []
  var waits = 0

  init(manual: ManualMonotonicClock, vsynced: Bool = true, refreshRate: Double = 60) {
    self.manual = manual
    isVsynced = vsynced
    self.refreshRate = refreshRate
  }

  func now() -> Double { manual.now }
  func pollEvents() -> [LiveEvent] { queued.isEmpty ? [] : queued.removeFirst() }
  func present(
    _ canvas: LiveCanvas, readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double {
    if isVsynced {
      // The refresh after now: tick k at k / refreshRate.
      let k = (manual.now * refreshRate + 1e-9).rounded(.down) + 1
      manual.clock.wait(until: k / refreshRate)
    }
    presents.append(manual.now)
    return manual.now
  }
  func wait(seconds: Double) {
    if seconds > 0 { waits += 1 }
    manual.clock.wait(seconds: seconds)
  }
}

/// Content whose drawing takes a set time on the manual clock; records each frame's start.
private final class ManualContent: LiveContent {
  let manual: ManualMonotonicClock
  var drawSeconds: Double
  var slowFrames: [Int: Double] = [:]
  let latchesLate: Bool
  var changes = true
  var starts: [Double] = []
  var frames: [DisplayLinkFrame] = []
  var idled: [DisplayLinkFrame] = []

  init(manual: ManualMonotonicClock, drawSeconds: Double, latchesLate: Bool = false) {
    self.manual = manual
    self.drawSeconds = drawSeconds
    self.latchesLate = latchesLate
  }

  func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas) throws {
    starts.append(manual.now)
    frames.append(frame)
    manual.advance(by: slowFrames[frames.count - 1] ?? drawSeconds)
  }
  func handle(_ event: LiveEvent, at time: Double) {}
  func hudLines(at time: Double) -> [String] { [] }
  var lastRenderChangedCanvas: Bool { changes }
  func idle(_ frame: DisplayLinkFrame) throws { idled.append(frame) }
}

private func run(
  _ display: ManualDisplay, _ content: ManualContent, frames: Int, fps: Double? = nil
) throws -> LiveLoop {
  var options = LiveLoopOptions()
  options.frameLimit = frames
  options.framesPerSecondCap = fps
  let loop = LiveLoop(
    display: display, content: content, options: options, clock: display.manual.clock)
  try loop.run()
  return loop
}

@Suite("Live pacing (LivePacing) on times alone")
private struct LivePacingUnitTests {
  @Test("modes: presents at the refresh rate, a frame cap below it or without vsync, late latching")
  func modes() {
    func mode(_ fps: Double, vsynced: Bool, live: Bool) -> LivePacing.Mode {
      LivePacing(
        framesPerSecond: fps, refreshRate: 60, vsynced: vsynced, latchesLate: live, startTime: 0,
        origin: 0
      ).mode
    }
    #expect(mode(60, vsynced: true, live: false) == .presents)
    #expect(mode(60, vsynced: true, live: true) == .lateLatching)
    #expect(mode(30, vsynced: true, live: true) == .frameCap)
    #expect(mode(60, vsynced: false, live: true) == .frameCap)
    #expect(mode(57.5, vsynced: true, live: false) == .presents)  // within 95 %
  }

  @Test("the frame-cap grid: due every interval less half a refresh; a late start moves it")
  func capGrid() {
    var p = LivePacing(
      framesPerSecond: 30, refreshRate: 60, vsynced: true, latchesLate: false, startTime: 0,
      origin: 10)
    #expect(p.slack == 0.5 / 60)
    #expect(p.frameStart(now: 10) == 10 - 0.5 / 60)
    p.beginFrame(at: 10)
    #expect(abs(p.frameStart(now: 10.01) - (10 + 1.0 / 30 - 0.5 / 60)) < 1e-12)
    p.beginFrame(at: 10 + 1.0 / 30)
    // A frame that starts more than a second late: one frame is due at once (the grid point
    // one interval before it), not the 40 missed ones; the grid then runs from there.
    p.beginFrame(at: 11.5)
    #expect(abs(p.frameStart(now: 11.5) - (11.5 - 1.0 / 30 - 0.5 / 60)) < 1e-12)
    p.beginFrame(at: 11.5)
    #expect(abs(p.frameStart(now: 11.5) - (11.5 - 0.5 / 60)) < 1e-12)
    p.beginFrame(at: 11.5)
    #expect(abs(p.frameStart(now: 11.5) - (11.5 + 1.0 / 30 - 0.5 / 60)) < 1e-12)
  }

  @Test("scene time: the display's clock less the time paused, one interval before the start")
  func sceneTime() {
    var p = LivePacing(
      framesPerSecond: 50, refreshRate: 50, vsynced: true, latchesLate: false, startTime: 3,
      origin: 100)
    #expect(p.frameTime == 3 - 0.02)
    #expect(abs(p.sceneTime(at: 101) - (3 - 0.02 + 1)) < 1e-12)
    p.pause(at: 101)
    #expect(p.phase == .paused(since: 101))
    #expect(p.inactiveWait(now: 101.5) == 101.52)
    p.resume(at: 103)
    #expect(p.phase == .ready)
    #expect(abs(p.sceneTime(at: 104) - (3 - 0.02 + 2)) < 1e-12)
    _ = p.presented(at: 104, drawSeconds: 0.001)
    #expect(abs(p.frameTime - (3 - 0.02 + 2)) < 1e-12)
  }

  @Test("late latching: the lead is 1.5 x the drawing estimate plus a margin that learns")
  func latchLead() throws {
    let interval = 1.0 / 60
    var p = LivePacing(
      framesPerSecond: 60, refreshRate: 60, vsynced: true, latchesLate: true, startTime: 0,
      origin: 0)
    p.beginFrame(at: 0)
    let start = p.presented(at: interval, drawSeconds: 0.005)
    #expect(p.phase == .latching(until: try #require(start)))
    // First present: the margin shrinks from 4 ms by 0.05 ms.
    #expect(abs(p.latchMargin - 0.00395) < 1e-12)
    #expect(abs(p.latchLead - (0.0075 + 0.00395)) < 1e-12)
    #expect(abs(try #require(start) - (2 * interval - p.latchLead)) < 1e-12)
    // The estimate decays by 3 % a frame; a present 3 intervals later is late: +2 ms.
    p.beginFrame(at: 0.03)
    #expect(abs(p.drawEstimate - 0.005 * 0.97) < 1e-12)
    _ = p.presented(at: 4 * interval, drawSeconds: 0.001)
    #expect(p.latePresents == 1)
    #expect(abs(p.latchMargin - 0.00595) < 1e-12)
    // On time for a long while: the margin settles at 3 ms, never below.
    var t = 4 * interval
    for _ in 0..<200 {
      p.beginFrame(at: t)
      t += interval
      _ = p.presented(at: t, drawSeconds: 0.001)
    }
    #expect(p.latchMargin == 0.003)
    // Late every frame: the margin is capped at one interval, and so is the lead.
    for _ in 0..<200 {
      p.beginFrame(at: t)
      t += 2 * interval
      _ = p.presented(at: t, drawSeconds: 0.05)
    }
    #expect(p.latchMargin == interval)
    #expect(p.latchLead == interval)
  }

  @Test("hidden, unchanged and shown again")
  func hiddenAndUnchanged() {
    var p = LivePacing(
      framesPerSecond: 60, refreshRate: 60, vsynced: true, latchesLate: false, startTime: 0,
      origin: 0)
    let becameVisible = p.setVisible(false)
    #expect(!becameVisible)
    #expect(p.phase == .hidden)
    #expect(p.inactiveWait(now: 1) == 1 + 1.0 / 60)
    #expect(p.hiddenFramePassed(at: 2) == 2 - 1.0 / 60)
    let shown = p.setVisible(true)
    #expect(shown)
    #expect(p.phase == .ready)
    #expect(p.inactiveWait(now: 2) == nil)
    #expect(p.unchangedWait(now: 2) == 2 + 1.0 / 60)
    let capped = LivePacing(
      framesPerSecond: 30, refreshRate: 60, vsynced: false, latchesLate: false, startTime: 0,
      origin: 0)
    #expect(capped.unchangedWait(now: 2) == 2)  // the cap already waits
  }
}

@Suite("Live loop pacing on a manual clock (no real waits)")
private struct LiveLoopPacingTests {
  @Test("vsync grid: presents on refresh ticks, frames start right after, targets one tick apart")
  func vsyncGrid() throws {
    let manual = ManualMonotonicClock(start: 5)
    let display = ManualDisplay(manual: manual)
    let content = ManualContent(manual: manual, drawSeconds: 0.004)
    let loop = try run(display, content, frames: 120)
    #expect(display.presents.count == 120)
    for (i, t) in display.presents.enumerated() {
      #expect(abs(t * 60 - (5 * 60 + Double(i + 1))) < 1e-6, "present \(i) at \(t)")
    }
    #expect(zip(content.starts.dropFirst(), display.presents).allSatisfy { $0 == $1 })
    #expect(loop.statistics.dropped == 0)
    #expect(abs(loop.statistics.intervalMedianMilliseconds - 1000.0 / 60) < 1e-6)
    let targets = content.frames.map(\.targetTimestamp)
    #expect(zip(targets, targets.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 60) < 1e-6 })
    #expect(display.waits == 0)
  }

  @Test("dropped frames: a slow frame misses its refresh, is counted, and targets still rise")
  func droppedFrames() throws {
    let manual = ManualMonotonicClock()
    let display = ManualDisplay(manual: manual)
    let content = ManualContent(manual: manual, drawSeconds: 0.004)
    content.slowFrames = [10: 0.030, 20: 0.020, 30: 0.050]
    let loop = try run(display, content, frames: 40)
    #expect(loop.statistics.dropped == 3)
    let intervals = zip(display.presents, display.presents.dropFirst()).map { $1 - $0 }
    #expect(intervals.filter { $0 > 1.5 / 60 }.count == 3)
    let targets = content.frames.map(\.targetTimestamp)
    #expect(zip(targets, targets.dropFirst()).allSatisfy { $1 > $0 })
  }

  @Test("frame cap: --fps 30 on a 60 Hz display and 25 without vsync", arguments: [true, false])
  func frameCap(vsynced: Bool) throws {
    let manual = ManualMonotonicClock()
    let display = ManualDisplay(manual: manual, vsynced: vsynced)
    let content = ManualContent(manual: manual, drawSeconds: 0.003)
    let fps = vsynced ? 30.0 : 25.0
    let loop = try run(display, content, frames: 60, fps: fps)
    #expect(loop.statistics.targetFramesPerSecond == fps)
    #expect(loop.pacing?.mode == .frameCap)
    // From the second present on (the first frame starts at once, off the grid's phase).
    let intervals = zip(display.presents, display.presents.dropFirst()).map { $1 - $0 }
    #expect(intervals.dropFirst().allSatisfy { abs($0 - 1 / fps) < 1e-6 }, "\(intervals)")
    #expect(loop.statistics.dropped == 0)
    // Each frame starts on the grid (half a refresh early on the vsynced display).
    let slack = vsynced ? 0.5 / 60 : 0
    for (i, s) in content.starts.enumerated() where i > 0 {
      #expect(abs(s - (Double(i) / fps - slack)) < 1e-6, "frame \(i) started at \(s)")
    }
  }

  @Test(
    "late latching: after a few frames each starts within its lead of the refresh, none dropped",
    arguments: [0.002, 0.006, 0.010])
  func lateLatching(drawSeconds: Double) throws {
    let manual = ManualMonotonicClock()
    let display = ManualDisplay(manual: manual)
    let content = ManualContent(manual: manual, drawSeconds: drawSeconds, latchesLate: true)
    let loop = try run(display, content, frames: 120)
    #expect(loop.pacing?.mode == .lateLatching)
    #expect(loop.statistics.dropped == 0)
    let pacing = try #require(loop.pacing)
    #expect(pacing.latePresents == 0)
    // Frame k (from 3 on) is presented at the refresh after it started; it started the lead
    // before that refresh: 1.5 x the drawing time plus a 3-4 ms margin.
    for (k, start) in content.starts.enumerated().dropFirst(3) {
      let lead = display.presents[k] - start
      #expect(lead >= drawSeconds - 1e-9, "frame \(k) started too late")
      #expect(
        lead <= 1.5 * drawSeconds + 0.004 + 1e-9, "frame \(k) started \(lead * 1000) ms early")
    }
  }

  @Test("late latching learns a longer lead after a late frame, then settles again")
  func latchMarginLearns() throws {
    let manual = ManualMonotonicClock()
    let display = ManualDisplay(manual: manual)
    let content = ManualContent(manual: manual, drawSeconds: 0.004, latchesLate: true)
    content.slowFrames = [20: 0.025]
    let loop = try run(display, content, frames: 30)
    let pacing = try #require(loop.pacing)
    #expect(pacing.latePresents == 1)
    #expect(loop.statistics.dropped == 1)
    // The slow frame raised the drawing estimate to 25 ms: the lead is capped at one interval.
    let lead21 = display.presents[21] - content.starts[21]
    #expect(abs(lead21 - 1.0 / 60) < 1e-9, "\(lead21)")
  }

  @Test("hidden: nothing drawn or presented, the content idles on, shown again without a drop")
  func hidden() throws {
    let manual = ManualMonotonicClock()
    let display = ManualDisplay(manual: manual)
    display.queued = [[], [], [.visibility(false)], [], [], [], [], [.visibility(true)]]
    let content = ManualContent(manual: manual, drawSeconds: 0.004)
    let loop = try run(display, content, frames: 6)
    #expect(loop.statistics.hiddenFrames == 5)
    #expect(content.idled.count == 5)
    #expect(loop.statistics.frames == 6)
    #expect(loop.statistics.dropped == 0)
    let idle = content.idled.map(\.targetTimestamp)
    // Idle frames follow the display's clock one interval apart (the display link keeps targets
    // rising by a quarter interval until the clock passes the last drawn frame's target).
    #expect(zip(idle, idle.dropFirst()).allSatisfy { $1 > $0 }, "\(idle)")
    #expect(abs(idle[4] - idle[3] - 1.0 / 60) < 1e-9 && abs(idle[3] - idle[2] - 1.0 / 60) < 1e-9)
    // The first frame after showing again continues from the idle scene time.
    let after = try #require(content.frames.dropFirst(2).first?.targetTimestamp)
    let lastIdle = try #require(idle.last)
    #expect(after > lastIdle)
  }

  @Test("unchanged frames are not presented; the loop waits one interval for each")
  func unchanged() throws {
    let manual = ManualMonotonicClock()
    let display = ManualDisplay(manual: manual)
    let content = ManualContent(manual: manual, drawSeconds: 0.001)
    content.changes = false
    let loop = try run(display, content, frames: 10)
    // The first frame is always drawn and shown; the other nine changed nothing.
    #expect(display.presents.count == 1)
    #expect(loop.unchangedFrames == 9)
    #expect(loop.statistics.unchangedFrames == 9)
    let starts = content.starts
    #expect(
      zip(starts.dropFirst(), starts.dropFirst(2)).allSatisfy {
        abs($1 - $0 - (0.001 + 1.0 / 60)) < 1e-9
      })
  }
}
