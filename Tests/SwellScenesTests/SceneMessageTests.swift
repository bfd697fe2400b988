import Foundation
import SwellScenes
import Testing

/// A scene file with one water layer whose `water` object has the given extra fields.
private func waterScene(_ water: String, layerType: String = "waterWave") -> String {
  """
  {"swellScene": 1, "name": "m",
   "canvas": {"width": 100, "height": 200, "scale": 1, "background": "#FFFFFF"},
   "layers": [{"type": "\(layerType)", "name": "water",
               "water": {"fillLevel": 0.5, \(water)
                         "waves": [{"amplitude": 4, "wavelength": 80, "phaseSpeed": 1,
                                    "fill": "#3380F2"}]}}]}
  """
}

/// The message decoding a scene file gives (`nil` when it decodes).
private func message(_ json: String) -> String? {
  do {
    _ = try SceneFile.decode(Data(json.utf8), source: "m.json")
    return nil
  } catch {
    return "\(error)"
  }
}

@Suite("Scene messages")
private struct SceneMessageTests {
  @Test("a key with allowed values lists them when the value is unknown")
  func allowedValues() {
    #expect(
      message(waterScene(#""response": {"model": "slosh"},"#))
        == "m.json: layers[0].water.response.model: unknown value 'slosh'; "
        + "allowed: classic, sloshing, physical")
    #expect(
      message(waterScene(#""response": {"tiltRule": "exact"},"#))
        == "m.json: layers[0].water.response.tiltRule: unknown value 'exact'; "
        + "allowed: corrected, seedExact")
    #expect(
      message(waterScene("", layerType: "wave"))
        == "m.json: layers[0].type: unknown layer type 'wave' (layer, shape, image, waterWave)")
  }

  @Test("a recording folder or CSV given as the scene says it is a scene's motion")
  func recordingAsScene() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swell-rec-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for path in [folder.path, folder.appendingPathComponent("motion.csv").path] {
      #expect {
        _ = try BuiltInScenes.load(path)
      } throws: { error in
        guard let e = error as? SceneLoadError else { return false }
        return e.isUnknownName && e.recording == path
          && e.message.hasPrefix(
            "'\(path)' \(path == folder.path ? "is a folder" : "(no such file) looks like a motion recording")"
              + ", not a scene: to play a recording, name a scene and give the recording as its "
              + "motion; scenes: waterwave, ")
          && e.message.hasSuffix(", or a scene file ending in .json")
      }
    }
    // A name that is no file keeps the plain message.
    #expect {
      _ = try BuiltInScenes.load("watrwave")
    } throws: { error in
      (error as? SceneLoadError)?.message.hasPrefix("unknown scene 'watrwave' (built-in: ") == true
    }
  }

  @Test("\"open\" on a container: read and written back; an outline without a top edge refused")
  func openKey() throws {
    let open = waterScene(
      #""response": {"model": "physical"}, "container": {"open": true},"#)
    let file = try SceneFile.decode(Data(open.utf8), source: "m.json")
    #expect(file.layers[0].water?.container?.open == true)
    let again = try SceneFile.decode(try file.encoded(), source: "again.json")
    #expect(again == file)
    #expect(SceneFile.unknownKeys(in: Data(open.utf8), decoded: file).isEmpty)
    #expect(
      message(
        waterScene(
          #""response": {"model": "physical"}, "container": {"open": true, "#
            + #""shape": {"kind": "ellipse"}},"#))
        == "m.json: layers[0].water.container.open: an open container needs a straight top "
        + "edge at least 1 point wide (its opening); this outline's top is a single point")
    #expect(
      message(waterScene(#""container": {"open": "yes"},"#))
        == "m.json: layers[0].water.container.open: expected true or false")
    #expect(SceneFile.glass.layers.contains { $0.water?.container?.open == true })
  }
}
