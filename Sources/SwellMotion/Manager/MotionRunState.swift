/// The run state of a ``MotionManager``: whether its loop pulls the source, and what a start, a
/// stop or the source's end must do. A value with no effects; the manager is its driver (it
/// holds the state under its lock and performs the returned actions outside it).
///
/// A **run** lasts from a start that finds nothing running to the stop of the last updates, or
/// to the end or failure of the source. Every run after the first begins by restarting the
/// source (``MotionSource/restart()``): live sources reopen, a recording replays from its first
/// event. So any start after a stop delivers, or fails with a ``MotionManagerError`` that says
/// why; never nothing and no error.
///
/// ```
///   idle ──start──▶ running(1, restarted: false)
///   running(n) ──last stop, source ended or failed──▶ stopped(n)   (the source is stopped)
///   stopped(n) ──start──▶ running(n + 1, restarted: true)         (the source is restarted)
/// ```
///
/// Starts and stops while running change the subscriptions, not the run: updates that replace
/// others of their kind (a new reference frame) keep the run and the source going.
struct MotionRunState: Sendable, Hashable {
  /// Where the manager is.
  enum Phase: Sendable, Hashable {
    /// Nothing has run yet: the source has never been pulled.
    case idle
    /// A loop pulls the source.
    ///
    /// - `run`: the run's number, from 1.
    /// - `restarted`: the run began by restarting the source (it was stopped before).
    /// - `delivered`: the source has given at least one event in this run.
    case running(run: Int, restarted: Bool, delivered: Bool)
    /// The last run ended (stopped, or the source ended or failed) and the source was told to
    /// stop; the next start restarts it.
    case stopped(run: Int)
  }

  /// What the driver does after a start.
  enum StartAction: Sendable, Hashable {
    /// A run goes on: the new updates join it.
    case join
    /// Begin a run: start a loop for run `run`; when `restart` is set, the loop first waits
    /// for the previous run's stop to finish, then restarts the source.
    case beginRun(run: Int, restart: Bool)
  }

  /// What the driver does after the last updates stopped.
  enum StopAction: Sendable, Hashable {
    /// Nothing ran.
    case none
    /// End run `run`: cancel its loop and stop the source.
    case endRun(run: Int)
  }

  /// What the driver does when the source ends (its `next()` returned `nil`).
  enum EndAction: Sendable, Hashable {
    /// The report is about a run that is over (a loop that was already stopped): ignore it.
    case ignore
    /// End every update normally (a recording that ended).
    case endUpdates
    /// End every update with an error: the source was restarted and ended before its first
    /// event, so it cannot deliver after a stop.
    case failEndedAfterRestart
  }

  /// The phase.
  private(set) var phase = Phase.idle

  /// The running run's number, or `nil` when nothing runs.
  var runningRun: Int? {
    if case .running(let run, _, _) = phase { return run }
    return nil
  }

  /// Updates started.
  ///
  /// - Returns: Whether they join the running run or begin a new one.
  mutating func started() -> StartAction {
    switch phase {
    case .idle:
      phase = .running(run: 1, restarted: false, delivered: false)
      return .beginRun(run: 1, restart: false)
    case .running:
      return .join
    case .stopped(let run):
      phase = .running(run: run + 1, restarted: true, delivered: false)
      return .beginRun(run: run + 1, restart: true)
    }
  }

  /// The last updates stopped (nothing subscribes any more).
  ///
  /// - Returns: The run to end, if one runs.
  mutating func lastUpdatesStopped() -> StopAction {
    guard case .running(let run, _, _) = phase else { return .none }
    phase = .stopped(run: run)
    return .endRun(run: run)
  }

  /// Whether run `run` is the one going on (a stopped or replaced run is not).
  func isRunning(_ run: Int) -> Bool {
    if case .running(run, _, _) = phase { return true }
    return false
  }

  /// Notes that run `run` delivered an event (a restarted source that ends before its first
  /// event cannot deliver after a stop).
  mutating func delivered(run: Int) {
    guard case .running(run, let restarted, false) = phase else { return }
    phase = .running(run: run, restarted: restarted, delivered: true)
  }

  /// The source ended in a run.
  ///
  /// - Parameter run: The run whose loop saw the end.
  /// - Returns: How to end the updates.
  mutating func sourceEnded(run: Int) -> EndAction {
    guard case .running(run, let restarted, let delivered) = phase else { return .ignore }
    phase = .stopped(run: run)
    return restarted && !delivered ? .failEndedAfterRestart : .endUpdates
  }

  /// The source failed for good (or could not be restarted) in a run.
  ///
  /// - Parameter run: The run whose loop saw the failure.
  /// - Returns: True when the failure ends the running run (false: a stale report).
  mutating func sourceFailed(run: Int) -> Bool {
    guard case .running(run, _, _) = phase else { return false }
    phase = .stopped(run: run)
    return true
  }
}
