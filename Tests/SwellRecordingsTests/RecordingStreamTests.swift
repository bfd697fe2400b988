import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@testable import SwellMotion
@testable import SwellRecordings

/// Random raw samples (seeded), increasing times, some rows without a magnetometer.
private func randomSamples(count: Int, seed: UInt64) -> [IMUSample] {
  var rng = SplitMix64(seed: seed)
  var t = 5.0
  return (0..<count).map { i in
    t += Double.random(in: 0.001...0.02, using: &rng)
    func v(_ s: Double) -> Vector3 {
      Vector3(
        Double.random(in: -s...s, using: &rng), Double.random(in: -s...s, using: &rng),
        Double.random(in: -s...s, using: &rng))
    }
    return IMUSample(
      timestamp: t, gyroscope: v(3), accelerometer: v(20), magnetometer: i % 7 == 3 ? nil : v(60))
  }
}

private func drain(_ source: RecordingSource, limit: Int = 10_000_000) async throws -> [MotionEvent]
{
  var out: [MotionEvent] = []
  while out.count < limit, let e = try await source.next() { out.append(e) }
  return out
}

@Suite("Streamed recordings: files read block by block give what loading them whole gives")
private struct RecordingStreamTests {
  @Test(
    "a raw IMU CSV larger than several blocks streams the same samples as a whole load",
    arguments: [1, 2])
  func rawStream(seed: UInt64) async throws {
    let folder = try scratchFolder("stream")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("raw.csv")
    let samples = randomSamples(count: 30_000, seed: seed)  // about 4 MB: several 1 MiB blocks
    var data = Data("# a comment line\n".utf8)
    data.append(RawIMUCSV.encode(samples))
    try data.write(to: url)
    #expect(data.count > 3 * CSVFileReader.blockSize)
    let source = try RecordingSource(contentsOf: url)
    #expect(source.providesRawSamples)
    #expect(source.hasMagnetometer)
    #expect(source.count == nil)
    #expect(source.timeSpan == samples[0].timestamp...samples[samples.count - 1].timestamp)
    let events = try await drain(source)
    #expect(events == samples.map(MotionEvent.sample))
    #expect(try RawIMUCSV.read(from: url) == samples)
  }

  @Test("a device-motion CSV streams its rows and its reference frame")
  func deviceMotionStream() async throws {
    let folder = try scratchFolder("stream")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("motion.csv")
    let script = try MotionScript(
      parsing: "hold 0.5s; tilt 30deg right over 1s; shake x 3Hz 2rad/s for 2s")
    var motions = script.samples(rate: 400)
    for i in motions.indices { motions[i].referenceFrame = .xMagneticNorthZVertical }
    try DeviceMotionCSV.write(motions, to: url, referenceFrame: .xMagneticNorthZVertical)
    let source = try RecordingSource(contentsOf: url)
    #expect(!source.providesRawSamples)
    #expect(source.deviceMotionReferenceFrame == .xMagneticNorthZVertical)
    let events = try await drain(source)
    let whole = try DeviceMotionCSV.read(from: url).motions
    #expect(events == whole.map(MotionEvent.deviceMotion))
    #expect(events.count == motions.count)
  }

  @Test("a malformed row deep in a streamed file fails with its line and column")
  func malformedRow() async throws {
    let folder = try scratchFolder("stream")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("bad.csv")
    let samples = randomSamples(count: 20_000, seed: 3)
    var text = String(decoding: RawIMUCSV.encode(samples), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[15_000] = lines[15_000].replacingOccurrences(of: ",", with: ",x", options: [], range: nil)
    text = lines.joined(separator: "\n")
    try Data(text.utf8).write(to: url)
    let source = try RecordingSource(contentsOf: url)
    do {
      _ = try await drain(source)
      Issue.record("no error")
    } catch let e as MotionSourceError {
      #expect(
        e.message
          == "bad.csv:15001: column 'gx': 'x\(lines[15_000].split(separator: ",")[1].dropFirst())' is not a number"
      )
    }
  }

  @Test("looping: pass k is shifted by k periods (span plus the mean interval)")
  func loops() async throws {
    let folder = try scratchFolder("stream")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("loop.csv")
    let samples = (0..<5).map { i in
      IMUSample(
        timestamp: 1 + Double(i) * 0.1, gyroscope: .zero, accelerometer: Vector3(0, 0, 9.8))
    }
    try RawIMUCSV.write(samples, to: url)
    for source in [
      try RecordingSource(contentsOf: url, loops: true),
      RecordingSource(
        MotionRecording(name: "m", format: .rawIMU, content: .samples(samples)), loops: true),
    ] {
      let events = try await drain(source, limit: 12)
      let times = events.map(\.timestamp)
      let expected: [Double] = (0..<12).map { (k: Int) -> Double in
        let inPass: Double = Double(k % 5) * 0.1
        let shift: Double = Double(k / 5) * 0.5
        return 1 + inPass + shift
      }
      #expect(zip(times, expected).allSatisfy { abs($0 - $1) < 1e-12 }, "\(times)")
    }
  }

  @Test("a script source gives exactly MotionScript.samples(rate:)")
  func scriptSource() async throws {
    let script = try MotionScript(parsing: "hold 0.2s; turn 20deg left over 0.4s; hold 0.3s")
    let source = MotionScriptSource(script, rate: 120)
    var got: [DeviceMotion] = []
    while let e = try await source.next() {
      if case .deviceMotion(let m) = e { got.append(m) }
    }
    #expect(got == script.samples(rate: 120))
    #expect(source.count == got.count)
  }
}
