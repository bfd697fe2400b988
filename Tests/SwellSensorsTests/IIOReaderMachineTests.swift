import Testing

@testable import SwellSensors

@Suite("IIO reader phases (IIOReaderMachine)")
private struct IIOReaderMachineTests {
  private func machine(_ mode: IIOReadMode) -> IIOReaderMachine {
    IIOReaderMachine(mode: mode, pollingPeriod: 0.01, firstScanTimeout: 2, reconnectInterval: 0.5)
  }

  @Test("automatic: open, wait for the first scan until the deadline, then stream")
  func automaticStreams() {
    var m = machine(.automatic)
    #expect(m.step == .open(buffered: true))
    m.buffersOpened(at: 10)
    #expect(m.step == .readScan(deadline: 12))
    #expect(m.buffersOpen)
    m.scanArrived()
    #expect(m.phase == .streaming)
    #expect(m.step == .readScan(deadline: nil))
  }

  @Test("automatic: no first scan before the deadline falls back to polling, saying why")
  func automaticTimesOut() {
    var m = machine(.automatic)
    m.buffersOpened(at: 0)
    let effect = m.firstScanTimedOut(at: 2)
    guard case .fallBackToPolling(let reason?) = effect else {
      Issue.record("expected a fallback with a reason, got \(effect)")
      return
    }
    #expect(reason.contains("no buffered scan arrived within 2.0 s"))
    #expect(m.step == .poll(at: 2))
    #expect(!m.buffersOpen)
  }

  @Test("buffers that cannot be used: buffered mode fails for good, automatic polls")
  func buffersFail() {
    var strict = machine(.buffered)
    #expect(strict.buffersFailed("no permission", at: 1) == .fail("no permission"))
    #expect(strict.phase == .ready)
    var auto = machine(.automatic)
    #expect(
      auto.buffersFailed("no permission", at: 1) == .fallBackToPolling(reason: "no permission"))
    #expect(auto.step == .poll(at: 1))
    var polled = machine(.polled)
    #expect(polled.step == .open(buffered: false))
    #expect(polled.pollingStarted(at: 3) == .fallBackToPolling(reason: nil))
    #expect(polled.step == .poll(at: 3))
  }

  @Test("polling ticks on a grid; a late poll skips the missed ticks instead of bursting")
  func pollingGrid() {
    var m = machine(.polled)
    _ = m.pollingStarted(at: 0)
    m.polled(at: 0)
    #expect(m.step == .poll(at: 0.01))
    m.polled(at: 0.0105)
    #expect(m.step == .poll(at: 0.02))
    m.polled(at: 0.05)  // very late: the next tick is one period after now
    #expect(m.step == .poll(at: 0.05 + 0.01))
  }

  @Test("a lost device is searched for every reconnect interval until it returns")
  func lostAndFound() {
    var m = machine(.buffered)
    m.buffersOpened(at: 0)
    #expect(m.deviceGone("iio:device0 hung up", at: 4) == .closeBuffers)
    #expect(m.step == .search(at: 4))
    m.devicesStillMissing()
    #expect(m.step == .search(at: 4.5))
    m.devicesStillMissing()
    #expect(m.step == .search(at: 5))
    m.devicesReturned()
    #expect(m.step == .open(buffered: true))
    var polled = machine(.polled)
    _ = polled.pollingStarted(at: 0)
    #expect(polled.deviceGone("gone", at: 1) == .none)
  }

  @Test("stop closes open buffers and returns to ready")
  func stop() {
    var m = machine(.automatic)
    m.buffersOpened(at: 0)
    #expect(m.stopped() == .closeBuffers)
    #expect(m.phase == .ready)
    #expect(m.stopped() == .none)
  }
}
