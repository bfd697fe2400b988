import Foundation
import SwellTestSupport
import Testing

@testable import SwellMotion
@testable import SwellRecordings

@Suite("Hostile zips and recordings")
private struct HostileZipTests {
  @Test("the hand-made zero bomb really inflates to 1 + 258 × matches zeros")
  func bombIsValid() throws {
    let out = try Inflate.decompress(HostileInputs.zeroBomb(matches: 1000), limit: 1 << 20)
    #expect(out.count == 1 + 258 * 1000)
    #expect(out.allSatisfy { $0 == 0 })
  }

  @Test("inflating stops as soon as the data passes the entry's declared size")
  func declaredSizeIsACap() throws {
    // 10 MB of zeros declared as 100 bytes.
    let bomb = HostileInputs.zeroBomb(matches: 40_000)
    let data = HostileInputs.zip([
      .init(name: "bomb.csv", method: 8, data: bomb, declaredSize: 100)
    ])
    let zip = try ZipArchive(data: data, name: "bomb.zip")
    #expect {
      try zip.extract(zip.entries[0])
    } throws: { error in
      "\(error)".contains("expands past 100 bytes")
    }
    #expect(throws: Inflate.Failure.self) { try Inflate.decompress(bomb, limit: 100) }
  }

  @Test("an entry declaring more than the ratio limit is refused when the archive is opened")
  func impossibleRatio() throws {
    // The 177-byte archive of the issue: a tiny entry declaring 4 GiB.
    let data = HostileInputs.zip([
      .init(name: "x.csv", method: 8, data: [0x03, 0x00], declaredSize: 0xFFFF_FFFF)
    ])
    #expect(data.count < 200)
    #expect {
      try ZipArchive(data: data, name: "tiny.zip")
    } throws: { error in
      let text = "\(error)"
      return text.contains("declares 4294967295 bytes") && !text.contains("\n")
    }
  }

  @Test("entries sharing one local header (overlapping files) are refused")
  func overlapping() throws {
    let bomb = HostileInputs.zeroBomb(matches: 4_000)
    let data = HostileInputs.zip(
      [.init(name: "a.csv", method: 8, data: bomb, declaredSize: 1 + 258 * 4_000)], aliases: 300)
    #expect {
      try ZipArchive(data: data, name: "overlap.zip")
    } throws: { error in
      "\(error)".contains("overlap")
    }
  }

  @Test("the declared sizes may not add up past the total limit")
  func totalLimit() throws {
    let bomb = HostileInputs.zeroBomb(matches: 40)
    let entries = (0..<3).map { k in
      HostileInputs.ZipEntry(
        name: "e\(k).csv", method: 8, data: bomb, declaredSize: UInt32(1 + 258 * 40))
    }
    let limits = ZipArchive.Limits(maximumTotalSize: 2 * (1 + 258 * 40))
    #expect(throws: RecordingError.self) {
      try ZipArchive(data: HostileInputs.zip(entries), name: "many.zip", limits: limits)
    }
    #expect(throws: Never.self) {
      try ZipArchive(
        data: HostileInputs.zip(Array(entries.prefix(2))), name: "two.zip", limits: limits)
    }
  }

  @Test("error text from a crafted CSV is cut and its control characters escaped")
  func craftedHeader() throws {
    let header = "\u{1B}[31mred\u{1B}]0;title\u{07}" + String(repeating: "x", count: 100_000)
    let data = Data((header + "\n1,2,3\n").utf8)
    #expect {
      try MotionRecording.load(file: data, name: "evil.csv")
    } throws: { error in
      let text = "\(error)"
      return !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        && text.count < 400 && text.contains("\\e[31m")
    }
    let field = Data(("t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0," + header + ",0,0,0,0,0\n").utf8)
    #expect {
      try RawIMUCSV.parse(field, fileName: "evil.csv")
    } throws: { error in
      let text = "\(error)"
      return !text.unicodeScalars.contains { $0.value < 0x20 } && text.count < 300
    }
  }

  @Test(
    "absurd numbers in recordings are refused where they are read",
    arguments: [
      "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n1e300,0,0,0,0,0,9.8,,,\n",
      "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0,1e200,0,0,0,0,9.8,,,\n",
      "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n0,0,0,0,0,0,9.8,1e300,0,0\n",
    ])
  func absurdValues(text: String) {
    #expect(throws: RecordingError.self) {
      try RawIMUCSV.parse(Data(text.utf8), fileName: "absurd.csv")
    }
  }

  @Test("a magnetic accuracy of 1e300 in a device-motion CSV is an error, not a trap")
  func hugeAccuracy() {
    let header =
      "time,attitude.w,attitude.x,attitude.y,attitude.z,gravity.x,gravity.y,gravity.z,"
      + "userAcceleration.x,userAcceleration.y,userAcceleration.z,rotationRate.x,"
      + "rotationRate.y,rotationRate.z,magneticField.x,magneticField.y,magneticField.z,"
      + "magneticField.accuracy,heading\n"
    let row = "0,1,0,0,0,0,0,-1,0,0,0,0,0,0,10,0,0,1e300,0\n"
    #expect(throws: RecordingError.self) {
      try DeviceMotionCSV.parse(Data((header + row).utf8), fileName: "m.csv")
    }
  }

  @Test("a FIFO given as a recording is refused without blocking")
  func fifoRecording() throws {
    let folder = try scratchFolder("hostile-fifo")
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("r.csv").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect {
      try MotionRecording.load(from: URL(fileURLWithPath: fifo))
    } throws: { error in
      "\(error)".contains("not a regular file")
    }
  }
}
