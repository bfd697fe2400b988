import Foundation
import SwellDesktop
import SwellEffects
import SwellLive
import SwellMotion
import SwellRecordings
import SwellRender
import SwellScenes
import SwellSensors
import SwellTime
import SwellWaves

/// What changes a scene (canvas, orientation, rule, response, Reduce Motion), declared once for
/// every scene command.
struct SceneOptionGroup: ParsableOptionGroup {
  static let title = "Scene options"
  /// The built-in scene names, for help texts.
  static var sceneNames: String { BuiltInScenes.names.joined(separator: ", ") }

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
      "--reduce-motion",
      help:
        "Reduce Motion: no wave motion, tilt, amplitude or viewer offset (a live view otherwise "
        + "follows the desktop's setting)")
    if let size {
      do {
        try scene.setSize(size, maximumPixels: ImageSurface.maximumDimension)
      } catch {
        throw UsageError(error.toolMessage)
      }
    }
  }
}

/// The desktop's Reduce Motion in a live view (`swell live`, `swell demo`): read at start from
/// the desktop portal over the session bus and followed as it changes, unless
/// `--reduce-motion` turns motion off for the whole run or `--no-reduce-motion` ignores the
/// desktop. No bus or no portal reads as no preference, without a message.
struct DesktopReduceMotionOption {
  /// `--no-reduce-motion`.
  var ignoresDesktop: Bool

  /// Declares `--no-reduce-motion` (under the scene options' heading).
  init(_ p: inout OptionParser) {
    ignoresDesktop = p.flag(
      "--no-reduce-motion",
      help: "full motion whatever the desktop's Reduce Motion setting says (docs/live.md)")
  }

  /// `--reduce-motion` and `--no-reduce-motion` exclude each other.
  func validate(_ scene: SceneOptionGroup) throws(UsageError) {
    if ignoresDesktop && scene.scene.reduceMotion {
      throw UsageError("--reduce-motion and --no-reduce-motion exclude each other")
    }
  }

  /// Starts following the desktop's setting for a session, unless the command line settled it:
  /// the session reads the value before each frame; a note goes to `note` when the desktop
  /// asks for reduced motion at start.
  ///
  /// - Returns: The setting, to stop observing when the session ends (`nil` when not read).
  func follow(
    _ session: inout LiveSession, scene: SceneOptionGroup, note: (String) -> Void
  ) -> DesktopReduceMotion? {
    guard !ignoresDesktop, !scene.scene.reduceMotion else { return nil }
    let desktop = DesktopReduceMotion()
    if desktop.isReduceMotionEnabled {
      note(
        "the desktop asks for reduced motion (\(desktop.origin?.settingName ?? "its setting")): "
          + "the scene stays still; --no-reduce-motion shows full motion")
    }
    desktop.startObserving()
    session.systemReduceMotion = { desktop.isReduceMotionEnabled }
    return desktop
  }
}

extension ReduceMotionOrigin {
  /// The setting's name for a message.
  fileprivate var settingName: String {
    switch self {
    case .portal: "the portal's org.freedesktop.appearance reduced-motion"
    case .gnomeAnimations: "GNOME's enable-animations is off"
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
  /// - Throws: `SceneMotionError` naming the bad input (a bad script is a usage mistake).
  func load() throws -> SceneMotionInput {
    if let motionPath {
      // A raw IMU CSV in other units (g, ms, °/s) would move the scene wrongly: say so.
      let url = URL(fileURLWithPath: motionPath)
      for warning in RecordingUnitCheck.warnings(contentsOf: url) {
        let fix =
          "if so, convert it first: swell fuse \(UntrustedText.escaped(motionPath)) "
          + "\(FuseCommand.declaration(warning)) -o motion.csv"
        FileHandle.standardError.write(
          Data("swell: warning: \(motionPath): \(warning.message); \(fix)\n".utf8))
      }
      return try .recording(url)
    }
    if let script { return try .script(script, rate: motionRate) }
    return .resting
  }
}

/// How IIO devices are read, as `--mode` names it.
enum IIOModeName: String, CaseIterable, Sendable {
  case auto, buffered, polled

  var mode: IIOReadMode { self == .auto ? .automatic : self == .buffered ? .buffered : .polled }
}

/// Which IIO channels are read, as `--iio-channels` names them.
enum IIOChannelsName: String, CaseIterable, Sendable {
  case auto, rates, deltas

  var selection: IIOChannelSelection {
    switch self {
    case .auto: .automatic
    case .rates: .rates
    case .deltas: .deltas
    }
  }
}

/// The options of live sensor sources (`iio[:NAME]`, `udp:PORT`, `phone:URL`, `evdev[:NAME]`),
/// declared once for `record` and `live`, read straight into the library's `LiveSourceSettings`.
struct LiveSensorOptionGroup: ParsableOptionGroup {
  static let title = "Live sensor options (iio, udp, phone, evdev)"

  /// The library's source settings, with the options given.
  var settings = LiveSourceSettings()
  /// The options given, with the kind of source each applies to.
  private(set) var given: [(name: String, kind: LiveSourceSpec.Kind)] = []
  /// A `--buffers` value that does not parse.
  private var badBuffers: UsageError?
  /// `--input-axes FILE`, read when the source opens.
  private var axesFile: String?

  /// No option given: every source with its defaults.
  init() {}

  init(_ p: inout OptionParser) throws(UsageError) {
    settings.iio.sysfsRoot =
      p.option(
        "--sysfs-root", value: "DIR", kind: .directory, defaultText: IIOSysfs.defaultRoot,
        help: "IIO: the sysfs folder of the iio:deviceN entries") ?? settings.iio.sysfsRoot
    settings.iio.devRoot =
      p.option(
        "--dev-root", value: "DIR", kind: .directory, defaultText: "/dev",
        help: "IIO: the folder of the iio:deviceN character devices") ?? settings.iio.devRoot
    settings.iio.mode =
      try p.option(
        "--mode", value: "MODE", as: IIOModeName.self,
        aliases: ["automatic": .auto, "poll": .polled], defaultText: "auto",
        help: "IIO: how devices are read; auto: buffered, else polled")?.mode ?? settings.iio.mode
    settings.iio.channels =
      try p.option(
        "--iio-channels", value: "SET", as: IIOChannelsName.self, aliases: ["automatic": .auto],
        defaultText: "auto",
        help: "IIO: rates (accel, anglvel) or deltas (deltavelocity, deltaangl over the sample "
          + "interval); auto: rates when the device has them")?.selection ?? settings.iio.channels
    settings.iio.samplingFrequency = try p.option(
      "--rate", value: "HZ", in: .positive, help: "IIO: set the sampling frequency (and poll at it)"
    )
    settings.iio.pollingRate = settings.iio.samplingFrequency
    settings.udpAddress =
      p.option(
        "--listen", value: "ADDR", defaultText: "127.0.0.1",
        help: "UDP: the IPv4 address to listen on (0.0.0.0 for a phone on the network)")
      ?? settings.udpAddress
    settings.udpFormat =
      try p.option(
        "--format", value: "FORMAT", as: PhoneStreamFormat.self,
        named: { $0 == .automatic ? "auto" : $0.rawValue }, aliases: ["automatic": .automatic],
        defaultText: "auto", help: "UDP: the line format") ?? settings.udpFormat
    let buffers = p.option(
      "--buffers", value: "SPEC",
      defaultText: "accX,accY,accZ,acc_time;gyrX,gyrY,gyrZ,gyr_time;magX,magY,magZ,mag_time",
      help:
        "phyphox: buffer names X,Y,Z,TIME;X,Y,Z,TIME[;X,Y,Z,TIME] for accelerometer; "
        + "gyroscope[; magnetometer or none]")
    do {
      settings.phyphoxBuffers = try buffers.map(PhyphoxBufferNames.init) ?? settings.phyphoxBuffers
    } catch {
      badBuffers = UsageError(error.message)  // said once the option is known to apply
    }
    settings.phyphoxPollInterval =
      try p.option(
        "--poll-interval", value: "S", in: .positive, defaultText: "0.05",
        help: "phyphox: seconds between polls") ?? settings.phyphoxPollInterval
    settings.evdev.sysfsRoot =
      p.option(
        "--input-sysfs-root", value: "DIR", kind: .directory,
        defaultText: EvdevDiscovery.defaultSysfsRoot,
        help: "evdev: the sysfs folder of the eventN entries") ?? settings.evdev.sysfsRoot
    settings.evdev.devRoot =
      p.option(
        "--input-dev-root", value: "DIR", kind: .directory,
        defaultText: EvdevDiscovery.defaultDevRoot,
        help: "evdev: the folder of the eventN character devices") ?? settings.evdev.devRoot
    axesFile = p.option(
      "--input-axes", value: "FILE", kind: .file,
      help: "evdev: an evemu description (evemu-describe) whose A: lines give the axes' ranges "
        + "and resolutions, for a node that cannot report them")
    // The help says which source each applies to: "IIO: ...", "UDP: ...", "phyphox: ...".
    let kinds: [String: LiveSourceSpec.Kind] = [
      "--sysfs-root": .iio, "--dev-root": .iio, "--mode": .iio, "--iio-channels": .iio,
      "--rate": .iio,
      "--listen": .udp, "--format": .udp, "--buffers": .phone, "--poll-interval": .phone,
      "--input-sysfs-root": .evdev, "--input-dev-root": .evdev, "--input-axes": .evdev,
    ]
    given = p.givenInGroup.compactMap { name in kinds[name].map { (name, $0) } }
  }

  /// Whether any of these options was given.
  var isEmpty: Bool { given.isEmpty }

  /// Checks that every option given applies to the source.
  ///
  /// - Parameter spec: The source.
  /// - Throws: ``UsageError`` naming the options that do not apply, or for a malformed value.
  func check(for spec: LiveSourceSpec) throws(UsageError) {
    guard let first = given.first(where: { $0.kind != spec.kind }) else {
      if let badBuffers { throw badBuffers }
      return
    }
    let names = given.filter { $0.kind == first.kind }.map(\.name)
    let list =
      names.count == 1
      ? names[0] : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    let target = [
      "iio": "iio sources", "udp": "udp: sources", "phone": "phone: sources",
      "evdev": "evdev sources",
    ]
    throw UsageError(
      "\(list) appl\(names.count == 1 ? "ies" : "y") to \(target[first.kind.rawValue] ?? "")")
  }

  /// Parses a source word and checks that these options apply to it.
  ///
  /// - Parameter word: `iio[:NAME]`, `udp:PORT` or `phone:URL`.
  /// - Returns: The source's spec.
  /// - Throws: ``UsageError`` for a malformed word or options that do not apply.
  func spec(_ word: String) throws(UsageError) -> LiveSourceSpec {
    let spec: LiveSourceSpec
    do {
      spec = try LiveSourceSpec(parsing: word)
    } catch {
      throw UsageError(error.message)
    }
    try check(for: spec)
    return spec
  }

  /// Parses and opens a source with these options.
  ///
  /// - Parameters:
  ///   - word: `iio[:NAME]`, `udp:PORT` or `phone:URL`.
  ///   - clock: The session's clock (the manager's and the live loop's).
  /// - Returns: The source.
  /// - Throws: ``UsageError`` for a malformed word or options that do not apply;
  ///   `LiveSourceError` when the source cannot be opened.
  func open(_ word: String, clock: MonotonicClock = .continuous) throws -> any MotionSource {
    let spec = try spec(word)
    return try spec.open(try resolvedSettings(), clock: clock)
  }

  /// The settings with `--input-axes` read: its axes replace what the node reports.
  ///
  /// - Returns: The settings.
  /// - Throws: `RecordingError` naming the file, line and field of a malformed description.
  func resolvedSettings() throws -> LiveSourceSettings {
    var s = settings
    if let axesFile {
      let description = try EvemuDescriptionFile.read(axesFile)
      guard !description.absoluteAxes.isEmpty else {
        throw RecordingError(file: axesFile, message: "no A: lines (axis ranges) in it")
      }
      s.evdev.axisOverrides = description.absoluteAxes
    }
    return s
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
