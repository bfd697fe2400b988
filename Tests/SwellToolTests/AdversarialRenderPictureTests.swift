import Foundation
import SwellRender
import SwellTestSupport
import Testing

// The pictures under motion nobody tuned for: the water surface measured from PNG pixels must
// agree with the traced `water.transform.rotation.z` at the same frame within 1°.

/// Starting poses: portrait, both landscapes, upside down, face up, face down, and exactly 45°.
private let poses = [
  "portrait", "landscape left", "landscape right", "portrait; tilt 180deg right over 0s",
  "flat", "flat; rotate 180deg about y over 0s", "portrait; tilt 45deg right over 0s",
  "portrait; tilt 45deg left over 0s",
]

/// A random script from a pose: turns about the screen normal and the device's y axis (no pitch
/// rate, so the flat water keeps amplitude 0 and the surface is a straight line).
private func randomScript(_ rng: inout SplitMix64) -> String {
  var steps = [poses[Int.random(in: 0..<poses.count, using: &rng)]]
  for _ in 0..<Int.random(in: 2...4, using: &rng) {
    let angle = Int.random(in: 1...120, using: &rng)
    let over = Double(Int.random(in: 0...6, using: &rng)) / 10
    switch Int.random(in: 0..<4, using: &rng) {
    case 0:
      steps.append("tilt \(angle)deg \(Bool.random(using: &rng) ? "left" : "right") over \(over)s")
    case 1:
      steps.append(
        "rotate \(angle)deg about \(Bool.random(using: &rng) ? "z" : "-z") over \(over)s")
    case 2:
      steps.append(
        "rotate \(angle / 3)deg about \(Bool.random(using: &rng) ? "y" : "-y") over \(over)s")
    default: steps.append("hold \(over)s")
    }
  }
  steps.append("hold 0.5s")
  return steps.joined(separator: "; ")
}

@Suite("adversarial: rendered water surface against the trace")
private struct AdversarialRenderPictureTests {
  /// Renders one frame of the flat blue water and measures its surface angle in degrees.
  private func measuredAngle(
    scene: String, script: String, frame: Int, fps: Int, out: String, _ comment: String
  ) throws -> Double? {
    let r = try runSwell([
      "render", scene, "--script", script, "--fps", "\(fps)", "--time",
      "\(Double(frame) / Double(fps))",
      "-o", out,
    ])
    try #require(r.status == 0, "\(comment): \(r.err)")
    let image = try ImageSurface.load(contentsOfPNGFile: out)
    guard let fit = waterSurfaceFit(image, columns: 4...(image.pixelWidth - 5)) else { return nil }
    #expect(
      fit.residual < 1.5, "\(comment): the surface is not a straight line (\(fit.residual) px)")
    return fit.degrees
  }

  @Test(
    "poses and seeded random turns: pixels and trace agree within 1° at random frames",
    arguments: 0..<6)
  func surfaceMatchesTrace(run: Int) throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SplitMix64(seed: seed)
    let folder = try scratchFolder("adversarial-picture")
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = try writeFile(
      flatBlueWaterScene(width: 160, height: 320), named: "f.json", in: folder)
    // Each run covers one pose for sure, then random ones.
    var script = randomScript(&rng)
    if run < poses.count { script = poses[run] + "; " + script }
    let fps = 30
    let table = try traceTable([scene, "--script", script, "--fps", "\(fps)"], "seed \(seed)")
    try checkAnyTrace(table, fps: Double(fps), "seed \(seed) \(script)")
    let tilt = try table.column("water.transform.rotation.z")
    let amplitude = try table.column("water.amplitude")
    var frames = [tilt.count - 1]
    for _ in 0..<2 { frames.append(Int.random(in: 0..<tilt.count, using: &rng)) }
    for frame in frames {
      let comment = "seed \(seed), script '\(script)', frame \(frame)"
      #expect(abs(amplitude[frame]) < 1e-9, "\(comment): amplitude \(amplitude[frame])")
      let out = folder.appendingPathComponent("f\(frame).png").path
      let measured = try #require(
        try measuredAngle(scene: scene, script: script, frame: frame, fps: fps, out: out, comment),
        "\(comment): no surface found")
      let traced = tilt[frame] * 180 / .pi
      #expect(abs(measured - traced) < 1, "\(comment): pixels \(measured)°, trace \(traced)°")
    }
  }

  @Test(
    "exactly 45° and beyond: the clamp shows in the pixels",
    arguments: [
      ("tilt 45deg right over 0.3s; hold 1.5s", -45.0),
      ("tilt 45deg left over 0.3s; hold 1.5s", 45),
      ("tilt 70deg right over 0.3s; hold 1.5s", -45), ("landscape right; hold 1.5s", -45),
      ("landscape left; hold 1.5s", 45), ("tilt 180deg right over 0s; hold 1.5s", 0),
    ])
  func clamp(script: String, degrees: Double) throws {
    let folder = try scratchFolder("adversarial-picture-clamp")
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = try writeFile(
      flatBlueWaterScene(width: 160, height: 320), named: "f.json", in: folder)
    let table = try traceTable([scene, "--script", script, "--fps", "20"])
    let tilt = try table.column("water.transform.rotation.z")
    let last = tilt.count - 1
    let out = folder.appendingPathComponent("c.png").path
    let measured = try #require(
      try measuredAngle(scene: scene, script: script, frame: last, fps: 20, out: out, script))
    #expect(abs(tilt[last] * 180 / .pi - measured) < 1, "\(script): trace vs pixels")
    #expect(abs(measured - degrees) < 1, "\(script): \(measured)° instead of \(degrees)°")
  }
}
