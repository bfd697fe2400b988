import Foundation
import SwellFiles
import SwellMotion
import SwellRecordings
import SwellRender
import SwellSensors
import SwellTime
import Synchronization

/// `swell record`: records a live motion source to a raw IMU CSV.
struct RecordCommand: TypedToolCommand {
  static let about = CommandAbout(
    "record",
    summary:
      "record a live sensor (IIO, UDP phone stream, phyphox, DSU, evdev) to a raw IMU CSV or evemu",
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
      phone:http://192.168.1.20:8080), dsu[:HOST[:PORT]][#SLOT] (a DSU server's pad) or \
      evdev[:NAME|PATH] (a game controller's or handheld's motion sensors: DualSense, DualShock \
      4, Switch Pro, Joy-Con, Steam Deck; NAME is part of the pad's name or eventN).

      With an evdev SOURCE and -o FILE.evemu the node's events are kept as an evemu recording \
      (the text of evemu-record: the device's description, then every event), which swell fuse, \
      --motion and MotionRecording.load decode with the live source's decoder.
      """,
    examples: [
      "record iio --duration 10 -o raw.csv",
      "record udp:5555 --listen 0.0.0.0 --duration 30 -o phone.csv",
      "record phone:http://192.168.1.20:8080 --duration 20 -o p.csv",
      "record evdev:dualsense --duration 10 -o pad.evemu",
    ])

  struct Options: ParsableOptions {
    var output: String?
    var duration: Double?
    var samples: Int?
    var absoluteTime: Bool
    var sensors: LiveSensorOptionGroup
    var source: String?

    init(_ p: inout OptionParser) throws(UsageError) {
      output = p.output(
        help: "the CSV to write (FILE.evemu with an evdev SOURCE: an evemu recording)")
      duration = try p.option(
        "--duration", value: "S", in: .positive, help: "stop after S seconds (wall clock)")
      samples = try p.option(
        "--samples", in: 1...1_000_000_000,
        help: "stop after N samples (before the duration if reached)")
      absoluteTime = p.flag("--absolute-time", help: "keep the source's timestamps")
      sensors = try p.group(LiveSensorOptionGroup.self)
      source = p.argument(
        "SOURCE",
        kind: .choice(["iio", "iio:", "udp:", "phone:", "dsu", "dsu:", "evdev", "evdev:"]))
    }

    func validate() throws(UsageError) {
      guard let source else { throw UsageError("needs a SOURCE; see 'swell help record'") }
      guard output != nil else { throw UsageError("needs -o FILE") }
      guard duration != nil else { throw UsageError("needs --duration S") }
      guard LiveSourceSpec.names(source) else {
        throw UsageError(
          "unknown SOURCE '\(source)'; expected iio, iio:NAME, udp:PORT, phone:URL, "
            + "dsu[:HOST[:PORT]][#SLOT] or evdev[:NAME|PATH]")
      }
      let spec = try sensors.spec(source)
      if RecordCommand.isEvemu(output), spec.kind != .evdev {
        throw UsageError(
          "-o \(output ?? ""): an evemu recording keeps an evdev node's events; record "
            + "\(source) to a .csv")
      }
    }
  }

  /// Whether the output is an evemu recording (`.evemu`).
  static func isEvemu(_ output: String?) -> Bool {
    output?.lowercased().hasSuffix(".evemu") ?? false
  }

  static func run(_ o: Options, console: Console) throws -> Int32 {
    let (output, duration) = (o.output ?? "", o.duration ?? 0)
    // Open the output before recording (a long recording must not be lost to a folder that was
    // never there): rows stream into a temporary file renamed into place at the end (or straight
    // into `-`, a FIFO or a device), so memory stays bounded however long the recording.
    let url = URL(fileURLWithPath: output)
    let evemu = isEvemu(output) ? try EvemuStreamWriter(url: url) : nil
    let writer: any RecordingSink = try evemu ?? RawIMUCSV.StreamWriter(url: url)
    let source = try o.sensors.open(o.source ?? "")
    if let evemu, let evdev = source as? any InputEventTapping {
      evdev.setEventTap { description, events in
        evemu.write(description: description, events: events)
      }
    }
    // The raw samples are checked for the wrong units as they arrive (as `swell fuse` checks a
    // file): a recording of a stream in g would fuse into nonsense later.
    let interactive = console.isInteractive
    let checked = UnitCheckedSource(source) { warning in
      console.err(
        (interactive ? "\r\u{1B}[K" : "") + "swell record: \(source.name): "
          + UnitCheckedSource.liveMessage(for: warning) + "\n")
    }
    let recorder = MotionRecorder(source: checked, absoluteTime: o.absoluteTime)
    // From here on the first SIGINT or SIGTERM ends the recording (what was recorded is kept).
    let signal = Atomic<Int32>(0)
    OutputFiles.interceptNextSignal { s in
      signal.store(s, ordering: .releasing)
      recorder.stop()
    }
    defer { OutputFiles.interceptNextSignal(nil) }
    let noted = Atomic<Bool>(false)
    let start = recorder.clock.now()
    let result = try recorder.record(
      to: writer, duration: duration, sampleLimit: o.samples,
      progress: { count in
        if let note = source.fallbackNote, !noted.exchange(true, ordering: .relaxed) {
          console.err("swell record: note: \(note)\n")
        }
        if console.isInteractive {
          let elapsed = Int(recorder.clock.now() - start)
          console.err("\rrecording \(source.name): \(elapsed) s, \(count) samples   ")
        }
      },
      sourceErrors: { console.err("swell record: \(UntrustedText.clipped($0, limit: 200))\n") })
    if console.isInteractive { console.err("\r\u{1B}[K") }
    if let summary = LiveSourceSpec.skippedSummary(of: source) {
      console.err("swell record: \(summary)\n")
    }
    let text = try result.keep(
      in: writer, output: output, sourceName: source.name, duration: duration)
    let stopped =
      result.ending != .stopped
      ? ""
      : signal.load(ordering: .acquiring) == SIGINT
        ? " (stopped by Ctrl-C)" : " (stopped by SIGTERM)"
    console.out("recorded \(text)\(stopped): \(output)\n")
    return 0
  }
}
