import Foundation
import SwellTestSupport
import Testing

/// GIF frame delays are whole hundredths of a second: a GIF must play at the speed it was
/// rendered for, so `swell render` caps GIFs at 50 frames per second.
@Suite("GIF frame rate")
private struct GIFFrameRateTests {
  @Test("a GIF without --fps renders at 50 fps and plays for the rendered duration")
  func defaultGIFPlaysInRealTime() throws {
    let folder = try scratchFolder("adversarial-gif-rate")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("w.gif").path
    let r = try runSwell([
      "render", "waterwave", "--duration", "1", "--size", "40x80@1", "-o", out,
      "--script", "hold 1s",
    ])
    #expect(r.status == 0, "\(r.err)")
    let probe = try #require(try probeVideo(out))
    #expect(probe.frames == 50)
    let d = try runProgram(
      "ffprobe",
      ["-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", out])
    let seconds = try #require(Double(d.out.trimmingCharacters(in: .whitespacesAndNewlines)))
    // 50 frames of 2/100 s each: exactly the rendered second, so a loop shows no frame twice.
    #expect(abs(seconds - 1.0) < 0.011, "plays for \(seconds) s")
  }

  @Test("a GIF asked for at more than 50 fps is a usage error, and no file is written")
  func fastGIFIsRefused() throws {
    let folder = try scratchFolder("adversarial-gif-rate")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("w.gif").path
    let r = try runSwell(["render", "waterwave", "--fps", "60", "--duration", "0.2", "-o", out])
    #expect(r.status == 64)
    #expect(r.err.split(separator: "\n").count == 1 && r.err.contains("50"), "\(r.err)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
