import Foundation
import SwellGeometry
import SwellRecordings
import SwellRender
import SwellScenes
import SwellTestSupport
import Testing

/// One mistake in a scene file: where, the bad value (`nil` removes the field), and the JSON path
/// the message must name.
struct SceneMistake: Sendable, CustomTestStringConvertible {
  var path: [JSONKey]
  var value: JSONValue?
  var named: String
  var testDescription: String { "\(named) = \(value.map { "\($0)" } ?? "(removed)")" }

  /// A JSON path component.
  enum JSONKey: Sendable {
    case key(String)
    case index(Int)
    var any: Any {
      switch self {
      case .key(let k): k
      case .index(let i): i
      }
    }
  }

  /// A JSON value.
  enum JSONValue: Sendable, CustomStringConvertible {
    case number(Double)
    case string(String)
    case bool(Bool)
    case array([Double])
    case object
    var any: Any {
      switch self {
      case .number(let d): d
      case .string(let s): s
      case .bool(let b): b
      case .array(let a): a
      case .object: [String: Any]()
      }
    }
    var description: String {
      switch self {
      case .number(let d): "\(d)"
      case .string(let s): "'\(s)'"
      case .bool(let b): "\(b)"
      case .array(let a): "\(a)"
      case .object: "{}"
      }
    }
  }
}

/// Parses `a.b[2].c` into path components.
private func keys(_ text: String) -> [SceneMistake.JSONKey] {
  var out: [SceneMistake.JSONKey] = []
  for part in text.split(separator: ".") {
    var rest = Substring(part)
    if let open = rest.firstIndex(of: "[") {
      out.append(.key(String(rest[..<open])))
      rest = rest[open...]
      while let o = rest.firstIndex(of: "["), let c = rest.firstIndex(of: "]"),
        let i = Int(rest[rest.index(after: o)..<c])
      {
        out.append(.index(i))
        rest = rest[rest.index(after: c)...]
      }
    } else {
      out.append(.key(String(rest)))
    }
  }
  return out
}

private func mistake(_ path: String, _ value: SceneMistake.JSONValue?, names: String? = nil)
  -> SceneMistake
{
  SceneMistake(path: keys(path), value: value, named: names ?? path)
}

/// A mistake in every documented field of ``everyFieldScene``.
private let mistakes: [SceneMistake] = [
  mistake("swellScene", .number(2)), mistake("swellScene", .string("1")),
  mistake("swellScene", nil), mistake("name", nil), mistake("name", .number(5)),
  mistake("canvas", nil), mistake("canvas.width", .number(0)),
  mistake("canvas.width", .number(-1)), mistake("canvas.width", .number(16385)),
  mistake("canvas.height", .string("tall")), mistake("canvas.height", nil),
  mistake("canvas.scale", .number(0)), mistake("canvas.scale", .number(9)),
  mistake("canvas.background", .string("#12")), mistake("canvas.background", .string("red")),
  mistake("layers", .object), mistake("layers", nil),
  mistake("viewerOffset.idiom", .string("toaster")),
  mistake("viewerOffset.deadBandx", .number(1)),
  mistake("viewerOffset.deadBand", .string("wide")),
  mistake("trace", .string("water")), mistake("trace[0]", .number(5)),
  mistake("trace[1]", .string("nosuch.position.x")),
  mistake("trace[2]", .string("water.bogusValue")),
  mistake("layers[0].type", .string("blob")), mistake("layers[0].frame", .array([1, 2, 3])),
  mistake("layers[0].frame", .array([0, 0, -1, 5])), mistake("layers[0].frame", .string("x")),
  mistake("layers[0].opacity", .number(2)), mistake("layers[0].opacity", .number(-0.1)),
  mistake("layers[0].zPosition", .string("top")),
  mistake("layers[0].fill.gradient.stops", .array([])),
  mistake("layers[0].fill.gradient.stops[0].location", .number(2)),
  mistake("layers[0].fill.gradient.stops[0].color", .string("#GGG")),
  mistake("layers[0].fill.gradient.startPoint", .array([0]), names: "layers[0].fill.gradient"),
  mistake("layers[0].fill.gradient.space", .string("world")),
  mistake("layers[0].fill", .number(5)),
  mistake("layers[0].motionEffects[0].effect", .string("wobble")),
  mistake("layers[0].motionEffects[0].effect", nil),
  mistake("layers[0].motionEffects[0].type", .string("diagonal")),
  mistake(
    "layers[0].motionEffects[0].minimumRelativeValue", .string("a"),
    names: "layers[0].motionEffects[0]"),
  mistake("layers[1].water.fillLevel", .number(1.5)), mistake("layers[1].water.fillLevel", nil),
  mistake("layers[1].water.waves", .array([])),
  mistake("layers[1].water.waves[0].wavelength", .number(0)),
  mistake("layers[1].water.waves[0].amplitude", .string("big")),
  mistake("layers[1].water.waves[0].amplitude", .number(1e300)),
  mistake("layers[1].water.waves[0].phaseSpeed", nil),
  mistake("layers[1].water.waves[1].fill", .string("#1234567")),
  mistake("layers[1].water.sampleSpacing", .number(0.1)),
  mistake("layers[1].water.sampleSpacing", .number(1001)),
  mistake("layers[1].water.response.model", .string("wavy")),
  mistake("layers[1].water.response.tiltRule", .string("sideways")),
  mistake("layers[1].water.response.tiltDuration", .number(-1)),
  mistake("layers[1].water.response.tiltUpdateRate", .number(0)),
  mistake("layers[1].water.response.amplitudeRiseTime", .number(-1)),
  mistake("layers[1].water.response.amplitudeReleaseTime", .string("slow")),
  mistake("layers[1].water.response.amplitudePeakHold", .number(-1)),
  mistake("layers[1].water.response.reduceMotion", .string("yes")),
  mistake("layers[1].rotation", .number(0.5)),
  mistake("layers[2].backgroundColor", .string("#0G0")),
  mistake("layers[2].cornerRadius", .number(-3)), mistake("layers[2].borderWidth", .number(-1)),
  mistake("layers[2].borderColor", .string("blue")),
  mistake("layers[2].masksToBounds", .string("true")),
  mistake("layers[2].rotation", .string("a")), mistake("layers[2].isHidden", .number(1)),
  mistake("layers[2].sublayers[0].shape.kind", .string("star")),
  mistake("layers[2].sublayers[1].shape.cornerRadius", .number(-1)),
  mistake("layers[2].sublayers[2].fillRule", .string("oddEven")),
  mistake("layers[2].sublayers[3].shape.d", .string("M 0 0 L 4")),
  mistake("layers[2].sublayers[3].shape.d", .string("M 0 0 S 1 1 5 5")),
  mistake("layers[2].sublayers[3].shape.d", .string("M 0 0 A 1 1 0 2 0 5 5")),
  mistake("layers[2].sublayers[3].shape.d", .string("L 1 1")),
  mistake("layers[2].sublayers[3].lineWidth", .number(-2)),
  mistake("layers[2].sublayers[3].stroke", .string("#12345")),
  mistake("layers[2].sublayers[4].image", .string("missing.png")),
  mistake("layers[2].sublayers[4].image", .string("img")),
  mistake("layers[2].sublayers[4].image", .string("notpng.png")),
  mistake("layers[2].sublayers[4].image", nil),
  mistake("layers[2].sublayers[4].gravity", .string("stretch")),
]

@Suite("adversarial: scene files under swell scene check, render and trace")
private struct AdversarialRenderSceneTests {
  @Test("a file with every documented field checks, renders every frame, and traces its list")
  func everyField() throws {
    let folder = try scratchFolder("adversarial-scene-every")
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = try writeEveryFieldScene(in: folder)
    let check = try runSwell(["scene", "check", scene])
    #expect(check.status == 0, "\(check.err)")
    #expect(
      check.out.hasPrefix("\(scene): scene 'everything', 100x200 points @1.0x, "),
      "\(check.out)")
    #expect(check.out.hasSuffix("1 water, 1 with motion effects\n"), "\(check.out)")
    let out = folder.appendingPathComponent("every.gif").path
    let motion = ["--script", "tilt 20deg left over 0.3s; shake y 3Hz 2rad/s for 0.3s"]
    let r = try runSwell(["render", scene, "--fps", "20", "-o", out] + motion)
    #expect(r.status == 0, "\(r.err)")
    #expect(try probeVideo(out) == VideoProbe(width: 100, height: 200, frames: 12))
    let table = try traceTable([scene, "--fps", "20"] + motion)
    #expect(
      table.header == [
        "time", "water.transform.rotation.z", "water.amplitude", "offset.horizontal",
        "wallpaper.position.x",
      ])
    try checkAnyTrace(table, fps: 20, rows: 12, "every-field trace")
    // The image is drawn: red pixels inside the card where the logo sits.
    let png = folder.appendingPathComponent("every.png").path
    #expect(try runSwell(["render", scene, "--size", "100x200@2", "-o", png]).status == 0)
    let image = try ImageSurface.load(contentsOfPNGFile: png)
    var red = 0
    for y in 40...100 {
      for x in 120...190 {
        if let p = image.pixel(x: x, y: y), p.red > 200, p.green < 60, p.blue < 60 { red += 1 }
      }
    }
    #expect(red > 200, "the logo is not drawn (\(red) red pixels)")
  }

  @Test(
    "a mistake in any field: check and render give one line naming the file and the JSON path; nothing is written",
    arguments: mistakes)
  func mistakeInAField(_ m: SceneMistake) throws {
    let folder = try scratchFolder("adversarial-scene-mistake")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("\u{89}PNG? no".utf8).write(to: folder.appendingPathComponent("notpng.png"))
    let scene = try writeEveryFieldScene(
      in: folder, changing: m.path.map(\.any), to: m.value?.any)
    let before = try folderNames(folder)
    let check = try runSwell(["scene", "check", scene])
    expectOneLineFailure(
      check, command: "scene", mentioning: ["\(scene): \(m.named)"], "check \(m.testDescription)")
    let out = folder.appendingPathComponent("x.png").path
    let render = try runSwell(["render", scene, "-o", out, "--duration", "0.1"])
    expectOneLineFailure(
      render, command: "render", mentioning: ["\(scene): \(m.named)"],
      "render \(m.testDescription)")
    #expect(
      render.err.dropFirst("swell render: ".count) == check.err.dropFirst("swell scene: ".count))
    #expect(try folderNames(folder) == before, "\(m.testDescription): files written")
  }

  @Test(
    "not JSON at all: one line saying so (with the line for a syntax error), no crash",
    arguments: [
      ("", "empty"), ("   \n", "empty"),
      ("{\"swellScene\": 1,\n \"name\": \"x\" \"canvas\"}", "line 2"),
      ("[1, 2]", "(top level)"), ("null", "(top level)"), ("{", "not valid JSON"),
      (String(repeating: "[", count: 100_000), "not valid JSON"),
      ("{\"swellScene\": 1e999}", "1e999"),
    ])
  func notJSON(text: String, word: String) throws {
    let folder = try scratchFolder("adversarial-scene-notjson")
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = try writeFile(text, named: "s.json", in: folder)
    for command in ["scene", "render"] {
      let args = command == "scene" ? ["scene", "check", scene] : ["render", scene, "-o", "x.png"]
      let r = try runSwell(args, directory: folder)
      expectOneLineFailure(r, command: command, mentioning: [scene, word], "\(command) \(word)")
    }
    #expect(try folderNames(folder) == ["s.json"])
  }

  @Test("deep nesting and thousands of layers render (bounded, exact frame counts)")
  func bigTrees() throws {
    let folder = try scratchFolder("adversarial-scene-big")
    defer { try? FileManager.default.removeItem(at: folder) }
    // 200 levels deep (400 JSON levels; JSONSerialization stops at 512), each a translucent
    // square offset a little.
    let level =
      ##"{"type": "layer", "frame": [0.05, 0.05, 10, 10], "backgroundColor": "#FF000008""##
    let depth = 200
    let nested =
      String(repeating: level + #", "sublayers": ["#, count: depth) + level + "}"
      + String(repeating: "]}", count: depth)
    let deep = try writeFile(
      ##"{"swellScene": 1, "name": "deep", "canvas": {"width": 20, "height": 20, "scale": 1, "##
        + ##""background": "#FFFFFF"}, "##
        + #""layers": ["# + nested + "]}", named: "deep.json", in: folder)
    let d = try runSwell(["scene", "check", deep])
    #expect(d.status == 0, "\(d.err)")
    #expect(d.out.contains("\(depth + 1) layers"), "\(d.out)")
    let dOut = folder.appendingPathComponent("deep.png").path
    let dr = try runSwell(["render", deep, "-o", dOut])
    #expect(dr.status == 0, "\(dr.err)")
    let dImage = try ImageSurface.load(contentsOfPNGFile: dOut)
    // 201 squares of alpha 8/255, each 0.05 pt further: around (12, 12) over 150 overlap.
    let p = try #require(dImage.pixel(x: 11, y: 11))
    #expect(p.red > 200 && p.green < 60, "\(p)")

    // 4000 small ellipses in a grid.
    var layers: [String] = []
    for i in 0..<4000 {
      layers.append(
        "{\"type\": \"shape\", \"name\": \"dot\(i)\", \"frame\": [\(i % 80), \(i / 80), 1, 1], "
          + ##""shape": {"kind": "ellipse"}, "fill": "#0000FF"}"##)
    }
    let many = try writeFile(
      ##"{"swellScene": 1, "name": "many", "canvas": {"width": 80, "height": 50, "scale": 2, "##
        + ##""background": "#FFF"}, "##
        + #""layers": ["# + layers.joined(separator: ",") + "]}", named: "many.json", in: folder)
    let m = try runSwell(["scene", "check", many])
    #expect(m.out.contains("4000 layers"), "\(m.out) \(m.err)")
    let mOut = folder.appendingPathComponent("many.mp4").path
    let mr = try runSwell(["render", many, "--duration", "0.2", "--fps", "20", "-o", mOut])
    #expect(mr.status == 0, "\(mr.err)")
    #expect(try probeVideo(mOut) == VideoProbe(width: 160, height: 100, frames: 4))
  }

  @Test("relative image paths resolve against the scene file's folder, from any directory")
  func relativeImages() throws {
    let folder = try scratchFolder("adversarial-scene-images")
    defer { try? FileManager.default.removeItem(at: folder) }
    let sub = folder.appendingPathComponent("a/b")
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    try writeSolidPNG(
      Color(red: 0, green: 1, blue: 0), width: 3, height: 7,
      to: sub.appendingPathComponent("green.png").path)
    let scene = #"""
      {"swellScene": 1, "name": "img",
       "canvas": {"width": 40, "height": 40, "scale": 1, "background": "#FFFFFF"},
       "layers": [{"type": "image", "name": "pic", "frame": [10, 10, 20, 20],
                   "image": "b/green.png", "gravity": "resize"}]}
      """#
    let path = try writeFile(scene, named: "img.json", in: folder.appendingPathComponent("a"))
    let elsewhere = try scratchFolder("adversarial-scene-images-cwd")
    defer { try? FileManager.default.removeItem(at: elsewhere) }
    let r = try runSwell(["render", path, "-o", "out.png"], directory: elsewhere)
    #expect(r.status == 0, "\(r.err)")
    let image = try ImageSurface.load(
      contentsOfPNGFile: elsewhere.appendingPathComponent("out.png").path)
    let inside = try #require(image.pixel(x: 20, y: 20))
    let outside = try #require(image.pixel(x: 5, y: 5))
    #expect(inside.green > 250 && inside.red < 5, "\(inside)")
    #expect(outside.green < 250 || outside.red > 5, "\(outside)")
    // A relative path that only exists from the working directory is not used.
    try FileManager.default.createDirectory(
      at: elsewhere.appendingPathComponent("b"), withIntermediateDirectories: true)
    try writeSolidPNG(
      Color(red: 1, green: 0, blue: 0), width: 2, height: 2,
      to: elsewhere.appendingPathComponent("b/red.png").path)
    let moved = try writeFile(
      scene.replacingOccurrences(of: "b/green.png", with: "b/red.png"), named: "red.json",
      in: folder.appendingPathComponent("a"))
    let bad = try runSwell(["render", moved, "-o", "red.png"], directory: elsewhere)
    expectOneLineFailure(
      bad, command: "render", mentioning: ["layers[0].image", "b/red.png"], "cwd-relative image")
    #expect(
      !FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("red.png").path))
  }

  @Test("a PNG with a good signature but corrupt data: one line naming it, no file")
  func corruptPNG() throws {
    let folder = try scratchFolder("adversarial-scene-corrupt")
    defer { try? FileManager.default.removeItem(at: folder) }
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    var rng = SplitMix64(seed: 0x5CE7E)
    bytes += (0..<200).map { _ in UInt8.random(in: 0...255, using: &rng) }
    try Data(bytes).write(to: folder.appendingPathComponent("img.png"))
    let scene = try writeEveryFieldScene(
      in: folder, changing: ["layers", 2, "sublayers", 4, "image"], to: "img.png")
    for out in ["x.png", "x.mp4", "x.pdf"] {
      let r = try runSwell(
        ["render", scene, "--duration", "0.1", "-o", folder.appendingPathComponent(out).path])
      expectOneLineFailure(r, command: "render", mentioning: ["img.png"], "corrupt PNG \(out)")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(out).path))
    }
    #expect(try folderNames(folder) == ["img", "img.png", "scene.json"])
  }

  @Test(
    "scene print → check → render round trip for every built-in scene file, under seeded motion",
    arguments: BuiltInScenes.fileNames)
  func roundTrip(name: String) throws {
    let folder = try scratchFolder("adversarial-scene-roundtrip")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("\(name).json").path
    let p = try runSwell(["scene", "print", name, "-o", file])
    #expect(p.status == 0 && p.out.isEmpty && p.err.isEmpty, "\(p)")
    #expect(try folderNames(folder) == ["\(name).json"])
    let c = try runSwell(["scene", "check", file])
    #expect(c.status == 0 && c.out.hasPrefix("\(file): scene '\(name)'"), "\(c)")
    // Printing the printed file's scene again gives the same text (a fixed point).
    let again = try SceneFile.load(from: URL(fileURLWithPath: file)).encoded()
    #expect(again + Data("\n".utf8) == (try Data(contentsOf: URL(fileURLWithPath: file))))
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SplitMix64(seed: seed)
    let angle = Int.random(in: 5...80, using: &rng)
    let side = Bool.random(using: &rng) ? "left" : "right"
    let time = Double(Int.random(in: 1...12, using: &rng)) / 10
    let size = ["--size", "90x180@1"]
    let args =
      [
        "--script", "tilt \(angle)deg \(side) over 0.4s; shake x 3Hz 3rad/s for 0.5s",
        "--time", "\(time)",
      ] + size
    // A built-in scene lays itself out for the canvas (homescreen's grid and stars), so the
    // file rendered at another size is printed for that size.
    let sized = folder.appendingPathComponent("\(name)-sized.json").path
    #expect(try runSwell(["scene", "print", name, "-o", sized] + size).status == 0)
    let a = folder.appendingPathComponent("builtin.png").path
    let b = folder.appendingPathComponent("file.png").path
    #expect(try runSwell(["render", name, "-o", a] + args).status == 0)
    #expect(try runSwell(["render", sized, "-o", b] + args).status == 0)
    let x = try Data(contentsOf: URL(fileURLWithPath: a))
    let y = try Data(contentsOf: URL(fileURLWithPath: b))
    #expect(x == y, "seed \(seed): \(args)")
    let tx = try traceTable([name, "--duration", "1"] + Array(args.prefix(2)))
    let ty = try traceTable([file, "--duration", "1"] + Array(args.prefix(2)))
    #expect(tx.header == ty.header && tx.rows == ty.rows, "seed \(seed): traces differ")
  }

  @Test("built-in scenes without a file: print says so in one line")
  func printWithoutFile() throws {
    for name in BuiltInScenes.names where !BuiltInScenes.fileNames.contains(name) {
      let r = try runSwell(["scene", "print", name])
      expectOneLineFailure(r, command: "scene", mentioning: [name], "print \(name)")
      #expect(r.out.isEmpty)
    }
    let folder = try scratchFolder("adversarial-scene-print")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("no/such/w.json").path
    let r = try runSwell(["scene", "print", "waterwave", "-o", out])
    expectOneLineFailure(r, command: "scene", mentioning: [out], "print into a missing folder")
    #expect(try folderNames(folder).isEmpty)
  }
}
