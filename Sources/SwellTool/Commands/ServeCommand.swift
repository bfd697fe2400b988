import Foundation
import SwellFiles
import SwellMotion
import SwellRecordings
import SwellRender
import SwellSensors
import SwellTime
import Synchronization

/// `swell serve dsu`: serves a motion source to DSU (cemuhook) clients.
struct ServeCommand: TypedToolCommand {
  static let about = CommandAbout(
    "serve", summary: "serve motion to emulators and other DSU (cemuhook) clients",
    discussion: """
      Serves a motion source as the controller in slot 0 of a DSU (cemuhook) server, protocol \
      1001, so Dolphin, Cemu, Citra, yuzu and other DSU clients can use a Linux tablet's IIO \
      sensors, a phone stream, a recording or a script (docs/sensors.md, "DSU (cemuhook) \
      streams"). It answers version, port-info and data requests; a client's subscription \
      lasts 5 s unless renewed. Motion is sent in g and °/s in the DualShock 4 axes of \
      DS4Windows, one datagram per sample; device motion (a script, a device-motion \
      recording) is sent as its specific force, userAcceleration - gravity, and rotation rate.

      SOURCE is iio[:NAME], udp:PORT, phone:URL or dsu[:HOST[:PORT]][#SLOT] (as `swell live \
      --motion`, with their default settings), script:TEXT (sampled at 100 Hz), or a \
      recording FILE, replayed at recorded speed. Ctrl-C or SIGTERM stops the server.
      """,
    examples: [
      "serve dsu --motion iio", "serve dsu --motion walk.csv --loop --listen 0.0.0.0",
      "serve dsu --motion 'script:tilt 30deg right over 1s' --duration 5",
    ])

  struct Options: ParsableOptions {
    var kind: String?
    var motion: String?
    var port: Int
    var listen: String
    var duration: Double?
    var loop: Bool

    init(_ p: inout OptionParser) throws(UsageError) {
      motion = p.option(
        "--motion", value: "SOURCE", kind: .file,
        help:
          "what to serve: iio[:NAME], udp:PORT, phone:URL, dsu:..., script:TEXT or a recording "
          + "FILE")
      port =
        try p.option(
          "--port", in: 0...65535, defaultText: "26760, cemuhook's; 0 picks a free one",
          help: "the UDP port") ?? Int(DSUProtocol.defaultPort)
      listen = p.option(
        "--listen", value: "ADDR", default: "127.0.0.1",
        help: "the IPv4 address to listen on (0.0.0.0 for clients on the network)")
      duration = try p.option(
        "--duration", value: "S", in: .positive, help: "stop after S seconds (wall clock)")
      loop = p.flag("--loop", help: "replay the recording (or script) from the start when it ends")
      kind = p.argument("KIND", kind: .choice(["dsu"]))
    }

    func validate() throws(UsageError) {
      guard let kind else { throw UsageError("needs a KIND: dsu; see 'swell help serve'") }
      guard kind == "dsu" else { throw UsageError("unknown KIND '\(kind)'; expected dsu") }
      guard let motion else { throw UsageError("needs --motion SOURCE") }
      if LiveSourceSpec.names(motion) {
        do {
          _ = try LiveSourceSpec(parsing: motion)
        } catch {
          throw UsageError(error.message)
        }
        if loop { throw UsageError("--loop applies to a recording or script:TEXT motion") }
      }
    }
  }

  /// Opens `--motion`: a live source (which paces itself), a script or a recording (paced
  /// here).
  private static func openSource(_ word: String, loop: Bool) throws -> (
    source: any MotionSource, paced: Bool
  ) {
    if LiveSourceSpec.names(word) { return (try LiveSourceSpec(parsing: word).open(), false) }
    if word.hasPrefix("script:") {
      let text = String(word.dropFirst("script:".count))
      let script: MotionScript
      do {
        script = try MotionScript(parsing: text)
      } catch {
        throw UsageError("motion script: \(error)")
      }
      guard script.duration * 100 < 5_000_000 else {
        throw UsageError("motion script: too long (at most 5000000 samples at 100 Hz)")
      }
      if loop {
        let recording = MotionRecording(
          name: "script", format: .deviceMotion,
          content: .deviceMotion(script.samples(rate: 100), referenceFrame: .xArbitraryZVertical))
        return (RecordingSource(recording, loops: true), true)
      }
      return (MotionScriptSource(script, rate: 100), true)
    }
    return (try RecordingSource(contentsOf: URL(fileURLWithPath: word), loops: loop), true)
  }

  static func run(_ o: Options, console: Console) throws -> Int32 {
    let (source, paced) = try openSource(o.motion ?? "", loop: o.loop)
    var configuration = DSUServerConfiguration(address: o.listen, port: UInt16(o.port))
    configuration.clientTimeout = 5
    let server = try DSUServer(
      source: source, configuration: configuration, pacing: paced ? .continuous : nil)
    console.err(
      "swell serve: serving \(UntrustedText.clipped(source.name)) as DSU slot 0 (MAC "
        + "\(server.controller.macText)) on \(server.address):\(server.port)\n")
    let signal = Atomic<Int32>(0)
    OutputFiles.interceptNextSignal { s in
      signal.store(s, ordering: .releasing)
      server.stop()
    }
    defer { OutputFiles.interceptNextSignal(nil) }
    let done = DispatchSemaphore(value: 0)
    let failure = Mutex<(any Error)?>(nil)
    let serving = Task {
      do {
        try await server.run()
      } catch is CancellationError {
      } catch {
        failure.withLock { $0 = error }
      }
      done.signal()
    }
    let timer: Task<Void, Never>? = o.duration.map { seconds in
      Task {
        try? await Task.sleep(for: .seconds(seconds))
        server.stop()
      }
    }
    done.wait()
    timer?.cancel()
    _ = serving
    if let error = failure.withLock({ $0 }) { throw error }
    let s = server.statistics
    let why =
      switch signal.load(ordering: .acquiring) {
      case SIGINT: " (stopped by Ctrl-C)"
      case SIGTERM: " (stopped by SIGTERM)"
      default: ""
      }
    console.out(
      "served \(s.events) events, \(s.sent) datagrams to \(s.subscriptions) subscriptions; "
        + "answered \(s.versionRequests) version and \(s.portInfoRequests) port-info requests; "
        + "skipped \(s.malformed) malformed and \(s.badChecksum) bad-CRC datagrams\(why)\n")
    return 0
  }
}
