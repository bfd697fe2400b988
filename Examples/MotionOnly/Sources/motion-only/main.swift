// Device motion with SwellMotion alone: a MotionManager over scripted motion and over a replayed
// recording, started, stopped and started again as an iOS app starts and stops
// CMMotionManager's updates. Prints the number of updates each sequence delivers.
//
//   swift run --package-path Examples/MotionOnly motion-only
//   motion-only --interrupt-while-writing FOLDER
//
// The second form shows Ctrl-C cleanup without the renderer: it starts writing FOLDER/motion.csv,
// interrupts itself with SIGINT, and SwellFiles' signal cleanup removes the unfinished file and
// exits with 130, leaving FOLDER as it was.

import Foundation
import SwellFiles
import SwellMotion

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--interrupt-while-writing" {
  OutputFiles.installSignalCleanup(programName: "motion-only")
  let writer = try AtomicFileWriter(url: URL(fileURLWithPath: arguments[2] + "/motion.csv"))
  try writer.write("timestamp,x,y,z\n")
  // Unbuffered: the process ends in the signal's watcher thread, not through `exit`.
  FileHandle.standardOutput.write(Data("writing \(arguments[2])/motion.csv\n".utf8))
  kill(getpid(), SIGINT)
  // The signal's watcher thread removes the temporary file and exits the process.
  while true { sleep(1) }
}

// Every fused sample of scripted motion, and the tilt of the device from its gravity.
let script = try MotionScript(parsing: "hold 0.5s; tilt 30deg right over 1s; hold 0.5s")
let scripted = MotionManager(source: MotionScriptSource(script, rate: 50))
var last: DeviceMotion?
var count = 0
for try await motion in scripted.deviceMotionSamples() {
  last = motion
  count += 1
}
guard let last else { exit(1) }
let tilt = atan2(last.gravity.x, -last.gravity.y) * 180 / .pi
print("samples \(count), final tilt \(String(format: "%.1f", tilt)) degrees")

// A recording in memory: 2,704 raw samples at 100 Hz of a device lying face up, turning slowly
// about its z axis.
let samples = (0..<2704).map { i in
  IMUSample(
    timestamp: Double(i) / 100, gyroscope: .init(0, 0, 0.3), accelerometer: .init(0, 0, 9.80665))
}
let recording = MotionRecording(name: "turning", format: .rawIMU, content: .samples(samples))

/// The number of `deviceMotionUpdates` until they end.
func updates(_ manager: MotionManager) async throws -> Int {
  var n = 0
  for try await _ in manager.deviceMotionUpdates(using: .xArbitraryZVertical) { n += 1 }
  return n
}

// 1. deviceMotionUpdates alone.
let alone = MotionManager(source: RecordingSource(recording))
print("deviceMotionUpdates alone: \(try await updates(alone)) of \(recording.count)")

// 2. Start and stop device motion, then deviceMotionUpdates: a new run replays the recording.
let restarted = MotionManager(source: RecordingSource(recording))
restarted.startDeviceMotionUpdates(using: .xArbitraryZVertical)
restarted.stopDeviceMotionUpdates()
print("start, stop, deviceMotionUpdates: \(try await updates(restarted)) of \(recording.count)")

// 3. Start and stop accelerometer updates, then device motion.
let raw = MotionManager(source: RecordingSource(recording))
raw.startAccelerometerUpdates()
raw.stopAccelerometerUpdates()
print(
  "accelerometer start, stop, deviceMotionUpdates: \(try await updates(raw)) of \(recording.count)")

// 4. The same as 2 on a replay paced at recorded speed (the first 0.3 s of the recording).
let short = MotionRecording(
  name: "turning-0.3s", format: .rawIMU, content: .samples(Array(samples.prefix(30))))
let paced = MotionManager(source: RecordingSource(short, pacedBy: ContinuousClock()))
paced.startDeviceMotionUpdates(using: .xArbitraryZVertical)
paced.stopDeviceMotionUpdates()
print("paced: start, stop, deviceMotionUpdates: \(try await updates(paced)) of \(short.count)")
