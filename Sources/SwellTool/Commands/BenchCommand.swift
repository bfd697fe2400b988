import Foundation
import SwellBenchmarks

/// `swell bench`: the performance suite. Each registered ``Benchmark`` reports figures as
/// median, min and max over repetitions.
struct BenchCommand: TypedToolCommand {
  static let about = CommandAbout(
    "bench", summary: "the performance suite (fusion throughput, rendering, ...)",
    discussion: """
      Runs the performance suite on synthetic data (no files needed) on one core and prints a \
      table of the figures (median, min and max over repetitions), each beside a baseline timed \
      in the same run where one applies.
      """ + BenchmarkRegistry.figureHelp.map { "\n\n\($0.figure): \($0.meaning)." }.joined(),
    examples: ["bench --quick", "bench --only fusion --json"])

  struct Options: ParsableOptions {
    var json: Bool
    var quick: Bool
    var only: String?

    init(_ p: inout OptionParser) throws(UsageError) {
      json = p.flag(
        "--json",
        help:
          "print one JSON object: {\"NAME\": {\"median\": X, \"min\": X, \"max\": X, "
          + "\"unit\": \"...\"}, ...} with dotted names such as fusion.9d.samples_per_s")
      quick = p.flag(
        "--quick", help: "a fast smoke run (little data, two repetitions); numbers are rough")
      only = try p.option(
        "--only", as: BenchmarkName.self, named: \.name, help: "run one benchmark group")?.name
    }
  }

  /// A benchmark group's name, for `--only`.
  struct BenchmarkName: CaseIterable, Sendable {
    var name: String
    static var allCases: [BenchmarkName] { BenchmarkRegistry.names.map(BenchmarkName.init) }
  }

  static func run(_ options: Options, console: Console) throws -> Int32 {
    guard
      let figures = BenchmarkRegistry.run(
        only: options.only, quick: options.quick,
        progress: { if console.isInteractive { console.err("\r\u{1B}[K\($0)...") } })
    else { throw UsageError("unknown benchmark '\(options.only ?? "")'") }
    if console.isInteractive { console.err("\r\u{1B}[K") }
    console.out(
      options.json ? BenchmarkFigure.jsonText(figures) : BenchmarkFigure.tableText(figures))
    return 0
  }
}
