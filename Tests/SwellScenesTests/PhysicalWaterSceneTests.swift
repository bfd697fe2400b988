import Foundation
import SwellGeometry
import SwellMotion
import SwellScenes
import SwellTestSupport
import SwellWaves
import Testing

/// A scene file with one `physical` water filling a 390 × 844 canvas (1/160 inch per point).
private func tankScene(fill: Double) throws -> FileScene {
  let json = """
    {"swellScene": 1, "name": "tank",
     "canvas": {"width": 390, "height": 844, "scale": 1, "background": "#FFFFFF"},
     "layers": [{"type": "waterWave", "name": "water",
                 "water": {"fillLevel": \(fill), "response": {"model": "physical"},
                           "waves": [{"amplitude": 1, "wavelength": 200, "phaseSpeed": 1,
                                      "fill": "#3380F280"}]}}]}
    """
  return FileScene(file: try SceneFile.decode(Data(json.utf8), source: "tank.json"))
}

/// Times where a column crosses zero (linear interpolation), after `from`.
private func zeroCrossings(_ rows: [[Double]], column: Int, from: Double) -> [Double] {
  let after = rows.filter { $0[0] >= from }
  var out: [Double] = []
  for (a, b) in zip(after, after.dropFirst()) where (a[column] > 0) != (b[column] > 0) {
    out.append(a[0] + (b[0] - a[0]) * a[column] / (a[column] - b[column]))
  }
  return out
}

/// Violent device motion at 100 Hz: the device spins about the screen's normal at 20 rad/s
/// (gravity turning with it), is shaken at 5 g, and the stream has gaps of 0.5 s and 3 s.
private func violentMotion() -> [DeviceMotion] {
  var out: [DeviceMotion] = []
  var t = 0.0
  var angle = 0.0
  while t < 9 {
    let dt = t > 2 && t < 2.5 ? 0.5 : (t > 5 && t < 5.01 ? 3 : 0.01)
    t += dt
    let spin = t < 4 ? 20.0 : -20.0
    angle += spin * dt
    let shake = 5 * sin(2 * .pi * 8 * t)
    out.append(
      DeviceMotion(
        timestamp: t, attitude: .identity, rotationRate: Vector3(0, 0, spin),
        gravity: Vector3(sin(angle), -cos(angle), 0),
        userAcceleration: Vector3(shake, 0.6 * shake, 0.3 * shake)))
  }
  return out
}

/// A scene file with one `physical` water in a 200 × 200 layer, its container and response
/// given as JSON text.
private func vesselJSON(container: String, response: String = #"{"model": "physical"}"#)
  -> String
{
  """
  {"swellScene": 1, "name": "vessel",
   "canvas": {"width": 300, "height": 300, "scale": 1, "background": "#FFFFFF"},
   "layers": [{"type": "waterWave", "name": "water", "frame": [50, 50, 200, 200],
               "water": {"fillLevel": 0.3, "response": \(response), "container": \(container),
                         "waves": [{"amplitude": 1, "wavelength": 80, "phaseSpeed": 1,
                                    "fill": "#3380F280"}]}}]}
  """
}

/// The message decoding a scene file gives, or `nil` when it decodes.
private func decodingError(_ json: String) -> String? {
  do {
    _ = try SceneFile.decode(Data(json.utf8), source: "vessel.json")
    return nil
  } catch let e as SceneFileError {
    return e.message
  } catch {
    return "unexpected \(error)"
  }
}

/// Containers as scene-file JSON with their areas, points² (a 200 × 200 layer).
private let containers: [(String, Double)] = [
  ("{}", 40_000),
  (#"{"shape": {"kind": "rect", "cornerRadius": 40}}"#, 40_000 - (4 - Double.pi) * 1_600),
  (#"{"shape": {"kind": "ellipse"}}"#, Double.pi * 10_000),
  (#"{"shape": {"kind": "path", "d": "M 0 0 L 200 0 L 100 200 Z"}}"#, 20_000),
]

@Suite("Physical water in scenes")
private struct PhysicalWaterSceneTests {
  @Test(
    "the first mode, read from a trace after a short push, rings at ω² = g·k·tanh(kH)",
    arguments: [0.5, 0.1])
  func firstModeFromATrace(fill: Double) throws {
    let scene = try tankScene(fill: fill)
    let column = try #require(scene.traceKeys.firstIndex(of: "water.surface.angle")) + 1
    let motion = try MotionScript(parsing: "hold 0.5s; push x 0.3g for 0.03s; hold 3s")
      .samples(rate: 100)
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: 240)
    let rows = try driver.trace(frames: driver.frameCount(duration: 3.5))
    let crossings = zeroCrossings(rows, column: column, from: 0.6)
    try #require(crossings.count >= 8, "crossings: \(crossings.count)")
    let measured = .pi * 6 / (crossings[7] - crossings[1])
    // Linear theory, computed here: L = 390 points, H = fill · 844 points, at 1/160 inch.
    let metresPerPoint = 0.0254 / 160
    let k = Double.pi / (390 * metresPerPoint)
    let theory = (9.806_65 * k * tanh(k * fill * 844 * metresPerPoint)).squareRoot()
    let error = measured / theory - 1
    print(
      "trace, fill \(fill): ω \(measured) rad/s, theory \(theory) rad/s, error \(error * 100) %")
    #expect(abs(error) < 0.05, "measured \(measured), theory \(theory)")
  }

  @Test(
    "the glass's traces at 60 and 120 fps agree at their shared times",
    arguments: ["glass", "waterwave"])
  func tracesAgreeAcrossFrameRates(name: String) throws {
    var options = SceneOptions()
    options.waterResponse = .physical
    let motion = try MotionScript(
      parsing: "tilt 25deg right over 0.4s; push x 0.5g for 0.1s; shake z 4Hz 2.5rad/s for 0.8s;"
        + " tilt 70deg left over 0.6s; hold 1s"
    ).samples(rate: 100)
    func rows(fps: Double) throws -> [[Double]] {
      let scene = try #require(BuiltInScenes.make(name, options: options))
      var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: fps)
      return try driver.trace(frames: driver.frameCount(duration: 3))
    }
    let a = try rows(fps: 60)
    let b = try rows(fps: 120)
    try #require(b.count >= 2 * a.count - 1)
    var worst = 0.0
    for (i, row) in a.enumerated() {
      #expect(row[0] == b[2 * i][0])
      for (x, y) in zip(row, b[2 * i]) { worst = max(worst, abs(x - y)) }
    }
    print("\(name): 60 vs 120 fps, largest difference \(worst)")
    #expect(worst < 1e-9)
    // The motion moved the water: the surface ends about 45° counter-clockwise on screen.
    let scene = try #require(BuiltInScenes.make(name, options: options))
    let angle = try #require(scene.traceKeys.firstIndex(of: "water.surface.angle")) + 1
    #expect(abs((a.last?[angle] ?? 0) - .pi / 4) < 0.2, "\(a.last ?? [])")
  }

  @Test(
    "no NaN or blow-up under a 5 g shake, a 20 rad/s spin and gaps, at any frame rate",
    arguments: [30.0, 60, 120, 240])
  func violentInputAtFrameRate(fps: Double) throws {
    // The built-in glass is open (a spin pours water out); closed, the volume is exact.
    for open in [true, false] {
      try violentInput(fps: fps, open: open)
    }
  }

  private func violentInput(fps: Double, open: Bool) throws {
    var file = SceneFile.glass
    for i in file.layers.indices where file.layers[i].water?.container != nil {
      file.layers[i].water?.container?.open = open
    }
    let scene = FileScene(file: file)
    let water = try #require(scene.root.layer(named: "water") as? WaterBodyLayer)
    let volume = try #require(scene.traceKeys.firstIndex(of: "water.volume")) + 1
    var driver = SceneDriver(scene: scene, motion: violentMotion(), framesPerSecond: fps)
    let count = driver.frameCount(duration: 10)
    var least = 1.0
    for _ in 0..<count {
      let frame = try #require(try driver.step())
      let row = driver.traceRow(at: frame.targetTimestamp)
      least = min(least, row[volume])
      if open {
        #expect(
          row[volume] >= 0 && row[volume] <= 0.5 + 1e-6, "t \(frame.targetTimestamp): \(row)")
      } else {
        // A NaN would trace as 0.
        #expect(abs(row[volume] - 0.5) < 1e-6, "t \(frame.targetTimestamp): \(row)")
      }
      let s = water.surface
      #expect(s.angle.isFinite && s.heights.allSatisfy(\.isFinite), "t \(frame.targetTimestamp)")
      // The free surface stays within reach of the glass, and the water drawn stays inside it
      // (its bounds, with a hair for the curves).
      let size = max(water.bounds.width, water.bounds.height)
      #expect(
        s.heights.allSatisfy { abs($0) <= size },
        "t \(frame.targetTimestamp): \(s.heights.map(abs).max() ?? 0) \(s.heights.prefix(5))")
      for p in s.fillPath().endPoints {
        #expect(
          p.x >= -0.5 && p.x <= water.bounds.width + 0.5 && p.y >= -0.5
            && p.y <= water.bounds.height + 0.5,
          "t \(frame.targetTimestamp): \(p) outside")
      }
    }
    #expect(count == Int((10 * fps).rounded()))
    // Spun at 20 rad/s, the open glass empties.
    if open { #expect(least < 0.01, "least volume \(least)") }
  }

  @Test("a circular container 10 cm wide and the damping ratio come from the scene file")
  func containerAndDampingFromTheFile() throws {
    let json = vesselJSON(
      container: #"{"shape": {"kind": "ellipse"}, "widthCentimetres": 10}"#,
      response: #"{"model": "physical", "dampingRatio": 0.2, "rotationCoupling": 0}"#)
    let scene = FileScene(file: try SceneFile.decode(Data(json.utf8), source: "vessel.json"))
    #expect(scene.waterLayers.isEmpty)
    let water = try #require(scene.waterBodyLayers.first)
    // Flattened cubics approximate the circle: its area within 0.1 %.
    #expect(abs(water.container.area / (.pi * 100 * 100) - 1) < 1e-3)
    #expect(abs(water.container.metresPerPoint - 0.1 / 200) < 1e-12)
    let response = try #require(scene.waterBodyResponses.first)
    #expect(response.options.dampingRatio == 0.2)
    #expect(response.body.parameters.dampingRatio == 0.2)
    #expect(response.body.parameters.fillFraction == 0.3)
    #expect(
      scene.traceKeys == [
        "water.transform.rotation.z", "water.amplitude", "water.phase", "water.surface.angle",
        "water.volume",
      ])
    // The real size sets the speed: a 10 cm circle a third full rings slower than a 200-point
    // (3.2 cm) one.
    let small = FileScene(
      file: try SceneFile.decode(
        Data(vesselJSON(container: #"{"shape": {"kind": "ellipse"}}"#).utf8),
        source: "vessel.json"))
    let big = response.body.frequency(mode: 1)
    let little = try #require(small.waterBodyResponses.first).body.frequency(mode: 1)
    #expect(abs(little / big - (10 / 3.175).squareRoot()) < 0.05 * (10 / 3.175).squareRoot())
  }

  @Test(
    "every kind of container: the water settles level with the world after a held 30° turn",
    arguments: containers)
  func everyContainerSettlesLevel(container: String, area: Double) throws {
    let json = vesselJSON(container: container)
    let scene = FileScene(file: try SceneFile.decode(Data(json.utf8), source: "vessel.json"))
    let water = try #require(scene.waterBodyLayers.first)
    #expect(abs(water.container.area / area - 1) < 1e-3, "area \(water.container.area)")
    let angle = try #require(scene.traceKeys.firstIndex(of: "water.surface.angle")) + 1
    let volume = try #require(scene.traceKeys.firstIndex(of: "water.volume")) + 1
    let motion = try MotionScript(parsing: "tilt 30deg right over 0.5s; hold 3s")
      .samples(rate: 100)
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: 60)
    let rows = try driver.trace(frames: driver.frameCount(duration: 3.5))
    let last = try #require(rows.last)
    #expect(abs(last[angle] * 180 / .pi + 30) < 1, "\(last[angle] * 180 / .pi)°")
    #expect(rows.allSatisfy { abs($0[volume] - 0.3) < 1e-6 })
  }

  @Test(
    "bad physical fields name their JSON path",
    arguments: [
      (
        vesselJSON(container: "{}", response: #"{"model": "physical", "dampingRatio": 1.5}"#),
        "layers[0].water.response.dampingRatio"
      ),
      (
        vesselJSON(
          container: "{}", response: #"{"model": "physical", "rotationCoupling": -0.1}"#),
        "layers[0].water.response.rotationCoupling"
      ),
      (
        vesselJSON(container: #"{"widthCentimetres": -3}"#),
        "layers[0].water.container.widthCentimetres"
      ),
      (
        vesselJSON(container: #"{"shape": {"kind": "path", "d": "M 0 0 L 100 100"}}"#),
        "layers[0].water.container.shape"
      ),
    ])
  func badFieldsNameTheirPath(json: String, path: String) throws {
    let message = try #require(decodingError(json))
    #expect(message.contains(path), "\(message)")
  }

  @Test("the built-in glass prints as a scene file that plays the same")
  func glassRoundTrip() throws {
    let file = try #require(BuiltInScenes.file("glass"))
    #expect(BuiltInScenes.fileNames.contains("glass"))
    let data = try JSONEncoder().encode(file)
    let again = try SceneFile.decode(data, source: "glass.json")
    #expect(again == file)
    let motion = try MotionScript(parsing: "tilt 20deg left over 0.3s; push x 0.3g for 0.1s")
      .samples(rate: 100)
    var a = SceneDriver(
      scene: try #require(BuiltInScenes.make("glass")), motion: motion, framesPerSecond: 30)
    var b = SceneDriver(scene: FileScene(file: again), motion: motion, framesPerSecond: 30)
    let rows = try a.trace(frames: 12)
    #expect(try b.trace(frames: 12) == rows)
    #expect(rows.allSatisfy { abs(($0.last ?? 0) - 0.5) < 1e-6 })
  }
}

extension Path {
  /// The end points of the path's elements.
  fileprivate var endPoints: [Point] {
    elements.compactMap {
      switch $0 {
      case .move(let p), .line(let p): p
      case .curve(let p, _, _): p
      case .close: nil
      }
    }
  }
}
