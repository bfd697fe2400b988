import Foundation
import SwellGeometry
import SwellMotion
import SwellRecordings
import Testing

/// A still raw recording written to a temporary CSV file.
private func stillCSV(magnetometer: Bool) throws -> URL {
  let samples = (0..<200).map { i in
    IMUSample(
      timestamp: Double(i) / 100, gyroscope: .zero, accelerometer: Vector3(0, 0, 9.80665),
      magnetometer: magnetometer ? Vector3(20, 0, -40) : nil)
  }
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("swell-fusion-rule-\(UUID().uuidString).csv")
  try RawIMUCSV.write(samples, to: url)
  return url
}

@Suite("One 6D/9D rule: the manager's, asked by every path that fuses")
private struct FusionRuleTests {
  @Test(
    "MotionManager.fusionMode: 6D for the arbitrary frame, 9D for north, 9D needs a magnetometer")
  func rule() throws {
    #expect(
      try MotionManager.fusionMode(
        for: .xArbitraryZVertical, sourceName: "s", hasMagnetometer: false)
        == .sixD)
    #expect(
      try MotionManager.fusionMode(
        for: .xMagneticNorthZVertical, sourceName: "s", hasMagnetometer: true)
        == .nineD)
    #expect(throws: MotionManagerError.self) {
      try MotionManager.fusionMode(
        for: .xMagneticNorthZVertical, sourceName: "s", hasMagnetometer: false)
    }
    #expect(throws: MotionManagerError.self) {
      try MotionManager.fusionMode(
        for: .xArbitraryZVertical, override: .nineD, sourceName: "s", hasMagnetometer: false)
    }
  }

  @Test("deviceMotion(from:) fails where the manager fails, instead of fusing 6D")
  func recordingAsksTheManager() async throws {
    let without = try stillCSV(magnetometer: false)
    defer { try? FileManager.default.removeItem(at: without) }
    do {
      _ = try MotionRecording.deviceMotion(from: without, referenceFrame: .xMagneticNorthZVertical)
      Issue.record("expected an error")
    } catch {
      #expect(error.message.contains("has no magnetometer"))
    }
    let manager = MotionManager(source: try RecordingSource(contentsOf: without))
    let stream = manager.deviceMotionUpdates(using: .xMagneticNorthZVertical)
    await #expect(throws: MotionManagerError.self) { for try await _ in stream {} }
    #expect(
      try MotionRecording.deviceMotion(from: without, referenceFrame: .xArbitraryZVertical).count
        == 200)
    let with = try stillCSV(magnetometer: true)
    defer { try? FileManager.default.removeItem(at: with) }
    let north = try MotionRecording.deviceMotion(
      from: with, referenceFrame: .xMagneticNorthZVertical)
    #expect(north.count == 200)
    #expect(north.last?.referenceFrame == .xMagneticNorthZVertical)
  }
}
