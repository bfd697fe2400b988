import Foundation
import SwellGeometry
import SwellMotion

extension DeviceMotionCSV {
  /// Writes a device-motion CSV row by row, holding about one block (1 MiB) in memory whatever
  /// the recording's length: the streaming form of ``write(_:to:referenceFrame:includeMagneticField:)``,
  /// beside ``RawIMUCSV/StreamWriter``. The file appears under its name only on ``commit()``
  /// (`AtomicFileWriter`); a special destination (`-`, a FIFO) receives rows as blocks fill.
  public final class StreamWriter {
    private let file: AtomicFileWriter
    private let includeMagneticField: Bool
    private var text = ""
    /// The rows written so far.
    public private(set) var count = 0

    /// Opens the destination and writes the frame comment and the header.
    ///
    /// - Parameters:
    ///   - url: The destination (`-` for standard output).
    ///   - referenceFrame: The frame named in the comment.
    ///   - includeMagneticField: Whether the magnetic-field and heading columns follow.
    /// - Throws: `RecordingError` when it cannot be written.
    public init(url: URL, referenceFrame: AttitudeReferenceFrame, includeMagneticField: Bool)
      throws(RecordingError)
    {
      file = try AtomicFileWriter(url: url)
      self.includeMagneticField = includeMagneticField
      text = headerText(
        referenceFrame: referenceFrame, includeMagneticField: includeMagneticField)
    }

    /// Appends one row.
    ///
    /// - Parameter motion: The device motion.
    /// - Throws: `RecordingError` when the file cannot be written (a full disk).
    public func append(_ motion: DeviceMotion) throws(RecordingError) {
      appendRow(motion, includeMagneticField: includeMagneticField, to: &text)
      count += 1
      if text.utf8.count >= 1 << 20 {
        try file.write(text)
        text = ""
      }
    }

    /// Writes the last rows and moves the file into place.
    ///
    /// - Throws: `RecordingError` when the file cannot be written or renamed.
    public func commit() throws(RecordingError) {
      try file.write(text)
      text = ""
      try file.commit()
    }
  }
}

/// Fuses a recording into a device-motion CSV as it streams (`swell fuse`): the recording is
/// pulled through a `MotionManager` (the one loop that pulls a source, and the one place that
/// decides 6D or 9D), each fused sample is optionally resampled and written as it comes, so
/// memory does not grow with the recording. A recording of device motion passes through in its
/// own frame.
public struct RecordingFusion: Sendable {
  /// The frame of the attitudes (for raw recordings).
  public var referenceFrame = AttitudeReferenceFrame.xArbitraryZVertical
  /// The fusion, overriding the frame's own (9D in the arbitrary frame); `nil` follows the
  /// frame (`MotionManager/fusionMode`).
  public var mode: AttitudeEstimator.Mode?
  /// Magnetic declination, degrees east (needed for true north).
  public var magneticDeclination: Double?
  /// Resample the output to this rate, Hz (`nil`: one row per sample).
  public var rate: Double?

  /// The most rows a resampled output may have (about 2 GB of CSV).
  public static let maximumRows = 10_000_000

  /// A resampling rate that would make more than ``maximumRows`` rows.
  public struct RateTooHigh: Error, Hashable, Sendable {
    /// The rate asked for, Hz.
    public var rate: Double
    /// The recording's span, seconds.
    public var seconds: Double
  }

  /// What was written.
  public struct Report: Hashable, Sendable {
    /// Samples read from the recording.
    public var samples: Int
    /// Rows written.
    public var rows: Int
    /// The fusion used, from the manager; `nil` when device motion passed through.
    public var mode: AttitudeEstimator.Mode?
    /// The frame of the written attitudes.
    public var referenceFrame: AttitudeReferenceFrame
    /// True when the recording has no gyroscope (every reading exactly zero), so its motion was
    /// estimated without one (`TiltEstimator`: the accelerometer alone in 6D, with the
    /// magnetometer as a compass in 9D).
    public var accelerometerOnly = false
  }

  /// Creates the default fusion: 6D in `xArbitraryZVertical`, every sample.
  public init() {}

  /// Fuses a recording into a file.
  ///
  /// - Parameters:
  ///   - source: The recording.
  ///   - url: The device-motion CSV to write (atomically; `-` for standard output).
  ///   - progress: Called with the fraction of the recording's span done (0...1), after each
  ///     sample.
  /// - Returns: What was written.
  /// - Throws: ``RateTooHigh`` before anything is written; `MotionManagerError` when the
  ///   fusion cannot start (a 9D frame without a magnetometer) or the recording fails;
  ///   `RecordingError` when the file cannot be written. The file appears only on success.
  public func run(
    _ source: RecordingSource, to url: URL, progress: (Double) -> Void = { _ in }
  ) throws -> Report {
    if let rate, let span = source.timeSpan {
      let seconds = span.upperBound - span.lowerBound
      guard seconds * rate < Double(Self.maximumRows) else {
        throw RateTooHigh(rate: rate, seconds: seconds)
      }
    }
    let manager = MotionManager(source: source)
    let passFrame = source.deviceMotionReferenceFrame
    manager.fusionMode = passFrame == nil ? mode : nil
    manager.magneticDeclination = magneticDeclination
    let frame = passFrame == nil ? referenceFrame : .xArbitraryZVertical
    let used = try manager.fusionMode(for: frame)
    let samples = manager.deviceMotionSamples(using: frame)
    defer { samples.cancel() }
    let writer = try DeviceMotionCSV.StreamWriter(
      url: url, referenceFrame: passFrame ?? referenceFrame,
      includeMagneticField: used.map { $0 == .nineD } ?? source.hasMagnetometer)
    var resampler = rate.map(DeviceMotionResampler.init(rate:))
    var count = 0
    while let m = try samples.waitForNext() {
      count += 1
      if var r = resampler {
        for out in r.add(m) { try writer.append(out) }
        resampler = r
      } else {
        try writer.append(m)
      }
      if let span = source.timeSpan, span.upperBound > span.lowerBound {
        progress((m.timestamp - span.lowerBound) / (span.upperBound - span.lowerBound))
      }
    }
    if var r = resampler {
      for out in r.finish() { try writer.append(out) }
    }
    try writer.commit()
    return Report(
      samples: count, rows: writer.count, mode: used, referenceFrame: passFrame ?? referenceFrame,
      accelerometerOnly: used != nil && !source.hasGyroscope)
  }
}
