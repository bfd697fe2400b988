import Foundation
import SwellGeometry
import SwellLayers
import SwellLive
import SwellMotion
import SwellRender
import SwellScenes
import SwellSensors
import SwellTime
import SwellWaves

/// `swell live SCENE`: shows a scene live in an SDL window paced at the display's refresh rate
/// (or in the terminal), driven by motion from the keyboard, the mouse, a recording or a sensor.
struct LiveCommand: TypedToolCommand {
  static let about = CommandAbout(
    "live", summary: "show a scene live in a window or the terminal, driven by motion",
    discussion: """
      Shows a scene (built-in: \(SceneOptionGroup.sceneNames); or a scene file, docs/scenes.md) \
      live in an SDL window paced at the display's refresh rate, or in the terminal with \
      --terminal. Frames are drawn by the same renderer as `swell render`.
      """,
    epilogue: """
      Keys: arrows tilt (keyboard motion), r re-centres the viewer offset, space pauses, s saves \
      a PNG screenshot, h toggles the HUD, q or Escape quits. The window can be resized. Without \
      a display, use --terminal (or run under xvfb-run).
      """,
    examples: [
      "live waterwave", "live waterwave --motion udp:5555 --listen 0.0.0.0",
      "live glass --motion recording.zip --loop --terminal",
    ])

  struct Options: ParsableOptions {
    var motion: String
    var loop: Bool
    var terminal: Bool
    var renderer: LiveWindow.Presenter?
    var wholeFrames: Bool
    /// The loop's frame cap, frame limit, screenshot time and HUD, read straight from the options.
    var loopOptions = LiveLoopOptions()
    var stats: Bool
    var screenshot: String?
    var traceOut: String?
    var sensors: LiveSensorOptionGroup
    var noSavedCalibration: Bool
    var referenceFrame: AttitudeReferenceFrame?
    var scene: SceneOptionGroup
    var desktopReduceMotion: DesktopReduceMotionOption
    var sceneName: String?

    /// The words `--motion` takes besides a file, for completions: the simulated sources, a
    /// script, and every `LiveSourceSpec` kind (`iio`, `udp:`, …) as `swell record` offers them.
    static let motionKinds =
      ["keyboard", "mouse", "script:"]
      + LiveSourceSpec.Kind.allCases.flatMap { kind -> [String] in
        let name = kind.rawValue
        return kind == .udp || kind == .phone ? [name + ":"] : [name, name + ":"]
      }

    init(_ p: inout OptionParser) throws(UsageError) {
      motion = p.option(
        "--motion", value: "SOURCE", kind: .choiceOrFile(Self.motionKinds), default: "keyboard",
        help: """
          keyboard: arrows tilt a simulated phone; mouse: the pointer's position over the \
          window tilts it; script:TEXT: scripted motion, e.g. "script:tilt 30deg right over \
          1s"; FILE: a device-motion CSV or raw recording, replayed at recorded speed; \
          iio[:NAME]: Linux IIO sensors (as `swell record`); udp:PORT: a phone streaming JSON or \
          CSV lines (docs/sensors.md); phone:URL: phyphox remote access, e.g. \
          phone:http://192.168.1.20:8080; dsu[:HOST[:PORT]][#SLOT]: a DSU (cemuhook) server's \
          pad, default 127.0.0.1:26760 slot 0
          """)
      loop = p.flag("--loop", help: "replay the recording (or script) from the start when it ends")
      terminal = p.flag("--terminal", help: "draw in this terminal with true-colour half blocks")
      renderer = try p.option(
        "--renderer", value: "KIND", as: LiveWindow.Presenter.self, defaultText: "auto",
        help: """
          how frames reach the window: auto: OpenGL on a GPU, the window's own surface when \
          OpenGL is a software rasterizer (Xvfb, a VM); opengl; software
          """)
      wholeFrames = p.flag(
        "--whole-frames",
        help:
          "draw and show every frame whole, not only the part that changed since the frame "
          + "before (docs/live.md)")
      loopOptions.framesPerSecondCap =
        try p.option(
          "--fps", in: .positive, defaultText: "the display's refresh rate; 30 in a terminal",
          help: "frame-rate cap") ?? (terminal ? 30 : nil)
      loopOptions.frameLimit = try p.option(
        "--frames", in: 1...Int(Int32.max), help: "quit after N frames")
      stats = p.flag(
        "--stats",
        help:
          "print the frame statistics as one JSON line, last on standard output (docs/formats.md)")
      loopOptions.screenshotAt = try p.option(
        "--screenshot-at", value: "T", in: 0...1e9,
        help:
          "save a PNG of the frame at T seconds after the first frame (the pixels of "
          + "`swell render --time T` when the window has the scene's size)")
      screenshot = p.option(
        "--screenshot", value: "PATH", kind: .file, defaultText: "swell-live-SCENE-T.png",
        help: "where --screenshot-at writes")
      loopOptions.showHUD = p.flag(
        "--hud", help: "start with the HUD shown (fps, frame time, motion, viewer offset)")
      traceOut = p.option(
        "--trace-out", value: "FILE", kind: .file,
        help:
          "write each frame's presentation values as `swell trace` CSV (time = the frame's "
          + "target time, scene seconds) when the view ends")
      sensors = try p.group(LiveSensorOptionGroup.self)
      p.heading(LiveSensorOptionGroup.title)
      noSavedCalibration = p.flag(
        "--no-saved-calibration",
        help:
          "neither use nor save the gyroscope bias kept per device in "
          + "$XDG_STATE_HOME/swell/gyroscope-calibration.json (docs/sensors.md)")
      referenceFrame = try p.option(
        "--reference-frame", as: AttitudeReferenceFrame.self, named: \.name,
        defaultText: "xArbitraryZVertical",
        help: "frame of the fused attitude (a north frame fuses the magnetometer: 9D)")
      p.heading(nil)
      scene = try p.group(SceneOptionGroup.self)
      p.heading(SceneOptionGroup.title)
      desktopReduceMotion = DesktopReduceMotionOption(&p)
      p.heading(nil)
      sceneName = p.argument("SCENE|FILE.json", kind: .scene)
    }

    func validate() throws(UsageError) {
      _ = try SceneLoader.required(sceneName)
      try desktopReduceMotion.validate(scene)
      if renderer != nil && terminal {
        throw UsageError("--renderer applies to a window, not --terminal")
      }
      let sensor = LiveSourceSpec.names(motion)
      if !sensor && (!sensors.isEmpty || referenceFrame != nil || noSavedCalibration) {
        throw UsageError(
          "the live sensor options and --reference-frame apply to --motion iio, udp:PORT or "
            + "phone:URL")
      }
      if sensor { _ = try sensors.spec(motion) }
      let isRecording = !sensor && motion != "keyboard" && motion != "mouse"
      if loop && !isRecording {
        throw UsageError("--loop applies to a recording or script:TEXT motion")
      }
    }
  }

  static func run(_ o: Options, console: Console) throws -> Int32 {
    let scene = try SceneLoader.load(o.sceneName ?? "", options: o.scene.scene)
    let feed = try LiveCommand.makeFeed(
      o.motion, loop: o.loop, sensors: o.sensors,
      referenceFrame: o.referenceFrame ?? .xArbitraryZVertical,
      calibrationStore: o.noSavedCalibration ? nil : GyroscopeCalibrationStore.standard())

    var session = LiveSession(scene: scene, motion: feed, title: "swell live \(scene.name)")
    session.terminal = o.terminal
    session.presenter = o.renderer ?? .automatic
    session.drawsWholeFrames = o.wholeFrames
    session.traceOut = o.traceOut
    session.options = o.loopOptions
    if let screenshotAt = o.loopOptions.screenshotAt {
      session.options.screenshotPath =
        o.screenshot ?? "swell-live-\(scene.name)-\(displayNumber(screenshotAt)).png"
    }
    session.options.screenshotStem = "swell-live-\(scene.name)"
    session.onMessage = { console.out($0 + "\n") }
    session.onMotionMessage = { console.err("swell live: \($0)\n") }
    let desktop = o.desktopReduceMotion.follow(&session, scene: o.scene) {
      console.err("swell live: \($0)\n")
    }
    defer { desktop?.stopObserving() }
    let statistics = try session.run()
    if o.stats { console.out(statistics.jsonLine + "\n") }
    return 0
  }

  /// Builds the motion feed named by `--motion`: `keyboard`, `mouse`, `script:TEXT`,
  /// `iio[:NAME]`, `udp:PORT`, `phone:URL` or a recording file (a live source's pull has
  /// started); `loop` replays a recording or script from the start when it ends; a sensor's
  /// gyroscope bias is kept in `calibrationStore` between runs.
  static func makeFeed(
    _ spec: String, loop: Bool = false, sensors: LiveSensorOptionGroup = .init(),
    referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical,
    calibrationStore: GyroscopeCalibrationStore? = nil, clock: MonotonicClock = .continuous
  ) throws -> any SceneMotionFeed {
    // One clock instance: the source's, the manager's, and (through the feed) the live loop's.
    try SceneMotionInput.liveFeed(
      spec, loops: loop, referenceFrame: referenceFrame, calibrationStore: calibrationStore,
      clock: clock
    ) {
      LiveSourceSpec.names($0) ? try sensors.open($0, clock: clock) : nil
    }
  }
}
