import Foundation
import SwellEffects
import SwellTestSupport
import Testing

/// The last row of a `swell trace` CSV, by column name.
private func lastRow(_ csv: String) throws -> [String: Double] {
  let lines = csv.split(separator: "\n")
  let header = try #require(lines.first).split(separator: ",").map(String.init)
  let values = try #require(lines.last).split(separator: ",").map { Double($0) ?? .nan }
  #expect(values.count == header.count)
  return Dictionary(uniqueKeysWithValues: zip(header, values))
}

@Suite("--orientation on render, live and trace")
private struct OrientationCommandTests {
  private static let script =
    "hold 0.2s; rotate 20deg about y over 0.3s; rotate 10deg about x over 0.3s"

  @Test(
    "swell trace homescreen --orientation rotates the viewer offset as UIKit does",
    arguments: InterfaceOrientation.allCases)
  func traceRotatesTheOffset(orientation: InterfaceOrientation) throws {
    let base = ["homescreen", "--script", Self.script, "--fps", "30"]
    let portrait = try runSwell(["trace"] + base)
    #expect(portrait.status == 0, "\(portrait.err)")
    let turned = try runSwell(["trace"] + base + ["--orientation", orientation.rawValue])
    #expect(turned.status == 0, "\(turned.err)")
    let p = try lastRow(portrait.out)
    let t = try lastRow(turned.out)
    let h = try #require(p["offset.horizontal"])
    let v = try #require(p["offset.vertical"])
    #expect(abs(h) > 0.1 && abs(v) > 0.02, "the script must move both axes: \(p)")
    let want: (Double, Double) =
      switch orientation {
      case .portrait: (h, v)
      case .portraitUpsideDown: (-h, -v)
      case .landscapeLeft: (-v, h)
      case .landscapeRight: (v, -h)
      }
    #expect(try abs(#require(t["offset.horizontal"]) - want.0) < 1e-9, "\(t)")
    #expect(try abs(#require(t["offset.vertical"]) - want.1) < 1e-9, "\(t)")
  }

  @Test(
    "swell render --orientation turns the canvas: landscape is 2532 × 1170 px, portrait 1170 × 2532",
    arguments: [("portrait", 1170, 2532), ("landscapeRight", 2532, 1170)])
  func renderTurnsTheCanvas(name: String, width: Int, height: Int) throws {
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("swell-orientation-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("frame.png").path
    let r = try runSwell(["render", "waterwave", "--orientation", name, "--time", "0.1", "-o", out])
    #expect(r.status == 0, "\(r.err)")
    let png = try Data(contentsOf: URL(fileURLWithPath: out))
    try #require(png.count > 24)
    let be = { (at: Int) in png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    #expect(be(16) == width && be(20) == height)
  }

  @Test("a misspelled orientation is a usage error (exit 64) that lists the four names")
  func misspelled() throws {
    for command in ["render", "trace", "live"] {
      let r = try runSwell([command, "waterwave", "--orientation", "landscape"])
      #expect(r.status == 64, "\(command): \(r.err)")
      #expect(r.err.contains("portraitUpsideDown") && r.err.contains("'landscape'"), "\(r.err)")
    }
  }
}
