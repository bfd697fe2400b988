import Foundation
import SwellEvaluation
import SwellMotion

// `swell evaluate --broad DIR --inject KIND [--export OUTDIR]`: seeded taps and vibration
// (issue 21), and the disturbed trials written out so that a peer filter reads the same bytes.

extension EvaluateCommand {
  /// `--broad DIR` with `--inject` or `--export`: the trials (a `--trials` subset, with the
  /// start magnet and the injection added before any resampling) evaluated, summarised or
  /// written out.
  static func runInjected(directory: String, options o: Options, console: Console) throws
    -> Int32
  {
    var trials = try BroadEvaluation.loadTrials(directory: URL(fileURLWithPath: directory))
    if let subset = o.trials {
      trials = trials.filter { t in subset.contains { !$0.isEmpty && t.name.hasPrefix($0) } }
      guard !trials.isEmpty else {
        throw UsageError("--trials \(subset.joined(separator: ",")) matches no trial")
      }
    }
    let startFade = (o.disturbStart || o.disturbFade != nil) ? (o.disturbFade ?? 0) : nil
    // The magnet, the taps and the vibration reach the sensor: added before any resampling.
    if let startFade { trials = trials.map { $0.withStartDisturbance(fade: startFade) } }
    if o.inject == "all" {
      return try runInjectionSummary(
        trials: trials, rate: o.rate, settings: o.settings, console: console)
    }
    if let label = o.inject { trials = try injected(trials, label: label) }
    if let rate = o.rate { trials = trials.map { $0.resampled(rate: rate) } }
    if let export = o.export { return try exportTrials(trials, to: export, console: console) }
    guard o.sensitivity else {
      console.out(
        BroadEvaluation(fusing: trials, settings: o.settings).tableText(
          title: "RMSE in degrees with \(o.inject ?? "no injection"), total / heading / inclination"
        ))
      return 0
    }
    let result = BroadSensitivity(trials: trials, settings: o.settings) { done, total in
      if console.isInteractive {
        console.err("\rrun \(done)/\(total)" + (done == total ? "\r\u{1B}[K" : ""))
      }
    }
    console.out(result.tableText())
    return 0
  }

  /// The trials with the disturbance named by `label` (`taps1`...`vibration3`) added.
  static func injected(_ trials: [BroadTrial], label: String) throws -> [BroadTrial] {
    guard let injection = BroadInjection.parse(label) else {
      throw UsageError("--inject takes taps1-3, vibration1-3 or all, got \(label)")
    }
    return trials.map { $0.injecting(injection) }
  }

  /// Writes every trial to `OUTDIR/NAME.csv` (the folder is created if needed).
  static func exportTrials(_ trials: [BroadTrial], to path: String, console: Console) throws
    -> Int32
  {
    let folder = URL(fileURLWithPath: path)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for trial in trials {
        try trial.write(to: folder.appendingPathComponent(trial.name + ".csv"))
      }
    } catch {
      throw UsageError("cannot write the trials to \(path): \(error.localizedDescription)")
    }
    console.out("wrote \(trials.count) trials to \(path)\n")
    return 0
  }

  /// Clean and each of the six injections: the 9D and 6D means (total / heading /
  /// inclination) and each one's difference from the clean total.
  static func runInjectionSummary(
    trials: [BroadTrial], rate: Double?, settings: AttitudeEstimator.Settings, console: Console
  ) throws -> Int32 {
    let f2 = { (v: Double) in String(format: "%.2f", v) }
    let triple = { (e: OrientationRMSE) in
      "\(f2(e.totalDegrees)) / \(f2(e.headingDegrees)) / \(f2(e.inclinationDegrees))"
    }
    let resample = { (t: [BroadTrial]) in rate.map { r in t.map { $0.resampled(rate: r) } } ?? t }
    let clean = BroadEvaluation(fusing: resample(trials), settings: settings)
    guard let c9 = clean.mean(mode: .nineD), let c6 = clean.mean(mode: .sixD) else { return 1 }
    console.out("mean of \(trials.count) trials, total / heading / inclination (change of total)\n")
    console.out(
      "input".padding(toLength: 14, withPad: " ", startingAt: 0)
        + "9D".padding(toLength: 32, withPad: " ", startingAt: 0) + "6D\n")
    console.out(
      "clean".padding(toLength: 14, withPad: " ", startingAt: 0)
        + triple(c9).padding(toLength: 32, withPad: " ", startingAt: 0) + triple(c6) + "\n")
    for kind in BroadInjection.Kind.allCases {
      for strength in BroadInjection.strengths {
        let injection = BroadInjection(kind: kind, strength: strength)
        let e = BroadEvaluation(
          fusing: resample(trials.map { $0.injecting(injection) }), settings: settings)
        guard let m9 = e.mean(mode: .nineD), let m6 = e.mean(mode: .sixD) else { continue }
        let d9 = String(format: "%+.2f", m9.totalDegrees - c9.totalDegrees)
        let d6 = String(format: "%+.2f", m6.totalDegrees - c6.totalDegrees)
        console.out(
          injection.label.padding(toLength: 14, withPad: " ", startingAt: 0)
            + "\(triple(m9)) (\(d9))".padding(toLength: 32, withPad: " ", startingAt: 0)
            + "\(triple(m6)) (\(d6))\n")
      }
    }
    return 0
  }
}
