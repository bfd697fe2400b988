import Foundation
import SwellTestSupport
import Testing

/// Reads the water's rotation column of a `--trace-out` CSV.
private func waterRotations(_ path: String) throws -> [Double] {
  let text = try String(contentsOfFile: path, encoding: .utf8)
  var lines = text.split(separator: "\n").map(String.init)
  let header = lines.removeFirst().split(separator: ",").map(String.init)
  let column = try #require(header.firstIndex(of: "water.transform.rotation.z"))
  return try lines.map { try #require(Double(String($0.split(separator: ",")[column]))) }
}

private func scratchPath(_ name: String) -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent(
    "swell-serve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
  ).path
}

@Suite("swell serve dsu")
private struct ServeCommandTests {
  @Test(
    "usage mistakes exit 64 with one line",
    arguments: [
      (["serve"], "needs a KIND"),
      (["serve", "dsu"], "needs --motion"),
      (["serve", "http", "--motion", "iio"], "unknown KIND"),
      (["serve", "dsu", "--motion", "iio", "--loop"], "--loop applies"),
      (["serve", "dsu", "--motion", "dsu#7"], "slot 0...3"),
      (["serve", "dsu", "--motion", "script:wobble", "--duration", "1"], "motion script"),
    ])
  func usage(arguments: [String], text: String) throws {
    let r = try runSwell(arguments)
    #expect(r.status == 64, "\(r.err)")
    #expect(r.err.contains(text), "\(r.err)")
    #expect(r.err.split(separator: "\n").count == 1)
  }

  @Test("serves a script for --duration and says what it served")
  func duration() throws {
    let r = try runSwell([
      "serve", "dsu", "--motion", "script:hold 30s", "--port", "0", "--duration", "0.5",
    ])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.err.contains("as DSU slot 0"))
    #expect(r.out.hasPrefix("served "))
  }

  @Test("SIGTERM stops the server cleanly: exit 0 and the summary says so")
  func sigterm() throws {
    let errPath = scratchPath("err.txt")
    defer { unlink(errPath) }
    #expect(FileManager.default.createFile(atPath: errPath, contents: nil))
    let server = Process()
    server.executableURL = try swellExecutable()
    server.arguments = ["serve", "dsu", "--motion", "script:hold 60s", "--port", "0"]
    let out = Pipe()
    server.standardOutput = out
    server.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    try server.run()
    let started = waitFor(seconds: 30) {
      ((try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "").contains("serving")
    }
    #expect(started)
    server.terminate()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    server.waitUntilExit()
    #expect(server.terminationStatus == 0)
    #expect(text.contains("(stopped by SIGTERM)"), "\(text)")
  }

  /// Needs DISPLAY, as CI's xvfb-run gives.
  @Test("live --motion dsu over loopback against serve dsu turns the water as the script does")
  func liveAgainstServe() async throws {
    let port = UInt16.random(in: 30_000...60_000)
    let script = "script:tilt 30deg right over 0.5s; hold 20s"
    let server = Process()
    server.executableURL = try swellExecutable()
    server.arguments = [
      "serve", "dsu", "--motion", script, "--port", "\(port)", "--duration", "30",
    ]
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    try server.run()
    defer {
      server.terminate()
      server.waitUntilExit()
    }
    let trace = scratchPath("live.csv")
    defer { unlink(trace) }
    let r = try await LiveTool.run([
      "live", "waterwave", "--motion", "dsu:127.0.0.1:\(port)", "--size", "195x422@1",
      "--frames", "150", "--trace-out", trace,
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let live = try waterRotations(trace)
    // The script's own water rotation, without DSU in between.
    let direct = try runSwell([
      "trace", "waterwave", "--script", String(script.dropFirst("script:".count)), "--size",
      "195x422@1",
    ])
    #expect(direct.status == 0, "\(direct.err)")
    let directLast = try #require(
      direct.out.split(separator: "\n").last.flatMap { Double(String($0.split(separator: ",")[1])) }
    )
    let liveLast = try #require(live.last)
    #expect(abs(directLast) > 0.4, "the script tilts the water")
    #expect(abs(liveLast - directLast) < 2 * .pi / 180, "live \(liveLast), direct \(directLast)")
    #expect(abs(live.first ?? 0) < abs(liveLast), "the water turned while the view ran")
  }
}
