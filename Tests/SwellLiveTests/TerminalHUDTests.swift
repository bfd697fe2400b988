import Foundation
import SwellGeometry
import SwellLayers
import SwellTime
import Testing

@testable import SwellLive

/// Fills each frame with one colour and gives one HUD line of its own.
private final class PlainContent: LiveContent {
  func render(_ frame: DisplayLinkFrame, into canvas: LiveCanvas) throws {
    canvas.fill(Color(red: 0.2, green: 0.4, blue: 0.8))
  }
  func handle(_ event: LiveEvent, at time: Double) {}
  func hudLines(at time: Double) -> [String] { ["tilt 12.5°", "motion keyboard"] }
}

/// A pseudo-terminal pair: the view writes to the follower, the test reads the leader.
private struct PseudoTerminal {
  let leader: Int32
  let follower: Int32

  /// Linux's `TIOCSPTLCK` and `TIOCGPTN` (`_IOW('T', 0x31, int)`, `_IOR('T', 0x30, unsigned)`):
  /// glibc's `posix_openpt`, `unlockpt` and `ptsname` are not visible to Swift without
  /// `_XOPEN_SOURCE`, so the leader is opened and unlocked by hand.
  private static let unlock: UInt = 0x4004_5431
  private static let number: UInt = 0x8004_5430

  init(columns: UInt16, rows: UInt16) throws {
    leader = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    guard leader >= 0 else { throw POSIXError(.ENODEV) }
    var locked: Int32 = 0
    var index: UInt32 = 0
    guard ioctl(leader, Self.unlock, &locked) == 0, ioctl(leader, Self.number, &index) == 0
    else { throw POSIXError(.ENODEV) }
    follower = open("/dev/pts/\(index)", O_RDWR | O_NOCTTY)
    guard follower >= 0 else { throw POSIXError(.ENODEV) }
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(follower, UInt(TIOCSWINSZ), &size)
  }

  /// Everything the view has written so far (the leader is read until it has nothing more).
  func drain() -> String {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    var pollInfo = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
    while poll(&pollInfo, 1, 0) > 0 {
      let n = buffer.withUnsafeMutableBytes { read(leader, $0.baseAddress, $0.count) }
      guard n > 0 else { break }
      out += buffer[0..<n]
    }
    return String(decoding: out, as: UTF8.self)
  }

  func close() {
    _ = Foundation.close(follower)
    _ = Foundation.close(leader)
  }
}

@Suite("Terminal HUD as text")
private struct TerminalHUDTests {
  @Test("a text-style canvas keeps the HUD lines and leaves its pixels alone")
  func canvasKeepsText() throws {
    let canvas = try LiveCanvas(width: 40, height: 30)
    canvas.fill(Color(red: 0, green: 1, blue: 0))
    let before = canvas.pixel(x: 5, y: 5)
    canvas.hudStyle = .text
    canvas.drawHUD(lines: ["30.0 fps", "t 1.00 s"])
    #expect(canvas.pixel(x: 5, y: 5) == before)
    #expect(canvas.takeHUDText() == ["30.0 fps", "t 1.00 s"])
    #expect(canvas.takeHUDText().isEmpty)
    // The pixel style still draws the dark box over the corner.
    canvas.hudStyle = .pixels
    canvas.drawHUD(lines: ["30.0 fps"])
    #expect(canvas.pixel(x: 2, y: 2) != before)
  }

  @Test("the status line is the lines joined, control characters blanked, fitted to the width")
  func statusLine() {
    #expect(HalfBlockEncoder.statusLine(["a", "b"], columns: 8) == "a | b   ")
    #expect(HalfBlockEncoder.statusLine(["abcdefghij"], columns: 6) == "abcde…")
    #expect(HalfBlockEncoder.statusLine(["x\u{1B}[2Jy\n"], columns: 8) == "x [2Jy  ")
    #expect(HalfBlockEncoder.statusLine(["tilt 12°×"], columns: 10).count == 10)
    #expect(HalfBlockEncoder.statusLine(["a"], columns: 0).isEmpty)
  }

  @Test("encode with a status line: the last row is the text, the rows above are half blocks")
  func encodeStatusLine() {
    let px = [UInt32](repeating: 0xFF00_80FF, count: 4 * 6)
    let bytes = px.withUnsafeBytes {
      HalfBlockEncoder.encode(
        pixels: $0, width: 4, height: 6, bytesPerRow: 16, columns: 4, rows: 3,
        statusLine: ["hud"])
    }
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(
      text.contains(
        "\u{1B}[3;1H\u{1B}[0m\u{1B}[38;2;255;255;255m\u{1B}[48;2;40;40;40mhud \u{1B}[0m"))
    #expect(text.contains("\u{1B}[1;1H") && text.contains("\u{1B}[2;1H"))
    // Two picture rows of four cells.
    #expect(text.components(separatedBy: "▀").count - 1 == 8)
  }

  @Test(
    "swell live --terminal --hud: an 80-column terminal's last row shows the HUD as text, the scene's values first",
    .enabled(if: FileManager.default.fileExists(atPath: "/dev/ptmx")))
  func terminalViewPrintsHUD() throws {
    let pty = try PseudoTerminal(columns: 80, rows: 12)
    defer { pty.close() }
    let view = try TerminalView(input: pty.follower, output: pty.follower)
    var options = LiveLoopOptions()
    options.frameLimit = 2
    options.showHUD = true
    options.framesPerSecondCap = 1000
    let loop = LiveLoop(display: view, content: PlainContent(), options: options)
    try loop.run()
    view.close()
    let output = pty.drain()
    // The HUD row: row 12, white on grey, the loop's lines, then the content's.
    let style = "\u{1B}[12;1H\u{1B}[0m\u{1B}[38;2;255;255;255m\u{1B}[48;2;40;40;40m"
    let pieces = output.components(separatedBy: "\u{1B}[12;1H")
    #expect(pieces.count == 3, "one HUD row per frame")
    #expect(pieces.dropFirst().allSatisfy { ("\u{1B}[12;1H" + $0).hasPrefix(style) })
    let rows = output.components(separatedBy: style).dropFirst().map {
      String($0.prefix { $0 != "\u{1B}" })
    }
    let row = try #require(rows.last)
    #expect(row.count == 80)
    // At 80 columns the content's values come first, then the loop's frame rate and time.
    #expect(row.hasPrefix("tilt 12.5° | motion keyboard | "), "\(row)")
    #expect(row.contains(" fps ") && row.contains(" ms t "), "\(row)")
    // Rows 1-11 are the picture, drawn with half blocks.
    #expect(output.contains("\u{1B}[11;1H\u{1B}[38;2;"))
  }
}

@Suite("The terminal view on the session's clock")
private struct TerminalClockTests {
  @Test("now() and wait(seconds:) are the given clock's: a manual clock moves only when told")
  func manualClock() throws {
    let pty = try PseudoTerminal(columns: 40, rows: 12)
    defer { pty.close() }
    let manual = ManualMonotonicClock(start: 500)
    let view = try TerminalView(input: pty.follower, output: pty.follower, clock: manual.clock)
    defer { view.close() }
    #expect(view.now() == 0)
    manual.advance(by: 1.25)
    #expect(view.now() == 1.25)
    // A wait on the manual clock moves it at once (no real sleep); at most one second a call.
    view.wait(seconds: 0.4)
    #expect(abs(manual.now - 501.65) < 1e-9)
    view.wait(seconds: 7)
    #expect(abs(manual.now - 502.65) < 1e-9)
    view.wait(seconds: -3)
    #expect(abs(view.now() - 2.65) < 1e-9)
  }
}
