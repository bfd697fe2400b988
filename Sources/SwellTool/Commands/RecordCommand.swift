import Foundation
import SwellMotion
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
    guard let spec = sourceSpec else { throw UsageError("needs a SOURCE; see 'swell help record'") }
    guard let output else { throw UsageError("needs -o FILE") }
    guard let duration else { throw UsageError("needs --duration S") }
    if let maxSamples, maxSamples != maxSamples.rounded() {
      throw UsageError("--samples must be a whole number")
    }

    // Check the output's folder before recording: a long recording must not be lost to a
    // folder that was never there.
    let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
    else { throw ToolError("\(output): the folder \(folder) does not exist") }
    guard FileManager.default.isWritableFile(atPath: folder) else {
      throw ToolError("\(output): the folder \(folder) is not writable")
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

    let recorder = Recorder(source: source, limit: maxSamples.map { Int($0) })
    let samples = try recorder.run(duration: duration, console: console, note: note)
    if let iio = source as? IIOSource {
      // Disable the device buffers again before exiting.
      let stopped = DispatchSemaphore(value: 0)
      Task {
        await iio.stop()
        stopped.signal()
      }
      stopped.wait()
    }
    if let udp = source as? UDPMotionSource {
      udp.stop()
      let s = udp.statistics
      if s.malformed + s.oversized + s.outOfOrder > 0 {
        console.err(
          "swell record: skipped \(s.malformed) malformed lines, \(s.oversized) oversized and "
            + "\(s.outOfOrder) out-of-order packets of \(s.received) received\n")
      }
    }
    if let phone = source as? PhyphoxSource {
      phone.stop()
      let s = phone.statistics
      let skipped = s.malformed + s.oversized + s.httpErrors + s.invalidValues + s.outOfOrder
      if skipped > 0 {
        console.err(
          "swell record: \(s.requests) requests: \(s.malformed) malformed and \(s.oversized) "
            + "oversized answers, \(s.httpErrors) HTTP errors, \(s.invalidValues) invalid and "
            + "\(s.outOfOrder) out-of-order readings skipped\n")
      }
    }
    guard let first = samples.first else {
      throw ToolError("no samples from \(source.name) within \(duration) s; nothing written")
    }
    let t0 = absolute ? 0 : first.timestamp
    let shifted = samples.map { s in
      var s = s
      s.timestamp -= t0
      return s
    }
    do {
      try RawIMUCSV.write(shifted, to: URL(fileURLWithPath: output))
    } catch {
      throw ToolError(error.description)
    }
    let span = (samples.last?.timestamp ?? first.timestamp) - first.timestamp
    let kind = samples.allSatisfy { $0.magnetometer != nil } ? "9D" : "6D"
    console.out(
      "recorded \(samples.count) samples (\(kind)) from \(source.name) over "
        + "\(String(format: "%.3f", span)) s: \(output)\n")
    return 0
  }
}

/// Pulls samples from a source on a task until a duration or a sample count is reached.
private final class Recorder: Sendable {
  private struct State {
    var samples: [IMUSample] = []
    var failure: String?
    var finished = false
    var messages: [String] = []
  }

  let source: any MotionSource
  let limit: Int?
  private let state = Mutex(State())

  init(source: any MotionSource, limit: Int?) {
    self.source = source
    self.limit = limit
  }

  /// Records for `duration` seconds of wall-clock time (the tool's job is live recording).
  func run(duration: Double, console: Console, note: @escaping @Sendable () -> String?) throws
    -> [IMUSample]
  {
    let done = DispatchSemaphore(value: 0)
    let task = Task {
      defer { done.signal() }
      await self.collect()
    }
    let clock = ContinuousClock()
    let start = clock.now
    let end = start + .nanoseconds(Int64(min(duration, 1e9) * 1e9))
    var noted = false
    var finished = false
    while clock.now < end {
      if done.wait(timeout: .now() + 0.25) == .success {
        finished = true
        break
      }
      for m in state.withLock({ s in
        defer { s.messages = [] }
        return s.messages
      }) {
        console.err("swell record: \(m)\n")
      }
      if !noted, let n = note() {
        console.err("swell record: note: \(n)\n")
        noted = true
      }
      if console.isInteractive {
        let count = state.withLock { $0.samples.count }
        let elapsed = (clock.now - start).components.seconds
        console.err("\rrecording \(source.name): \(elapsed) s, \(count) samples   ")
      }
    }
    task.cancel()
    if !finished { done.wait() }
    if console.isInteractive { console.err("\r\u{1B}[K") }
    let s = state.withLock { $0 }
    if let f = s.failure { throw ToolError(f) }
    return s.samples
  }

  private func collect() async {
    while !Task.isCancelled {
      do {
        guard let event = try await source.next() else { return }
        guard case .sample(let sample) = event else { continue }
        let full = state.withLock { s in
          s.samples.append(sample)
          return limit.map { s.samples.count >= $0 } ?? false
        }
        if full { return }
      } catch let e as MotionSourceError where e.isTransient {
        state.withLock { $0.messages.append(e.message) }
      } catch is CancellationError {
        return
      } catch {
        if Task.isCancelled { return }
        state.withLock { $0.failure = "\(error)" }
        return
      }
    }
  }
}
