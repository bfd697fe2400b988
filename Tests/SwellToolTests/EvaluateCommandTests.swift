import Foundation
import SwellTestSupport
import Testing

private let fixture = packageRoot.appendingPathComponent(
  "Tests/SwellRecordingsTests/Fixtures/broad_24_excerpt.csv")

private func temporaryFile(_ text: String) throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "swell-evaluate-\(UInt64.random(in: 0...UInt64.max)).csv")
  try text.write(to: url, atomically: true, encoding: .utf8)
  return url
}

@Suite("swell evaluate")
private struct EvaluateCommandTests {
  @Test("scores the truth itself as zero error, text and JSON")
  func perfectEstimate() throws {
    // The truth itself, turned from ENU to NWU: q_NWU = rotZ(−90°) ⊗ q_ENU.
    let text = try String(contentsOf: fixture, encoding: .utf8)
    var csv = "# referenceFrame: xMagneticNorthZVertical\n"
    csv += "time,attitude.w,attitude.x,attitude.y,attitude.z\n"
    let c = (0.5).squareRoot()
    for line in text.split(separator: "\n").dropFirst() {
      let f = line.split(separator: ",", omittingEmptySubsequences: false).compactMap {
        Double($0)
      }
      guard f.count == 15, f[10].isFinite else { continue }
      // rotZ(−90°) = (c, 0, 0, −c); Hamilton product with (w, x, y, z).
      let (w, x, y, z) = (f[10], f[11], f[12], f[13])
      let nw = c * w + c * z
      let nx = c * x + c * y
      let ny = c * y - c * x
      let nz = c * z - c * w
      csv += "\(f[0]),\(nw),\(nx),\(ny),\(nz)\n"
    }
    let url = try temporaryFile(csv)
    defer { try? FileManager.default.removeItem(at: url) }
    let (status, out, err) = try runSwell(["evaluate", url.path, "--truth", fixture.path])
    #expect(status == 0, "\(err)")
    #expect(out.contains("total        0.0000 deg"), "\(out)")
    let (s2, json, _) = try runSwell([
      "evaluate", url.path, "--truth", fixture.path, "--json", "--6d",
    ])
    #expect(s2 == 0)
    // One line of JSONEncoder output (sorted keys); degrees rounded to 4 decimals.
    #expect(json.hasPrefix("{\"heading_aligned\":true,") && json.hasSuffix("}\n"), "\(json)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["total_deg"] as? Double == 0 && object["heading_aligned"] as? Bool == true)
    #expect(
      Set(object.keys) == [
        "total_deg", "heading_deg", "inclination_deg", "scored_samples", "heading_aligned",
        "heading_offset_deg",
      ])
  }

  @Test("bad input: missing file, wrong header, malformed number, usage")
  func badInput() throws {
    var (status, _, err) = try runSwell([
      "evaluate", "/nonexistent/e.csv", "--truth", fixture.path,
    ])
    #expect(status == 1 && err.contains("/nonexistent/e.csv") && err.contains("cannot read"))

    let header = try temporaryFile("time,gravity.x\n0,1\n")
    defer { try? FileManager.default.removeItem(at: header) }
    (status, _, err) = try runSwell(["evaluate", header.path, "--truth", fixture.path])
    #expect(status == 1 && err.contains("missing column 'attitude.w'"), "\(err)")

    let malformed = try temporaryFile(
      "time,attitude.w,attitude.x,attitude.y,attitude.z\n0,1,0,0,0\n1,1,0,zero,0\n")
    defer { try? FileManager.default.removeItem(at: malformed) }
    (status, _, err) = try runSwell(["evaluate", malformed.path, "--truth", fixture.path])
    #expect(
      status == 1 && err.contains("\(malformed.path):3: column 'attitude.y': malformed number"),
      "\(err)")

    (status, _, err) = try runSwell(["evaluate", malformed.path])
    #expect(status == 64 && err.contains("--truth"))
    (status, _, _) = try runSwell(["evaluate", "--bogus"])
    #expect(status == 64)
  }

  @Test("--broad fuses a folder of trials and prints the table")
  func broadFolder() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swell-broad-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.copyItem(
      at: fixture, to: dir.appendingPathComponent("24_disturbed_tapping_A.csv"))
    let (status, out, err) = try runSwell(["evaluate", "--broad", dir.path])
    #expect(status == 0, "\(err)")
    #expect(out.contains("24_disturbed_tapping_A") && out.contains("category tapping"))
    #expect(out.contains("mean of 1 trials"))
    let (s2, json, _) = try runSwell(["evaluate", "--broad", dir.path, "--json"])
    #expect(s2 == 0 && json.contains("\"mean\": {\"9d\": {\"total\": "))
  }

  @Test("--disturb-start, --disturb-fade and --trials change the inputs and say so")
  func broadDeveloperOptions() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swell-broad-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for name in ["24_disturbed_tapping_A.csv", "26_copy_of_24.csv"] {
      try FileManager.default.copyItem(at: fixture, to: dir.appendingPathComponent(name))
    }
    var (status, out, err) = try runSwell(["evaluate", "--broad", dir.path, "--trials", "24"])
    #expect(status == 0, "\(err)")
    #expect(out.contains("24_disturbed_tapping_A") && !out.contains("26_copy_of_24"))
    #expect(out.contains("mean of 1 trials"))
    (status, out, err) = try runSwell(["evaluate", "--broad", dir.path, "--disturb-start"])
    #expect(status == 0, "\(err)")
    #expect(out.contains("magnet (20, -20, 15) uT for the first 25 s") && out.contains("mean of 2"))
    (status, out, err) = try runSwell([
      "evaluate", "--broad", dir.path, "--disturb-fade", "10", "--rate", "100",
    ])
    #expect(status == 0, "\(err)")
    #expect(out.contains("fading over 10.00 s") && out.contains("at 100.00 Hz"))
    (status, _, err) = try runSwell(["evaluate", "--broad", dir.path, "--disturb-fade", "30"])
    #expect(status == 64 && err.contains("--disturb-fade"), "\(err)")
    (status, _, err) = try runSwell(["evaluate", "--broad", dir.path, "--trials", "99"])
    #expect(status == 64 && err.contains("matches no trial"), "\(err)")
    // Since fusion v4 a changed run prints JSON too (bench/fusion_loo.py reads it); the
    // sensitivity sweep and the injection summary stay text.
    var json = ""
    (status, json, err) = try runSwell([
      "evaluate", "--broad", dir.path, "--disturb-start", "--json",
    ])
    #expect(status == 0, "\(err)")
    #expect(json.hasPrefix("{\"trials\": [") && json.contains("\"mean\""), "\(json)")
    (status, _, err) = try runSwell(["evaluate", "--broad", dir.path, "--sensitivity", "--json"])
    #expect(status == 64 && err.contains("text only"), "\(err)")
  }
}
