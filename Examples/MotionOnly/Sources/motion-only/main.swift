// Device motion from scripted motion, with SwellMotion alone: every fused sample through a
// MotionManager, and the tilt of the device from its gravity.
//
//   swift run --package-path Examples/MotionOnly motion-only

import Foundation
import SwellMotion

let script = try MotionScript(parsing: "hold 0.5s; tilt 30deg right over 1s; hold 0.5s")
let manager = MotionManager(source: MotionScriptSource(script, rate: 50))
var last: DeviceMotion?
var count = 0
for try await motion in manager.deviceMotionSamples() {
  last = motion
  count += 1
}
guard let last else { exit(1) }
let tilt = atan2(last.gravity.x, -last.gravity.y) * 180 / .pi
print("samples \(count), final tilt \(String(format: "%.1f", tilt)) degrees")
