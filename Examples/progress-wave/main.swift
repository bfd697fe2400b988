// A water-wave progress indicator: a round badge whose water level follows a progress value,
// rendered to a video or image sequence.
//
//   swift run progress-wave [OUTPUT] [--seconds S]
//
// OUTPUT's extension picks the format (default progress.gif). The progress runs from 0 to 100 %
// in steps of 10 % over the duration; the water's fill level glides after it (an exponential
// approach with a 0.15 s time constant, the same at any frame rate), and the waves keep moving.

import Foundation
import SwellGeometry
import SwellLayers
import SwellRender
import SwellWaves

var arguments = Array(CommandLine.arguments.dropFirst())
var seconds = 3.0
if let i = arguments.firstIndex(of: "--seconds"), i + 1 < arguments.count,
  let v = Double(arguments[i + 1])
{
  seconds = v
  arguments.removeSubrange(i...(i + 1))
}
let output = arguments.first ?? "progress.gif"

let size = Size(width: 160, height: 160)
let badge = Layer(name: "badge", frame: Rect(x: 0, y: 0, width: 160, height: 160))
badge.cornerRadius = 80
badge.masksToBounds = true
badge.backgroundColor = Color(red: 0.93, green: 0.95, blue: 0.98)
let water = WaterWaveLayer(
  model: WaterWave(
    waves: [
      SineWave(
        amplitude: 5, wavelength: 120, phaseSpeed: 3,
        fill: .color(Color(red: 0.45, green: 0.7, blue: 1, alpha: 0.6))),
      SineWave(
        amplitude: 6, wavelength: 160, phaseSpeed: -2, initialPhase: 1,
        fill: .color(Color(red: 0.1, green: 0.45, blue: 0.95))),
    ], fillLevel: 0),
  visibleSize: size)
badge.addSublayer(water)

let fps = 25.0
let exporter = try FrameExporter(
  path: output, configuration: FrameConfiguration(size: size, scale: 2, framesPerSecond: fps),
  background: .white)
var link = DisplayLink(preferredFramesPerSecond: fps)
var level = 0.0
for _ in 0..<Int((seconds * fps).rounded()) {
  guard let frame = link.step() else { break }
  let t = frame.targetTimestamp
  // The value a progress bar would show: in steps of 10 %, as a download reports it.
  let value = min(1, (t / seconds * 10).rounded(.down) / 10)
  level += (value - level) * (1 - exp(-1 / fps / 0.15))
  water.fillLevel = level
  try exporter.add(badge.presentation(at: t))
}
try exporter.finish()
print("wrote \(output) (\(exporter.frameCount) frames)")
