import Foundation
import SwellEffects
import SwellMotion
import SwellRender
import SwellScenes
import SwellSensors
import SwellWaves

/// What changes a scene (canvas, orientation, rule, response, Reduce Motion), declared once for
/// every scene command.
struct SceneOptionGroup: ParsableOptionGroup {
  static let title = "Scene options"

  /// The library's scene options, from the command line.
  var scene = SceneOptions()
  /// `--size` as given, or `nil`.
  var size: String?

  init(_ p: inout OptionParser) throws(UsageError) {
    size = p.option(
      "--size", value: "WxH[@S]", defaultText: "the scene's",
      help: "canvas size in points and pixels per point, e.g. 390x844@3")
    scene.seedExact = p.flag(
      "--seed-exact", help: "the seed's literal tilt and amplitude rule (docs/waterwave.md)")
    scene.waterResponse = try p.option(
      "--response", as: WaterWaveResponse.self, defaultText: "the scene's, else classic",
      help: "the water's motion response")
    scene.orientation = try p.option(
      "--orientation", as: InterfaceOrientation.self, defaultText: "the scene's, else portrait",
      help: "interface orientation, which rotates the canvas and the viewer offset")
    scene.reduceMotion = p.flag(
      "--reduce-motion", help: "Reduce Motion: no wave motion, tilt, amplitude or viewer offset")
    if let size {
      do {
        try scene.setSize(size, maximumPixels: ImageSurface.maximumDimension)
      } catch {
        throw UsageError(error.toolMessage)
      }
    }
  }
}

/// Where an offline run's motion comes from, declared once for `render` and `trace`.
struct MotionOptionGroup: ParsableOptionGroup {
  static let title = "Motion options"

  /// `--motion FILE`.
  var motionPath: String?
  /// `--script TEXT`.
  var script: String?
  /// `--motion-rate HZ`.
  var motionRate: Double

  init(_ p: inout OptionParser) throws(UsageError) {
    motionPath = p.option(
      "--motion", value: "FILE", kind: .file,
      help:
        "device motion: a device-motion CSV, or any raw recording that 'swell fuse' reads "
        + "(fused on the way, streamed)")
    script = p.option(
      "--script", value: "TEXT",
      help:
        "scripted motion, e.g. \"hold 1s; tilt 30deg right over 0.5s\" (docs/script.md); "
        + "without --motion or --script the device rests upright")
    motionRate = try p.option(
      "--motion-rate", value: "HZ", default: 100, in: .positive,
      help: "the rate scripted motion is sampled at")
  }

  func validate() throws(UsageError) {
    guard motionPath == nil || script == nil else {
      throw UsageError("--motion and --script exclude each other")
    }
  }

  /// Opens the motion asked for: a recording, a script, or the device at rest.
  ///
  /// - Returns: The motion.
  /// - Throws: ``ToolError`` for bad input, naming it.
  func load() throws -> SceneMotionInput {
    do {
      if let motionPath { return try .recording(URL(fileURLWithPath: motionPath)) }
      if let script { return try .script(script, rate: motionRate) }
    } catch {
      // A script that does not parse, or asks for too many samples, is a command-line mistake.
      switch error.problem {
      case .invalidScript, .tooManyScriptSamples: throw UsageError(error.toolMessage)
      default: throw ToolError(error.toolMessage)
      }
    }
    return .resting
  }
}

/// How IIO devices are read, as `--mode` names it.
enum IIOModeName: String, CaseIterable, Sendable {
  case auto, buffered, polled

  var mode: IIOReadMode {
    switch self {
    case .auto: return .automatic
    case .buffered: return .buffered
    case .polled: return .polled
    }
  }
}

/// The options of live sensor sources (`iio[:NAME]`, `udp:PORT`, `phone:URL`), declared once for
/// `record` and `live`.
struct LiveSensorOptionGroup: ParsableOptionGroup {
  static let title = "Live sensor options (iio, udp, phone)"

  var sysfsRoot: String?
  var devRoot: String?
  var mode: IIOModeName?
  var rate: Double?
  var listen: String?
  var format: PhoneStreamFormat?
  var buffers: String?
  var pollInterval: Double?

  /// No option given: every source with its defaults.
  init() {}

  init(_ p: inout OptionParser) throws(UsageError) {
    sysfsRoot = p.option(
      "--sysfs-root", value: "DIR", kind: .directory, defaultText: IIOSysfs.defaultRoot,
      help: "IIO: the sysfs folder of the iio:deviceN entries")
    devRoot = p.option(
      "--dev-root", value: "DIR", kind: .directory, defaultText: "/dev",
      help: "IIO: the folder of the iio:deviceN character devices")
    mode = try p.option(
      "--mode", value: "MODE", as: IIOModeName.self,
      aliases: ["automatic": .auto, "poll": .polled], defaultText: "auto",
      help: "IIO: how devices are read; auto: buffered, else polled")
    rate = try p.option(
      "--rate", value: "HZ", in: .positive,
      help: "IIO: set the sampling frequency (and poll at it)")
    listen = p.option(
      "--listen", value: "ADDR", defaultText: "127.0.0.1",
      help: "UDP: the IPv4 address to listen on (0.0.0.0 for a phone on the network)")
    format = try p.option(
      "--format", value: "FORMAT", as: PhoneStreamFormat.self,
      named: { $0 == .automatic ? "auto" : $0.rawValue }, aliases: ["automatic": .automatic],
      defaultText: "auto", help: "UDP: the line format")
    buffers = p.option(
      "--buffers", value: "SPEC",
      defaultText: "accX,accY,accZ,acc_time;gyrX,gyrY,gyrZ,gyr_time;magX,magY,magZ,mag_time",
      help:
        "phyphox: buffer names X,Y,Z,TIME;X,Y,Z,TIME[;X,Y,Z,TIME] for accelerometer; "
        + "gyroscope[; magnetometer or none]")
    pollInterval = try p.option(
      "--poll-interval", value: "S", in: .positive, defaultText: "0.05",
      help: "phyphox: seconds between polls")
  }

  /// The options given, with the kind of source each applies to.
  private var given: [(name: String, kind: LiveSourceSpec.Kind)] {
    var g: [(String, LiveSourceSpec.Kind)] = []
    if sysfsRoot != nil { g.append(("--sysfs-root", .iio)) }
    if devRoot != nil { g.append(("--dev-root", .iio)) }
    if mode != nil { g.append(("--mode", .iio)) }
    if rate != nil { g.append(("--rate", .iio)) }
    if listen != nil { g.append(("--listen", .udp)) }
    if format != nil { g.append(("--format", .udp)) }
    if buffers != nil { g.append(("--buffers", .phone)) }
    if pollInterval != nil { g.append(("--poll-interval", .phone)) }
    return g
  }

  /// Whether any of these options was given.
  var isEmpty: Bool { given.isEmpty }

  /// Checks that every option given applies to the source.
  ///
  /// - Parameter spec: The source.
  /// - Throws: ``UsageError`` naming the options that do not apply.
  func check(for spec: LiveSourceSpec) throws(UsageError) {
    guard let first = given.first(where: { $0.kind != spec.kind }) else { return }
    let names = given.filter { $0.kind == first.kind }.map(\.name)
    let list =
      names.count == 1
      ? names[0] : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    let target = ["iio": "iio sources", "udp": "udp: sources", "phone": "phone: sources"]
    throw UsageError(
      "\(list) appl\(names.count == 1 ? "ies" : "y") to \(target[first.kind.rawValue] ?? "")")
  }

  /// The library's source settings.
  ///
  /// - Throws: ``UsageError`` for a malformed buffer list.
  func settings() throws(UsageError) -> LiveSourceSettings {
    var s = LiveSourceSettings()
    if let sysfsRoot { s.iio.sysfsRoot = sysfsRoot }
    if let devRoot { s.iio.devRoot = devRoot }
    if let mode { s.iio.mode = mode.mode }
    s.iio.samplingFrequency = rate
    s.iio.pollingRate = rate
    if let listen { s.udpAddress = listen }
    if let format { s.udpFormat = format }
    if let buffers {
      do {
        s.phyphoxBuffers = try PhyphoxBufferNames(parsing: buffers)
      } catch {
        throw UsageError(error.message)
      }
    }
    if let pollInterval { s.phyphoxPollInterval = pollInterval }
    return s
  }

  /// Parses and opens a source with these options.
  ///
  /// - Parameter word: `iio[:NAME]`, `udp:PORT` or `phone:URL`.
  /// - Returns: The source.
  /// - Throws: ``UsageError`` for a malformed word or options that do not apply;
  ///   ``ToolError`` when the source cannot be opened.
  func open(_ word: String) throws -> any MotionSource {
    let spec: LiveSourceSpec
    do {
      spec = try LiveSourceSpec(parsing: word)
    } catch {
      throw UsageError(error.message)
    }
    try check(for: spec)
    let settings = try settings()
    do {
      return try spec.open(settings)
    } catch {
      throw error.isUsage ? UsageError(error.message) : ToolError(error.message) as any Error
    }
  }
}

extension AttitudeReferenceFrame {
  /// `--reference-frame NAME`: the frame of fused attitudes, by its CoreMotion name.
  static func option(_ p: inout OptionParser, help: String) throws(UsageError)
    -> AttitudeReferenceFrame
  {
    try p.option(
      "--reference-frame", default: AttitudeReferenceFrame.xArbitraryZVertical, named: \.name,
      help: help)
  }
}
