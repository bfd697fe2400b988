import Foundation
import SwellMotion

/// `swell fuse`: a raw IMU recording (any importable format) to a device-motion CSV.
struct FuseCommand: ToolCommand {
  static let name = "fuse"
  /// The most rows `--rate` may resample to (about 2 GB of CSV).
  static let maximumRows = 10_000_000

  static let summary = "raw IMU recording to device motion (attitude, gravity, user acceleration)"
  static let help = """
    Usage: swell fuse INPUT -o OUT.csv [--6d|--9d] [--reference-frame NAME] [--rate HZ]
                      [--declination DEG]

    Fuses a raw motion recording into device motion, CoreMotion style, and writes the
    device-motion CSV (FORMATS.md). INPUT is any recording Swell imports: a raw IMU CSV
    (t_s,gx,gy,gz,ax,ay,az,mx,my,mz), a Sensor Logger export (folder or .zip, iOS or Android),
    or a phyphox CSV export (file, folder or .zip). A device-motion CSV passes through.

    Options:
      -o, --out FILE            the device-motion CSV to write (written atomically)
      --6d                      gyroscope + accelerometer (default unless the frame needs north)
      --9d                      also the magnetometer; appends magneticField.x,y,z,accuracy
                                and heading columns
      --reference-frame NAME    xArbitraryZVertical (default), xArbitraryCorrectedZVertical,
                                xMagneticNorthZVertical or xTrueNorthZVertical
      --declination DEG         magnetic declination, degrees east (needed for true north)
      --rate HZ                 resample the output to HZ (fusion still runs on every sample)

    """

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    let output = try arguments.option("--out", "-o")
    let sixD = arguments.flag("--6d")
    let nineD = arguments.flag("--9d")
    let frameName = try arguments.option("--reference-frame")
    let rate = try arguments.positiveNumber("--rate")
    let declination = try arguments.number("--declination", in: -180...180)
    let input = arguments.positional()
    try arguments.finish()
    guard let input else { throw UsageError("needs an INPUT recording; see 'swell fuse --help'") }
    guard let output else { throw UsageError("needs -o OUT.csv") }
    guard !(sixD && nineD) else { throw UsageError("--6d and --9d exclude each other") }
    var frame = AttitudeReferenceFrame.xArbitraryZVertical
    if let frameName {
      guard let f = AttitudeReferenceFrame(name: frameName) else {
        throw UsageError(
          "unknown --reference-frame '\(frameName)'; expected one of "
            + AttitudeReferenceFrame.allCases.map(\.name).joined(separator: ", "))
      }
      frame = f
    }
    if sixD && frame.needsMagnetometer {
      throw UsageError("--reference-frame \(frame.name) needs the magnetometer; drop --6d")
    }
    if frame == .xTrueNorthZVertical && declination == nil {
      throw UsageError(
        "--reference-frame xTrueNorthZVertical needs --declination DEG (degrees east)")
    }
    let mode: AttitudeEstimator.Mode = nineD || frame.needsMagnetometer ? .nineD : .sixD

    let recording: MotionRecording
    do {
      recording = try MotionRecording.load(from: URL(fileURLWithPath: input))
    } catch {
      throw ToolError(error.description)
    }
    guard recording.count > 0 else {
      throw ToolError("\(recording.name): the recording has no samples")
    }
    var includeMagnetic = mode == .nineD
    var outputFrame = frame
    switch recording.content {
    case .samples:
      if mode == .nineD && !recording.hasMagnetometer {
        throw ToolError(
          "\(recording.name): 9D fusion needs a magnetometer and the recording has none "
            + "(use --6d and xArbitraryZVertical)")
      }
    case .deviceMotion(let motions, let fileFrame):
      // Already fused: pass through in its own frame.
      outputFrame = fileFrame
      includeMagnetic = motions.contains { $0.magneticField.accuracy != .uncalibrated }
    }

    let showProgress = console.isInteractive
    var lastPercent = -1
    var motions = recording.deviceMotion(
      mode: mode, referenceFrame: frame, declinationDegrees: declination ?? 0
    ) { fraction in
      guard showProgress else { return }
      let percent = Int(fraction * 100)
      if percent != lastPercent {
        lastPercent = percent
        console.err("\rswell fuse: \(percent)%")
      }
    }
    if showProgress { console.err("\r\u{1B}[K") }
    if let rate {
      // A rate far above the recording's makes more rows than fit in memory (and a row count
      // past Int.max): refuse it in one line instead of crashing.
      let span = (motions.last?.timestamp ?? 0) - (motions.first?.timestamp ?? 0)
      let rows = span * rate
      guard rows < Double(maximumRows) else {
        throw UsageError(
          "--rate \(rate) Hz over \(span) s makes "
            + "more than \(maximumRows) rows; lower --rate")
      }
      motions = DeviceMotion.resample(motions, rate: rate)
    }
    do {
      try DeviceMotionCSV.write(
        motions, to: URL(fileURLWithPath: output), referenceFrame: outputFrame,
        includeMagneticField: includeMagnetic)
    } catch {
      throw ToolError(error.description)
    }
    let modeName = mode == .nineD ? "9D" : "6D"
    console.out(
      "fused \(recording.count) samples (\(modeName), \(outputFrame.name)) into "
        + "\(motions.count) rows: \(output)\n")
    return 0
  }
}
