import Foundation
import Glibc
import SwellEvdev
import SwellMotion
import SwellTestSupport
import SwellTime
import Synchronization
import Testing

@testable import SwellSensors

/// Writes `struct input_event` bytes into a fake node's FIFO, as the kernel would deliver them.
private final class FIFOWriter {
  let fd: Int32

  /// Opens the FIFO for writing (a reader must have it open already: the source opens it
  /// without blocking when it is created).
  init(_ path: String) throws {
    // A reader that goes away must give EPIPE, not end the test process.
    signal(SIGPIPE, SIG_IGN)
    fd = open(path, O_WRONLY | O_NONBLOCK)
    if fd < 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  }

  func write(
    _ events: [(seconds: Int64, microseconds: Int64, type: UInt16, code: UInt16, value: Int32)]
  ) {
    let bytes = inputEventBytes(events)
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if n > 0 { offset += n } else { usleep(1000) }
    }
  }

  func close() { _ = Glibc.close(fd) }
}

/// An ioctl seam answering `EVIOCGABS` from a fake device's published ranges and resolutions and
/// a mutable "current state" (what the kernel would return after a `SYN_DROPPED`).
private final class FakeAxes: Sendable {
  let state: Mutex<[UInt16: EvdevAbsInfo]>

  init(_ device: FakeEvdevDevice) {
    var axes: [UInt16: EvdevAbsInfo] = [:]
    for a in device.axes {
      axes[a.code] = EvdevAbsInfo(
        value: a.value, minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz, flat: a.flat,
        resolution: a.resolution)
    }
    state = Mutex(axes)
  }

  func set(_ code: UInt16, _ value: Int32) { state.withLock { $0[code]?.value = value } }

  var io: EvdevDeviceIO {
    EvdevDeviceIO(
      absInfo: { _, code in
        let info = self.state.withLock { $0[code] }
        return (info, info == nil ? EINVAL : 0)
      },
      useMonotonicClock: { _ in ENOTTY })
  }
}

private func openSource(
  _ tree: FakeEvdevTree, _ axes: FakeAxes, device: String? = nil,
  system: SystemCalls = .live, clock: MonotonicClock = .continuous
) throws -> EvdevSource {
  var c = EvdevSourceConfiguration()
  c.sysfsRoot = tree.sysfs
  c.devRoot = tree.dev
  c.device = device
  c.reconnectInterval = 0.05
  return try EvdevSource(configuration: c, clock: clock, system: system, io: axes.io)
}

/// The next `n` samples, failing the test after 30 s of nothing.
private func samples(_ source: EvdevSource, _ n: Int) async throws -> [IMUSample] {
  var out: [IMUSample] = []
  let deadline = TestDeadline(seconds: 30)
  while out.count < n {
    try #require(!deadline.hasPassed, "only \(out.count) of \(n) samples")
    if case .sample(let s)? = try await source.next() { out.append(s) }
  }
  return out
}

private let g = 9.80665
private let degree = Double.pi / 180

@Suite("evdev source: discovery, FIFO decoding, resync, hot-plug, permissions")
private struct EvdevSourceTests {
  static let families: [(FakeEvdevDevice, EvdevDriverFamily)] = [
    (.dualSense, .dualSense), (.dualShock4, .dualShock4), (.switchPro, .switchPro),
    (.joyConLeft, .joyConLeft), (.joyConRight, .joyConRight), (.steamDeck, .steamDeck),
  ]

  @Test(
    "discovery finds the motion node by INPUT_PROP_ACCELEROMETER, pairs its pad and knows its family",
    arguments: families)
  func discovery(device: FakeEvdevDevice, family: EvdevDriverFamily) throws {
    let tree = try FakeEvdevTree()
    // A keyboard first, then the pad's gamepad node and its motion node.
    var keyboard = FakeEvdevDevice.dualSense.gamepad("AT Translated Set 2 keyboard")
    keyboard.uniq = ""
    keyboard.phys = "isa0060/serio0/input0"
    try tree.add(0, keyboard, fifo: false)
    try tree.addPad(4, device)
    let nodes = try EvdevDiscovery(sysfsRoot: tree.sysfs, devRoot: tree.dev).motionNodes()
    try #require(nodes.count == 1)
    #expect(nodes[0].id == "event4")
    #expect(nodes[0].devicePath == tree.node(4))
    #expect(nodes[0].name == device.name)
    #expect(nodes[0].pad?.name == device.padName)
    #expect(nodes[0].pad?.id == "event3")
    let axes = FakeAxes(device)
    let source = try openSource(tree, axes)
    #expect(source.family == family)
    #expect(source.name == "evdev:" + device.name)
    // Units come from the resolutions the node reports.
    #expect(source.deviceDescription.absoluteAxes[0]?.resolution == device.axes[0].resolution)
    #expect(source.deviceDescription.absoluteAxes[3]?.resolution == device.axes[3].resolution)
  }

  @Test("a DualShock 3 (an accelerometer alone): no gyroscope, samples on the event clock")
  func dualShock3() async throws {
    let tree = try FakeEvdevTree()
    try tree.addPad(6, .dualShock3)
    let source = try openSource(tree, FakeAxes(.dualShock3))
    #expect(source.family == .dualShock3 && !source.hasGyroscope)
    let writer = try FIFOWriter(tree.node(6))
    defer { writer.close() }
    // hid-sony: 113 per g; at rest face up SDL's y (ABS_Y) reads 1 g. No MSC_TIMESTAMP.
    writer.write(motionFrame(time: 2_000_000, axes: [(0, 0), (1, 113), (2, 0)]))
    writer.write(motionFrame(time: 2_010_000, axes: [(0, 57)]))
    let s = try await samples(source, 2)
    #expect(abs(s[0].accelerometer.z - g) < 1e-9 && abs(s[0].accelerometer.x) < 1e-9)
    #expect(abs(s[1].accelerometer.x - 57 * g / 113) < 1e-9)
    #expect(s.allSatisfy { $0.gyroscope == .zero })
    #expect(abs((s[1].timestamp - s[0].timestamp) - 0.01) < 1e-9)
    await source.stop()
  }

  @Test("a name part, eventN or a path picks the node; an unknown one is named")
  func selection() throws {
    let tree = try FakeEvdevTree()
    try tree.addPad(3, .dualSense)
    try tree.addPad(7, .steamDeck)
    let d = EvdevDiscovery(sysfsRoot: tree.sysfs, devRoot: tree.dev)
    let nodes = try d.motionNodes()
    #expect(try d.select(from: nodes, matching: "steam deck").id == "event7")
    #expect(try d.select(from: nodes, matching: "event3").id == "event3")
    #expect(try d.select(from: nodes, matching: "/dev/input/event7").id == "event7")
    #expect(try d.select(from: nodes, matching: nil).id == "event3")
    let unknown = Result { () throws(EvdevError) in try d.select(from: nodes, matching: "wiimote") }
    guard case .failure(let error) = unknown else {
      Issue.record("an unknown name was accepted")
      return
    }
    #expect(error.message.contains("wiimote"), "\(error.message)")
  }

  @Test("frames from the FIFO become samples in m/s² and rad/s in the device frame (DualSense)")
  func decodesFIFO() async throws {
    let tree = try FakeEvdevTree()
    try tree.addPad(5, .dualSense)
    let axes = FakeAxes(.dualSense)
    let source = try openSource(tree, axes)
    let writer = try FIFOWriter(tree.node(5))
    defer { writer.close() }
    // hid-playstation: 8192 per g, 1024 per °/s; MSC_TIMESTAMP after the axes, 4000 µs apart.
    writer.write(
      motionFrame(
        time: 1_000_000, axes: [(0, 8192), (1, 0), (2, -8192), (3, 1024), (4, 0), (5, 0)],
        deviceMicroseconds: 10_000))
    // Only ABS_RZ changes: every other axis keeps its value.
    writer.write(motionFrame(time: 1_004_100, axes: [(5, -2048)], deviceMicroseconds: 14_000))
    let s = try await samples(source, 2)
    // Device = (x, −z, y) of the node's axes (SDL's controller frame to Swell's).
    #expect(abs(s[0].accelerometer.x - g) < 1e-9)
    #expect(abs(s[0].accelerometer.y - g) < 1e-9)
    #expect(abs(s[0].accelerometer.z) < 1e-9)
    #expect(abs(s[0].gyroscope.x - degree) < 1e-12)
    #expect(abs(s[1].accelerometer.x - g) < 1e-9 && abs(s[1].accelerometer.y - g) < 1e-9)
    #expect(abs(s[1].gyroscope.x - degree) < 1e-12)
    #expect(abs(s[1].gyroscope.y - 2 * degree) < 1e-12)
    // The device clock's spacing, not the event times'.
    #expect(abs((s[1].timestamp - s[0].timestamp) - 0.004) < 1e-9)
    #expect(source.statistics.frames == 2)
    await source.stop()
  }

  @Test(
    "SYN_DROPPED: the rest of the frame is discarded, every axis is re-read and the loss counted")
  func resynchronises() async throws {
    let tree = try FakeEvdevTree()
    try tree.addPad(2, .switchPro)
    let axes = FakeAxes(.switchPro)
    let source = try openSource(tree, axes)
    let writer = try FIFOWriter(tree.node(2))
    defer { writer.close() }
    // hid-nintendo: 4096 per g; device = (−y, x, z).
    writer.write(
      motionFrame(time: 2_000_000, axes: [(0, 0), (1, 0), (2, 4096)], deviceMicroseconds: 0))
    _ = try await samples(source, 1)
    // Events were lost: the kernel's state is now x = 4096 (1 g toward the triggers).
    axes.set(0, 4096)
    axes.set(2, 0)
    writer.write([
      (2, 5000, 3, 1, 999), (2, 5000, 0, 3, 0),  // a partial frame, then SYN_DROPPED
      (2, 5000, 3, 1, 777), (2, 5000, 0, 0, 0),  // discarded up to this SYN_REPORT
    ])
    // The next frame changes only the gyroscope: the accelerometer comes from the re-read state.
    writer.write(motionFrame(time: 2_015_000, axes: [(3, 14247)], deviceMicroseconds: 15_000))
    let s = try await samples(source, 1)
    #expect(abs(s[0].accelerometer.y - g) < 1e-9, "\(s[0].accelerometer)")
    #expect(abs(s[0].accelerometer.x) < 1e-9 && abs(s[0].accelerometer.z) < 1e-9)
    #expect(abs(s[0].gyroscope.y - degree) < 1e-9)
    #expect(source.statistics.droppedSynchronizations == 1)
    await source.stop()
  }

  @Test("unplugged: a transient error; plugged in again under another eventN: samples resume")
  func hotPlug() async throws {
    let tree = try FakeEvdevTree()
    try tree.addPad(4, .dualShock4)
    let axes = FakeAxes(.dualShock4)
    let source = try openSource(tree, axes)
    let first = try FIFOWriter(tree.node(4))
    first.write(motionFrame(time: 1_000, axes: [(0, 0), (1, 8192), (2, 0)], deviceMicroseconds: 0))
    _ = try await samples(source, 1)
    // Unplug: the writer goes away (end of stream) and the nodes vanish.
    first.close()
    try tree.remove(4)
    try tree.remove(3)
    var transient = false
    do {
      while true { _ = try await source.next() }
    } catch let e as MotionSourceError {
      transient = e.isTransient
      #expect(e.message.contains("waiting for the controller to return"), "\(e.message)")
    }
    #expect(transient)
    // Replugged as event9 (same uniq): the source finds it and goes on.
    try tree.addPad(9, .dualShock4)
    let reader = Task { try await samples(source, 1) }
    var second: FIFOWriter?
    let deadline = TestDeadline(seconds: 30)
    while second == nil, !deadline.hasPassed {
      second = try? FIFOWriter(tree.node(9))  // ENXIO until the source has reopened the node
      if second == nil { usleep(10_000) }
    }
    let writer = try #require(second)
    defer { writer.close() }
    writer.write(motionFrame(time: 9_000, axes: [(0, 8192)], deviceMicroseconds: 4000))
    let s = try await reader.value
    #expect(abs(s[0].accelerometer.x - g) < 1e-9)
    #expect(source.statistics.reconnections == 1)
    await source.stop()
  }

  @Test("no permission: one line naming the node, its group and mode, and the uaccess udev rule")
  func permission() throws {
    let tree = try FakeEvdevTree()
    try tree.addPad(6, .steamDeck)
    var system = SystemCalls.live
    let live = SystemCalls.live.open
    let dev = tree.dev
    system.open = { path, flags in
      path.hasPrefix(dev) ? (-1, EACCES) : live(path, flags)
    }
    do {
      _ = try openSource(tree, FakeAxes(.steamDeck), system: system)
      Issue.record("opened a node without permission")
    } catch let error as EvdevError {
      #expect(error.isPermissionDenied)
      #expect(!error.message.contains("\n"))
      #expect(error.message.hasPrefix("cannot open \(tree.node(6)): "), "\(error.message)")
      #expect(error.message.contains("(group root, mode 660)"), "\(error.message)")
      #expect(error.message.contains(EvdevError.udevRule), "\(error.message)")
      #expect(error.message.contains(EvdevError.udevRulePath), "\(error.message)")
      #expect(EvdevError.udevRule.contains("TAG+=\"uaccess\""))
    }
  }

  @Test("a node whose axes cannot be read names the axis; no motion node is a clear error")
  func unreadableAxes() throws {
    let tree = try FakeEvdevTree()
    do {
      _ = try openSource(tree, FakeAxes(.dualSense))
      Issue.record("opened with no motion node")
    } catch let error as EvdevError {
      #expect(error.message.contains("no"), "\(error.message)")
    }
    try tree.addPad(1, .dualSense)
    var c = EvdevSourceConfiguration()
    c.sysfsRoot = tree.sysfs
    c.devRoot = tree.dev
    // The real ioctl on a FIFO: ENOTTY.
    do {
      _ = try EvdevSource(configuration: c)
      Issue.record("a FIFO answered EVIOCGABS")
    } catch {
      #expect(error.message.contains("cannot read the range and resolution of axis 0"))
    }
    // With the axes given (an evemu description's A: lines), it opens.
    for a in FakeEvdevDevice.dualSense.axes {
      c.axisOverrides[a.code] = EvdevAbsInfo(
        value: 0, minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz, flat: a.flat,
        resolution: a.resolution)
    }
    let source = try EvdevSource(configuration: c)
    #expect(source.family == .dualSense)
  }

  @Test("the event tap's events replay through the decoder to the same samples")
  func tapReplays() async throws {
    let tree = try FakeEvdevTree()
    try tree.addPad(5, .joyConRight)
    let axes = FakeAxes(.joyConRight)
    axes.set(2, 4096)  // resting face up before the first frame
    let source = try openSource(tree, axes)
    let tapped = Mutex<(EvdevDeviceDescription?, [EvdevEvent])>((nil, []))
    source.setEventTap { d, e in tapped.withLock { $0 = (d, $0.1 + e) } }
    let writer = try FIFOWriter(tree.node(5))
    defer { writer.close() }
    var rng = SplitMix64(seed: 32)
    for k in 0..<20 {
      let changed = (0..<6).filter { _ in rng.next() % 2 == 0 }.map {
        (code: UInt16($0), value: Int32(truncatingIfNeeded: Int64(rng.next() % 8000) - 4000))
      }
      writer.write(
        motionFrame(
          time: Int64(3_000_000 + 5000 * k), axes: changed.isEmpty ? [(4, 1)] : changed,
          deviceMicroseconds: UInt32(5000 * k)))
    }
    let live = try await samples(source, 20)
    await source.stop()
    let (description, events) = tapped.withLock { $0 }
    let replay = try EvemuRecording(description: #require(description), events: events)
      .samples()
    #expect(replay == live)
  }
}
