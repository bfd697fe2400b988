// A MotionManager client: prints the attitude of a recording, CoreMotion style.
//
//   swift run motion-attitude [RECORDING] [--interval SECONDS]
//
// RECORDING is any recording `swell fuse` reads (default: the phone recording bundled with
// Swell). The manager fuses the raw samples with Swell's own filter and pushes one update per
// interval of recorded time to an operation queue, as CMMotionManager does.

import Foundation
import SwellMotion
import SwellRecordings

var arguments = Array(CommandLine.arguments.dropFirst())
var interval = 0.5
if let i = arguments.firstIndex(of: "--interval"), i + 1 < arguments.count,
  let v = Double(arguments[i + 1])
{
  interval = v
  arguments.removeSubrange(i...(i + 1))
}
let path =
  arguments.first
  ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("../../Sources/SwellTool/Resources/sensorlogger-ios-rotation").path

let source: RecordingSource
do {
  source = try RecordingSource(contentsOf: URL(fileURLWithPath: path))
} catch {
  FileHandle.standardError.write(Data("motion-attitude: \(error)\n".utf8))
  exit(1)
}

let manager = MotionManager(source: source)
manager.deviceMotionUpdateInterval = interval
let queue = OperationQueue()
queue.maxConcurrentOperationCount = 1
print("time_s,roll_deg,pitch_deg,yaw_deg,gravity_x,gravity_y,gravity_z")
manager.startDeviceMotionUpdates(using: .xArbitraryZVertical, to: queue) { motion, error in
  if let error { FileHandle.standardError.write(Data("motion-attitude: \(error)\n".utf8)) }
  guard let m = motion else { return }
  let a = m.attitude
  let degrees = 180 / Double.pi
  print(
    String(
      format: "%.3f,%.1f,%.1f,%.1f,%.3f,%.3f,%.3f", m.timestamp, a.roll * degrees,
      a.pitch * degrees, a.yaw * degrees, m.gravity.x, m.gravity.y, m.gravity.z))
}
await manager.waitUntilUpdatesEnd()
// The handler calls already queued still run: wait for them from a plain thread.
await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
  Thread.detachNewThread {
    queue.waitUntilAllOperationsAreFinished()
    done.resume()
  }
}
