import Foundation
import SwellTestSupport
import Testing

/// The water's `transform.rotation.z` in each frame of a `--trace-out` CSV, with its time.
private func waterTilts(_ path: String) throws -> [(time: Double, tilt: Double)] {
  let text = try String(contentsOfFile: path, encoding: .utf8)
  var lines = text.split(separator: "\n").map(String.init)
  let header = lines.removeFirst().split(separator: ",").map(String.init)
  let column = try #require(header.firstIndex(of: "water.transform.rotation.z"))
  return try lines.map { line in
    let fields = line.split(separator: ",").map(String.init)
    return (try #require(Double(fields[0])), try #require(Double(fields[column])))
  }
}

private func tracePath(_ name: String) -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent(
    "swell-reduce-motion-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name).csv"
  ).path
}

/// A scripted turn of 30° in the screen's plane: the water, kept level with the world, turns
/// −30° within the 1 s tilt animation after the turn.
private let script = "script:tilt 30deg right over 0.2s; hold 30s"
private let thirtyDegrees = -30 * Double.pi / 180

/// `swell live` follows the desktop's Reduce Motion: the portal's setting on a private session
/// bus, served by a fake portal written against libdbus (needs DISPLAY, as CI's xvfb-run gives).
@Suite("swell live: the desktop's Reduce Motion over a private bus (needs DISPLAY)")
private struct ReduceMotionToolTests {
  static let appearance = "org.freedesktop.appearance"

  /// Runs the scripted turn for `frames` frames at 30 fps and returns the water's tilts.
  private static func run(
    _ extra: [String], bus: String, frames: Int = 75,
    whileRunning: (@Sendable (Process) throws -> Void)? = nil
  ) async throws -> (status: Int32, stderr: String, tilts: [(time: Double, tilt: Double)]) {
    let trace = tracePath("live")
    defer { unlink(trace) }
    let r = try await LiveTool.run(
      [
        "live", "waterwave", "--motion", script, "--size", "195x422@1", "--fps", "30",
        "--frames", "\(frames)", "--trace-out", trace,
      ] + extra, environment: ["DBUS_SESSION_BUS_ADDRESS": bus], whileRunning: whileRunning)
    return (r.status, r.stderr, r.status == 0 ? try waterTilts(trace) : [])
  }

  @Test(
    "the desktop's setting at start, and the flags that override it",
    arguments: [
      // (portal's reduced-motion, flags, whether the water stays level)
      (UInt32(1), [String](), true),
      (1, ["--no-reduce-motion"], false),
      (0, [], false),
      (0, ["--reduce-motion"], true),
    ])
  func atStart(portalValue: UInt32, flags: [String], staysLevel: Bool) async throws {
    let bus = try PrivateSessionBus()
    let portal = try FakePortal(
      address: bus.address,
      settings: [FakePortal.key(Self.appearance, "reduced-motion"): .unsigned(portalValue)])
    defer { portal.stop() }
    let r = try await Self.run(flags, bus: bus.address)
    #expect(r.status == 0, "\(r.stderr)")
    let last = try #require(r.tilts.last)
    #expect(last.time > 2, "the turn and its 1 s animation are over")
    if staysLevel {
      #expect(r.tilts.allSatisfy { $0.tilt == 0 }, "the water never moves")
    } else {
      #expect(abs(last.tilt - thirtyDegrees) < 1.5 * .pi / 180, "tilt \(last.tilt * 180 / .pi)°")
    }
    // The tool says why the scene stays still only when the desktop asked for it.
    let noted = r.stderr.contains("the desktop asks for reduced motion")
    #expect(noted == (portalValue == 1 && flags.isEmpty), "\(r.stderr)")
    // --no-reduce-motion and --reduce-motion settle it without asking the desktop.
    #expect((portal.calls.load(ordering: .relaxed) > 0) == flags.isEmpty)
  }

  @Test("no session bus, and a bus without a portal, are full motion without a word")
  func noDesktop() async throws {
    let folder = try scratchFolder("nobus")
    let bus = try PrivateSessionBus()
    for address in ["unix:path=" + folder.path + "/absent", bus.address] {
      let r = try await Self.run([], bus: address)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.isEmpty, "\(r.stderr)")
      let last = try #require(r.tilts.last)
      #expect(abs(last.tilt - thirtyDegrees) < 1.5 * .pi / 180, "tilt \(last.tilt * 180 / .pi)°")
    }
  }

  @Test("a change of the desktop's setting while the view runs is followed at once")
  func followsChange() async throws {
    let bus = try PrivateSessionBus()
    let portal = try FakePortal(
      address: bus.address,
      settings: [FakePortal.key(Self.appearance, "reduced-motion"): .unsigned(1)])
    defer { portal.stop() }
    // Once the tool has read the setting and its window is up (on a loaded machine the window
    // can take over a second after the read, and the frames' clock starts with it), let the
    // view run reduced for 3 s (past the turn and its animation), then turn Reduce Motion off.
    let r = try await Self.run([], bus: bus.address, frames: 210) { process in
      _ = waitFor(seconds: 60) { portal.calls.load(ordering: .relaxed) > 0 }
      _ = try waitFor(seconds: 60) {
        let visible = try spawnProgram(
          "xdotool", ["search", "--onlyvisible", "--pid", "\(process.processIdentifier)"])
        return !visible.isEmpty || !process.isRunning
      }
      usleep(3_000_000)
      portal.change(Self.appearance, "reduced-motion", to: .unsigned(0))
    }
    #expect(r.status == 0, "\(r.stderr)")
    let tilts = r.tilts
    // While reduced, the water stayed level through and after the turn ...
    #expect(tilts.contains { $0.time > 1.3 && $0.tilt == 0 }, "reduced after the turn")
    let firstMoving = try #require(tilts.firstIndex { $0.tilt != 0 }, "the water moved")
    #expect(tilts[..<firstMoving].allSatisfy { $0.tilt == 0 })
    // ... and once the desktop let it move, it turned to the device's 30° within about 1 s.
    let last = try #require(tilts.last)
    #expect(last.time - tilts[firstMoving].time > 1.2, "frames after the change: \(last.time)")
    #expect(abs(last.tilt - thirtyDegrees) < 1.5 * .pi / 180, "tilt \(last.tilt * 180 / .pi)°")
  }

  @Test("--reduce-motion and --no-reduce-motion exclude each other (exit 64)")
  func flagsExclude() throws {
    let r = try runSwell(["live", "waterwave", "--reduce-motion", "--no-reduce-motion"])
    #expect(r.status == 64)
    #expect(r.err.contains("--reduce-motion and --no-reduce-motion exclude each other"))
  }
}
