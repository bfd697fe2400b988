import Foundation
import SwellTime
import Synchronization

/// Set from signal handlers (async-signal-safe atomic stores), read by the loop.
private let terminalInterrupted = Atomic<Bool>(false)
private let terminalResized = Atomic<Bool>(false)

/// A live view in the terminal: true-colour half blocks (``HalfBlockEncoder``) on the alternate
/// screen, keys read in raw mode.
///
/// Input uses `VMIN = 0`, `VTIME = 0` so reads never block, and never `O_NONBLOCK` (in a
/// pseudo-terminal stdin and stdout share one file description, and a non-blocking stdout
/// truncates large frames). The terminal size comes from `TIOCGWINSZ` and `SIGWINCH`. `SIGINT`
/// and `SIGTERM` set a flag that ``pollEvents()`` turns into `SwellLiveLoop/LiveEvent/quit`, so the loop
/// ends normally and ``close()`` (or `deinit`) restores the terminal: main screen, cursor,
/// attributes and the saved `termios`.
public final class TerminalView: LiveDisplay {
  /// How many frame pixels each half-block pixel averages in each direction.
  public let supersampling: Int
  /// The cell grid, columns × rows.
  public private(set) var gridSize: (columns: Int, rows: Int)
  private let input: Int32
  private let output: Int32
  private var saved = termios()
  private var isOpen = true
  private var decoder = TerminalKeyDecoder()
  private var previousSignals: [(Int32, sigaction)] = []

  /// Opens the view: saves and changes the terminal modes, enters the alternate screen, hides
  /// the cursor and installs the signal handlers.
  ///
  /// - Parameters:
  ///   - input: The terminal to read keys from (default standard input).
  ///   - output: The terminal to draw on (default standard output).
  ///   - supersampling: Frame pixels per half-block pixel per direction (default 4).
  ///   - clock: The clock ``now()`` reads and ``wait(seconds:)`` waits on (default: the system's
  ///     monotonic clock; a live session passes its feed's).
  /// - Throws: `SwellLiveLoop/LiveWindowError` when `input` or `output` is not a terminal.
  public init(
    input: Int32 = 0, output: Int32 = 1, supersampling: Int = 4,
    clock: MonotonicClock = .continuous
  ) throws(LiveWindowError) {
    guard isatty(input) != 0 else {
      throw LiveWindowError(.notATerminal("standard input"))
    }
    guard isatty(output) != 0 else {
      throw LiveWindowError(.notATerminal("standard output"))
    }
    self.input = input
    self.output = output
    self.clock = clock
    self.supersampling = max(1, supersampling)
    gridSize = TerminalView.querySize(output)
    guard tcgetattr(input, &saved) == 0 else {
      throw LiveWindowError("cannot read the terminal modes: \(String(cString: strerror(errno)))")
    }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 0
      cc[Int(VTIME)] = 0
    }
    tcsetattr(input, TCSANOW, &raw)
    terminalInterrupted.store(false, ordering: .relaxed)
    terminalResized.store(false, ordering: .relaxed)
    for sig in [SIGINT, SIGTERM, SIGHUP] {
      previousSignals.append(
        (
          sig,
          TerminalView.install(sig) { _ in
            terminalInterrupted.store(true, ordering: .relaxed)
          }
        ))
    }
    previousSignals.append(
      (
        SIGWINCH,
        TerminalView.install(SIGWINCH) { _ in
          terminalResized.store(true, ordering: .relaxed)
        }
      ))
    write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    origin = clock.now()
  }

  private var origin = 0.0
  /// The clock of ``now()`` and ``wait(seconds:)``.
  public let clock: MonotonicClock

  deinit { close() }

  /// Restores the terminal (idempotent): attributes reset, cursor shown, main screen, saved
  /// `termios`, previous signal handlers.
  public func close() {
    guard isOpen else { return }
    isOpen = false
    write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    tcsetattr(input, TCSANOW, &saved)
    for (sig, old) in previousSignals.reversed() {
      var action = old
      sigaction(sig, &action, nil)
    }
    previousSignals = []
  }

  /// The frame size to render: the cell grid × 1 × 2 × ``supersampling``, pixels.
  public var frameSize: (width: Int, height: Int) {
    Self.frameSize(columns: gridSize.columns, rows: gridSize.rows, supersampling: supersampling)
  }

  /// The frame size a grid is rendered at: `columns × supersampling` by
  /// `2·rows × supersampling` pixels. A cell is about twice as tall as it is wide and shows two
  /// pixels, one above the other, so the frame has the grid's shape on screen (80 × 24 cells are
  /// 320 × 192 pixels at 4×, 5:3), and a scene laid out for the frame fills the whole grid.
  ///
  /// - Parameters:
  ///   - columns: Character cells across.
  ///   - rows: Character cells down.
  ///   - supersampling: Frame pixels per half-block pixel per direction.
  /// - Returns: The frame size, pixels.
  public static func frameSize(columns: Int, rows: Int, supersampling: Int) -> (
    width: Int, height: Int
  ) {
    (columns * supersampling, rows * 2 * supersampling)
  }

  /// False: a terminal has no vertical sync; loops pace themselves.
  public var isVsynced: Bool { false }

  /// 60: a nominal refresh rate.
  public var refreshRate: Double { 60 }

  /// `terminal COLUMNS×ROWS`.
  public var displayName: String { "terminal \(gridSize.columns)×\(gridSize.rows)" }

  /// Seconds since the view opened, monotonic clock.
  ///
  /// - Returns: Seconds.
  public func now() -> Double { clock.now() - origin }

  /// Reads the keys typed since the last call (never waits) and reports resizes and
  /// interrupts.
  ///
  /// - Returns: The events, in order.
  public func pollEvents() -> [LiveEvent] {
    var events: [LiveEvent] = []
    if terminalInterrupted.exchange(false, ordering: .relaxed) { events.append(.quit) }
    if terminalResized.exchange(false, ordering: .relaxed) {
      let size = TerminalView.querySize(output)
      if size != gridSize {
        gridSize = size
        write("\u{1B}[2J")
        events.append(.resized(width: frameSize.width, height: frameSize.height))
      }
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 256)
    while true {
      let n = buffer.withUnsafeMutableBytes { Foundation.read(input, $0.baseAddress, $0.count) }
      guard n > 0 else { break }
      bytes += buffer[0..<n]
      if n < buffer.count { break }
    }
    events += decoder.decode(bytes).map { LiveEvent.key($0) }
    return events
  }

  /// The canvas for the next frame (`SwellLiveLoop/LiveCanvas/owned(reusing:size:)` at ``frameSize``), with
  /// its HUD kept as text (`SwellLiveLoop/LiveCanvas/HUDStyle/text`): ``present(_:readBack:)`` prints it in
  /// the grid's last row, where it can be read, instead of 13-pixel text that the half blocks
  /// would blur away.
  ///
  /// - Parameter current: The canvas of the previous frame, or `nil`.
  /// - Returns: The canvas.
  /// - Throws: `SwellLiveLoop/LiveWindowError` when the size cannot be allocated.
  public func canvas(reusing current: LiveCanvas?) throws -> LiveCanvas {
    let canvas = try LiveCanvas.owned(reusing: current, size: frameSize)
    canvas.hudStyle = .text
    return canvas
  }

  /// Draws a frame as half blocks over the whole grid; when the frame has a HUD
  /// (`SwellLiveLoop/LiveCanvas/takeHUDText()`), its lines are printed as text in the last row
  /// (``HalfBlockEncoder/statusLine(_:columns:)``).
  ///
  /// - Parameters:
  ///   - canvas: The frame (any size; it is box-filtered to the grid).
  ///   - readBack: When given, receives the canvas pixels.
  /// - Returns: When the frame was written, seconds.
  /// - Throws: What `readBack` throws.
  public func present(
    _ canvas: LiveCanvas, readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double {
    let hud = canvas.takeHUDText()
    let encoded = try canvas.withUnsafeBytes { bytes in
      try readBack?(canvas.width, canvas.height, canvas.bytesPerRow, bytes)
      return HalfBlockEncoder.encode(
        pixels: bytes, width: canvas.width, height: canvas.height,
        bytesPerRow: canvas.bytesPerRow, columns: gridSize.columns, rows: gridSize.rows,
        statusLine: hud.isEmpty ? nil : hud)
    }
    write(encoded)
    return now()
  }

  /// Sleeps.
  ///
  /// - Parameter seconds: Seconds (nothing for zero or less; at most 1).
  public func wait(seconds: Double) {
    guard seconds > 0 else { return }
    clock.wait(seconds: min(seconds, 1))
  }

  private func write(_ text: String) { write(Array(text.utf8)) }

  private func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buf in
      var offset = 0
      while offset < buf.count {
        let n = Foundation.write(output, buf.baseAddress.map { $0 + offset }, buf.count - offset)
        if n < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          return
        }
        offset += n
      }
    }
  }

  private static func querySize(_ fd: Int32) -> (columns: Int, rows: Int) {
    var ws = winsize()
    if ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
      return (Int(ws.ws_col), Int(ws.ws_row))
    }
    return (80, 24)
  }

  private static func install(
    _ sig: Int32, _ handler: @convention(c) (Int32) -> Void
  ) -> sigaction {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    var old = sigaction()
    sigaction(sig, &action, &old)
    return old
  }
}
