// The libFuzzer driver: `SWELL_FUZZ_PARSER=NAME swell-fuzz [libFuzzer flags] [CORPUS...]`
// fuzzes the parser NAME (see `FuzzParser`); `SWELL_FUZZ_PARSER=list swell-fuzz` prints the
// names. `Scripts/fuzz.sh` builds it and runs every parser in turn.
//
// The program has its own `main`, which starts libFuzzer through `LLVMFuzzerRunDriver`: SwiftPM
// links a debug executable's entry point as `main` under a name of its own (`swell_fuzz_main`),
// so libFuzzer's `main`, which `-sanitize=fuzzer` links too, never runs.
import CLibFuzzer
import Foundation

/// The parser this process fuzzes, from SWELL_FUZZ_PARSER. libFuzzer runs its merge and fork
/// workers as child processes with the same environment, so they fuzz the same parser.
let selectedParser: FuzzParser? = ProcessInfo.processInfo.environment["SWELL_FUZZ_PARSER"]
  .flatMap(FuzzParser.init(rawValue:))

@main
enum SwellFuzz {
  static func main() {
    let names = FuzzParser.allCases.map(\.rawValue)
    if ProcessInfo.processInfo.environment["SWELL_FUZZ_PARSER"] == "list" {
      print(names.joined(separator: "\n"))
      exit(0)
    }
    guard selectedParser != nil else {
      FileHandle.standardError.write(
        Data(
          "swell-fuzz: set SWELL_FUZZ_PARSER to one of: \(names.joined(separator: " "))\n".utf8))
      exit(2)
    }
    // The Sensor Logger targets' scratch files go when libFuzzer exits (it ends with `exit`).
    atexit { FuzzScratch.remove() }
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzerTestOneInput))
  }
}

/// Runs one input that libFuzzer made through the selected parser (libFuzzer's
/// `LLVMFuzzerTestOneInput`, which the runtime's unused `main` refers to).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let input = bytes.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
  selectedParser?.run(input)
  return 0
}
