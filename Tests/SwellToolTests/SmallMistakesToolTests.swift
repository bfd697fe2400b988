import Foundation
import SwellTestSupport
import Testing

/// The bundled Sensor Logger test recording.
private let recording = packageRoot.appendingPathComponent(
  "Tests/SwellRecordingsTests/Fixtures/sensorlogger-ios-rotation.zip"
).path

@Suite("Small mistakes the trial found: outputs, durations, presets, command names, summaries")
private struct SmallMistakesToolTests {
  @Test(
    "an -o that names a folder is a one-line usage error before any work, for every command",
    arguments: [
      ["render", "waterwave", "--duration", "0.1", "-o", "outdir/"],
      ["render", "waterwave", "--duration", "0.1", "-o", "outdir"],
      ["render", "waterwave", "--duration", "0.1", "-o", "new/"],
      ["trace", "waterwave", "--duration", "0.1", "-o", "outdir"],
      ["fuse", recording, "-o", "outdir/"],
    ])
  func outputFolder(arguments: [String]) throws {
    let folder = try scratchFolder("output-folder")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("outdir"), withIntermediateDirectories: false)
    let r = try runSwell(arguments, directory: folder)
    #expect(r.status == 64, "\(r.err)")
    #expect(r.err.contains("is a folder"), "\(r.err)")
    #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["outdir"])
  }

  @Test("render -o without an extension asks for one; with --format it is written")
  func outputWithoutExtension() throws {
    let folder = try scratchFolder("output-extension")
    defer { try? FileManager.default.removeItem(at: folder) }
    let r = try runSwell(
      ["render", "waterwave", "--duration", "0.1", "-o", "name"], directory: folder)
    #expect(r.status == 64, "\(r.err)")
    #expect(r.err.contains("add an extension such as .mp4/.png/.gif"), "\(r.err)")
    #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("name").path))

    let named = try runSwell(
      ["render", "waterwave", "--duration", "0.1", "--format", "png", "-o", "name"],
      directory: folder)
    #expect(named.status == 0, "\(named.err)")
    let bytes = try Data(contentsOf: folder.appendingPathComponent("name"))
    // The PNG signature (PNG specification, 5.2).
    #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
  }

  @Test(
    "--duration takes the script language's 'sec' as it takes 's' and 'ms'",
    arguments: ["3sec", "3 sec", "3s", "3000ms"])
  func durationSec(duration: String) throws {
    let r = try runSwell(["trace", "waterwave", "--duration", duration, "--fps", "2"])
    #expect(r.status == 0, "\(r.err)")
    // A header and 3 s · 2 frames/s = 6 rows.
    #expect(r.out.split(separator: "\n").count == 7)
  }

  @Test("an unknown --preset is refused before ffmpeg starts, naming the valid presets")
  func preset() throws {
    let folder = try scratchFolder("preset")
    defer { try? FileManager.default.removeItem(at: folder) }
    // No ffmpeg on the path: the check must come before the encoder is looked for.
    let r = try runSwell(
      ["render", "waterwave", "--duration", "0.1", "--preset", "veryfastt", "-o", "x.mp4"],
      environment: ["PATH": folder.path, "SWELL_FFMPEG": nil], directory: folder)
    #expect(r.status == 64, "\(r.err)")
    #expect(r.err.contains("--preset must be one of ultrafast, superfast, veryfast"), "\(r.err)")
    #expect(r.err.contains("got 'veryfastt'"), "\(r.err)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test("the presets --preset accepts are the ones the installed ffmpeg's libx264 takes")
  func presetsMatchX264() throws {
    let r = try runSwell(["render", "waterwave", "--preset", "none", "-o", "x.mp4"])
    #expect(r.status == 64)
    let line = try #require(r.err.split(separator: "\n").first { $0.contains("must be one of") })
    let list = try #require(line.range(of: "must be one of ")).upperBound
    // "..., veryslow, placebo, got 'none'"
    let names = line[list...].split(separator: ",")
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("got ") }
    #expect(names.count == 10, "\(names)")
    // Starts: ffmpeg
    func encodes(_ preset: String) throws -> Bool {
      try runProgram(
        "ffmpeg",
        [
          "-v", "error", "-f", "lavfi", "-i", "color=size=16x16:rate=25:duration=0.04",
          "-c:v", "libx264", "-preset", preset, "-f", "null", "-",
        ]
      ).status == 0
    }
    for name in names { #expect(try encodes(name), "libx264 refuses '\(name)'") }
    #expect(try !encodes("veryfastt"), "libx264 refuses a name it does not have")
  }

  @Test("an unknown command that begins a command's name suggests it: man → manpage")
  func manSuggestsManpage() throws {
    let r = try runSwell(["man"])
    #expect(r.status == 64)
    #expect(r.err.contains("unknown command 'man' (did you mean manpage?)"), "\(r.err)")
  }

  @Test("the summary of an SVG or PDF gives its page in points; a PNG's in pixels")
  func summaryUnits() throws {
    let folder = try scratchFolder("summary-points")
    defer { try? FileManager.default.removeItem(at: folder) }
    // waterwave is 390 × 844 points at scale 3 (BuiltInScenes): 1170 × 2532 pixels.
    for (name, size) in [
      ("a.svg", "390x844 points"), ("a.pdf", "390x844 points"),
      ("a.png", "1170x2532 px"),
    ] {
      let r = try runSwell(
        ["render", "waterwave", "--duration", "0.1", "-o", name], directory: folder)
      #expect(r.status == 0, "\(r.err)")
      #expect(r.out.contains(" \(size), "), "\(r.out)")
    }
  }

  @Test(
    "bash completes a second argument by its own kind and --motion by the source kinds",
    arguments: [
      ("scene print g", "glass"),
      ("scene print ", "waterwave homescreen glass"),
      ("scene pr", "print"),
      ("live --motion ke", "keyboard"),
      ("live --motion ev", "evdev evdev:"),
      ("live --motion ud", "udp:"),
    ])
  func bashCompletion(line: String, offers: String) throws {
    let r = try runSwell(["completion", "bash"])
    #expect(r.status == 0)
    let folder = try scratchFolder("completion-args")
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("swell.bash")
    try Data(r.out.utf8).write(to: script)
    // The words as bash splits the line; a trailing space is an empty word being completed.
    let words = line.split(separator: " ").map { "'\($0)'" } + (line.hasSuffix(" ") ? ["''"] : [])
    let probe = """
      source '\(script.path)'
      cd '\(folder.path)'
      COMP_WORDS=(swell \(words.joined(separator: " "))); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
      _swell; echo "${COMPREPLY[*]}"
      """
    let run = try runProgram("bash", ["-c", probe])
    #expect(run.out == offers + "\n", "\(run.out) \(run.err)")
  }
}
