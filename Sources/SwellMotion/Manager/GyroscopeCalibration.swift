import Foundation
import SwellGeometry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A gyroscope bias the fusion estimated while the device lay still, as saved between runs
/// (``GyroscopeCalibrationStore``) and used to start the next run's estimate
/// (``AttitudeEstimator/seedGyroscopeBias(_:sigmaDegreesPerSecond:)``).
public struct GyroscopeCalibration: Hashable, Sendable {
  /// The bias, rad/s, device frame (``AttitudeEstimator/gyroscopeBias``).
  public var bias: Vector3
  /// Its 1σ uncertainty per device axis, rad/s (``AttitudeEstimator/gyroscopeBiasSigma``).
  public var sigma: Vector3
  /// When it was saved: wall-clock seconds since 1970-01-01 00:00 UTC. Metadata: it only
  /// decides whether the value is too old to use (``GyroscopeCalibrationStore/maximumAge``).
  public var savedAt: Double
  /// How long the rest detector had found the device still when the value was taken, seconds
  /// of sample time.
  public var restDuration: Double
  /// How many samples that rest held.
  public var sampleCount: Int

  /// Creates a calibration.
  ///
  /// - Parameters:
  ///   - bias: rad/s, device frame.
  ///   - sigma: rad/s per axis.
  ///   - savedAt: Wall-clock seconds since 1970.
  ///   - restDuration: Seconds at rest.
  ///   - sampleCount: Samples at rest.
  public init(
    bias: Vector3, sigma: Vector3, savedAt: Double, restDuration: Double, sampleCount: Int
  ) {
    self.bias = bias
    self.sigma = sigma
    self.savedAt = savedAt
    self.restDuration = restDuration
    self.sampleCount = sampleCount
  }

  /// Why this value must not seed an estimator whose bias limit is `limit` (degrees per
  /// second), or `nil` when it is plausible: every number finite, each bias component below the
  /// limit (a bias at the limit is the estimator's clamp, not a measurement), each sigma
  /// positive and at most `maximumSigma` (rad/s).
  ///
  /// - Parameters:
  ///   - limitDegreesPerSecond: ``AttitudeEstimator/Settings/biasLimitDegreesPerSecond``.
  ///   - maximumSigma: The largest uncertainty accepted, rad/s.
  /// - Returns: A short reason, or `nil`.
  public func implausibility(limitDegreesPerSecond: Double, maximumSigma: Double) -> String? {
    let b = [bias.x, bias.y, bias.z]
    let s = [sigma.x, sigma.y, sigma.z]
    guard (b + s + [savedAt, restDuration]).allSatisfy(\.isFinite) else {
      return "a value is not a finite number"
    }
    let limit = limitDegreesPerSecond * Double.pi / 180
    // A relative margin of 1e-9: the estimator clamps to the limit computed in its own
    // arithmetic, which may differ from this one in the last bit.
    if let worst = b.map(abs).max(), worst >= limit * (1 - 1e-9) {
      return
        "its bias, \(Self.degrees(worst)) deg/s, is at or above the estimator's limit of "
        + "\(Self.degrees(limit)) deg/s"
    }
    if let low = s.min(), low <= 0 { return "its sigma is not positive" }
    if let high = s.max(), high > maximumSigma {
      return
        "its sigma, \(Self.degrees(high)) deg/s, is above \(Self.degrees(maximumSigma)) deg/s"
    }
    if restDuration < 0 || sampleCount < 0 {
      return "its rest duration or sample count is negative"
    }
    return nil
  }

  /// Radians per second as degrees per second, four significant digits.
  static func degrees(_ radiansPerSecond: Double) -> String {
    String(format: "%.4g", radiansPerSecond * 180 / Double.pi)
  }
}

/// What happened to a saved gyroscope calibration, as ``MotionManager`` reports it
/// (``MotionManager/calibrationHandler``).
public enum GyroscopeCalibrationEvent: Hashable, Sendable, CustomStringConvertible {
  /// A saved value seeded the fusion; `age` is seconds since it was saved.
  case seeded(identity: String, calibration: GyroscopeCalibration, age: Double)
  /// A saved value exists for the device but was not used: too old, implausible.
  case ignored(identity: String, reason: String)
  /// The fusion's bias was saved.
  case saved(identity: String, calibration: GyroscopeCalibration)
  /// The file could not be read (corrupt, too large, unreadable) or written; fusion goes on
  /// without a saved value.
  case warning(String)

  /// One line for a log or status line.
  public var description: String {
    switch self {
    case .seeded(let id, let c, let age):
      let b = c.bias
      return
        "\(id): using the gyroscope bias saved \(Self.age(age)) ago ("
        + [b.x, b.y, b.z].map(GyroscopeCalibration.degrees).joined(separator: ", ")
        + " deg/s)"
    case .ignored(let id, let reason): return "\(id): saved gyroscope bias ignored: \(reason)"
    case .saved(let id, _): return "\(id): gyroscope bias saved"
    case .warning(let text): return text
    }
  }

  /// A duration as whole seconds, minutes, hours or days.
  static func age(_ seconds: Double) -> String {
    let s = max(seconds, 0)
    if s < 120 { return "\(Int(s)) s" }
    if s < 7200 { return "\(Int(s / 60)) min" }
    if s < 172_800 { return "\(Int(s / 3600)) h" }
    return "\(Int(s / 86_400)) days"
  }
}

/// Saved gyroscope calibrations, one small JSON file keyed by ``MotionSource/deviceIdentity``:
/// `$XDG_STATE_HOME/swell/gyroscope-calibration.json` (``standard(environment:wallClock:)``).
///
/// The XDG Base Directory Specification (freedesktop.org, version 0.8) defines
/// `$XDG_STATE_HOME` for "state data that should persist between (application) restarts",
/// defaulting to `$HOME/.local/state` when unset or empty; a relative path there is invalid and
/// ignored; a missing folder is created with mode 0700. The format, version 1 (documented in
/// `docs/formats.md`):
///
/// ```json
/// {"format": "swell-gyroscope-calibration", "version": 1, "devices": {
///   "iio:bmi160@platform/soc/i2c-1/1-0068": {"bias_rad_s": [0.0012, -0.0004, 0.0002],
///     "sigma_rad_s": [0.0005, 0.0005, 0.0005], "saved_unix_s": 1764751234.5,
///     "rest_s": 12.5, "samples": 1250}}}
/// ```
///
/// Reading never fails: a missing file is no calibration; a file that is too large
/// (``maximumFileSize``), not JSON, of another format or a newer version, is a warning and no
/// calibration; an entry with a bad field is skipped with a warning. Writing rereads the file,
/// replaces the device's entry, keeps at most ``maximumDevices`` entries (the newest) and
/// writes the whole file to a temporary name and renames it into place (``AtomicWrite``): a
/// crash leaves the old file or the new one. Two programs saving at once: the last rename wins.
public struct GyroscopeCalibrationStore: Sendable {
  /// The file.
  public let fileURL: URL
  /// Values older than this are stale and ignored, seconds (default 30 days): the bias of a
  /// MEMS gyroscope moves with temperature and age.
  public var maximumAge: Double
  /// Wall-clock seconds since 1970: stamps a saved value and judges its age. Injected so tests
  /// set the time.
  public let wallClock: @Sendable () -> Double

  /// The file's name in its folder.
  public static let fileName = "gyroscope-calibration.json"
  /// The value of the file's `format` key.
  public static let formatName = "swell-gyroscope-calibration"
  /// The format version written (and the newest read).
  public static let version = 1
  /// The largest file read, bytes (1 MiB; a file of ``maximumDevices`` entries is a few KiB).
  public static let maximumFileSize = 1 << 20
  /// The most devices kept in the file.
  public static let maximumDevices = 64
  /// The longest device identity stored, in UTF-8 bytes.
  public static let maximumIdentityLength = 512

  /// Creates a store over a file.
  ///
  /// - Parameters:
  ///   - fileURL: The JSON file (its folder is created when a value is saved).
  ///   - maximumAge: Seconds after which a saved value is stale (default 30 days).
  ///   - wallClock: Wall-clock seconds since 1970 (default: the system's).
  public init(
    fileURL: URL, maximumAge: Double = 30 * 86_400,
    wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
  ) {
    self.fileURL = fileURL
    self.maximumAge = maximumAge
    self.wallClock = wallClock
  }

  /// The user's store, `$XDG_STATE_HOME/swell/gyroscope-calibration.json`, or `$HOME/.local/
  /// state/swell/…` when `XDG_STATE_HOME` is unset, empty or relative; `nil` without an
  /// absolute `HOME` either.
  ///
  /// - Parameters:
  ///   - environment: The environment variables (default: the process's).
  ///   - wallClock: Wall-clock seconds since 1970.
  /// - Returns: The store, or `nil`.
  public static func standard(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
  ) -> GyroscopeCalibrationStore? {
    var base: String?
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      base = state
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      base = home + "/.local/state"
    }
    guard let base else { return nil }
    let url = URL(fileURLWithPath: base).appendingPathComponent("swell")
      .appendingPathComponent(fileName)
    return GyroscopeCalibrationStore(fileURL: url, wallClock: wallClock)
  }

  /// The result of reading the file.
  public struct Contents: Sendable {
    /// The entries that parsed, by device identity.
    public var devices: [String: GyroscopeCalibration] = [:]
    /// What was wrong with the file or an entry, one line each; empty for a good or missing
    /// file.
    public var warnings: [String] = []
  }

  /// Reads the whole file.
  ///
  /// - Returns: The entries and the warnings; never fails.
  public func read() -> Contents {
    var out = Contents()
    let path = fileURL.path
    let data: Data
    switch Self.readBounded(path, limit: Self.maximumFileSize) {
    case .missing: return out
    case .failed(let reason):
      out.warnings.append("\(path): cannot read the saved gyroscope calibration: \(reason)")
      return out
    case .read(let d): data = d
    }
    let top: [String: Any]
    do {
      guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw Self.BadFile("not a JSON object")
      }
      guard object["format"] as? String == Self.formatName else {
        throw Self.BadFile("its \"format\" is not \"\(Self.formatName)\"")
      }
      guard let version = (object["version"] as? NSNumber)?.intValue, version >= 1 else {
        throw Self.BadFile("no \"version\"")
      }
      guard version <= Self.version else {
        throw Self.BadFile(
          "version \(version) is newer than this program reads (\(Self.version))")
      }
      guard let devices = object["devices"] as? [String: Any] else {
        throw Self.BadFile("no \"devices\" object")
      }
      top = devices
    } catch let e as BadFile {
      out.warnings.append("\(path): saved gyroscope calibration ignored: \(e.reason)")
      return out
    } catch {
      out.warnings.append("\(path): saved gyroscope calibration ignored: not valid JSON")
      return out
    }
    for (identity, value) in top.sorted(by: { $0.key < $1.key }) {
      guard identity.utf8.count <= Self.maximumIdentityLength else {
        out.warnings.append("\(path): a device name longer than 512 bytes was skipped")
        continue
      }
      guard out.devices.count < Self.maximumDevices else {
        out.warnings.append("\(path): more than \(Self.maximumDevices) devices; the rest skipped")
        break
      }
      switch Self.entry(value) {
      case .success(let c): out.devices[identity] = c
      case .failure(let e):
        out.warnings.append(
          "\(path): devices.\(UntrustedText.clipped(identity, limit: 80)): \(e.reason); skipped")
      }
    }
    return out
  }

  /// The lookup of one device's saved value.
  public enum Lookup: Hashable, Sendable {
    /// A value to seed the fusion with, and its age, seconds.
    case found(GyroscopeCalibration, age: Double)
    /// Nothing saved for the device.
    case missing
    /// A value exists but must not be used; the reason.
    case ignored(String)
  }

  /// The device's saved value, judged: stale (older than ``maximumAge``, or saved more than a
  /// day in the future: the clock was changed) and implausible values are ignored.
  ///
  /// - Parameters:
  ///   - identity: ``MotionSource/deviceIdentity``.
  ///   - limitDegreesPerSecond: The estimator's bias limit,
  ///     ``AttitudeEstimator/Settings/biasLimitDegreesPerSecond``.
  ///   - maximumSigma: The largest uncertainty accepted, rad/s.
  /// - Returns: The lookup and the file's warnings.
  public func lookUp(
    _ identity: String, limitDegreesPerSecond: Double, maximumSigma: Double
  ) -> (lookup: Lookup, warnings: [String]) {
    let contents = read()
    guard let c = contents.devices[identity] else { return (.missing, contents.warnings) }
    if let reason = c.implausibility(
      limitDegreesPerSecond: limitDegreesPerSecond, maximumSigma: maximumSigma)
    {
      return (.ignored(reason), contents.warnings)
    }
    let age = wallClock() - c.savedAt
    if age > maximumAge {
      return (
        .ignored(
          "saved \(GyroscopeCalibrationEvent.age(age)) ago, older than "
            + GyroscopeCalibrationEvent.age(maximumAge)), contents.warnings
      )
    }
    if age < -86_400 {
      return (.ignored("saved in the future (the clock changed)"), contents.warnings)
    }
    return (.found(c, age: max(age, 0)), contents.warnings)
  }

  /// Why a save failed.
  public struct SaveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One line naming the file.
    public var message: String
    /// The message.
    public var description: String { message }
  }

  /// Saves a device's value: rereads the file, replaces the device's entry, keeps the newest
  /// ``maximumDevices`` and writes atomically, creating the folder (mode 0700) when missing.
  ///
  /// - Parameters:
  ///   - calibration: The value (``GyroscopeCalibration/savedAt`` as given).
  ///   - identity: ``MotionSource/deviceIdentity`` (at most ``maximumIdentityLength`` bytes).
  /// - Throws: ``SaveError`` when the identity is too long, a number is not finite, or the
  ///   folder or file cannot be written.
  public func save(_ calibration: GyroscopeCalibration, for identity: String) throws(SaveError) {
    let path = fileURL.path
    guard identity.utf8.count <= Self.maximumIdentityLength else {
      throw SaveError(message: "\(path): the device name is longer than 512 bytes")
    }
    let c = calibration
    guard
      [c.bias.x, c.bias.y, c.bias.z, c.sigma.x, c.sigma.y, c.sigma.z, c.savedAt, c.restDuration]
        .allSatisfy(\.isFinite)
    else {
      throw SaveError(message: "\(path): the gyroscope calibration has a non-finite value")
    }
    var devices = read().devices
    devices[identity] = calibration
    if devices.count > Self.maximumDevices {
      let keep = devices.sorted { ($0.value.savedAt, $0.key) > ($1.value.savedAt, $1.key) }
        .prefix(Self.maximumDevices)
      devices = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
    }
    let folder = fileURL.deletingLastPathComponent().path
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw SaveError(message: "\(folder): cannot create the folder for the gyroscope calibration")
    }
    do {
      try AtomicWrite.write(Data(Self.encode(devices).utf8), to: fileURL)
    } catch {
      throw SaveError(message: error.description)
    }
  }

  /// The file's text: keys sorted, numbers in Swift's shortest round-trip form.
  static func encode(_ devices: [String: GyroscopeCalibration]) -> String {
    func number(_ v: Double) -> String { formatNumber(v) }
    func triple(_ v: Vector3) -> String { "[\(number(v.x)), \(number(v.y)), \(number(v.z))]" }
    var text = "{\n  \"format\": \"\(formatName)\",\n  \"version\": \(version),\n  \"devices\": {"
    let sorted = devices.sorted { $0.key < $1.key }
    for (i, (identity, c)) in sorted.enumerated() {
      text += i == 0 ? "\n" : ",\n"
      text += "    \(jsonString(identity)): {\"bias_rad_s\": \(triple(c.bias)), "
      text += "\"sigma_rad_s\": \(triple(c.sigma)), \"saved_unix_s\": \(number(c.savedAt)), "
      text += "\"rest_s\": \(number(c.restDuration)), \"samples\": \(c.sampleCount)}"
    }
    text += sorted.isEmpty ? "}\n}\n" : "\n  }\n}\n"
    return text
  }

  /// A JSON string literal (RFC 8259 §7: `"` and `\` escaped, control characters as `\uXXXX`).
  static func jsonString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
      default: out.unicodeScalars.append(u)
      }
    }
    return out + "\""
  }

  /// A malformed file or entry.
  struct BadFile: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
  }

  /// One device's entry.
  static func entry(_ value: Any) -> Result<GyroscopeCalibration, BadFile> {
    guard let o = value as? [String: Any] else { return .failure(BadFile("not an object")) }
    func triple(_ key: String) -> Vector3? {
      guard let a = o[key] as? [Any], a.count == 3 else { return nil }
      let v = a.compactMap { ($0 as? NSNumber)?.doubleValue }
      return v.count == 3 ? Vector3(v[0], v[1], v[2]) : nil
    }
    func scalar(_ key: String) -> Double? {
      guard let n = o[key] as? NSNumber, !(o[key] is Bool) else { return nil }
      return n.doubleValue
    }
    guard let bias = triple("bias_rad_s") else {
      return .failure(BadFile("\"bias_rad_s\" is not three numbers"))
    }
    guard let sigma = triple("sigma_rad_s") else {
      return .failure(BadFile("\"sigma_rad_s\" is not three numbers"))
    }
    guard let saved = scalar("saved_unix_s") else {
      return .failure(BadFile("\"saved_unix_s\" is not a number"))
    }
    let rest = scalar("rest_s") ?? 0
    let samples = scalar("samples").map { $0.isFinite ? Int(max(0, min($0, 1e15))) : 0 } ?? 0
    return .success(
      GyroscopeCalibration(
        bias: bias, sigma: sigma, savedAt: saved, restDuration: rest, sampleCount: samples))
  }

  /// What reading a bounded file gave.
  enum Bounded {
    case missing
    case failed(String)
    case read(Data)
  }

  /// Reads at most `limit` bytes of a regular file; a larger file, a folder or a special file
  /// is a failure.
  static func readBounded(_ path: String, limit: Int) -> Bounded {
    var info = stat()
    if stat(path, &info) != 0 {
      return errno == ENOENT ? .missing : .failed(String(cString: strerror(errno)))
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else { return .failed("not a regular file") }
    guard info.st_size <= limit else {
      return .failed("larger than \(limit) bytes (\(info.st_size))")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      return .failed("cannot open it")
    }
    defer { try? handle.close() }
    do {
      let data = try handle.read(upToCount: limit + 1) ?? Data()
      guard data.count <= limit else { return .failed("larger than \(limit) bytes") }
      return .read(data)
    } catch {
      return .failed("read failed")
    }
  }
}
