/// The phases of an ``IIOSource``'s reader and the rules that move between them, as a value:
/// times and outcomes go in, the next thing to do comes out. The source's driver does the I/O
/// (sysfs writes, reads of `/dev/iio:deviceN`, waits on the source's clock) and reports what
/// happened; everything it decides is decided here, so the rules are tested without devices or
/// waits.
///
/// ```
///            open ok (buffered)            scan
///   ready ───────────────────▶ streaming ◀──────── awaitingFirstScan
///     │  open ok (automatic) ─────────────────────────▶ │
///     │  open failed (automatic), polled mode            │ no scan before the deadline
///     ▼                                                  ▼
///   polling ◀────────────────────────────────────────────┘
///   any phase ── device gone ──▶ lost ── devices back ──▶ ready
///   any phase ── stop ──▶ ready
/// ```
struct IIOReaderMachine: Sendable, Equatable {
  /// Where the reader is.
  enum Phase: Sendable, Equatable {
    /// Devices discovered, nothing open: the next read opens them.
    case ready
    /// Buffers enabled in automatic mode, no scan yet: polling takes over at the deadline
    /// (a device whose trigger is not set never delivers scans), seconds on the source's clock.
    case awaitingFirstScan(deadline: Double)
    /// Buffered scans arrive from the character devices.
    case streaming
    /// The `_raw` files are read every `period` seconds; the next read is due at `nextTick`.
    case polling(period: Double, nextTick: Double)
    /// A device disappeared; the sysfs root is searched for it again at `nextSearch`.
    case lost(reason: String, nextSearch: Double)
  }

  /// What the driver does next.
  enum Step: Sendable, Equatable {
    /// Open the devices: enable the buffers when `buffered`, else start polling.
    case open(buffered: Bool)
    /// Wait for the next buffered reading, until `deadline` when there is one.
    case readScan(deadline: Double?)
    /// Wait until `time`, then read the `_raw` files.
    case poll(at: Double)
    /// Wait until `time`, then look for the lost devices.
    case search(at: Double)
  }

  /// What the driver must do as a consequence of an event.
  enum Effect: Sendable, Equatable {
    /// Nothing beyond the new phase.
    case none
    /// Disable the buffers and stop the reader threads.
    case closeBuffers
    /// Disable the buffers (if any are open) and report polling, with the reason buffered
    /// reads are not used (`nil` when polling was asked for).
    case fallBackToPolling(reason: String?)
    /// Fail for good with this message (buffered mode and the buffer cannot be used).
    case fail(String)
  }

  /// How the source reads (buffered, polled or automatic).
  let mode: IIOReadMode
  /// The polling period, seconds.
  let pollingPeriod: Double
  /// How long automatic mode waits for the first scan, seconds.
  let firstScanTimeout: Double
  /// How often a lost device is looked for, seconds.
  let reconnectInterval: Double
  /// The current phase.
  private(set) var phase = Phase.ready

  /// Creates a machine in ``Phase/ready``.
  ///
  /// - Parameters:
  ///   - mode: Buffered, polled or automatic.
  ///   - pollingPeriod: Seconds between polls (positive).
  ///   - firstScanTimeout: Seconds automatic mode waits for the first scan.
  ///   - reconnectInterval: Seconds between searches for a lost device (at least 1 ms).
  init(
    mode: IIOReadMode, pollingPeriod: Double, firstScanTimeout: Double, reconnectInterval: Double
  ) {
    self.mode = mode
    self.pollingPeriod = pollingPeriod
    self.firstScanTimeout = firstScanTimeout
    self.reconnectInterval = max(reconnectInterval, 0.001)
  }

  /// The next step in the current phase.
  var step: Step {
    switch phase {
    case .ready: .open(buffered: mode != .polled)
    case .awaitingFirstScan(let deadline): .readScan(deadline: deadline)
    case .streaming: .readScan(deadline: nil)
    case .polling(_, let nextTick): .poll(at: nextTick)
    case .lost(_, let nextSearch): .search(at: nextSearch)
    }
  }

  /// True while buffers are open (waiting for the first scan, or streaming).
  var buffersOpen: Bool {
    switch phase {
    case .awaitingFirstScan, .streaming: true
    default: false
    }
  }

  /// The buffers were enabled.
  ///
  /// - Parameter now: The source's clock, seconds.
  mutating func buffersOpened(at now: Double) {
    phase = mode == .automatic ? .awaitingFirstScan(deadline: now + firstScanTimeout) : .streaming
  }

  /// The buffers could not be used (no scan elements, no permission, no character device).
  ///
  /// - Parameters:
  ///   - reason: Why, naming the file.
  ///   - now: The source's clock, seconds.
  /// - Returns: ``Effect/fail(_:)`` in buffered mode, else ``Effect/fallBackToPolling(reason:)``.
  mutating func buffersFailed(_ reason: String, at now: Double) -> Effect {
    if mode == .buffered { return .fail(reason) }
    phase = .polling(period: pollingPeriod, nextTick: now)
    return .fallBackToPolling(reason: reason)
  }

  /// Polling starts without trying the buffers (polled mode).
  ///
  /// - Parameter now: The source's clock, seconds.
  /// - Returns: ``Effect/fallBackToPolling(reason:)`` without a reason.
  mutating func pollingStarted(at now: Double) -> Effect {
    phase = .polling(period: pollingPeriod, nextTick: now)
    return .fallBackToPolling(reason: nil)
  }

  /// A buffered reading arrived.
  mutating func scanArrived() {
    if buffersOpen { phase = .streaming }
  }

  /// The first-scan deadline passed without a scan.
  ///
  /// - Parameter now: The source's clock, seconds.
  /// - Returns: ``Effect/fallBackToPolling(reason:)`` saying no scan arrived.
  mutating func firstScanTimedOut(at now: Double) -> Effect {
    phase = .polling(period: pollingPeriod, nextTick: now)
    return .fallBackToPolling(
      reason: "no buffered scan arrived within \(firstScanTimeout) s "
        + "(is the device's trigger set?)")
  }

  /// A poll was made at its tick: the next tick is one period on, or one period after `now`
  /// when the poll ran so late that the tick after it has passed too (no burst of catch-up
  /// polls).
  ///
  /// - Parameter now: The source's clock after the wait, seconds.
  mutating func polled(at now: Double) {
    guard case .polling(let period, let tick) = phase else { return }
    let following = tick + period
    phase = .polling(period: period, nextTick: following < now ? now + period : following)
  }

  /// A device disappeared (its folder vanished, `ENODEV`, a hang-up).
  ///
  /// - Parameters:
  ///   - reason: What happened, naming the file.
  ///   - now: The source's clock, seconds.
  /// - Returns: ``Effect/closeBuffers`` when buffers were open, else ``Effect/none``.
  mutating func deviceGone(_ reason: String, at now: Double) -> Effect {
    let open = buffersOpen
    phase = .lost(reason: reason, nextSearch: now)
    return open ? .closeBuffers : .none
  }

  /// A search for the lost devices found them all: the next read opens them again.
  mutating func devicesReturned() {
    if case .lost = phase { phase = .ready }
  }

  /// A search did not find every device: search again one interval later.
  mutating func devicesStillMissing() {
    guard case .lost(let reason, let at) = phase else { return }
    phase = .lost(reason: reason, nextSearch: at + reconnectInterval)
  }

  /// The source was stopped: back to ``Phase/ready`` (a later read opens the devices again).
  ///
  /// - Returns: ``Effect/closeBuffers`` when buffers were open, else ``Effect/none``.
  mutating func stopped() -> Effect {
    let open = buffersOpen
    phase = .ready
    return open ? .closeBuffers : .none
  }
}
