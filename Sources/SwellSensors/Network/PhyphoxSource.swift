import Dispatch
import SwellMotion
import SwellTime
import Synchronization

/// How a ``PhyphoxSource`` polls the phone.
public struct PhyphoxConfiguration: Hashable, Sendable {
  /// The phone's remote-access address.
  public var address: PhyphoxAddress
  /// The buffers holding the sensors.
  public var buffers = PhyphoxBufferNames()
  /// Seconds between polls while data flows (default 0.05).
  public var pollInterval = 0.05
  /// Seconds between polls after a failure or while the experiment is not measuring
  /// (default 0.5).
  public var retryInterval = 0.5
  /// The most seconds one request may take, connecting included (default 2).
  public var timeout = 2.0
  /// The largest response body accepted, bytes (default 8 MiB).
  public var maxResponseBytes = 8 << 20
  /// Seconds of gyroscope data to wait for an accelerometer reading after it before holding
  /// the latest one (default 0.2).
  public var holdLimit = 0.2
  /// The same failure is reported again (as a transient error) after this many seconds
  /// (default 5).
  public var reportInterval = 5.0

  /// Creates a configuration with the defaults.
  ///
  /// - Parameter address: The phone's remote-access address.
  public init(address: PhyphoxAddress) { self.address = address }
}

/// Counters of a ``PhyphoxSource``.
public struct PhyphoxStatistics: Hashable, Sendable {
  /// Requests sent.
  public var requests = 0
  /// HTTP 200 answers decoded as phyphox `/get` JSON.
  public var responses = 0
  /// Samples delivered.
  public var samples = 0
  /// Connections refused, unreachable hosts, resets and timeouts.
  public var connectionFailures = 0
  /// Answers with an HTTP status other than 200.
  public var httpErrors = 0
  /// Answers that were not HTTP, were truncated, or whose body was not phyphox JSON.
  public var malformed = 0
  /// Answers larger than ``PhyphoxConfiguration/maxResponseBytes``.
  public var oversized = 0
  /// Answers saying the experiment is not measuring.
  public var notMeasuring = 0
  /// Readings skipped because a value was `null` (NaN on the phone) or not finite.
  public var invalidValues = 0
  /// Readings dropped because their time did not increase.
  public var outOfOrder = 0
  /// Gyroscope readings dropped because no accelerometer reading was near them.
  public var unpaired = 0
  /// Times the phone's data was cleared or the experiment reloaded (time restarted).
  public var resets = 0

  /// Creates zeroed counters.
  public init() {}
}

/// A live motion source polling phyphox's remote access (the phone app at phyphox.org) over
/// HTTP: `GET /get?…` every ``PhyphoxConfiguration/pollInterval`` seconds on the injected
/// clock, merging the accelerometer, gyroscope and (when present) magnetometer buffers into
/// `IMUSample`s, one per gyroscope reading (see `docs/sensors.md`).
///
/// Units: phyphox's accelerometer ("acceleration with g") is specific force in m/s² with
/// Android's sign (+9.81 on the up axis at rest), its gyroscope rad/s and its magnetometer µT,
/// all in the phone's device frame, which are Swell's units. Sample timestamps are phyphox's
/// experiment time in seconds; after the phone's data is cleared (time restarts at 0) they
/// continue from the last timestamp plus one poll interval, so they always increase.
///
/// Failures that the phone may recover from (connection refused, timeouts, HTTP errors,
/// malformed answers, the experiment not measuring, data cleared) are thrown from ``next()`` as
/// transient `MotionSourceError`s, each message at most once per
/// ``PhyphoxConfiguration/reportInterval``, and polling continues every
/// ``PhyphoxConfiguration/retryInterval``; they are counted in ``statistics``. An experiment
/// without the accelerometer or gyroscope buffers is a non-transient error. The HTTP exchange
/// runs on a private dispatch queue, never on the caller's thread.
public final class PhyphoxSource: MotionSource {
  /// `phone:http://HOST:PORT`.
  public let name: String
  /// The configuration.
  public let configuration: PhyphoxConfiguration

  private let clock: MonotonicClock
  private let state: Mutex<State>
  private let io = DispatchQueue(label: "swell.phyphox")
  /// The kept-alive connection to the phone, used on `io` only.
  private let connection = HTTPConnection()

  /// Creates the source; the first request is made by the first ``next()``.
  ///
  /// - Parameters:
  ///   - configuration: The address, buffer names and timing.
  ///   - clock: The clock polls are paced on (a manual clock in tests).
  public init(
    configuration: PhyphoxConfiguration, clock: MonotonicClock = .continuous
  ) {
    self.configuration = configuration
    self.clock = clock
    name = "phone:\(configuration.address)"
    state = Mutex(
      State(
        poller: PhyphoxPoller(names: configuration.buffers, holdLimit: configuration.holdLimit)))
  }

  /// True once the experiment is known to have the magnetometer buffers.
  /// False: whether the phone sends a magnetometer is learned from its samples.
  public var sensorsAreKnown: Bool { false }

  /// True once the experiment is known to have the magnetometer buffers.
  public var hasMagnetometer: Bool { state.withLock { $0.poller.hasMagnetometer } }

  /// The counters so far.
  public var statistics: PhyphoxStatistics { state.withLock { $0.statistics } }

  /// Stops polling: the next ``next()`` call (or the one waiting, once its current wait or
  /// request ends) returns `nil`.
  public func stop() {
    state.withLock { $0.stopped = true }
    let connection = self.connection
    io.async { connection.close() }
  }

  /// Returns the next sample, polling the phone as needed.
  ///
  /// - Returns: The next `.sample`, or `nil` after ``stop()``.
  /// - Throws: A transient `MotionSourceError` for a failure the phone may recover from, a
  ///   non-transient one when the experiment lacks the needed buffers, `CancellationError`
  ///   when the task is cancelled.
  public func next() async throws -> MotionEvent? {
    while true {
      let (sample, pollAt, stopped) = state.withLock { s in
        (s.popSample(), s.nextPoll, s.stopped)
      }
      if stopped { return nil }
      if let sample { return .sample(sample) }
      try await clock.sleep(until: pollAt)
      guard
        let target = state.withLock({ s -> String? in
          if s.stopped { return nil }
          s.statistics.requests += 1
          return s.poller.requestTarget
        })
      else { return nil }
      let result = await fetch(configuration.address.basePath + target)
      let now = clock.now()
      let error = state.withLock { s in
        s.process(result, polledAt: pollAt, now: now, configuration: configuration)
      }
      if let error { throw error }
    }
  }

  private func fetch(_ target: String) async -> Result<HTTPResponse, HTTPFailure> {
    let c = configuration
    let connection = self.connection
    return await withCheckedContinuation { continuation in
      io.async {
        do throws(HTTPFailure) {
          let r = try connection.get(
            host: c.address.host, port: c.address.port, path: target, timeout: c.timeout,
            maxBodyBytes: c.maxResponseBytes)
          continuation.resume(returning: .success(r))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
    }
  }
}

private struct State {
  var poller: PhyphoxPoller
  var statistics = PhyphoxStatistics()
  var pending: [IMUSample] = []
  var head = 0
  var nextPoll = 0.0
  var stopped = false
  var lastReport: (message: String, time: Double)?
  /// Added to phyphox times so timestamps keep increasing after the phone's data is cleared.
  var offset = 0.0
  var rebase = false
  var lastOutput = -Double.infinity

  init(poller: PhyphoxPoller) { self.poller = poller }

  mutating func popSample() -> IMUSample? {
    guard head < pending.count else { return nil }
    let s = pending[head]
    head += 1
    if head == pending.count {
      pending.removeAll(keepingCapacity: true)
      head = 0
    }
    return s
  }

  /// Takes in one request's result; returns the error to throw, if any.
  mutating func process(
    _ result: Result<HTTPResponse, HTTPFailure>, polledAt: Double, now: Double,
    configuration c: PhyphoxConfiguration
  ) -> MotionSourceError? {
    let source = "phyphox at \(c.address)"
    let response: HTTPResponse
    switch result {
    case .failure(let failure):
      switch failure {
      case .connection, .timeout: statistics.connectionFailures += 1
      case .malformed: statistics.malformed += 1
      case .oversized: statistics.oversized += 1
      }
      var message = "\(source): \(failure.message)"
      if case .connection = failure {
        message += " (is remote access on, and the phone on this network?)"
      }
      return fail(message, now: now, configuration: c)
    case .success(let r): response = r
    }
    guard response.status == 200 else {
      statistics.httpErrors += 1
      let reason =
        response.reason.isEmpty ? "" : " " + UntrustedText.clipped(response.reason, limit: 60)
      return fail("\(source) answered HTTP \(response.status)\(reason)", now: now, configuration: c)
    }
    let decoded: PhyphoxResponse
    do {
      decoded = try PhyphoxResponse.decode(response.body)
    } catch {
      statistics.malformed += 1
      return fail(
        "\(source) sent a malformed answer (\(error.reason))", now: now, configuration: c)
    }
    let outcome: PhyphoxPollOutcome
    do {
      outcome = try poller.handle(decoded)
    } catch {
      statistics.responses += 1
      let have = error.available.isEmpty ? "none" : error.available.joined(separator: " ")
      return MotionSourceError(
        "\(source): the experiment has no buffer \(error.missing.joined(separator: ", ")) "
          + "(it has: \(have)); load one with accelerometer and gyroscope (see docs/sensors.md)")
    }
    statistics.responses += 1
    statistics.invalidValues += outcome.invalidValues
    statistics.outOfOrder = poller.merger.outOfOrder
    statistics.unpaired = poller.merger.unpaired
    if outcome.reset {
      statistics.resets += 1
      rebase = true
    }
    if rebase, let first = outcome.samples.first {
      if lastOutput.isFinite { offset = lastOutput + c.pollInterval - first.timestamp }
      rebase = false
    }
    for var sample in outcome.samples {
      sample.timestamp += offset
      guard sample.timestamp > lastOutput else {
        statistics.outOfOrder += 1
        continue
      }
      lastOutput = sample.timestamp
      pending.append(sample)
      statistics.samples += 1
    }
    if outcome.notMeasuring && outcome.samples.isEmpty {
      statistics.notMeasuring += 1
      return fail(
        "\(source) is not measuring (start the experiment on the phone)", now: now,
        configuration: c)
    }
    let next = polledAt + c.pollInterval
    nextPoll = next >= now ? next : now
    if outcome.reset {
      lastReport = nil
      return MotionSourceError(
        "\(source): the phone's data was cleared; timestamps continue", isTransient: true)
    }
    lastReport = nil
    return nil
  }

  /// Schedules a retry and returns the transient error unless the same message was reported
  /// less than the report interval ago.
  mutating func fail(_ message: String, now: Double, configuration c: PhyphoxConfiguration)
    -> MotionSourceError?
  {
    nextPoll = now + c.retryInterval
    if let last = lastReport, last.message == message, now - last.time < c.reportInterval {
      return nil
    }
    lastReport = (message, now)
    return MotionSourceError(message, isTransient: true)
  }
}
