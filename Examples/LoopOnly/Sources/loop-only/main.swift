// Runs Swell's live loop on a display of the host's own: a 60 Hz display on a manual clock
// (a present returns at the next refresh tick, waits only move the clock), which keeps the last
// frame's centre pixel. It prints the loop's statistics and the frames drawn.
import Foundation
import SwellGeometry
import SwellLayers
import SwellLiveLoop
import SwellTime

/// The host's display: 64 × 32 pixels, presents on a 60 Hz grid of a manual clock.
final class HostDisplay: LiveDisplay {
  let manual = ManualMonotonicClock()
  let frameSize = (width: 64, height: 32)
  let isVsynced = true
  let refreshRate = 60.0
  let displayName = "host display"
  private(set) var centre: UInt32 = 0

  func now() -> Double { manual.now }
  func pollEvents() -> [LiveEvent] { [] }
  func present(
    _ canvas: LiveCanvas, readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double {
    centre = canvas.pixel(x: 32, y: 16) ?? 0
    let tick = (manual.now * refreshRate + 1e-9).rounded(.down) + 1
    manual.advance(by: tick / refreshRate - manual.now)
    return manual.now
  }
  func wait(seconds: Double) { if seconds > 0 { manual.advance(by: seconds) } }
}

/// Fills each frame with a colour that changes with the frame's target time.
final class Content: LiveContent {
  private(set) var frames = 0
  func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas) throws {
    frames += 1
    canvas.fill(
      Color(
        red: 0.2, green: (frame.targetTimestamp * 0.5).truncatingRemainder(dividingBy: 1), blue: 0.8
      ))
  }
  func handle(_ event: LiveEvent, at time: Double) {}
  func hudLines(at time: Double) -> [String] { [] }
}

let display = HostDisplay()
let content = Content()
var options = LiveLoopOptions()
options.frameLimit = 120
let loop = LiveLoop(
  display: display, content: content, options: options, clock: display.manual.clock)
try loop.run()
print("frames drawn: \(content.frames)")
print(String(format: "centre pixel: %08X", display.centre))
print(loop.statistics.jsonLine)
