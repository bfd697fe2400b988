import Foundation
import SwellGeometry
import SwellRecordings
import SwellTestSupport
import Testing

@Suite("swell fuse on evemu recordings")
private struct EvemuFuseTests {
  /// One evemu fixture per driver family (Tests/SwellEvdevTests/Fixtures) and its frame count.
  static let fixtures: [(String, Int)] = [
    ("dualsense.evemu", 250), ("dualshock4-playstation.evemu", 250),
    ("dualshock4-sony.evemu", 250), ("switch-pro.evemu", 200), ("joycon-left.evemu", 200),
    ("joycon-right.evemu", 200), ("steam-deck.evemu", 250),
  ]

  @Test(
    "every family's recording fuses: gravity (0, 0, -1) at rest face up",
    arguments: 0..<EvemuFuseTests.fixtures.count)
  func fuses(_ index: Int) throws {
    let (name, frames) = Self.fixtures[index]
    let input = packageRoot.appendingPathComponent("Tests/SwellEvdevTests/Fixtures/\(name)")
    let folder = try scratchFolder("evemu-fuse")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("motion.csv")
    let r = try runSwell(["fuse", input.path, "-o", output.path])
    #expect(r.status == 0, "\(r.err)")
    #expect(
      r.out
        == "fused \(frames) samples (6D, xArbitraryZVertical) into \(frames) rows: \(output.path)\n"
    )
    let motions = try DeviceMotionCSV.read(from: output).motions
    try #require(motions.count == frames)
    // Every frame but the last (a probe with distinct values on each axis) is at rest face up,
    // turning about the vertical for a quarter of a second: gravity stays straight down −z.
    for m in motions.dropLast() {
      #expect(isApproximatelyEqual(m.gravity, Vector3(0, 0, -1), tolerance: 1e-6), "\(name)")
    }
    // The turn: +30 °/s about the device's z, in rad/s.
    let turning = motions[frames / 3].rotationRate
    #expect(abs(turning.z - 30 * Double.pi / 180) < 1e-3, "\(name): \(turning)")
  }
}
