import Foundation
import SwellTime

/// One figure measured by `swell bench`: repeated timings summarised as median, min and max.
package struct BenchmarkFigure: Sendable {
  /// The dotted name, e.g. `fusion.9d.samples_per_s`.
  package var name: String
  /// The unit, e.g. `samples/s` or `ms`.
  package var unit: String
  /// One value per repetition.
  package var values: [Double]

  package var median: Double {
    let s = values.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
  }
  package var min: Double { values.min() ?? .nan }
  package var max: Double { values.max() ?? .nan }
}

/// A group of benchmarks run by `swell bench`. Other parts (rendering, ...) add their own type
/// and list it in ``BenchmarkRegistry/all``.
package protocol Benchmark: Sendable {
  /// A short name for progress and `--only`, e.g. `fusion`.
  static var name: String { get }
  /// Runs the benchmark and returns its figures.
  ///
  /// - Parameters:
  ///   - quick: A fast smoke run (few repetitions, little data) instead of a full one.
  ///   - progress: Called with a short label before each timed part.
  /// - Returns: The measured figures.
  static func run(quick: Bool, progress: (String) -> Void) -> [BenchmarkFigure]
  /// What each figure of the group measures, for `swell bench --help` (empty by default).
  static var figureHelp: [BenchmarkFigureHelp] { get }
}

extension Benchmark {
  package static var figureHelp: [BenchmarkFigureHelp] { [] }
}

/// One figure's name and what it measures, as `swell bench --help` lists them.
package struct BenchmarkFigureHelp: Sendable {
  /// The dotted name (`WxH` where the frame size depends on `--quick`).
  package var name: String
  /// What it measures, with its unit.
  package var meaning: String

  package init(_ name: String, _ meaning: String) {
    self.name = name
    self.meaning = meaning
  }
}

/// The benchmarks `swell bench` runs, in order.
package enum BenchmarkRegistry {
  package static let all: [any Benchmark.Type] = [
    FusionBenchmark.self,
    RenderBenchmark.self,
    WaterBenchmark.self,
    ExportBenchmark.self,
  ]

  /// Every figure of every group and what it measures, in order: the name indented by two
  /// spaces, the meaning below it indented by six and wrapped at 72 columns (lines that start
  /// with a space are printed as they are, in the help and as literal lines in the man page,
  /// which indents them by seven more).
  package static var figureHelpText: String {
    all.flatMap { $0.figureHelp }.map { figure in
      var lines = ["  " + figure.name]
      var line = "     "
      for word in figure.meaning.split(separator: " ") {
        if line.count + 1 + word.count > 72 {
          lines.append(line)
          line = "     "
        }
        line += " " + word
      }
      lines.append(line)
      return lines.joined(separator: "\n")
    }.joined(separator: "\n")
  }

  /// The groups' names, in order (`--only` takes one).
  package static var names: [String] { all.map { $0.name } }

  /// Runs every group, or the one named.
  ///
  /// - Parameters:
  ///   - only: A group's name, or `nil` for all.
  ///   - quick: A fast smoke run.
  ///   - progress: Called with a short label before each timed part.
  /// - Returns: The figures, or `nil` when no group has that name.
  package static func run(only: String?, quick: Bool, progress: (String) -> Void)
    -> [BenchmarkFigure]?
  {
    let groups = all.filter { only == nil || $0.name == only }
    guard !groups.isEmpty else { return nil }
    return groups.flatMap { $0.run(quick: quick, progress: progress) }
  }
}

/// Times a closure: returns seconds per call for each repetition.
///
/// - Parameters:
///   - repetitions: How many timed runs.
///   - body: The work; its result is kept alive so the optimiser cannot drop it.
/// - Returns: Seconds for each run.
package func measureSeconds(repetitions: Int, _ body: () -> Double) -> [Double] {
  let clock = MonotonicClock.continuous
  var out: [Double] = []
  var sink = 0.0
  for _ in 0..<repetitions {
    let start = clock.now()
    sink += body()
    out.append(clock.now() - start)
  }
  if sink.isNaN { print("", terminator: "") }
  return out
}
