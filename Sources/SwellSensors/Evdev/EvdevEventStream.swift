import Foundation
import Glibc
import SwellEvdev
import Synchronization

/// Reads one event node on its own thread: whole `struct input_event` records, in batches as
/// each `read(2)` returns them, into an event queue.
///
/// The record (`include/uapi/linux/input.h`, 64-bit layout) is 24 bytes in the machine's byte
/// order: `tv_sec` and `tv_usec` as 64-bit integers (`struct timeval`, or `__sec`/`__usec` as
/// `__kernel_ulong_t`), then `__u16 type`, `__u16 code` and `__s32 value`. The kernel returns
/// only whole records from an event node, but a FIFO or a short read can end anywhere: the
/// bytes of an unfinished record are kept and completed by the next read.
///
/// The node is gone (a failure pushed to the queue, with `ENODEV`) when a read fails with
/// `ENODEV` or another error, at end of file (a FIFO whose writer closed), on a hang-up, or when
/// the node's sysfs folder has vanished (checked whenever 100 ms pass without data).
///
/// The stream owns the descriptor and closes it when the last reference goes (the reader thread
/// holds one while it runs), so ioctls on ``fd`` are safe for as long as the stream is held.
final class EvdevEventStream: Sendable {
  /// The size of one `struct input_event` on a 64-bit system, bytes.
  static let recordSize = 24

  /// The character device.
  let path: String
  /// The open descriptor (read-only, non-blocking).
  let fd: Int32
  private let sysfsPath: String
  private let system: SystemCalls
  private let stopRequested = Atomic<Bool>(false)
  private let started = Atomic<Bool>(false)

  /// Wraps an open node; nothing is read before ``start(into:)``.
  ///
  /// - Parameters:
  ///   - fd: The descriptor, which the stream now owns.
  ///   - path: The character device, for messages.
  ///   - sysfsPath: The node's sysfs folder, whose disappearance means an unplug.
  ///   - system: The system calls.
  init(fd: Int32, path: String, sysfsPath: String, system: SystemCalls) {
    self.fd = fd
    self.path = path
    self.sysfsPath = sysfsPath
    self.system = system
  }

  deinit { system.close(fd) }

  /// Starts the reader thread (once).
  ///
  /// - Parameter queue: Where event batches and failures go.
  func start(into queue: EventQueue<[EvdevEvent]>) {
    guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let thread = Thread { self.run(queue: queue) }
    thread.name = "swell.evdev." + (path.split(separator: "/").last.map(String.init) ?? "node")
    thread.start()
  }

  /// Asks the reader thread to stop; it exits within about 100 ms.
  func stop() { stopRequested.store(true, ordering: .releasing) }

  /// Decodes one record.
  ///
  /// - Parameter record: At least ``recordSize`` bytes.
  /// - Returns: The event.
  static func decode(_ record: UnsafeRawBufferPointer) -> EvdevEvent {
    EvdevEvent(
      seconds: record.loadUnaligned(fromByteOffset: 0, as: Int64.self),
      microseconds: record.loadUnaligned(fromByteOffset: 8, as: Int64.self),
      type: EvdevEventType(rawValue: record.loadUnaligned(fromByteOffset: 16, as: UInt16.self)),
      code: record.loadUnaligned(fromByteOffset: 18, as: UInt16.self),
      value: record.loadUnaligned(fromByteOffset: 20, as: Int32.self))
  }

  private func run(queue: EventQueue<[EvdevEvent]>) {
    var chunk = [UInt8](repeating: 0, count: EvdevEventStream.recordSize * 64)
    var pending: [UInt8] = []
    func gone(_ why: String, code: Int32 = ENODEV) {
      guard !stopRequested.load(ordering: .acquiring) else { return }
      queue.push(
        .failure(EvdevError("\(path): \(why) (the device is gone)", path: path, code: code)))
    }
    while !stopRequested.load(ordering: .acquiring) {
      let (events, perr) = system.pollInput(fd, 100)
      if events < 0 {
        if perr == EINTR { continue }
        return gone("cannot poll: \(errorText(perr))", code: perr)
      }
      if events == 0 {
        if Glibc.access(sysfsPath, F_OK) != 0 { return gone("its sysfs folder vanished") }
        continue
      }
      if events & Int16(POLLIN) != 0 {
        let (n, rerr) = chunk.withUnsafeMutableBytes { system.read(fd, $0) }
        if n < 0 {
          if rerr == EAGAIN || rerr == EWOULDBLOCK || rerr == EINTR { continue }
          return gone("cannot read: \(errorText(rerr))", code: rerr == ENODEV ? ENODEV : rerr)
        }
        if n == 0 { return gone("end of stream") }
        pending += chunk[0..<n]
        let size = EvdevEventStream.recordSize
        let complete = pending.count / size
        guard complete > 0 else { continue }
        let batch = pending.withUnsafeBytes { raw in
          (0..<complete).map { k in
            EvdevEventStream.decode(UnsafeRawBufferPointer(rebasing: raw[(k * size)...]))
          }
        }
        pending.removeFirst(complete * size)
        queue.push(.success(batch))
        continue
      }
      return gone("hung up")
    }
  }
}
