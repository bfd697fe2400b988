// The seed's custom motion effect: `center.y = 512 * horizontal`, driven by scripted motion
// through the viewer-offset engine, traced frame by frame.
//
//   swift run custom-effect
//
// Prints the viewer offset and the layer's presentation `position.y` at 30 frames per second
// while a scripted device turns right and back.

import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion

/// UIMotionEffect subclass of the seed, as a Swell motion effect.
struct BounceEffect: MotionEffect {
  func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset)
    -> [String: LayerValue]?
  {
    ["center.y": .number(512 * viewerOffset.horizontal)]
  }
}

let view = Layer(name: "view", frame: Rect(x: 0, y: 0, width: 100, height: 100))
view.addMotionEffect(BounceEffect())

let script = try MotionScript(
  parsing: "hold 0.5s; turn 20deg right over 0.5s; hold 1s; turn 20deg left over 0.5s; hold 1s")
var engine = ViewerOffsetEngine()
var link = DisplayLink(preferredFramesPerSecond: 30)
let samples = script.samples(rate: 100)
var next = 0
print("time_s,offset_horizontal,center_y")
while let frame = link.step(), frame.targetTimestamp <= script.duration {
  while next < samples.count && samples[next].timestamp <= frame.targetTimestamp {
    engine.receive(samples[next])
    next += 1
  }
  if let offset = engine.advance(to: frame.targetTimestamp) {
    view.applyMotionEffects(for: offset)
  }
  let y = view.presentationValue(forKeyPath: "position.y", at: frame.targetTimestamp)?.number ?? 0
  print(
    "\(frame.targetTimestamp),\(engine.appliedOffset.horizontal),\(y)")
}
