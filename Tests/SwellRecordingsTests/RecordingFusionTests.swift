import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

@testable import SwellEvaluation
@testable import SwellMotion
@testable import SwellRecordings

private func resting(_ count: Int, magnetometer: Bool) -> MotionRecording {
  let samples = (0..<count).map { i in
    IMUSample(
      timestamp: 3 + Double(i) * 0.01, gyroscope: Vector3(0, 0, 0),
      accelerometer: Vector3(0, 0, 9.80665), magnetometer: magnetometer ? Vector3(20, 0, -40) : nil)
  }
  return MotionRecording(name: "rest.csv", format: .rawIMU, content: .samples(samples))
}

@Suite("RecordingFusion: a recording streamed into a device-motion CSV")
private struct RecordingFusionTests {
  @Test("6D by default: one row per sample, no magnetic columns; 9D adds them")
  func rows() throws {
    let folder = try scratchFolder("fusion")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("dm.csv")
    let six = try RecordingFusion().run(RecordingSource(resting(50, magnetometer: true)), to: url)
    #expect(six.samples == 50 && six.rows == 50 && six.mode == .sixD)
    var read = try DeviceMotionCSV.read(from: url)
    #expect(read.motions.count == 50 && !read.hasMagneticField)
    var fusion = RecordingFusion()
    fusion.mode = .nineD
    let nine = try fusion.run(RecordingSource(resting(50, magnetometer: true)), to: url)
    #expect(nine.mode == .nineD)
    read = try DeviceMotionCSV.read(from: url)
    #expect(read.hasMagneticField && read.referenceFrame == .xArbitraryZVertical)
  }

  @Test("the manager decides: 9D without a magnetometer fails before a file is written")
  func nineDWithoutMagnetometer() throws {
    let folder = try scratchFolder("fusion")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("dm.csv")
    for frame in [AttitudeReferenceFrame.xArbitraryZVertical, .xMagneticNorthZVertical] {
      var fusion = RecordingFusion()
      fusion.referenceFrame = frame
      fusion.mode = frame == .xArbitraryZVertical ? .nineD : nil
      #expect(throws: MotionManagerError.self) {
        try fusion.run(RecordingSource(resting(10, magnetometer: false)), to: url)
      }
      let manager = MotionManager(source: RecordingSource(resting(10, magnetometer: false)))
      manager.fusionMode = fusion.mode
      #expect(throws: MotionManagerError.self) { try manager.fusionMode(for: frame) }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test("resampling: rows at the rate; a rate that makes too many rows is refused first")
  func resampling() throws {
    let folder = try scratchFolder("fusion")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("dm.csv")
    var fusion = RecordingFusion()
    fusion.rate = 50
    let r = try fusion.run(RecordingSource(resting(101, magnetometer: false)), to: url)
    #expect(r.samples == 101 && r.rows == 51)
    fusion.rate = 1e9
    #expect(throws: RecordingFusion.RateTooHigh.self) {
      try fusion.run(RecordingSource(resting(101, magnetometer: false)), to: url)
    }
  }

  @Test("device motion passes through in its own frame")
  func passThrough() throws {
    let folder = try scratchFolder("fusion")
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = folder.appendingPathComponent("a.csv")
    let second = folder.appendingPathComponent("b.csv")
    var fusion = RecordingFusion()
    fusion.referenceFrame = .xMagneticNorthZVertical
    _ = try fusion.run(RecordingSource(resting(30, magnetometer: true)), to: first)
    let again = try RecordingFusion().run(RecordingSource(contentsOf: first), to: second)
    #expect(again.mode == nil && again.referenceFrame == .xMagneticNorthZVertical)
    #expect(try Data(contentsOf: first) == Data(contentsOf: second))
  }

  @Test("the estimate report encodes the same keys, rounded to 4 decimals, null when not finite")
  func reportJSON() throws {
    let report = EstimateEvaluation.Report(
      totalDegrees: 1.234_56, headingDegrees: .nan, inclinationDegrees: 0, scoredSamples: 12,
      headingAligned: true, headingOffsetDegrees: -3.000_04)
    #expect(
      report.jsonText()
        == "{\"heading_aligned\":true,\"heading_deg\":null,\"heading_offset_deg\":-3,"
        + "\"inclination_deg\":0,\"scored_samples\":12,\"total_deg\":1.2346}")
  }
}
