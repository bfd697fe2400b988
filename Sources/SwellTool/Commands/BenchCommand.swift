import Foundation
import SwellMotion

/// `swell bench`: the performance suite.
struct BenchCommand: ToolCommand {
  static let name = "bench"
  static let summary = "the performance suite"
  static let help = "Usage: swell bench [--json] [--quick]\n"

  static func run(_ arguments: inout Arguments, console: Console) throws -> Int32 {
    try arguments.finish()
    return 0
  }
}
