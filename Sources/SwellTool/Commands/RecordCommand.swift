import Foundation
import SwellMotion
import SwellRecordings
import SwellSensors
import Synchronization

/// `swell record`: records a live motion source to a raw IMU CSV.
struct RecordCommand: ToolCommand {
  static let spec = CommandSpec(
    "record", summary: "record a live sensor (IIO, UDP phone stream, phyphox) to a raw IMU CSV",
    arguments: [ArgumentSpec("SOURCE")],
    discussion: """
      Records a live motion source to the raw IMU CSV (t_s,gx,gy,gz,ax,ay,az,mx,my,mz; rad/s, \
      m/s² specific force, µT, device frame; empty magnetometer columns for a 6D source). \
      Timestamps start at 0 at the first sample unless --absolute-time is given (then they are \
      the source's own: IIO scan timestamps or clock seconds, or the phone's).

      Rows stream to a temporary file renamed into place when recording ends (-o - writes to \
      standard output; a FIFO or a device is written in place). Ctrl-C (or SIGTERM) ends the \
      recording early and keeps what was recorded.

      SOURCE is iio[:NAME] (Linux IIO sensors; NAME picks a device by chip name, name prefix or \
      iio:deviceN; default: the first accelerometer, with a gyroscope and magnetometer if \
      present), udp:PORT (a phone streaming JSON or CSV lines over UDP, docs/sensors.md) or \
      phone:URL (a phone running phyphox with remote access on, e.g. \
      phone:http://192.168.1.20:8080).
      """,
    groups: [
      OptionGroup(
        nil,
        [
          SharedOptions.output("the CSV to write"),
          OptionSpec("--duration", kind: .value("S"), help: "stop after S seconds (wall clock)"),
          OptionSpec(
            "--samples", kind: .value("N"),
            help: "stop after N samples (before the duration if reached)"),
          OptionSpec("--absolute-time", help: "keep the source's timestamps"),
        ]),
      OptionGroup(
        "Source options",
        [
          OptionSpec(
            "--sysfs-root", kind: .value("DIR"),
            help: "IIO sysfs root (default /sys/bus/iio/devices)"),
          OptionSpec(
            "--dev-root", kind: .value("DIR"),
            help: "folder of the iio:deviceN character devices (default /dev)"),
          OptionSpec(
            "--mode", kind: .value("MODE"),
            help: "IIO: auto (buffered, else polled; default), buffered or polled"),
          OptionSpec(
            "--rate", kind: .value("HZ"), help: "IIO: set the sampling frequency (and poll at it)"),
          OptionSpec(
            "--listen", kind: .value("ADDR"),
            help:
              "UDP: the IPv4 address to listen on (default 127.0.0.1; 0.0.0.0 for a phone on the "
              + "network)"),
          OptionSpec("--format", kind: .value("FORMAT"), help: "UDP: auto (default), json or csv"),
          OptionSpec(
            "--buffers", kind: .value("SPEC"),
            help:
              "phyphox: buffer names X,Y,Z,TIME;X,Y,Z,TIME[;X,Y,Z,TIME] for accelerometer; "
              + "gyroscope[; magnetometer or none] (default "
              + "accX,accY,accZ,acc_time;gyrX,gyrY,gyrZ,gyr_time;magX,magY,magZ,mag_time)"),
          OptionSpec(
            "--poll-interval", kind: .value("S"),
            help: "phyphox: seconds between polls (default 0.05)"),
        ]),
    ])

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    let output = arguments.option("--output")
    let duration = try arguments.positiveNumber("--duration")
    let maxSamples = try arguments.positiveNumber("--samples")
    let absolute = arguments.flag("--absolute-time")
    let sysfsRoot = arguments.option("--sysfs-root")
    let devRoot = arguments.option("--dev-root")
    let modeName = arguments.option("--mode")
    let rate = try arguments.positiveNumber("--rate")
    let listen = arguments.option("--listen")
    let formatName = arguments.option("--format")
    let bufferSpec = arguments.option("--buffers")
    let pollInterval = try arguments.positiveNumber("--poll-interval")
    let sourceSpec = arguments.positional()
    try arguments.finish()
    // From here on the first SIGINT or SIGTERM ends the recording (what was recorded is kept).
    let interrupted = Recorder.Interruption()
    SignalHandling.intercept { signal in interrupted.signal.store(signal, ordering: .releasing) }
    defer { SignalHandling.intercept(nil) }
    guard let spec = sourceSpec else { throw UsageError("needs a SOURCE; see 'swell help record'") }
    guard let output else { throw UsageError("needs -o FILE") }
    guard let duration else { throw UsageError("needs --duration S") }
    if let maxSamples, maxSamples != maxSamples.rounded() {
      throw UsageError("--samples must be a whole number")
    }

    // Open the output before recording (a long recording must not be lost to a folder that was
    // never there): rows stream into a temporary file renamed into place at the end (or straight
    // into `-`, a FIFO or a device), so memory stays bounded however long the recording.
    let writer: RawIMUCSV.StreamWriter
    do {
      writer = try RawIMUCSV.StreamWriter(url: URL(fileURLWithPath: output))
    } catch {
      throw ToolError(error.description)
    }

    if !spec.hasPrefix("phone:") && (bufferSpec != nil || pollInterval != nil) {
      throw UsageError("--buffers and --poll-interval apply to phone: sources")
    }
    let source: any MotionSource
    var note: @Sendable () -> String? = { nil }
    if spec == "iio" || spec.hasPrefix("iio:") {
      guard listen == nil, formatName == nil else {
        throw UsageError("--listen and --format apply to udp: sources")
      }
      let iio = try IIOSourceSpec.open(
        spec, sysfsRoot: sysfsRoot, devRoot: devRoot, mode: modeName, rate: rate)
      source = iio
      note = {
        iio.fallbackReason.map { "polling sysfs because buffered reads failed: \($0)" }
      }
    } else if spec.hasPrefix("udp:") {
      guard sysfsRoot == nil, devRoot == nil, modeName == nil, rate == nil else {
        throw UsageError("--sysfs-root, --dev-root, --mode and --rate apply to iio sources")
      }
      guard let port = UInt16(spec.dropFirst(4)) else {
        throw UsageError("udp:PORT needs a port number 0...65535, got '\(spec.dropFirst(4))'")
      }
      let format: PhoneStreamFormat
      switch formatName {
      case nil, "auto", "automatic": format = .automatic
      case "json": format = .json
      case "csv": format = .csv
      case let f?: throw UsageError("--format must be auto, json or csv, got '\(f)'")
      }
      do {
        source = try UDPMotionSource(port: port, address: listen ?? "127.0.0.1", format: format)
      } catch {
        throw ToolError(error.message)
      }
    } else if spec.hasPrefix("phone:") {
      guard sysfsRoot == nil, devRoot == nil, modeName == nil, rate == nil, listen == nil,
        formatName == nil
      else {
        throw UsageError(
          "--sysfs-root, --dev-root, --mode, --rate, --listen and --format do not apply to "
            + "phone: sources")
      }
      source = try PhoneSource.open(spec, buffers: bufferSpec, pollInterval: pollInterval)
    } else {
      throw UsageError("unknown SOURCE '\(spec)'; expected iio, iio:NAME, udp:PORT or phone:URL")
    }

    let recorder = Recorder(
      source: source, writer: writer, limit: maxSamples.map { Int(min($0, 1e15)) },
      absoluteTime: absolute, interrupted: interrupted)
    let result = try recorder.run(duration: duration, console: console, note: note)
    if let udp = source as? UDPMotionSource {
      let s = udp.statistics
      if s.malformed + s.oversized + s.outOfOrder + s.outliers > 0 {
        console.err(
          "swell record: skipped \(s.malformed) malformed lines, \(s.oversized) oversized, "
            + "\(s.outOfOrder) out-of-order and \(s.outliers) far-off-clock samples of "
            + "\(s.received) received\n")
      }
    }
    if let phone = source as? PhyphoxSource {
      let s = phone.statistics
      let skipped = s.malformed + s.oversized + s.httpErrors + s.invalidValues + s.outOfOrder
      if skipped > 0 {
        console.err(
          "swell record: \(s.requests) requests: \(s.malformed) malformed and \(s.oversized) "
            + "oversized answers, \(s.httpErrors) HTTP errors, \(s.invalidValues) invalid and "
            + "\(s.outOfOrder) out-of-order readings skipped\n")
      }
    }
    guard result.count > 0 else {
      throw ToolError("no samples from \(source.name) within \(duration) s; nothing written")
    }
    do {
      try writer.commit()
    } catch {
      throw ToolError(error.description)
    }
    if let failure = result.failure {
      throw ToolError("\(failure); kept the \(result.count) samples recorded before: \(output)")
    }
    let kind = result.allMagnetic ? "9D" : "6D"
    let stopped = result.signal.map {
      $0 == SIGINT ? " (stopped by Ctrl-C)" : " (stopped by SIGTERM)"
    }
    console.out(
      "recorded \(result.count) samples (\(kind)) from \(source.name) over "
        + "\(String(format: "%.3f", result.span)) s\(stopped ?? ""): \(output)\n")
    return 0
  }
}

/// Takes every raw sample of a source through a ``MotionManager`` (`imuSamples(capacity:)`, with
/// back-pressure) and streams them to the CSV until a duration, a sample count or a signal.
///
/// The wall-clock duration bounds the recording even when the source blocks or is slow: the
/// manager pulls the source on a thread of its own, and this loop only waits for samples with a
/// timeout. The first `SIGINT` or `SIGTERM` ends the recording cleanly (what was recorded is
/// kept); a second one exits at once.
private final class Recorder: Sendable {
  struct Result {
    var count = 0
    var span = 0.0
    var allMagnetic = true
    var signal: Int32?
    /// The source's final error, when it failed after some samples (they are kept).
    var failure: String?
  }

  let source: any MotionSource
  nonisolated(unsafe) let writer: RawIMUCSV.StreamWriter
  let limit: Int?
  let absoluteTime: Bool
  /// The signal that ended the recording (0 while none came).
  final class Interruption: Sendable {
    let signal = Atomic<Int32>(0)
  }

  private let messages = Mutex<[String]>([])
  private let interruption: Interruption

  init(
    source: any MotionSource, writer: RawIMUCSV.StreamWriter, limit: Int?, absoluteTime: Bool,
    interrupted: Interruption
  ) {
    self.source = source
    self.writer = writer
    self.limit = limit
    self.absoluteTime = absoluteTime
    interruption = interrupted
  }

  /// Records for `duration` seconds of wall-clock time (the tool's job is live recording).
  func run(duration: Double, console: Console, note: @escaping @Sendable () -> String?) throws
    -> Result
  {
    let manager = MotionManager(source: source)
    manager.sourceErrorHandler = { [self] e in
      messages.withLock { $0.append(e.sourceMessage ?? e.message) }
    }
    let samples = manager.imuSamples(capacity: 65_536)
    var result = Result()
    var t0: Double?
    var first = 0.0
    var last = 0.0
    let clock = ContinuousClock()
    let start = clock.now
    let end = start + .nanoseconds(Int64(min(duration, 1e9) * 1e9))
    var noted = false
    var nextReport = start
    var failure: String?
    recording: while clock.now < end {
      if interruption.signal.load(ordering: .acquiring) != 0 { break }
      let batch: [IMUSample]
      do {
        batch = try samples.poll()
      } catch {
        failure =
          (error as? MotionManagerError).map { $0.sourceMessage ?? $0.message }
          ?? "\(error)"
        break
      }
      for sample in batch {
        let origin = t0 ?? (absoluteTime ? 0 : sample.timestamp)
        if t0 == nil {
          t0 = origin
          first = sample.timestamp
        }
        var shifted = sample
        shifted.timestamp -= origin
        do {
          try writer.append(shifted)
        } catch {
          samples.cancel()
          throw ToolError(error.description)
        }
        last = sample.timestamp
        if sample.magnetometer == nil { result.allMagnetic = false }
        result.count += 1
        if let limit, result.count >= limit { break recording }
      }
      if batch.isEmpty {
        if samples.isExhausted { break }
        usleep(10_000)
      }
      if clock.now >= nextReport {
        nextReport = clock.now + .milliseconds(250)
        for m in messages.withLock({ m in
          defer { m = [] }
          return m
        }) {
          console.err("swell record: \(UntrustedText.clipped(m, limit: 200))\n")
        }
        if !noted, let n = note() {
          console.err("swell record: note: \(n)\n")
          noted = true
        }
        if console.isInteractive {
          let elapsed = (clock.now - start).components.seconds
          console.err("\rrecording \(source.name): \(elapsed) s, \(result.count) samples   ")
        }
        // Rows reach a FIFO or standard output as they come.
        do { try writer.flush() } catch { throw ToolError(error.description) }
      }
    }
    let signal = interruption.signal.load(ordering: .acquiring)
    if signal != 0 { result.signal = signal }
    samples.cancel()
    // Stop the source (IIO disables its buffers), but never wait long for a stuck one.
    let stopped = DispatchSemaphore(value: 0)
    let source = self.source
    Task.detached {
      await source.stop()
      stopped.signal()
    }
    _ = stopped.wait(timeout: .now() + 2)
    if console.isInteractive { console.err("\r\u{1B}[K") }
    if let failure, result.count == 0 { throw ToolError(failure) }
    result.failure = failure
    result.span = last - first
    return result
  }
}
