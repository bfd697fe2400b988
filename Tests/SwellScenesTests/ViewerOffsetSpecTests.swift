import Foundation
import SwellScenes
import Testing

@Suite("scene files: viewerOffset settings")
private struct ViewerOffsetSpecTests {
  private func scene(viewerOffset: String) -> Data {
    Data(
      """
      {"swellScene": 1, "name": "v",
       "canvas": {"width": 100, "height": 100, "scale": 1, "background": "#000000"},
       "viewerOffset": \(viewerOffset), "layers": []}
      """.utf8)
  }

  @Test(
    "negative or non-numeric settings name the field",
    arguments: [
      ("{\"deadBand\": -0.1}", "viewerOffset.deadBand: must be 0 or more"),
      ("{\"secondsBeforeIdle\": -1}", "viewerOffset.secondsBeforeIdle: must be 0 or more"),
      ("{\"deadBand\": \"x\"}", "viewerOffset.deadBand: must be a number"),
    ])
  func badSettings(json: String, message: String) {
    #expect {
      try SceneFile.decode(scene(viewerOffset: json), source: "v.json")
    } throws: { error in
      "\(error)".contains(message)
    }
  }

  @Test("valid settings override the system's values")
  func goodSettings() throws {
    let file = try SceneFile.decode(scene(viewerOffset: "{\"deadBand\": 0.05}"), source: "v.json")
    #expect(file.viewerOffset?.configuration.deadBand == 0.05)
  }
}
