import Foundation
import SwellScenes
import SwellTestSupport
import SwellWaves
import Synchronization
import Testing

@testable import SwellTool

/// A choice with a raw value and an alias.
private enum Shape: String, CaseIterable, Sendable { case circle, square, triangle }

/// A group shared by two test commands.
private struct SizeGroup: ParsableOptionGroup {
  static let title = "Size options"
  var width: Double
  var height: Double?

  init(_ p: inout OptionParser) throws(UsageError) {
    width = try p.option("--width", value: "W", default: 10, in: 1...100, help: "the width")
    height = try p.option("--height", value: "H", in: .positive, help: "the height")
  }

  func validate() throws(UsageError) {
    if let height, height > width * 10 { throw UsageError("--height is too tall for --width") }
  }
}

/// Every kind of declaration.
private struct Sample: ParsableOptions {
  var verbose: Bool
  var fps: Double
  var rate: Double?
  var count: Int?
  var shape: Shape
  var response: WaterWaveResponse?
  var output: String?
  var name: String
  var sets: [String]
  var size: SizeGroup
  var input: String?
  var extra: String?

  init(_ p: inout OptionParser) throws(UsageError) {
    verbose = p.flag("--verbose", short: "-v", help: "say more")
    fps = try p.option("--fps", default: 60.0, in: 1...240, help: "frames per second")
    rate = try p.option("--rate", value: "HZ", in: .positive, help: "the rate")
    count = try p.option("--count", in: 1...1000, defaultText: "all", help: "how many")
    shape = try p.option(
      "--shape", default: Shape.circle, aliases: ["round": .circle], help: "the shape")
    response = try p.option("--response", as: WaterWaveResponse.self, help: "the response")
    output = p.option(
      "--output", short: "-o", aliases: ["--out"], value: "FILE", kind: .file, help: "where")
    name = p.option("--name", value: "TEXT", default: "swell", help: "a name")
    sets = p.repeatedOption("--set", value: "K=V", help: "a setting")
    size = try p.group(SizeGroup.self)
    input = p.argument("INPUT", kind: .file)
    extra = p.argument("EXTRA", isOptional: true)
  }

  func validate() throws(UsageError) {
    if verbose && count == 7 { throw UsageError("--verbose and --count 7 exclude each other") }
  }
}

private let sampleSpec = CommandSpec(
  CommandAbout("sample", summary: "a sample", discussion: "Samples options."),
  options: Sample.self)

private func parse(_ words: [String]) throws(UsageError) -> Sample {
  let arguments = try Arguments(words, spec: sampleSpec)
  return try OptionParser.parse(Sample.self, from: arguments)
}

private func usageMessage(_ words: [String]) -> String? {
  do {
    _ = try parse(words)
    return nil
  } catch {
    return error.message
  }
}

@Suite("Typed option declarations: one declaration for parsing, help, completions")
private struct OptionParserTests {
  @Test("the declaring pass records every option once, with its kind, placeholder and default")
  func declarations() throws {
    let options = sampleSpec.options
    #expect(
      options.map(\.displayName) == [
        "--verbose", "--fps", "--rate", "--count", "--shape", "--response", "--output", "--name",
        "--set", "--width", "--height",
      ])
    let byName = Dictionary(uniqueKeysWithValues: options.map { ($0.displayName, $0) })
    #expect(byName["--verbose"]?.names == ["-v", "--verbose"])
    #expect(byName["--verbose"]?.valueKind == .flag)
    #expect(byName["--fps"]?.valueKind == .number && byName["--fps"]?.defaultValue == "60")
    #expect(byName["--count"]?.defaultValue == "all")
    #expect(byName["--rate"]?.defaultValue == nil && byName["--rate"]?.signature == "--rate HZ")
    #expect(byName["--shape"]?.valueKind == .choice(["circle", "square", "triangle"]))
    #expect(byName["--response"]?.valueKind == .choice(["classic", "sloshing", "physical"]))
    #expect(byName["--output"]?.valueKind == .file && byName["--output"]?.aliases == ["--out"])
    #expect(byName["--name"]?.defaultValue == "swell")
    #expect(sampleSpec.groups.map(\.title) == [nil, "Size options"])
    #expect(sampleSpec.groups[1].options.map(\.displayName) == ["--width", "--height"])
    #expect(sampleSpec.arguments.map(\.name) == ["INPUT", "EXTRA"])
    #expect(sampleSpec.arguments.map(\.isOptional) == [false, true])
    #expect(sampleSpec.arguments[0].valueKind == .file)
  }

  @Test("help shows defaults and allowed values generated from the declarations")
  func help() {
    let text = sampleSpec.helpText()
    #expect(text.contains("frames per second (default: 60)"))
    #expect(text.contains("how many (default: all)"))
    #expect(text.contains("the shape (one of circle, square, triangle; default: circle)"))
    #expect(text.contains("the response (one of classic, sloshing, physical)"))
    #expect(text.contains("a name (default: swell)"))
    #expect(text.contains("\nSize options:\n  --width W"))
    #expect(text.contains("the width (default: 10)"))
    #expect(text.hasPrefix("Usage: swell sample [options] INPUT [EXTRA]\n"))
  }

  @Test("without words every value is its default")
  func defaults() throws {
    let s = try parse([])
    #expect(!s.verbose && s.fps == 60 && s.rate == nil && s.count == nil)
    #expect(s.shape == .circle && s.response == nil && s.output == nil && s.name == "swell")
    #expect(s.sets.isEmpty && s.size.width == 10 && s.size.height == nil && s.input == nil)
  }

  @Test("values are converted to their types; the last of a repeated option wins, --set repeats")
  func values() throws {
    let s = try parse([
      "in.csv", "-v", "--fps", "120", "--rate=0.5", "--count", "12", "--shape", "square",
      "--response", "physical", "--out", "x.csv", "--name", "n", "--set", "a=1", "--set=b=2",
      "--width", "20", "--height", "3", "--fps", "30", "more",
    ])
    #expect(s.verbose && s.fps == 30 && s.rate == 0.5 && s.count == 12)
    #expect(s.shape == .square && s.response == .physical && s.output == "x.csv")
    #expect(s.name == "n" && s.sets == ["a=1", "b=2"] && s.size.width == 20)
    #expect(s.size.height == 3 && s.input == "in.csv" && s.extra == "more")
    #expect(try parse(["--shape", "round"]).shape == .circle)
    #expect(try parse(["-o", "y"]).output == "y")
  }

  @Test(
    "one message style for bad values: enums list their values, numbers their range",
    arguments: [
      (
        ["--response", "slosh"],
        "--response must be one of classic, sloshing, physical, got 'slosh'"
      ),
      (
        ["--shape", "squre"],
        "--shape must be one of circle, square, triangle, got 'squre' (did you mean square?)"
      ),
      (["--fps", "0"], "--fps must be between 1 and 240, got 0"),
      (["--fps", "abc"], "--fps must be a number, got 'abc'"),
      (["--fps", "nan"], "--fps must be a number, got 'nan'"),
      (["--fps=inf"], "--fps must be a number, got 'inf'"),
      (["--rate", "-2"], "--rate must be greater than zero, got -2"),
      (["--rate", "0"], "--rate must be greater than zero, got 0"),
      (["--count", "2.5"], "--count must be a whole number, got 2.5"),
      (["--count", "1001"], "--count must be between 1 and 1000, got 1001"),
      (["--width", "101"], "--width must be between 1 and 100, got 101"),
      (["--fps"], "--fps needs a value"),
      (["--verbose=yes"], "--verbose takes no value"),
      (["--fsp", "3"], "unknown option --fsp (did you mean --fps?)"),
      (["--bogus"], "unknown option --bogus"),
      (["a", "b", "c"], "unexpected argument 'c'"),
    ])
  func badValues(words: [String], message: String) {
    #expect(usageMessage(words) == message)
  }

  @Test("validate runs after parsing, for the command and for each group")
  func validation() {
    #expect(usageMessage(["-v", "--count", "7"]) == "--verbose and --count 7 exclude each other")
    #expect(usageMessage(["--width", "1", "--height", "11"]) == "--height is too tall for --width")
    #expect(usageMessage(["-v", "--count", "6"]) == nil)
  }

  @Test("-- ends the options: later words are positional arguments")
  func doubleDash() throws {
    let s = try parse(["--", "--fps", "x"])
    #expect(s.input == "--fps" && s.extra == "x" && s.fps == 60)
  }

  @Test("a number in a range with an upper bound only, and a positive one with a limit")
  func ranges() {
    #expect(throws: Never.self) { try NumberRange.positive(atMost: 5).check(5, shown: "--x") }
    #expect(throws: UsageError.self) {
      try NumberRange.positive(atMost: 5).check(5.5, shown: "--x")
    }
    var message = ""
    do { try NumberRange.positive(atMost: 5).check(6, shown: "--x") } catch {
      message = error.message
    }
    #expect(message == "--x must be at most 5, got 6")
    do {
      try NumberRange(lower: -Double.greatestFiniteMagnitude, upper: 3).check(4, shown: "--y")
    } catch { message = error.message }
    #expect(message == "--y must be at most 3, got 4")
  }
}

/// A command that records whether it ran, to check that validation comes first.
private enum SideEffectCommand: TypedToolCommand {
  static let ran = Mutex(false)
  static let about = CommandAbout("effect", summary: "a side effect", discussion: "Runs.")

  struct Options: ParsableOptions {
    var a: Bool
    var b: Bool
    init(_ p: inout OptionParser) throws(UsageError) {
      a = p.flag("--a", help: "a")
      b = p.flag("--b", help: "b")
    }
    func validate() throws(UsageError) {
      if a && b { throw UsageError("--a and --b exclude each other") }
    }
  }

  static func run(_ options: Options, console: Console) throws -> Int32 {
    ran.withLock { $0 = true }
    return 0
  }
}

@Suite("Typed commands: validation before side effects, shared groups")
private struct TypedCommandTests {
  @Test("a failed validation throws before the command's work starts")
  func validateFirst() throws {
    var args = try Arguments(["--a", "--b"], spec: SideEffectCommand.spec)
    #expect(throws: UsageError.self) { try SideEffectCommand.run(&args, console: Console()) }
    #expect(!SideEffectCommand.ran.withLock { $0 })
    var good = try Arguments(["--a"], spec: SideEffectCommand.spec)
    #expect(try SideEffectCommand.run(&good, console: Console()) == 0)
    #expect(SideEffectCommand.ran.withLock { $0 })
  }

  @Test("record checks its options before it opens its output (a missing folder is not reached)")
  func recordValidatesBeforeOpening() throws {
    let r = try runSwell([
      "record", "iio", "--buffers", "x", "-o", "/nonexistent-swell-folder/x.csv", "--duration", "1",
    ])
    #expect(r.status == 64)
    #expect(r.err == "swell record: --buffers applies to phone: sources\n")
    let samples = try runSwell([
      "record", "udp:0", "--samples", "0", "-o", "/nonexistent-swell-folder/x.csv", "--duration",
      "1",
    ])
    #expect(samples.status == 64)
    #expect(samples.err == "swell record: --samples must be between 1 and 1000000000, got 0\n")
  }

  @Test("the shared groups declare each option once, under their heading")
  func sharedGroups() throws {
    struct Uses: ParsableOptions {
      var scene: SceneOptionGroup
      var motion: MotionOptionGroup
      var sensors: LiveSensorOptionGroup
      init(_ p: inout OptionParser) throws(UsageError) {
        scene = try p.group(SceneOptionGroup.self)
        motion = try p.group(MotionOptionGroup.self)
        sensors = try p.group(LiveSensorOptionGroup.self)
      }
    }
    let spec = CommandSpec(
      CommandAbout("uses", summary: "", discussion: ""), options: Uses.self)
    #expect(
      spec.groups.map(\.title) == [
        "Scene options", "Motion options", "Live sensor options (iio, udp, phone, evdev)",
      ])
    let all = spec.options.flatMap(\.allNames)
    #expect(Set(all).count == all.count)
    let parsed = try OptionParser.parse(
      Uses.self,
      from: Arguments(
        [
          "--response", "sloshing", "--orientation", "landscapeLeft", "--size", "100x200@2",
          "--reduce-motion", "--script", "hold 1s", "--mode", "poll", "--format", "json",
        ],
        spec: spec))
    #expect(parsed.scene.scene.waterResponse == .sloshing)
    #expect(parsed.scene.scene.orientation == .landscapeLeft)
    #expect(parsed.scene.scene.width == 100 && parsed.scene.scene.scale == 2)
    #expect(parsed.scene.scene.reduceMotion && parsed.motion.script == "hold 1s")
    #expect(parsed.motion.motionRate == 100)
    #expect(parsed.sensors.settings.iio.mode == .polled)
    #expect(parsed.sensors.settings.udpFormat == .json)
    #expect(throws: UsageError.self) {
      try OptionParser.parse(
        Uses.self, from: Arguments(["--motion", "a.csv", "--script", "hold 1s"], spec: spec))
    }
    var message = ""
    do {
      _ = try OptionParser.parse(Uses.self, from: Arguments(["--size", "0x5"], spec: spec))
    } catch { message = error.message }
    #expect(message.hasPrefix("--size"), "\(message)")
  }

  @Test("the tool's own options: --version, and a misspelt one gets a suggestion")
  func toolOptions() throws {
    let v = try runSwell(["--version"])
    // (The commit part is the one the binary was last linked with: compare the number.)
    #expect(v.status == 0 && v.out.hasPrefix("swell \(SwellTool.version)") && v.out.hasSuffix("\n"))
    let typo = try runSwell(["--versoin"])
    #expect(
      typo.status == 64 && typo.err == "swell: unknown option --versoin (did you mean --version?)\n"
    )
  }
}

@Suite("Library mistakes that come from the command line exit 64, in every command")
private struct LibraryUsageMistakeTests {
  @Test(
    "a bad script, an unknown scene, a recording as the scene, a bad size, a malformed source",
    arguments: [
      (["render", "waterwave", "--script", "bogus", "-o", "x.png"], "--script: unknown"),
      (["live", "waterwave", "--motion", "script:bogus", "--terminal"], "--script: unknown"),
      (["trace", "nosuchscene"], "nosuchscene"),
      (["scene", "print", "nosuchscene"], "unknown scene 'nosuchscene'"),
      (["scene", "print", "waterwave", "--size", "0x5"], "--size"),
      (["record", "udp:99999", "-o", "x.csv", "--duration", "1"], "99999"),
    ])
  func usage(arguments: [String], fragment: String) throws {
    let r = try runSwell(arguments)
    #expect(r.status == 64, "\(r.err)")
    #expect(r.err.contains(fragment), "\(r.err)")
    #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
  }
}
