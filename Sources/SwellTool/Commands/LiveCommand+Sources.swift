import Dispatch
import SwellLive
import SwellMotion
import SwellRender
import SwellSensors
import Synchronization

/// The live sensor options of `swell live` (`--motion iio[:NAME] | udp:PORT | phone:URL`).
struct LiveSourceOptions {
  /// IIO sysfs root (`--sysfs-root`).
  var sysfsRoot: String?
  /// Folder of the IIO character devices (`--dev-root`).
  var devRoot: String?
  /// IIO read mode (`--mode`).
  var mode: String?
  /// IIO sampling and polling rate, Hz (`--rate`).
  var rate: Double?
  /// UDP listening address (`--listen`).
  var listen: String?
  /// The frame of fused attitudes (`--reference-frame`).
  var referenceFrame = AttitudeReferenceFrame.xArbitraryZVertical

  /// Whether `spec` names a live sensor source rather than a file or a simulated tilt.
  ///
  /// - Parameter spec: The `--motion` value.
  /// - Returns: True for `iio`, `iio:NAME`, `udp:PORT` and `phone:URL`.
  static func isSensor(_ spec: String) -> Bool {
    spec == "iio" || spec.hasPrefix("iio:") || spec.hasPrefix("udp:") || spec.hasPrefix("phone:")
  }

  /// Opens the live source named by `spec`.
  ///
  /// - Parameter spec: `iio`, `iio:NAME`, `udp:PORT` or `phone:URL`.
  /// - Returns: The source and how to stop it (disable IIO buffers, close the socket).
  /// - Throws: ``UsageError`` for options that do not fit the source, ``ToolError`` when it
  ///   cannot be opened.
  func open(_ spec: String) throws -> (source: any MotionSource, stop: @Sendable () async -> Void) {
    let iioOnly = sysfsRoot != nil || devRoot != nil || mode != nil || rate != nil
    if spec == "iio" || spec.hasPrefix("iio:") {
      guard listen == nil else { throw UsageError("--listen applies to udp: sources") }
      let iio = try IIOSourceSpec.open(
        spec, sysfsRoot: sysfsRoot, devRoot: devRoot, mode: mode, rate: rate)
      return (iio, { await iio.stop() })
    }
    guard !iioOnly else {
      throw UsageError("--sysfs-root, --dev-root, --mode and --rate apply to iio sources")
    }
    if spec.hasPrefix("udp:") {
      guard let port = UInt16(spec.dropFirst(4)) else {
        throw UsageError("udp:PORT needs a port number 0...65535, got '\(spec.dropFirst(4))'")
      }
      let udp: UDPMotionSource
      do {
        udp = try UDPMotionSource(port: port, address: listen ?? "127.0.0.1")
      } catch {
        throw ToolError(error.message)
      }
      return (udp, { udp.stop() })
    }
    guard listen == nil else { throw UsageError("--listen applies to udp: sources") }
    let phone = try PhoneSource.open(spec)
    return (phone, { phone.stop() })
  }
}

/// Pulls a ``MotionSource`` on a background task and queues device motion for the render
/// loop: raw samples are fused on the way (9D when the sample carries a magnetometer and the
/// reference frame needs one, else 6D), device motion passes through. Transient source errors
/// become messages and the pull goes on; a permanent error ends the pull with a failure.
///
/// Everything shared with the task is behind one lock; the render loop takes it once per frame
/// (``drain()``).
final class SourcePump: Sendable {
  /// What the task has produced since the last ``drain()``.
  struct Batch {
    /// Device motion, source timestamps, in order.
    var motions: [DeviceMotion] = []
    /// Transient error messages, in order.
    var messages: [String] = []
    /// A permanent failure: the source stopped for good.
    var failure: String?
    /// Whether the source ended (`next()` returned `nil`).
    var ended = false
  }

  private struct State {
    var batch = Batch()
    var total = 0
    var task: Task<Void, Never>?
    var mode: AttitudeEstimator.Mode?
  }

  /// The source pulled.
  let source: any MotionSource
  /// The frame of fused attitudes.
  let referenceFrame: AttitudeReferenceFrame
  private let stopSource: @Sendable () async -> Void
  private let state = Mutex(State())
  /// The most motions kept between drains (the oldest are dropped beyond it).
  static let capacity = 4096

  /// Creates a pump; ``start()`` begins pulling.
  ///
  /// - Parameters:
  ///   - source: The live source.
  ///   - referenceFrame: The frame for fused attitudes.
  ///   - stop: Stops the source (called once by ``stop()``).
  init(
    source: any MotionSource, referenceFrame: AttitudeReferenceFrame,
    stop: @escaping @Sendable () async -> Void
  ) {
    self.source = source
    self.referenceFrame = referenceFrame
    stopSource = stop
  }

  /// The number of motions produced so far.
  var total: Int { state.withLock { $0.total } }

  /// The fusion mode, once the first raw sample has arrived.
  var mode: AttitudeEstimator.Mode? { state.withLock { $0.mode } }

  /// Starts the background task.
  func start() {
    let task = Task.detached { [self] in await self.pull() }
    state.withLock { $0.task = task }
  }

  /// Takes everything produced since the last call.
  ///
  /// - Returns: The batch.
  func drain() -> Batch {
    state.withLock { s in
      let b = s.batch
      s.batch = Batch(failure: b.failure, ended: b.ended)
      return b
    }
  }

  /// Cancels the task and stops the source, waiting for both; later calls do nothing.
  func stop() async {
    let task = state.withLock { s in
      defer { s.task = nil }
      return s.task
    }
    guard let task else { return }
    task.cancel()
    await stopSource()
    await task.value
  }

  /// ``stop()`` for synchronous callers off the concurrency pool (the tool's main thread):
  /// blocks until the source has stopped.
  func stopBlocking() {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      await self.stop()
      done.signal()
    }
    done.wait()
  }

  private func pull() async {
    var fuser: DeviceMotionFuser?
    while !Task.isCancelled {
      let event: MotionEvent?
      do {
        event = try await source.next()
      } catch let e as MotionSourceError where e.isTransient {
        state.withLock { $0.batch.messages.append(e.message) }
        continue
      } catch is CancellationError {
        return
      } catch {
        if Task.isCancelled { return }
        state.withLock { $0.batch.failure = "\(error)" }
        return
      }
      let motion: DeviceMotion
      switch event {
      case nil:
        state.withLock { $0.batch.ended = true }
        return
      case .deviceMotion(let m)?:
        motion = m
      case .sample(let sample)?:
        if fuser == nil {
          let hasMagnetometer = sample.magnetometer != nil
          if referenceFrame.needsMagnetometer && !hasMagnetometer {
            state.withLock {
              $0.batch.failure =
                "\(source.name) has no magnetometer; --reference-frame \(referenceFrame.name) "
                + "needs one"
            }
            return
          }
          let mode: AttitudeEstimator.Mode = referenceFrame.needsMagnetometer ? .nineD : .sixD
          fuser = DeviceMotionFuser(mode: mode, referenceFrame: referenceFrame)
          state.withLock { $0.mode = mode }
        }
        guard let m = fuser?.update(sample) else { continue }
        motion = m
      }
      state.withLock { s in
        s.batch.motions.append(motion)
        s.total += 1
        if s.batch.motions.count > SourcePump.capacity {
          s.batch.motions.removeFirst(s.batch.motions.count - SourcePump.capacity)
        }
      }
    }
  }
}

/// Maps a live source's timestamps onto scene time.
///
/// The offset (scene − source) is the smallest `frame target − timestamp` seen for the newest
/// sample of each batch, so every queued sample maps to the frame it is drained at or earlier,
/// and latency stays at the smallest seen. When the newest sample would map more than
/// ``tolerance`` behind the frame (the source's clock runs slow, or the stream stalled), the
/// offset is raised so it maps to the frame. Samples mapping at or before the last delivered
/// one (those queued while the view was paused) are dropped, so delivered times increase.
struct LiveClockMapper {
  /// How far the newest sample may map behind the frame target before re-anchoring, seconds.
  static let tolerance = 0.25
  /// Scene time minus source time, seconds; `nil` before the first sample.
  private(set) var offset: Double?
  /// The scene time of the last delivered sample, seconds.
  private(set) var lastDelivered = -Double.infinity
  /// The number of samples dropped so far.
  private(set) var dropped = 0

  /// Maps a batch drained at a frame.
  ///
  /// - Parameters:
  ///   - batch: Motions in source time, in order.
  ///   - time: The frame's target time, scene seconds.
  /// - Returns: The motions to deliver, timestamps in scene time, increasing, ≤ `time`.
  mutating func map(_ batch: [DeviceMotion], at time: Double) -> [DeviceMotion] {
    guard let newest = batch.last?.timestamp else { return [] }
    var o = min(offset ?? .infinity, time - newest)
    if time - (newest + o) > LiveClockMapper.tolerance { o = time - newest }
    offset = o
    var out: [DeviceMotion] = []
    out.reserveCapacity(batch.count)
    for var m in batch {
      let t = m.timestamp + o
      guard t > lastDelivered, t.isFinite else {
        dropped += 1
        continue
      }
      m.timestamp = t
      lastDelivered = t
      out.append(m)
    }
    return out
  }
}

/// A live sensor source as a ``LiveMotionFeed``: a ``SourcePump`` in the background, a
/// ``LiveClockMapper`` on the render thread.
final class SourceFeed: LiveMotionFeed {
  let pump: SourcePump
  private var mapper = LiveClockMapper()
  private var lastMessage: (text: String, time: Double)?
  private var ended = false
  private var lastSampleTime: Double?
  /// Receives transient messages (device unplugged, source ended), one line each.
  var onMessage: (String) -> Void = { _ in }

  /// Creates a feed and starts pulling.
  ///
  /// - Parameter pump: The pump (started here).
  init(pump: SourcePump) {
    self.pump = pump
    pump.start()
  }

  var name: String { pump.source.name }
  var startTime: Double { 0 }

  func samples(upTo time: Double) throws -> [DeviceMotion] {
    let batch = pump.drain()
    for m in batch.messages {
      lastMessage = (m, time)
      onMessage("\(name): \(m)")
    }
    if let failure = batch.failure { throw ToolError("\(name): \(failure)") }
    if batch.ended && !ended {
      ended = true
      lastMessage = ("the source ended", time)
      onMessage("\(name): the source ended")
    }
    let out = mapper.map(batch.motions, at: time)
    if let last = out.last { lastSampleTime = last.timestamp }
    return out
  }

  func handle(_ event: LiveEvent, at time: Double) {}

  func hudLine(at time: Double) -> String {
    let mode = pump.mode.map { $0 == .nineD ? " 9D" : " 6D" } ?? ""
    var line = "\(name)\(mode): \(pump.total) samples"
    if let last = lastSampleTime, time - last > 0.5 {
      line += String(format: ", none for %.1f s", time - last)
    }
    if let m = lastMessage, time - m.time < 5 { line += " | " + m.text }
    return line
  }

  func close() { pump.stopBlocking() }
}
