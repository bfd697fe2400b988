import Foundation
import SwellMotion
import SwellRecordings

/// `swell fuse`: a raw IMU recording (any importable format) to a device-motion CSV.
struct FuseCommand: TypedToolCommand {
  static let about = CommandAbout(
    "fuse", summary: "raw IMU recording to device motion (attitude, gravity, user acceleration)",
    discussion: """
      Fuses a raw motion recording into device motion, CoreMotion style, and writes the \
      device-motion CSV (docs/formats.md). INPUT is any recording Swell imports: a raw IMU CSV \
      (t_s,gx,gy,gz,ax,ay,az,mx,my,mz), a Sensor Logger export (folder or .zip, iOS or \
      Android), a phyphox CSV export (file, folder or .zip), or an evemu recording of a Linux \
      gamepad's motion node (.evemu). A device-motion CSV passes through. CSV files are streamed: memory does not grow with the recording.
      """,
    examples: [
      "fuse recording.zip -o motion.csv",
      "fuse raw.csv --9d --rate 100 -o motion.csv",
    ])

  struct Options: ParsableOptions {
    var output: String?
    /// The fusion asked for: `--6d`/`--9d`, the frame, the declination, the output rate.
    var fusion = RecordingFusion()
    var input: String?

    init(_ p: inout OptionParser) throws(UsageError) {
      output = p.output(
        help: "the device-motion CSV to write (atomically; - for standard output)")
      let sixD = p.flag(
        "--6d", help: "gyroscope + accelerometer (default unless the frame needs north)")
      let nineD = p.flag(
        "--9d",
        help: "also the magnetometer; appends magneticField.x,y,z,accuracy and heading columns")
      guard !(sixD && nineD) else { throw UsageError("--6d and --9d exclude each other") }
      fusion.mode = nineD ? .nineD : (sixD ? .sixD : nil)
      fusion.referenceFrame = try AttitudeReferenceFrame.option(
        &p, help: "the frame of the attitudes")
      fusion.magneticDeclination = try p.option(
        "--declination", value: "DEG", in: -180...180,
        help: "magnetic declination, degrees east (needed for true north)")
      fusion.rate = try p.option(
        "--rate", value: "HZ", in: .positive,
        help: "resample the output to HZ (fusion still runs on every sample)")
      input = p.argument("INPUT", kind: .file)
    }

    func validate() throws(UsageError) {
      guard input != nil else {
        throw UsageError("needs an INPUT recording; see 'swell help fuse'")
      }
      guard output != nil else { throw UsageError("needs -o OUT.csv") }
      try OutputName.require(output, oneOf: ["csv"], writing: "a device-motion CSV")
      let frame = fusion.referenceFrame
      if fusion.mode == .sixD && frame.needsMagnetometer {
        throw UsageError("--reference-frame \(frame.name) needs the magnetometer; drop --6d")
      }
      if frame == .xTrueNorthZVertical && fusion.magneticDeclination == nil {
        throw UsageError(
          "--reference-frame xTrueNorthZVertical needs --declination DEG (degrees east)")
      }
    }
  }

  static func run(_ o: Options, console: Console) throws -> Int32 {
    let (input, output) = (o.input ?? "", o.output ?? "")
    let showProgress = console.isInteractive
    var lastPercent = -1
    let report: RecordingFusion.Report
    do {
      defer { if showProgress { console.err("\r\u{1B}[K") } }
      let source = try RecordingSource(contentsOf: URL(fileURLWithPath: input))
      report = try o.fusion.run(source, to: URL(fileURLWithPath: output)) { done in
        let percent = Int(100 * done)
        if showProgress && percent != lastPercent {
          lastPercent = percent
          console.err("\rswell fuse: \(percent)%")
        }
      }
    } catch let e as RecordingFusion.RateTooHigh {
      throw UsageError(
        "--rate \(displayNumber(e.rate)) Hz over \(displayNumber(e.seconds)) s makes more than "
          + "\(RecordingFusion.maximumRows) rows; lower --rate")
    } catch let e as MotionManagerError {
      throw ToolError(e.sourceMessage ?? e.message)
    }
    // With -o - the rows are standard output: the summary goes to standard error.
    (output == "-" ? console.err : console.out)(report.summary(output: output) + "\n")
    return 0
  }
}
