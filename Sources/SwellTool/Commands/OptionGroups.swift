import SwellScenes

/// The option groups several commands share, declared once.
enum SharedOptions {
  /// `-o, --output FILE` (`--out` still accepted).
  static func output(_ help: String) -> OptionSpec {
    OptionSpec("-o", "--output", aliases: ["--out"], kind: .value("FILE"), help: help)
  }

  /// What changes a scene: canvas, orientation, rule, response, Reduce Motion.
  static let scene = OptionGroup(
    "Scene options",
    [
      OptionSpec(
        "--size", kind: .value("WxH[@S]"),
        help: "canvas size in points and pixels per point, e.g. 390x844@3 (default: the scene's)"),
      OptionSpec(
        "--seed-exact", help: "the seed's literal tilt and amplitude rule (docs/waterwave.md)"),
      OptionSpec(
        "--response", kind: .value("NAME"),
        help: "the water's motion response: classic (default), sloshing or physical"),
      OptionSpec(
        "--orientation", kind: .value("NAME"),
        help:
          "interface orientation: portrait, portraitUpsideDown, landscapeLeft or landscapeRight "
          + "(rotates the canvas and the viewer offset; default: the scene's, else portrait)"),
      OptionSpec(
        "--reduce-motion", help: "Reduce Motion: no wave motion, tilt, amplitude or viewer offset"),
    ])

  /// Where an offline run's motion comes from.
  static let motion = OptionGroup(
    "Motion options",
    [
      OptionSpec(
        "--motion", kind: .value("FILE"),
        help:
          "device motion: a device-motion CSV, or any raw recording that 'swell fuse' reads "
          + "(fused on the way, streamed)"),
      OptionSpec(
        "--script", kind: .value("TEXT"),
        help:
          "scripted motion, e.g. \"hold 1s; tilt 30deg right over 0.5s\" (docs/script.md); "
          + "without --motion or --script the device rests upright"),
      OptionSpec(
        "--motion-rate", kind: .value("HZ"),
        help: "the rate scripted motion is sampled at (default 100)"),
    ])

  /// The options of live sensor sources.
  static let liveSensors = OptionGroup(
    "Live sensor options (iio, udp, phone)",
    [
      OptionSpec(
        "--sysfs-root", kind: .value("DIR"), help: "IIO sysfs root (default /sys/bus/iio/devices)"),
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
        help: "UDP: the IPv4 address to listen on (default 127.0.0.1)"),
      OptionSpec(
        "--reference-frame", kind: .value("NAME"),
        help:
          "frame of the fused attitude: xArbitraryZVertical (default, 6D) or a magnetometer "
          + "frame (9D; the source must have a magnetometer)"),
    ])

  /// The built-in scene names, for help texts.
  static var sceneNames: String { BuiltInScenes.names.joined(separator: ", ") }
}
