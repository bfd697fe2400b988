import Foundation
import SwellEvaluation
import SwellMotion

// `swell evaluate --broad DIR` with a subset, a magnet, a rate, settings, the sensitivity sweep,
// `--inject KIND` or `--export OUTDIR` (issue 21): a `BroadExperiment`, run and printed.

extension EvaluateCommand {
  /// `--broad DIR` on the developer path: the options as a ``BroadExperiment``, its table, its
  /// injection summary (`--inject all`) or its trials written out (`--export`).
  static func runExperiment(directory: String, options o: Options, console: Console) throws
    -> Int32
  {
    var experiment = BroadExperiment()
    experiment.trialPrefixes = o.trials
    experiment.startDisturbanceFade =
      (o.disturbStart || o.disturbFade != nil) ? (o.disturbFade ?? 0) : nil
    experiment.rate = o.rate
    experiment.settings = o.settings
    experiment.sensitivity = o.sensitivity
    if let label = o.inject, label != "all" {
      guard let injection = BroadInjection.parse(label) else {
        throw UsageError("--inject takes taps1-3, vibration1-3 or all, got \(label)")
      }
      experiment.injection = injection
      experiment.injectionName = label
    }
    let folder = URL(fileURLWithPath: directory)
    do {
      if o.inject == "all" {
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
      } else {
        console.out(
          try experiment.report(directory: folder) { done, total in
            if console.isInteractive {
              console.err("\rrun \(done)/\(total)" + (done == total ? "\r\u{1B}[K" : ""))
            }
          })
      }
    } catch let e as BroadExperiment.NoMatchingTrial {
      throw UsageError("--trials \(e.prefixes.joined(separator: ",")) matches no trial")
    }
    return 0
  }
}
