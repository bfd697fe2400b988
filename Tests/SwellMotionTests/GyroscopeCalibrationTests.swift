import Foundation
import Glibc
import SwellGeometry
import SwellTestSupport
import Synchronization
import Testing

@testable import SwellMotion

/// A recording replayed as fast as possible under a device identity, as a live source of that
/// device would be.
private final class IdentifiedSource: MotionSource {
  let inner: RecordingSource
  let deviceIdentity: String?
  var name: String { "identified:\(inner.name)" }
  var hasMagnetometer: Bool { inner.hasMagnetometer }

  init(_ samples: [IMUSample], identity: String?) {
    inner = RecordingSource(MotionRecording(name: "r", format: .rawIMU, content: .samples(samples)))
    deviceIdentity = identity
  }

  func next() async throws -> MotionEvent? { try await inner.next() }
  func stop() async { await inner.stop() }
  func restart() async throws { try await inner.restart() }
}

/// Collects what a manager reports about the calibration.
private final class Events: Sendable {
  let list = Mutex<[GyroscopeCalibrationEvent]>([])
  var all: [GyroscopeCalibrationEvent] { list.withLock { $0 } }
  var handler: @Sendable (GyroscopeCalibrationEvent) -> Void {
    { e in self.list.withLock { $0.append(e) } }
  }
}

/// Fuses every sample of a source through a manager (6D, `xArbitraryZVertical`) and waits for
/// the run to end (the calibration is saved by then).
private func fuse(
  _ source: any MotionSource, store: GyroscopeCalibrationStore?, events: Events? = nil
) async throws -> [DeviceMotion] {
  let manager = MotionManager(source: source)
  manager.gyroscopeCalibrationStore = store
  manager.calibrationHandler = events?.handler
  var out: [DeviceMotion] = []
  for try await m in manager.deviceMotionSamples() { out.append(m) }
  await manager.waitUntilUpdatesEnd()
  return out
}

/// A store in a fresh scratch folder whose wall clock reads `now`.
private func scratchStore(_ tag: String, now: Double = 1_800_000_000) throws
  -> GyroscopeCalibrationStore
{
  let folder = try scratchFolder(tag)
  return GyroscopeCalibrationStore(
    fileURL: folder.appendingPathComponent("state/swell/gyroscope-calibration.json"),
    wallClock: { now })
}

/// Removes a store's scratch folder (`scratchStore`'s, three levels above the file).
private func remove(_ store: GyroscopeCalibrationStore) {
  let folder = store.fileURL.deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  try? FileManager.default.removeItem(at: folder)
}

private let degree = Double.pi / 180

@Suite("Saved gyroscope calibration")
private struct GyroscopeCalibrationTests {
  @Test("a saved calibration reads back with every field, and the file is the documented JSON")
  func roundTrip() throws {
    let store = try scratchStore("calib-roundtrip")
    defer { remove(store) }
    let a = GyroscopeCalibration(
      bias: Vector3(0.0123, -0.0045, 1.5e-5), sigma: Vector3(4e-4, 5e-4, 6e-4),
      savedAt: 1_799_999_000.25, restDuration: 12.5, sampleCount: 1250)
    let b = GyroscopeCalibration(
      bias: Vector3(-0.001, 0, 0.002), sigma: Vector3(1e-3, 1e-3, 1e-3), savedAt: 1_799_000_000,
      restDuration: 3.5, sampleCount: 350)
    let quoted = "evdev:\"pad\"\\01\u{1}"
    try store.save(a, for: "iio:bmi160@platform/soc/i2c-1/1-0068")
    try store.save(b, for: quoted)
    let back = store.read()
    #expect(back.warnings.isEmpty)
    #expect(back.devices["iio:bmi160@platform/soc/i2c-1/1-0068"] == a)
    #expect(back.devices[quoted] == b)
    // The layout other programs rely on, read with a JSON parser of its own.
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: store.fileURL)) as? [String: Any])
    #expect(object["format"] as? String == "swell-gyroscope-calibration")
    #expect((object["version"] as? NSNumber)?.intValue == 1)
    let devices = try #require(object["devices"] as? [String: Any])
    let entry = try #require(devices["iio:bmi160@platform/soc/i2c-1/1-0068"] as? [String: Any])
    #expect((entry["bias_rad_s"] as? [NSNumber])?.map(\.doubleValue) == [0.0123, -0.0045, 1.5e-5])
    #expect((entry["sigma_rad_s"] as? [NSNumber])?.map(\.doubleValue) == [4e-4, 5e-4, 6e-4])
    #expect((entry["saved_unix_s"] as? NSNumber)?.doubleValue == 1_799_999_000.25)
    #expect((entry["rest_s"] as? NSNumber)?.doubleValue == 12.5)
    #expect((entry["samples"] as? NSNumber)?.intValue == 1250)
    #expect(devices[quoted] != nil)
    // Saving again replaces the device's entry and keeps the other.
    var a2 = a
    a2.bias = Vector3(0.002, 0.002, 0.002)
    try store.save(a2, for: "iio:bmi160@platform/soc/i2c-1/1-0068")
    #expect(store.read().devices.count == 2)
    #expect(store.read().devices["iio:bmi160@platform/soc/i2c-1/1-0068"]?.bias == a2.bias)
  }

  @Test(
    "a save replaces the file by a rename (a hard link keeps the old bytes), leaves no temporary file, and creates its folder 0700"
  )
  func atomicWrite() throws {
    let store = try scratchStore("calib-atomic")
    defer { remove(store) }
    let c = GyroscopeCalibration(
      bias: Vector3(0.001, 0, 0), sigma: Vector3(5e-4, 5e-4, 5e-4), savedAt: 1_799_999_999,
      restDuration: 4, sampleCount: 400)
    try store.save(c, for: "one")
    let folder = store.fileURL.deletingLastPathComponent()
    var info = stat()
    #expect(stat(folder.path, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o700)
    let old = try Data(contentsOf: store.fileURL)
    let linkURL = folder.appendingPathComponent("old-link")
    #expect(Glibc.link(store.fileURL.path, linkURL.path) == 0)
    try store.save(c, for: "two")
    // Written in place, the link would show the new bytes; renamed, it keeps the old file.
    #expect(try Data(contentsOf: linkURL) == old)
    #expect(try Data(contentsOf: store.fileURL) != old)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == ["gyroscope-calibration.json", "old-link"])
  }

  /// Files that must give a warning and no calibration.
  static let corruptFiles: [(String, String)] = [
    ("not JSON", "this is not json\n"),
    (
      "truncated",
      "{\"format\": \"swell-gyroscope-calibration\", \"version\": 1, \"devices\": {\"d\": {"
    ),
    ("another format", "{\"format\": \"something-else\", \"version\": 1, \"devices\": {}}"),
    (
      "a newer version",
      "{\"format\": \"swell-gyroscope-calibration\", \"version\": 2, \"devices\": {}}"
    ),
    ("a JSON array", "[1, 2, 3]"),
    (
      "an entry with two bias numbers",
      "{\"format\": \"swell-gyroscope-calibration\", \"version\": 1, \"devices\": {\"d\": "
        + "{\"bias_rad_s\": [0.01, 0.01], \"sigma_rad_s\": [0.001, 0.001, 0.001], "
        + "\"saved_unix_s\": 1799999999}}}"
    ),
  ]

  @Test("a corrupt file is a warning and no calibration", arguments: corruptFiles)
  func corrupt(_ kind: String, _ text: String) throws {
    let store = try scratchStore("calib-corrupt")
    defer { remove(store) }
    try FileManager.default.createDirectory(
      at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: store.fileURL)
    let (lookup, warnings) = store.lookUp(
      "d", limitDegreesPerSecond: 2, maximumSigma: 0.1 * degree)
    #expect(lookup == .missing, "\(kind)")
    #expect(warnings.count == 1, "\(kind)")
    #expect(warnings.first?.hasPrefix(store.fileURL.path) == true, "\(kind)")
  }

  @Test("a file larger than the bound, or a folder in its place, is a warning without reading it")
  func oversized() throws {
    let store = try scratchStore("calib-oversized")
    defer { remove(store) }
    let folder = store.fileURL.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: store.fileURL.path, contents: nil))
    let handle = try FileHandle(forWritingTo: store.fileURL)
    try handle.truncate(atOffset: UInt64(GyroscopeCalibrationStore.maximumFileSize + 1))
    try handle.close()
    #expect(store.read().warnings.first?.contains("larger than 1048576 bytes") == true)
    try FileManager.default.removeItem(at: store.fileURL)
    try FileManager.default.createDirectory(at: store.fileURL, withIntermediateDirectories: true)
    #expect(store.read().warnings.first?.contains("not a regular file") == true)
    #expect(store.read().devices.isEmpty)
  }

  /// Saved values that must be ignored, with a word of the reason.
  static let rejected: [(String, GyroscopeCalibration, String)] = [
    (
      "31 days old",
      GyroscopeCalibration(
        bias: Vector3(0.01, 0, 0), sigma: Vector3(1e-3, 1e-3, 1e-3),
        savedAt: 1_800_000_000 - 31 * 86_400, restDuration: 5, sampleCount: 500), "older"
    ),
    (
      "in the future",
      GyroscopeCalibration(
        bias: Vector3(0.01, 0, 0), sigma: Vector3(1e-3, 1e-3, 1e-3),
        savedAt: 1_800_000_000 + 3 * 86_400, restDuration: 5, sampleCount: 500), "future"
    ),
    (
      "a bias of 3 deg/s, above the 2 deg/s limit",
      GyroscopeCalibration(
        bias: Vector3(0, 3 * degree, 0), sigma: Vector3(1e-3, 1e-3, 1e-3),
        savedAt: 1_800_000_000, restDuration: 5, sampleCount: 500), "limit"
    ),
    (
      "a bias at the limit (the estimator's clamp)",
      GyroscopeCalibration(
        bias: Vector3(0, 0, -2 * degree), sigma: Vector3(1e-3, 1e-3, 1e-3),
        savedAt: 1_800_000_000, restDuration: 5, sampleCount: 500), "limit"
    ),
    (
      "a zero sigma",
      GyroscopeCalibration(
        bias: Vector3(0.01, 0, 0), sigma: Vector3(0, 1e-3, 1e-3),
        savedAt: 1_800_000_000, restDuration: 5, sampleCount: 500), "not positive"
    ),
    (
      "a sigma of 1 deg/s",
      GyroscopeCalibration(
        bias: Vector3(0.01, 0, 0), sigma: Vector3(degree, 1e-3, 1e-3),
        savedAt: 1_800_000_000, restDuration: 5, sampleCount: 500), "sigma"
    ),
  ]

  @Test("stale and implausible saved values are ignored with a reason", arguments: rejected)
  func ignored(_ kind: String, _ c: GyroscopeCalibration, _ word: String) throws {
    let store = try scratchStore("calib-ignored")
    defer { remove(store) }
    try store.save(c, for: "d")
    let (lookup, warnings) = store.lookUp(
      "d", limitDegreesPerSecond: 2, maximumSigma: 0.1 * degree)
    #expect(warnings.isEmpty)
    guard case .ignored(let reason) = lookup else {
      Issue.record("\(kind): \(lookup)")
      return
    }
    #expect(reason.contains(word), "\(kind): \(reason)")
    // A fresh, plausible value of the same device is found.
    var fresh = c
    fresh.bias = Vector3(0.01, 0, 0)
    fresh.sigma = Vector3(1e-3, 1e-3, 1e-3)
    fresh.savedAt = 1_800_000_000 - 29 * 86_400
    try store.save(fresh, for: "d")
    #expect(
      store.lookUp("d", limitDegreesPerSecond: 2, maximumSigma: 0.1 * degree).lookup
        == .found(fresh, age: 29 * 86_400))
  }

  @Test("the standard store follows the XDG Base Directory rules")
  func standardLocation() {
    let a = GyroscopeCalibrationStore.standard(
      environment: ["XDG_STATE_HOME": "/srv/state", "HOME": "/home/u"])
    #expect(a?.fileURL.path == "/srv/state/swell/gyroscope-calibration.json")
    let b = GyroscopeCalibrationStore.standard(environment: ["HOME": "/home/u"])
    #expect(b?.fileURL.path == "/home/u/.local/state/swell/gyroscope-calibration.json")
    // Empty or relative: invalid, the default is used.
    for value in ["", "relative/state"] {
      let c = GyroscopeCalibrationStore.standard(
        environment: ["XDG_STATE_HOME": value, "HOME": "/home/u"])
      #expect(c?.fileURL.path == "/home/u/.local/state/swell/gyroscope-calibration.json")
    }
    #expect(GyroscopeCalibrationStore.standard(environment: [:]) == nil)
  }

  @Test("a seed sets the estimator's bias and sigma; a refused seed changes nothing")
  func seedEstimator() {
    var e = AttitudeEstimator()
    #expect(e.gyroscopeBias == .zero)
    #expect(abs(e.gyroscopeBiasSigma.x - 0.5 * degree) < 1e-15)
    let taken = e.seedGyroscopeBias(Vector3(0.01, -0.02, 0.005), sigmaDegreesPerSecond: 0.1)
    #expect(taken)
    #expect(e.gyroscopeBias == Vector3(0.01, -0.02, 0.005))
    #expect(abs(e.gyroscopeBiasSigma.y - 0.1 * degree) < 1e-15)
    // Clamped to the 2 deg/s limit and to the initial sigma.
    let clamped = e.seedGyroscopeBias(Vector3(1, 0, 0), sigmaDegreesPerSecond: 5)
    #expect(clamped)
    #expect(abs(e.gyroscopeBias.x - 2 * degree) < 1e-15)
    #expect(abs(e.gyroscopeBiasSigma.z - 0.5 * degree) < 1e-15)
    let notFinite = e.seedGyroscopeBias(Vector3(.nan, 0, 0), sigmaDegreesPerSecond: 0.1)
    let zeroSigma = e.seedGyroscopeBias(Vector3(0, 0, 0), sigmaDegreesPerSecond: 0)
    #expect(!notFinite && !zeroSigma)
    #expect(abs(e.gyroscopeBias.x - 2 * degree) < 1e-15)
    // The seeded bias is subtracted from the first sample on.
    var seeded = AttitudeEstimator()
    seeded.seedGyroscopeBias(Vector3(0, 0, 0.01), sigmaDegreesPerSecond: 0.1)
    let m = seeded.update(
      IMUSample(timestamp: 0, gyroscope: Vector3(0, 0, 0.01), accelerometer: Vector3(0, 0, 9.81)))
    #expect(m.rotationRate == .zero)
  }

  @Test(
    "without a saved value the manager's output is unchanged: no store, no identity, or an empty store"
  )
  func unchangedWithoutSeed() async throws {
    let motion = SyntheticMotion(
      seed: 11, options: .init(duration: 8, bias: Vector3(0.01, -0.01, 0.005), restDuration: 3))
    let reference = try await fuse(IdentifiedSource(motion.samples, identity: nil), store: nil)
    let store = try scratchStore("calib-unchanged")
    defer { remove(store) }
    let noIdentity = try await fuse(IdentifiedSource(motion.samples, identity: nil), store: store)
    let events = Events()
    let empty = try await fuse(
      IdentifiedSource(motion.samples, identity: "pad"), store: store, events: events)
    #expect(reference.count == motion.samples.count)
    #expect(noIdentity == reference)
    #expect(empty == reference)
    #expect(!events.all.contains { if case .seeded = $0 { true } else { false } })
  }

  @Test("a corrupt file reaches the handler as a warning and the fusion runs unseeded")
  func corruptThroughManager() async throws {
    let store = try scratchStore("calib-manager-corrupt")
    defer { remove(store) }
    try FileManager.default.createDirectory(
      at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("{\"format\": ".utf8).write(to: store.fileURL)
    let motion = SyntheticMotion(seed: 12, options: .init(duration: 3, restDuration: 1))
    let reference = try await fuse(IdentifiedSource(motion.samples, identity: nil), store: nil)
    let events = Events()
    let out = try await fuse(
      IdentifiedSource(motion.samples, identity: "pad"), store: store, events: events)
    #expect(out == reference)
    let warnings = events.all.compactMap { if case .warning(let w) = $0 { w } else { nil } }
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("not valid JSON") == true)
  }

  /// The true bias of the done-when test, rad/s: about 1 deg/s per axis.
  static let trueBias = Vector3(1.0, -0.8, 0.6) * degree

  @Test(
    "a bias saved at rest in one run seeds the next: the first second's attitude error is lower than without it"
  )
  func savedBiasLowersStartError() async throws {
    let store = try scratchStore("calib-done-when")
    defer { remove(store) }
    // Run 1: the device lies still for 20 s; the manager saves the bias it finds.
    let still = SyntheticMotion(
      seed: 21, options: .init(duration: 20, bias: Self.trueBias, restDuration: 100))
    let events = Events()
    _ = try await fuse(
      IdentifiedSource(still.samples, identity: "pad:aa:bb"), store: store, events: events)
    let saved = try #require(store.read().devices["pad:aa:bb"])
    #expect((saved.bias - Self.trueBias).length < 0.05 * degree)
    #expect(max(saved.sigma.x, saved.sigma.y, saved.sigma.z) <= 0.1 * degree)
    #expect(saved.restDuration > 3 && saved.sampleCount > 200)
    #expect(events.all.contains { if case .saved = $0 { true } else { false } })

    // Run 2: another recording of the same device, still for 0.3 s then turning; fused with the
    // saved bias and without.
    let moving = SyntheticMotion(
      seed: 22, options: .init(duration: 4, bias: Self.trueBias, restDuration: 0.3))
    let seededEvents = Events()
    let seeded = try await fuse(
      IdentifiedSource(moving.samples, identity: "pad:aa:bb"), store: store, events: seededEvents)
    let plain = try await fuse(IdentifiedSource(moving.samples, identity: nil), store: nil)
    #expect(seededEvents.all.contains { if case .seeded = $0 { true } else { false } })
    func firstSecond(_ motions: [DeviceMotion]) -> (mean: Double, last: Double) {
      var errors: [Double] = []
      for (i, m) in motions.enumerated() where m.timestamp <= 1 {
        errors.append(attitudeErrors(m.attitude.quaternion, moving.truth[i]).total / degree)
      }
      return (errors.reduce(0, +) / Double(max(errors.count, 1)), errors.last ?? .nan)
    }
    let with = firstSecond(seeded)
    let without = firstSecond(plain)
    // Unseeded, a 1.4 deg/s bias turns the estimate by up to about 1.4 deg in one second;
    // seeded, only the saved value's error and the noise remain.
    #expect(with.mean < without.mean / 3, "with \(with), without \(without)")
    #expect(with.last < without.last / 3, "with \(with), without \(without)")
    #expect(without.last > 0.5)
  }
}
