import Foundation
import SwellTestSupport
import Testing

@Suite("swell bench")
private struct BenchCommandTests {
  @Test("--quick --json reports the fusion figures with median, min, max and unit")
  func quickJSON() throws {
    let (status, out, err) = try runSwell(["bench", "--quick", "--json"])
    #expect(status == 0, "\(err)")
    let obj = try #require(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
    for name in [
      "fusion.9d.samples_per_s", "fusion.6d.samples_per_s",
      "fusion.baseline.gyro_integration.samples_per_s", "fusion.evdev_decode.samples_per_s",
    ] {
      let f = try #require(obj[name] as? [String: Any], "missing \(name) in \(out)")
      let median = try #require(f["median"] as? Double)
      let lo = try #require(f["min"] as? Double)
      let hi = try #require(f["max"] as? Double)
      #expect(lo > 0 && lo <= median && median <= hi, "\(name): \(f)")
      #expect(f["unit"] as? String == "samples/s")
    }
    // The decoder's rate as a multiple of 6D fusion's, in the same run.
    let ratio = try #require(obj["fusion.evdev_decode.ratio_to_6d"] as? [String: Any])
    #expect(ratio["unit"] as? String == "x")
    let decode = try #require(
      (obj["fusion.evdev_decode.samples_per_s"] as? [String: Any])?["median"] as? Double)
    let six = try #require((obj["fusion.6d.samples_per_s"] as? [String: Any])?["median"] as? Double)
    let median = try #require(ratio["median"] as? Double)
    // The JSON holds six significant digits.
    #expect(abs(median - decode / six) <= 2e-5 * median)

    // Decoding then fusing, over fusing alone: at least the fusion's own time.
    let endToEnd = try #require(
      obj["fusion.evdev_decode_and_6d.ratio_to_6d"] as? [String: Any], "missing in \(out)")
    #expect(endToEnd["unit"] as? String == "x")
    #expect((endToEnd["median"] as? Double ?? 0) > 0.5)
    // The same beside per-sample fusion, and beside a MotionManager.
    for name in ["fusion.evdev_and_device_motion.ratio", "fusion.manager_evdev.ratio"] {
      let f = try #require(obj[name] as? [String: Any], "missing \(name) in \(out)")
      #expect(f["unit"] as? String == "x")
      #expect((f["median"] as? Double ?? 0) > 0.2, "\(name): \(f)")
    }
    for name in ["fusion.device_motion.samples_per_s", "fusion.manager.samples_per_s"] {
      let f = try #require(obj[name] as? [String: Any], "missing \(name) in \(out)")
      #expect((f["median"] as? Double ?? 0) > 0, "\(name): \(f)")
    }

    // --help explains every figure the run reported (sizes that --quick changes as WxH).
    let help = try runSwell(["bench", "--help"])
    #expect(help.status == 0)
    for name in obj.keys {
      let generic = name.replacingOccurrences(
        of: #"\.[0-9]+x[0-9]+\."#, with: ".WxH.", options: .regularExpression)
      let listed = help.out.split(separator: "\n").contains { line in
        line.hasPrefix("  ") && line.split(separator: " ").contains { $0 == name || $0 == generic }
      }
      #expect(listed, "--help does not explain \(name)")
    }
  }

  @Test("--only export: the PNG sequence and the MP4 beside ffmpeg on the same frames, same run")
  func exportFigures() throws {
    _ = try requireProgram("ffmpeg")
    // Its own temporary folder, to see that the frames and files are removed.
    let scratch = try scratchFolder("bench-export")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let (status, out, err) = try runSwell(
      ["bench", "--only", "export", "--quick", "--json"], environment: ["TMPDIR": scratch.path])
    #expect(status == 0, "\(err)")
    let obj = try #require(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
    func figure(_ name: String) throws -> (median: Double, unit: String?) {
      let f = try #require(obj[name] as? [String: Any], "missing \(name) in \(out)")
      let lo = try #require(f["min"] as? Double, "\(name): \(f)")
      let median = try #require(f["median"] as? Double)
      #expect(lo > 0 && lo <= median, "\(name): \(f)")
      return (median, f["unit"] as? String)
    }
    for stem in ["export.png_sequence.390x844", "export.mp4.390x844"] {
      #expect(try figure(stem + ".frame_ms").unit == "ms")
      #expect(try figure(stem + ".ffmpeg_ms").unit == "ms")
      #expect(try figure(stem + ".ratio_to_ffmpeg").unit == "x")
    }
    #expect(try figure("export.png_sequence.390x844.kib_per_frame").unit == "KiB")
    #expect(try figure("export.png_sequence.390x844.ffmpeg_kib_per_frame").unit == "KiB")
    #expect(obj.keys.allSatisfy { $0.hasPrefix("export.") })
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
  }

  @Test("--only water reports the physical water beside the classic response, per frame")
  func waterFigures() throws {
    let (status, out, err) = try runSwell(["bench", "--only", "water", "--quick", "--json"])
    #expect(status == 0, "\(err)")
    let obj = try #require(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
    for name in [
      "water.classic.1170x2532.step_ms", "water.classic.1170x2532.frame_ms",
      "water.physical.1170x2532.step_ms", "water.physical.1170x2532.frame_ms",
      "water.glass.1170x2532.frame_ms",
    ] {
      let f = try #require(obj[name] as? [String: Any], "missing \(name) in \(out)")
      let lo = try #require(f["min"] as? Double)
      let median = try #require(f["median"] as? Double)
      #expect(lo > 0 && lo <= median, "\(name): \(f)")
      #expect(f["unit"] as? String == "ms")
    }
    #expect(obj.keys.allSatisfy { $0.hasPrefix("water.") })
    // The physical frames over the classic frames' median (the responses take turns frame by
    // frame): its median is the ratio of the two medians.
    let ratio = try #require(obj["water.physical.1170x2532.ratio_to_classic"] as? [String: Any])
    #expect(ratio["unit"] as? String == "x")
    let physical = try #require(
      (obj["water.physical.1170x2532.frame_ms"] as? [String: Any])?["median"] as? Double)
    let classic = try #require(
      (obj["water.classic.1170x2532.frame_ms"] as? [String: Any])?["median"] as? Double)
    let median = try #require(ratio["median"] as? Double)
    #expect(abs(median - physical / classic) <= 2e-5 * median)
  }

  @Test("unknown benchmark group is a usage error")
  func unknownGroup() throws {
    let (status, _, err) = try runSwell(["bench", "--only", "nope"])
    #expect(status == 64 && err.contains("--only must be one of ") && err.contains("got 'nope'"))
  }
}
