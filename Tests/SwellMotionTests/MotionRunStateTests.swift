import Testing

@testable import SwellMotion

@Suite("MotionRunState: the manager's run state machine")
private struct MotionRunStateTests {
  @Test("the first start begins run 1 without a restart; later starts join it")
  func firstRun() {
    var state = MotionRunState()
    #expect(state.phase == .idle)
    #expect(state.runningRun == nil)
    #expect(state.started() == .beginRun(run: 1, restart: false))
    #expect(state.started() == .join)
    #expect(state.phase == .running(run: 1, restarted: false, delivered: false))
    #expect(state.runningRun == 1)
  }

  @Test("a start after the last stop restarts the source in a new run")
  func restartAfterStop() {
    var state = MotionRunState()
    _ = state.started()
    #expect(state.lastUpdatesStopped() == .endRun(run: 1))
    #expect(state.phase == .stopped(run: 1))
    #expect(state.lastUpdatesStopped() == .none)
    #expect(state.started() == .beginRun(run: 2, restart: true))
    #expect(state.phase == .running(run: 2, restarted: true, delivered: false))
  }

  @Test("a source that ends in its first run ends the updates; the next start restarts it")
  func endedFirstRun() {
    var state = MotionRunState()
    _ = state.started()
    #expect(state.sourceEnded(run: 1) == .endUpdates)
    #expect(state.phase == .stopped(run: 1))
    #expect(state.started() == .beginRun(run: 2, restart: true))
  }

  @Test("a restarted source that ends before its first event fails the updates")
  func endedAtOnceAfterRestart() {
    var state = MotionRunState()
    _ = state.started()
    _ = state.lastUpdatesStopped()
    _ = state.started()
    #expect(state.sourceEnded(run: 2) == .failEndedAfterRestart)
    _ = state.started()
    state.delivered(run: 3)
    #expect(state.phase == .running(run: 3, restarted: true, delivered: true))
    #expect(state.sourceEnded(run: 3) == .endUpdates)
  }

  @Test("reports of a run that is over are ignored")
  func staleReports() {
    var state = MotionRunState()
    _ = state.started()
    _ = state.lastUpdatesStopped()
    _ = state.started()
    state.delivered(run: 1)
    #expect(state.phase == .running(run: 2, restarted: true, delivered: false))
    #expect(state.sourceEnded(run: 1) == .ignore)
    let staleFailure = state.sourceFailed(run: 1)
    #expect(!staleFailure)
    let failure = state.sourceFailed(run: 2)
    #expect(failure)
    #expect(state.phase == .stopped(run: 2))
  }
}
