import Foundation
import SwellTestSupport
import Testing

@Suite("swell bench")
struct BenchCommandTests {
  @Test("--quick --json reports the fusion figures with median, min, max and unit")
  func quickJSON() throws {
    let (status, out, err) = try runSwell(["bench", "--quick", "--json"])
    #expect(status == 0, "\(err)")
    let obj = try #require(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
    for name in [
      "fusion.9d.samples_per_s", "fusion.6d.samples_per_s",
      "fusion.baseline.gyro_integration.samples_per_s",
    ] {
      let f = try #require(obj[name] as? [String: Any], "missing \(name) in \(out)")
      let median = try #require(f["median"] as? Double)
      let lo = try #require(f["min"] as? Double)
      let hi = try #require(f["max"] as? Double)
      #expect(lo > 0 && lo <= median && median <= hi, "\(name): \(f)")
      #expect(f["unit"] as? String == "samples/s")
    }
  }

  @Test("unknown benchmark group is a usage error")
  func unknownGroup() throws {
    let (status, _, err) = try runSwell(["bench", "--only", "nope"])
    #expect(status == 64 && err.contains("unknown benchmark"))
  }
}
