// swell-fuzz: a seeded mutation fuzzer over Swell's parsers (`Scripts/fuzz.sh` runs it).
//
//   swell-fuzz PARSER --corpus DIR [--seconds S] [--seed N]
//
// Each execution takes a seed input from DIR/PARSER (a checked-in corpus), applies a few random
// mutations (bit flips, byte edits, insertions of hostile tokens such as 1e300, nan, -1e19 or an
// escape character, deletions, duplications, splices with another seed) and runs the parser.
// Thrown errors are the expected outcome; a crash (a Swift trap, a segmentation fault, an abort)
// writes the input to fuzz-crash-PARSER.bin and ends the process with the signal. It prints one
// line: the parser, executions, seconds and how many inputs were accepted.
import Foundation
import SwellEvdev
import SwellMotion
import SwellRecordings
import SwellScenes
import SwellSensors

// MARK: - Crash capture

/// The input being run and the file a crash writes it to, for the signal handler
/// (async-signal-safe: fixed buffers, `open`/`write` only).
nonisolated(unsafe) private var currentInput = UnsafeMutableRawBufferPointer.allocate(
  byteCount: 1 << 20, alignment: 1)
nonisolated(unsafe) private var currentLength = 0
nonisolated(unsafe) private var crashPath: UnsafeMutablePointer<CChar>? = nil

private func saveCrash(_ signal: Int32) {
  if let crashPath {
    let fd = open(crashPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if fd >= 0 {
      _ = write(fd, currentInput.baseAddress, currentLength)
      close(fd)
    }
  }
  Glibc.signal(signal, SIG_DFL)
  raise(signal)
}

// MARK: - Random mutations

/// SplitMix64 (Steele, Lea & Flood 2014): a small seeded generator.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

let tokens: [String] = [
  "1e300", "-1e300", "1e19", "-1e19", "9223372036854775808", "nan", "inf", "-inf", "0", "-0",
  "1e-320", "0x10", ",", ";", "\n", "\r\n", "\"", "'", "[", "]", "{", "}", ":", "#", "\u{1B}[2J",
  "\u{0}", "\u{FEFF}", "e", ".", "-", "99999999999999999999999", String(repeating: "9", count: 400),
  "le:", "be:", "s64/64>>63", "u1024/1024>>0", "A 0 0 0 1 1 ", "Z", "repeat", "for 1e9s",
  "\"waves\": [", "\"sampleSpacing\": 0.25", "\"amplitudeRiseTime\": 0", "\"scale\": 8",
]

func mutate(_ input: [UInt8], seeds: [[UInt8]], rng: inout SplitMix64) -> [UInt8] {
  var data = input
  for _ in 0..<Int.random(in: 1...4, using: &rng) {
    let position = data.isEmpty ? 0 : Int.random(in: 0..<data.count, using: &rng)
    switch Int.random(in: 0..<8, using: &rng) {
    case 0 where !data.isEmpty: data[position] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
    case 1 where !data.isEmpty: data[position] = UInt8.random(in: 0...255, using: &rng)
    case 2:
      data.insert(
        contentsOf: Array(tokens.randomElement(using: &rng).map { Array($0.utf8) } ?? []),
        at: position)
    case 3 where !data.isEmpty:
      let n = min(data.count - position, Int.random(in: 1...16, using: &rng))
      data.removeSubrange(position..<(position + n))
    case 4 where !data.isEmpty:
      let n = min(data.count - position, Int.random(in: 1...64, using: &rng))
      let piece = data[position..<(position + n)]
      for _ in 0..<Int.random(in: 1...8, using: &rng) {
        data.insert(contentsOf: piece, at: position)
      }
    case 5:
      if let other = seeds.randomElement(using: &rng), !other.isEmpty {
        let from = Int.random(in: 0..<other.count, using: &rng)
        data = Array(data[..<position]) + Array(other[from...])
      }
    case 6:
      // Replace a number with a hostile one.
      if let start = data[position...].firstIndex(where: { (0x30...0x39).contains($0) }) {
        var end = start
        while end < data.count, (0x30...0x39).contains(data[end]) || data[end] == 0x2E { end += 1 }
        let token =
          ["1e300", "-1e19", "nan", "0", "1e9", "-0", "65536"].randomElement(using: &rng) ?? "0"
        data.replaceSubrange(start..<end, with: Array(token.utf8))
      }
    default:
      data.insert(UInt8.random(in: 0...255, using: &rng), at: position)
    }
  }
  return Array(data.prefix(currentInput.count))
}

// MARK: - Parsers

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
  "swell-fuzz-\(getpid())")

/// Runs one input through a parser; true when it was accepted.
func run(_ parser: String, _ input: [UInt8]) -> Bool {
  let data = Data(input)
  let text = String(decoding: input, as: UTF8.self)
  switch parser {
  case "raw-imu-csv": return (try? RawIMUCSV.parse(input, fileName: "f.csv")) != nil
  case "device-motion-csv": return (try? DeviceMotionCSV.parse(data, fileName: "f.csv")) != nil
  case "phyphox-csv": return (try? MotionRecording.load(file: data, name: "f.csv")) != nil
  case "sensor-logger-zip":
    let file = scratch.appendingPathComponent("in.zip")
    guard (try? data.write(to: file)) != nil else { return false }
    return (try? MotionRecording.load(from: file)) != nil
  case "scene-json":
    guard let scene = try? SceneFile.decode(data, source: "f.json") else { return false }
    _ = scene.makeLayerTree(baseDirectory: nil)
    return true
  case "svg-path": return (try? SVGPathData.parse(text)) != nil
  case "motion-script":
    guard let script = try? MotionScript(parsing: text) else { return false }
    for t in [0, 0.5, 1, script.duration / 2, script.duration] { _ = script.motion(at: t) }
    return true
  case "iio-scan-type": return (try? IIOScanType(parsing: text)) != nil
  case "iio-sysfs-value": return (try? IIOSysfs.parseMountMatrix(text, file: "m")) != nil
  case "evemu":
    guard let recording = try? EvemuRecording.parse(text, fileName: "f.evemu") else {
      return false
    }
    _ = try? recording.samples()
    _ = recording.text()
    return (try? MotionRecording.load(file: data, name: "f.evemu")) != nil
  case "phone-packet":
    var decoder = PhoneStreamDecoder()
    return (try? decoder.decode(Substring(text))) != nil
  case "dsu-packet":
    // Unchecked too, so mutated payloads get past the CRC to the field decoding.
    // And what decodes must encode to bytes that decode to the same packet.
    if let lenient = try? DSUPacket.decode(input, verifyingChecksum: false),
      (try? DSUPacket.decode(lenient.encoded())) != lenient
    {
      fatalError("dsu-packet: a decoded packet does not survive encoding")
    }
    return (try? DSUPacket.decode(input)) != nil
  default:
    FileHandle.standardError.write(Data("swell-fuzz: unknown parser '\(parser)'\n".utf8))
    exit(2)
  }
}

// MARK: - Main

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
  guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
  defer { arguments.removeSubrange(i...(i + 1)) }
  return arguments[i + 1]
}
let seconds = Double(option("--seconds") ?? "5") ?? 5
let seed = UInt64(option("--seed") ?? "") ?? UInt64(getpid())
guard let corpus = option("--corpus"), let parser = arguments.first else {
  FileHandle.standardError.write(
    Data("usage: swell-fuzz PARSER --corpus DIR [--seconds S] [--seed N]\n".utf8))
  exit(2)
}
let folder = URL(fileURLWithPath: corpus).appendingPathComponent(parser)
let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
let seeds = names.sorted().compactMap {
  try? [UInt8](Data(contentsOf: folder.appendingPathComponent($0)))
}
guard !seeds.isEmpty else {
  FileHandle.standardError.write(Data("swell-fuzz: no seeds in \(folder.path)\n".utf8))
  exit(2)
}
try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }
crashPath = strdup("fuzz-crash-\(parser).bin")
for s in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] { signal(s, saveCrash) }

var rng = SplitMix64(state: seed)
let clock = ContinuousClock()
let start = clock.now
let end = start + .milliseconds(Int64(seconds * 1000))
var executions = 0
var accepted = 0
// Every seed first, unmutated (each must be accepted: the corpus is valid input).
var pending = seeds
while clock.now < end {
  let input =
    pending.popLast()
    ?? mutate(seeds.randomElement(using: &rng) ?? [], seeds: seeds, rng: &rng)
  input.withUnsafeBytes {
    currentInput.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(currentInput.count)))
  }
  currentLength = min(input.count, currentInput.count)
  if run(parser, input) { accepted += 1 }
  executions += 1
}
let elapsed = start.duration(to: clock.now)
let secondsTaken =
  Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
print(
  "\(parser): \(executions) executions in \(String(format: "%.1f", secondsTaken)) s, "
    + "\(accepted) accepted, 0 crashes (seed \(seed))")
