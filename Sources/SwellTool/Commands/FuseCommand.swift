import Foundation
import SwellMotion
import SwellRecordings

/// `swell fuse`: a raw IMU recording (any importable format) to a device-motion CSV.
struct FuseCommand: ToolCommand {
  /// The most rows `--rate` may resample to (about 2 GB of CSV).
  static let maximumRows = 10_000_000

  static let spec = CommandSpec(
    "fuse", summary: "raw IMU recording to device motion (attitude, gravity, user acceleration)",
    arguments: [ArgumentSpec("INPUT")],
    discussion: """
      Fuses a raw motion recording into device motion, CoreMotion style, and writes the \
      device-motion CSV (docs/formats.md). INPUT is any recording Swell imports: a raw IMU CSV \
      (t_s,gx,gy,gz,ax,ay,az,mx,my,mz), a Sensor Logger export (folder or .zip, iOS or \
      Android), or a phyphox CSV export (file, folder or .zip). A device-motion CSV passes \
      through. CSV files are streamed: memory does not grow with the recording.
      """,
    groups: [
      OptionGroup(
        nil,
        [
          SharedOptions.output(
            "the device-motion CSV to write (atomically; - for standard output)"),
          OptionSpec(
            "--6d", help: "gyroscope + accelerometer (default unless the frame needs north)"),
          OptionSpec(
            "--9d",
            help:
              "also the magnetometer; appends magneticField.x,y,z,accuracy and heading columns"),
          OptionSpec(
            "--reference-frame", kind: .value("NAME"),
            help:
              "xArbitraryZVertical (default), xArbitraryCorrectedZVertical, "
              + "xMagneticNorthZVertical or xTrueNorthZVertical"),
          OptionSpec(
            "--declination", kind: .value("DEG"),
            help: "magnetic declination, degrees east (needed for true north)"),
          OptionSpec(
            "--rate", kind: .value("HZ"),
            help: "resample the output to HZ (fusion still runs on every sample)"),
        ])
    ])

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    let output = arguments.option("--output")
    let sixD = arguments.flag("--6d")
    let nineD = arguments.flag("--9d")
    let frameName = arguments.option("--reference-frame")
    let rate = try arguments.positiveNumber("--rate")
    let declination = try arguments.number("--declination", in: -180...180)
    let input = arguments.positional()
    try arguments.finish()
    guard let input else { throw UsageError("needs an INPUT recording; see 'swell help fuse'") }
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
    let mode: AttitudeEstimator.Mode =
      nineD ? .nineD : AttitudeEstimator.Mode(referenceFrame: frame)

    // The recording streams through a MotionManager (the one loop that pulls a source): raw
    // IMU and device-motion CSVs are read block by block and the rows written as they are
    // fused, so memory does not grow with the recording.
    let source: RecordingSource
    do {
      source = try RecordingSource(contentsOf: URL(fileURLWithPath: input))
    } catch {
      throw ToolError(error.description)
    }
    let recordingName = URL(fileURLWithPath: input).lastPathComponent
    var includeMagnetic = mode == .nineD
    var outputFrame = frame
    if let fileFrame = source.deviceMotionReferenceFrame {
      // Already fused: pass through in its own frame.
      outputFrame = fileFrame
      includeMagnetic = source.hasMagnetometer
    } else if mode == .nineD && !source.hasMagnetometer {
      throw ToolError(
        "\(recordingName): 9D fusion needs a magnetometer and the recording has none "
          + "(use --6d and xArbitraryZVertical)")
    }
    if let rate, let span = source.timeSpan {
      // A rate far above the recording's makes more rows than fit in a file (and a row count
      // past Int.max): refuse it in one line instead of crashing.
      let seconds = span.upperBound - span.lowerBound
      guard seconds * rate < Double(maximumRows) else {
        throw UsageError(
          "--rate \(displayNumber(rate)) Hz over \(displayNumber(seconds)) s makes more than \(maximumRows) rows; lower --rate"
        )
      }
    }
    let manager = MotionManager(source: source)
    let passesThrough = source.deviceMotionReferenceFrame != nil
    manager.fusionMode = passesThrough ? nil : mode
    manager.magneticDeclination = declination ?? 0
    let samples = manager.deviceMotionSamples(using: passesThrough ? .xArbitraryZVertical : frame)
    defer { samples.cancel() }

    let writer: AtomicFileWriter
    do {
      writer = try AtomicFileWriter(url: URL(fileURLWithPath: output))
    } catch {
      throw ToolError(error.description)
    }
    var text = DeviceMotionCSV.headerText(
      referenceFrame: outputFrame, includeMagneticField: includeMagnetic)
    var resampler = rate.map(DeviceMotionResampler.init(rate:))
    var fused = 0
    var rows = 0
    let showProgress = console.isInteractive
    var lastPercent = -1
    func emit(_ m: DeviceMotion) {
      DeviceMotionCSV.appendRow(m, includeMagneticField: includeMagnetic, to: &text)
      rows += 1
    }
    do {
      while let m = try samples.waitForNext() {
        fused += 1
        if var r = resampler {
          for out in r.add(m) { emit(out) }
          resampler = r
        } else {
          emit(m)
        }
        if text.utf8.count >= 1 << 20 {
          try writer.write(text)
          text = ""
        }
        if showProgress, let span = source.timeSpan, span.upperBound > span.lowerBound {
          let percent = Int(
            100 * (m.timestamp - span.lowerBound) / (span.upperBound - span.lowerBound))
          if percent != lastPercent {
            lastPercent = percent
            console.err("\rswell fuse: \(percent)%")
          }
        }
      }
      if var r = resampler {
        for out in r.finish() { emit(out) }
        resampler = r
      }
      try writer.write(text)
      try writer.commit()
    } catch let e as MotionManagerError {
      if showProgress { console.err("\r\u{1B}[K") }
      throw ToolError(e.sourceMessage ?? e.message)
    } catch {
      if showProgress { console.err("\r\u{1B}[K") }
      throw ToolError("\(error)")
    }
    if showProgress { console.err("\r\u{1B}[K") }
    let modeName = mode == .nineD ? "9D" : "6D"
    // With -o - the rows are standard output: the summary goes to standard error.
    let say = output == "-" ? console.err : console.out
    say("fused \(fused) samples (\(modeName), \(outputFrame.name)) into \(rows) rows: \(output)\n")
    return 0
  }
}
