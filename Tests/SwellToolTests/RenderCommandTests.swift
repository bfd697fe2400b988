import Foundation
import SwellGeometry
import SwellRender
import SwellTestSupport
import Testing

@testable import SwellTool

/// ffprobe's view of a video's first stream; fails the test when ffprobe cannot read it.
private func probe(_ path: String) throws -> VideoStreamInfo {
  try #require(try probeVideoStream(path), "ffprobe cannot read \(path)")
}

/// The files in a folder (names), sorted.
private func listing(_ folder: URL) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}

/// A scene file with one flat water (amplitude 0) in blue over a white sky, 200 × 400 points.
private let flatWaterScene = flatBlueWaterScene(width: 200, height: 400)

/// The on-screen angle of the water surface in a blue-on-white picture, degrees (positive =
/// turned clockwise on screen, y down), from ``waterSurfaceFit(_:columns:)``.
private func boundaryAngleDegrees(_ image: ImageSurface, columns: ClosedRange<Int>) -> Double? {
  waterSurfaceFit(image, columns: columns)?.degrees
}

@Suite("swell render")
private struct RenderCommandTests {
  @Test("MP4: ffprobe reads h264 at the pixel size, with round(duration·fps) frames")
  func mp4() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("wave.mp4").path
    let r = try runSwell([
      "render", "waterwave", "--script", "tilt 20deg right over 0.3s", "--duration", "1",
      "--fps", "12", "--size", "120x260@2", "-o", out,
    ])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.err.isEmpty, "quiet when stderr is not a terminal: \(r.err)")
    #expect(r.out.hasPrefix("wrote \(out) (12 frames, 240x520 px"))
    let p = try probe(out)
    #expect(p.codec == "h264")
    #expect(p.width == 240)
    #expect(p.height == 520)
    #expect(p.frames == 12)
    let duration = try #require(p.streamDuration)
    #expect(abs(duration - 1) < 0.01, "\(duration)")
    #expect(listing(folder) == ["wave.mp4"])
  }

  @Test("GIF and APNG: ffprobe counts the frames")
  func gifAndAPNG() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (name, codec) in [("w.gif", "gif"), ("w.apng", "apng")] {
      let out = folder.appendingPathComponent(name).path
      let r = try runSwell([
        "render", "waterwave", "--duration", "0.5", "--fps", "8", "--size", "60x130@1", "-o", out,
      ])
      #expect(r.status == 0, "\(r.err)")
      let p = try probe(out)
      #expect(p.codec == codec)
      #expect(p.frames == 4, "\(name): \(p)")
      #expect(p.width == 60)
    }
  }

  @Test("WebP: webpinfo sees an animation with every frame")
  func webp() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("w.webp").path
    let r = try runSwell([
      "render", "waterwave", "--duration", "0.5", "--fps", "8", "--size", "60x130@1", "-o", out,
    ])
    #expect(r.status == 0, "\(r.err)")
    let info = try runProgram("webpinfo", [out])
    #expect(info.status == 0)
    #expect(info.out.contains("Canvas size 60 x 130"), "\(info.out)")
    #expect(info.out.components(separatedBy: "Chunk ANMF").count - 1 == 4, "\(info.out)")
  }

  @Test("PDF: pdfinfo counts one page per frame at the point size; pdftoppm draws it")
  func pdf() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("w.pdf").path
    let r = try runSwell([
      "render", "waterwave", "--duration", "0.25", "--fps", "12", "--size", "100x200@2", "-o", out,
    ])
    #expect(r.status == 0, "\(r.err)")
    let info = try runProgram("pdfinfo", [out])
    var fields: [String: String] = [:]
    for line in info.out.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fields[String(line[..<colon])] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    #expect(fields["Pages"] == "3", "\(info.out)")
    #expect(fields["Page size"] == "100 x 200 pts", "\(info.out)")
    let stem = folder.appendingPathComponent("page").path
    let ppm = try runProgram(
      "pdftoppm", ["-png", "-r", "72", "-f", "2", "-l", "2", "-singlefile", out, stem])
    #expect(ppm.status == 0)
    let page = try ImageSurface.load(contentsOfPNGFile: stem + ".png")
    #expect(page.pixelWidth == 100 && page.pixelHeight == 200)
    // Sky at the top, water at the bottom.
    let top = try #require(page.pixel(x: 50, y: 5))
    let bottom = try #require(page.pixel(x: 50, y: 195))
    #expect(top.red > 200 && bottom.red < 100, "\(top) \(bottom)")
  }

  @Test("PNG sequence: one numbered file per frame")
  func pngSequence() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let pattern = folder.appendingPathComponent("f-%03d.png").path
    let r = try runSwell([
      "render", "waterwave", "--duration", "0.2", "--fps", "10", "--size", "40x80@1", "-o", pattern,
    ])
    #expect(r.status == 0, "\(r.err)")
    #expect(listing(folder) == ["f-000.png", "f-001.png"])
    let image = try ImageSurface.load(
      contentsOfPNGFile: folder.appendingPathComponent("f-001.png").path)
    #expect(image.pixelWidth == 40 && image.pixelHeight == 80)
  }

  @Test(
    "a device turned 30° clockwise: the PNG's water surface is level with the world (−30° ± 1°)",
    arguments: [
      "tilt 30deg right over 0.5s; hold 2s",
      "hold 0.3s; tilt 30deg right over 1s; hold 1.5s",
    ])
  func levelSurface(script: String) throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let sceneURL = folder.appendingPathComponent("flat.json")
    try Data(flatWaterScene.utf8).write(to: sceneURL)
    let out = folder.appendingPathComponent("tilt.png").path
    let r = try runSwell(["render", sceneURL.path, "--script", script, "--time", "2.8", "-o", out])
    #expect(r.status == 0, "\(r.err)")
    let image = try ImageSurface.load(contentsOfPNGFile: out)
    #expect(image.pixelWidth == 200 && image.pixelHeight == 400)
    let angle = try #require(boundaryAngleDegrees(image, columns: 5...194))
    #expect(abs(angle - -30) < 1, "surface at \(angle)°")
  }

  @Test("--response physical: 3 s after a 60° clockwise turn the PNG's water is level (−60° ± 1°)")
  func physicalLevelSurface() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let sceneURL = folder.appendingPathComponent("flat.json")
    try Data(flatWaterScene.utf8).write(to: sceneURL)
    let out = folder.appendingPathComponent("tilt.png").path
    let r = try runSwell([
      "render", sceneURL.path, "--response", "physical", "--script",
      "tilt 60deg right over 0.5s; hold 3.5s", "--time", "3.5", "-o", out,
    ])
    #expect(r.status == 0, "\(r.err)")
    let image = try ImageSurface.load(contentsOfPNGFile: out)
    let angle = try #require(boundaryAngleDegrees(image, columns: 5...194))
    // (The classic response would stop at −45°.)
    #expect(abs(angle - -60) < 1, "surface at \(angle)°")
  }

  @Test("the glass renders under the bundled phone recording")
  func glassUnderTheBundledRecording() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = packageRoot.appendingPathComponent(
      "Sources/SwellTool/Resources/sensorlogger-ios-rotation")
    let out = folder.appendingPathComponent("glass.mp4").path
    let r = try runSwell([
      "render", "glass", "--motion", recording.path, "--duration", "1", "--fps", "10", "--size",
      "130x282@1", "-o", out,
    ])
    #expect(r.status == 0, "\(r.err)")
    let p = try probe(out)
    #expect(p.codec == "h264" && p.width == 130 && p.height == 282 && p.frames == 10)
  }

  @Test("at rest (no motion) the surface is horizontal at the fill level")
  func restingLevel() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let sceneURL = folder.appendingPathComponent("flat.json")
    try Data(flatWaterScene.utf8).write(to: sceneURL)
    let out = folder.appendingPathComponent("rest.png").path
    let r = try runSwell(["render", sceneURL.path, "--time", "1", "-o", out])
    #expect(r.status == 0, "\(r.err)")
    let image = try ImageSurface.load(contentsOfPNGFile: out)
    let angle = try #require(boundaryAngleDegrees(image, columns: 5...194))
    #expect(abs(angle) < 0.1)
    #expect(try #require(image.pixel(x: 100, y: 198)).red > 250)
    #expect(try #require(image.pixel(x: 100, y: 202)).red < 5)
  }

  @Test("SVG (through rsvg-convert) and PNG of the same frame agree closely")
  func svgMatchesPNG() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let args = ["--script", "tilt 20deg left over 0.5s", "--time", "0.75", "--size", "130x280@1"]
    let png = folder.appendingPathComponent("f.png").path
    let svg = folder.appendingPathComponent("f.svg").path
    #expect(try runSwell(["render", "waterwave", "-o", png] + args).status == 0)
    #expect(try runSwell(["render", "waterwave", "-o", svg] + args).status == 0)
    let converted = folder.appendingPathComponent("svg.png").path
    #expect(try runProgram("rsvg-convert", ["-o", converted, svg]).status == 0)
    let a = try ImageSurface.load(contentsOfPNGFile: png)
    let b = try ImageSurface.load(contentsOfPNGFile: converted)
    #expect(a.pixelWidth == b.pixelWidth && a.pixelHeight == b.pixelHeight)
    var far = 0
    var total = 0
    for y in stride(from: 0, to: a.pixelHeight, by: 2) {
      for x in stride(from: 0, to: a.pixelWidth, by: 2) {
        guard let p = a.pixel(x: x, y: y), let q = b.pixel(x: x, y: y) else { continue }
        total += 1
        if p.distance(to: q) > 24 { far += 1 }
      }
    }
    // Only anti-aliased edge pixels may differ noticeably.
    #expect(Double(far) / Double(total) < 0.02, "\(far) of \(total) pixels differ")
  }

  @Test("scene print waterwave → file → render gives the same pixels as render waterwave")
  func printedFileRendersTheSame() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("waterwave.json").path
    let p = try runSwell(["scene", "print", "waterwave", "-o", file])
    #expect(p.status == 0, "\(p.err)")
    let args = [
      "--script", "tilt 15deg right over 0.4s; shake x 2Hz 2rad/s for 0.5s", "--time", "0.8",
      "--size", "150x320@2",
    ]
    let a = folder.appendingPathComponent("builtin.png").path
    let b = folder.appendingPathComponent("file.png").path
    #expect(try runSwell(["render", "waterwave", "-o", a] + args).status == 0)
    #expect(try runSwell(["render", file, "-o", b] + args).status == 0)
    let x = try Data(contentsOf: URL(fileURLWithPath: a))
    let y = try Data(contentsOf: URL(fileURLWithPath: b))
    #expect(x == y)
    // And the stdout form is the same file.
    let stdout = try runSwell(["scene", "print", "waterwave"])
    #expect(stdout.out == (try String(contentsOfFile: file, encoding: .utf8)))
  }

  @Test(
    "bad input: one line, the right exit status, and no file left behind",
    arguments: [
      (["--size", "0x100"], Int32(64), "swell render: --size: 0x100 must have a width and height"),
      (["--size", "10000x100@4"], 64, "swell render: --size: 10000x100@4 is 40000 pixels a side"),
      (
        ["--size", "20000x100"], 64, "swell render: --size: 20000x100 must have a width and height"
      ),
      (["--size", "abc"], 64, "swell render: --size must be WIDTHxHEIGHT"),
      (["--fps", "0"], 64, "swell render: --fps must be greater than zero"),
      (["--motion", "/nonexistent/m.csv"], 1, "swell render: /nonexistent/m.csv"),
      (["--script", "wobble 3"], 64, "swell render: --script:"),
    ])
  func badOptions(extra: [String], status: Int32, message: String) throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("x.mp4").path
    let r = try runSwell(["render", "waterwave", "-o", out] + extra)
    #expect(r.status == status)
    #expect(r.err.hasPrefix(message), "\(r.err)")
    #expect(r.err.split(separator: "\n").count == 1)
    #expect(listing(folder).isEmpty)
  }

  @Test("a malformed scene file names the JSON path; nothing is written")
  func malformedScene() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let sceneURL = folder.appendingPathComponent("bad.json")
    try Data(
      flatWaterScene.replacingOccurrences(of: "\"wavelength\": 100", with: "\"wavelength\": -3")
        .utf8
    )
    .write(to: sceneURL)
    let out = folder.appendingPathComponent("x.png").path
    let r = try runSwell(["render", sceneURL.path, "-o", out])
    #expect(r.status == 1)
    #expect(
      r.err
        == "swell render: \(sceneURL.path): layers[0].water.waves[0].wavelength: must be more than 0 points\n"
    )
    #expect(listing(folder) == ["bad.json"])
    let unknown = try runSwell(["render", "lagoon", "-o", out])
    #expect(unknown.status == 64)
    #expect(unknown.err.hasPrefix("swell render: unknown scene 'lagoon'"))
  }

  @Test("an unwritable output and a missing ffmpeg are one line each, with no partial file")
  func outputFailures() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let missingFolder = folder.appendingPathComponent("no/such/dir/x.png").path
    let a = try runSwell(["render", "waterwave", "--size", "40x80@1", "-o", missingFolder])
    #expect(a.status == 1)
    #expect(a.err.hasPrefix("swell render: \(missingFolder)"), "\(a.err)")
    #expect(a.err.split(separator: "\n").count == 1)

    let video = folder.appendingPathComponent("v.mp4").path
    let b = try runSwell(
      ["render", "waterwave", "--size", "40x80@1", "--duration", "0.2", "-o", video],
      environment: ["SWELL_FFMPEG": "/nonexistent/ffmpeg"])
    #expect(b.status == 1)
    #expect(b.err.hasPrefix("swell render: \(video)"), "\(b.err)")
    #expect(b.err.contains("ffmpeg"))
    #expect(b.err.split(separator: "\n").count == 1)

    let unknown = try runSwell([
      "render", "waterwave", "-o", folder.appendingPathComponent("x.bmp").path,
    ])
    // An extension no sink writes is a usage mistake (exit 64), refused before any work.
    #expect(unknown.status == 64)
    #expect(unknown.err.contains("unknown output type '.bmp'"))
    #expect(listing(folder).isEmpty)
  }
}

@Suite("swell scene")
private struct SceneCommandTests {
  @Test("check summarises a good file and names the bad field of a bad one")
  func check() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let good = folder.appendingPathComponent("w.json").path
    #expect(try runSwell(["scene", "print", "waterwave", "-o", good]).status == 0)
    let r = try runSwell(["scene", "check", good])
    #expect(r.status == 0)
    #expect(
      r.out
        == "\(good): scene 'waterwave', 390x844 points @3.0x, 4 layers, 1 water, 0 with motion effects\n"
    )
    let text = try String(contentsOfFile: good, encoding: .utf8)
    try Data(
      text.replacingOccurrences(of: "\"fillLevel\" : 0.5", with: "\"fillLevel\" : \"half\"").utf8
    )
    .write(to: URL(fileURLWithPath: good))
    let bad = try runSwell(["scene", "check", good])
    #expect(bad.status == 1)
    #expect(bad.err == "swell scene: \(good): layers[0].water.fillLevel: expected a number\n")
  }

  @Test("unknown names and actions are usage errors")
  func usage() throws {
    #expect(try runSwell(["scene", "print", "lagoon"]).status == 64)
    #expect(try runSwell(["scene", "frobnicate"]).status == 64)
    #expect(try runSwell(["scene"]).status == 64)
  }
}

@Suite("swell demo")
private struct DemoCommandTests {
  @Test("renders the bundled recording to a video and says where")
  func file() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("demo.mp4").path
    let r = try runSwell(
      ["demo", "--file", "--duration", "1", "--fps", "10", "--size", "100x216@1", "-o", out],
      environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.contains("swell demo: the video is at \(out)"), "\(r.out)")
    let p = try probe(out)
    #expect(p.frames == 10)
    #expect(p.width == 100)
  }

  @Test("without a display it renders the file (the default)")
  func noDisplay() throws {
    let folder = try scratchFolder("render-tests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let r = try runSwell(
      ["demo", "--duration", "0.2", "--fps", "10", "--size", "50x108@1"],
      environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil],
      directory: folder)
    #expect(r.status == 0, "\(r.err)")
    #expect(listing(folder) == ["swell-demo.mp4"])
    let live = try runSwell(
      ["demo", "--live"],
      environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SDL_VIDEODRIVER": nil])
    #expect(live.status == 1)
    #expect(live.err.hasPrefix("swell demo: no display"), "\(live.err)")
  }
}
