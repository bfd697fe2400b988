// The WaterWave demo in a live window, from library calls only: the built-in scene, device
// motion from a recording (or the arrow keys), a display link paced by vsync.
//
//   swift run waterwave-window [RECORDING] [--frames N]
//
// Keys: arrows tilt (without a recording), r re-centres, space pauses, h shows the HUD, q quits.

import Foundation
import SwellLive
import SwellScenes

var arguments = Array(CommandLine.arguments.dropFirst())
var frames: Int?
if let i = arguments.firstIndex(of: "--frames"), i + 1 < arguments.count {
  frames = Int(arguments[i + 1])
  arguments.removeSubrange(i...(i + 1))
}

var options = SceneOptions()
options.scale = 1
let scene = FileScene(file: .waterwave, options: options)

let motion: any SceneMotionFeed
if let path = arguments.first {
  motion = try SceneMotionInput.recording(URL(fileURLWithPath: path), loops: true).feed
} else {
  motion = TiltMotionFeed(kind: .keyboard)
}

var session = LiveSession(scene: scene, motion: motion, title: "WaterWave")
session.options.frameLimit = frames
session.onMessage = { print($0) }
do {
  let statistics = try session.run()
  print(statistics.jsonLine)
} catch {
  FileHandle.standardError.write(Data("waterwave-window: \(error)\n".utf8))
  exit(1)
}
