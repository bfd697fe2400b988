import Synchronization

/// A bounded, thread-safe queue between a producer thread (a sensor reader, a socket receiver)
/// and one async consumer.
///
/// ``push(_:)`` never blocks: when the queue is full the oldest item is dropped and counted.
/// ``next()`` suspends until an item arrives and throws `CancellationError` when its task is
/// cancelled, so a consumer can always be stopped.
final class EventQueue<Element: Sendable>: Sendable {
  private struct State {
    var items: [Result<Element, any Error>] = []
    var head = 0
    var waiter: CheckedContinuation<Element, any Error>?
    var dropped = 0

    mutating func pop() -> Result<Element, any Error>? {
      guard head < items.count else { return nil }
      let item = items[head]
      head += 1
      if head > 64 && head * 2 > items.count {
        items.removeFirst(head)
        head = 0
      }
      return item
    }
  }

  private let state = Mutex(State())
  private let capacity: Int

  /// Creates a queue.
  ///
  /// - Parameter capacity: The most items kept; older ones are dropped beyond it.
  init(capacity: Int = 4096) { self.capacity = max(1, capacity) }

  /// The number of items dropped because the consumer fell behind.
  var droppedCount: Int { state.withLock { $0.dropped } }

  /// Adds an item or a failure, waking the consumer.
  ///
  /// - Parameter item: The value, or the error the consumer's ``next()`` should throw.
  func push(_ item: Result<Element, any Error>) {
    let waiter: CheckedContinuation<Element, any Error>? = state.withLock { s in
      if let w = s.waiter {
        s.waiter = nil
        return w
      }
      s.items.append(item)
      if s.items.count - s.head > capacity {
        s.head += 1
        s.dropped += 1
      }
      return nil
    }
    waiter?.resume(with: item)
  }

  /// Takes the next item, suspending until there is one.
  ///
  /// - Returns: The item.
  /// - Throws: The pushed failure, or `CancellationError` when the task is cancelled.
  func next() async throws -> Element {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (c: CheckedContinuation<Element, any Error>) in
        let ready: Result<Element, any Error>? = state.withLock { s in
          if let item = s.pop() { return item }
          if Task.isCancelled { return .failure(CancellationError()) }
          s.waiter = c
          return nil
        }
        if let ready { c.resume(with: ready) }
      }
    } onCancel: {
      let w = state.withLock { s in
        let w = s.waiter
        s.waiter = nil
        return w
      }
      w?.resume(throwing: CancellationError())
    }
  }
}
