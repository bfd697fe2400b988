import SwellGeometry

/// The last quarter second of correction blocks, for a rest detector that taps and vibration
/// cannot fool (fusion v3).
///
/// Fusion v2 (like VQF) called the device still when *every sample* stayed within 2 °/s and
/// 0.5 m/s² of a 0.5 s low-pass mean. One tap (a few samples of several g) breaks that for the
/// next 1.5 s, so a device tapped every second on a table was never at rest and its gyroscope
/// bias was never measured (BROAD with added taps: +3.4° in 9D and 6D). Fusion v3 keeps the
/// per-sample test but applies it to the last quarter second of blocks *except* the sixth
/// whose accelerometer variance is largest: a tap fills one or two 20 ms blocks with a
/// variance of tens to thousands of (m/s²)², so those blocks are left out, while hand motion
/// and sustained vibration raise every block alike and still end the rest. The rest low-pass
/// is fed the trimmed window means, so the bias measured at rest is not pulled by taps either.
///
/// Vibration is deliberately *not* averaged away for the rest test: a first version compared
/// window means instead of samples, which let a vibrating device count as still; the block
/// means then alias the vibration (blocks at about 48 Hz) into slow components that the rest
/// measurement, trusted to 0.03 °/s, took for bias (BROAD with the strongest added vibration:
/// +0.6° in 6D). While it vibrates the device is not at rest for the bias filter; the motion
/// measurement, which works on 3 s low-pass means, carries the bias instead.
@usableFromInline
struct RestWindow: Sendable {
  /// The largest number of blocks held (16: 0.25 s of 20 ms blocks; with shorter blocks the
  /// window is the last 16 of them).
  @usableFromInline static let capacity = 16
  /// The window's target duration, seconds.
  @usableFromInline static let duration = 0.25

  /// Values per block in `values`.
  @usableFromInline static let stride = 9
  /// Per block: mean raw gyroscope (rad/s) and accelerometer (m/s²), device frame, the
  /// accelerometer variance ((m/s²)²) and the largest squared deviations of a sample from the
  /// rest means ((rad/s)², (m/s²)²); a ring of `capacity` blocks.
  @usableFromInline var values = InlineArray<144, Double>(repeating: 0)
  /// Blocks held (at most `capacity`).
  @usableFromInline var count = 0
  /// The index the next block is written to.
  @usableFromInline var next = 0
  /// The window length in blocks (from the block duration): the newest `length` blocks held.
  @usableFromInline var length = 1

  @usableFromInline init() {}

  /// Sets the window length for blocks of `blockDuration` seconds. The blocks held are kept
  /// (a jittered sampling period moves the length by a block now and then).
  @usableFromInline
  mutating func setBlockDuration(_ blockDuration: Double) {
    length =
      blockDuration > 0
      ? max(1, min(Self.capacity, Int((Self.duration / blockDuration).rounded()))) : 1
  }

  /// Adds one block: its means, accelerometer variance and largest sample deviations.
  @usableFromInline
  mutating func add(
    gyroscope g: Vector3, accelerometer a: Vector3, variance: Double,
    gyroscopeDeviation2: Double, accelerometerDeviation2: Double
  ) {
    let o = next * Self.stride
    values[o] = g.x
    values[o + 1] = g.y
    values[o + 2] = g.z
    values[o + 3] = a.x
    values[o + 4] = a.y
    values[o + 5] = a.z
    values[o + 6] = variance
    values[o + 7] = gyroscopeDeviation2
    values[o + 8] = accelerometerDeviation2
    next = next + 1 == Self.capacity ? 0 : next + 1
    count = min(count + 1, Self.capacity)
  }

  /// True when the window is full.
  @usableFromInline var isFull: Bool { count >= length }

  /// The ring index of the `i`-th newest block of the window (0 the oldest of the window).
  @inline(__always)
  func index(_ i: Int, of n: Int) -> Int {
    let k = next - n + i
    return k < 0 ? k + Self.capacity : k
  }

  /// The median accelerometer variance of the blocks in the window, (m/s²)² (0 when empty).
  // The queries are `mutating` only so that they work on the stored window in place (a
  // non-mutating call on a property of an `inout` FusionCore copied the whole ring each time).
  @usableFromInline
  mutating func medianVariance() -> Double {
    let n = min(count, length)
    guard n > 0 else { return 0 }
    var v = InlineArray<16, Double>(repeating: 0)
    for i in 0..<n {
      // Insertion sort: at most 16 values, once per block.
      let x = values[index(i, of: n) * Self.stride + 6]
      var j = i
      while j > 0 && v[j - 1] > x {
        v[j] = v[j - 1]
        j -= 1
      }
      v[j] = x
    }
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
  }

  /// The window without the sixth of its blocks with the largest accelerometer variance (none
  /// when it holds fewer than four): the mean gyroscope (rad/s) and accelerometer (m/s²) and the
  /// largest squared sample deviations of the blocks kept.
  @usableFromInline
  mutating func trimmed() -> (
    gyroscope: Vector3, accelerometer: Vector3, gyroscopeDeviation2: Double,
    accelerometerDeviation2: Double
  ) {
    let n = min(count, length)
    guard n > 0 else { return (Vector3(0, 0, 0), Vector3(0, 0, 0), 0, 0) }
    let w = Self.stride
    let drop = n >= 4 ? max(1, n / 6) : 0
    // Mark the `drop` blocks of largest variance (bit i of `skipped`; at most 16 values).
    var skipped: UInt32 = 0
    for _ in 0..<drop {
      var best = -1
      var bestValue = -Double.infinity
      for i in 0..<n where skipped & (1 << i) == 0 && values[index(i, of: n) * w + 6] > bestValue {
        best = i
        bestValue = values[index(i, of: n) * w + 6]
      }
      if best >= 0 { skipped |= 1 << best }
    }
    var s = InlineArray<6, Double>(repeating: 0)
    var dg = 0.0
    var da = 0.0
    var kept = 0.0
    for i in 0..<n where skipped & (1 << i) == 0 {
      let o = index(i, of: n) * w
      for k in 0..<6 { s[k] += values[o + k] }
      dg = max(dg, values[o + 7])
      da = max(da, values[o + 8])
      kept += 1
    }
    let k = 1 / max(kept, 1)
    return (
      Vector3(s[0] * k, s[1] * k, s[2] * k), Vector3(s[3] * k, s[4] * k, s[5] * k), dg, da
    )
  }
}
