import Foundation
import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRecordings
import SwellTestSupport
import SwellWaves
import Testing

@testable import SwellScenes

/// A small scene file with every layer kind, a motion effect and viewer-offset settings.
private let sampleJSON = """
  {
    "swellScene": 1,
    "name": "sample",
    "canvas": {"width": 200, "height": 300, "scale": 2, "background": "#102030"},
    "viewerOffset": {"idiom": "pad", "deadBand": 0.02},
    "layers": [
      {"type": "shape", "name": "card", "frame": [20, 30, 100, 60],
       "shape": {"kind": "rect", "cornerRadius": 8},
       "fill": {"gradient": {"stops": [{"location": 0, "color": "#FF0000"},
                                       {"location": 1, "color": "#0000FF80"}],
                             "space": "layer"}},
       "stroke": "#FFFFFF", "lineWidth": 2,
       "motionEffects": [{"effect": "interpolating", "keyPath": "center.x",
                          "type": "tiltAlongHorizontalAxis",
                          "minimumRelativeValue": -40, "maximumRelativeValue": 40}]},
      {"type": "shape", "name": "tri", "frame": [0, 0, 50, 50],
       "shape": {"kind": "path", "d": "M 0 0 l 50 0 L 25 40 z"}, "fill": "#0F0"},
      {"type": "waterWave", "name": "sea",
       "water": {"fillLevel": 0.4,
                 "waves": [{"amplitude": 5, "wavelength": 120, "phaseSpeed": 2,
                            "fill": "#3366FFCC"}],
                 "response": {"model": "classic", "tiltRule": "corrected"}}},
      {"name": "box", "frame": [10, 10, 30, 30], "backgroundColor": "#ABCDEF",
       "sublayers": [{"type": "shape", "shape": {"kind": "ellipse"}, "fill": "#000"}]}
    ]
  }
  """

private func decode(_ json: String) throws -> SceneFile {
  try SceneFile.decode(Data(json.utf8), source: "test.json")
}

/// The error message decoding `json` gives (nil when it decodes).
private func errorMessage(_ json: String) -> String? {
  do {
    _ = try decode(json)
    return nil
  } catch let e as SceneFileError {
    return e.message
  } catch {
    return "unexpected \(error)"
  }
}

@Suite("Scene files")
private struct SceneFileTests {
  @Test("the sample decodes into the layer kinds, fills, shapes and effects it describes")
  func decodesSample() throws {
    let f = try decode(sampleJSON)
    #expect(f.name == "sample")
    #expect(f.canvas.background.color == Color(hex: "#102030"))
    #expect(f.layers.map(\.type) == [.shape, .shape, .waterWave, .layer])
    #expect(f.layers[3].frame == [10, 10, 30, 30])
    #expect(f.layers[2].frame == nil)
    #expect(f.viewerOffset?.configuration.idiom == .pad)
    #expect(f.viewerOffset?.configuration.deadBand == 0.02)
    #expect(
      f.viewerOffset?.configuration.jumpThreshold
        == ViewerOffsetEngine.Configuration().jumpThreshold)
    guard case .gradient(let g) = try #require(f.layers[0].fill) else {
      Issue.record("expected a gradient")
      return
    }
    #expect(g.stops.count == 2)
    #expect(g.stops[1].color == Color(red: 0, green: 0, blue: 1, alpha: 128.0 / 255))
    #expect(g.startPoint == Point(x: 0.5, y: 0))
    let effect = try #require(f.layers[0].motionEffects?.first?.base as? InterpolatingMotionEffect)
    #expect(effect.keyPath == "center.x")
    guard case .pathData(let p) = try #require(f.layers[1].shape) else {
      Issue.record("expected path data")
      return
    }
    #expect(
      p.path.elements == [
        .move(to: Point(x: 0, y: 0)), .line(to: Point(x: 50, y: 0)),
        .line(to: Point(x: 25, y: 40)), .close,
      ])
  }

  @Test("encoding and decoding gives the same description (sample and built-in waterwave)")
  func roundTrip() throws {
    for f in [try decode(sampleJSON), SceneFile.waterwave] {
      let data = try f.encoded()
      let back = try SceneFile.decode(data, source: "round.json")
      #expect(back == f)
      #expect(try back.encoded() == data)
    }
  }

  @Test("the built-in waterwave file is what BuiltInScenes prints and makes")
  func builtInWaterwave() throws {
    let f = try #require(BuiltInScenes.file("waterwave"))
    #expect(f == SceneFile.waterwave)
    #expect(BuiltInScenes.fileNames.contains("waterwave"))
    let scene = try #require(BuiltInScenes.make("waterwave") as? FileScene)
    #expect(scene.file == f)
    #expect(scene.traceKeys == ["water.transform.rotation.z", "water.amplitude", "water.phase"])
    #expect(scene.size == Size(width: 390, height: 844))
    #expect(scene.scale == 3)
    let water = try #require(scene.root.layer(named: "water") as? WaterWaveLayer)
    #expect(water.model.waves.map(\.amplitude) == [12, 10, 8])
    #expect(water.model.waves.map(\.wavelength) == [300, 240, 390])
    #expect(water.model.fillLevel == 0.5)
  }

  @Test(
    "errors name the file and the JSON path of the bad field",
    arguments: [
      ("\"width\": 200", "\"widthx\": 200", "test.json: canvas.width: missing"),
      ("\"width\": 200", "\"width\": -1", "test.json: canvas.width: must be"),
      ("\"scale\": 2", "\"scale\": 20", "test.json: canvas.scale: must be"),
      ("\"#102030\"", "\"blue\"", "test.json: canvas.background: 'blue' is not a colour"),
      (
        "\"fill\": \"#0F0\"", "\"fill\": \"#0G0\"",
        "test.json: layers[1].fill: '#0G0' is not a colour"
      ),
      (
        "\"wavelength\": 120", "\"wavelength\": 0",
        "test.json: layers[2].water.waves[0].wavelength: must be"
      ),
      (
        "\"fillLevel\": 0.4", "\"fillLevel\": 1.5",
        "test.json: layers[2].water.fillLevel: must be 0...1"
      ),
      ("\"fillLevel\": 0.4,", "", "test.json: layers[2].water.fillLevel: missing"),
      (
        "\"tiltRule\": \"corrected\"", "\"tiltRule\": \"wobbly\"",
        "test.json: layers[2].water.response.tiltRule"
      ),
      (
        "\"type\": \"waterWave\"", "\"type\": \"lake\"",
        "test.json: layers[2].type: unknown layer type 'lake'"
      ),
      (
        "\"effect\": \"interpolating\"", "\"effect\": \"wobble\"",
        "test.json: layers[0].motionEffects[0].effect: unknown motion effect type 'wobble'"
      ),
      (
        "\"deadBand\": 0.02", "\"deadBandx\": 0.02",
        "test.json: viewerOffset.deadBandx: unknown viewer-offset setting"
      ),
      (
        "\"deadBand\": 0.02", "\"deadBand\": true",
        "test.json: viewerOffset.deadBand: must be a number"
      ),
      (
        "l 50 0 L 25 40 z", "l 50 0 L 25 X z",
        "test.json: layers[1].shape.d: expected a number at character"
      ),
      (
        "\"kind\": \"ellipse\"", "\"kind\": \"blob\"",
        "test.json: layers[3].sublayers[0].shape.kind: unknown shape 'blob'"
      ),
      (
        "[10, 10, 30, 30]", "[10, 10, 30]",
        "test.json: layers[3].frame: must be [x, y, width, height]"
      ),
      (
        "\"lineWidth\": 2", "\"lineWidth\": \"2\"",
        "test.json: layers[0].lineWidth: expected a number"
      ),
      (
        "\"swellScene\": 1", "\"swellScene\": 2",
        "test.json: swellScene: version 2 is not supported"
      ),
      ("\"layers\": [", "\"layers\": [,", "test.json: not valid JSON"),
    ])
  func errorPaths(replace: String, with: String, expected: String) throws {
    #expect(sampleJSON.contains(replace))
    let message = try #require(
      errorMessage(sampleJSON.replacingOccurrences(of: replace, with: with)))
    #expect(message.hasPrefix(expected), "\(message)")
    #expect(!message.contains("\n"))
  }

  @Test("a waterWave needs water, and only a waterWave may have it")
  func waterRequired() throws {
    let noWater = sampleJSON.replacingOccurrences(
      of: "\"type\": \"waterWave\", \"name\": \"sea\",",
      with: "\"type\": \"waterWave\", \"name\": \"sea\", \"rotation\": 0.1,")
    #expect(
      errorMessage(noWater)?.hasPrefix(
        "test.json: layers[2].rotation: a waterWave's rotation is its tilt") == true)
    let stray = sampleJSON.replacingOccurrences(
      of: "\"type\": \"waterWave\"", with: "\"type\": \"layer\"")
    #expect(errorMessage(stray)?.hasPrefix("test.json: layers[2].water: only a waterWave") == true)
  }

  @Test("a missing file is one line naming it")
  func missingFile() {
    #expect(throws: SceneFileError.self) {
      try SceneFile.load(from: URL(fileURLWithPath: "/nonexistent/scene.json"))
    }
  }
}

@Suite("SVG path data")
private struct SVGPathDataTests {
  @Test("random paths survive format and parse exactly (seeded)")
  func roundTrip() throws {
    let seed: UInt64 = 0x5CE4_E5
    var rng = SplitMix64(seed: seed)
    for _ in 0..<200 {
      var p = Path()
      func pt() -> Point {
        Point(
          x: Double.random(in: -500...500, using: &rng),
          y: Double.random(in: -500...500, using: &rng))
      }
      for _ in 0..<Int.random(in: 1...5, using: &rng) {
        p.move(to: pt())
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
          if Bool.random(using: &rng) {
            p.line(to: pt())
          } else {
            p.curve(to: pt(), control1: pt(), control2: pt())
          }
        }
        if Bool.random(using: &rng) { p.close() }
      }
      let text = SVGPathData.format(p)
      let back = try SVGPathData.parse(text)
      #expect(back == p, "seed \(seed): \(text)")
    }
  }

  @Test("relative, H/V and quadratic commands")
  func commands() throws {
    let p = try SVGPathData.parse("m10,10 h5 v-5 H0 V0 q10 0 10 10 Z")
    let q = Point(x: 10, y: 0)
    let start = Point(x: 0, y: 0)
    let end = Point(x: 10, y: 10)
    #expect(
      p.elements == [
        .move(to: Point(x: 10, y: 10)), .line(to: Point(x: 15, y: 10)),
        .line(to: Point(x: 15, y: 5)), .line(to: Point(x: 0, y: 5)), .line(to: start),
        .curve(
          to: end,
          control1: Point(
            x: start.x + 2 / 3 * (q.x - start.x), y: start.y + 2 / 3 * (q.y - start.y)),
          control2: Point(x: end.x + 2 / 3 * (q.x - end.x), y: end.y + 2 / 3 * (q.y - end.y))),
        .close,
      ])
    #expect(throws: SVGPathDataError.self) { try SVGPathData.parse("L 1 2") }
    #expect(throws: SVGPathDataError.self) { try SVGPathData.parse("M 1") }
  }
}

@Suite("BuiltInScenes.fileData: a built-in scene as the bytes of a scene file")
private struct BuiltInSceneFileDataTests {
  @Test("every scene with a file prints JSON that decodes to the same file, ending in a newline")
  func roundTrip() throws {
    for name in BuiltInScenes.fileNames {
      var options = SceneOptions()
      try options.setSize("200x300@2", maximumPixels: 10_000)
      let data = try BuiltInScenes.fileData(name, options: options)
      #expect(data.last == UInt8(ascii: "\n"), "\(name)")
      let file = try #require(BuiltInScenes.file(name, options: options))
      #expect(try JSONDecoder().decode(SceneFile.self, from: data) == file, "\(name)")
    }
  }

  @Test("an unknown name is an unknown-name error listing the scenes that have files")
  func unknown() {
    #expect {
      try BuiltInScenes.fileData("wave")
    } throws: { error in
      guard let e = error as? SceneLoadError else { return false }
      return e.isUnknownName
        && e.message == "unknown scene 'wave' (with a scene file: "
          + BuiltInScenes.fileNames.joined(separator: ", ") + ")"
    }
  }
}
