/// The accelerometer variances of the last quarter second of correction blocks: the reference
/// that tells a tap from sustained vibration (fusion v3).
///
/// Fusion v2 (like VQF) called the device still when every sample stayed within 2 °/s and
/// 0.5 m/s² of a 0.5 s low-pass mean for 1.5 s. One tap (a few samples of several g) ended that,
/// so a device tapped every second on a table never rested and its gyroscope bias was never
/// measured (BROAD with added taps: +3.4° in 9D and 6D). A block whose accelerometer variance is
/// far above both 2 (m/s²)² and four times this window's median is a tap (a tap fills one or two
/// 20 ms blocks with tens to thousands of (m/s²)²; hand motion stays under about 1). A filter
/// period holding a tap neither ends nor extends the rest and its means do not enter the rest
/// low-pass; the tap block is also down-weighted in the inclination low-pass and the lever-arm
/// regression.
///
/// Sustained vibration raises the median with it, so it is not a tap: it ends the rest, as in
/// v2. Two earlier versions did otherwise and were worse: comparing 0.25 s window means instead
/// of samples let a vibrating device count as still (the block means alias the vibration into
/// slow components that the rest measurement, trusted to 0.03 °/s, took for bias: +0.6° in 6D
/// with the strongest vibration on T), and applying the per-sample test to the whole window
/// minus its noisiest blocks made every rest start 0.25 s late after a vibration burst.
@usableFromInline
struct RestWindow: Sendable {
  /// The largest number of blocks held (16: 0.25 s of 20 ms blocks; with shorter blocks the
  /// window is the last 16 of them).
  @usableFromInline static let capacity = 16
  /// The window's target duration, seconds.
  @usableFromInline static let duration = 0.25

  /// The blocks' accelerometer variances, (m/s²)², a ring of `capacity`.
  @usableFromInline var values = InlineArray<16, Double>(repeating: 0)
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

  /// Adds one block's accelerometer variance, (m/s²)².
  @usableFromInline
  mutating func add(variance: Double) {
    values[next] = variance
    next = next + 1 == Self.capacity ? 0 : next + 1
    count = min(count + 1, Self.capacity)
  }

  /// The median accelerometer variance of the newest `length` blocks, (m/s²)² (0 when empty).
  /// `mutating` only so that it works on the stored window in place (a non-mutating call on a
  /// property of an `inout` FusionCore copied the ring each time).
  @usableFromInline
  mutating func medianVariance() -> Double {
    let n = min(count, length)
    guard n > 0 else { return 0 }
    var v = InlineArray<16, Double>(repeating: 0)
    for i in 0..<n {
      // Insertion sort: at most 16 values, once per block.
      let k = next - n + i
      let x = values[k < 0 ? k + Self.capacity : k]
      var j = i
      while j > 0 && v[j - 1] > x {
        v[j] = v[j - 1]
        j -= 1
      }
      v[j] = x
    }
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
  }
}
