import Foundation
import SwellGeometry
import SwellMotion

/// A seeded, physically shaped sensor disturbance added to a BROAD trial, to test how a filter
/// rejects taps and vibration (issue 21): the same trial with and without it are scored apart.
///
/// Both kinds run over the whole trial (rest phases included, so that rest detection is
/// tested too) and leave the truth, the magnetometer and the scored phase unchanged:
///
/// - **Taps** (`taps`): short accelerometer impulses, as a finger or a knock gives them. Each
///   tap is a half-sine pulse along a random direction, 4-12 ms long (1-4 samples at BROAD's
///   285.7 Hz), with a peak of 0.5-1 × the strength's size (2, 5 or 10 g: 19.6, 49 and 98 m/s²),
///   every 0.3-1.5 s. A pulse has a non-zero mean (the knock's push), so it is not averaged
///   away by low-pass filtering alone.
/// - **Vibration** (`vibration`): a vibration motor or a running machine against the device,
///   on both the accelerometer and the gyroscope. Bursts of 0.5-2 s with pauses of 0.5-2 s;
///   each burst has one frequency, log-uniform in 20-250 Hz (frequencies above the Nyquist
///   frequency alias, as on a sensor without an anti-aliasing filter), random directions and
///   phases, and amplitudes of 0.5-1 × the strength's sizes: accelerometer 1, 3 or 6 m/s²,
///   gyroscope 0.03, 0.1 or 0.3 rad/s (1.7, 5.7 or 17 °/s). Zero-mean: the device does not
///   turn on average.
///
/// Everything follows from `seed` and the trial's name through a SplitMix64 generator, so the
/// disturbed trial is the same on every machine.
public struct BroadInjection: Sendable, Hashable, Codable {
  /// The kind of disturbance.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Short accelerometer impulses.
    case taps
    /// Bursts of vibration on the accelerometer and the gyroscope.
    case vibration
  }

  /// The kind.
  public var kind: Kind
  /// The strength, 1 (light), 2 (medium) or 3 (strong).
  public var strength: Int
  /// The generator's seed (combined with the trial's name).
  public var seed: UInt64
  /// The seed used unless another is given: 21.
  public static let defaultSeed: UInt64 = 21

  /// The strengths an injection can have.
  public static let strengths = 1...3

  /// Creates an injection.
  ///
  /// - Parameters:
  ///   - kind: Taps or vibration.
  ///   - strength: 1, 2 or 3 (clamped into that range).
  ///   - seed: The generator's seed.
  public init(kind: Kind, strength: Int, seed: UInt64 = defaultSeed) {
    self.kind = kind
    self.strength = min(max(strength, 1), 3)
    self.seed = seed
  }

  /// The peak size of the strongest taps, m/s² (2, 5 or 10 g).
  public var tapPeak: Double { [2.0, 5.0, 10.0][strength - 1] * standardGravity }
  /// The largest accelerometer vibration amplitude, m/s².
  public var vibrationAccelerometerAmplitude: Double { [1.0, 3.0, 6.0][strength - 1] }
  /// The largest gyroscope vibration amplitude, rad/s.
  public var vibrationGyroscopeAmplitude: Double { [0.03, 0.1, 0.3][strength - 1] }

  /// A short name such as `taps2` for tables and folder names.
  public var label: String { "\(kind.rawValue)\(strength)" }

  /// Parses `taps`, `vibration` with an optional strength digit (`taps3`); without a digit the
  /// strength is 2.
  ///
  /// - Parameters:
  ///   - text: The label.
  ///   - seed: The generator's seed.
  /// - Returns: The injection, or `nil` for an unknown label.
  public static func parse(_ text: String, seed: UInt64 = defaultSeed) -> BroadInjection? {
    for kind in Kind.allCases where text.hasPrefix(kind.rawValue) {
      let rest = text.dropFirst(kind.rawValue.count)
      if rest.isEmpty { return BroadInjection(kind: kind, strength: 2, seed: seed) }
      guard let s = Int(rest), strengths.contains(s) else { return nil }
      return BroadInjection(kind: kind, strength: s, seed: seed)
    }
    return nil
  }
}

/// SplitMix64 (Steele, Lea & Flood 2014): a small seeded generator for reproducible
/// disturbances.
struct InjectionRandom {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// Uniform in [a, b).
  mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }

  /// A uniformly distributed unit vector.
  mutating func direction() -> Vector3 {
    let z = uniform(-1, 1)
    let phi = uniform(0, 2 * Double.pi)
    let r = (1 - z * z).squareRoot()
    return Vector3(r * cos(phi), r * sin(phi), z)
  }

  /// A seed from a base seed and a name (FNV-1a over the name's bytes), so that every trial
  /// gets its own sequence.
  static func seed(_ base: UInt64, name: String) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in name.utf8 {
      h ^= UInt64(b)
      h = h &* 0x100_0000_01B3
    }
    return h ^ base
  }
}

extension BroadTrial {
  /// The trial with a seeded disturbance added (see ``BroadInjection``).
  ///
  /// - Parameter injection: The disturbance.
  /// - Returns: The disturbed trial (same timestamps, truth, magnetometer and scored phase).
  public func injecting(_ injection: BroadInjection) -> BroadTrial {
    guard count > 1 else { return self }
    var random = InjectionRandom(seed: InjectionRandom.seed(injection.seed, name: name))
    var r = self
    switch injection.kind {
    case .taps: r.addTaps(peak: injection.tapPeak, random: &random)
    case .vibration:
      r.addVibration(
        accelerometer: injection.vibrationAccelerometerAmplitude,
        gyroscope: injection.vibrationGyroscopeAmplitude, random: &random)
    }
    return r
  }

  private mutating func addTaps(peak: Double, random: inout InjectionRandom) {
    let t0 = timestamps[0]
    let end = timestamps[count - 1]
    var start = t0 + random.uniform(0.3, 1.5)
    var i = 0
    while start < end {
      let width = random.uniform(0.004, 0.012)
      let size = peak * random.uniform(0.5, 1)
      let d = random.direction()
      while i < count && timestamps[i] < start { i += 1 }
      var j = i
      while j < count && timestamps[j] < start + width {
        let s = size * sin(Double.pi * (timestamps[j] - start) / width)
        accelerometer[3 * j] += s * d.x
        accelerometer[3 * j + 1] += s * d.y
        accelerometer[3 * j + 2] += s * d.z
        j += 1
      }
      start += width + random.uniform(0.3, 1.5)
    }
  }

  private mutating func addVibration(
    accelerometer accAmplitude: Double, gyroscope gyroAmplitude: Double,
    random: inout InjectionRandom
  ) {
    let end = timestamps[count - 1]
    var start = timestamps[0] + random.uniform(0.5, 2)
    var i = 0
    while start < end {
      let length = random.uniform(0.5, 2)
      let frequency = 20 * pow(250.0 / 20, random.unit())
      let omega = 2 * Double.pi * frequency
      let accSize = accAmplitude * random.uniform(0.5, 1)
      let gyroSize = gyroAmplitude * random.uniform(0.5, 1)
      let da = random.direction()
      let dg = random.direction()
      let phaseA = random.uniform(0, 2 * Double.pi)
      let phaseG = random.uniform(0, 2 * Double.pi)
      while i < count && timestamps[i] < start { i += 1 }
      var j = i
      while j < count && timestamps[j] < start + length {
        let tau = timestamps[j] - start
        let a = accSize * sin(omega * tau + phaseA)
        let g = gyroSize * sin(omega * tau + phaseG)
        accelerometer[3 * j] += a * da.x
        accelerometer[3 * j + 1] += a * da.y
        accelerometer[3 * j + 2] += a * da.z
        gyroscope[3 * j] += g * dg.x
        gyroscope[3 * j + 1] += g * dg.y
        gyroscope[3 * j + 2] += g * dg.z
        j += 1
      }
      start += length + random.uniform(0.5, 2)
    }
  }

  /// Writes the trial as a BROAD CSV (``columnNames``), each number in Swift's shortest form
  /// that reads back to the same `Double`, so that another program reading the file sees the
  /// same inputs bit for bit. Written to a temporary file in the same folder, then renamed.
  ///
  /// - Parameter url: The file to write.
  /// - Throws: A file-system error when the file cannot be written.
  public func write(to url: URL) throws {
    var text = BroadTrial.columnNames.joined(separator: ",") + "\n"
    text.reserveCapacity(count * 200)
    for i in 0..<count {
      var fields: [String] = [number(timestamps[i])]
      for k in 0..<3 { fields.append(number(gyroscope[3 * i + k])) }
      for k in 0..<3 { fields.append(number(accelerometer[3 * i + k])) }
      for k in 0..<3 { fields.append(number(magnetometer[3 * i + k])) }
      let q = truth[i]
      fields.append(contentsOf: [number(q.w), number(q.x), number(q.y), number(q.z)])
      fields.append(movement[i] ? "1" : "0")
      text += fields.joined(separator: ",")
      text += "\n"
    }
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).partial")
    try Data(text.utf8).write(to: temporary)
    _ = try? FileManager.default.removeItem(at: url)
    try FileManager.default.moveItem(at: temporary, to: url)
  }

  private func number(_ v: Double) -> String {
    v.isNaN ? "nan" : "\(v)"
  }
}
