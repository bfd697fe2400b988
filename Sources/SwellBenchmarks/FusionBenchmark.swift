import Foundation
import SwellEvdev
import SwellGeometry
import SwellMotion
import Synchronization

/// Sensor-fusion throughput on synthetic motion: 9D and 6D fusion through the estimator's flat
/// batch entry point, and a plain quaternion gyroscope-integration loop timed in the same run as
/// the baseline; beside them, the evdev decoder turning the same motion, as a DualSense's events,
/// back into samples, and its rate as a multiple of 6D fusion's in the same run.
///
/// When the environment variable `SWELL_BENCH_FUSION_SAMPLES` names a file, the samples are
/// also written there as a raw IMU CSV (`t_s,gx,...,mz`, shortest round-trip numbers), so that a
/// peer filter can be timed on exactly the same input (`bench/vqf_peer.py`).
package enum FusionBenchmark: Benchmark {
  package static let name = "fusion"

  /// The environment variable naming the file the samples are written to.
  package static let samplesEnvironmentVariable = "SWELL_BENCH_FUSION_SAMPLES"

  /// Synthetic IMU data: smooth rotation about a wandering axis, sampled at 285.7 Hz, with a
  /// gyroscope bias, accelerometer = R⁻¹(g), magnetometer = R⁻¹(m_earth), in flat arrays.
  struct Data {
    var t: [Double] = []
    var g: [Double] = []
    var a: [Double] = []
    var m: [Double] = []

    init(count n: Int) {
      var q = Quaternion.identity
      let dt = 0.0035
      let gravity = Vector3(0, 0, standardGravity)
      let field = Vector3(20, 0, -44)
      t.reserveCapacity(n)
      g.reserveCapacity(3 * n)
      a.reserveCapacity(3 * n)
      m.reserveCapacity(3 * n)
      for i in 0..<n {
        let time = Double(i) * dt
        let w = Vector3(1.3 * sin(0.7 * time), 0.9 * cos(0.45 * time), 1.7 * sin(0.3 * time + 1))
        q = (q * Quaternion(rotationVector: w * dt)).normalized()
        let ab = q.inverseRotate(gravity)
        let mb = q.inverseRotate(field)
        t.append(time)
        g.append(contentsOf: [w.x + 0.004, w.y - 0.003, w.z + 0.002])
        a.append(contentsOf: [ab.x, ab.y, ab.z])
        m.append(contentsOf: [mb.x, mb.y, mb.z])
      }
    }
  }

  package static func run(quick: Bool, progress: (String) -> Void) -> [BenchmarkFigure] {
    let n = quick ? 20_000 : 400_000
    let reps = quick ? 2 : 9
    progress("fusion: generating \(n) samples")
    let data = Data(count: n)
    if let path = ProcessInfo.processInfo.environment[samplesEnvironmentVariable], !path.isEmpty {
      progress("fusion: writing the samples to \(path)")
      write(data, to: path)
    }
    var out = [Double](repeating: 0, count: 4 * n)

    func fuse(_ mode: AttitudeEstimator.Mode) -> Double {
      var est = AttitudeEstimator(mode: mode)
      data.t.withUnsafeBufferPointer { t in
        data.g.withUnsafeBufferPointer { g in
          data.a.withUnsafeBufferPointer { a in
            data.m.withUnsafeBufferPointer { m in
              out.withUnsafeMutableBufferPointer { o in
                est.attitudes(
                  timestamps: t, gyroscope: g, accelerometer: a,
                  magnetometer: mode == .nineD ? m : nil, output: o)
              }
            }
          }
        }
      }
      return out[4 * (n - 1)]
    }

    func integrate() -> Double {
      var q = Quaternion.identity
      data.t.withUnsafeBufferPointer { t in
        data.g.withUnsafeBufferPointer { g in
          out.withUnsafeMutableBufferPointer { o in
            var last = t[0]
            for i in 0..<t.count {
              let dt = t[i] - last
              last = t[i]
              let w = Vector3(g[3 * i], g[3 * i + 1], g[3 * i + 2])
              q = (q * Quaternion(rotationVector: w * dt)).normalized()
              o[4 * i] = q.w
              o[4 * i + 1] = q.x
              o[4 * i + 2] = q.y
              o[4 * i + 3] = q.z
            }
          }
        }
      }
      return q.w
    }

    func rates(_ seconds: [Double]) -> [Double] { seconds.map { Double(n) / $0 } }
    progress("fusion: 9D")
    let nine = rates(measureSeconds(repetitions: reps) { fuse(.nineD) })
    progress("fusion: 6D")
    let six = rates(measureSeconds(repetitions: reps) { fuse(.sixD) })
    progress("fusion: gyroscope integration baseline")
    let base = rates(measureSeconds(repetitions: reps) { integrate() })
    progress("fusion: evdev decoding")
    let events = EvdevStream(data)
    let decode = rates(measureSeconds(repetitions: reps) { events.decode() })
    progress("fusion: evdev decoding then 6D fusion, beside 6D fusion alone")
    let (endToEnd, sixAlone) = events.decodeAndFuse(repetitions: reps)
    progress("fusion: evdev decoding then device motion, beside device motion alone")
    let (motionEndToEnd, motionAlone) = events.decodeAndDeviceMotion(repetitions: reps)
    let motionAloneMedian = BenchmarkFigure(name: "", unit: "", values: motionAlone).median
    progress("fusion: a MotionManager over evdev events, beside one over the decoded samples")
    let (managerEvents, managerSamples) = events.managerRuns(
      samples: quick ? 20_000 : 100_000, repetitions: reps)
    let managerSamplesMedian = BenchmarkFigure(name: "", unit: "", values: managerSamples).median
    let sixMedian = BenchmarkFigure(name: "", unit: "", values: six).median
    let sixAloneMedian = BenchmarkFigure(name: "", unit: "", values: sixAlone).median
    return [
      BenchmarkFigure(name: "fusion.9d.samples_per_s", unit: "samples/s", values: nine),
      BenchmarkFigure(name: "fusion.6d.samples_per_s", unit: "samples/s", values: six),
      BenchmarkFigure(
        name: "fusion.baseline.gyro_integration.samples_per_s", unit: "samples/s", values: base),
      BenchmarkFigure(name: "fusion.evdev_decode.samples_per_s", unit: "samples/s", values: decode),
      BenchmarkFigure(
        name: "fusion.evdev_decode.ratio_to_6d", unit: "x", values: decode.map { $0 / sixMedian }),
      BenchmarkFigure(
        name: "fusion.evdev_decode_and_6d.ratio_to_6d", unit: "x",
        values: endToEnd.map { $0 / sixAloneMedian }),
      BenchmarkFigure(
        name: "fusion.device_motion.samples_per_s", unit: "samples/s",
        values: rates(motionAlone)),
      BenchmarkFigure(
        name: "fusion.evdev_and_device_motion.ratio", unit: "x",
        values: motionEndToEnd.map { $0 / motionAloneMedian }),
      BenchmarkFigure(
        name: "fusion.manager.samples_per_s", unit: "samples/s",
        values: managerSamples.map { Double(min(n, quick ? 20_000 : 100_000)) / $0 }),
      BenchmarkFigure(
        name: "fusion.manager_evdev.ratio", unit: "x",
        values: managerEvents.map { $0 / managerSamplesMedian }),
    ]
  }

  /// The samples as the events of a DualSense motion node (hid-playstation's resolutions:
  /// 8192 per g, 1024 per °/s; MSC_TIMESTAMP after the axes), decoded by `EvdevMotionDecoder`.
  struct EvdevStream {
    let description: EvdevDeviceDescription
    let events: [EvdevEvent]

    init(_ data: Data) {
      var axes: [UInt16: EvdevAbsInfo] = [:]
      for code in UInt16(0)..<3 {
        axes[code] = EvdevAbsInfo(minimum: -32768, maximum: 32768, fuzz: 16, resolution: 8192)
        axes[code + 3] = EvdevAbsInfo(
          minimum: -2_097_152, maximum: 2_097_152, fuzz: 16, resolution: 1024)
      }
      description = EvdevDeviceDescription(
        name: "Benchmark DualSense Motion Sensors", bus: 3, vendor: 0x054c, product: 0x0ce6,
        properties: [EvdevCode.propertyAccelerometer], absoluteAxes: axes)
      var events: [EvdevEvent] = []
      events.reserveCapacity(data.t.count * 8)
      let g = 8192 / standardGravity
      let w = 1024 * 180 / Double.pi
      for i in data.t.indices {
        let micros = Int64((data.t[i] * 1e6).rounded()) + 1_000_000
        func event(_ type: EvdevEventType, _ code: UInt16, _ value: Int32) -> EvdevEvent {
          EvdevEvent(
            seconds: micros / 1_000_000, microseconds: micros % 1_000_000, type: type, code: code,
            value: value)
        }
        // SDL's frame on the node: (x, y, z)_evdev = (x, z, −y) of the device frame.
        let a = [data.a[3 * i], data.a[3 * i + 2], -data.a[3 * i + 1]]
        let r = [data.g[3 * i], data.g[3 * i + 2], -data.g[3 * i + 1]]
        for k in 0..<3 { events.append(event(.absolute, UInt16(k), Int32((a[k] * g).rounded()))) }
        for k in 0..<3 {
          events.append(event(.absolute, UInt16(k + 3), Int32((r[k] * w).rounded())))
        }
        events.append(
          event(.miscellaneous, EvdevCode.mscTimestamp, Int32(truncatingIfNeeded: micros)))
        events.append(event(.synchronization, EvdevCode.synReport, 0))
      }
      self.events = events
    }

    /// Decoding and 6D fusion end to end, beside 6D fusion alone, timed in turn in the same run:
    /// the events decoded in reads of 64 into the flat arrays the estimator's batch entry point
    /// takes, then fused; and the same decoded samples fused.
    ///
    /// - Parameter repetitions: Timed runs of each.
    /// - Returns: Seconds per run of decoding then fusing, and of fusing alone.
    func decodeAndFuse(repetitions: Int) -> (decodeAndFuse: [Double], fuse: [Double]) {
      let frames = events.count / 8
      var t = [Double](repeating: 0, count: frames)
      var g = [Double](repeating: 0, count: 3 * frames)
      var a = [Double](repeating: 0, count: 3 * frames)
      var out = [Double](repeating: 0, count: 4 * frames)

      // Writes through buffer pointers: the copy into the estimator's arrays is a few stores a
      // sample, as a caller would write it.
      func decodeIntoArrays() {
        t.withUnsafeMutableBufferPointer { t in
          g.withUnsafeMutableBufferPointer { g in
            a.withUnsafeMutableBufferPointer { a in
              var k = 0
              decodeInReads { samples in
                for s in samples where k < frames {
                  t[k] = s.timestamp
                  g[3 * k] = s.gyroscope.x
                  g[3 * k + 1] = s.gyroscope.y
                  g[3 * k + 2] = s.gyroscope.z
                  a[3 * k] = s.accelerometer.x
                  a[3 * k + 1] = s.accelerometer.y
                  a[3 * k + 2] = s.accelerometer.z
                  k += 1
                }
              }
            }
          }
        }
      }

      func fuse() -> Double {
        var estimator = AttitudeEstimator(mode: .sixD)
        t.withUnsafeBufferPointer { t in
          g.withUnsafeBufferPointer { g in
            a.withUnsafeBufferPointer { a in
              out.withUnsafeMutableBufferPointer { o in
                estimator.attitudes(
                  timestamps: t, gyroscope: g, accelerometer: a, magnetometer: nil, output: o)
              }
            }
          }
        }
        return out[4 * (frames - 1)]
      }

      decodeIntoArrays()
      var both: [Double] = []
      var alone: [Double] = []
      for _ in 0..<repetitions {
        both += measureSeconds(repetitions: 1) {
          decodeIntoArrays()
          return fuse()
        }
        alone += measureSeconds(repetitions: 1) { fuse() }
      }
      return (both, alone)
    }

    /// Decoding and device motion sample by sample, beside device motion alone, timed in turn in
    /// the same run: the path of `--motion evdev` and of a `MotionManager` over an evdev source
    /// (the events decoded in reads of 64, each sample given to a `DeviceMotionFuser` in the
    /// 6D frame, `xArbitraryZVertical`), and the same decoded samples given to the fuser.
    ///
    /// - Parameter repetitions: Timed runs of each.
    /// - Returns: Seconds per run of decoding then fusing, and of fusing alone.
    func decodeAndDeviceMotion(repetitions: Int) -> (decodeAndFuse: [Double], fuse: [Double]) {
      var decoded: [IMUSample] = []
      decoded.reserveCapacity(events.count / 8)
      if var decoder = try? EvdevMotionDecoder(description: description) {
        decoder.feed(contentsOf: events, into: &decoded)
      }

      func decodeAndFuse() -> Double {
        var fuser = DeviceMotionFuser(mode: .sixD, referenceFrame: .xArbitraryZVertical)
        var last = Double.nan
        decodeInReads { samples in
          for s in samples { last = fuser.update(s).attitude.quaternion.w }
        }
        return last
      }

      func fuse() -> Double {
        var fuser = DeviceMotionFuser(mode: .sixD, referenceFrame: .xArbitraryZVertical)
        var last = 0.0
        for s in decoded { last = fuser.update(s).attitude.quaternion.w }
        return last
      }

      var both: [Double] = []
      var alone: [Double] = []
      for _ in 0..<repetitions {
        both += measureSeconds(repetitions: 1) { decodeAndFuse() }
        alone += measureSeconds(repetitions: 1) { fuse() }
      }
      return (both, alone)
    }

    /// A `MotionManager` delivering every device motion (``MotionManager/deviceMotionSamples(using:capacity:)``)
    /// from a source that decodes these events in reads of 64 as `EvdevSource` does, beside one
    /// whose source hands over the same samples decoded beforehand, timed in turn in the same
    /// run: what decoding adds to the path `--motion evdev` takes, without the reads of the node.
    ///
    /// - Parameters:
    ///   - samples: How many samples (frames of events) each run delivers.
    ///   - repetitions: Timed runs of each.
    /// - Returns: Seconds per run over the events, and over the decoded samples.
    func managerRuns(samples: Int, repetitions: Int) -> (events: [Double], samples: [Double]) {
      let count = min(samples, events.count / 8)
      let some = Array(events.prefix(8 * count))
      var decoded: [IMUSample] = []
      if var decoder = try? EvdevMotionDecoder(description: description) {
        decoder.feed(contentsOf: some, into: &decoded)
      }
      var overEvents: [Double] = []
      var overSamples: [Double] = []
      for _ in 0..<repetitions {
        overEvents += measureSeconds(repetitions: 1) {
          Self.drain(EventsSource(description: description, events: some))
        }
        overSamples += measureSeconds(repetitions: 1) { Self.drain(SamplesSource(decoded)) }
      }
      return (overEvents, overSamples)
    }

    /// Runs a manager over `source` until it ends, taking every device motion; returns the
    /// last attitude's w.
    private static func drain(_ source: any MotionSource) -> Double {
      let result = Mutex(Double.nan)
      let done = DispatchSemaphore(value: 0)
      Task {
        let manager = MotionManager(source: source)
        var last = Double.nan
        do {
          for try await motion in manager.deviceMotionSamples() {
            last = motion.attitude.quaternion.w
          }
        } catch {}
        result.withLock { $0 = last }
        done.signal()
      }
      done.wait()
      return result.withLock { $0 }
    }

    /// Decodes every event; returns a value of the last sample so the work is kept.
    func decode() -> Double {
      var last = 0.0
      guard decodeInReads({ samples in if let s = samples.last { last += s.gyroscope.x } }) else {
        return .nan
      }
      return last
    }

    /// Decodes every event with a fresh decoder in reads of 64 (as the live source reads) into
    /// one reused array, handing each read's samples to `body`.
    ///
    /// - Parameter body: Receives the samples of each read, in order.
    /// - Returns: False when the description makes no decoder (nothing was decoded).
    @discardableResult
    func decodeInReads(_ body: ([IMUSample]) -> Void) -> Bool {
      guard var decoder = try? EvdevMotionDecoder(description: description) else { return false }
      var samples: [IMUSample] = []
      samples.reserveCapacity(16)
      events.withUnsafeBufferPointer { all in
        var start = 0
        while start < all.count {
          let end = min(start + 64, all.count)
          samples.removeAll(keepingCapacity: true)
          decoder.feed(contentsOf: UnsafeBufferPointer(rebasing: all[start..<end]), into: &samples)
          body(samples)
          start = end
        }
      }
      return true
    }
  }

  /// Samples handed over one by one, as fast as they are pulled.
  private final class SamplesSource: MotionSource {
    let name = "benchmark:samples"
    let hasMagnetometer = false
    private let state: Mutex<(samples: [IMUSample], next: Int)>

    init(_ samples: [IMUSample]) { state = Mutex((samples, 0)) }

    func next() async throws -> MotionEvent? {
      state.withLock { s in
        guard s.next < s.samples.count else { return nil }
        s.next += 1
        return .sample(s.samples[s.next - 1])
      }
    }

    func stop() async {}
  }

  /// A motion node's events decoded as `EvdevSource` decodes a read: 64 events at a time into
  /// a buffer of samples handed over one by one.
  private final class EventsSource: MotionSource {
    let name = "benchmark:evdev"
    let hasMagnetometer = false
    private struct State {
      var decoder: EvdevMotionDecoder?
      let events: [EvdevEvent]
      var read = 0
      var samples: [IMUSample] = []
      var next = 0
    }
    private let state: Mutex<State>

    init(description: EvdevDeviceDescription, events: [EvdevEvent]) {
      state = Mutex(
        State(decoder: try? EvdevMotionDecoder(description: description), events: events))
    }

    func next() async throws -> MotionEvent? {
      state.withLock { s in
        while s.next == s.samples.count {
          guard s.read < s.events.count, s.decoder != nil else { return nil }
          let end = min(s.read + 64, s.events.count)
          s.samples.removeAll(keepingCapacity: true)
          s.next = 0
          // In place: a copy of the decoder would share its ring and copy it at the next store.
          s.events.withUnsafeBufferPointer { all in
            s.decoder?.feed(
              contentsOf: UnsafeBufferPointer(rebasing: all[s.read..<end]), into: &s.samples)
          }
          s.read = end
        }
        s.next += 1
        return .sample(s.samples[s.next - 1])
      }
    }

    func stop() async {}
  }

  /// Writes the samples as a raw IMU CSV; a failure is reported on standard error only (the
  /// benchmark itself does not need the file).
  private static func write(_ data: Data, to path: String) {
    var text = "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n"
    text.reserveCapacity(data.t.count * 200)
    for i in data.t.indices {
      text += "\(data.t[i])"
      for k in 0..<3 { text += ",\(data.g[3 * i + k])" }
      for k in 0..<3 { text += ",\(data.a[3 * i + k])" }
      for k in 0..<3 { text += ",\(data.m[3 * i + k])" }
      text += "\n"
    }
    do {
      try text.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      FileHandle.standardError.write(Foundation.Data("swell bench: cannot write \(path)\n".utf8))
    }
  }
}
