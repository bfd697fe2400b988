import Foundation
import SwellTestSupport
import Testing

/// The bundled Sensor Logger test recording.
private let recording = packageRoot.appendingPathComponent(
  "Tests/SwellRecordingsTests/Fixtures/sensorlogger-ios-rotation.zip"
).path

@Suite("Outputs: the name and the content agree; messages that say what went wrong")
private struct OutputNameTests {
  @Test(
    "an -o whose extension names a format the command does not write is a usage error, and nothing is written",
    arguments: [
      (["fuse", recording, "-o", "m.json"], "m.json", "a device-motion CSV (.csv)"),
      (
        ["trace", "waterwave", "--duration", "0.2", "-o", "t.xlsx"], "t.xlsx", "a CSV or JSON trace"
      ),
      (["render", "waterwave", "--duration", "0.1", "-o", "out.mov"], "out.mov", "unknown output"),
    ])
  func wrongExtension(arguments: [String], file: String, says: String) throws {
    let folder = try scratchFolder("output-name")
    defer { try? FileManager.default.removeItem(at: folder) }
    let r = try runSwell(arguments, directory: folder)
    #expect(r.status == 64, "\(r.err)")
    #expect(r.err.contains(says), "\(r.err)")
    #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path))
  }

  @Test(
    "--format that contradicts a known extension is a usage error",
    arguments: [
      ["render", "waterwave", "--duration", "0.1", "-o", "x.png", "--format", "gif"],
      ["trace", "waterwave", "--duration", "0.2", "-o", "t.json", "--format", "csv"],
    ])
  func contradictingFormat(arguments: [String]) throws {
    let folder = try scratchFolder("output-format")
    defer { try? FileManager.default.removeItem(at: folder) }
    let r = try runSwell(arguments, directory: folder)
    #expect(r.status == 64, "\(r.err)")
    #expect(r.err.contains("contradicts"), "\(r.err)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test("trace -o t.json without --format writes JSON that a JSON parser reads")
  func traceJSONByExtension() throws {
    let folder = try scratchFolder("trace-json")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("t.json")
    let r = try runSwell(["trace", "waterwave", "--duration", "0.5", "--fps", "10", "-o", out.path])
    #expect(r.status == 0, "\(r.err)")
    let rows = try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [[String: Any]]
    #expect(rows?.count == 5)
  }

  @Test(
    "durations take the script language's units: 0.5s and 500ms are 0.5 seconds",
    arguments: ["0.5s", "500ms", "0.5 s", "0.5"])
  func durationUnits(duration: String) throws {
    let r = try runSwell(["trace", "waterwave", "--duration", duration, "--fps", "10"])
    #expect(r.status == 0, "\(r.err)")
    // A header and round(0.5 · 10) = 5 rows.
    #expect(r.out.split(separator: "\n").count == 6, "\(r.out)")
  }

  @Test(
    "a duration with another unit, or a unit alone, is still refused",
    arguments: ["3x", "s", "-s", "3h"])
  func durationBadUnits(duration: String) throws {
    let r = try runSwell(["trace", "waterwave", "--duration", duration])
    #expect(r.status == 64, "\(r.err)")
    #expect(r.err.contains("--duration must be a number"), "\(r.err)")
  }

  @Test("a script that does not parse is a usage error (exit 64)", arguments: ["render", "trace"])
  func scriptErrorIsUsage(command: String) throws {
    let folder = try scratchFolder("script-usage")
    defer { try? FileManager.default.removeItem(at: folder) }
    let r = try runSwell(
      [command, "waterwave", "--script", "hold 1s; wobble", "-o", "x.csv"].filter {
        command == "trace" || ($0 != "-o" && $0 != "x.csv")
      }, directory: folder)
    #expect(r.status == 64, "\(r.err)")
    #expect(r.err.contains("--script") && r.err.contains("wobble"), "\(r.err)")
  }

  @Test("render warns about a misspelt key of a scene file instead of ignoring it silently")
  func renderWarnsUnknownKeys() throws {
    let folder = try scratchFolder("unknown-keys")
    defer { try? FileManager.default.removeItem(at: folder) }
    let printed = try runSwell(["scene", "print", "waterwave"])
    #expect(printed.status == 0)
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(printed.out.utf8)) as? [String: Any])
    object["backgrund"] = "#000000"
    let scene = folder.appendingPathComponent("scene.json")
    try JSONSerialization.data(withJSONObject: object).write(to: scene)
    let r = try runSwell(
      [
        "render", scene.path, "--time", "0", "--size", "40x80@1", "-o",
        folder.appendingPathComponent("x.png").path,
      ])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.err.contains("warning") && r.err.contains("backgrund"), "\(r.err)")
  }

  @Test("evaluate --truth given a device-motion CSV says it is an estimate, not a BROAD trial")
  func truthThatIsDeviceMotion() throws {
    let folder = try scratchFolder("truth-kind")
    defer { try? FileManager.default.removeItem(at: folder) }
    let motion = folder.appendingPathComponent("motion.csv").path
    let fused = try runSwell(["fuse", recording, "-o", motion])
    #expect(fused.status == 0, "\(fused.err)")
    let r = try runSwell(["evaluate", motion, "--truth", motion])
    #expect(r.status == 1)
    #expect(r.err.contains("this is a device-motion CSV"), "\(r.err)")
    #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
  }
}
