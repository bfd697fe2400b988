import Foundation
import SwellEvdev
import SwellMotion
import Synchronization

/// Writes an evdev source's events as an evemu recording while it records (`swell record
/// evdev -o pad.evemu`): the header from the node's description, then one `E:` line per event,
/// times relative to the first event as `evemu-record` writes them.
///
/// Events arrive through ``write(description:events:)`` (an `EvdevSource` event tap, on the
/// source's task); samples through ``append(_:)`` only count, since the events are the
/// recording. The file appears under its name on ``commit()`` (written to a temporary file and
/// renamed; `-` and FIFOs are written to as the events come). A write that fails is kept and
/// thrown by the next ``append(_:)``, ``flush()`` or ``commit()``, so nothing is lost silently.
///
/// Reading it back (`MotionRecording.load`, `swell fuse`) decodes the same events with the same
/// decoder into the same samples.
public final class EvemuStreamWriter: RecordingSink, Sendable {
  private struct State {
    var writer: EvemuWriter?
    var text = ""
    var failure: RecordingError?
    var events = 0
  }

  private let file: Mutex<AtomicFileWriter>
  private let state = Mutex(State())

  /// The events written so far.
  public var eventCount: Int { state.withLock { $0.events } }

  /// Opens the destination (nothing is written before the first events).
  ///
  /// - Parameter url: The destination (`-` for standard output).
  /// - Throws: `RecordingError` when it cannot be written.
  public init(url: URL) throws(RecordingError) {
    file = Mutex(try AtomicFileWriter(url: url))
  }

  /// Takes a batch of events from the source (its event tap): the first batch writes the
  /// header from `description`.
  ///
  /// - Parameters:
  ///   - description: The node's description (name, ids, bitmasks, axes).
  ///   - events: The events, in order.
  public func write(description: EvdevDeviceDescription, events: [EvdevEvent]) {
    let pending: String? = state.withLock { s in
      if s.writer == nil {
        s.writer = EvemuWriter(description: description)
        s.text += s.writer?.header ?? ""
      }
      for e in events { s.writer?.append(e, to: &s.text) }
      s.events += events.count
      guard s.text.utf8.count >= 1 << 16 else { return nil }
      defer { s.text = "" }
      return s.text
    }
    if let pending { writeOut(pending) }
  }

  /// Counts a sample; the events carry the recording.
  ///
  /// - Parameter sample: The sample.
  /// - Throws: A write that failed earlier.
  public func append(_ sample: IMUSample) throws(RecordingError) {
    if let f = state.withLock({ $0.failure }) { throw f }
  }

  /// Writes the lines taken so far.
  ///
  /// - Throws: `RecordingError` when the file cannot be written.
  public func flush() throws(RecordingError) {
    let pending = state.withLock { s in
      defer { s.text = "" }
      return s.text
    }
    if !pending.isEmpty { writeOut(pending) }
    if let f = state.withLock({ $0.failure }) { throw f }
    let result = file.withLock { box -> RecordingError? in
      do throws(RecordingError) { try box.flush() } catch { return error }
      return nil
    }
    if let result { throw result }
  }

  /// Writes the rest and moves the file into place.
  ///
  /// - Throws: `RecordingError` when nothing was recorded or the file cannot be written.
  public func commit() throws(RecordingError) {
    try flush()
    let result = file.withLock { box -> RecordingError? in
      do throws(RecordingError) { try box.commit() } catch { return error }
      return nil
    }
    if let result { throw result }
  }

  private func writeOut(_ text: String) {
    let error = file.withLock { box -> RecordingError? in
      do throws(RecordingError) { try box.write(text) } catch { return error }
      return nil
    }
    if let error { state.withLock { if $0.failure == nil { $0.failure = error } } }
  }
}

/// Reads the device description of an evemu file (`evemu-describe` output, or a recording whose
/// events are ignored).
public enum EvemuDescriptionFile {
  /// Reads and parses the file.
  ///
  /// - Parameter path: The file (a regular file of at most 1 GiB, UTF-8).
  /// - Returns: The description (name, ids, bitmasks, axes from the `A:` lines).
  /// - Throws: `RecordingError` naming the file, line and field of the first problem.
  public static func read(_ path: String) throws(RecordingError) -> EvdevDeviceDescription {
    let data = try readBytes(URL(fileURLWithPath: path))
    guard let text = String(data: data, encoding: .utf8) else {
      throw RecordingError(file: path, message: "an evemu description that is not UTF-8 text")
    }
    return try EvemuRecording.parse(text, fileName: path).description
  }
}
