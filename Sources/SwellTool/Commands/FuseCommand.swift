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

      A raw IMU CSV is in seconds, rad/s and m/s². Its first rows are checked for other units \
      (an accelerometer in g, times in milliseconds, a gyroscope in degrees per second) and a \
      warning names the option that declares them; --accel-unit, --time-unit and --gyro-unit \
      convert as the file is read.
      """,
    examples: [
      "fuse recording.zip -o motion.csv",
      "fuse raw.csv --9d --rate 100 -o motion.csv",
      "fuse coremotion.csv --accel-unit g --time-unit ms -o motion.csv",
    ])

  struct Options: ParsableOptions {
    var output: String?
    /// The fusion asked for: `--6d`/`--9d`, the frame, the declination, the output rate.
    var fusion = RecordingFusion()
    /// The units of a raw IMU CSV's columns.
    var units = RecordingUnits()
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
      units.acceleration = try p.option(
        "--accel-unit", value: "UNIT", default: RecordingUnits.Acceleration.metersPerSecondSquared,
        help: "raw IMU CSV: the accelerometer's unit (g is CoreMotion's)")
      units.time = try p.option(
        "--time-unit", value: "UNIT", default: RecordingUnits.Time.seconds,
        help: "raw IMU CSV: the unit of t_s")
      units.angularVelocity = try p.option(
        "--gyro-unit", value: "UNIT", default: RecordingUnits.AngularVelocity.radiansPerSecond,
        help: "raw IMU CSV: the gyroscope's unit")
      input = p.argument("INPUT", kind: .file)
    }

    func validate() throws(UsageError) {
      guard input != nil else {
        throw UsageError("needs an INPUT recording; see 'swell help fuse'")
      }
      guard output != nil else { throw UsageError("needs -o OUT.csv") }
      try OutputName.requireNotFolder(output)
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
    let url = URL(fileURLWithPath: input)
    if !o.units.isStandard, (try? RawIMUCSV.Reader(url: url)) == nil {
      throw UsageError(
        "--accel-unit, --time-unit and --gyro-unit apply to a raw IMU CSV file "
          + "(\(RawIMUCSV.header))")
    }
    for warning in RecordingUnitCheck.warnings(contentsOf: url, units: o.units) {
      console.err("swell fuse: warning: \(input): \(warning.message); \(advice(warning))\n")
    }
    let showProgress = console.isInteractive
    var lastPercent = -1
    let report: RecordingFusion.Report
    do {
      defer { if showProgress { console.err("\r\u{1B}[K") } }
      let source = try RecordingSource(contentsOf: url, units: o.units)
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

  /// The option that declares the unit a warning suggests: `--accel-unit g`.
  static func declaration(_ warning: RecordingUnitWarning) -> String {
    let flag =
      switch warning.quantity {
      case .acceleration: "--accel-unit"
      case .time: "--time-unit"
      case .angularVelocity: "--gyro-unit"
      }
    return "\(flag) \(warning.suggestedUnit)"
  }

  /// The advice after a warning: `if so, give --accel-unit g`.
  static func advice(_ warning: RecordingUnitWarning) -> String {
    "if so, give \(declaration(warning))"
  }
}
