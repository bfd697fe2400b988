import Foundation
import SwellTestSupport
import Testing

/// Runs `swell` under an address-space limit (`prlimit --as`, util-linux) and a 60 s timeout.
///
/// - Parameters:
///   - arguments: The tool's arguments.
///   - bytes: The address-space limit.
/// - Returns: Exit status, standard output and standard error.
/// - Throws: ``ToolNotBuilt`` or ``MissingProgram``.
func runLimited(_ arguments: [String], addressSpace bytes: Int = 1_000_000_000) throws -> (
  status: Int32, out: String, err: String
) {
  let swell = try swellExecutable().path
  return try runProgram(
    "prlimit", ["--as=\(bytes)", "--", "timeout", "60", swell] + arguments)
}

/// True for one line of at most 300 characters with no control character but its newline.
func isOneSafeLine(_ text: String) -> Bool {
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
  return lines.count == 2 && lines[1].isEmpty && lines[0].count <= 300
    && !lines[0].unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
}

/// The built-in WaterWave scene as a JSON object, to edit.
///
/// - Returns: The scene.
/// - Throws: When the tool cannot run or prints no JSON object.
func waterwaveScene() throws -> [String: Any] {
  let r = try runSwell(["scene", "print", "waterwave"])
  let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8))
  return try #require(object as? [String: Any])
}

/// Writes a JSON object to a file.
///
/// - Parameters:
///   - object: The JSON object.
///   - url: The file.
/// - Throws: Encoding or writing errors.
func writeJSON(_ object: Any, to url: URL) throws {
  try JSONSerialization.data(withJSONObject: object).write(to: url)
}

@Suite("Hostile input: files", .serialized)
private struct HostileInputTests {
  @Test("a zip entry declaring 100 bytes that inflates to 1.5 GB stops at once under 1 GB")
  func zipBomb() throws {
    let folder = try scratchFolder("hostile-zip")
    defer { try? FileManager.default.removeItem(at: folder) }
    let bomb = HostileInputs.zeroBomb(matches: 6_000_000)
    let zip = folder.appendingPathComponent("bomb.zip")
    try HostileInputs.zip([.init(name: "t.csv", method: 8, data: bomb, declaredSize: 100)])
      .write(to: zip)
    let r = try runLimited(["fuse", zip.path, "-o", folder.appendingPathComponent("o.csv").path])
    #expect(r.status == 1, "\(r.err)")
    #expect(isOneSafeLine(r.err), "\(r.err)")
    #expect(r.err.contains("expands past 100 bytes"), "\(r.err)")
  }

  @Test("a 177-byte zip declaring 4 GiB and an archive of overlapping entries are refused")
  func impossibleZips() throws {
    let folder = try scratchFolder("hostile-zip2")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tiny = folder.appendingPathComponent("tiny.zip")
    try HostileInputs.zip([
      .init(name: "x.csv", method: 8, data: [0x03, 0x00], declaredSize: 0xFFFF_FFFF)
    ]).write(to: tiny)
    let overlap = folder.appendingPathComponent("overlap.zip")
    let kernel = HostileInputs.zeroBomb(matches: 200_000)
    try HostileInputs.zip(
      [.init(name: "a.csv", method: 8, data: kernel, declaredSize: UInt32(1 + 258 * 200_000))],
      aliases: 60
    ).write(to: overlap)
    for (zip, words) in [(tiny, "declares 4294967295 bytes"), (overlap, "overlap")] {
      let r = try runLimited(["fuse", zip.path, "-o", folder.appendingPathComponent("o.csv").path])
      #expect(r.status == 1, "\(r.err)")
      #expect(isOneSafeLine(r.err) && r.err.contains(words), "\(r.err)")
    }
  }

  @Test("amplitude time constants of 0 run (the smoother follows at once) instead of trapping")
  func zeroAmplitudeTimes() throws {
    let folder = try scratchFolder("hostile-amplitude")
    defer { try? FileManager.default.removeItem(at: folder) }
    var scene = try waterwaveScene()
    var layers = try #require(scene["layers"] as? [[String: Any]])
    var water = try #require(layers[0]["water"] as? [String: Any])
    var response = try #require(water["response"] as? [String: Any])
    response["amplitudeRiseTime"] = 0
    response["amplitudeReleaseTime"] = 0
    water["response"] = response
    layers[0]["water"] = water
    scene["layers"] = layers
    let file = folder.appendingPathComponent("zero.json")
    try writeJSON(scene, to: file)
    let check = try runLimited(["scene", "check", file.path])
    #expect(check.status == 0, "\(check.err)")
    let trace = try runLimited([
      "trace", file.path, "--script", "hold 0.2s; shake x 3Hz 2rad/s for 0.5s", "--fps", "20",
    ])
    #expect(trace.status == 0, "\(trace.err)")
    #expect(trace.out.split(separator: "\n").count > 10)
  }

  @Test("scenes past the resource limits are refused before anything is allocated")
  func sceneResources() throws {
    let folder = try scratchFolder("hostile-scene")
    defer { try? FileManager.default.removeItem(at: folder) }
    // A 16384×16384 canvas at scale 1.99: 4.25 GB per frame.
    var canvas = try waterwaveScene()
    canvas["canvas"] = ["width": 16384, "height": 16384, "scale": 1.99, "background": "#000000"]
    let huge = folder.appendingPathComponent("canvas.json")
    try writeJSON(canvas, to: huge)
    // Twenty 16384-point-wide waters of 60 waves sampled every 0.25 points.
    var waves = try waterwaveScene()
    var layers = try #require(waves["layers"] as? [[String: Any]])
    var water = try #require(layers[0]["water"] as? [String: Any])
    let wave = try #require((water["waves"] as? [Any])?.first)
    water["waves"] = Array(repeating: wave, count: 60)
    water["sampleSpacing"] = 0.25
    layers[0]["water"] = water
    layers[0]["frame"] = [0, 0, 16384, 100]
    waves["layers"] = (0..<20).map { k -> [String: Any] in
      var l = layers[0]
      l["name"] = "water\(k)"
      return l
    }
    let many = folder.appendingPathComponent("waves.json")
    try writeJSON(waves, to: many)
    // A 100,000-point polygon (the 500,000 took 6 s per frame; the limit is 50,000).
    var polygon = try waterwaveScene()
    polygon["layers"] = [
      [
        "type": "shape", "fill": "#FF0000",
        "shape": ["kind": "polygon", "points": (0..<100_000).map { [$0 % 390, $0 % 844] }],
      ]
    ]
    let points = folder.appendingPathComponent("polygon.json")
    try writeJSON(polygon, to: points)
    for (file, words) in [(huge, "pixels"), (many, "sampleSpacing"), (points, "100000 points")] {
      let r = try runLimited(["scene", "check", file.path])
      #expect(r.status == 1, "\(file.lastPathComponent): \(r.err)")
      #expect(isOneSafeLine(r.err) && r.err.contains(words), "\(r.err)")
    }
  }

  @Test("an IIO scan index of 1e19 is a one-line error, not a trap")
  func hugeScanIndex() throws {
    let tree = try FakeIIOTree()
    try tree.addBMI160()
    try tree.write("iio:device0/scan_elements/in_accel_x_index", "1e19")
    let r = try runLimited(["sensors", "--sysfs-root", tree.sysfs, "--dev-root", tree.dev])
    #expect(r.status == 1, "\(r.err)")
    #expect(isOneSafeLine(r.err) && r.err.contains("scan index"), "\(r.err)")
  }

  @Test("a sysfs file or an image that is a FIFO is refused instead of blocking")
  func fifoInputs() throws {
    let tree = try FakeIIOTree()
    try tree.addBMI160()
    let raw = tree.sysfs + "/iio:device0/in_accel_x_raw"
    try FileManager.default.removeItem(atPath: raw)
    #expect(mkfifo(raw, 0o600) == 0)
    let folder = try scratchFolder("hostile-fifo-out")
    defer { try? FileManager.default.removeItem(at: folder) }
    let record = try runLimited([
      "record", "iio", "--sysfs-root", tree.sysfs, "--dev-root", tree.dev, "--mode", "polled",
      "--duration", "1", "-o", folder.appendingPathComponent("r.csv").path,
    ])
    #expect(record.status != 124 && record.status != 0, "\(record.err)")
    #expect(record.err.contains("not a regular file"), "\(record.err)")

    let image = folder.appendingPathComponent("picture.png").path
    #expect(mkfifo(image, 0o600) == 0)
    let scene: [String: Any] = [
      "swellScene": 1, "name": "fifo",
      "canvas": ["width": 100, "height": 100, "scale": 1, "background": "#000000"],
      "layers": [["type": "image", "image": "picture.png"]],
    ]
    let file = folder.appendingPathComponent("fifo.json")
    try writeJSON(scene, to: file)
    let check = try runLimited(["scene", "check", file.path])
    #expect(check.status == 1 && check.err.contains("not a regular file"), "\(check.err)")
  }

  @Test("a crafted CSV header cannot put escape sequences or a huge line on the terminal")
  func craftedHeader() throws {
    let folder = try scratchFolder("hostile-header")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("evil.csv")
    let header = "\u{1B}]0;pwned\u{07}\u{1B}[2J" + String(repeating: "A", count: 1 << 20)
    try Data((header + "\n1,2\n").utf8).write(to: file)
    let r = try runLimited(["fuse", file.path, "-o", folder.appendingPathComponent("o.csv").path])
    #expect(r.status == 1)
    #expect(isOneSafeLine(r.err), "\(r.err.prefix(400))")
    #expect(r.err.contains("\\e]0") && r.err.contains("\\e[2J"), "\(r.err)")
  }
}
