import Foundation
import SwellMotion

/// `swell evaluate`: BROAD-style orientation error of an estimate against ground truth, or the
/// accuracy table of Swell's own fusion over a folder of BROAD trials.
struct EvaluateCommand: ToolCommand {
  static let spec = CommandSpec(
    "evaluate", summary: "BROAD-style orientation error of an estimate against ground truth",
    arguments: [ArgumentSpec("ESTIMATE.csv", isOptional: true)],
    discussion: """
      swell evaluate ESTIMATE.csv --truth TRIAL.csv scores a device-motion CSV (swell fuse \
      output; the attitude is sensor -> reference frame, NWU for the north frames) against a \
      BROAD trial CSV (t_s, ..., qw, qx, qy, qz, movement; truth sensor -> ENU). Each truth row \
      takes the estimate row with the nearest time; rows farther apart than half the truth's \
      median sample period are not scored, nor rows without movement == 1 or finite truth. \
      Prints the total, heading and inclination RMSE in degrees.

      swell evaluate --broad DIR fuses every trial in DIR with Swell's estimator in 9D and 6D \
      and prints per-trial, per-category and mean RMSEs (docs/fusion.md).
      """,
    groups: [
      OptionGroup(
        nil,
        [
          OptionSpec(
            "--truth", kind: .value("FILE"), help: "the BROAD trial with the ground truth"),
          OptionSpec(
            "--6d", aliases: ["--6D"],
            help:
              "remove the constant heading offset that minimises the heading error (default for "
              + "an xArbitraryZVertical estimate)"),
          OptionSpec(
            "--9d", aliases: ["--9D"],
            help: "score unaligned even for an xArbitraryZVertical estimate"),
          OptionSpec(
            "--broad", kind: .value("DIR"),
            help: "evaluate Swell's fusion over a folder of BROAD trials"),
          OptionSpec(
            "--against-device", kind: .value("DIR"),
            help:
              "compare Swell's gravity and 6D attitude with the phone's own fused output in a "
              + "Sensor Logger export (Gravity.csv, Orientation.csv)"),
          OptionSpec("--json", help: "print one JSON object instead of text"),
        ]),
      OptionGroup(
        "With --broad (text output)",
        [
          OptionSpec(
            "--disturb-start",
            help:
              "add a magnet's field, (20, -20, 15) uT in the sensor frame, during each trial's "
              + "first 25 s (the trials rest there)"),
          OptionSpec(
            "--disturb-fade", kind: .value("S"),
            help: "the same field, fading linearly to zero over the last S s of the 25 s"),
          OptionSpec(
            "--rate", kind: .value("HZ"), help: "resample the trials to HZ first (boxcar bins)"),
          OptionSpec(
            "--trials", kind: .value("LIST"),
            help:
              "only the trials whose names start with one of LIST (comma separated, e.g. "
              + "01,06,10), such as a tuning or a hold-out subset"),
          OptionSpec(
            "--inject", kind: .value("KIND"),
            help:
              "add seeded taps or vibration to every trial (taps1-3, vibration1-3, or all: "
              + "clean and each of the six, as a summary)"),
          OptionSpec(
            "--export", kind: .value("OUTDIR"),
            help: "write the changed trials as BROAD CSVs to OUTDIR instead of evaluating"),
          OptionSpec(
            "--sensitivity", help: "scale each setting by 0.8 and 1.2 and report the spread"),
          OptionSpec(
            "--set", kind: .repeated("NAME=VALUE"),
            help: "change an estimator setting (repeatable; docs/fusion.md lists them)"),
        ]),
    ])

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    let json = arguments.flag("--json")
    let broadDirectory = arguments.option("--broad")
    let broad = broadDirectory != nil
    let force6D = arguments.flag("--6d")
    let force9D = arguments.flag("--9d")
    let truthPath = arguments.option("--truth")
    let sensitivity = arguments.flag("--sensitivity")
    let rate = try arguments.positiveNumber("--rate")
    let disturbStart = arguments.flag("--disturb-start")
    let disturbFade = try arguments.positiveNumber("--disturb-fade")
    let assignments = arguments.repeatedOption("--set")
    let trialList = arguments.option("--trials")
    let injection = arguments.option("--inject")
    let export = arguments.option("--export")
    let device = arguments.option("--against-device")
    let positional = arguments.positional()
    try arguments.finish()
    if let device {
      guard !broad, truthPath == nil, positional == nil else {
        throw UsageError("--against-device takes no ESTIMATE.csv, --truth or --broad")
      }
      return try runAgainstDevice(
        path: device, json: json, settings: try settings(assignments), console: console)
    }
    if broad {
      guard truthPath == nil, !force6D, !force9D, positional == nil else {
        throw UsageError("--broad takes no ESTIMATE.csv, --truth, --6d or --9d")
      }
      let directory = broadDirectory ?? "."
      if let disturbFade, disturbFade > BroadTrial.startDisturbanceSeconds {
        throw UsageError(
          "--disturb-fade must be at most \(Int(BroadTrial.startDisturbanceSeconds)) s")
      }
      let disturbance = (disturbStart || disturbFade != nil) ? (disturbFade ?? 0) : nil
      let subset = trialList.map { $0.split(separator: ",").map(String.init) }
      if sensitivity || rate != nil || !assignments.isEmpty || disturbance != nil || subset != nil
        || injection != nil || export != nil
      {
        guard !json else {
          throw UsageError("--sensitivity, --rate, --set and --disturb-start print text only")
        }
        return try runBroadDeveloper(
          directory: directory, sensitivity: sensitivity, rate: rate, startFade: disturbance,
          subset: subset, injection: injection, export: export,
          settings: try settings(assignments), console: console)
      }
      return try runBroad(directory: directory, json: json, console: console)
    }
    guard !sensitivity, rate == nil, assignments.isEmpty, !disturbStart, disturbFade == nil,
      trialList == nil, injection == nil, export == nil
    else {
      throw UsageError("--sensitivity, --rate, --set, --trials and --disturb-start need --broad")
    }
    guard let estimatePath = positional else {
      throw UsageError("missing ESTIMATE.csv (or use --broad)")
    }
    guard let truthPath else { throw UsageError("missing --truth TRIAL.csv") }
    guard !(force6D && force9D) else { throw UsageError("--6d and --9d exclude each other") }
    let result = try EstimateEvaluation(
      estimate: URL(fileURLWithPath: estimatePath), truth: URL(fileURLWithPath: truthPath),
      alignHeading: force6D ? true : (force9D ? false : nil))
    let r = result.rmse
    if json {
      console.out(
        "{\"total_deg\": \(fmt(r.totalDegrees)), \"heading_deg\": \(fmt(r.headingDegrees)), "
          + "\"inclination_deg\": \(fmt(r.inclinationDegrees)), \"scored_samples\": \(result.scoredCount), "
          + "\"heading_aligned\": \(result.headingAligned), "
          + "\"heading_offset_deg\": \(fmt(result.headingOffsetRadians * 180 / Double.pi))}\n")
    } else {
      console.out("total        \(fmt(r.totalDegrees)) deg\n")
      console.out("heading      \(fmt(r.headingDegrees)) deg\n")
      console.out("inclination  \(fmt(r.inclinationDegrees)) deg\n")
      console.out(
        "(\(result.scoredCount) samples scored"
          + (result.headingAligned
            ? ", heading aligned by \(fmt(result.headingOffsetRadians * 180 / Double.pi)) deg)\n"
            : ", unaligned)\n"))
    }
    return 0
  }

  private static func fmt(_ v: Double) -> String {
    v.isFinite ? String(format: "%.4f", v) : "null"
  }

  private static func runBroad(directory: String, json: Bool, console: Console) throws -> Int32 {
    let eval = try BroadEvaluation(
      directory: URL(fileURLWithPath: directory), settings: AttitudeEstimator.Settings()
    ) { done, total in
      if console.isInteractive && !json {
        console.err("\rfusing trial \(done)/\(total)")
        if done == total { console.err("\r\u{1B}[K") }
      }
    }
    console.out(
      json
        ? eval.jsonText() + "\n"
        : eval.tableText(title: "RMSE in degrees, total / heading / inclination"))
    return 0
  }

  /// Settings with `--set NAME=VALUE` applied.
  static func settings(_ assignments: [String]) throws -> AttitudeEstimator.Settings {
    var s = AttitudeEstimator.Settings()
    for a in assignments where !s.apply(a) {
      throw UsageError("--set takes NAME=NUMBER with a known setting, got \(a)")
    }
    return s
  }

  /// `--broad` with a subset, a start-up disturbance, a resampling rate or the sensitivity
  /// sweep (every setting scaled by 0.8 and 1.2 in turn).
  private static func runBroadDeveloper(
    directory: String, sensitivity: Bool, rate: Double?, startFade: Double?, subset: [String]?,
    injection: String?, export: String?, settings: AttitudeEstimator.Settings, console: Console
  ) throws -> Int32 {
    var trials = try BroadEvaluation.loadTrials(directory: URL(fileURLWithPath: directory))
    if let subset {
      trials = trials.filter { t in subset.contains { !$0.isEmpty && t.name.hasPrefix($0) } }
      guard !trials.isEmpty else {
        throw UsageError("--trials \(subset.joined(separator: ",")) matches no trial")
      }
    }
    // The magnet is beside the sensor, so it is added before any resampling.
    if let startFade { trials = trials.map { $0.withStartDisturbance(fade: startFade) } }
    // Taps and vibration reach the sensor, so they too come before any resampling.
    if injection == "all" {
      return try runInjectionSummary(
        trials: trials, rate: rate, settings: settings, console: console)
    }
    if let injection { trials = try injected(trials, label: injection) }
    if let rate { trials = trials.map { $0.resampled(rate: rate) } }
    if let export {
      return try exportTrials(trials, to: export, console: console)
    }
    guard sensitivity else {
      let rateText = rate.map { "at \(String(format: "%.2f", $0)) Hz" } ?? "at the trials' rate"
      let disturbanceText =
        startFade.map {
          ", magnet (20, -20, 15) uT for the first 25 s"
            + ($0 > 0 ? ", fading over \(String(format: "%.2f", $0)) s" : "")
        } ?? ""
      console.out(
        BroadEvaluation(fusing: trials, settings: settings).tableText(
          title: "RMSE in degrees \(rateText)\(disturbanceText), total / heading / inclination"))
      return 0
    }
    let result = BroadSensitivity(trials: trials, settings: settings) { done, total in
      if console.isInteractive {
        console.err("\rrun \(done)/\(total)")
        if done == total { console.err("\r\u{1B}[K") }
      }
    }
    console.out(result.tableText())
    return 0
  }
}
