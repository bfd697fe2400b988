import Foundation
import SwellTestSupport
import Testing

/// `swell record` checks where it will write before it records, so a long recording is never
/// lost to a missing folder.
@Suite("swell record: the output folder is checked first")
private struct RecordOutputFolderTests {
  @Test("a missing output folder fails at once with one line, before any recording")
  func missingFolder() throws {
    let folder = try scratchFolder("record-out")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("no/such/r.csv").path
    let deadline = TestDeadline(seconds: 25)
    // A UDP source that would wait the whole duration for datagrams that never come.
    let r = try runSwell(["record", "udp:0", "-o", out, "--duration", "30"])
    #expect(r.status == 1)
    #expect(r.err.split(separator: "\n").count == 1 && r.err.contains("does not exist"), "\(r.err)")
    #expect(!deadline.hasPassed, "it recorded before checking")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
