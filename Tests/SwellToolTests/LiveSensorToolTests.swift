import Foundation
import Glibc
import SwellTestSupport
import Synchronization
import Testing

/// Sends one JSON line per datagram to 127.0.0.1:`port` every 5 ms from a thread until
/// stopped; `t` is this machine's monotonic uptime, as a phone would send its own clock.
private final class UDPSender: Sendable {
  private let stopped = Atomic<Bool>(false)
  private let done = DispatchSemaphore(value: 0)

  init(port: UInt16, accelerometer: [Double], intervalMicroseconds: UInt32 = 5000) {
    let thread = Thread { [self] in
      defer { done.signal() }
      let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
      guard fd >= 0 else { return }
      defer { close(fd) }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let a = accelerometer.map { "\($0)" }.joined(separator: ", ")
      while !stopped.load(ordering: .acquiring) {
        let line =
          "{\"t\": \(ProcessInfo.processInfo.systemUptime), \"gyro\": [0, 0, 0], "
          + "\"accel\": [\(a)]}"
        let bytes = Array(line.utf8)
        _ = withUnsafePointer(to: &address) { p in
          p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
            bytes.withUnsafeBytes {
              sendto(fd, $0.baseAddress, $0.count, 0, sa, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
          }
        }
        usleep(intervalMicroseconds)
      }
    }
    thread.start()
  }

  func stop() {
    stopped.store(true, ordering: .releasing)
    done.wait()
  }
}

/// Reads a `--trace-out` CSV: the header and the rows.
private func readTrace(_ path: String) throws -> (header: [String], rows: [[Double]]) {
  let text = try String(contentsOfFile: path, encoding: .utf8)
  var lines = text.split(separator: "\n").map(String.init)
  let header = lines.removeFirst().split(separator: ",").map(String.init)
  let rows = try lines.map { line in
    try line.split(separator: ",").map { try #require(Double(String($0))) }
  }
  return (header, rows)
}

private func temporaryPath(_ name: String) -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent(
    "swell-live-sensor-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
  ).path
}

/// The upright pose turned 30° counter-clockwise: specific force (g·sin 30°, g·cos 30°, 0);
/// the water, kept level with the world, turns +30° (clockwise on screen, layer space).
private let tilt = 30 * Double.pi / 180

@Suite("swell live: sensor sources in a window (needs DISPLAY, as CI's xvfb-run gives)")
private struct LiveSensorToolTests {
  @Test("udp:PORT: JSON datagrams of a tilted pose tilt the water; --trace-out has every frame")
  func udpTilt() async throws {
    let port = UInt16.random(in: 30_000...60_000)
    let sender = UDPSender(port: port, accelerometer: [9.81 * sin(tilt), 9.81 * cos(tilt), 0])
    defer { sender.stop() }
    let trace = temporaryPath("udp.csv")
    defer { unlink(trace) }
    let r = try await LiveTool.run([
      "live", "waterwave", "--motion", "udp:\(port)", "--size", "195x422@1", "--frames", "90",
      "--stats", "--trace-out", trace, "--hud",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try LiveTool.stats(r.stdout)["frames"] == 90)
    let (header, rows) = try readTrace(trace)
    #expect(header.first == "time")
    let column = try #require(header.firstIndex(of: "water.transform.rotation.z"))
    #expect(rows.count == 90)
    let times = rows.map { $0[0] }
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "frame times increase")
    let last = try #require(rows.last)[column]
    #expect(abs(last - tilt) < 1.5 * .pi / 180, "water tilt \(last * 180 / .pi)°, want 30°")
  }

  @Test("udp sending the accelerometer in g: the view runs and says the stream's unit is wrong")
  func udpInG() async throws {
    let port = UInt16.random(in: 30_000...60_000)
    let sender = UDPSender(port: port, accelerometer: [0, 1, 0])
    defer { sender.stop() }
    let r = try await LiveTool.run([
      "live", "waterwave", "--motion", "udp:\(port)", "--size", "195x422@1", "--fps", "30",
      "--frames", "120",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stderr.split(separator: "\n").filter { $0.contains("look like g, not m/s²") }
    #expect(lines.count == 1, "\(r.stderr)")
    #expect(lines.first?.hasPrefix("swell live: udp:") == true, "\(r.stderr)")
  }

  @Test("swell record udp: a stream in g is recorded as sent, with one warning naming the unit")
  func recordInG() throws {
    let port = UInt16.random(in: 30_000...60_000)
    let sender = UDPSender(port: port, accelerometer: [0, 1, 0])
    defer { sender.stop() }
    let out = temporaryPath("record-g.csv")
    defer { unlink(out) }
    let r = try runSwell(["record", "udp:\(port)", "--duration", "3", "-o", out])
    #expect(r.status == 0, "\(r.err)")
    let lines = r.err.split(separator: "\n").filter { $0.contains("look like g, not m/s²") }
    #expect(lines.count == 1, "\(r.err)")
    #expect(lines.first?.hasPrefix("swell record: udp:") == true, "\(r.err)")
    #expect(FileManager.default.fileExists(atPath: out))
  }

  @Test("udp at 100 Hz: --stats reports the motion-to-photon latency of the samples")
  func udpLatency() async throws {
    let port = UInt16.random(in: 30_000...60_000)
    let sender = UDPSender(
      port: port, accelerometer: [0, 9.81, 0], intervalMicroseconds: 10_000)
    defer { sender.stop() }
    let r = try await LiveTool.run([
      "live", "waterwave", "--motion", "udp:\(port)", "--size", "195x422@1", "--frames", "120",
      "--stats",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let s = try LiveTool.stats(r.stdout)
    let median = try #require(s["latency_ms_median"], "\(r.stdout)")
    let p99 = try #require(s["latency_ms_p99"])
    // Measured, not asserted against a machine's speed: only that they are real durations.
    #expect(median > 0 && median.isFinite)
    #expect(p99 >= median)
    // A recording has no arrival times: no latency keys.
    let recorded = try await LiveTool.run([
      "live", "waterwave", "--motion",
      LiveTool.fixtures.appendingPathComponent("live-roll.csv").path,
      "--size", "100x200@1", "--frames", "10", "--stats",
    ])
    #expect(try LiveTool.stats(recorded.stdout)["latency_ms_median"] == nil)
  }

  @Test("phone:URL that refuses connections: transient errors on stderr, the view runs on")
  func phoneTransient() async throws {
    let r = try await LiveTool.run([
      "live", "waterwave", "--motion", "phone:http://127.0.0.1:1", "--size", "100x200@1",
      "--frames", "60", "--stats",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try LiveTool.stats(r.stdout)["frames"] == 60)
    let lines = r.stderr.split(separator: "\n")
    #expect(!lines.isEmpty)
    #expect(
      lines.allSatisfy { $0.hasPrefix("swell live: phone:http://127.0.0.1:1: ") },
      "\(r.stderr)")
    #expect(r.stderr.contains("Connection refused"))
  }

  @Test("iio (polled, fake sysfs tree): a tilted accelerometer tilts the water")
  func iioPolledTilt() async throws {
    let tree = try FakeIIOTree()
    // Sensor frame; the mount matrix maps (x, y) to device (y, −x), scale 0.000598 m/s².
    let s = 0.000598
    let raw = [Int((-9.81 * cos(tilt) / s).rounded()), Int((9.81 * sin(tilt) / s).rounded()), 0]
    try tree.addBMI160(raw: raw + [0, 0, 0])
    let trace = temporaryPath("iio.csv")
    defer { unlink(trace) }
    let r = try await LiveTool.run([
      "live", "waterwave", "--motion", "iio:bmi160", "--sysfs-root", tree.sysfs, "--dev-root",
      tree.dev, "--mode", "polled", "--rate", "100", "--size", "195x422@1", "--frames", "60",
      "--trace-out", trace,
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let (header, rows) = try readTrace(trace)
    let column = try #require(header.firstIndex(of: "water.transform.rotation.z"))
    #expect(rows.count == 60)
    let last = try #require(rows.last)[column]
    #expect(abs(last - tilt) < 1.5 * .pi / 180, "water tilt \(last * 180 / .pi)°, want 30°")
  }

  @Test(
    "iio with a stable identity: a saved bias is used, a corrupt file is a warning, --no-saved-calibration reads neither"
  )
  func savedCalibration() async throws {
    let tree = try FakeIIOTree()
    try tree.addBMI160()
    try tree.attach("iio:device0", toParent: "platform/soc/i2c-1/1-0068")
    let state = try scratchFolder("live-calibration")
    defer { try? FileManager.default.removeItem(at: state) }
    let file = state.appendingPathComponent("swell/gyroscope-calibration.json")
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    func run(_ extra: [String]) async throws -> LiveTool.Result {
      try await LiveTool.run(
        [
          "live", "waterwave", "--motion", "iio:bmi160", "--sysfs-root", tree.sysfs, "--dev-root",
          tree.dev, "--mode", "polled", "--rate", "100", "--size", "195x422@1", "--frames", "20",
        ] + extra, environment: ["XDG_STATE_HOME": state.path])
    }
    // A value saved a minute ago for this device, in the documented format.
    let now = Date().timeIntervalSince1970
    let saved = """
      {"format": "swell-gyroscope-calibration", "version": 1, "devices": {
        "iio:bmi160@platform/soc/i2c-1/1-0068": {"bias_rad_s": [0.01, -0.005, 0.002],
          "sigma_rad_s": [0.0005, 0.0005, 0.0005], "saved_unix_s": \(now - 60),
          "rest_s": 10, "samples": 1000}}}
      """
    try Data(saved.utf8).write(to: file)
    let used = try await run([])
    #expect(used.status == 0, "\(used.stderr)")
    #expect(
      used.stderr.contains(
        "swell live: iio:bmi160: iio:bmi160@platform/soc/i2c-1/1-0068: using the gyroscope "
          + "bias saved 6"), "\(used.stderr)")
    #expect(used.stderr.contains(" s ago (0.573, -0.2865, 0.1146 deg/s)"), "\(used.stderr)")
    let off = try await run(["--no-saved-calibration"])
    #expect(off.status == 0, "\(off.stderr)")
    #expect(!off.stderr.contains("gyroscope"), "\(off.stderr)")
    try Data("{\"format\": ".utf8).write(to: file)
    let corrupt = try await run([])
    #expect(corrupt.status == 0, "\(corrupt.stderr)")
    #expect(corrupt.stderr.contains("saved gyroscope calibration ignored: not valid JSON"))
    let corruptOff = try await run(["--no-saved-calibration"])
    #expect(!corruptOff.stderr.contains("gyroscope"), "\(corruptOff.stderr)")
  }
}
