import SwellSensors
import Testing

@Suite("Source summaries: counts and their nouns agree")
private struct SourceSummaryTests {
  @Test(
    "a phone stream's summary says 1 malformed line and 2 malformed lines",
    arguments: [(1, "skipped 1 malformed line, "), (2, "skipped 2 malformed lines, ")])
  func malformedLines(count: Int, says: String) {
    var s = PhoneStreamStatistics()
    s.received = 10
    s.malformed = count
    s.outliers = 1
    let line = s.skippedSummary ?? ""
    #expect(line.hasPrefix(says), "\(line)")
    #expect(line.hasSuffix("out-of-order and 1 far-off-clock sample of 10 received"), "\(line)")
  }
}
