import Foundation
import SwellGeometry
import SwellMotion
import SwellTestSupport
import Synchronization
import Testing

@testable import SwellTool

@Suite("swell live: sensor source options")
private struct LiveSourceTests {
  @Test(
    "usage: sensor options need a sensor source; --loop needs a recording; --renderer is one of three, for a window",
    arguments: [
      ["live", "waterwave", "--listen", "0.0.0.0"],
      ["live", "waterwave", "--motion", "mouse", "--sysfs-root", "/x"],
      ["live", "waterwave", "--motion", "udp:5555", "--sysfs-root", "/x"],
      ["live", "waterwave", "--motion", "udp:99999"],
      ["live", "waterwave", "--motion", "iio", "--listen", "0.0.0.0"],
      ["live", "waterwave", "--motion", "iio", "--mode", "fast"],
      ["live", "waterwave", "--motion", "keyboard", "--loop"],
      ["live", "waterwave", "--motion", "udp:5555", "--reference-frame", "north"],
      ["live", "waterwave", "--renderer", "vulkan"],
      ["live", "waterwave", "--renderer", "software", "--terminal"],
    ])
  func usage(arguments: [String]) async throws {
    let r = try await LiveTool.run(arguments)
    #expect(r.status == 64, "\(arguments): \(r.stderr)")
    #expect(r.stderr.hasPrefix("swell live: "))
    #expect(r.stderr.split(separator: "\n").count == 1)
  }

  @Test("iio: a missing sysfs tree fails with one line naming it")
  func iioMissing() async throws {
    let r = try await LiveTool.run([
      "live", "waterwave", "--motion", "iio", "--sysfs-root", "/nonexistent-swell-iio",
    ])
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("swell live: "))
    #expect(r.stderr.contains("/nonexistent-swell-iio"))
    #expect(r.stderr.split(separator: "\n").count == 1)
  }
}
