import Foundation

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
  /// What some of the group's figures mean, for `swell bench --help`: a figure's name and one
  /// sentence.
  static var figureHelp: [(figure: String, meaning: String)] { get }
}

extension Benchmark {
  /// No figure is explained.
  package static var figureHelp: [(figure: String, meaning: String)] { [] }
}

/// The benchmarks `swell bench` runs, in order.
package enum BenchmarkRegistry {
  package static let all: [any Benchmark.Type] = [
    FusionBenchmark.self,
    RenderBenchmark.self,
    WaterBenchmark.self,
  ]

  /// Every group's explained figures, in order.
  package static var figureHelp: [(figure: String, meaning: String)] {
    all.flatMap { $0.figureHelp }
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
  let clock = ContinuousClock()
  var out: [Double] = []
  var sink = 0.0
  for _ in 0..<repetitions {
    let start = clock.now
    sink += body()
    let d = start.duration(to: clock.now)
    out.append(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
  }
  if sink.isNaN { print("", terminator: "") }
  return out
}
