import Foundation
import SwellEvaluation
import SwellMotion
import SwellRecordings

/// `swell evaluate`: BROAD-style orientation error of an estimate against ground truth, or the
/// accuracy table of Swell's own fusion over a folder of BROAD trials.
struct EvaluateCommand: TypedToolCommand {
  static let about = CommandAbout(
    "evaluate", summary: "BROAD-style orientation error of an estimate against ground truth",
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
    examples: [
      "evaluate estimate.csv --truth data/broad/trial.csv --json", "evaluate --broad data/broad",
    ])

  struct Options: ParsableOptions {
    var truth: String?
    var force6D: Bool
    var force9D: Bool
    var broad: String?
    var json: Bool
    var againstDevice: String?
    var recording: String?
    /// The `--broad` developer run that the options below `--json` describe.
    var experiment = BroadExperiment()
    var export: String?
    /// The developer options given (`--set`, `--trials`, ...), for the messages.
    var developerOptions: [String] = []
    var estimate: String?

    init(_ p: inout OptionParser) throws(UsageError) {
      truth = p.option(
        "--truth", value: "FILE", kind: .file, help: "the BROAD trial with the ground truth")
      force6D = p.flag(
        "--6d", aliases: ["--6D"],
        help:
          "remove the constant heading offset that minimises the heading error (default for "
          + "an xArbitraryZVertical estimate)")
      force9D = p.flag(
        "--9d", aliases: ["--9D"], help: "score unaligned even for an xArbitraryZVertical estimate")
      broad = p.option(
        "--broad", value: "DIR", kind: .directory,
        help: "evaluate Swell's fusion over a folder of BROAD trials")
      againstDevice = p.option(
        "--against-device", value: "DIR", kind: .directory,
        help:
          "compare Swell's gravity and 6D attitude with the phone's own fused output in a "
          + "Sensor Logger export (Gravity.csv, Orientation.csv)")
      recording = p.option(
        "--recording", value: "PATH", kind: .file,
        help:
          "check Swell's fusion of a raw recording without truth: 6D against 9D gravity, "
          + "gravity against the accelerometer and attitude wander at rest (text)")
      json = p.flag("--json", help: "print one JSON object instead of text")
      p.heading("With --broad (--json too, except --sensitivity and --inject all)")
      let disturbStart = p.flag(
        "--disturb-start",
        help:
          "add a magnet's field, (20, -20, 15) uT in the sensor frame, during each trial's "
          + "first 25 s (the trials rest there)")
      let disturbFade = try p.option(
        "--disturb-fade", value: "S", in: .positive(atMost: BroadTrial.startDisturbanceSeconds),
        help: "the same field, fading linearly to zero over the last S s of the 25 s")
      if disturbStart || disturbFade != nil {
        experiment.startDisturbanceFade = disturbFade ?? 0
      }
      experiment.rate = try p.option(
        "--rate", value: "HZ", in: .positive, help: "resample the trials to HZ first (boxcar bins)")
      experiment.trialPrefixes = p.option(
        "--trials", value: "LIST",
        help:
          "only the trials whose names start with one of LIST (comma separated, e.g. "
          + "01,06,10), such as a tuning or a hold-out subset"
      ).map { $0.split(separator: ",").map(String.init) }
      if let inject = p.option(
        "--inject", value: "KIND",
        help:
          "add seeded taps or vibration to every trial (taps1-3, vibration1-3, or all: "
          + "clean and each of the six, as a summary; KIND@SEED draws them afresh)"),
        !experiment.setInjection(inject)
      {
        throw UsageError("--inject takes taps1-3, vibration1-3 or all[@SEED], got \(inject)")
      }
      export = p.option(
        "--export", value: "OUTDIR", kind: .directory,
        help: "write the changed trials as BROAD CSVs to OUTDIR instead of evaluating")
      experiment.sensitivity = p.flag(
        "--sensitivity", help: "scale each setting by 0.8 and 1.2 and report the spread")
      for a in p.repeatedOption(
        "--set", value: "NAME=VALUE",
        help: "change an estimator setting (repeatable; docs/fusion.md lists them)")
      where !experiment.settings.apply(a) {
        throw UsageError("--set takes NAME=NUMBER with a known setting, got \(a)")
      }
      developerOptions = p.givenInGroup
      estimate = p.argument("ESTIMATE.csv", kind: .file, isOptional: true)
    }

    func validate() throws(UsageError) {
      if recording != nil {
        guard againstDevice == nil, broad == nil, truth == nil, estimate == nil, !json else {
          throw UsageError(
            "--recording takes no ESTIMATE.csv, --truth, --broad, --against-device or --json")
        }
        return
      }
      if againstDevice != nil {
        guard broad == nil, truth == nil, estimate == nil else {
          throw UsageError("--against-device takes no ESTIMATE.csv, --truth or --broad")
        }
        return
      }
      if broad != nil {
        guard truth == nil, !force6D, !force9D, estimate == nil else {
          throw UsageError("--broad takes no ESTIMATE.csv, --truth, --6d or --9d")
        }
        if json && (experiment.sensitivity || experiment.injectsAll) {
          throw UsageError("--sensitivity and --inject all print text only")
        }
        return
      }
      guard developerOptions.isEmpty else {
        throw UsageError("--sensitivity, --rate, --set, --trials and --disturb-start need --broad")
      }
      guard estimate != nil else { throw UsageError("missing ESTIMATE.csv (or use --broad)") }
      guard truth != nil else { throw UsageError("missing --truth TRIAL.csv") }
      guard !(force6D && force9D) else { throw UsageError("--6d and --9d exclude each other") }
    }
  }

  static func run(_ o: Options, console: Console) throws -> Int32 {
    if let recording = o.recording {
      let result: RecordingConsistency
      do {
        result = try RecordingConsistency(
          contentsOf: URL(fileURLWithPath: recording), settings: o.experiment.settings)
      } catch let error as NumericTableError {
        throw UsageError(error.description)
      }
      console.out(result.text)
    } else if let device = o.againstDevice {
      let result: DeviceReferenceEvaluation
      do {
        result = try DeviceReferenceEvaluation(
          folder: URL(fileURLWithPath: device), settings: o.experiment.settings)
      } catch let error as NumericTableError {
        throw UsageError(error.description)
      }
      console.out(o.json ? result.jsonText : result.text)
    } else if let directory = o.broad {
      return try o.developerOptions.isEmpty
        ? runBroad(directory: directory, json: o.json, console: console)
        : runExperiment(o, folder: URL(fileURLWithPath: directory), console: console)
    } else {
      let result = try EstimateEvaluation(
        estimate: URL(fileURLWithPath: o.estimate ?? ""),
        truth: URL(fileURLWithPath: o.truth ?? ""),
        alignHeading: o.force6D ? true : (o.force9D ? false : nil))
      console.out(o.json ? result.report.jsonText() + "\n" : result.text())
    }
    return 0
  }

  private static func runBroad(directory: String, json: Bool, console: Console) throws -> Int32 {
    // Progress on standard error, the table or JSON on standard output.
    let eval = try ProgressLine.showing(console: console, label: "swell evaluate", unit: "trial") {
      try BroadEvaluation(directory: URL(fileURLWithPath: directory), progress: $0)
    }
    console.out(
      json
        ? eval.jsonText() + "\n"
        : eval.tableText(title: "RMSE in degrees, total / heading / inclination"))
    return 0
  }

  /// `--broad DIR` on the developer path: the experiment's table, its injection summary
  /// (`--inject all`) or its trials written out (`--export`).
  private static func runExperiment(_ o: Options, folder: URL, console: Console) throws -> Int32 {
    let experiment = o.experiment
    do {
      if experiment.injectsAll {
        guard let text = try experiment.injectionSummary(directory: folder) else { return 1 }
        console.out(text)
      } else if let export = o.export {
        let trials = try experiment.trials(directory: folder)
        do {
          try BroadExperiment.write(trials, to: URL(fileURLWithPath: export))
        } catch {
          throw UsageError("cannot write the trials to \(export): \(error.localizedDescription)")
        }
        console.out("wrote \(trials.count) trials to \(export)\n")
      } else if o.json {
        let trials = try experiment.trials(directory: folder)
        console.out(
          BroadEvaluation(fusing: trials, settings: experiment.settings).jsonText() + "\n")
      } else {
        console.out(
          try ProgressLine.showing(console: console, label: "swell evaluate", unit: "run") {
            try experiment.report(directory: folder, progress: $0)
          })
      }
    } catch let e as BroadExperiment.NoMatchingTrial {
      throw UsageError("--trials \(e.prefixes.joined(separator: ",")) matches no trial")
    }
    return 0
  }
}
