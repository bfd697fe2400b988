import Foundation
import Glibc
import SwellTestSupport
import Synchronization
import Testing

/// Plays a DualSense motion node into a fake tree's FIFO from a thread: a frame of all six axes
/// every 5 ms (`MSC_TIMESTAMP` after the axes, as hid-playstation sends it; event times on
/// CLOCK_MONOTONIC), holding the accelerometer values given, until stopped. It opens the FIFO
/// whenever a reader has it open, so it also plays to a source that reopens the node.
private final class PadPlayer: Sendable {
  private let stopped = Atomic<Bool>(false)
  private let done = DispatchSemaphore(value: 0)
  private let accelerometer: Mutex<[Int32]>
  private let path: Mutex<(node: String?, generation: Int)>
  /// Frames written so far.
  let frames = Atomic<Int>(0)

  /// Plays frames to `node`: the accelerometer's words, then (unless `accelerometerOnly`, as a
  /// DualShock 3 sends) zero gyroscope words and an `MSC_TIMESTAMP`.
  init(_ node: String, accelerometer: [Int32], accelerometerOnly: Bool = false) {
    // A reader that goes away must give EPIPE, not end the test process.
    signal(SIGPIPE, SIG_IGN)
    self.accelerometer = Mutex(accelerometer)
    path = Mutex((node, 0))
    let thread = Thread { [self] in
      defer { done.signal() }
      var fd: Int32 = -1
      var generation = 0
      var device: UInt32 = 0
      while !stopped.load(ordering: .acquiring) {
        let (node, current) = path.withLock { $0 }
        if current != generation {
          if fd >= 0 { close(fd) }
          fd = -1
          generation = current
        }
        if fd < 0 {
          // ENXIO until a reader has the FIFO open.
          if let node { fd = open(node, O_WRONLY | O_NONBLOCK) }
          if fd < 0 {
            usleep(5000)
            continue
          }
        }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let micros = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
        let a = self.accelerometer.withLock { $0 }
        let bytes = inputEventBytes(
          accelerometerOnly
            ? motionFrame(time: micros, axes: [(0, a[0]), (1, a[1]), (2, a[2])])
            : motionFrame(
              time: micros,
              axes: [(0, a[0]), (1, a[1]), (2, a[2]), (3, 0), (4, 0), (5, 0)],
              deviceMicroseconds: device))
        device &+= 5000
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EPIPE || n < 0 && errno == EBADF {
          close(fd)
          fd = -1
        } else if n > 0 {
          frames.add(1, ordering: .relaxed)
        }
        usleep(5000)
      }
      if fd >= 0 { close(fd) }
    }
    thread.start()
  }

  /// Holds other accelerometer values from the next frame on.
  func set(_ values: [Int32]) { accelerometer.withLock { $0 = values } }

  /// Unplugs: closes the FIFO (the reader sees the end of the stream) and pauses until
  /// ``replug(_:)``.
  func unplug() { path.withLock { $0 = (nil, $0.generation + 1) } }

  /// Plays to another node from now on.
  func replug(_ node: String) { path.withLock { $0 = (node, $0.generation + 1) } }

  func stop() {
    stopped.store(true, ordering: .releasing)
    done.wait()
  }
}

/// The DualSense's accelerometer words for a specific force in the device frame, in g: the node
/// reports SDL's controller frame, device = (x, −z, y) of it (docs/sensors.md), 8192 per g.
private func dualSenseWords(_ x: Double, _ y: Double, _ z: Double) -> [Int32] {
  [Int32((8192 * x).rounded()), Int32((8192 * z).rounded()), Int32((-8192 * y).rounded())]
}

private func waterRotations(_ path: String) throws -> [Double] {
  let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
  let header = lines[0].split(separator: ",").map(String.init)
  let column = try #require(header.firstIndex(of: "water.transform.rotation.z"))
  return lines.dropFirst().compactMap { Double(String($0.split(separator: ",")[column])) }
}

/// The fake DualSense on a tree, with its evemu description (the axes a FIFO cannot report).
private func dualSenseTree() throws -> (FakeEvdevTree, String) {
  let tree = try FakeEvdevTree()
  try tree.addPad(5, .dualSense)
  let axes = tree.root + "/dualsense.evemu"
  try FakeEvdevDevice.dualSense.evemuDescription.write(
    toFile: axes, atomically: true, encoding: .utf8)
  return (tree, axes)
}

@Suite("evdev from the command line: live, record to evemu, the doctor (fake trees)")
private struct EvdevToolTests {
  /// Needs DISPLAY, as CI's xvfb-run gives.
  @Test(
    "live waterwave --motion evdev: a tilted pad tilts the water; unplugged and replugged, it resumes"
  )
  func liveTiltAndReplug() async throws {
    let (tree, axes) = try dualSenseTree()
    let tilt = 30 * Double.pi / 180
    // Upright, turned 30°: specific force (g sin 30°, g cos 30°, 0), as the UDP test's pose.
    let player = PadPlayer(tree.node(5), accelerometer: dualSenseWords(sin(tilt), cos(tilt), 0))
    defer { player.stop() }
    let trace = tree.root + "/live.csv"
    let (sysfs, dev) = (tree.sysfs, tree.dev)
    let run = Task {
      try await LiveTool.run([
        "live", "waterwave", "--motion", "evdev:dualsense", "--input-sysfs-root", sysfs,
        "--input-dev-root", dev, "--input-axes", axes, "--size", "195x422@1", "--frames",
        "540", "--trace-out", trace,
      ])
    }
    // After a while, unplug; the pad comes back as event9, now tilted the other way. (Without
    // a display the view fails at once and nothing reads the node: the deadline ends the wait.)
    let deadline = TestDeadline(seconds: 60)
    while player.frames.load(ordering: .relaxed) < 300 {
      if deadline.hasPassed {
        let r = try await run.value
        Issue.record("no reader took 300 frames in 60 s; swell live: \(r.status) \(r.stderr)")
        return
      }
      try await Task.sleep(for: .milliseconds(10))
    }
    player.unplug()
    try tree.remove(5)
    try tree.remove(4)
    try await Task.sleep(for: .milliseconds(300))
    player.set(dualSenseWords(-sin(tilt), cos(tilt), 0))
    try tree.addPad(9, .dualSense)
    player.replug(tree.node(9))
    let r = try await run.value
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("waiting for the controller to return"), "\(r.stderr)")
    let rotations = try waterRotations(trace)
    #expect(rotations.count == 540)
    // Before the unplug the water leans 30° one way; after the replug it turns the other way.
    // (Gravity jumps by 60° with no rotation sensed, so the fusion converges at its
    // accelerometer gain, not at once: past halfway is what proves the samples resumed.)
    let before = try #require(rotations.max())
    let last = try #require(rotations.last)
    #expect(abs(before - tilt) < 2 * .pi / 180, "before: \(before * 180 / .pi)°")
    #expect(last < -tilt / 2, "after the replug: \(last * 180 / .pi)°")
  }

  /// Needs DISPLAY, as CI's xvfb-run gives.
  @Test("live waterwave --motion evdev on a DualShock 3 (no gyroscope) follows a tilt within 1.5 s")
  func liveDualShock3() async throws {
    let tree = try FakeEvdevTree()
    try tree.addPad(5, .dualShock3)
    let axes = tree.root + "/ds3.evemu"
    try FakeEvdevDevice.dualShock3.evemuDescription.write(
      toFile: axes, atomically: true, encoding: .utf8)
    // hid-sony's node is in SDL's frame at 113 per g: device = (x, −z, y) of it.
    func words(_ x: Double, _ y: Double, _ z: Double) -> [Int32] {
      [Int32((113 * x).rounded()), Int32((113 * z).rounded()), Int32((-113 * y).rounded())]
    }
    let tilt = 30 * Double.pi / 180
    let player = PadPlayer(tree.node(5), accelerometer: words(0, 1, 0), accelerometerOnly: true)
    defer { player.stop() }
    let trace = tree.root + "/live.csv"
    let (sysfs, dev) = (tree.sysfs, tree.dev)
    let run = Task {
      try await LiveTool.run([
        "live", "waterwave", "--motion", "evdev:playstation", "--input-sysfs-root", sysfs,
        "--input-dev-root", dev, "--input-axes", axes, "--size", "195x422@1", "--frames", "300",
        "--trace-out", trace,
      ])
    }
    // Upright and level for the first 100 frames read, then turned 30° in the screen's plane.
    let deadline = TestDeadline(seconds: 60)
    while player.frames.load(ordering: .relaxed) < 100 && !deadline.hasPassed {
      try await Task.sleep(for: .milliseconds(10))
    }
    player.set(words(sin(tilt), cos(tilt), 0))
    let r = try await run.value
    #expect(r.status == 0, "\(r.stderr)")
    let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    let header = lines[0].split(separator: ",").map(String.init)
    let column = try #require(header.firstIndex(of: "water.transform.rotation.z"))
    let rows = lines.dropFirst().map { $0.split(separator: ",") }
    let times = rows.compactMap { Double(String($0[0])) }
    let rotations = rows.compactMap { Double(String($0[column])) }
    try #require(rotations.count == 300 && times.count == 300)
    // The water starts to turn when the tilt arrives, and within 1.5 s (its 1 s animation and
    // the estimator's 0.15 s time constant) it leans the full 30°. A fusion filter fed a zero
    // gyroscope took about 7 s.
    let start = try #require(rotations.firstIndex { abs($0) > 0.5 * .pi / 180 }, "never turned")
    let settled = try #require(times.firstIndex { $0 >= times[start] + 1.5 }, "ended too soon")
    #expect(
      abs(abs(rotations[settled]) - tilt) < 2 * .pi / 180, "\(rotations[settled] * 180 / .pi)°")
    // The doctor says what the node has.
    let doctor = try runSwell([
      "sensors", "--sysfs-root", tree.root + "/no-iio", "--no-dsu", "--input-sysfs-root",
      tree.sysfs, "--input-dev-root", tree.dev, "--input-axes", axes, "--json", "--measure", "0",
    ])
    #expect(doctor.status == 0, "\(doctor.err)")
    #expect(doctor.out.contains("accelerometer 113 units per g"), "\(doctor.out)")
    #expect(doctor.out.contains("no gyroscope"), "\(doctor.out)")
  }

  @Test("record evdev -o pad.evemu keeps the events; fuse and load read them back as the pad moved")
  func recordRoundTrip() throws {
    let (tree, axes) = try dualSenseTree()
    // Lying face up: +1 g on the device's z.
    let player = PadPlayer(tree.node(5), accelerometer: dualSenseWords(0, 0, 1))
    defer { player.stop() }
    let out = tree.root + "/pad.evemu"
    let r = try runSwell([
      "record", "evdev", "--input-sysfs-root", tree.sysfs, "--input-dev-root", tree.dev,
      "--input-axes", axes, "--duration", "30", "--samples", "50", "-o", out,
    ])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.contains("recorded 50 samples (6D) from evdev:"), "\(r.out)")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.hasPrefix("# EVEMU 1.3\n"))
    #expect(text.contains("\nN: \(FakeEvdevDevice.dualSense.name)\n"))
    #expect(text.contains("\nI: 0003 054c 0ce6 8111\n"))
    #expect(text.contains("\nA: 00 -32768 32768 16 0 8192\n"), "\(text.prefix(900))")
    #expect(text.contains("\nA: 03 -2097152 2097152 16 0 1024\n"))
    #expect(text.contains(" 0003 0001 8192\n"), "ABS_Y: device +z (up out of the face) is +ABS_Y")
    // Read back: every sample at rest face up.
    let fused = tree.root + "/pad-motion.csv"
    let f = try runSwell(["fuse", out, "-o", fused])
    #expect(f.status == 0, "\(f.err)")
    let rows = try String(contentsOfFile: fused, encoding: .utf8).split(separator: "\n")
    #expect(rows.count >= 51, "\(rows.count) rows")
    let trace = try runSwell(["trace", "waterwave", "--motion", out, "--size", "195x422@1"])
    #expect(trace.status == 0, "\(trace.err)")
    // An evemu recording of a CSV source is refused before anything starts.
    let wrong = try runSwell(["record", "udp:0", "--duration", "1", "-o", tree.root + "/x.evemu"])
    #expect(wrong.status == 64, "\(wrong.err)")
    #expect(wrong.err.contains("an evemu recording keeps an evdev node's events"), "\(wrong.err)")
  }

  @Test("the doctor lists the pad's motion node with its pad, units and measured rate (--json)")
  func doctor() throws {
    let (tree, axes) = try dualSenseTree()
    let player = PadPlayer(tree.node(5), accelerometer: dualSenseWords(0, 0, 1))
    defer { player.stop() }
    let r = try runSwell([
      "sensors", "--sysfs-root", tree.root + "/no-iio", "--no-dsu", "--input-sysfs-root",
      tree.sysfs, "--input-dev-root", tree.dev, "--input-axes", axes, "--json", "--measure", "0.5",
    ])
    #expect(r.status == 0, "\(r.err)")
    let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
    let sensors = try #require(json?["sensors"] as? [[String: Any]])
    try #require(sensors.count == 1)
    let s = sensors[0]
    #expect(s["kind"] as? String == "evdev")
    #expect(s["id"] as? String == tree.node(5))
    #expect(s["pad"] as? String == FakeEvdevDevice.dualSense.padName)
    #expect((s["units"] as? String ?? "").contains("accelerometer 8192 units per g"))
    #expect((s["units"] as? String ?? "").contains("gyroscope 1024 units per °/s"))
    #expect((s["timestamps"] as? String ?? "").hasPrefix("hardware (MSC_TIMESTAMP); arrivals "))
    #expect((s["mountMatrix"] as? String ?? "").contains("dualSense"))
    let m = try #require(s["measurement"] as? [String: Any])
    #expect((m["samples"] as? Int ?? 0) > 10)
    #expect(abs((m["accelerometerMagnitude"] as? Double ?? 0) - 9.80665) < 1e-3)
    // The text form names the pad.
    let text = try runSwell([
      "sensors", "--sysfs-root", tree.root + "/no-iio", "--no-dsu", "--input-sysfs-root",
      tree.sysfs, "--input-dev-root", tree.dev, "--input-axes", axes, "--measure", "0",
    ])
    #expect(text.status == 0, "\(text.err)")
    #expect(text.out.hasPrefix("evdev  \(tree.node(5))  \(FakeEvdevDevice.dualSense.name)\n"))
    #expect(text.out.contains("  pad: \(FakeEvdevDevice.dualSense.padName)\n"), "\(text.out)")
  }

  @Test("a node this user cannot read: one line naming the node, its group and the udev rule")
  func permissionDenied() throws {
    let (tree, axes) = try dualSenseTree()
    // The nodes are root:root 0660 (as udev makes them root:input). Run swell as `nobody`
    // (setpriv, util-linux) when the tests run as root, who could open anything; else take the
    // permission away.
    chmod(tree.root, 0o755)
    chmod(axes, 0o644)
    let swell = try swellExecutable().path
    let arguments = [
      "record", "evdev", "--input-sysfs-root", tree.sysfs, "--input-dev-root", tree.dev,
      "--input-axes", axes, "--duration", "1", "-o", "/dev/null",
    ]
    let r: (status: Int32, out: String, err: String)
    if getuid() == 0 {
      r = try runProgram(
        "setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", swell] + arguments)
    } else {
      chmod(tree.node(5), 0)
      r = try runSwell(arguments)
    }
    #expect(r.status == 1, "\(r.err)")
    let lines = r.err.split(separator: "\n")
    #expect(lines.count == 1, "\(r.err)")
    #expect(r.err.contains("cannot open \(tree.node(5)): Permission denied"), "\(r.err)")
    #expect(r.err.contains("(group "), "\(r.err)")
    #expect(r.err.contains("TAG+=\"uaccess\""), "\(r.err)")
    #expect(r.err.contains("/etc/udev/rules.d/70-swell-motion.rules"), "\(r.err)")
  }
}
