import Dispatch
import Foundation
import SwellTime
import Synchronization

/// Every sample a ``MotionManager`` produces, in order, with back-pressure: the manager's loop
/// waits when ``capacity`` samples are queued and not yet taken, so a recording replayed as
/// fast as possible never runs ahead of its consumer (memory stays bounded), and a live source
/// never loses a sample to a consumer that keeps up.
///
/// Three ways to take samples, for three kinds of consumer:
/// - `for try await` (an `AsyncSequence`);
/// - ``waitForNext()``, which blocks the calling thread (a render loop on a thread of its own,
///   replaying a recording frame by frame);
/// - ``poll()``, which takes what is queued without waiting (a live view, once per frame).
///
/// The sequence ends (`nil`) when the source ends or updates stop, and throws the final error
/// (``MotionManagerError``) when the source fails for good. Transient errors do not end it: they
/// are counted in ``transientErrors`` and reported to the manager's
/// ``MotionManager/sourceErrorHandler``.
public final class MotionSamples<Element: Sendable>: AsyncSequence, Sendable {
  /// The failure type: ``MotionManagerError``.
  public typealias Failure = any Error

  /// The most samples queued before the producer waits.
  public let capacity: Int

  private struct State {
    var queue: [Element] = []
    /// When each queued element arrived, seconds on ``clock``.
    var arrivals: [Double] = []
    var head = 0
    var ended = false
    var failure: MotionManagerError?
    var transientErrors = 0
    var consumer: CheckedContinuation<Void, Never>?
    var blocking: DispatchSemaphore?
    var producer: CheckedContinuation<Void, Never>?
    var onCancel: (@Sendable () -> Void)?

    var count: Int { queue.count - head }

    mutating func take() -> Element? {
      guard head < queue.count else { return nil }
      let e = queue[head]
      head += 1
      if head > 1024 && head * 2 > queue.count {
        queue.removeFirst(head)
        arrivals.removeFirst(head)
        head = 0
      }
      return e
    }

    /// Wakes a waiting consumer (async or blocking).
    mutating func wakeConsumer() -> CheckedContinuation<Void, Never>? {
      blocking?.signal()
      blocking = nil
      defer { consumer = nil }
      return consumer
    }

    /// Wakes the producer when there is room again (half the capacity free, so the two sides
    /// do not ping-pong on every sample).
    mutating func wakeProducer(capacity: Int) -> CheckedContinuation<Void, Never>? {
      guard producer != nil, count <= capacity / 2 else { return nil }
      defer { producer = nil }
      return producer
    }
  }

  /// The clock the arrival times are read on: the manager's ``MotionManager/clock``.
  public let clock: MonotonicClock

  private let state = Mutex(State())

  init(capacity: Int, clock: MonotonicClock) {
    self.capacity = Swift.max(1, capacity)
    self.clock = clock
  }

  // MARK: - Producer (the manager's loop)

  /// Queues a sample when there is room, without waiting.
  ///
  /// - Returns: False when the queue is full (call ``push(_:)`` to wait for room); true when
  ///   the sample was queued or the sequence has ended (the sample is then dropped).
  func tryPush(_ element: Element) -> Bool {
    let (ok, consumer): (Bool, CheckedContinuation<Void, Never>?) = state.withLock { s in
      if s.ended { return (true, nil) }
      if s.count >= capacity { return (false, nil) }
      s.queue.append(element)
      s.arrivals.append(clock.now())
      return (true, s.wakeConsumer())
    }
    consumer?.resume()
    return ok
  }

  /// Queues a sample, waiting while the queue is full. Returns at once when the consumer has
  /// ended the sequence.
  func push(_ element: Element) async {
    while true {
      let full: Bool = state.withLock { s in
        if s.ended { return false }
        if s.count >= capacity { return true }
        s.queue.append(element)
        s.arrivals.append(clock.now())
        s.wakeConsumer()?.resume()
        return false
      }
      guard full else { return }
      await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { s -> Bool in
          if s.ended || s.count < capacity { return true }
          s.producer = c
          return false
        }
        if resumeNow { c.resume() }
      }
    }
  }

  /// Counts a transient source error.
  func noteTransientError() {
    state.withLock { $0.transientErrors += 1 }
  }

  /// Ends the sequence: consumers take what is queued, then get `nil` (or the error).
  func finish(throwing error: MotionManagerError? = nil) {
    let (c, p) = state.withLock { s in
      if !s.ended {
        s.ended = true
        s.failure = error
      }
      let p = s.producer
      s.producer = nil
      return (s.wakeConsumer(), p)
    }
    c?.resume()
    p?.resume()
  }

  /// Sets what to do when the consumer ends the sequence (``cancel()``).
  func onCancel(_ action: @escaping @Sendable () -> Void) {
    state.withLock { $0.onCancel = action }
  }

  /// True once the producer will deliver nothing more (the queue may still hold samples).
  var isFinished: Bool { state.withLock { $0.ended } }

  // MARK: - Consumer

  /// The number of samples queued now.
  public var queuedCount: Int { state.withLock { $0.count } }

  /// The number of transient source errors so far (the source failed and was asked again).
  public var transientErrors: Int { state.withLock { $0.transientErrors } }

  /// Takes every queued sample without waiting.
  ///
  /// - Returns: The samples, oldest first (empty when none is queued).
  /// - Throws: The final ``MotionManagerError`` once the queue is empty and the source failed.
  public func poll() throws -> [Element] {
    try pollWithArrivals().map(\.element)
  }

  /// Takes every queued sample without waiting, with the time each arrived: when the manager
  /// queued it, right after the source delivered it, in seconds on ``clock`` (the manager's;
  /// by default `MonotonicClock/continuous`, `CLOCK_MONOTONIC`), for measuring how old a sample
  /// is when it is shown.
  ///
  /// - Returns: The samples with their arrival times, oldest first.
  /// - Throws: The final ``MotionManagerError`` once the queue is empty and the source failed.
  public func pollWithArrivals() throws -> [(element: Element, arrival: Double)] {
    let (out, p, failure) = state.withLock {
      s -> (
        [(element: Element, arrival: Double)], CheckedContinuation<Void, Never>?,
        MotionManagerError?
      ) in
      let out = (s.head..<s.queue.count).map { (element: s.queue[$0], arrival: s.arrivals[$0]) }
      s.queue.removeAll(keepingCapacity: true)
      s.arrivals.removeAll(keepingCapacity: true)
      s.head = 0
      let failure = out.isEmpty && s.ended ? s.failure : nil
      return (out, s.wakeProducer(capacity: capacity), failure)
    }
    p?.resume()
    if let failure { throw failure }
    return out
  }

  /// True when the sequence has ended and nothing is queued.
  public var isExhausted: Bool { state.withLock { $0.ended && $0.count == 0 } }

  /// Takes the next sample, blocking the calling thread until one is queued.
  ///
  /// Use it from a thread of your own (a render loop), never from a Swift concurrency task.
  ///
  /// - Returns: The sample, or `nil` when the sequence has ended.
  /// - Throws: The final ``MotionManagerError`` when the source failed.
  public func waitForNext() throws -> Element? {
    while true {
      let semaphore = DispatchSemaphore(value: 0)
      let (element, p, failure, done) = state.withLock {
        s -> (Element?, CheckedContinuation<Void, Never>?, MotionManagerError?, Bool) in
        if let e = s.take() { return (e, s.wakeProducer(capacity: capacity), nil, true) }
        if s.ended { return (nil, nil, s.failure, true) }
        s.blocking = semaphore
        return (nil, nil, nil, false)
      }
      p?.resume()
      if let failure { throw failure }
      if done { return element }
      semaphore.wait()
    }
  }

  /// Takes the next sample, suspending until one is queued.
  ///
  /// - Returns: The sample, or `nil` when the sequence has ended.
  /// - Throws: The final ``MotionManagerError`` when the source failed.
  public func next() async throws -> Element? {
    while true {
      let (element, p, failure, done) = state.withLock {
        s -> (Element?, CheckedContinuation<Void, Never>?, MotionManagerError?, Bool) in
        if let e = s.take() { return (e, s.wakeProducer(capacity: capacity), nil, true) }
        if s.ended { return (nil, nil, s.failure, true) }
        return (nil, nil, nil, false)
      }
      p?.resume()
      if let failure { throw failure }
      if done { return element }
      await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { s -> Bool in
          if s.count > 0 || s.ended { return true }
          s.consumer = c
          return false
        }
        if resumeNow { c.resume() }
      }
    }
  }

  /// Ends the sequence from the consumer's side: the manager stops these updates.
  public func cancel() {
    let action = state.withLock { s -> (@Sendable () -> Void)? in
      defer { s.onCancel = nil }
      return s.onCancel
    }
    finish()
    action?()
  }

  /// The iterator of `for try await`.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let samples: MotionSamples

    /// The next sample, or `nil` at the end.
    ///
    /// - Returns: The sample.
    /// - Throws: The final ``MotionManagerError``.
    public mutating func next() async throws -> Element? {
      try await samples.next()
    }
  }

  /// Makes the iterator.
  ///
  /// - Returns: An iterator over the remaining samples.
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(samples: self) }
}
