import Foundation
import SwellCairo
import SwellMotion
import SwellPlayback
import SwellScenes
import SwellTestSupport
import Testing

/// The snippets of docs/embedding.md, compiled and checked, so the guide stays true
/// (`ReadmeExampleTests.documentInSync` checks that every line of the guide is here or in the
/// GTK example).
@Suite("Embedding guide examples")
private struct EmbeddingGuideTests {
  @Test("a player drawn into an image, a pixel buffer and a Cairo context gives the same pixels")
  func drawTargets() throws {
    // docs/embedding.md: "A player"
    let scene = FileScene(file: .waterwave, options: SceneOptions())
    let player = ScenePlayer(scene: scene, motion: TiltMotionFeed(kind: .keyboard))
    let start = player.driver.motion.startTime
    let frame = try player.advance(toTimestamp: start + 1.5)

    // docs/embedding.md: "Into an image"
    let image = try ImageSurface(pixelWidth: 390, pixelHeight: 844)
    try player.draw(at: frame.targetTimestamp, into: image)

    // docs/embedding.md: "Into a pixel buffer"
    let (width, height) = (390, 844)
    let bytesPerRow = 4 * width  // any multiple of 4 that is at least 4 × width
    var pixels = [UInt8](repeating: 0, count: bytesPerRow * height)
    try pixels.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      let buffer = PixelBuffer(
        baseAddress: base, width: width, height: height, bytesPerRow: bytesPerRow)
      try player.draw(at: frame.targetTimestamp, into: buffer)
    }

    // docs/embedding.md: "Into a Cairo context"
    let target = try ImageSurface(pixelWidth: 390, pixelHeight: 844)
    let context = try CairoContext(surface: target)
    try player.draw(at: frame.targetTimestamp, in: context, pixelWidth: 390, pixelHeight: 844)

    // Memory order on a little-endian machine: B, G, R, A (a native-endian 0xAARRGGBB word).
    let corner = try #require(image.pixel(x: 0, y: 0))
    #expect(Array(pixels[0..<4]) == [corner.blue, corner.green, corner.red, corner.alpha])
    #expect(pixels[3] == 255, "the scene's background is opaque")
    for (x, y) in [(0, 0), (195, 422), (389, 843), (100, 700)] {
      let p = try #require(image.pixel(x: x, y: y))
      let i = y * bytesPerRow + 4 * x
      #expect(Array(pixels[i..<i + 4]) == [p.blue, p.green, p.red, p.alpha], "(\(x), \(y))")
      #expect(target.pixel(x: x, y: y) == p, "(\(x), \(y))")
    }
  }

  @Test("the host's frame times advance the player: later frames see later motion")
  func hostClock() throws {
    // docs/embedding.md: "Advanced by the host's clock"
    let scene = FileScene(file: .waterwave, options: SceneOptions())
    let script = try MotionScript(parsing: "hold 0.5s; tilt 30deg right over 0.5s; hold 1s")
    let manager = MotionManager(source: MotionScriptSource(script, rate: 100))
    let player = ScenePlayer(
      scene: scene, motion: ReplayMotionFeed(manager: manager, name: "script"))
    let image = try ImageSurface(pixelWidth: 195, pixelHeight: 422)
    let start = player.driver.motion.startTime
    var digests: [Data] = []
    for hostSeconds in [0.0, 0.25, 1.5] {
      let frame = try player.advance(toTimestamp: start + hostSeconds)
      try player.draw(at: frame.targetTimestamp, into: image)
      digests.append(image.withFramePixels { Data($0.bytes) })
    }
    #expect(player.currentTime.map { abs($0 - (start + 1.5)) < 1e-9 } == true)
    #expect(digests[2] != digests[0], "the tilted water draws other pixels")
  }

  @Test(
    "the README's path dependency resolves from a checkout in a folder not named swell",
    arguments: [("Swell", true), ("swell", true), ("elsewhere-checkout", false)])
  func dependencyIdentity(product package: String, resolves: Bool) throws {
    // README: "Add it to your package". A path dependency's identity is its folder's name
    // unless `name:` gives one; a URL's is the URL's last component without `.git` (`swell`).
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let line = try #require(
      readme.split(separator: "\n").first { $0.contains(".package(name:") && $0.contains("path:") })
    let dependency =
      try #require(line.firstRange(of: ".package(").map { line[$0.lowerBound...] })
      .components(separatedBy: "),")[0] + ")"
    let folder = try scratchFolder("dependency-identity")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("elsewhere-checkout"), withDestinationURL: packageRoot)
    let app = folder.appendingPathComponent("app")
    try FileManager.default.createDirectory(
      at: app.appendingPathComponent("Sources/app"), withIntermediateDirectories: true)
    try Data("import SwellMotion\n".utf8).write(
      to: app.appendingPathComponent("Sources/app/main.swift"))
    let manifest = """
      // swift-tools-version:6.0
      import PackageDescription
      let package = Package(
        name: "app",
        dependencies: [\(dependency.replacingOccurrences(of: "../swell", with: "../elsewhere-checkout"))],
        targets: [
          .executableTarget(
            name: "app", dependencies: [.product(name: "SwellMotion", package: "\(package)")])
        ])
      """
    try Data(manifest.utf8).write(to: app.appendingPathComponent("Package.swift"))
    // Loading the package graph checks every product's package; nothing is built.
    let r = try runProgram("swift", ["package", "--package-path", app.path, "show-dependencies"])
    #expect((r.status == 0) == resolves, "\(r.err)")
    if !resolves { #expect(r.err.contains("unknown package '\(package)'"), "\(r.err)") }
  }
}
